package gwab

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Completer = SagaRules{}

// completeHero offers the saga's Heroes for an option naming one: the living
// before those gone to Tartarus, the actor's own first, those whose name
// begins with what was typed before those that only hold it.
func completeHero(s *Saga, actor engine.PlayerID, command, option, typed string) []engine.Completion {
	t := strings.ToLower(strings.TrimSpace(typed))
	type cand struct {
		h    SagaHero
		rank int
	}
	var cands []cand
	for _, h := range s.Heroes {
		name := strings.ToLower(h.Name)
		rank := 0
		switch {
		case strings.HasPrefix(name, t):
		case strings.Contains(name, t):
			rank = 1
		default:
			continue
		}
		if h.Player != actor {
			rank += 2
		}
		if !h.Alive() {
			rank += 4
		}
		cands = append(cands, cand{h, rank})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.rank, b.rank) })
	out := make([]engine.Completion, len(cands))
	for i, c := range cands {
		label := c.h.Name + " of the " + c.h.Clan
		if !c.h.Alive() {
			label += " (in Tartarus)"
		}
		out[i] = engine.Completion{Value: c.h.Name, Label: label}
	}
	return out
}
