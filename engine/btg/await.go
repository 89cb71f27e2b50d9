package btg

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Whom the battle waits for, who its game master is, and what to offer a
// player typing a unit's name.

var (
	_ engine.Awaiter   = Rules{}
	_ engine.Mastered  = Rules{}
	_ engine.Completer = Rules{}
)

// awaited returns the players the battle waits for, each with what
// stands for him at a deadline: /done (which passes the card, ends his
// leaders' moves or his fire), /stand for a charged unit, and for the
// game master's decision nothing (he is reminded, not replaced).
func awaited(s *State) []engine.Await {
	if s.Stage == Mustering {
		return s.awaitedBots()
	}
	if len(s.Armies) < 2 || s.Stage == Over {
		return nil
	}
	wait := func(side Side, task string, timeout engine.Command) engine.Await {
		a := s.Armies[side]
		return engine.Await{Player: a.Player, Who: "the " + a.Name, Round: s.Turn, Task: task, Timeout: timeout}
	}
	done := engine.Command{Name: "done"}
	if w := s.Await; w != nil {
		t := s.Unit(w.Target)
		return []engine.Await{wait(t.Side, fmt.Sprintf("answer %s's charge on %s with /avoid or /stand", w.Charger, t.ID), engine.Command{Name: "stand"})}
	}
	if j := s.Judge; j != nil {
		return []engine.Await{{Player: s.Master, Who: "the game master", Round: s.Turn, Task: "decide on " + j.Event + ": " + strings.TrimSuffix(j.Ask, ".")}}
	}
	var out []engine.Await
	switch s.Stage {
	case Deploying, Fire:
		what := map[Stage]string{Deploying: "deployment", Fire: "fire"}[s.Stage]
		for side := BlackSide; side <= RedSide; side++ {
			if !s.Armies[side].Done {
				out = append(out, wait(side, fmt.Sprintf("finish %s %s", engine.Possessive("the "+s.Armies[side].Name), what), done))
			}
		}
	case Movement:
		c := s.Card
		if c == nil {
			return nil
		}
		if c.Leaders {
			for side := BlackSide; side <= RedSide; side++ {
				if !c.Done[side] {
					out = append(out, wait(side, fmt.Sprintf("move %s lone leaders on the %s", engine.Possessive("the "+s.Armies[side].Name), c.Card.Name()), done))
				}
			}
			return out
		}
		what := fmt.Sprintf("%s of the %s", plural(c.Units, "unit", "units"), s.Armies[c.Side].Name)
		if c.Units <= 0 {
			what = s.cardLeft(c) // a unit that moves twice, again
		}
		out = append(out, wait(c.Side, fmt.Sprintf("move %s on the %s", what, c.Card.Name()), done))
	}
	return out
}

// awaitedBots returns, while the battle musters, the bots it was opened
// for that lead no army yet: each picks its own at once, or the first
// sample army at a deadline.
func (s *State) awaitedBots() []engine.Await {
	leads := func(b engine.PlayerID) bool { _, ok := s.sideOf(b, BlackSide); return ok }
	pick := engine.Command{Name: "army pick", Options: map[string]string{"list": sampleKeys()[0]}}
	return engine.AwaitBots(s.Bots, leads, len(s.Armies), 2, "pick an army with /army pick", pick)
}

// complete offers units and leaders whose name holds typed: for target:
// the enemy's first, for every other option the actor's own first.
func complete(s *State, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	if option == "structure" || option == "name" {
		var cands []engine.Candidate
		for _, f := range s.Terrain {
			cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: f.Name, Label: f.Label()}, Names: []string{f.Name}})
		}
		return engine.Ranked(typed, cands)
	}
	mine := func(side Side) bool {
		a := s.army(side)
		return a != nil && a.Player == actor
	}
	var cands []engine.Candidate
	for i := range s.Units {
		u := &s.Units[i]
		rank := 2
		if mine(u.Side) == (option != "target") {
			rank = 0
		}
		if !u.In() {
			rank = 9
		}
		cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: u.ID, Label: u.Label()}, Names: []string{u.ID, u.Class.String()}, Rank: rank})
	}
	if option != "target" {
		for i := range s.Leaders {
			l := &s.Leaders[i]
			rank := 1
			if !mine(l.Side) {
				rank = 3
			}
			if l.Gone {
				rank = 9
			}
			if option == "leader" {
				rank--
			}
			cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: l.ID, Label: l.Label()}, Names: []string{l.ID, "leader"}, Rank: rank})
		}
	}
	slices.SortStableFunc(cands, func(a, b engine.Candidate) int { return cmp.Compare(a.Rank, b.Rank) })
	return engine.Ranked(strings.TrimSpace(typed), cands)
}
