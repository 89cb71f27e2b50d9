package btg

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestCompletesUnitsAndLeaders checks what Discord offers as a player
// types a unit or a leader: for leader: his own leaders first, by their
// IDs; for target: the enemy's units first.
func TestCompletesUnitsAndLeaders(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "alice", 5)
	p.Must(t,
		"alice|book open",
		"alice|army build|name:Greeks|civ:greek|units:1 phalanx spear 16, 2 leaders",
		"bob|army build|name:Persians|civ:persian|units:1 hvy-inf spear 12",
		"alice|place|unit:all",
		"bob|place|unit:all",
	)
	r := New()
	got := r.Complete(p.Game.State, "alice", "attach", "leader", "GRE-L")
	if len(got) < 2 || got[0].Value != "GRE-L1" || got[1].Value != "GRE-L2" || got[0].Label == "" {
		t.Errorf("typing GRE-L for leader:, alice is offered %+v; want GRE-L1 and GRE-L2 first, labelled", got)
	}
	got = r.Complete(p.Game.State, "alice", "charge", "target", "")
	if len(got) == 0 || got[0].Value != "PER-1" || got[0].Label == "" {
		t.Errorf("for target:, alice is offered %+v; want the Persians' PER-1 first, labelled", got)
	}
}
