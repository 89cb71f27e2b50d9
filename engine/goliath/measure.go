package goliath

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The tape measure (/measure): inches between two units or places, or
// what a unit can reach this turn, measured as movement (Turn sequence,
// Facing and Formation, Terrain), missile fire and its arcs (Missile
// Fire), spells (Spells) and a hero's inspiration (Special Abilities, SA
// 4) measure them. It changes nothing.

// spot is what a player measured from or to: a unit, or a place on the
// table.
type spot struct {
	u  *Unit
	at engine.Vec // the unit's front centre, or the place
}

// spotOf reads a unit's name or a place x,y.
func (s *State) spotOf(name, typed string) (spot, error) {
	typed = strings.TrimSpace(typed)
	if p, err := engine.ParseVec(typed); err == nil {
		return spot{at: p}, nil
	}
	u := s.Unit(typed)
	if u == nil {
		return spot{}, engine.Refuse("", "%s:%s is neither a unit nor a place x,y in inches.", name, typed)
	}
	if !u.In() {
		return spot{}, engine.Refuse("", "%s is not on the table.", u.Label())
	}
	return spot{u: u, at: u.Base.FrontCenter()}, nil
}

// measure is the tape measure, in inches: between two units or places,
// or what a unit can reach.
func measure(s *State, actor engine.PlayerID, from, to string) (string, error) {
	if !slices.ContainsFunc(s.Units, func(u Unit) bool { return u.In() }) {
		return "", engine.Refuse("", "There is nothing on the table to measure yet.")
	}
	a, err := s.spotOf("from", from)
	if err != nil {
		return "", err
	}
	if to == "" {
		if a.u == nil {
			return "", engine.Refuse("", "Measure from a unit to see its reach, or give to: as well.")
		}
		return s.reach(a.u), nil
	}
	b, err := s.spotOf("to", to)
	if err != nil {
		return "", err
	}
	d := inches(a.at.Dist(b.at))
	switch {
	case a.u != nil && b.u != nil:
		return s.between(a.u, b.u), nil
	case a.u != nil:
		return fmt.Sprintf("From the front of %s (%s) to %s: %s.", a.u.Label(), a.at, b.at, d), nil
	case b.u != nil:
		return fmt.Sprintf("From %s to the front of %s (%s): %s.", a.at, b.u.Label(), b.at, d), nil
	}
	return fmt.Sprintf("From %s to %s: %s.", a.at, b.at, d), nil
}

// between is the gap between two units' bases, as missiles and charges
// are measured, and whether b lies in a's arc of fire when a shoots.
func (s *State) between(a, b *Unit) string {
	t := fmt.Sprintf("%s to %s: %s between the bases (as missiles are measured, Missile Fire); %s from front to front.",
		a.Label(), b.Label(), inches(a.Base.Gap(b.Base)), inches(a.Base.FrontCenter().Dist(b.Base.FrontCenter())))
	if a.Profile.Shoots() && !a.Profile.Wizard && !a.Profile.Breath {
		in := "outside"
		if left, right := arc(&a.Profile); a.Base.InArc(b.Base, left, right) {
			in = "inside"
		}
		t += fmt.Sprintf(" %s is %s %s's arc of fire, %s (Missile Fire).", b.ID, in, a.ID, arcText(&a.Profile))
	}
	return t
}

// arc is how far to the left and right of its facing a figure shoots:
// horsemen 180° to the left and 45° to the right, foot 45° either side
// (Missile Fire).
func arc(p *Profile) (left, right float64) {
	if p.Cavalry() {
		return 180, 45
	}
	return 45, 45
}

func arcText(p *Profile) string {
	if p.Cavalry() {
		return "180° to its left and 45° to its right"
	}
	return "45° either side of its facing"
}

