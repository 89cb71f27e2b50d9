package btg

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The tape measure (/measure): inches between two pieces or places, or
// what a unit or leader can reach, measured as movement (§1), fire (§2,
// 2.A, 2.F) and a lone leader's move (RULINGS.md, btg, "leaders") measure
// them. It changes nothing.

// spot is what a player measured from or to: a unit, a leader, or a
// place on the table.
type spot struct {
	u    *Unit
	l    *Leader
	at   engine.Vec  // a unit's front centre, a leader's place, or the place
	base engine.Base // the piece's base; zero for a place
}

// piece reports whether the spot is a unit or a leader.
func (p spot) piece() bool { return p.u != nil || p.l != nil }

func (p spot) label() string {
	if p.u != nil {
		return p.u.Label()
	}
	return p.l.Label()
}

func (p spot) id() string {
	if p.u != nil {
		return p.u.ID
	}
	return p.l.ID
}

// where names the point of a piece measured to a place: a unit's front
// centre, a leader's place.
func (p spot) where() string {
	if p.u != nil {
		return fmt.Sprintf("the front of %s (%s)", p.u.Label(), p.at)
	}
	return fmt.Sprintf("%s (%s)", p.l.Label(), p.at)
}

// spotOf reads a unit's or a leader's name or a place x,y.
func (s *State) spotOf(name, typed string) (spot, error) {
	typed = strings.TrimSpace(typed)
	if p, err := engine.ParseVec(typed); err == nil {
		return spot{at: p}, nil
	}
	if u := s.Unit(typed); u != nil {
		if !u.In() {
			return spot{}, engine.Refuse("", "%s is not on the table.", u.Label())
		}
		return spot{u: u, at: u.Base.FrontCenter(), base: u.Base}, nil
	}
	if l := s.Leader(typed); l != nil {
		if u := s.Unit(l.Unit); u != nil && u.In() && !l.Gone {
			return spot{l: l, at: u.Base.Center, base: u.Base}, nil
		}
		if l.Gone || !l.Placed || l.Unit != "" {
			return spot{}, engine.Refuse("", "%s is not on the table.", l.Label())
		}
		return spot{l: l, at: l.At, base: l.Base()}, nil
	}
	return spot{}, engine.Refuse("", "%s:%s is neither a unit, a leader nor a place x,y in inches.", name, typed)
}

// anyPlaced reports whether anything stands on the table yet.
func (s *State) anyPlaced() bool {
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.In() })
}

// measure is the tape measure, in inches: between two pieces or places,
// or what a unit or leader can reach.
func measure(s *State, actor engine.PlayerID, from, to string) (string, error) {
	if !s.anyPlaced() {
		return "", engine.Refuse("", "There is nothing on the table to measure yet.")
	}
	a, err := s.spotOf("from", from)
	if err != nil {
		return "", err
	}
	if to == "" {
		switch {
		case a.u != nil:
			return s.unitReach(a.u), nil
		case a.l != nil:
			return s.leaderReach(a.l), nil
		}
		return "", engine.Refuse("", "Measure from a unit or a leader to see its reach, or give to: as well.")
	}
	b, err := s.spotOf("to", to)
	if err != nil {
		return "", err
	}
	return between(a, b), nil
}

// between is the distance from a to b: between the bases of two pieces,
// as fire and a leader's reach are measured, and whether b lies in a
// shooting unit's arc of fire.
func between(a, b spot) string {
	switch {
	case a.piece() && b.piece():
		t := fmt.Sprintf("%s to %s: %s between the bases (as fire is measured, 2.F); %s from centre to centre.",
			a.label(), b.label(), inches(a.base.Gap(b.base)), inches(a.base.Center.Dist(b.base.Center)))
		if a.u != nil && a.l == nil && a.u.Missile() {
			in := "outside"
			if inArc(a.base, b.base) {
				in = "inside"
			}
			t += fmt.Sprintf(" %s is %s %s's arc of fire, 45° either side of straight ahead (2.A).", b.id(), in, a.u.ID)
		}
		return t
	case a.piece():
		return fmt.Sprintf("From %s to %s: %s.", a.where(), b.at, inches(a.at.Dist(b.at)))
	case b.piece():
		return fmt.Sprintf("From %s to %s: %s.", a.at, b.where(), inches(a.at.Dist(b.at)))
	}
	return fmt.Sprintf("From %s to %s: %s.", a.at, b.at, inches(a.at.Dist(b.at)))
}

