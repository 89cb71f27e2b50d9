package gwab

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Whom the book waits for, who its game master is, and what to offer a
// player typing an element's name: what a chat transport needs to call
// players to their turns, hold them to deadlines and complete options.

var (
	_ engine.Awaiter   = Rules{}
	_ engine.Mastered  = Rules{}
	_ engine.Completer = Rules{}
)

// awaited returns the player the book waits for: the challenged Hero's
// player while a challenge is unanswered (10.2.1), the pushed Hero's in a
// duel after an impact (10.2.3), the victor's while an impact waits to be
// spent (10.1.3), and otherwise the player of the clan whose turn it is
// (6.1). Each comes with what stands for him at a deadline: declining,
// fighting on, pushing the loser all the way back, standing aloof.
func awaited(s *State) []engine.Await {
	if s.Phase == Gathering {
		return s.awaitedBots()
	}
	if s.Phase != Playing {
		return nil
	}
	out := s.awaited()
	for i := range out {
		out[i].Round = s.Round
	}
	return out
}

// awaitedBots returns, while the book gathers, the bots it was opened
// for (/book open opponent:bot) that have a clan still to raise: each
// raises its own at once.
func (s *State) awaitedBots() []engine.Await {
	var out []engine.Await
	for _, b := range s.Bots {
		if raise := s.botClans(b); len(raise) > 0 {
			out = append(out, engine.Await{Player: b, Who: string(b), Task: "raise a clan with /clan raise", Timeout: raise[0]})
		}
	}
	return out
}

func (s *State) awaited() []engine.Await {
	if ch := s.Challenge; ch != nil {
		if !ch.Accepted {
			b := s.Element(ch.Challenged)
			if b == nil {
				return nil
			}
			p := s.Clan(b.Clan).Player
			return []engine.Await{{Player: p, Who: b.Name, Task: "answer the challenge to " + b.Name,
				Timeout: engine.Command{Name: "answer", Options: map[string]string{"reply": "decline"}}}}
		}
		if ch.Pushed != "" {
			b := s.Element(ch.Pushed)
			if b == nil {
				return nil
			}
			p := s.Clan(b.Clan).Player
			return []engine.Await{{Player: p, Who: b.Name, Task: "choose whether " + b.Name + " fights on or withdraws",
				Timeout: engine.Command{Name: "answer", Options: map[string]string{"reply": "fight"}}}}
		}
		return nil
	}
	if cl := s.awaitingSuccessor(); cl != nil {
		return []engine.Await{{Player: cl.Player, Who: "the " + cl.Name, Task: "name the " + cl.Name + "' new Hero",
			Timeout: engine.Command{Name: "successor", Options: map[string]string{"companion": string(cl.Successors[0])}}}}
	}
	if s.Fight != nil && s.Fight.Impact != nil {
		v := s.Element(s.Fight.Impact.Victor)
		if v == nil {
			return nil
		}
		cl := s.Clan(v.Clan)
		return []engine.Await{{Player: cl.Player, Who: "the " + cl.Name, Task: "spend " + possessive(cl.Name) + " impact",
			Timeout: engine.Command{Name: "impact"}}}
	}
	if cur := s.Current(); cur != nil {
		return []engine.Await{{Player: cur.Player, Who: "the " + cur.Name, Task: "take " + possessive(cur.Name) + " turn",
			Timeout: engine.Command{Name: "aloof"}}}
	}
	return nil
}

// elementOptions sorts the element options of the commands by whose
// elements they want: the actor's own, his enemies', or the fallen.
var (
	enemyOptions  = []string{"target", "toward", "javelin", "hero", "push"}
	fallenOptions = []string{"body"}
)

// complete offers elements whose short name or name holds typed. The
// likely ones come first: for options that name an enemy (target, toward,
// hero…), the actor's antagonists, and for a challenge their Heroes; for
// a body, the fallen; for the rest, the actor's own elements, those of
// the clan whose turn it is before his other clan's. Options holding a
// comma-separated list complete their last name.
func complete(s *State, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	if command == "setup clear" && option == "name" {
		return s.completeTerrain(typed)
	}
	head, last := "", typed
	if i := strings.LastIndex(typed, ","); i >= 0 {
		head, last = typed[:i+1], typed[i+1:]
	}
	last = strings.ToLower(strings.TrimSpace(last))
	mine := map[ClanTag]int{}
	for _, cl := range s.PlayerClans(actor) {
		mine[cl.Tag] = 2
	}
	if cur := s.Current(); cur != nil && cur.Player == actor {
		mine[cur.Tag] = 1
	}
	enemy := func(el *Element) bool {
		for t := range mine {
			if s.Antagonists(t, el.Clan) {
				return true
			}
		}
		return false
	}
	type cand struct {
		el    *Element
		rank  int
		match int
	}
	var cands []cand
	for i := range s.Elements {
		el := &s.Elements[i]
		id, name := strings.ToLower(string(el.ID)), strings.ToLower(el.Name)
		match := 0
		switch {
		case last == "":
		case strings.HasPrefix(id, last) || strings.HasPrefix(name, last):
		case strings.Contains(id, last) || strings.Contains(name, last):
			match = 1
		default:
			continue
		}
		rank := 5
		switch {
		case slices.Contains(fallenOptions, option):
			if el.Status == Fallen {
				rank = 0
			}
		case slices.Contains(enemyOptions, option):
			if enemy(el) && el.Status == Standing {
				rank = 1
				if option == "hero" && s.isHero(el) {
					rank = 0
				}
			}
		default:
			if m, ok := mine[el.Clan]; ok && el.Status == Standing {
				rank = m - 1
			}
		}
		if el.Status == Removed {
			rank = 9
		}
		cands = append(cands, cand{el, rank, match})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.match, b.match))
	})
	out := make([]engine.Completion, len(cands))
	for i, c := range cands {
		out[i] = engine.Completion{Value: head + string(c.el.ID), Label: head + c.el.Label()}
	}
	return out
}