// reach says how far u moves, charges and shoots this turn, and what
// stands within that reach.
func (s *State) reach(u *Unit) string {
	var b strings.Builder
	p := &u.Profile
	fmt.Fprintf(&b, "%s stands with its front at %s, facing %s.", u.Label(), u.Base.FrontCenter(), u.Base.Facing)
	mv := u.Allowance(s.Turn, false)
	fmt.Fprintf(&b, " It moves up to %s a turn", inches(mv))
	if u.Moved > 0 {
		fmt.Fprintf(&b, ", %s of it left this turn", inches(max(0, u.Allowance(s.Turn, u.Flew)-u.Moved)))
	}
	fmt.Fprintf(&b, "; ground that slows counts double, and each 45° of a turn costs %s (Terrain, Facing and Formation).", inches(mv/4))
	source := "Troop Types"
	if p.Chg == 0 {
		source = "at its move: its type has no charge move"
	}
	switch {
	case p.ChargeMove() <= 0:
	case u.Moved > 0:
		fmt.Fprintf(&b, " It charges up to %s (%s), but a charge is a whole move and it has moved this turn (Turn sequence).", inches(u.ChargeReach(s.Turn)), source)
	default:
		fmt.Fprintf(&b, " It charges up to %s (%s).", inches(u.ChargeReach(s.Turn)), source)
	}
	if p.Fly > 0 {
		fmt.Fprintf(&b, " It flies up to %s instead of walking (Figures).", inches(u.Allowance(s.Turn, true)))
	}
	if err := s.canMove(u); err != nil {
		fmt.Fprintf(&b, " It may not move now: %s", refusalText(err))
	}
	b.WriteString(s.fireReach(u))
	if p.Has(Inspiring) {
		b.WriteString(s.inspires(u))
	}
	return b.String()
}

// fireReach says how far u shoots or casts, and which enemies stand
// within that range.
func (s *State) fireReach(u *Unit) string {
	p := &u.Profile
	var b strings.Builder
	var rng float64
	left, right := arc(p)
	rule := "Missile Fire"
	switch {
	case p.Wizard:
		rng, left, right, rule = wizardRange, 180, 180, "Spells"
		fmt.Fprintf(&b, " It casts bolts, fireballs and spells up to %s, if it has not moved this turn (Spells).", inches(rng))
	case p.Breath:
		rng, left, right, rule = breathRange, 45, 45, "Special Abilities"
		fmt.Fprintf(&b, " It breathes fire up to %s, 45° either side of its facing (Special Abilities, SA 10).", inches(rng))
	case p.Shoots():
		rng = p.Mss
		fmt.Fprintf(&b, " It shoots up to %s, %s (Missile Fire)", inches(rng), arcText(p))
		if p.Weapon.Archers() {
			fmt.Fprintf(&b, ", and overhead up to %s", inches(rng*2/3))
		}
		b.WriteString(".")
		if n, _, why := s.shotsAllowed(u); why != "" {
			fmt.Fprintf(&b, " It may not shoot now: %s.", why)
		} else if u.Shots >= n {
			fmt.Fprintf(&b, " It has shot %s this turn, all it may.", plural(u.Shots, "time", "times"))
		}
	default:
		return " It does not shoot."
	}
	type foe struct {
		label string
		d     float64
	}
	var foes []foe
	for _, t := range s.inPlay(u.Side.Other()) {
		d := u.Base.Gap(t.Base)
		if d > rng+1e-6 {
			continue
		}
		f := foe{t.ID + " " + inches(d), d}
		switch {
		case s.hidden(u, t) != "":
			f.label += " (invisible, SA 1)"
		case !u.Base.InArc(t.Base, left, right):
			f.label += " (outside its arc)"
		}
		foes = append(foes, f)
	}
	if len(foes) == 0 {
		return b.String() + " No enemy stands within that range."
	}
	slices.SortStableFunc(foes, func(x, y foe) int { return cmp.Compare(x.d, y.d) })
	parts := make([]string, len(foes))
	for i, f := range foes {
		parts[i] = f.label
	}
	fmt.Fprintf(&b, " Within it: %s; troops and woods in the line, and the dark, may still stop a shot (%s).", engine.JoinAnd(parts), rule)
	return b.String()
}

// inspires lists the friends within the reach of u's inspiration (SA 4).
func (s *State) inspires(u *Unit) string {
	var near []string
	for _, f := range s.inPlay(u.Side) {
		if f != u && f.Base.Gap(u.Base) <= inspireRange {
			near = append(near, f.ID)
		}
	}
	t := fmt.Sprintf(" It raises the morale of friends within %s (Special Abilities, SA 4)", inches(inspireRange))
	if len(near) == 0 {
		return t + "; none stands there now."
	}
	slices.Sort(near)
	return t + ": " + engine.JoinAnd(near) + "."
}

// refusalText is what a refusal says, with its section, as a sentence of
// the tape measure's answer.
func refusalText(err error) string {
	r, ok := engine.IsRefusal(err)
	if !ok {
		return err.Error() + "."
	}
	t := strings.TrimSuffix(r.Text, ".")
	if r.Rule != "" {
		t += " (" + r.Rule + ")"
	}
	return t + "."
}
