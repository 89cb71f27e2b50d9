package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A clan left with no Hero or Companion "disengages in any melee and
// exits the field of play towards their original placement" (10.1.3).
// Its stands are out of the fight from that moment (status Withdrawing:
// no melee, no missile, no block), and the table moves them for the
// clan, administratively: at the start of every round, before anyone
// acts, each goes straight back toward its own edge, where its clan
// deployed, by its full move (8: 3 strides on foot, 9 for a chariot),
// through anything in its way, and leaves the table on reaching the edge.

// Withdrew is one round's withdrawal of a leaderless clan's stands.
type Withdrew struct {
	Clan   ClanTag      `json:"clan"`
	Name   string       `json:"name"`
	Stands []Withdrawal `json:"stands"`
}

// Withdrawal is one stand going back: to To, or off the table.
type Withdrawal struct {
	Element ElementID   `json:"element"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
	Off     bool        `json:"off,omitempty"`
}

func (Withdrew) Kind() string { return "gwab.withdrew" }

var withdrawBodies = engine.BodyTypes{Withdrew{}.Kind(): engine.Decoder[Withdrew]()}

func (b Withdrew) Apply(s *State) error {
	for _, w := range b.Stands {
		el, err := s.mustElement(w.Element)
		if err != nil {
			return err
		}
		if el.Status != Withdrawing {
			return fmt.Errorf("gwab: %s is not withdrawing", el.ID)
		}
		el.Base = w.To
		if w.Off {
			el.Status = Removed
		}
	}
	return nil
}

func (b Withdrew) Text() string {
	var gone, going []string
	for _, w := range b.Stands {
		if w.Off {
			gone = append(gone, string(w.Element))
		} else {
			going = append(going, fmt.Sprintf("%s to %s", w.Element, w.To.FrontCenter()))
		}
	}
	var parts []string
	if len(going) > 0 {
		parts = append(parts, "fall back "+strings.Join(going, ", "))
	}
	switch len(gone) {
	case 0:
	case 1:
		parts = append(parts, gone[0]+" leaves the table")
	default:
		parts = append(parts, engine.JoinAnd(gone)+" leave the table")
	}
	return fmt.Sprintf("The leaderless %s withdraw toward their edge: %s (10.1.3).", b.Name, strings.Join(parts, "; "))
}

// withdrawals moves every withdrawing stand back, clan by clan.
func withdrawals(tx *engine.Tx) error {
	s := tx.State().(*State)
	if !slices.ContainsFunc(s.Elements, func(el Element) bool { return el.Status == Withdrawing }) {
		return nil // as at most rounds' end
	}
	for _, cl := range s.Clans {
		ev := Withdrew{Clan: cl.Tag, Name: cl.Name}
		for _, el := range s.ClanElements(cl.Tag) {
			if el.Status != Withdrawing {
				continue
			}
			ev.Stands = append(ev.Stands, s.withdraw(el, cl.Side))
		}
		if len(ev.Stands) == 0 {
			continue
		}
		if err := tx.Emit(ev); err != nil {
			return err
		}
	}
	return nil
}

// withdraw is el's move straight back toward its side's edge, turned to
// face it, by its full move; Off when that reaches the edge.
func (s *State) withdraw(el *Element, side Side) Withdrawal {
	w := Withdrawal{Element: el.ID, From: el.Base}
	step := footMove
	if el.Kind == Chariot {
		step = chariotMove
	}
	to := el.Base
	to.Facing = 180 // toward the protagonists' edge, y = 0
	if side == Antagonist {
		to.Facing = 0
	}
	to.Center = to.Center.Add(to.Facing.Vec().Scale(step))
	for _, p := range to.Corners() {
		if p.Y <= engine.ContactTolerance || p.Y >= s.Board.Depth-engine.ContactTolerance {
			w.Off = true
		}
	}
	w.To = to
	return w
}
