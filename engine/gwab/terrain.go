package gwab

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Terrain (13.1), an optional rule a book opens with (/book open
// terrain:on). Scenario directives lay it out:
//
//	#terrain rough 10,12 14,12 14,15 10,15 grove
//	#terrain obstacle 20,10 26,10 palisade
//	#terrain stream 0,18 60,18 60,20 0,20 Scamander
//
// Rough ground (rocks, groves) is an area that foot may enter but must
// stop in, and chariots may not enter. An obstacle (a palisade, a ditch)
// is a line that foot must stop just over, and chariots may not cross. A
// stream is an area whose bank a chariot must halt at; on a later drive it
// crosses and halts on the far bank. Foot ignores streams (13.1.2 speaks of
// chariots only). RULINGS.md, "Terrain", says how each is measured.

// TerrainKind is what a piece of terrain does (13.1).
type TerrainKind uint8

const (
	Rough    TerrainKind = iota // 13.1.1: rock outcroppings, groves: an area
	Obstacle                    // 13.1.1: palisades, ditches: a line
	Stream                      // 13.1.2: an area chariots cross with a halt
)

var terrainNames = [...]string{"rough", "obstacle", "stream"}

func (k TerrainKind) String() string {
	if int(k) < len(terrainNames) {
		return terrainNames[k]
	}
	return fmt.Sprintf("terrain(%d)", k)
}

func parseTerrainKind(s string) (TerrainKind, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "rough", "rocks", "outcrop", "outcropping", "grove", "trees", "wood":
		return Rough, true
	case "obstacle", "palisade", "ditch", "wall":
		return Obstacle, true
	case "stream", "river", "brook":
		return Stream, true
	}
	return 0, false
}

// Feature is one piece of terrain: an area given by its corners in order
// around it (rough ground, streams), or a line given by its points in
// order along it (obstacles).
type Feature struct {
	Kind   TerrainKind  `json:"kind"`
	Points []engine.Vec `json:"points"`
	Label  string       `json:"label,omitempty"`
}

// Name is how the feature reads in text: "the grove", "the stream".
func (f Feature) Name() string {
	if f.Label != "" {
		return "the " + f.Label
	}
	switch f.Kind {
	case Rough:
		return "the rough ground"
	case Obstacle:
		return "the obstacle"
	}
	return "the stream"
}

// area reports whether the feature is an area rather than a line.
func (f Feature) area() bool { return f.Kind != Obstacle }

// TerrainLaid puts a piece of terrain on the table (13.1).
type TerrainLaid struct {
	Feature Feature `json:"feature"`
}

func (TerrainLaid) Kind() string { return "gwab.terrain-laid" }

var terrainBodies = engine.BodyTypes{TerrainLaid{}.Kind(): engine.Decoder[TerrainLaid]()}

func (b TerrainLaid) Apply(s *State) error {
	if err := b.Feature.check(); err != nil {
		return err
	}
	// Clip so that a clone's append never writes into a shared array.
	s.Terrain = append(slices.Clip(s.Terrain), b.Feature)
	return nil
}

// check reports a feature that no directive could have laid.
func (f Feature) check() error {
	switch {
	case f.Kind > Stream:
		return fmt.Errorf("gwab: no terrain of kind %d", f.Kind)
	case f.area() && len(f.Points) < 3, !f.area() && len(f.Points) < 2:
		return fmt.Errorf("gwab: %s with %d points", f.Kind, len(f.Points))
	}
	for _, p := range f.Points {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("gwab: terrain point %v", p)
		}
	}
	return nil
}

func (b TerrainLaid) Text() string {
	f := b.Feature
	var pts []string
	for _, p := range f.Points {
		pts = append(pts, p.String())
	}
	switch f.Kind {
	case Rough:
		return fmt.Sprintf("Terrain: %s, rough ground within %s. Foot that enter it stop there; chariots may not enter it (13.1.1).", f.Name(), strings.Join(pts, " "))
	case Obstacle:
		return fmt.Sprintf("Terrain: %s, an obstacle from %s. Foot that cross it stop just over it; chariots may not cross it (13.1.1).", f.Name(), strings.Join(pts, " to "))
	}
	return fmt.Sprintf("Terrain: %s, a stream within %s. A chariot halts at its bank and crosses on a later drive, halting on the far bank (13.1.2).", f.Name(), strings.Join(pts, " "))
}

// layTerrain is the scenario directive #terrain KIND x,y x,y… [label].
func layTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	const usage = "#terrain takes a kind (rough, obstacle or stream), its points as x,y, and a name: #terrain rough 10,12 14,12 14,15 10,15 grove"
	switch {
	case !s.Options.Terrain:
		return engine.Refuse("13.1", "This book was opened without terrain; open one with /book open terrain:on to lay it out.")
	case s.Phase == Ended:
		return engine.Refuse("6.2", "This book has ended.")
	case len(c.Args) < 3:
		return engine.Refuse("13.1", "%s", usage)
	}
	args, label := c.Args[1:], ""
	if _, err := engine.ParseVec(args[len(args)-1]); err != nil {
		args, label = args[:len(args)-1], args[len(args)-1]
	}
	return lay(tx, c.Args[0], args, label, usage)
}

