package gwab

import (
	"fmt"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// Movement rates in strides (8.1).
const (
	footMove = 3.0
	// moveSlack forgives rounding in typed positions: a move may exceed
	// its allowance by this much.
	moveSlack = 0.05
)

// move walks one foot element of the acting clan (8): it may turn freely
// and then go straight, its front centre travelling no more than its
// allowance (8.4).
func move(tx *engine.Tx, s *State, c engine.Command) error {
	cl, el, err := actingElement(s, c, "element")
	if err != nil {
		return err
	}
	switch {
	case el.Status != Standing:
		return engine.Refuse("8", "%s is no longer in the fight and cannot move.", el.Label())
	case el.Kind == Chariot:
		return engine.Refuse("8.4", "A chariot is driven, not walked: use /drive.")
	case el.Aboard != "":
		return engine.Refuse("8.2", "%s rides %s; he must get down first (/dismount, or /drive … dismount:).", el.Label(), el.Aboard)
	case !el.Placed:
		return engine.Refuse("7", "%s is not on the table.", el.Label())
	}
	if foe := s.engagedWith(el); foe != nil {
		return engine.Refuse("10", "%s is in melee contact with %s and cannot walk away; only an impact or a joker breaks contact.", el.Label(), foe.Label())
	}
	if c.Has("to") && c.Has("toward") {
		return engine.Refuse("", "Give either to: or toward:, not both.")
	}
	allowance := footMove
	if el.Doubled {
		allowance *= 2 // a Joker's dispensation (11.1)
	}
	allowance = s.burdened(el, allowance)
	start := el.Base
	front := start.FrontCenter()
	facing := start.Facing
	dest := front
	var target *Element
	switch {
	case c.Has("to"):
		if dest, err = engine.ReadPoint("to", c.Opt("to"), "strides"); err != nil {
			return err
		}
		if d := front.Dist(dest); d > allowance+moveSlack {
			return engine.Refuse("8.1", "%s moves at most %g strides; %s is %.1f strides from its front.", el.Label(), allowance, dest, d)
		}
	case c.Has("toward"):
		if target, err = s.findElement(c.Opt("toward")); err != nil {
			return err
		}
		if target == el {
			return engine.Refuse("", "An element cannot move toward itself.")
		}
		if !target.Placed || target.Status == Removed {
			return engine.Refuse("", "%s is not on the table.", target.Label())
		}
		dist := allowance
		if c.Has("strides") {
			n, err := c.Int("strides", 0)
			if err != nil {
				return err
			}
			if n < 1 || float64(n) > allowance {
				return engine.Refuse("8.1", "strides: must be from 1 to %g for %s.", allowance, el.Label())
			}
			dist = float64(n)
		}
		facing = engine.HeadingTo(front, target.Base.Center)
		dest = front.Add(facing.Vec().Scale(dist))
	case !c.Has("facing"):
		return engine.Refuse("", "Say where to: to:x,y, toward:ELEMENT, or facing: to turn in place.")
	}
	if c.Has("facing") {
		if facing, err = engine.ReadFacing(c.Opt("facing")); err != nil {
			return err
		}
	}
	turned := start.WithFacing(facing)
	end := turned.WithFrontCenter(dest)

	// The path: turn where it stands, then go straight. Stands of its own
	// clan may be passed through (8.3); every other stand blocks.
	var blockers []*Element
	var blockBases []engine.Base
	for i := range s.Elements {
		o := &s.Elements[i]
		if o == el || o.Status != Standing || !o.Placed || o.Clan == el.Clan {
			continue
		}
		blockers = append(blockers, o)
		blockBases = append(blockBases, o.Base)
	}
	if frac, hit := turned.Sweep(end.Center, blockBases...); hit >= 0 {
		short := (1 - frac) * turned.Center.Dist(end.Center)
		if target == nil && short > engine.ContactTolerance {
			return engine.Refuse("8.3", "The way to %s is blocked by %s.", dest, blockers[hit].Label())
		}
		// Toward a stand, or to a point a hair past first contact: stop
		// in contact.
		end = turned.WithCenter(turned.Center.Lerp(end.Center, frac))
	}
	if end, err = s.footTerrain(el, turned, end, target != nil); err != nil {
		return err
	}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o != el && o.Status == Standing && o.Placed && end.Clashes(o.Base) {
			return engine.Refuse("8.3", "%s cannot end its move on top of %s.", el.Label(), o.Label())
		}
	}
	if !s.Board.holds(end) {
		return engine.Refuse("8", "That would take %s off the table (it is %g by %g strides).", el.Label(), s.Board.Width, s.Board.Depth)
	}
	if err := s.checkBurden(el, start, end); err != nil {
		return err
	}
	strides := math.Round(front.Dist(end.FrontCenter())*10) / 10
	var contacts []string
	for i := range s.Elements {
		if o := &s.Elements[i]; o.ID != el.ID && o.inPlay() && s.Antagonists(el.Clan, o.Clan) && end.Touches(o.Base) {
			contacts = append(contacts, o.Label())
		}
	}
	if err := tx.Emit(Moved{Clan: cl.Tag, Element: el.ID, Label: el.Label(), From: start, To: end, Strides: strides, Contacts: contacts}); err != nil {
		return err
	}
	if err := afterBurdenedMove(tx, s, el); err != nil {
		return err
	}
	return afterAction(tx)
}

// engagedWith returns a standing enemy element that el touches, or nil.
func (s *State) engagedWith(el *Element) *Element {
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.inPlay() && el.Base.Near(o.Base, engine.ContactTolerance) && s.Antagonists(el.Clan, o.Clan) && el.Base.Touches(o.Base) {
			return o
		}
	}
	return nil
}

// holds reports whether base b lies wholly on the table.
func (b Board) holds(base engine.Base) bool {
	const eps = 1e-6
	for _, p := range base.Corners() {
		if p.X < -eps || p.Y < -eps || p.X > b.Width+eps || p.Y > b.Depth+eps {
			return false
		}
	}
	return true
}

func describeMove(m Moved) string {
	text := describeStep(m)
	if len(m.Contacts) > 0 {
		text += fmt.Sprintf(" It is now in contact with %s; the melee is fought at the end of the round (5, 10).", engine.JoinAnd(m.Contacts))
	}
	return text
}

func describeStep(m Moved) string {
	to := m.To.FrontCenter()
	switch {
	case m.Strides == 0 && m.From.Facing != m.To.Facing:
		return fmt.Sprintf("%s turns to face %s.", m.Label, m.To.Facing)
	case m.From.Facing != m.To.Facing:
		return fmt.Sprintf("%s moves %s to %s, facing %s.", m.Label, strideText(m.Strides), to, m.To.Facing)
	}
	return fmt.Sprintf("%s moves %s to %s.", m.Label, strideText(m.Strides), to)
}
