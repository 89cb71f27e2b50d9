package sgboh

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Ground is what covers a hex. The text keeps the standard terrain
// rules (6.2) and prints the terrain effects on combat (8.6); movement
// costs are our own (RULINGS.md, sgboh, "Movement").
type Ground uint8

// The grounds. River and Stream are the major and minor rivers of the
// combat table, Bank its steep bank, each a hex of its own.
const (
	Clear Ground = iota
	Woods
	Rocky
	Marsh
	River
	Stream
	Bank
	Abatis
)

var groundNames = [...]string{Clear: "clear", Woods: "woods", Rocky: "rocky", Marsh: "marsh", River: "river", Stream: "stream", Bank: "bank", Abatis: "abatis"}

func (g Ground) String() string {
	if int(g) < len(groundNames) {
		return groundNames[g]
	}
	return fmt.Sprintf("ground(%d)", g)
}

// MarshalText writes the ground by name.
func (g Ground) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a ground's name.
func (g *Ground) UnmarshalText(b []byte) error {
	v, err := parseGround(string(b))
	*g = v
	return err
}

func parseGround(s string) (Ground, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range groundNames {
		if n == t {
			return Ground(i), nil
		}
	}
	return Clear, fmt.Errorf("%q is not a terrain: use clear, woods, rocky, marsh, river, stream, bank or abatis", s)
}

// cost returns the movement points a unit of type t pays to enter ground
// g, and false where it may not enter at all.
func (g Ground) cost(t Type) (int, bool) {
	switch g {
	case Clear:
		return 1, true
	case Woods, Rocky:
		switch {
		case t == CH || t == AR:
			return 0, false
		case t == PH || t.Mounted():
			return 3, true
		}
		return 2, true
	case Marsh:
		if t == CH || t == EL || t == AR {
			return 0, false
		}
		return 3, true
	case River:
		if t == CH || t == AR {
			return 0, false
		}
		return 3, true
	case Stream, Bank:
		return 2, true
	case Abatis:
		if t.Mounted() {
			return 0, false
		}
		return 2, true
	}
	return 1, true
}

// Cell is one hex of the map: its ground and its level above the plain.
type Cell struct {
	Ground Ground `json:"g,omitempty"`
	Level  int    `json:"l,omitempty"`
}

// Feature is a named stretch of one ground, as laid out, for the picture
// and for /scenario save.
type Feature struct {
	Name   string       `json:"name"`
	Ground Ground       `json:"ground"`
	Level  int          `json:"level,omitempty"` // for hills: the level laid
	Hexes  []engine.Hex `json:"hexes"`
}

// cell returns the hex's cell; a hex off the map reads as clear.
func (s *State) cell(h engine.Hex) Cell {
	i, ok := s.index(h)
	if !ok {
		return Cell{}
	}
	return s.Cells[i]
}

// onMap reports whether h is on the map.
func (s *State) onMap(h engine.Hex) bool {
	_, ok := s.index(h)
	return ok
}

// index is h's place in Cells: columns 01 to Cols, rows 01 to Rows.
func (s *State) index(h engine.Hex) (int, bool) {
	c, r := h.Offset()
	if c < 1 || r < 1 || c > s.Cols || r > s.Rows {
		return 0, false
	}
	return (c-1)*s.Rows + (r - 1), true
}

// enterCost returns the movement points a unit of type t pays to step
// from a to the next hex b: the ground's cost, and one more for each
// level climbed. False where it may not enter.
func (s *State) enterCost(t Type, a, b engine.Hex) (int, bool) {
	cb := s.cell(b)
	c, ok := cb.Ground.cost(t)
	if !ok {
		return 0, false
	}
	if up := cb.Level - s.cell(a).Level; up > 0 {
		c += up
	}
	return c, true
}
