package sweet

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// A bot given a seat while the book musters picks its army at once; if
// its turn to pick is passed over, its deadline picks the first sample
// list, the Egyptians, for it, and the player who opened the book is then
// left to muster against them.
func TestABotsMusterDeadlinePicksTheFirstList(t *testing.T) {
	tb := enginetest.NewTable(New())
	if _, err := tb.Play("@alice /book open rules:sweet opponent:bot\n"); err != nil {
		t.Fatal(err)
	}
	fired, err := tb.Deadline()
	if err != nil || !fired {
		t.Fatalf("the bot's muster deadline: fired %v, %v", fired, err)
	}
	out := tb.Transcript()
	if !strings.Contains(out, "list:egyptian") || !strings.Contains(out, "Egyptians") {
		t.Errorf("the deadline did not pick the Egyptians for the bot:\n%s", out)
	}
	if strings.Count(out, "(deadline for") != 1 {
		t.Errorf("one deadline fired, the transcript says otherwise:\n%s", out)
	}
}

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
