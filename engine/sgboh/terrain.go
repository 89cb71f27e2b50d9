package sgboh

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
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

// The map is laid while the battle is set up and never changes once it
// is fought, yet every step copies the state at least once. So Cells and
// Features hold it where nothing outside this file can change it in
// place: a copy of a state shares its map with the original, and laying
// ground (the set-up's events) gives the state a new map rather than
// changing the one it shares. Each is written as the list it holds.

// Cells is the cell of every hex of the map, column by column.
type Cells struct{ all []Cell }

// Features are the stretches of ground laid, in the order laid.
type Features struct{ all []Feature }

func (c Cells) MarshalJSON() ([]byte, error)     { return json.Marshal(c.all) }
func (c *Cells) UnmarshalJSON(b []byte) error    { return json.Unmarshal(b, &c.all) }
func (f Features) MarshalJSON() ([]byte, error)  { return json.Marshal(f.all) }
func (f *Features) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &f.all) }

// IsZero reports whether no ground is laid, for the state's JSON to leave
// the list out as it always has.
func (f Features) IsZero() bool { return len(f.all) == 0 }

// All yields each feature, in the order laid. They are the map's own: a
// caller reads them and changes none (their hexes included).
func (f Features) All() iter.Seq[Feature] { return slices.Values(f.all) }

// newMap gives s a clear map of cols by rows hexes.
func (s *State) newMap(cols, rows int) {
	s.Cols, s.Rows = cols, rows
	s.Cells, s.Features = Cells{all: make([]Cell, cols*rows)}, Features{}
}

// lay gives s a map with f laid on it: a new one, so that copies of s
// keep theirs as it was. A hex off the map is an error, and leaves s as
// it was.
func (s *State) lay(f Feature) error {
	cells := slices.Clone(s.Cells.all)
	for _, h := range f.Hexes {
		i, ok := s.index(h)
		if !ok {
			return fmt.Errorf("sgboh: %s is off the map", h)
		}
		if f.Level > 0 {
			cells[i].Level = f.Level
		} else {
			cells[i].Ground = f.Ground
		}
	}
	f.Hexes = slices.Clone(f.Hexes)
	s.Cells.all = cells
	s.Features.all = append(slices.Clip(s.Features.all), f)
	return nil
}

// cell returns the hex's cell; a hex off the map reads as clear.
func (s *State) cell(h engine.Hex) Cell {
	i, ok := s.index(h)
	if !ok {
		return Cell{}
	}
	return s.Cells.all[i]
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
