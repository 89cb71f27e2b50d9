package sgboh

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The tape measure (/measure): hexes between two counters or hexes, what
// a unit can reach in an activation (6.1, 7.2) and fire at (8.1), and a
// leader's command range (4.2) and ride (6.1). It changes nothing.

// spot is what a player measured from or to: a combat unit, a leader, or
// a hex.
type spot struct {
	u *Unit
	l *Leader
	h engine.Hex
}

func (p spot) String() string {
	switch {
	case p.u != nil:
		return fmt.Sprintf("%s in %s", p.u.Label(), p.h)
	case p.l != nil:
		return fmt.Sprintf("%s (%s) in %s", p.l.Name, p.l.ID, p.h)
	}
	return p.h.String()
}

// spotOf reads a unit's or a leader's id or a hex number.
func (s *State) spotOf(name, typed string) (spot, error) {
	typed = strings.TrimSpace(typed)
	if h, err := engine.ParseHex(typed); err == nil {
		if !s.onMap(h) {
			return spot{}, engine.Refuse("", "%s:%s is off the map, which runs from 0101 to %02d%02d.", name, h, s.Cols, s.Rows)
		}
		return spot{h: h}, nil
	}
	if u := s.unit(typed); u != nil {
		if !u.On() {
			return spot{}, engine.Refuse("", "%s is not on the map.", u.Label())
		}
		return spot{u: u, h: u.Hex}, nil
	}
	if l := s.leader(typed); l != nil {
		if !l.In() {
			return spot{}, engine.Refuse("", "%s (%s) is %s.", l.Name, l.ID, l.fate())
		}
		return spot{l: l, h: l.Hex}, nil
	}
	return spot{}, engine.Refuse("", "%s:%s is neither a unit, a leader nor a hex like 0412.", name, typed)
}

