package bot

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// Two bots fight a whole book while the club watches: the command that
// gives them the seats plays a bounded share of their steps, and the
// deadline loop's CheckBots plays the rest, a share at a time, until the
// book ends; every step is in the log. The armies are big enough that
// the book outlasts the first request's share.
func TestBotsFightABookToTheEnd(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{sweet.New()}, Directives: true, Seed: func() uint64 { return 5 }})
	doAll(t, r, []string{
		"@alice /book open rules:sweet size:10x8 turns:12",
		`/army build name:Romans units:"1 CMD, 4 HI, 2 LI, 2 LC"`,
		`@bob /army build name:Gauls tag:GAU units:"1 SUB, 4 HI, 2 LI, 2 LC"`,
		`@alice /seat hand seat:ROM bot:easy reason:"the bots fight tonight"`,
	})
	info, err := st.ActiveGame(ctx, "g", "c")
	if err != nil {
		t.Fatal(err)
	}
	reps := do(t, r, `@alice /seat hand seat:GAU bot:easy reason:"the bots fight tonight"`)
	if len(reps) < 2 || !strings.Contains(reps[1].Text, "placed") {
		t.Fatalf("the bots did not play at once after the seat was handed: %+v", reps)
	}
	played := checkBotsToTheEnd(t, r)
	if _, err := st.ActiveGame(ctx, "g", "c"); err == nil {
		t.Fatal("the book is still open after the bots played on")
	}
	g, err := Replay(ctx, st, sweet.New(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.State.Over() {
		t.Fatal("the replayed book has not ended")
	}
	if played == 0 {
		t.Fatal("the book ended within the first request's share of steps: CheckBots was not tried")
	}
}

// checkBotsToTheEnd runs the deadline loop's CheckBots until the bots in
// channel c have nothing left to play, and returns how many times it
// posted something.
func checkBotsToTheEnd(t *testing.T, r *Router) int {
	t.Helper()
	ctx := context.Background()
	played := 0
	for round := 0; ; round++ {
		if round > 100 {
			t.Fatal("the bots never finished their book")
		}
		more, err := r.CheckBots(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(more) == 0 {
			break
		}
		played++
		for _, m := range more {
			if m.Channel != "c" {
				t.Fatalf("a bot's step posted to channel %q", m.Channel)
			}
		}
	}
	return played
}

// A club that wants to watch opens a book with both sides for the bot:
// the bots muster their armies at once, each under its own mark, and
// fight the book to its end, every step in the log.
func TestBookOpenedForTwoBots(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "r.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{sweet.New()}, Directives: true, Seed: func() uint64 { return 5 }})
	reps := do(t, r, "@alice /book open rules:sweet size:10x8 turns:4 opponent:bots level:easy")
	var said []string
	for _, rep := range reps {
		said = append(said, rep.Text)
	}
	all := strings.Join(said, "\n")
	for _, want := range []string{"The bot leads both sides", "bot:easy#1 leads the", "bot:easy#2 leads the", "placed in"} {
		if !strings.Contains(all, want) {
			t.Fatalf("opening a book for two bots did not say %q:\n%s", want, all)
		}
	}
	info, err := st.ActiveGame(ctx, "g", "c")
	if err != nil {
		t.Fatal(err)
	}
	checkBotsToTheEnd(t, r)
	g, err := Replay(ctx, st, sweet.New(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !g.State.Over() {
		t.Fatal("the two bots' book has not ended")
	}
}

// /why tells apart the three ways a candidate can stand without a score:
// the bot's only command, and candidates its search left off because they
// looked weaker one step ahead; a command it played out shows its score.
func TestWhySaysWhyACandidateWasNotPlayedOut(t *testing.T) {
	cmd := func(unit string) engine.Command {
		return engine.Command{Name: "move", Options: map[string]string{"unit": unit}}
	}
	forced := botWhy{seq: 7, player: "bot:easy#B", decision: engine.Decision{
		Command: cmd("A1"), Weighed: []engine.Scored{{Command: cmd("A1")}}}}
	if got, want := forced.text(), "At step 7 the bot (bot:easy#B) gave /move unit:A1, the only command the rules allowed it there."; got != want {
		t.Errorf("a forced step:\ngot  %q\nwant %q", got, want)
	}
	chosen := botWhy{seq: 9, player: "bot:easy#B", decision: engine.Decision{
		Command: cmd("A1"), Weighed: []engine.Scored{
			{Command: cmd("A1"), Score: 0.25, Playouts: 3},
			{Command: cmd("A2"), Score: -0.5, Playouts: 1},
			{Command: cmd("A3"), Score: -2},
		}}}
	got := chosen.text()
	for _, want := range []string{
		"\n1. /move unit:A1: +0.25 over 3 playouts",
		"\n2. /move unit:A2: -0.50 over 1 playout",
		"\n3. /move unit:A3: not played out, since it looked weaker one step ahead",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("/why says\n%s\nwithout %q", got, want)
		}
	}
	if strings.Contains(got, "only") {
		t.Errorf("/why calls a candidate among three the only one:\n%s", got)
	}
}

// Drawn by chance from candidates of equal chance, the one drawn heads
// /why's list, rather than hiding among "… and more".
func TestWhyListsTheDrawnChoiceFirstOfItsChance(t *testing.T) {
	pick := func(list string) engine.Command {
		return engine.Command{Name: "army", Options: map[string]string{"pick": "", "list": list}}
	}
	var weighed []engine.Scored
	for _, l := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		weighed = append(weighed, engine.Scored{Command: pick(l), Chance: 1.0 / 7})
	}
	w := botWhy{seq: 3, player: "bot:easy", decision: engine.Decision{Command: pick("g"), Weighed: weighed}}
	got := w.text()
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], pick("g").String()+": 14%") {
		t.Errorf("/why does not list the drawn army first:\n%s", got)
	}
	if !strings.Contains(got, "… and 2 candidates more.") {
		t.Errorf("/why lists the rest wrongly:\n%s", got)
	}
}
