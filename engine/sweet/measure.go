package sweet

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// squareOf reads a unit's name or a square.
func (s *State) squareOf(name, typed string) (engine.Square, *Unit, error) {
	if q, err := engine.ParseSquare(strings.TrimSpace(typed)); err == nil {
		if !s.onBoard(q) {
			return q, nil, engine.Refuse("", "%s is off the board, which runs from A1 to %s.", q, engine.Square{Col: s.Options.Cols - 1, Row: s.Options.Rows - 1})
		}
		return q, nil, nil
	}
	u, err := s.findUnit(typed)
	if err != nil {
		return engine.Square{}, nil, engine.Refuse("", "%s:%s is neither a unit nor a square like C4.", name, typed)
	}
	if !u.OnBoard() {
		return engine.Square{}, nil, engine.Refuse("", "%s is not on the board.", u.Label())
	}
	return u.At, u, nil
}

// measure counts squares as movement and shooting do, a diagonal step
// costing one and a half (Movement 1, Missile Fire 1, Catapult Fire 3):
// between two units or squares, or what a unit can reach.
func measure(s *State, actor engine.PlayerID, from, to string) (string, error) {
	if len(s.Units) == 0 {
		return "", engine.Refuse("", "There is nothing on the board to measure yet.")
	}
	a, ua, err := s.squareOf("from", from)
	if err != nil {
		return "", err
	}
	if to == "" {
		if ua == nil {
			return "", engine.Refuse("", "Measure from a unit to see its reach, or give to: as well.")
		}
		return s.reach(ua), nil
	}
	b, ub, err := s.squareOf("to", to)
	if err != nil {
		return "", err
	}
	name := func(q engine.Square, u *Unit) string {
		if u != nil {
			return fmt.Sprintf("%s in %s", u.Label(), q)
		}
		return q.String()
	}
	return fmt.Sprintf("From %s to %s: %s, a diagonal step counting one and a half (Movement 1).", name(a, ua), name(b, ub), squares(engine.MoveCost(a, b))), nil
}

// reach says how far u moves and shoots, and which enemies stand within
// its range.
func (s *State) reach(u *Unit) string {
	sp := u.Type.spec()
	var b strings.Builder
	fmt.Fprintf(&b, "%s stands in %s facing %s. It moves up to %s (Movement 1)", u.Label(), u.At, u.Facing, squares(float64(sp.Move)))
	if u.Type.IsCatapult() {
		b.WriteString(", with a stand of its square to move it (Movement 5)")
	}
	b.WriteString(".")
	if sp.Range == 0 {
		return b.String() + " It does not shoot."
	}
	rule := "Missile Fire 1"
	if u.Type.IsCatapult() {
		rule = "Catapult Fire 3"
	}
	fmt.Fprintf(&b, " It shoots %s, within its front arc (%s).", squares(sp.Range), rule)
	var in []string
	for i := range s.Units {
		o := &s.Units[i]
		if o.OnBoard() && o.Stands > 0 && o.Side != u.Side && o.Side != Nobody && inRange(u.At, o.At, sp.Range) {
			in = append(in, fmt.Sprintf("%s in %s (%s)", o.ID, o.At, squares(engine.MoveCost(u.At, o.At))))
		}
	}
	if len(in) == 0 {
		return b.String() + " No enemy stands within that range."
	}
	fmt.Fprintf(&b, " Within it: %s; its arc and units in the way decide whether it may shoot.", engine.JoinAnd(in))
	return b.String()
}