// measure is the tape measure, in hexes: between two counters or hexes,
// or what a unit or leader can reach.
func measure(s *State, actor engine.PlayerID, from, to string) (string, error) {
	if !slices.ContainsFunc(s.Units, func(u Unit) bool { return u.On() }) {
		return "", engine.Refuse("", "There is nothing on the map to measure yet.")
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
	return s.between(a, b), nil
}

// between counts the hexes from a to b, and says whether b lies in a
// missile unit's front with a clear line (8.1), or in a leader's command
// range (4.2).
func (s *State) between(a, b spot) string {
	d := engine.HexDistance(a.h, b.h)
	t := fmt.Sprintf("From %s to %s: %s.", a, b, hexes(d))
	switch {
	case a.u != nil && a.u.Missile != NoMissile:
		t += " " + s.aimWords(a.u, b.h, d)
	case a.l != nil:
		in := "within"
		if !a.l.inRange(b.h) {
			in = "beyond"
		}
		t += fmt.Sprintf(" That is %s his command range of %s (4.2).", in, hexes(a.l.Range))
	}
	return t
}

// aimWords says whether u could fire at hex h, d hexes away: in range,
// in its front, with a clear line (8.1).
func (s *State) aimWords(u *Unit, h engine.Hex, d int) string {
	var why []string
	if d > u.Missile.reach() {
		why = append(why, fmt.Sprintf("beyond its %s's reach of %s", u.Missile, hexes(u.Missile.reach())))
	}
	if !inArc(u, h) {
		why = append(why, "outside its front, 60° either side of its facing")
	}
	if !s.clearShot(u.Hex, h) {
		why = append(why, "no clear line (units, woods or higher ground block it)")
	}
	if len(why) == 0 {
		return fmt.Sprintf("It lies within %s's %s range, in its front, with a clear line (8.1).", u.ID, u.Missile)
	}
	return fmt.Sprintf("%s could not fire there: %s (8.1).", u.ID, engine.JoinAnd(why))
}

// hexes writes n hexes.
func hexes(n int) string { return engine.Plural(n, "hex", "hexes") }

// unitReach says how far u moves in an activation and what it may fire
// at.
func (s *State) unitReach(u *Unit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s stands in %s facing %s", u.Label(), u.Hex, u.Facing)
	if u.Status != Full {
		fmt.Fprintf(&b, ", %s", u.Status)
	}
	fmt.Fprintf(&b, ". Its movement allowance is %d MP (6.1)", u.MA)
	switch {
	case u.lockedOut():
		b.WriteString("; routed, it moves only in rout, half its allowance (10.21, 10.25).")
	case u.Engaged:
		b.WriteString("; it is Engaged and may not move (6.4).")
	case u.Moved:
		b.WriteString("; it has moved in this activation (6.1).")
	default:
		n, far := s.reachable(u)
		fmt.Fprintf(&b, ": activated, it can end in %s, the farthest %s away; entering the front of an enemy with as great an allowance stops it (7.2).", hexes(n), hexes(far))
	}
	if u.Missile == NoMissile {
		return b.String() + " It has no missiles."
	}
	fmt.Fprintf(&b, " It fires its %s up to %s, 60° either side of its facing (8.1).", u.Missile, hexes(u.Missile.reach()))
	if err := s.canFire(u); err != nil {
		if r, ok := engine.IsRefusal(err); ok {
			fmt.Fprintf(&b, " It may not fire now: %s (%s).", strings.TrimSuffix(r.Text, "."), r.Rule)
		}
	}
	type foe struct {
		text string
		d    int
	}
	var foes []foe
	for i := range s.Units {
		e := &s.Units[i]
		if !e.On() || e.Side == u.Side {
			continue
		}
		d := engine.HexDistance(u.Hex, e.Hex)
		if d > u.Missile.reach() {
			continue
		}
		f := foe{fmt.Sprintf("%s %s", e.ID, hexes(d)), d}
		switch {
		case !inArc(u, e.Hex):
			f.text += " (outside its front)"
		case !s.clearShot(u.Hex, e.Hex):
			f.text += " (no clear line)"
		}
		foes = append(foes, f)
	}
	if len(foes) == 0 {
		return b.String() + " No enemy stands within that range."
	}
	slices.SortStableFunc(foes, func(x, y foe) int { return cmp.Compare(x.d, y.d) })
	parts := make([]string, len(foes))
	for i, f := range foes {
		parts[i] = f.text
	}
	fmt.Fprintf(&b, " Within it: %s.", engine.JoinAnd(parts))
	return b.String()
}

// reachable counts the hexes u can end its move in this activation, and
// how far the farthest of them lies.
func (s *State) reachable(u *Unit) (n, far int) {
	ends := map[engine.Hex]bool{}
	ps := s.paths(u)
	for _, nd := range ps.nodes {
		if r, _ := ps.at(nd); nd.H != u.Hex && !r.via {
			ends[nd.H] = true
		}
	}
	for h := range ends {
		far = max(far, engine.HexDistance(u.Hex, h))
	}
	return len(ends), far
}

// leaderReach says where a leader stands, his command range and the
// units in it by the lines he may activate (4.2), and how far he rides.
func (s *State) leaderReach(l *Leader) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) stands in %s: initiative %d, command range %s (4.1, 4.2). Activated, he rides up to %d MP before he commands (6.1).",
		l.Name, l.ID, l.Hex, l.Initiative, hexes(l.Range), l.MA)
	lines := map[string][]string{}
	var order []string
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != l.Side || !u.On() || !l.inRange(u.Hex) {
			continue
		}
		if _, ok := lines[u.Line]; !ok {
			order = append(order, u.Line)
		}
		lines[u.Line] = append(lines[u.Line], u.ID)
	}
	if len(order) == 0 {
		return b.String() + " No unit of his stands within his range."
	}
	parts := make([]string, len(order))
	for i, line := range order {
		parts[i] = fmt.Sprintf("%s %s", line, strings.Join(lines[line], ", "))
	}
	fmt.Fprintf(&b, " Within his range, by the lines he may activate one of: %s.", strings.Join(parts, "; "))
	return b.String()
}
