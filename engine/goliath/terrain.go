package goliath

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Terrain (Terrain): rugged ground halves movement; particularly
// difficult ground also bars charges and changes of formation. The text
// names no kinds; the bot offers a few with what each does (RULINGS.md,
// goliath, "terrain").

// Ground is a kind of terrain.
type Ground uint8

const (
	Hill      Ground = iota // high ground: more ranks shoot from it
	Rugged                  // halves movement
	Woods                   // rugged, gives cover, blocks direct fire through it
	Difficult               // halves movement, no charges or formation changes
	Buildings               // difficult, gives cover, blocks direct fire through it
	Water                   // impassable but in the air
)

var groundNames = [...]string{"hill", "rugged", "woods", "difficult", "buildings", "water"}

func (g Ground) String() string { return groundNames[g] }

func parseGround(s string) (Ground, bool) {
	for i, n := range groundNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Ground(i), true
		}
	}
	return 0, false
}

// Slows reports ground that halves movement.
func (g Ground) Slows() bool { return g != Hill && g != Water }

// Bars reports ground that bars charges and changes of formation.
func (g Ground) Bars() bool { return g == Difficult || g == Buildings }

// Covers reports ground that gives cover against missiles (Missile Fire:
// cover halves the hits).
func (g Ground) Covers() bool { return g == Woods || g == Buildings }

// Screens reports ground that blocks direct fire passing through it.
func (g Ground) Screens() bool { return g == Woods || g == Buildings }

// Feature is a piece of terrain: a rectangle on the table, named.
type Feature struct {
	Name   string      `json:"name"`
	Ground Ground      `json:"ground"`
	Area   engine.Base `json:"area"`
}

// Label names the feature for players.
func (f Feature) Label() string { return fmt.Sprintf("%s (%s)", f.Name, f.Ground) }

// feature returns the feature named name, or nil.
func (s *State) feature(name string) (int, *Feature) {
	for i := range s.Terrain {
		if strings.EqualFold(s.Terrain[i].Name, strings.TrimSpace(name)) {
			return i, &s.Terrain[i]
		}
	}
	return -1, nil
}

// groundUnder lists the kinds of ground a base stands on.
func (s *State) groundUnder(b engine.Base) []Ground {
	var out []Ground
	for _, f := range s.Terrain {
		if f.Area.Overlaps(b) || f.Area.Contains(b.Center) {
			out = append(out, f.Ground)
		}
	}
	return out
}

// on reports whether a base stands on ground of kind g.
func (s *State) on(b engine.Base, g Ground) bool {
	for _, x := range s.groundUnder(b) {
		if x == g {
			return true
		}
	}
	return false
}

// pathCost is what a straight move of the front centre from one point to
// another costs: its length, with every stretch of it over ground that
// slows counted twice (Terrain, L108). Two patches on the way each count;
// where slowing features overlap, the ground is counted once. Water stops
// it; bars says whether it crosses ground that bars a charge.
func (s *State) pathCost(from, to engine.Vec) (cost float64, water, bars bool) {
	spans, water, bars := s.slowSpans(from, to)
	slow := 0.0
	for _, sp := range spans {
		slow += sp[1] - sp[0]
	}
	return from.Dist(to) * (1 + slow), water, bars
}

// slowSpans are the stretches of the straight way from one point to
// another that lie on ground that slows, as shares of the way from its
// start, in order and apart (overlapping features merged); and whether
// the way crosses water, or ground that bars a charge.
func (s *State) slowSpans(from, to engine.Vec) (spans [][2]float64, water, bars bool) {
	for _, f := range s.Terrain {
		t0, t1, ok := f.Area.Crossing(from, to)
		in := ok && t1 > t0
		if !in && !f.Area.Contains(from) {
			continue
		}
		switch {
		case f.Ground == Water && in:
			water = true
		case f.Ground.Slows() && in:
			spans = append(spans, [2]float64{t0, t1})
		}
		if f.Ground.Bars() {
			bars = true
		}
	}
	return merged(spans), water, bars
}

// merged sorts spans and joins those that overlap or touch.
func merged(spans [][2]float64) [][2]float64 {
	slices.SortFunc(spans, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
	var out [][2]float64
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = math.Max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// screened reports whether woods or buildings stand between two points
// that neither stands in.
func (s *State) screened(from, to engine.Vec) string {
	for _, f := range s.Terrain {
		if !f.Ground.Screens() || f.Area.Contains(from) || f.Area.Contains(to) {
			continue
		}
		if f.Area.BlocksLine(from, to) {
			return f.Name
		}
	}
	return ""
}

// parseArea reads two opposite corners, "x,y x,y", as an axis-aligned
// rectangle.
func parseArea(s string) (engine.Base, error) {
	f := strings.Fields(strings.ReplaceAll(s, ";", " "))
	if len(f) != 2 {
		return engine.Base{}, engine.Refuse("", "where: takes two opposite corners, like \"20,18 30,26\".")
	}
	a, err := engine.ParseVec(f[0])
	if err != nil {
		return engine.Base{}, engine.Refuse("", "%s", err)
	}
	b, err := engine.ParseVec(f[1])
	if err != nil {
		return engine.Base{}, engine.Refuse("", "%s", err)
	}
	w, d := abs(a.X-b.X), abs(a.Y-b.Y)
	if w < 0.5 || d < 0.5 {
		return engine.Base{}, engine.Refuse("", "A piece of terrain must be at least half an inch each way.")
	}
	return engine.Base{Center: a.Lerp(b, 0.5), Width: w, Depth: d, Facing: engine.HeadingN}, nil
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}
