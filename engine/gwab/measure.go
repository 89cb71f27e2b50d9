package gwab

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// spot is what a player measured from or to: an element on the table, or
// a place.
type spot struct {
	el *Element
	at engine.Vec
}

// spotOf reads an element's name or a place x,y.
func (s *State) spotOf(name, typed string) (spot, error) {
	if p, err := engine.ParseVec(typed); err == nil {
		return spot{at: p}, nil
	}
	el, err := s.findElement(typed)
	if err != nil {
		return spot{}, engine.Refuse("", "%s:%s is neither an element nor a place x,y in strides.", name, typed)
	}
	if !el.Placed || el.Status != Standing {
		return spot{}, engine.Refuse("", "%s is not on the table.", el.Label())
	}
	return spot{el: el, at: el.Base.FrontCenter()}, nil
}

// measure is the tape measure (8.1, 9.3): the distance between two
// elements or places, or what an element can reach.
func measure(s *State, actor engine.PlayerID, from, to string) (string, error) {
	if len(s.Elements) == 0 {
		return "", engine.Refuse("", "There is nothing on the table to measure yet.")
	}
	a, err := s.spotOf("from", from)
	if err != nil {
		return "", err
	}
	if to == "" {
		if a.el == nil {
			return "", engine.Refuse("", "Measure from an element to see its reach, or give to: as well.")
		}
		return s.reach(a.el), nil
	}
	b, err := s.spotOf("to", to)
	if err != nil {
		return "", err
	}
	switch {
	case a.el != nil && b.el != nil:
		gap := a.el.Base.Gap(b.el.Base)
		return fmt.Sprintf("%s to %s: %s between the bases (as missiles are measured, 9.3); %s from front to front.",
			a.el.Label(), b.el.Label(), strideText(gap), strideText(a.at.Dist(b.at))), nil
	case a.el != nil:
		return fmt.Sprintf("From the front of %s (%s) to %s: %s.", a.el.Label(), a.at, b.at, strideText(a.at.Dist(b.at))), nil
	case b.el != nil:
		return fmt.Sprintf("From %s to the front of %s (%s): %s.", a.at, b.el.Label(), b.at, strideText(a.at.Dist(b.at))), nil
	}
	return fmt.Sprintf("From %s to %s: %s.", a.at, b.at, strideText(a.at.Dist(b.at))), nil
}

// reach says how far el moves and shoots, and which antagonists stand
// within its missiles' reach.
func (s *State) reach(el *Element) string {
	var b strings.Builder
	move := chariotMove
	if el.Kind != Chariot {
		move = s.walkAllowance(el)
	}
	fmt.Fprintf(&b, "%s stands with its front at %s, facing %s. It moves up to %s (8.1).", el.Label(), el.Base.FrontCenter(), el.Base.Facing, strideText(move))
	_, short, err := s.missile(el)
	if err != nil {
		return b.String() + " It shoots no missiles."
	}
	fmt.Fprintf(&b, " It shoots up to %s at short range, and at long range beyond that (9.3).", strideText(short))
	type foe struct {
		label string
		d     float64
	}
	var foes []foe
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.inPlay() && s.Antagonists(el.Clan, o.Clan) {
			foes = append(foes, foe{o.Label(), el.Base.Gap(o.Base)})
		}
	}
	// Nearest first, by the distance as it is read out: two that read the
	// same keep the table's order.
	slices.SortStableFunc(foes, func(x, y foe) int { return cmp.Compare(math.Round(10*x.d), math.Round(10*y.d)) })
	foes = foes[:min(len(foes), 5)]
	if len(foes) == 0 {
		return b.String() + " No antagonist stands on the table."
	}
	parts := make([]string, len(foes))
	for i, f := range foes {
		r := "short"
		if f.d > short+moveSlack {
			r = "long"
		}
		parts[i] = fmt.Sprintf("%s %s (%s)", f.label, strideText(f.d), r)
	}
	fmt.Fprintf(&b, " The nearest antagonists: %s; a stand in the way may still block the shot (9.1).", engine.JoinAnd(parts))
	return b.String()
}