// lay lays a feature of the kind named, through points written x,y,
// called label; usage says how the command that asked is written.
func lay(tx *engine.Tx, kindName string, points []string, label, usage string) error {
	kind, ok := parseTerrainKind(kindName)
	if !ok {
		return engine.Refuse("13.1", "%q is not a kind of terrain. %s", kindName, usage)
	}
	f := Feature{Kind: kind, Label: strings.TrimSpace(label)}
	for _, a := range points {
		p, err := engine.ParseVec(a)
		if err != nil {
			return engine.Refuse("13.1", "%q is not a point x,y. %s", a, usage)
		}
		f.Points = append(f.Points, p)
	}
	switch {
	case f.area() && len(f.Points) < 3:
		return engine.Refuse("13.1", "%s is an area: give at least three corners, in order around it.", engine.Capital(article(kind.String())))
	case !f.area() && len(f.Points) < 2:
		return engine.Refuse("13.1", "An obstacle is a line: give at least two points along it.")
	case f.area() && polyArea(f.Points) < 0.01:
		return engine.Refuse("13.1", "Those corners enclose no ground.")
	}
	return tx.Emit(TerrainLaid{Feature: f})
}

// bookOptions reads the optional rules of section 13 that /book open
// takes: terrain:on (13.1) and javelins:N (13.2).
func bookOptions(c engine.Command) (Options, error) {
	var o Options
	switch v := strings.ToLower(strings.TrimSpace(c.Opt("terrain"))); v {
	case "", "off", "no":
	case "on", "yes":
		o.Terrain = true
	default:
		return o, engine.Refuse("13.1", "terrain:%s is not allowed; say on or off.", v)
	}
	n, err := c.Int("javelins", 0)
	if err != nil {
		return o, err
	}
	if n < 0 || n > maxJavelins {
		return o, engine.Refuse("13.2", "javelins: is a chariot's load, from 1 to %d, or 0 for no limit; three or four is usual.", maxJavelins)
	}
	o.Javelins = n
	return o, nil
}

// optionsText tells the table which optional rules a book plays with.
func optionsText(o Options) string {
	var parts []string
	if o.Terrain {
		parts = append(parts, "Terrain is in play (13.1).")
	}
	if o.Javelins > 0 {
		parts = append(parts, fmt.Sprintf("Each chariot carries a load of %d javelins (13.2).", o.Javelins))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, " ")
}

// Foot and terrain (13.1.1). A foot element's move is measured at the
// centre of its front (8.4), and so is its meeting with terrain: it enters
// rough ground when that point does, and crosses an obstacle when that
// point passes over the line.

// footTerrain checks a foot element's straight move from base from (turned
// already) to end against the terrain: one that enters rough ground must
// end inside it; one that crosses an obstacle must end no farther past it
// than the depth of its base, so that it has just cleared it. When clamp is
// set (a move toward an element) the move is cut short where the terrain
// stops it; otherwise a move that breaks the rule is refused.
func (s *State) footTerrain(el *Element, from, end engine.Base, clamp bool) (engine.Base, error) {
	if len(s.Terrain) == 0 {
		return end, nil
	}
	p0, p1 := from.FrontCenter(), end.FrontCenter()
	limit, why := s.footLimit(p0, p1, el.Base.Depth)
	if limit >= 1 {
		return end, nil
	}
	if !clamp {
		return end, engine.Refuse("13.1.1", "%s %s; %s lies beyond.", el.Label(), why, p1)
	}
	return end.WithFrontCenter(p0.Lerp(p1, limit)), nil
}

// footLimit is how far along the segment p0→p1 (as a fraction) a foot
// element whose base is depth deep may go, with the reason it must stop
// short; 1 when the terrain lets it go all the way.
func (s *State) footLimit(p0, p1 engine.Vec, depth float64) (float64, string) {
	length := p0.Dist(p1)
	if length < 1e-9 {
		return 1, ""
	}
	slack := moveSlack / length
	limit, why := 1.0, ""
	for _, f := range s.Terrain {
		switch f.Kind {
		case Rough:
			if insidePoly(p0, f.Points) {
				continue // it may walk on and out of ground it stands in
			}
			if out, ok := leavesAfterEntering(p0, p1, f.Points); ok && out+slack < limit {
				limit, why = out, "must stop in "+f.Name()+" once it enters it"
			}
		case Obstacle:
			if t, ok := firstCrossing(p0, p1, f.Points, false); ok {
				if stop := t + depth/length; stop+slack < limit {
					limit, why = stop, "must stop once over "+f.Name()
				}
			}
		}
	}
	return limit, why
}

