package sweet

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Whom the game waits for, who its game master is, and what to offer a
// player typing a unit's name: what a chat transport needs to call
// players to their part of a turn, hold them to deadlines and complete
// options.

var (
	_ engine.Awaiter   = Rules{}
	_ engine.Mastered  = Rules{}
	_ engine.Completer = Rules{}
)

// awaited returns the players the game waits for in its stage, each with
// what stands for him at a deadline: /done, which ends his part of the
// stage (in deployment it lays out what is left first), or in a melee the
// indicator WITHDRAWAL laid face down for him.
func awaited(s *State) []engine.Await {
	if s.Stage == Mustering {
		return s.awaitedBots()
	}
	if len(s.Armies) < 2 {
		return nil
	}
	wait := func(side Side, task string, timeout engine.Command) engine.Await {
		a := s.Armies[side]
		return engine.Await{Player: a.Player, Who: "the " + a.Name, Round: s.Turn, Task: task, Timeout: timeout}
	}
	done := engine.Command{Name: "done"}
	var out []engine.Await
	switch s.Stage {
	case Deploying, Catapults, Missiles:
		what := map[Stage]string{Deploying: "deployment", Catapults: "catapult fire", Missiles: "missile fire"}[s.Stage]
		for side := South; side <= North; side++ {
			if !s.Armies[side].Done {
				out = append(out, wait(side, fmt.Sprintf("finish %s %s", engine.Possessive("the "+s.Armies[side].Name), what), done))
			}
		}
	case Movement:
		out = append(out, wait(s.Attacker, fmt.Sprintf("move the %s", s.armyName(s.Attacker)), done))
	case Supports:
		out = append(out, wait(s.Supporting, fmt.Sprintf("declare %s supports", engine.Possessive("the "+s.armyName(s.Supporting))), done))
	case Melees:
		for side := South; side <= North; side++ {
			at := s.waitingMelees(side)
			if len(at) == 0 {
				continue
			}
			mdi := engine.Command{Name: "mdi", Options: map[string]string{"choice": "withdrawal", "melee": at[0]}}
			task := fmt.Sprintf("choose %s deployment for the melee at %s with /mdi", engine.Possessive("the "+s.armyName(side)), at[0])
			if len(at) > 1 {
				task = fmt.Sprintf("choose %s deployment for each of the melees at %s, naming it with /mdi melee:", engine.Possessive("the "+s.armyName(side)), engine.JoinAnd(at))
			}
			out = append(out, wait(side, task, mdi))
		}
	}
	return out
}

// awaitedBots returns, while the book musters, the bots the book was
// opened for that lead no army yet: each picks its own at once, or the
// first sample list at a deadline.
func (s *State) awaitedBots() []engine.Await {
	leads := func(b engine.PlayerID) bool { _, ok := s.sideOf(b, South); return ok }
	pick := engine.Command{Name: "army pick", Options: map[string]string{"list": listKeys()[0]}}
	return engine.AwaitBots(s.Bots, leads, len(s.Armies), 2, "pick an army with /army pick", pick)
}

// waitingMelees lists, in the order they were charged, the squares of the
// melees still waiting for side's indicator.
func (s *State) waitingMelees(side Side) []string {
	var at []string
	for _, m := range s.Melees {
		if !m.Resolved && m.Choice[side] == NoMDI {
			at = append(at, m.At.String())
		}
	}
	return at
}

// complete offers units whose name holds typed: for target: the enemy's
// first, for every other option the actor's own on the board first.
func complete(s *State, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	typed = strings.ToLower(strings.TrimSpace(typed))
	type cand struct {
		u          *Unit
		rank, part int
	}
	var cands []cand
	for i := range s.Units {
		u := &s.Units[i]
		id, name := strings.ToLower(string(u.ID)), strings.ToLower(u.Type.Name())
		part := 0
		switch {
		case typed == "" || strings.HasPrefix(id, typed):
		case strings.Contains(id, typed) || strings.Contains(name, typed):
			part = 1
		default:
			continue
		}
		mine := false
		if a := s.army(u.Side); a != nil && a.Player == actor {
			mine = true
		}
		rank := 2
		if mine == (option != "target") {
			rank = 0
		}
		if !u.OnBoard() {
			rank = 9
		}
		cands = append(cands, cand{u, rank, part})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.part, b.part))
	})
	out := make([]engine.Completion, len(cands))
	for i, c := range cands {
		out[i] = engine.Completion{Value: string(c.u.ID), Label: c.u.Label()}
	}
	return out
}