// groundNames name the movement table's rows (§1).
var groundNames = [...]string{Level: "on level ground", Rough: "over rough ground or hills", Woods: "in woods or swamp"}

// unitReach says how far u moves and charges, how far it shoots, and
// which enemies stand within that range.
func (s *State) unitReach(u *Unit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s stands with its front at %s, facing %s.", u.Label(), u.Base.FrontCenter(), u.Base.Facing)
	var moves []string
	for t := Level; t <= Woods; t++ {
		if m := s.civ(u.Side).Move(u.Class, t); m > 0 {
			moves = append(moves, fmt.Sprintf("%s %s", inches(float64(m)), groundNames[t]))
		}
	}
	fmt.Fprintf(&b, " It moves up to %s (§1)", engine.JoinAnd(moves))
	if u.Class.CanCharge() {
		fmt.Fprintf(&b, ", and charges up to %s over open ground (1.D)", inches(2*s.fullMove(u)))
	}
	b.WriteString(".")
	if err := s.canMove(u); err != nil {
		fmt.Fprintf(&b, " It may not move now: %s", refusalText(err))
	}
	if l := s.leaderOf(u); l != nil {
		fmt.Fprintf(&b, " %s is with it.", l.Label())
	}
	b.WriteString(s.fireReach(u))
	return b.String()
}

// fireReach says how far u shoots and which enemies stand within it.
func (s *State) fireReach(u *Unit) string {
	if !u.Missile() {
		return " It does not shoot."
	}
	var b strings.Builder
	long := 0.0
	if u.Class.Siege() {
		long = siegeRange(u.Class)
		fmt.Fprintf(&b, " It throws up to %s, once every two turns (§7).", inches(long))
	} else {
		short, l := s.civ(u.Side).Range(u.Weapon)
		long = float64(l)
		fmt.Fprintf(&b, " It shoots up to %s at short range and %s at long range (2.F), at what stands within 45° either side of straight ahead (2.A).", inches(float64(short)), inches(long))
	}
	if err := s.canShoot(u); err != nil {
		fmt.Fprintf(&b, " It may not shoot now: %s", refusalText(err))
	}
	type foe struct {
		label string
		d     float64
		arc   bool
	}
	var foes []foe
	for i := range s.Units {
		t := &s.Units[i]
		if t.Side != u.Side && t.In() {
			if d := u.Base.Gap(t.Base); d <= long {
				foes = append(foes, foe{t.ID, d, inArc(u.Base, t.Base)})
			}
		}
	}
	if len(foes) == 0 {
		return b.String() + " No enemy stands within that range."
	}
	slices.SortStableFunc(foes, func(x, y foe) int { return cmp.Compare(x.d, y.d) })
	parts := make([]string, len(foes))
	for i, f := range foes {
		parts[i] = f.label + " " + inches(f.d)
		if !f.arc {
			parts[i] += " (outside its arc)"
		}
	}
	fmt.Fprintf(&b, " Within it: %s; units, woods and buildings in the line may still block a shot (§2).", engine.JoinAnd(parts))
	return b.String()
}

// leaderReach says where a leader stands and how far he reaches: with
// his unit, or alone with the friendly units he may join.
func (s *State) leaderReach(l *Leader) string {
	if u := s.Unit(l.Unit); u != nil && u.In() {
		return fmt.Sprintf("%s is with %s at %s and moves with it; on a black face card he may leave it to stand alone (1.A). A lone leader moves up to %s.",
			l.Label(), u.Label(), u.Base.Center, inches(leaderMove))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s stands alone at %s, facing %s. On a black face card he moves up to %s, and may join a friendly unit within that reach (1.A).", l.Label(), l.At, l.Facing, inches(leaderMove))
	type near struct {
		id string
		d  float64
	}
	var ns []near
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == l.Side && u.In() {
			if d := l.Base().Gap(u.Base); d <= leaderMove {
				ns = append(ns, near{u.ID, d})
			}
		}
	}
	if len(ns) == 0 {
		return b.String() + " No unit of his stands within it."
	}
	slices.SortStableFunc(ns, func(x, y near) int { return cmp.Compare(x.d, y.d) })
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.id + " " + inches(n.d)
	}
	fmt.Fprintf(&b, " Within it: %s.", engine.JoinAnd(parts))
	return b.String()
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
