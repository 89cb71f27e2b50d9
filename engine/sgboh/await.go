package sgboh

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var (
	_ engine.Awaiter   = Rules{}
	_ engine.Mastered  = Rules{}
	_ engine.Completer = Rules{}
)

// awaited returns the player the battle waits for: the one a question is
// put to, with its default answer at the deadline (stand, stand, fire at
// the first attacker, pursue); otherwise the side to act, for whom the
// deadline gives /done in an activation and /pass when he may roll for
// continuity. A free activation has no default: the game waits.
func awaited(s *State) []engine.Await {
	if len(s.Armies) < 2 {
		return nil
	}
	f := s.Flow
	if f.Stage == SettingUp {
		return s.awaitedBots()
	}
	wait := func(side int, task string, timeout engine.Command) []engine.Await {
		a := s.Armies[side]
		return []engine.Await{{Player: a.Player, Who: a.Name, Round: f.Count, Task: task, Timeout: timeout}}
	}
	if len(f.Queue) > 0 {
		q := f.Queue[0]
		return wait(q.Side, "answer for "+q.Unit+" ("+q.Kind+")", engine.Command{Name: "answer", Options: map[string]string{"reply": q.fallback()}})
	}
	switch f.Stage {
	case Free:
		return wait(f.Side, "activate a leader or group", engine.Command{})
	case Acting:
		return wait(f.Side, "act with the activated units, then /done", engine.Command{Name: "done"})
	case Continuity:
		return wait(f.Side, "roll for continuity or pass", engine.Command{Name: "pass"})
	}
	return nil
}

// awaitedBots returns, while the battle is set up, the bots it was
// opened for (opponent:bot or bots) that command no side yet, once the
// sides left are no more than they: each takes the first side left, so
// that a player who opened against the bot chooses his side first.
func (s *State) awaitedBots() []engine.Await {
	var out []engine.Await
	for _, b := range s.Bots {
		if take, ok := s.botSide(b); ok {
			out = append(out, engine.Await{Player: b, Who: string(b), Task: "take a side with /side take", Timeout: take})
		}
	}
	return out
}

// botSide is the side bot b takes while the battle is set up, once the
// sides left are no more than the bots without one: the first side left
// for the first of those bots, the second for the second; ok is false
// while b waits, or commands a side already.
func (s *State) botSide(b engine.PlayerID) (engine.Command, bool) {
	if len(s.Armies) < 2 || s.armyOf(b) >= 0 || !slices.Contains(s.Bots, b) {
		return engine.Command{}, false
	}
	var free []int
	for i, a := range s.Armies {
		if a.Player == "" {
			free = append(free, i)
		}
	}
	var waiting []engine.PlayerID
	for _, o := range s.Bots {
		if s.armyOf(o) < 0 {
			waiting = append(waiting, o)
		}
	}
	if len(free) == 0 || len(free) > len(waiting) {
		return engine.Command{}, false
	}
	k := slices.Index(waiting, b)
	if k >= len(free) {
		return engine.Command{}, false
	}
	return engine.NewCommand(b, "side take", "side", strconv.Itoa(free[k]+1)), true
}

// complete offers units and leaders whose name holds typed: the enemy's
// first for target:, the actor's own first otherwise; and the lines of his
// army for line:.
func complete(s *State, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	me := s.armyOf(actor)
	var cands []engine.Candidate
	if option == "line" {
		seen := map[string]bool{}
		for i := range s.Units {
			u := &s.Units[i]
			if (me < 0 || u.Side == me) && !seen[u.Line] {
				seen[u.Line] = true
				cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: u.Line, Label: u.Line}, Names: []string{u.Line}})
			}
		}
		return engine.Ranked(typed, cands)
	}
	for i := range s.Units {
		u := &s.Units[i]
		rank := 2
		if (u.Side == me) == (option != "target") {
			rank = 0
		}
		if !u.On() {
			rank = 9
		}
		cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: u.ID, Label: u.Label()}, Names: []string{u.ID, u.Name}, Rank: rank})
	}
	for i := range s.Leaders {
		l := &s.Leaders[i]
		rank := 3
		if l.Side == me && option != "target" {
			rank = 1
		}
		cands = append(cands, engine.Candidate{Completion: engine.Completion{Value: l.ID, Label: l.ID + " (" + l.Name + ")"}, Names: []string{l.ID, l.Name}, Rank: rank})
	}
	slices.SortStableFunc(cands, func(a, b engine.Candidate) int { return cmp.Compare(a.Rank, b.Rank) })
	return engine.Ranked(strings.TrimSpace(typed), cands)
}
