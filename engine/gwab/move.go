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
	if err := s.mayWalk(el); err != nil {
		return err
	}
	if c.Has("to") && c.Has("toward") {
		return engine.Refuse("", "Give either to: or toward:, not both.")
	}
	allowance := s.walkAllowance(el)
	start := el.Base
	front := start.FrontCenter()
	facing, dest, target, err := s.walkTo(c, el, allowance)
	if err != nil {
		return err
	}
	turned := start.WithFacing(facing)
	end, err := s.walkEnd(el, turned, turned.WithFrontCenter(dest), dest, target)
	if err != nil {
		return err
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

// walkAllowance is how far el walks in its move: a foot move (8.1), or
// the slower pace of a stand carrying a body (8.9), doubled by a Joker's
// dispensation (11.1), which doubles whatever pace the stand has.
func (s *State) walkAllowance(el *Element) float64 {
	allowance := s.burdened(el, footMove)
	if el.Doubled {
		allowance *= 2
	}
	return allowance
}

// paceRule is the section that sets how far el walks: a body's carrier
// keeps the pace of 8.9 (doubled or not), any other stand a foot move.
func paceRule(el *Element) string {
	if el.Carrying != "" {
		return "8.9"
	}
	return "8.1"
}

// mayWalk refuses a walk to an element that cannot take one: out of the
// fight, a chariot, aboard one, off the table, or in melee.
func (s *State) mayWalk(el *Element) error {
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
	return nil
}

// walkTo reads where a walk of el goes: the facing it ends with, the
// point its front centre is to reach, and the stand it walks toward
// (nil when it walks to a point or turns in place).
func (s *State) walkTo(c engine.Command, el *Element, allowance float64) (facing engine.Heading, dest engine.Vec, target *Element, err error) {
	front := el.Base.FrontCenter()
	facing, dest = el.Base.Facing, front
	switch {
	case c.Has("to"):
		if dest, err = engine.ReadPoint("to", c.Opt("to"), "strides"); err != nil {
			return facing, dest, nil, err
		}
		if d := front.Dist(dest); d > allowance+moveSlack {
			return facing, dest, nil, engine.Refuse(paceRule(el), "%s moves at most %g strides; %s is %.1f strides from its front.", el.Label(), allowance, dest, d)
		}
	case c.Has("toward"):
		if target, err = s.findElement(c.Opt("toward")); err != nil {
			return facing, dest, nil, err
		}
		if target == el {
			return facing, dest, nil, engine.Refuse("", "An element cannot move toward itself.")
		}
		if !target.Placed || target.Status == Removed {
			return facing, dest, nil, engine.Refuse("", "%s is not on the table.", target.Label())
		}
		dist := allowance
		if c.Has("strides") {
			n, err := c.Int("strides", 0)
			if err != nil {
				return facing, dest, nil, err
			}
			if n < 1 || float64(n) > allowance {
				return facing, dest, nil, engine.Refuse(paceRule(el), "strides: must be from 1 to %g for %s.", allowance, el.Label())
			}
			dist = float64(n)
		}
		facing = engine.HeadingTo(front, target.Base.Center)
		dest = front.Add(facing.Vec().Scale(dist))
	case !c.Has("facing"):
		return facing, dest, nil, engine.Refuse("", "Say where to: to:x,y, toward:ELEMENT, or facing: to turn in place.")
	}
	if c.Has("facing") {
		if facing, err = engine.ReadFacing(c.Opt("facing")); err != nil {
			return facing, dest, nil, err
		}
	}
	return facing, dest, target, nil
}

// passesThrough reports whether el may move through o (8.3): an element
// on foot through any friendly stand, of its own clan or an allied one
// (its side's; 8.3 lets "all other clan elements" interpenetrate
// "friendly elements", the word 8.9 uses for the whole side); a chariot
// only through its own clan's stands. The same player's other clan is on
// the other side and blocks (7.3), as every enemy does.
func (s *State) passesThrough(el, o *Element) bool {
	if o.Clan == el.Clan {
		return true
	}
	if el.Kind == Chariot {
		return false
	}
	a, b := s.Clan(el.Clan), s.Clan(o.Clan)
	return a != nil && b != nil && a.Side == b.Side
}

// walkEnd is where a walk of el from turned to end stops: the path turns
// where it stands, then goes straight; friendly stands may be passed
// through (8.3), every other stand blocks, and terrain may hold it
// (13.1). A walk may not end on a stand or off the table.
func (s *State) walkEnd(el *Element, turned, end engine.Base, dest engine.Vec, target *Element) (engine.Base, error) {
	var blockers []*Element
	var blockBases []engine.Base
	for i := range s.Elements {
		o := &s.Elements[i]
		if o == el || o.Status != Standing || !o.Placed || s.passesThrough(el, o) {
			continue
		}
		blockers = append(blockers, o)
		blockBases = append(blockBases, o.Base)
	}
	if frac, hit := turned.Sweep(end.Center, blockBases...); hit >= 0 {
		short := (1 - frac) * turned.Center.Dist(end.Center)
		if target == nil && short > engine.ContactTolerance {
			return end, engine.Refuse("8.3", "The way to %s is blocked by %s.", dest, blockers[hit].Label())
		}
		// Toward a stand, or to a point a hair past first contact: stop
		// in contact.
		end = turned.WithCenter(turned.Center.Lerp(end.Center, frac))
	}
	end, err := s.footTerrain(el, turned, end, target != nil)
	if err != nil {
		return end, err
	}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o != el && o.Status == Standing && o.Placed && end.Clashes(o.Base) {
			return end, engine.Refuse("8.3", "%s cannot end its move on top of %s.", el.Label(), o.Label())
		}
	}
	if !s.Board.holds(end) {
		return end, engine.Refuse("8", "That would take %s off the table (it is %g by %g strides).", el.Label(), s.Board.Width, s.Board.Depth)
	}
	return end, nil
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
