package sweet

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestDeadlinesCarryATurnThrough plays a whole turn with a charge in it by
// the commands that stand for late players, as a transport's deadlines
// would give them: each is accepted, and the game moves on to the next
// turn with the melee fought out.
func TestDeadlinesCarryATurnThrough(t *testing.T) {
	p := setupGame(t)
	g := p.Game
	r := New()
	s := g.State.(*State)
	if r.Master(s) != "alice" {
		t.Fatalf("the master is %q", r.Master(s))
	}
	att := s.Attacker
	charged := false
	for step := 0; step < 20 && g.State.(*State).Turn == 1; step++ {
		s := g.State.(*State)
		if s.Stage == Movement && !charged {
			// The attacker charges: its first heavy infantry into a foe
			// set beside it.
			var mine, foe *Unit
			for i := range s.Units {
				u := &s.Units[i]
				if u.Type == HeavyInfantry && mine == nil && u.Side == att {
					mine = u
				}
				if u.Type == HeavyInfantry && foe == nil && u.Side != att {
					foe = u
				}
			}
			at := mine.At.Step(att.forward())
			mustDo(t, p, engine.Command{Actor: "alice", Name: "place", Directive: true, Args: []string{string(foe.ID), at.String(), att.Back().String()}})
			mustDo(t, p, engine.Command{Actor: s.Armies[att].Player, Name: "move", Options: map[string]string{"unit": string(mine.ID), "to": at.String()}})
			charged = true
			continue
		}
		waits := r.Awaited(s)
		if len(waits) == 0 {
			t.Fatalf("turn 1, %s stage: no one is awaited", s.Stage)
		}
		for _, w := range waits {
			if w.Round != 1 || w.Timeout.Name == "" || w.Timeout.Actor != w.Player {
				t.Fatalf("%+v", w)
			}
		}
		mustDo(t, p, waits[0].Timeout)
	}
	s = g.State.(*State)
	if s.Turn != 2 || s.Attacker == att {
		t.Fatalf("turn %d, the %s attack: the turn did not pass", s.Turn, s.Attacker)
	}
	if len(s.Melees) != 0 {
		t.Fatalf("melees left over: %+v", s.Melees)
	}
	var resolved bool
	for i := range s.Units {
		if s.Units[i].Fought == 1 {
			resolved = true
		}
	}
	if !resolved || !charged {
		t.Fatal("no melee was fought in turn 1")
	}
}
