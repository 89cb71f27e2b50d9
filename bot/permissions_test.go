package bot

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

// as runs line as user with the server's say on him.
func as(t *testing.T, r *Router, line string, user engine.PlayerID, admin bool, roles ...string) []Reply {
	t.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: user, Command: l.Command, Admin: admin, Roles: roles})
}

func refused(reps []Reply) bool { return len(reps) == 1 && reps[0].Ephemeral }

// TestGameMasters: the opener, a member who manages the server and a
// member of the game-master role take steps back and set deadlines; a
// player who is none of these is refused, privately.
func TestGameMasters(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "gm.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Directives: true, GMRole: "heralds", Logger: testLogger(t)})
	doAll(t, r, practiceSetup)
	do(t, r, "@alice /aloof")
	if reps := as(t, r, "/undo", "bob", false); !refused(reps) || !strings.Contains(reps[0].Text, "game master (alice)") {
		t.Fatalf("bob's /undo was answered %+v", reps)
	}
	if reps := as(t, r, "/undo", "bob", false, "players"); !refused(reps) {
		t.Fatalf("bob with another role took a step back: %+v", reps)
	}
	if reps := as(t, r, "/book deadline hours:3", "bob", false); !refused(reps) {
		t.Fatalf("bob set a deadline: %+v", reps)
	}
	if reps := as(t, r, "/undo", "carol", true); refused(reps) {
		t.Fatalf("carol, who manages the server, was refused: %+v", reps)
	}
	if reps := as(t, r, "/book deadline hours:3", "dave", false, "heralds"); refused(reps) {
		t.Fatalf("dave of the game-master role was refused: %+v", reps)
	}
	if reps := as(t, r, "/book deadline hours:999", "alice", false); !refused(reps) {
		t.Fatalf("a deadline of 999 hours was set: %+v", reps)
	}
	if reps := as(t, r, "/book end", "dave", false, "heralds"); refused(reps) {
		t.Fatalf("dave of the game-master role could not end the book: %+v", reps)
	}
}

// TestTurnCalls: with turn calls on, a step that brings a player's turn
// calls him in a channel message that pings him alone; the local table
// (turn calls off) says nothing more.
func TestTurnCalls(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "calls.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Directives: true, TurnCalls: true, Logger: testLogger(t)})
	doAll(t, r, practiceSetup)
	reps := do(t, r, "@alice /aloof")
	var calls []Reply
	for _, rep := range reps {
		if rep.Channel != "" {
			calls = append(calls, rep)
		}
	}
	if len(calls) != 1 || calls[0].Channel != "c" || !slices.Equal(calls[0].Mentions, []engine.PlayerID{"bob"}) ||
		!strings.Contains(calls[0].Text, "bob, the table waits for you") {
		t.Fatalf("after alice's turn the calls were %+v", calls)
	}
	if reps := do(t, r, "/status"); len(reps) != 1 || reps[0].Channel != "" {
		t.Fatalf("a command that changes nothing called someone: %+v", reps)
	}
}

