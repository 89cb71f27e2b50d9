package gwab

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A game master's ruling: after the cards are drawn, the table may agree
// that the result should stand otherwise (a card turned by mistake, a
// stand knocked over, a disputed measurement). /ruling sets what the
// ruling changes, with the reason, as its own event: the log, the export
// and the picture show it, a replay comes to the same position, and
// honor it moves goes into the saga's ledger like any honor. /undo still
// takes back the last step.

// Ruled is a game master's ruling on one element. Each field set is what
// the ruling changed; the rest stands as it was.
type Ruled struct {
	engine.Ruling
	Element ElementID    `json:"element"`
	Wounds  *int         `json:"wounds,omitempty"`
	Limit   int          `json:"limit,omitempty"`
	From    *engine.Base `json:"from,omitempty"`
	To      *engine.Base `json:"to,omitempty"`
	Status  *Status      `json:"status,omitempty"`
}

func (Ruled) Kind() string { return "gwab.ruled" }

var rulingBodies = engine.BodyTypes{Ruled{}.Kind(): engine.Decoder[Ruled]()}

func (b Ruled) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	if b.Wounds != nil {
		el.Wounds = int16(*b.Wounds)
	}
	if b.To != nil {
		el.Base, el.Placed = *b.To, true
	}
	if b.Status != nil {
		el.Status = *b.Status
	}
	return nil
}

func (b Ruled) Text() string {
	var what []string
	if b.Wounds != nil {
		what = append(what, fmt.Sprintf("%d of %d wounds", *b.Wounds, b.Limit))
	}
	if b.To != nil {
		what = append(what, fmt.Sprintf("at %s facing %s", b.To.FrontCenter(), b.To.Facing))
	}
	if b.Status != nil {
		switch *b.Status {
		case Removed:
			what = append(what, "taken off the table")
		default:
			what = append(what, "back in play")
		}
	}
	return b.Tell("game master", what)
}

var rulingCommands = []command{
	{CommandSpec: engine.RulingSpec("Overrule a result, with the reason: set an element's wounds, position or whether it is in play, or a Hero's honor. It is logged as a ruling; /undo still takes back the last step. Game master only.",
		`/ruling piece:TRO-W1 wounds:1 reason:"the card was turned by mistake"`, "the element the ruling is on",
		engine.OptionSpec{Name: "wounds", Help: "the wounds it has now, from 0 to one less than it takes to fall", Kind: engine.OptInt},
		engine.OptionSpec{Name: "at", Help: "where its front centre stands now, as x,y in strides", Kind: engine.OptPoint},
		engine.OptionSpec{Name: "facing", Help: "its facing now: N, NE, E… or degrees"},
		engine.OptionSpec{Name: "status", Help: "standing to bring it back into play, removed to take it off the table", Choices: []string{"standing", "removed"}},
		engine.OptionSpec{Name: "honor", Help: "a Hero's honor now, whole points from 0 (4)", Kind: engine.OptInt},
	), Run: rule},
}

func rule(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Phase != Playing {
		return engine.Refuse("", "A ruling overrules play; this book is not in play.")
	}
	reason, err := engine.RulingReason(c)
	if err != nil {
		return err
	}
	el, err := s.findElement(c.Opt("piece"))
	if err != nil {
		return err
	}
	b := Ruled{Ruling: engine.Ruling{By: c.Actor, Label: el.Label(), Reason: reason}, Element: el.ID}
	if c.Has("wounds") {
		n, err := c.Int("wounds", 0)
		if err != nil {
			return err
		}
		limit := s.woundLimit(el)
		if n < 0 || n >= limit {
			return engine.Refuse("10.1.3", "%s falls at %d wounds; a ruling sets from 0 to %d. To take it off the table, rule status:removed.", el.Label(), limit, limit-1)
		}
		b.Wounds, b.Limit = &n, limit
	}
	if c.Has("at") || c.Has("facing") {
		to, err := ruledBase(s, el, c.Opt("at"), c.Opt("facing"))
		if err != nil {
			return err
		}
		from := el.Base
		b.From, b.To = &from, &to
	}
	if c.Has("status") {
		st := Standing
		if strings.EqualFold(c.Opt("status"), "removed") {
			st = Removed
		}
		if el.Status == Fallen {
			return engine.Refuse("10.3", "%s has fallen; his body stays on the table until it is carried off (10.3).", el.Label())
		}
		b.Status = &st
	}
	var honor *HonorChanged
	if c.Has("honor") {
		n, err := c.Int("honor", 0)
		if err != nil {
			return err
		}
		if !s.isHero(el) {
			return engine.Refuse("4", "Only a clan's Hero has honor; %s is not one.", el.Label())
		}
		if n < 0 {
			return engine.Refuse("4.3", "Honor never goes below zero.")
		}
		wounds := int(el.Wounds)
		if b.Wounds != nil {
			wounds = *b.Wounds
		}
		if limit := heroLimit(n, int(el.Aegis)); wounds >= limit {
			return engine.Refuse("10.1.3", "At %d honor %s would be %s, who falls at %d wounds, and he has %d; a ruling stops short of a fall.", n, el.Name, rankName(classFor(n)), limit, wounds)
		}
		if n != el.Honor {
			h := honorChange(s, el, n-el.Honor, Ruling, reason)
			honor = &h
		}
	}
	if b.Wounds == nil && b.To == nil && b.Status == nil && honor == nil {
		return engine.Refuse("", "A ruling sets something: wounds:, at:, facing:, status: or honor:, and it would change nothing here.")
	}
	if b.Wounds != nil || b.To != nil || b.Status != nil {
		if err := tx.Emit(b); err != nil {
			return err
		}
	}
	if honor != nil {
		return tx.Emit(*honor)
	}
	return nil
}

// ruledBase is where a ruling puts el: at the position written x,y ("" to
// keep it) facing as written ("" to keep its facing), on the table and on
// no other element.
func ruledBase(s *State, el *Element, at, facing string) (engine.Base, error) {
	base := el.Base
	if el.Aboard != "" {
		return base, engine.Refuse("8.2", "%s rides %s; a ruling moves the chariot.", el.Label(), el.Aboard)
	}
	if facing != "" {
		h, err := engine.ReadFacing(facing)
		if err != nil {
			return base, err
		}
		base.Facing = h
	}
	front := base.FrontCenter()
	if at != "" {
		p, err := engine.ReadPoint("at", at, "strides")
		if err != nil {
			return base, err
		}
		front = p
	}
	base = base.WithFrontCenter(front)
	if !s.Board.holds(base) {
		return base, engine.Refuse("", "That is off the table (%g by %g strides).", s.Board.Width, s.Board.Depth)
	}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o != el && o.Status == Standing && o.Placed && o.Aboard == "" && base.Clashes(o.Base) {
			return base, engine.Refuse("", "%s would stand on %s there.", el.Label(), o.Label())
		}
	}
	return base, nil
}
