package goliath

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// setupGame opens a small battle by the given method, raises and deploys
// both armies, and returns it at its first turn.
func setupGame(t testing.TB, method string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 5)
	p.Must(t,
		"alice|book open|method:"+method+"|size:48x36",
		"alice|army raise|name:Men|units:12 heavy infantry, 8 longbowmen, 6 heavy cavalry+bow, 1 hero heavy horse, 1 wizards",
		"bob|army raise|name:Dead|units:12 orcs, 6 ghouls, 1 trolls, 8 wights, 1 dragon, 1 wizards",
		"alice|setup terrain|kind:woods|where:10,14 18,20|name:wood",
		"alice|setup terrain|kind:water|where:26,15 34,19|name:pond",
		"alice|place|unit:all", "alice|done",
		"bob|place|unit:all", "bob|done",
	)
	return p
}

var fuzzSeeds = []string{
	"alice|answer|reply:first\nalice|move|unit:MEN-1|to:6,14\nalice|done\nbob|done\nalice|done\nbob|done",
	"alice|answer|reply:second\nbob|charge|unit:DEA-2|target:MEN-1\nbob|done\nalice|fire|unit:MEN-3|target:DEA-2\nalice|done",
	"bob|answer|reply:first\nbob|move|unit:DEA-5|to:30,20|air:yes\nbob|done\nalice|formation|unit:MEN-1|frontage:4\nalice|done\nbob|cast|unit:DEA-5|spell:breath|target:MEN-1",
	"alice|orders|unit:MEN-1|order:if enemy within 12: charge DEA-1 else move to 6,14\nalice|done\nbob|orders|unit:DEA-1|order:fire at MEN-2\nbob|done",
	"alice|orders|unit:MEN-5|order:cast fireball at DEA-1\nbob|orders|unit:DEA-6|order:dance\nalice|done\nbob|done\nalice|done",
	"alice|ruling|unit:DEA-1|reason:x|status:routed\nalice|ruling|unit:MEN-1|figures:3|tired:yes|reason:y\nalice|book end",
	"alice|face|unit:MEN-2|facing:E\nbob|concede",
}

// FuzzTurns plays any commands after a move/countermove set-up: no
// command panics or is recorded in a way that does not replay to the
// same game.
func FuzzTurns(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	started := enginetest.Prepare(f, setupGame(f, "move"))
	f.Fuzz(func(t *testing.T, script string) {
		enginetest.Fuzz(t, started.Player(), script, nil)
	})
}

// FuzzOrders is FuzzTurns for a battle of written orders.
func FuzzOrders(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	started := enginetest.Prepare(f, setupGame(f, "orders"))
	f.Fuzz(func(t *testing.T, script string) {
		enginetest.Fuzz(t, started.Player(), script, nil)
	})
}

// FuzzUnits: a list a player types never panics, and one that reads
// makes units within the limits.
func FuzzUnits(f *testing.F) {
	for _, s := range []string{"30 light infantry, 12 heavy cavalry+bow, 1 hero heavy horse", "2 xyz", "0 orcs", ",,", "1 ranger light foot, 3 giants", "5 light cavalry +longbow"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		profs, counts, pts, err := ParseUnits(nil, s)
		if err != nil {
			return
		}
		total := 0.0
		for i, p := range profs {
			if counts[i] < 1 || counts[i] > maxFigures || p.HT < 1 || p.AR < LI || p.AR > HC || p.DR < LI || p.DR > HC {
				t.Fatalf("%q read as %+v x%d", s, p, counts[i])
			}
			total += p.Pts * float64(counts[i])
		}
		if total != pts || len(profs) > 26 {
			t.Fatalf("%q: %d units costing %v, said %v", s, len(profs), total, pts)
		}
	})
}