// TestDeadlineStandsInAndSurvives: a deadline set by the game master
// reminds, then stands the late clan aloof, on the router's clock; a
// router started afresh on the same database keeps it.
func TestDeadlineStandsInAndSurvives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deadline.db")
	st := openStore(t, path)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st.Now = clock
	cfg := Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Directives: true, Now: clock, Logger: testLogger(t)}
	r := NewRouter(cfg)
	doAll(t, r, practiceSetup)
	if reps := do(t, r, "@alice /book deadline hours:4"); refused(reps) || !strings.Contains(reps[0].Text, "4 hours") {
		t.Fatalf("the deadline was answered %+v", reps)
	}
	if reps := do(t, r, "@alice /book deadline"); !refused(reps) {
		t.Fatalf("/book deadline without hours was taken: %+v", reps)
	}
	r = NewRouter(cfg) // a restart
	if out, err := r.CheckDeadlines(context.Background()); err != nil || len(out) != 0 {
		t.Fatalf("before its time the deadline did %+v, %v", out, err)
	}
	now = now.Add(3*time.Hour + time.Minute)
	out, err := r.CheckDeadlines(context.Background())
	if err != nil || len(out) != 1 || !strings.HasPrefix(out[0].Text, "Reminder") || !slices.Equal(out[0].Mentions, []engine.PlayerID{"alice"}) {
		t.Fatalf("the reminder was %+v, %v", out, err)
	}
	if out, _ := r.CheckDeadlines(context.Background()); len(out) != 0 {
		t.Fatalf("the reminder came twice: %+v", out)
	}
	now = now.Add(time.Hour)
	// Two routers share the store, as two instances behind a load
	// balancer would; one alone stands in.
	other := NewRouter(cfg)
	var wg sync.WaitGroup
	var otherOut []Reply
	wg.Go(func() { otherOut, _ = other.CheckDeadlines(context.Background()) })
	out, err = r.CheckDeadlines(context.Background())
	wg.Wait()
	if len(out) == 0 {
		out = otherOut
	} else if len(otherOut) != 0 {
		t.Fatalf("both routers stood in: %+v and %+v", out, otherOut)
	}
	if n := count(kinds(t, st), "gwab.stood-aloof"); n != 1 {
		t.Fatalf("%d stood-aloof events after one deadline", n)
	}
	if err != nil || len(out) < 2 || !strings.HasPrefix(out[0].Text, "Time is up for the Myrmidons (alice)") ||
		!strings.Contains(out[1].Text, "The Myrmidons stand aloof") {
		t.Fatalf("at the deadline: %+v, %v", out, err)
	}
	for _, o := range out {
		if o.Channel != "c" {
			t.Errorf("%q goes to channel %q", o.Text, o.Channel)
		}
	}
	if reps := do(t, r, "@alice /aloof"); !refused(reps) {
		t.Fatalf("alice acted twice in a round: %+v", reps)
	}
	if k := kinds(t, st); k[len(k)-1] != "gwab.stood-aloof" && !slices.Contains(k, "gwab.stood-aloof") {
		t.Fatalf("no stood-aloof in the log: %v", k)
	}
	do(t, r, "@alice /book end")
	now = now.Add(10 * time.Hour)
	if out, err := r.CheckDeadlines(context.Background()); err != nil || len(out) != 0 {
		t.Fatalf("an ended book's deadline did %+v, %v", out, err)
	}
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// TestStandInForAStepPassedIsRefused: a deadline's stand-in names the
// step it was meant for, and does nothing once a player has acted.
func TestStandInForAStepPassedIsRefused(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "atseq.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Directives: true, Logger: testLogger(t)})
	doAll(t, r, practiceSetup)
	info, err := st.ActiveGame(context.Background(), "g", "c")
	if err != nil {
		t.Fatal(err)
	}
	do(t, r, "@alice /aloof")
	reps := r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: "bob", Command: engine.Command{Name: "aloof"}, AtSeq: info.Head})
	if !refused(reps) || !strings.Contains(reps[0].Text, "moved on") {
		t.Fatalf("a stand-in for a past step was answered %+v", reps)
	}
}