// leavesAfterEntering reports whether the segment p0→p1, starting outside
// the polygon, enters it and then leaves it again, and the fraction of
// the way at which it leaves.
func leavesAfterEntering(p0, p1 engine.Vec, poly []engine.Vec) (float64, bool) {
	ts := []float64{0, 1}
	for i := range poly {
		if t, ok := segCross(p0, p1, poly[i], poly[(i+1)%len(poly)]); ok {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	entered := false
	for i := 0; i+1 < len(ts); i++ {
		a, b := ts[i], ts[i+1]
		if b-a < 1e-9 {
			continue
		}
		in := insidePoly(p0.Lerp(p1, (a+b)/2), poly)
		switch {
		case in:
			entered = true
		case entered:
			return a, true
		}
	}
	return 0, false
}

// firstCrossing is the fraction of the way along p0→p1 at which it first
// meets the line through pts (closed when ring is set).
func firstCrossing(p0, p1 engine.Vec, pts []engine.Vec, ring bool) (float64, bool) {
	best, found := math.Inf(1), false
	n := len(pts) - 1
	if ring {
		n = len(pts)
	}
	for i := 0; i < n; i++ {
		if t, ok := segCross(p0, p1, pts[i], pts[(i+1)%len(pts)]); ok && t > 1e-9 && t < best {
			best, found = t, true
		}
	}
	return best, found
}

// segCross is the fraction of the way along p→q at which it meets the
// segment a→b. Parallel segments never meet.
func segCross(p, q, a, b engine.Vec) (float64, bool) {
	r, s := q.Sub(p), b.Sub(a)
	den := r.Cross(s)
	if math.Abs(den) < 1e-12 {
		return 0, false
	}
	t := a.Sub(p).Cross(s) / den
	u := a.Sub(p).Cross(r) / den
	const eps = 1e-9
	if t < -eps || t > 1+eps || u < -eps || u > 1+eps {
		return 0, false
	}
	return math.Max(0, math.Min(1, t)), true
}

// insidePoly reports whether p lies inside the polygon (even-odd rule).
func insidePoly(p engine.Vec, poly []engine.Vec) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// polyArea is the area the polygon encloses.
func polyArea(poly []engine.Vec) float64 {
	sum := 0.0
	for i := range poly {
		sum += poly[i].Cross(poly[(i+1)%len(poly)])
	}
	return math.Abs(sum) / 2
}

// areaIn is the area of the polygon that lies on base b.
func areaIn(b engine.Base, poly []engine.Vec) float64 {
	fwd := b.Facing.Vec()
	right := engine.Vec{X: fwd.Y, Y: -fwd.X}
	local := make([]engine.Vec, len(poly))
	for i, p := range poly {
		d := p.Sub(b.Center)
		local[i] = engine.Vec{X: d.Dot(right), Y: d.Dot(fwd)}
	}
	w, d := b.Width/2, b.Depth/2
	for _, h := range [4]struct {
		n engine.Vec
		k float64
	}{{engine.Vec{X: 1}, w}, {engine.Vec{X: -1}, w}, {engine.Vec{Y: 1}, d}, {engine.Vec{Y: -1}, d}} {
		local = engine.ClipHalfPlane(local, h.n, h.k)
		if len(local) == 0 {
			return 0
		}
	}
	return polyArea(local)
}

// areaEps is the least overlap, in square strides, that counts as a base
// standing on terrain; bases that only touch its edge do not.
const areaEps = 1e-4

// on reports whether base b stands on the feature: overlaps its area, or
// lies across its line.
func (f Feature) on(b engine.Base) bool {
	if f.area() {
		return areaIn(b, f.Points) > areaEps
	}
	for i := 0; i+1 < len(f.Points); i++ {
		if b.BlocksLine(f.Points[i], f.Points[i+1]) {
			return true
		}
	}
	return false
}

// touches reports whether base b is at the feature's edge or on it.
func (f Feature) touches(b engine.Base) bool {
	b.Width += 2 * engine.ContactTolerance
	b.Depth += 2 * engine.ContactTolerance
	return f.on(b)
}

// barring returns the first feature a chariot may not stand on at b:
// rough ground or an obstacle (13.1.1), or nil.
func (s *State) barring(b engine.Base) *Feature {
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.Kind != Stream && f.on(b) {
			return f
		}
	}
	return nil
}

// terrainView draws the terrain: areas as they are, and each obstacle as
// a thin band along its line.
func (s *State) terrainView() []engine.Terrain {
	var out []engine.Terrain
	for _, f := range s.Terrain {
		t := engine.Terrain{Kind: engine.Rough, Label: strings.TrimPrefix(f.Name(), "the "), Outline: f.Points}
		switch f.Kind {
		case Stream:
			t.Kind = engine.Stream
		case Obstacle:
			t.Outline = band(f.Points, 0.15)
		}
		out = append(out, t)
	}
	return out
}

// band is the outline of a strip half wide on each side of a line.
func band(pts []engine.Vec, half float64) []engine.Vec {
	normal := func(i int) engine.Vec {
		var d engine.Vec
		if i > 0 {
			d = d.Add(pts[i].Sub(pts[i-1]).Unit())
		}
		if i+1 < len(pts) {
			d = d.Add(pts[i+1].Sub(pts[i]).Unit())
		}
		d = d.Unit()
		return engine.Vec{X: -d.Y, Y: d.X}.Scale(half)
	}
	out := make([]engine.Vec, 0, 2*len(pts))
	for i := range pts {
		out = append(out, pts[i].Add(normal(i)))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		out = append(out, pts[i].Sub(normal(i)))
	}
	return out
}
