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