func TestMergeCommands(t *testing.T) {
	a := []engine.CommandSpec{{Name: "book open", Help: "first", Options: []engine.OptionSpec{
		{Name: "rules", Help: "r"}, {Name: "mode", Help: "m", Choices: []string{"battle"}, Required: true}}}}
	b := []engine.CommandSpec{{Name: "book open", Help: "second", Options: []engine.OptionSpec{
		{Name: "mode", Help: "m", Choices: []string{"battle", "skirmish"}}, {Name: "grid", Help: "g"}}}, {Name: "deploy", Help: "d"}}
	got := mustMerge(t, a, b)
	if len(got) != 2 || got[0].Help != "first" || got[1].Name != "deploy" {
		t.Fatalf("merged %+v", got)
	}
	if len(got[0].Options) != 3 || got[0].Options[2].Name != "grid" {
		t.Fatalf("options %+v", got[0].Options)
	}
	mode := got[0].Options[1]
	if !slices.Equal(mode.Choices, []string{"battle", "skirmish"}) || mode.Required {
		t.Errorf("mode merged as %+v", mode)
	}
	if len(a[0].Options[1].Choices) != 1 {
		t.Error("merging changed its input")
	}
	// Two rule systems' /fire: what only one of them asks for is not
	// required of everyone.
	fa := []engine.CommandSpec{{Name: "fire", Options: []engine.OptionSpec{{Name: "element", Required: true}, {Name: "target", Required: true}}}}
	fb := []engine.CommandSpec{{Name: "fire", Options: []engine.OptionSpec{{Name: "unit", Required: true}, {Name: "target", Required: true}}}}
	fire := mustMerge(t, fa, fb)[0]
	for _, o := range fire.Options {
		if o.Required != (o.Name == "target") {
			t.Errorf("fire's %s merged as required %v", o.Name, o.Required)
		}
	}
	if !mustMerge(t, fa)[0].Options[0].Required {
		t.Error("one list's required option lost its requirement")
	}
	// One option name, two kinds: a transport could type it only one way,
	// so the merge refuses.
	pa := []engine.CommandSpec{{Name: "fire", Options: []engine.OptionSpec{{Name: "at", Kind: engine.OptText}}}}
	pb := []engine.CommandSpec{{Name: "fire", Options: []engine.OptionSpec{{Name: "at", Kind: engine.OptPoint}}}}
	if _, err := MergeCommands(pa, pb); err == nil || !strings.Contains(err.Error(), "/fire at:") {
		t.Errorf("two kinds for /fire at: merged, err %v", err)
	}
}

func mustMerge(t *testing.T, lists ...[]engine.CommandSpec) []engine.CommandSpec {
	t.Helper()
	got, err := MergeCommands(lists...)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestCompleteElementsAndSagaHeroes: a player typing an element's name is
// offered the book's elements, his own first; typing a Hero's name in a
// saga command, the saga's Heroes, his own first.
func TestCompleteElementsAndSagaHeroes(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "complete.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Logger: testLogger(t)})
	do(t, r, "@alice /saga start name:Wrath quorum:3")
	doAll(t, r, append([]string{"@alice /book open"}, raidClans...))
	do(t, r, "@alice /book start")
	req := func(user engine.PlayerID, command string) Request {
		return Request{Guild: "g", Channel: "c", User: user, Command: engine.Command{Name: command}}
	}
	els := r.Complete(context.Background(), req("carol", "move"), "element", "")
	if len(els) < 14 || !strings.HasPrefix(els[0].Value, "DAR-") && !strings.HasPrefix(els[0].Value, "ARG-") {
		t.Fatalf("carol moving is offered %v", els)
	}
	heroes := r.Complete(context.Background(), req("carol", "saga hero"), "name", "")
	var names []string
	for _, h := range heroes {
		names = append(names, h.Value)
	}
	if len(names) != 6 || !slices.Contains(names[:2], "Aeneas") || !slices.Contains(names[:2], "Diomedes") {
		t.Errorf("carol naming a saga Hero is offered %v", names)
	}
	if got := r.Complete(context.Background(), req("alice", "saga hero"), "name", "ach"); len(got) != 1 || got[0].Value != "Achilles" {
		t.Errorf("alice typing ach is offered %v", got)
	}
	if got := r.Complete(context.Background(), Request{Guild: "g", Channel: "elsewhere", User: "alice", Command: engine.Command{Name: "move"}}, "element", ""); len(got) != 0 {
		t.Errorf("a channel without a book offers %v", got)
	}
}
