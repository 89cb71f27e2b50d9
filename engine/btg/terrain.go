package btg

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Ground is a kind of terrain feature: the three rows of the movement
// table (§1), water, and the buildings and walls of §4 with their damage
// values (§7).
type Ground uint8

const (
	Hill Ground = iota
	RoughGround
	Wood
	Swamp
	Water
	Building      // small building, 10 DV
	LargeBuilding // 15 DV
	Barracks      // 20 DV; phalanxes and legions may enter (§4)
	Wall          // small wall or hedge, 10 DV
	MediumWall    // 15 DV
	CityWall      // 20 DV
	Tower         // small arrow tower, 25 DV
	LargeTower    // large arrow or ballista tower, 30 DV
)

var grounds = [...]struct {
	key string
	dv  int
}{
	{"hill", 0}, {"rough", 0}, {"woods", 0}, {"swamp", 0}, {"water", 0},
	{"building", 10}, {"large-building", 15}, {"barracks", 20},
	{"wall", 10}, {"medium-wall", 15}, {"city-wall", 20},
	{"tower", 25}, {"large-tower", 30},
}

func (g Ground) String() string { return grounds[g].key }

func groundKeys() []string {
	var out []string
	for _, g := range grounds {
		out = append(out, g.key)
	}
	return out
}

func parseGround(s string) (Ground, bool) {
	for i, g := range grounds {
		if strings.EqualFold(strings.TrimSpace(s), g.key) {
			return Ground(i), true
		}
	}
	return 0, false
}

// Movement is the row of the movement table the ground takes.
func (g Ground) Movement() Terrain {
	switch g {
	case Hill, RoughGround:
		return Rough
	case Wood, Swamp:
		return Woods
	}
	return Level
}

// IsWall tells a wall or hedge (§4).
func (g Ground) IsWall() bool { return g == Wall || g == MediumWall || g == CityWall }

// IsBuilding tells a building or tower, which small infantry may hide in
// (§4).
func (g Ground) IsBuilding() bool {
	return g == Building || g == LargeBuilding || g == Barracks || g == Tower || g == LargeTower
}

// Obstacle tells ground a unit stops at the edge of and enters or crosses
// the next turn (§1.E).
func (g Ground) Obstacle() bool { return g == Water || g.IsWall() || g.IsBuilding() }

// Structure tells ground with a damage value (§7).
func (g Ground) Structure() bool { return grounds[g].dv > 0 }

// Cover tells ground that gives a target +1 against missiles (2.H-mods):
// woods, buildings and towers.
func (g Ground) Cover() bool { return g == Wood || g.IsBuilding() }

// Feature is a piece of terrain: a rectangle (a wall is a long thin one
// along its line) with a name players use.
type Feature struct {
	Ground Ground      `json:"ground"`
	Name   string      `json:"name"`
	Area   engine.Base `json:"area"`
	// DV is a structure's damage value left, Full what it began with; at
	// none it is rubble, rough ground (§7).
	DV   int   `json:"dv,omitempty"`
	Full int   `json:"full,omitempty"`
	Side *Side `json:"side,omitempty"` // whose builders raised it (§8a)
}

// wallThickness is a wall's depth on the table, in inches.
const wallThickness = 0.5

// Label names the feature: "the wall (city-wall, 20 DV)".
func (f Feature) Label() string {
	if f.Ground.Structure() && f.Full > 0 {
		return fmt.Sprintf("%s (%s, %d/%d DV)", f.Name, f.Ground, f.DV, f.Full)
	}
	return fmt.Sprintf("%s (%s)", f.Name, f.Ground)
}

// Standing reports whether a structure still stands (rubble is rough
// ground).
func (f Feature) Standing() bool { return !f.Ground.Structure() || f.DV > 0 }

// ground is the ground the feature is now: rubble where a structure fell.
func (f Feature) ground() Ground {
	if !f.Standing() {
		return RoughGround
	}
	return f.Ground
}

// fullDV is the damage value of a structure of ground g raised by side's
// builders: Babylonians double buildings and towers, Shang walls (§8a).
func (s *State) fullDV(g Ground, side *Side) int {
	dv := grounds[g].dv
	if side == nil || dv == 0 {
		return dv
	}
	cv := s.civ(*side)
	if cv.DoubleBuildings && g.IsBuilding() || cv.DoubleWalls && g.IsWall() {
		dv *= 2
	}
	return dv
}

// feature finds terrain by name.
func (s *State) feature(name string) (*Feature, error) {
	name = strings.TrimSpace(name)
	var names []string
	for i := range s.Terrain {
		if strings.EqualFold(s.Terrain[i].Name, name) {
			return &s.Terrain[i], nil
		}
		names = append(names, s.Terrain[i].Name)
	}
	if len(names) == 0 {
		return nil, engine.Refuse("", "There is no terrain on this table.")
	}
	return nil, engine.Refuse("", "There is no terrain called %q; the table has %s.", name, engine.JoinAnd(names))
}

// under lists the features b stands on or in.
func (s *State) under(b engine.Base) []*Feature {
	var out []*Feature
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.Area.Overlaps(b) {
			out = append(out, f)
		}
	}
	return out
}

// on reports whether b stands on ground g.
func (s *State) on(b engine.Base, pred func(Ground) bool) *Feature {
	for _, f := range s.under(b) {
		if pred(f.ground()) {
			return f
		}
	}
	return nil
}

// inside reports the building or tower whose area holds b's centre.
func (s *State) inside(b engine.Base) *Feature {
	for i := range s.Terrain {
		f := &s.Terrain[i]
		if f.ground().IsBuilding() && f.Area.Contains(b.Center) {
			return f
		}
	}
	return nil
}

// crosses lists the features the straight path of a base's centre from
// from to to passes over, and those the base at to stands on.
func (s *State) crossed(from engine.Vec, to engine.Base) []*Feature {
	var out []*Feature
	for i := range s.Terrain {
		f := &s.Terrain[i]
		if f.Area.SegmentGap(from, to.Center) <= 0 || f.Area.Overlaps(to) {
			out = append(out, f)
		}
	}
	return out
}
