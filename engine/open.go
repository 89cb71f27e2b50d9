package engine

// Geometry of the open table, shared by gwab, btg and goliath.
//
// Coordinates are plain float64 in the rule system's own unit: strides of
// 30 mm for gwab (GWAB 2.5), inches for btg and goliath. The table is seen
// from above with +X pointing east (to the right of the picture) and +Y
// pointing north (up the picture, away from the player at the near edge).
// Angles are compass headings: degrees clockwise from north.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// geomEps is the slack used when deciding whether two shapes overlap or
// whether a point lies on an edge: far below anything a ruler can measure.
const geomEps = 1e-6

// ContactTolerance is how far apart, in table units, two bases may be and
// still count as touching. On a real table "in contact" means pushed
// together; in arithmetic it must allow for rounding in moves that were
// typed to one decimal place.
const ContactTolerance = 0.05

// maxCoord bounds the coordinates ParseVec accepts. No table is anywhere
// near this size; the bound keeps absurd input out of the state.
const maxCoord = 1e6

// Vec is a point or a displacement on the open table, in table units.
type Vec struct{ X, Y float64 }

// Add returns v+w.
func (v Vec) Add(w Vec) Vec { return Vec{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w, the displacement from w to v.
func (v Vec) Sub(w Vec) Vec { return Vec{v.X - w.X, v.Y - w.Y} }

// Scale returns v multiplied by k.
func (v Vec) Scale(k float64) Vec { return Vec{v.X * k, v.Y * k} }

// Len returns the length of v.
func (v Vec) Len() float64 { return math.Hypot(v.X, v.Y) }

// Dist returns the distance between the points v and w.
func (v Vec) Dist(w Vec) float64 { return v.Sub(w).Len() }

// Dot returns the dot product of v and w.
func (v Vec) Dot(w Vec) float64 { return v.X*w.X + v.Y*w.Y }

// Cross returns the z component of the cross product of v and w: positive
// when w lies counter-clockwise of v.
func (v Vec) Cross(w Vec) float64 { return v.X*w.Y - v.Y*w.X }

// Unit returns v scaled to length 1, or the zero vector when v is zero.
func (v Vec) Unit() Vec {
	l := v.Len()
	if l == 0 {
		return Vec{}
	}
	return v.Scale(1 / l)
}

// Rotate returns v turned clockwise by deg degrees, the same sense as
// headings: North's vector rotated by 90 is East's.
func (v Vec) Rotate(deg float64) Vec {
	s, c := math.Sincos(deg * math.Pi / 180)
	return Vec{v.X*c + v.Y*s, -v.X*s + v.Y*c}
}

// Lerp returns the point a fraction t of the way from v to w.
func (v Vec) Lerp(w Vec, t float64) Vec { return v.Add(w.Sub(v).Scale(t)) }

// String writes v as players type it: "x,y" with at most one decimal and
// no trailing ".0", e.g. "12,7.5".
func (v Vec) String() string { return formatCoord(v.X) + "," + formatCoord(v.Y) }

// formatCoord writes x rounded to one decimal, without a trailing ".0" and
// without a minus sign on zero.
func formatCoord(x float64) string {
	r := math.Round(x*10) / 10
	if r == 0 {
		r = 0 // no "-0"
	}
	s := strconv.FormatFloat(r, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0")
}

// ParseVec reads a position as players type it, "x,y" such as "12,7.5" or
// "-3, 4". Spaces around the numbers and a pair of enclosing parentheses are
// allowed; the numbers are plain decimals.
func ParseVec(s string) (Vec, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") {
		t = t[1 : len(t)-1]
	}
	xs, ys, ok := strings.Cut(t, ",")
	if !ok {
		return Vec{}, fmt.Errorf("engine: %q is not a position: write it as x,y, for example 12,7.5", s)
	}
	x, errX := parseCoord(xs)
	y, errY := parseCoord(ys)
	if err := errors.Join(errX, errY); err != nil {
		return Vec{}, fmt.Errorf("engine: %q is not a position: %w", s, err)
	}
	return Vec{x, y}, nil
}

// parseCoord reads one plain decimal number: an optional sign, digits, and
// an optional fraction. Exponents, hex floats, Inf and NaN are refused.
func parseCoord(s string) (float64, error) {
	s = strings.TrimSpace(s)
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return 0, fmt.Errorf("%q has too many signs", s)
	}
	digits, dot := 0, 0
	for _, r := range body {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			dot++
		default:
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	if digits == 0 || dot > 1 {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.Abs(x) > maxCoord {
		return 0, fmt.Errorf("%s is off any table", s)
	}
	return x, nil
}

// Heading is a compass direction on the table: degrees clockwise from north
// (+Y). 0 is north, 90 east, 180 south, 270 west. Methods normalise their
// results to [0,360).
type Heading float64

// Compass headings.
const (
	HeadingN  Heading = 0
	HeadingNE Heading = 45
	HeadingE  Heading = 90
	HeadingSE Heading = 135
	HeadingS  Heading = 180
	HeadingSW Heading = 225
	HeadingW  Heading = 270
	HeadingNW Heading = 315
)

var compassPoints = [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// Norm returns h brought into [0,360).
func (h Heading) Norm() Heading {
	d := math.Mod(float64(h), 360)
	if d < 0 {
		d += 360
	}
	if d >= 360 { // -tiny+360 rounds to 360
		d = 0
	}
	return Heading(d)
}

// Add returns h turned clockwise by deg degrees (anticlockwise when deg is
// negative), normalised.
func (h Heading) Add(deg float64) Heading { return (h + Heading(deg)).Norm() }

// Reverse returns the opposite heading.
func (h Heading) Reverse() Heading { return h.Add(180) }

// Diff returns the signed turn, in degrees within (-180,180], that takes h
// to o: positive is clockwise.
func (h Heading) Diff(o Heading) float64 {
	d := float64((o - h).Norm())
	if d > 180 {
		d -= 360
	}
	return d
}

// Vec returns the unit vector pointing along h.
func (h Heading) Vec() Vec {
	s, c := math.Sincos(float64(h) * math.Pi / 180)
	return Vec{s, c}
}

// HeadingTo returns the heading from one point towards another; north when
// the points are the same.
func HeadingTo(from, to Vec) Heading {
	d := to.Sub(from)
	if d.X == 0 && d.Y == 0 {
		return HeadingN
	}
	return Heading(math.Atan2(d.X, d.Y) * 180 / math.Pi).Norm()
}

// String writes h as a player gives it: a compass point ("N", "SE", ...)
// when it is one to the nearest degree, otherwise whole degrees clockwise
// from north ("186"), never a fraction a player could not lay out.
func (h Heading) String() string {
	r := math.Round(float64(h.Norm()))
	if r >= 360 {
		r = 0
	}
	if q := r / 45; q == math.Trunc(q) {
		return compassPoints[int(q)]
	}
	return strconv.Itoa(int(r))
}

// ParseHeading reads a heading: a compass point N, NE, E, SE, S, SW, W or NW
// (any case), or a number of degrees clockwise from north such as "135" or
// "-30" (a trailing "°" or "deg" is allowed).
func ParseHeading(s string) (Heading, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	for i, p := range compassPoints {
		if t == p {
			return Heading(45 * i), nil
		}
	}
	t = strings.TrimSuffix(strings.TrimSuffix(t, "°"), "DEG")
	d, err := parseCoord(t)
	if err != nil {
		return 0, fmt.Errorf("engine: %q is not a heading: give a compass point (N, NE, E, SE, S, SW, W, NW) or degrees clockwise from north", s)
	}
	return Heading(d).Norm(), nil
}

// Side names an edge of a base, or one of the four quarters around a unit,
// seen from the unit itself.
type Side uint8

// The sides. NoSide means not in contact, or not adjacent.
const (
	NoSide Side = iota
	Front
	Right
	Rear
	Left
)

var sideNames = [...]string{NoSide: "none", Front: "front", Right: "right", Rear: "rear", Left: "left"}

// String returns "front", "right", "rear", "left", or "none".
func (s Side) String() string {
	if int(s) < len(sideNames) {
		return sideNames[s]
	}
	return "side(" + strconv.Itoa(int(s)) + ")"
}

// Flank reports whether s is the left or right side.
func (s Side) Flank() bool { return s == Left || s == Right }

// Base is a stand on the open table: a rectangle Width across its front
// and Depth from front to back, centred on Center, its front edge facing
// Facing. Gwab's bases are 60x30 mm warbands, 60x80 mm chariots and
// 20x30 or 25x25 mm single figures (GWAB 2.4), i.e. 2x1, 2x2.67 and
// about 0.67x1 strides.
type Base struct {
	Center Vec
	Width  float64 // across the front
	Depth  float64 // front to back
	Facing Heading // the way the front edge faces
}

// axes returns the unit vectors pointing out of the base's front and out
// of its right side.
func (b Base) axes() (fwd, right Vec) {
	fwd = b.Facing.Vec()
	return fwd, Vec{fwd.Y, -fwd.X}
}

// local returns p in the base's own frame: x to the right of the centre,
// y forward of it.
func (b Base) local(p Vec) Vec {
	fwd, right := b.axes()
	d := p.Sub(b.Center)
	return Vec{d.Dot(right), d.Dot(fwd)}
}

// world is the inverse of local.
func (b Base) world(l Vec) Vec {
	fwd, right := b.axes()
	return b.Center.Add(right.Scale(l.X)).Add(fwd.Scale(l.Y))
}

// Corners returns the corners in clockwise order seen from above: front
// left, front right, rear right, rear left.
func (b Base) Corners() [4]Vec {
	w, d := b.Width/2, b.Depth/2
	return [4]Vec{
		b.world(Vec{-w, d}),
		b.world(Vec{w, d}),
		b.world(Vec{w, -d}),
		b.world(Vec{-w, -d}),
	}
}

// FrontLeft returns the left corner of the front edge.
func (b Base) FrontLeft() Vec { return b.world(Vec{-b.Width / 2, b.Depth / 2}) }

// FrontRight returns the right corner of the front edge.
func (b Base) FrontRight() Vec { return b.world(Vec{b.Width / 2, b.Depth / 2}) }

// FrontCenter returns the middle of the front edge, the point from which
// gwab measures a stand's move (GWAB 8.4).
func (b Base) FrontCenter() Vec { return b.world(Vec{0, b.Depth / 2}) }

// WithFrontCenter returns b moved, without turning, so that its front
// centre is at p.
func (b Base) WithFrontCenter(p Vec) Base {
	b.Center = p.Sub(b.Facing.Vec().Scale(b.Depth / 2))
	return b
}

// WithCenter returns b moved, without turning, so that its centre is at p.
func (b Base) WithCenter(p Vec) Base {
	b.Center = p
	return b
}

// WithFacing returns b turned in place about its centre to face h.
func (b Base) WithFacing(h Heading) Base {
	b.Facing = h.Norm()
	return b
}

// Contains reports whether p lies on or inside the base.
func (b Base) Contains(p Vec) bool {
	l := b.local(p)
	return math.Abs(l.X) <= b.Width/2+geomEps && math.Abs(l.Y) <= b.Depth/2+geomEps
}

// framed is a base with its axes worked out once, for the tests that
// project it on four axes in turn.
type framed struct {
	b          Base
	fwd, right Vec
}

func (b Base) framed() framed {
	fwd, right := b.axes()
	return framed{b, fwd, right}
}

// project returns the interval the base covers along axis n (a unit
// vector).
func (f framed) project(n Vec) (lo, hi float64) {
	c := f.b.Center.Dot(n)
	r := math.Abs(f.right.Dot(n))*f.b.Width/2 + math.Abs(f.fwd.Dot(n))*f.b.Depth/2
	return c - r, c + r
}

// farApart reports whether b, anywhere on its way by v, stays farther
// from o than the two could reach (Near), by a margin no rounding comes
// near. The exact tests answer as they would anyway; this spares them for
// the many bases nowhere near.
func (b Base) farApart(v Vec, o Base) bool {
	at := b.Center
	if l2 := v.Dot(v); l2 > 0 {
		// The point of the way nearest o.
		at = at.Add(v.Scale(math.Max(0, math.Min(1, o.Center.Sub(at).Dot(v)/l2))))
	}
	return !b.WithCenter(at).Near(o, 1e-3)
}

// Overlaps reports whether the interiors of b and o intersect by more than
// a hair. Bases pushed together edge to edge, or corner to edge, do not
// overlap.
func (b Base) Overlaps(o Base) bool {
	if b.farApart(Vec{}, o) {
		return false
	}
	fb, fo := b.framed(), o.framed()
	for _, n := range [4]Vec{fb.fwd, fb.right, fo.fwd, fo.right} {
		blo, bhi := fb.project(n)
		olo, ohi := fo.project(n)
		if bhi <= olo+geomEps || ohi <= blo+geomEps {
			return false // a separating axis
		}
	}
	return true
}

// edges returns the four sides of the base as segments.
func (b Base) edges() [4][2]Vec {
	c := b.Corners()
	return [4][2]Vec{{c[0], c[1]}, {c[1], c[2]}, {c[2], c[3]}, {c[3], c[0]}}
}

// Gap returns the shortest distance between the two bases: 0 when they
// touch or overlap.
//
// Unless two sides cross, the closest points of two sides are a corner of
// one and a point of the other, so the gap is the least distance from a
// corner of either base to a side of the other: 32 distances. Their
// squares rank them without a square root; only the few that tie with the
// least, to a part in a billion, are measured, so the answer is the least
// of all 32 distances as [Vec.Dist] measures them, to the last bit. This
// is the bots' most frequent measurement (a Goliath decision spends most
// of its time here).
func (b Base) Gap(o Base) float64 {
	if b.Overlaps(o) || b.Contains(o.Center) || o.Contains(b.Center) {
		return 0
	}
	bc, oc := b.Corners(), o.Corners()
	if sidesCross(&bc, &oc) {
		return 0
	}
	var offs [32]Vec
	var squares [32]float64
	least := math.Inf(1)
	n := 0
	for _, pair := range [2][2]*[4]Vec{{&bc, &oc}, {&oc, &bc}} {
		for _, p := range pair[0] {
			c := pair[1]
			for i := range c {
				offs[n] = p.Sub(closest(p, c[i], c[(i+1)%4]))
				squares[n] = offs[n].Dot(offs[n])
				least = min(least, squares[n])
				n++
			}
		}
	}
	limit := least*(1+1e-9) + 1e-300
	best := math.Inf(1)
	for i, d := range offs {
		if squares[i] <= limit {
			best = min(best, d.Len())
		}
	}
	return best
}

// sidesCross reports whether a side of one rectangle crosses a side of the
// other, by the test [segmentDist] makes.
func sidesCross(bc, oc *[4]Vec) bool {
	for i := range bc {
		a, b := bc[i], bc[(i+1)%4]
		for j := range oc {
			if segmentsCross(a, b, oc[j], oc[(j+1)%4]) {
				return true
			}
		}
	}
	return false
}

// Touches reports whether the two bases are in contact: apart by no more
// than ContactTolerance, and overlapping by no more than it either (a
// position typed to a tenth of a stride may sink a hair into its
// neighbour and still only touch it).
func (b Base) Touches(o Base) bool {
	return b.Near(o, ContactTolerance) && b.Gap(o) <= ContactTolerance && b.Penetration(o) <= ContactTolerance
}

// Near is a cheap test that may come before an exact one: false means
// the two bases are more than d apart; true only that they may not be.
// It compares the distance between their centres with the radii of the
// circles around them.
func (b Base) Near(o Base, d float64) bool {
	r := (math.Sqrt(b.Width*b.Width+b.Depth*b.Depth)+math.Sqrt(o.Width*o.Width+o.Depth*o.Depth))/2 + d
	dx, dy := b.Center.X-o.Center.X, b.Center.Y-o.Center.Y
	return dx*dx+dy*dy <= r*r
}

// Penetration is how deep b and o overlap: the least distance one would
// have to move to clear the other, or 0 when they do not overlap.
func (b Base) Penetration(o Base) float64 {
	if b.farApart(Vec{}, o) {
		return 0
	}
	return b.penetration(o)
}

// penetration is Penetration, worked out in full.
func (b Base) penetration(o Base) float64 {
	fb, fo := b.framed(), o.framed()
	depth := math.Inf(1)
	for _, n := range [4]Vec{fb.fwd, fb.right, fo.fwd, fo.right} {
		blo, bhi := fb.project(n)
		olo, ohi := fo.project(n)
		d := math.Min(bhi-olo, ohi-blo)
		if d <= 0 {
			return 0
		}
		depth = math.Min(depth, d)
	}
	return depth
}

// Clashes reports whether b and o overlap by more than the contact
// tolerance: one stands on the other, not merely against it.
func (b Base) Clashes(o Base) bool { return b.Penetration(o) > ContactTolerance }

// ContactSide returns which side of b the base o is touching or overlapping
// (for flank and rear contacts), or NoSide when they are apart. The side is
// the one facing the middle of the region where the two meet.
func (b Base) ContactSide(o Base) Side {
	if !b.Near(o, ContactTolerance) || b.Gap(o) > ContactTolerance {
		return NoSide
	}
	// Clip o to b grown by the tolerance, in b's frame, and take the
	// average of the clipped polygon's corners.
	w, d := b.Width/2+ContactTolerance, b.Depth/2+ContactTolerance
	oc := o.Corners()
	poly := make([]Vec, 0, 8)
	for _, p := range oc {
		poly = append(poly, b.local(p))
	}
	poly = ClipHalfPlane(poly, Vec{1, 0}, w)
	poly = ClipHalfPlane(poly, Vec{-1, 0}, w)
	poly = ClipHalfPlane(poly, Vec{0, 1}, d)
	poly = ClipHalfPlane(poly, Vec{0, -1}, d)
	if len(poly) == 0 {
		return NoSide
	}
	var m Vec
	for _, p := range poly {
		m = m.Add(p)
	}
	return b.SideFacing(b.world(m.Scale(1 / float64(len(poly)))))
}

// ClipHalfPlane clips a polygon to the half-plane n·p <= k: one step of
// Sutherland–Hodgman. The polygon may be concave; the area of the result
// is still exact, though it may have edges of no width.
func ClipHalfPlane(poly []Vec, n Vec, k float64) []Vec {
	var out []Vec
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		dp, dq := n.Dot(p)-k, n.Dot(q)-k
		if dp <= 0 {
			out = append(out, p)
		}
		if (dp < 0 && dq > 0) || (dp > 0 && dq < 0) {
			out = append(out, p.Lerp(q, dp/(dp-dq)))
		}
	}
	return out
}

// SideFacing returns which edge of b faces the point p: the edge whose line
// p is farthest beyond (or, for a point inside, nearest to). Ties between a
// front or rear edge and a flank go to the front or rear. A point at the
// very centre faces the front.
func (b Base) SideFacing(p Vec) Side {
	l := b.local(p)
	ex := math.Abs(l.X) - b.Width/2
	ey := math.Abs(l.Y) - b.Depth/2
	switch {
	case ey >= ex-geomEps && l.Y >= 0:
		return Front
	case ey >= ex-geomEps:
		return Rear
	case l.X > 0:
		return Right
	default:
		return Left
	}
}

// BlocksLine reports whether the segment between two points passes
// through the base's interior: whether the base stands in the way of a
// line of sight or of fire. A line that only grazes a corner or runs along
// an edge is not blocked. Leave the bases of shooter and target out.
func (b Base) BlocksLine(from, to Vec) bool {
	la, lc := b.local(from), b.local(to)
	t0, t1, ok := clipSegment(la, lc, b.Width/2-geomEps, b.Depth/2-geomEps)
	return ok && t1-t0 > 0
}

// SegmentGap returns the shortest distance between the segment from one
// point to another and the base: 0 when the segment touches or crosses it.
func (b Base) SegmentGap(from, to Vec) float64 {
	la, lc := b.local(from), b.local(to)
	if _, _, ok := clipSegment(la, lc, b.Width/2, b.Depth/2); ok {
		return 0
	}
	best := math.Inf(1)
	for _, e := range b.edges() {
		best = math.Min(best, segmentDist(from, to, e[0], e[1]))
	}
	return best
}

// clipSegment clips the segment p→q (in a base's frame) to the rectangle
// |x|<=w, |y|<=d (Liang–Barsky). It returns the parameter range inside and
// whether there is one.
func clipSegment(p, q Vec, w, d float64) (t0, t1 float64, ok bool) {
	if w < 0 || d < 0 {
		return 0, 0, false
	}
	t0, t1 = 0, 1
	dx, dy := q.X-p.X, q.Y-p.Y
	for _, c := range [4][2]float64{{-dx, p.X + w}, {dx, w - p.X}, {-dy, p.Y + d}, {dy, d - p.Y}} {
		pp, qq := c[0], c[1]
		if pp == 0 {
			if qq < 0 {
				return 0, 0, false
			}
			continue
		}
		r := qq / pp
		if pp < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			return 0, 0, false
		}
	}
	return t0, t1, true
}

// pointSegDist returns the distance from p to the segment a→b.
func pointSegDist(p, a, b Vec) float64 {
	return p.Dist(closest(p, a, b))
}

// closest returns the point of the segment a→b nearest to p.
func closest(p, a, b Vec) Vec {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return a
	}
	t := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
	return a.Add(ab.Scale(t))
}

// segmentsCross reports whether the segments a→b and c→d meet at a point
// inside both (not parallel).
func segmentsCross(a, b, c, d Vec) bool {
	ab, cd := b.Sub(a), d.Sub(c)
	den := ab.Cross(cd)
	if den == 0 {
		return false
	}
	t := c.Sub(a).Cross(cd) / den
	u := c.Sub(a).Cross(ab) / den
	return t >= 0 && t <= 1 && u >= 0 && u <= 1
}

// segmentDist returns the distance between the segments a→b and c→d.
func segmentDist(a, b, c, d Vec) float64 {
	if segmentsCross(a, b, c, d) {
		return 0
	}
	return math.Min(
		math.Min(pointSegDist(a, c, d), pointSegDist(b, c, d)),
		math.Min(pointSegDist(c, a, b), pointSegDist(d, a, b)),
	)
}

// Sweep moves b's centre in a straight line towards to, without turning,
// and finds the first of others it would run into. It returns the fraction
// of the path travelled before the first overlap (1 when the path is clear)
// and the index in others of the base hit (-1 when none). A base that
// already overlaps b at the start stops it at once, unless the overlap is
// no deeper than ContactTolerance and the move does not deepen it. Bases that merely come
// into contact do not stop the move; the stopping position leaves the two
// touching. The answer is exact, not sampled.
func (b Base) Sweep(to Vec, others ...Base) (frac float64, hit int) {
	frac, hit = 1, -1
	v := to.Sub(b.Center)
	for i, o := range others {
		if t, ok := b.firstOverlap(v, o); ok && t < frac {
			frac, hit = t, i
		}
	}
	return frac, hit
}

// firstOverlap finds the earliest t in [0,1] at which b moved by t·v starts
// to overlap o, using the separating axis theorem on moving intervals: on
// each axis the bases overlap during an open interval of t, and they
// overlap when all four intervals do.
func (b Base) firstOverlap(v Vec, o Base) (float64, bool) {
	if b.farApart(v, o) {
		return 0, false
	}
	enter, exit := math.Inf(-1), math.Inf(1)
	fb, fo := b.framed(), o.framed()
	for _, n := range [4]Vec{fb.fwd, fb.right, fo.fwd, fo.right} {
		blo, bhi := fb.project(n)
		olo, ohi := fo.project(n)
		s := v.Dot(n)
		// Overlap on this axis while bhi+t·s > olo+geomEps and blo+t·s < ohi-geomEps.
		lo, hi := olo+geomEps-bhi, ohi-geomEps-blo // need lo < t·s < hi
		if lo >= hi {
			return 0, false
		}
		if math.Abs(s) < 1e-12 {
			if lo < 0 && 0 < hi {
				continue // always overlapping on this axis
			}
			return 0, false
		}
		t0, t1 := lo/s, hi/s
		if s < 0 {
			t0, t1 = t1, t0
		}
		enter = math.Max(enter, t0)
		exit = math.Min(exit, t1)
	}
	if enter >= exit || exit <= 0 || enter >= 1 {
		return 0, false
	}
	if enter <= 0 {
		// Already overlapping. A contact-level overlap (two bases placed
		// against each other to within ContactTolerance) holds b only if
		// the motion deepens it. The overlap along the path is a minimum
		// of linear functions of t, so concave: if it does not grow at
		// the start, it never grows, and b leaves o freely.
		if p0 := b.Penetration(o); p0 <= ContactTolerance {
			step := 1e-6 / math.Max(v.Len(), 1e-6)
			if b.WithCenter(b.Center.Add(v.Scale(step))).Penetration(o) <= p0+1e-12 {
				return 0, false
			}
		}
		return 0, true
	}
	// At enter the bases touch; rounding may leave them a hair over. Back
	// off by the smallest step that leaves them clear, as a caller
	// computing the stopping point with Lerp will find it.
	for _, d := range [...]float64{0, 1e-12, 1e-10, 1e-8, 1e-6} {
		t := math.Max(enter-d, 0)
		if !b.WithCenter(b.Center.Add(v.Scale(t))).Overlaps(o) {
			return t, true
		}
	}
	return enter, true
}

// Pivot returns the front corner a wheel of deg degrees turns about: the
// front right corner for a wheel to the right (deg > 0, clockwise), the
// front left for a wheel to the left.
func (b Base) Pivot(deg float64) Vec {
	if deg >= 0 {
		return b.FrontRight()
	}
	return b.FrontLeft()
}

// Wheel returns b after wheeling deg degrees: turning about one front
// corner, which stays put, while the other front corner swings forward.
// Positive deg wheels to the right (clockwise), negative to the left.
func (b Base) Wheel(deg float64) Base {
	p := b.Pivot(deg)
	b.Center = p.Add(b.Center.Sub(p).Rotate(deg))
	b.Facing = b.Facing.Add(deg)
	return b
}

// WheelDistance returns how far the outer front corner travels when b
// wheels deg degrees (in either direction): the arc of radius Width,
// which is how gwab measures a chariot's wheel (GWAB 8.4).
func (b Base) WheelDistance(deg float64) float64 {
	return WheelArc(b.Width, deg)
}

// WheelArc returns the arc travelled by the outer corner of a base width
// wide wheeling deg degrees about its other front corner.
func WheelArc(width, deg float64) float64 {
	return width * math.Abs(deg) * math.Pi / 180
}

// WheelAngle is the inverse of WheelArc: the angle in degrees a base width
// wide can wheel with dist of movement.
func WheelAngle(width, dist float64) float64 {
	if width <= 0 {
		return 0
	}
	return dist / width * 180 / math.Pi
}

// maxWheelSteps bounds the work SweepWheel does for absurdly thin bases.
const maxWheelSteps = 100000

// SweepWheel wheels b by deg degrees (see Wheel) and finds the first of
// others it would run into on the way. It returns the fraction of the
// turn completed before the first overlap (1 when clear) and the index of
// the base hit (-1 when none). The turn is checked in steps small enough
// that no corner moves more than a quarter of the smallest base dimension
// involved between checks (at most maxWheelSteps checks), and the
// stopping angle is then refined to a hair.
func (b Base) SweepWheel(deg float64, others ...Base) (frac float64, hit int) {
	hitAt := func(f float64) int {
		nb := b.Wheel(deg * f)
		for i, o := range others {
			if nb.Overlaps(o) {
				return i
			}
		}
		return -1
	}
	if h := hitAt(0); h >= 0 {
		return 0, h
	}
	small := math.Min(b.Width, b.Depth)
	for _, o := range others {
		small = math.Min(small, math.Min(o.Width, o.Depth))
	}
	// The corner farthest from the pivot moves on the largest arc.
	reach := math.Hypot(b.Width, b.Depth)
	arc := reach * math.Abs(deg) * math.Pi / 180
	steps := 1
	if small > 0 {
		steps = int(math.Ceil(arc / (small / 4)))
	}
	steps = min(max(steps, 1), maxWheelSteps)
	prev := 0.0
	for i := 1; i <= steps; i++ {
		f := float64(i) / float64(steps)
		if h := hitAt(f); h >= 0 {
			lo, hi := prev, f
			for hi-lo > 1e-9 {
				mid := (lo + hi) / 2
				if hitAt(mid) >= 0 {
					hi = mid
				} else {
					lo = mid
				}
			}
			return lo, hitAt(hi)
		}
		prev = f
	}
	return 1, -1
}

// Crossing returns the stretch of the segment from one point to another
// that lies on or inside the base, as shares of the segment from its
// start, t0 to t1, and whether there is one: where a move enters and
// leaves a piece of terrain.
func (b Base) Crossing(from, to Vec) (t0, t1 float64, ok bool) {
	return clipSegment(b.local(from), b.local(to), b.Width/2, b.Depth/2)
}

// InArc reports whether any part of o lies within an arc seen from b's
// front centre: left degrees anticlockwise and right degrees clockwise of
// b's facing. The two may differ (Goliath's horse archers see 180° to
// their left and 45° to their right). A corner, an edge's middle or the
// centre of o inside the arc is enough.
func (b Base) InArc(o Base, left, right float64) bool {
	from := b.FrontCenter()
	c := o.Corners()
	pts := []Vec{o.Center, c[0], c[1], c[2], c[3], c[0].Lerp(c[1], 0.5), c[1].Lerp(c[2], 0.5), c[2].Lerp(c[3], 0.5), c[3].Lerp(c[0], 0.5)}
	for _, p := range pts {
		if p.Dist(from) < geomEps {
			return true
		}
		d := b.Facing.Diff(HeadingTo(from, p))
		if d >= -left-geomEps && d <= right+geomEps {
			return true
		}
	}
	return false
}

// Within reports whether the base lies wholly on a table width by depth,
// with its corner at 0,0 (a millionth of a unit of slack for rounding).
func (b Base) Within(width, depth float64) bool {
	for _, c := range b.Corners() {
		if c.X < -1e-6 || c.Y < -1e-6 || c.X > width+1e-6 || c.Y > depth+1e-6 {
			return false
		}
	}
	return true
}

// ParseTableSize reads an open table's size as a player gives it, width x
// depth in whole inches, each from 24 to 144 ("72x48"), or refuses.
func ParseTableSize(s string) (width, depth float64, err error) {
	w, d, ok := strings.Cut(strings.ToLower(s), "x")
	wi, err1 := strconv.Atoi(strings.TrimSpace(w))
	di, err2 := strconv.Atoi(strings.TrimSpace(d))
	if !ok || err1 != nil || err2 != nil || wi < 24 || di < 24 || wi > 144 || di > 144 {
		return 0, 0, Refuse("", "size: is width x depth in inches, each 24 to 144, like 72x48.")
	}
	return float64(wi), float64(di), nil
}
