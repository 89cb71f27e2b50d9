package btg

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// setupGame opens a small battle, raises and deploys both armies, and
// returns it at its first turn.
func setupGame(t testing.TB) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 5)
	p.Must(t,
		"alice|book open|turns:3|cards:4|size:48x36",
		"alice|army build|name:Greeks|civ:greek|units:2 phalanx spear 12, 1 lt-inf bow 8, 1 cav spear 6, 1 catapult engine 4, 1 leader",
		"bob|army build|name:Persians|civ:persian|units:1 elephant tusks 2, 2 hvy-inf spear 10, 1 lt-inf sling 8, 1 camel spear 6, 1 leader",
		"alice|setup terrain|kind:woods|where:10,14 18,20|name:wood",
		"alice|setup terrain|kind:water|where:26,15 34,19|name:pond",
		"alice|setup terrain|kind:wall|where:38,17 46,17|name:wall",
		"alice|done", "bob|done",
	)
	return p
}

// FuzzTurns plays any commands after the set-up: no command panics or is
// recorded in a way that does not replay to the same game.
func FuzzTurns(f *testing.F) {
	for _, seed := range []string{
		"alice|done\nbob|done\nalice|done\nbob|done\nalice|done\nbob|done",
		"alice|move|unit:GRE-1|to:22,10\nalice|charge|unit:GRE-4|target:PER-5\nbob|avoid\nalice|done\nbob|done",
		"bob|move|unit:PER-2|to:24,30|facing:S\nbob|done\nalice|fire|unit:GRE-3|target:PER-4\nalice|done\nbob|fire|unit:PER-4|target:GRE-3\nbob|done",
		"alice|move|unit:GRE-G|to:20,3\nalice|attach|leader:GRE-L1|unit:GRE-3\nalice|detach|leader:GRE-G|to:20,4\nalice|done\nbob|done",
		"alice|fire|unit:GRE-5|structure:wall\nalice|ruling|piece:PER-1|reason:x|status:rampaging\nalice|decide|at:30,17",
		"alice|charge|unit:GRE-1|target:PER-2\nbob|stand\nbob|concede",
		"alice|book end",
	} {
		f.Add(seed)
	}
	started := enginetest.Prepare(f, setupGame(f))
	f.Fuzz(func(t *testing.T, script string) {
		enginetest.Fuzz(t, started.Player(), script, nil)
	})
}

// FuzzArmy: a list a player types never panics, and one that reads makes
// units within the limits.
func FuzzArmy(f *testing.F) {
	for _, s := range []string{"4 phalanx spear 16, 2 lt-inf javelin 8 armor 1, 2 leaders", "2 xyz", "0 cav spear 8", ",,", "40 legion sword 32, 9 leaders", "1 catapult engine 4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		units, leaders, err := ParseArmy(s)
		if err != nil {
			return
		}
		n := 0
		for _, u := range units {
			if u.Count < 1 || u.Figures < MinFigures || u.Figures > MaxFigures || u.Armor < 0 || !canCarry(u.Class, u.Weapon) {
				t.Fatalf("%q read as %+v", s, u)
			}
			n += u.Count
		}
		if n > MaxUnitsPerLine || leaders > MaxLeaders {
			t.Fatalf("%q makes %d units and %d leaders", s, n, leaders)
		}
	})
}
