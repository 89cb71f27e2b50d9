package sweet

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// setupGame opens a small game, musters and deploys both armies, and
// returns it at its first turn with the records of its events.
func setupGame(t testing.TB) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 5)
	p.Must(t,
		"alice|book open|size:10x8|turns:3",
		"alice|army build|name:Romans|units:1 CMD, 2 HI, 1 LI, 1 HCAT, 1 FCR, 1 LC, 1 EL",
		"bob|army build|name:Gauls|units:1 SUB, 2 HI, 1 LI, 1 HC, 1 PHA, 1 LCH",
		"alice|place|unit:all", "alice|done", "bob|place|unit:all", "bob|done",
	)
	return p
}

// mustDo plays c, failing the test on a refusal.
func mustDo(t testing.TB, p *enginetest.Player, c engine.Command) {
	t.Helper()
	if _, err := p.Do(t, c); err != nil {
		t.Fatalf("%s: %v", c, err)
	}
}

// FuzzTurns plays any commands after the set-up: no command panics or is
// recorded in a way that does not replay to the same game, and no sealed
// choice's narration tells it.
func FuzzTurns(f *testing.F) {
	for _, seed := range []string{
		"alice|done\nbob|done\nalice|done\nbob|done",
		"alice|fire|unit:ROM-5|at:E6\nalice|done\nalice|fire|unit:ROM-4|at:E7",
		"alice|done\nbob|done\nalice|done\nbob|done\nalice|move|unit:ROM-2|to:E4\nalice|done",
		"bob|done\nalice|done\nbob|done\nalice|done\nbob|move|unit:GAU-3|to:E3|facing:S\nbob|done\nalice|support|unit:ROM-2\nalice|done\nalice|mdi|choice:line\nbob|mdi|choice:pincers",
		"alice|face|unit:ROM-2|facing:NE\nbob|concede",
		"alice|book end",
	} {
		f.Add(seed)
	}
	started := enginetest.Prepare(f, setupGame(f))
	f.Fuzz(func(t *testing.T, script string) {
		enginetest.Fuzz(t, started.Player(), script, func(e engine.Event) error {
			b, ok := e.Body.(MDIChosen)
			if !ok {
				return nil
			}
			for _, m := range New().Narrate(e) {
				if strings.Contains(strings.ToUpper(m.Text), b.Choice.String()) {
					return fmt.Errorf("a sealed choice is told: %s", m.Text)
				}
			}
			return nil
		})
	})
}

// FuzzArmyEntries: a list a player types never panics, and one that reads
// costs what its entries say.
func FuzzArmyEntries(f *testing.F) {
	for _, s := range []string{"1 CMD, 4 HI, 1 HI guard, 3 LI", "2 XYZ", "0 HI", ",,", "LEG guard, 40 SEL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		entries, err := parseEntries(s)
		if err != nil {
			return
		}
		n := 0
		for _, e := range entries {
			if !e.Type.Valid() || e.N < 1 || e.N > 40 {
				t.Fatalf("%q read as %+v", s, e)
			}
			n += e.N
		}
		if got := len(units(entries, South, "T")); got != n {
			t.Fatalf("%q makes %d units, want %d", s, got, n)
		}
	})
}
