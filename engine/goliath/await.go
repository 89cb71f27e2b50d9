package goliath

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Whom the battle waits for, who referees it, and what to offer a player
// typing a unit's name.

var (
	_ engine.Awaiter   = Rules{}
	_ engine.Mastered  = Rules{}
	_ engine.Completer = Rules{}
)

// awaited returns the players the battle waits for, each with what
// stands for him at a deadline: /done (which ends his moves, his fire,
// his orders: a unit without orders holds), and "first" for the
// initiative's winner. The referee is reminded, not replaced.
func awaited(s *State) []engine.Await {
	if s.Stage == Mustering {
		return s.awaitedBots()
	}
	if len(s.Armies) < 2 || s.Stage == Over {
		return nil
	}
	wait := func(side Side, task string, timeout engine.Command) engine.Await {
		a := s.Armies[side]
		return engine.Await{Player: a.Player, Who: a.Name, Round: s.Turn, Task: task, Timeout: timeout}
	}
	done := engine.Command{Name: "done"}
	switch s.Stage {
	case Deploying, Orders:
		what := map[Stage]string{Deploying: "deploy", Orders: "write their orders"}[s.Stage]
		var out []engine.Await
		for side := South; side <= North; side++ {
			if !s.Armies[side].Done {
				out = append(out, wait(side, fmt.Sprintf("%s for %s", what, s.Armies[side].Name), done))
			}
		}
		return out
	case Initiative:
		return []engine.Await{wait(s.Chooser, "choose to move first or second", engine.Command{Name: "answer", Options: map[string]string{"reply": "first"}})}
	case Moving:
		return []engine.Await{wait(s.Active, "move "+s.Armies[s.Active].Name, done)}
	case Missile:
		return []engine.Await{wait(s.Active, "shoot with "+s.Armies[s.Active].Name, done)}
	case Referee:
		return []engine.Await{{Player: s.Master, Who: "the referee", Round: s.Turn, Task: "carry out the orders of " + strings.Join(s.Pending, ", ") + ", then /done"}}
	}
	return nil
}

// complete offers units whose name holds typed: for target: the enemy's
// first, for every other option the actor's own first; for name: the
// terrain.
func complete(s *State, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	if option == "name" {
		var cands []engine.Candidate
		for _, f := range s.Terrain {
			cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: f.Name, Label: f.Label()}, Names: []string{f.Name}})
		}
		return engine.Ranked(typed, cands)
	}
	var cands []engine.Candidate
	for i := range s.Units {
		u := &s.Units[i]
		a := s.army(u.Side)
		mine := a != nil && a.Player == actor
		rank := 2
		if mine == (option != "target") {
			rank = 0
		}
		if !u.In() {
			rank = 9
		}
		cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: u.ID, Label: u.Label()}, Names: []string{u.ID, u.Profile.Name}, Rank: rank})
	}
	slices.SortStableFunc(cands, func(a, b engine.Candidate) int { return cmp.Compare(a.Rank, b.Rank) })
	return engine.Ranked(strings.TrimSpace(typed), cands)
}

// awaitedBots returns, while the battle musters, the bots it was opened
// for that lead no army yet: each raises its own at once, or leads the
// first sample army at a deadline.
func (s *State) awaitedBots() []engine.Await {
	leads := func(b engine.PlayerID) bool { _, ok := s.sideOf(b, South); return ok }
	pick := engine.Command{Name: "army pick", Options: map[string]string{"list": sampleKeys()[0]}}
	return engine.AwaitBots(s.Bots, leads, len(s.Armies), 2, "raise an army with /army raise or /army pick", pick)
}
