package sweet

import (
	"fmt"
	"strings"
)

// MDI is a melee deployment indicator (Melee Procedure): each side picks
// one in secret for every melee. The zero MDI is no choice yet.
type MDI uint8

const (
	NoMDI MDI = iota
	Line
	Column
	Square
	Flanking
	Pincers
	Withdrawal
)

var mdiNames = [...]string{"", "LINE", "COLUMN", "SQUARE", "FLANKING", "PINCERS", "WITHDRAWAL"}

// MDIs lists the six indicators in the order the rules name them.
var MDIs = []MDI{Line, Column, Square, Flanking, Pincers, Withdrawal}

func (m MDI) String() string {
	if int(m) < len(mdiNames) {
		return mdiNames[m]
	}
	return fmt.Sprintf("MDI(%d)", m)
}

func parseMDI(s string) (MDI, bool) {
	for _, m := range MDIs {
		if strings.EqualFold(m.String(), strings.TrimSpace(s)) {
			return m, true
		}
	}
	return NoMDI, false
}

func mdiChoices() []string {
	out := make([]string, len(MDIs))
	for i, m := range MDIs {
		out[i] = strings.ToLower(m.String())
	}
	return out
}

// MarshalText writes the indicator's name ("" for none).
func (m MDI) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads an indicator's name.
func (m *MDI) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*m = NoMDI
		return nil
	}
	v, ok := parseMDI(string(b))
	if !ok {
		return fmt.Errorf("sweet: %q is not a melee deployment indicator", b)
	}
	*m = v
	return nil
}

// beats is the superiority table of the Melee Procedure: each of the five
// formations is superior to two others.
var beats = map[MDI][2]MDI{
	Flanking: {Square, Line},
	Pincers:  {Line, Flanking},
	Square:   {Column, Pincers},
	Column:   {Pincers, Flanking},
	Line:     {Square, Column},
}

// withdrawsFrom lists what a withdrawal gets away from.
var withdrawsFrom = [2]MDI{Line, Square}

// VerdictKind is what two indicators come to.
type VerdictKind uint8

const (
	Equal        VerdictKind = iota // the same formation: both lose, the weaker retreats
	BothWithdraw                    // both chose withdrawal: both retreat, no losses
	Withdraws                       // Side's withdrawal succeeds: it retreats, no losses
	Superior                        // Side's deployment is superior
)

// Verdict is the comparison of the two sides' indicators.
type Verdict struct {
	Kind VerdictKind
	Side Side // for Withdraws and Superior
}

func has(list [2]MDI, m MDI) bool { return list[0] == m || list[1] == m }

// Judge compares the south and north sides' indicators (Melee
// Procedure). A withdrawal that does not succeed counts as the inferior
// deployment.
func Judge(south, north MDI) Verdict {
	switch {
	case south == north && south == Withdrawal:
		return Verdict{Kind: BothWithdraw}
	case south == north:
		return Verdict{Kind: Equal}
	case south == Withdrawal && has(withdrawsFrom, north):
		return Verdict{Kind: Withdraws, Side: South}
	case north == Withdrawal && has(withdrawsFrom, south):
		return Verdict{Kind: Withdraws, Side: North}
	case south == Withdrawal:
		return Verdict{Kind: Superior, Side: North}
	case north == Withdrawal:
		return Verdict{Kind: Superior, Side: South}
	case has(beats[south], north):
		return Verdict{Kind: Superior, Side: South}
	}
	return Verdict{Kind: Superior, Side: North}
}

// Losses returns the points of losses each side suffers under v, given
// each side's points in the melee (Melee Procedure): for equal
// deployments each loses half the weaker side's points; the superior side
// inflicts one point for its first point and half of the rest of its
// strength, and suffers half of what the inferior side really loses. Withdrawals cost
// nothing. No side loses more than it has.
func Losses(v Verdict, points [2]float64) [2]float64 {
	var l [2]float64
	switch v.Kind {
	case Equal:
		half := min(points[South], points[North]) / 2
		l = [2]float64{half, half}
	case Superior:
		sup, inf := v.Side, v.Side.Other()
		p := points[sup]
		dealt := p
		if p > 1 {
			dealt = 1 + (p-1)/2
		}
		l[inf] = min(dealt, points[inf])
		l[sup] = l[inf] / 2 // half of what the inferior side really loses
	}
	for i := range l {
		l[i] = min(l[i], points[i])
	}
	return l
}

// Outcome decides who retreats and who is destroyed once losses are
// taken (Melee Procedure). For equal deployments the weaker side is the
// one with fewer points before losses, and both retreat when those were
// level; for unequal ones it is the side with fewer points left after
// them, the inferior side when level. The weaker side is destroyed
// instead when what the other has left is three times or more what it
// has left.
func Outcome(v Verdict, before, after [2]float64) (retreat, destroyed [2]bool) {
	switch v.Kind {
	case BothWithdraw:
		return [2]bool{true, true}, destroyed
	case Withdraws:
		retreat[v.Side] = true
		return retreat, destroyed
	}
	const eps = 1e-9
	judged := after
	if v.Kind == Equal {
		judged = before
	}
	var weaker Side
	switch {
	case judged[South] < judged[North]-eps:
		weaker = South
	case judged[North] < judged[South]-eps:
		weaker = North
	case v.Kind == Equal:
		return [2]bool{true, true}, destroyed
	default:
		weaker = v.Side.Other()
	}
	strong := after[weaker.Other()]
	if strong > eps && strong >= 3*after[weaker]-eps {
		destroyed[weaker] = true
	} else {
		retreat[weaker] = true
	}
	return retreat, destroyed
}
