package sgboh

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// Discord offers a player's own counters first where he names one of
// his (unit:, leader:), and the enemy's first where he names a target:
// his own leaders after his own units and before anything of the
// enemy's, and for a target every unit before any leader, who cannot be
// shot at or shocked.
func TestCompleteOffersTheLikelyFirst(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@gm /book open rules:sgboh scenario:plain
@alice /side take side:1
@bob /side take side:2`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := tb.Game().State.(*State)
	me := s.armyOf("alice")
	// kind names what each offer is: 0 a unit of mine, 1 a leader of
	// mine, 2 an enemy unit, 3 an enemy leader.
	kind := func(id string) int {
		if u := s.unit(id); u != nil {
			if u.Side == me {
				return 0
			}
			return 2
		}
		for _, l := range s.Leaders {
			if l.ID == id {
				if l.Side == me {
					return 1
				}
				return 3
			}
		}
		t.Fatalf("%s is offered but is no counter", id)
		return -1
	}
	// The place of each kind in the order offered, for each option.
	for option, rank := range map[string]map[int]int{
		"unit":   {0: 0, 1: 1, 2: 2, 3: 3},
		"target": {2: 0, 0: 1, 1: 2, 3: 2},
	} {
		got := complete(s, "alice", "shock", option, "")
		if len(got) == 0 {
			t.Fatalf("%s: nothing offered", option)
		}
		last := 0
		for _, c := range got {
			r := rank[kind(c.Value)]
			if r < last {
				t.Errorf("%s: %s (%s) comes after what should follow it", option, c.Value, c.Label)
				break
			}
			last = r
		}
	}
}
