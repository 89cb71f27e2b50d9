package engine

// The hex grid, for sgboh.
//
// Convention. Hexes are flat-topped and stand in vertical columns, as on
// printed hex-and-counter maps. A hex is named by its column then its row,
// two digits each: "0412" is column 04, row 12. Columns run west to east;
// rows run north to south down each column, as printed (row 01 at the top
// of the map, which is north). Even-numbered columns sit half a hex lower
// (further south) than odd-numbered ones, so 0201 is south-east of 0101
// and 0200 north-east of it.
//
// Internally a hex is held in axial coordinates: Q is the column, and R
// counts along the column but slants with it, so that the six neighbours
// of every hex are the same six offsets.
//
// Each hex has six sides, facing N, NE, SE, S, SW and NW ([HexDir]), and
// six corners (vertices), pointing NNE, E, SSE, SSW, W and NNW
// ([HexFacing]). Sgboh keeps the standard Great Battles facing rules (SGBOH
// 7.1), in which a unit faces a vertex of its hex (SGBOH 7.16 turns units
// vertex by vertex): the two hexes either side of that vertex are its
// frontal hexes, the one on each side its flanks, and the two behind its
// rear.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Hex is one hex of a map, in axial coordinates (see the package comment
// on the hex convention). Use HexFromOffset and Offset to convert to and
// from the printed column and row.
type Hex struct{ Q, R int }

// HexFromOffset returns the hex at a printed column and row.
func HexFromOffset(col, row int) Hex {
	return Hex{Q: col, R: row - (col+(col&1))/2}
}

// Offset returns the hex's printed column and row.
func (h Hex) Offset() (col, row int) {
	return h.Q, h.R + (h.Q+(h.Q&1))/2
}

// String writes the hex as printed on the map, column then row with two
// digits each, e.g. "0412". A hex beyond column or row 99, or before 00,
// is written "hex(q,r)" with its axial coordinates.
func (h Hex) String() string {
	col, row := h.Offset()
	if col < 0 || col > 99 || row < 0 || row > 99 {
		return fmt.Sprintf("hex(%d,%d)", h.Q, h.R)
	}
	return fmt.Sprintf("%02d%02d", col, row)
}

// ParseHex reads a hex number as printed on the map: four digits, column
// then row, such as "0412". Spaces around it are allowed.
func ParseHex(s string) (Hex, error) {
	t := strings.TrimSpace(s)
	if len(t) != 4 {
		return Hex{}, fmt.Errorf("engine: %q is not a hex: give its four-digit number, column then row, for example 0412", s)
	}
	for i := 0; i < 4; i++ {
		if t[i] < '0' || t[i] > '9' {
			return Hex{}, fmt.Errorf("engine: %q is not a hex: give its four-digit number, column then row, for example 0412", s)
		}
	}
	col, _ := strconv.Atoi(t[:2])
	row, _ := strconv.Atoi(t[2:])
	return HexFromOffset(col, row), nil
}

// HexDir is one of the six hexsides, the direction to a neighbouring hex.
type HexDir uint8

// The hexsides, clockwise from north. NoHexDir is no direction.
const (
	NoHexDir HexDir = iota
	HexN
	HexNE
	HexSE
	HexS
	HexSW
	HexNW
)

// HexDirs lists the six hexsides clockwise from north.
var HexDirs = [6]HexDir{HexN, HexNE, HexSE, HexS, HexSW, HexNW}

var hexDirNames = [...]string{NoHexDir: "", HexN: "N", HexNE: "NE", HexSE: "SE", HexS: "S", HexSW: "SW", HexNW: "NW"}

// hexDelta is the axial step across each hexside.
var hexDelta = [...]Hex{
	HexN: {0, -1}, HexNE: {1, -1}, HexSE: {1, 0},
	HexS: {0, 1}, HexSW: {-1, 1}, HexNW: {-1, 0},
}

// Valid reports whether d is one of the six hexsides.
func (d HexDir) Valid() bool { return d >= HexN && d <= HexNW }

// String returns "N", "NE", "SE", "S", "SW" or "NW", or "" for NoHexDir.
func (d HexDir) String() string {
	if int(d) < len(hexDirNames) {
		return hexDirNames[d]
	}
	return "hexdir(" + strconv.Itoa(int(d)) + ")"
}

// ParseHexDir reads a hexside: N, NE, SE, S, SW or NW, in any case.
func ParseHexDir(s string) (HexDir, error) {
	t := upperTrim(s)
	for _, d := range HexDirs {
		if hexDirNames[d] == t {
			return d, nil
		}
	}
	return NoHexDir, fmt.Errorf("engine: %q is not a hexside: use N, NE, SE, S, SW or NW", s)
}

// Turn returns d turned clockwise by n hexsides (anticlockwise when n is
// negative). NoHexDir stays NoHexDir.
func (d HexDir) Turn(n int) HexDir {
	if !d.Valid() {
		return NoHexDir
	}
	return HexDir(((int(d)-1+n)%6+6)%6 + 1)
}

// Opposite returns the hexside across the hex from d.
func (d HexDir) Opposite() HexDir { return d.Turn(3) }

// Heading returns the compass heading through the middle of the hexside
// (north for NoHexDir).
func (d HexDir) Heading() Heading {
	if !d.Valid() {
		return HeadingN
	}
	return Heading(60 * (int(d) - 1))
}

// Step returns the neighbour of h across hexside d (h itself for
// NoHexDir).
func (h Hex) Step(d HexDir) Hex {
	if !d.Valid() {
		return h
	}
	return Hex{h.Q + hexDelta[d].Q, h.R + hexDelta[d].R}
}

// Neighbors returns the six hexes around h, clockwise from the one to the
// north. Hexes off the map are included.
func (h Hex) Neighbors() []Hex {
	out := make([]Hex, 0, 6)
	for _, d := range HexDirs {
		out = append(out, h.Step(d))
	}
	return out
}

// HexDirTo returns the hexside of a that b lies across, or NoHexDir when b
// is not next to a.
func HexDirTo(a, b Hex) HexDir {
	for _, d := range HexDirs {
		if a.Step(d) == b {
			return d
		}
	}
	return NoHexDir
}

// HexDistance returns the number of hexes from a to b, counting b but not
// a: neighbours are 1 apart.
func HexDistance(a, b Hex) int {
	dq, dr := a.Q-b.Q, a.R-b.R
	return (geomAbs(dq) + geomAbs(dr) + geomAbs(dq+dr)) / 2
}

// HexRing returns the hexes exactly radius from center, clockwise starting
// with the one due north (sgboh's elephant rampage works clockwise around
// the elephant, SGBOH 9.14). Radius 0 gives center alone.
func HexRing(center Hex, radius int) []Hex {
	if radius <= 0 {
		return []Hex{center}
	}
	out := make([]Hex, 0, 6*radius)
	h := Hex{center.Q, center.R - radius} // radius steps north
	for _, d := range HexDirs {
		walk := d.Turn(2) // from the north corner the ring first runs SE
		for range radius {
			out = append(out, h)
			h = h.Step(walk)
		}
	}
	return out
}

// HexesWithin returns every hex within radius of center, center first,
// then ring by ring outwards, each ring clockwise from north.
func HexesWithin(center Hex, radius int) []Hex {
	var out []Hex
	for r := 0; r <= radius; r++ {
		out = append(out, HexRing(center, r)...)
	}
	return out
}

// HexFacing is the vertex of its hex a unit faces (SGBOH 7.1, 7.16).
type HexFacing uint8

// The six vertex facings, clockwise from north-north-east. NoHexFacing is
// no facing (unset).
const (
	NoHexFacing HexFacing = iota
	FacingNNE
	FacingE
	FacingSSE
	FacingSSW
	FacingW
	FacingNNW
)

// HexFacings lists the six vertex facings clockwise from FacingNNE.
var HexFacings = [6]HexFacing{FacingNNE, FacingE, FacingSSE, FacingSSW, FacingW, FacingNNW}

var hexFacingNames = [...]string{NoHexFacing: "", FacingNNE: "NNE", FacingE: "E", FacingSSE: "SSE", FacingSSW: "SSW", FacingW: "W", FacingNNW: "NNW"}

// Valid reports whether f is one of the six facings.
func (f HexFacing) Valid() bool { return f >= FacingNNE && f <= FacingNNW }

// String returns "NNE", "E", "SSE", "SSW", "W" or "NNW", or "" for
// NoHexFacing.
func (f HexFacing) String() string {
	if int(f) < len(hexFacingNames) {
		return hexFacingNames[f]
	}
	return "hexfacing(" + strconv.Itoa(int(f)) + ")"
}

// ParseHexFacing reads a vertex facing: NNE, E, SSE, SSW, W or NNW, in any
// case.
func ParseHexFacing(s string) (HexFacing, error) {
	t := upperTrim(s)
	for _, f := range HexFacings {
		if hexFacingNames[f] == t {
			return f, nil
		}
	}
	return NoHexFacing, fmt.Errorf("engine: %q is not a hex facing: a unit faces a corner of its hex, NNE, E, SSE, SSW, W or NNW", s)
}

// Turn returns f turned clockwise by n vertices (anticlockwise when n is
// negative). NoHexFacing stays NoHexFacing.
func (f HexFacing) Turn(n int) HexFacing {
	if !f.Valid() {
		return NoHexFacing
	}
	return HexFacing(((int(f)-1+n)%6+6)%6 + 1)
}

// Opposite returns the facing turned about.
func (f HexFacing) Opposite() HexFacing { return f.Turn(3) }

// Heading returns the compass heading towards the faced vertex (north for
// NoHexFacing).
func (f HexFacing) Heading() Heading {
	if !f.Valid() {
		return HeadingN
	}
	return Heading(30 + 60*(int(f)-1))
}

// sides returns the hexsides of a unit facing f, in the order: front left,
// front right, right flank, right rear, left rear, left flank.
func (f HexFacing) sides() [6]HexDir {
	d := HexDir(f) // the hexside just anticlockwise of the faced vertex
	return [6]HexDir{d, d.Turn(1), d.Turn(2), d.Turn(3), d.Turn(4), d.Turn(5)}
}

// FrontHexes returns the two frontal hexes of a unit in h facing f: the
// hexes either side of the faced vertex, left first. A unit entering an
// enemy's frontal hex may have to stop (SGBOH 7.2), and units shock only
// enemies in their frontal hexes (SGBOH 8.3). Nil for NoHexFacing.
func FrontHexes(h Hex, f HexFacing) []Hex {
	if !f.Valid() {
		return nil
	}
	s := f.sides()
	return []Hex{h.Step(s[0]), h.Step(s[1])}
}

// FlankHexes returns the flank hexes of a unit in h facing f, left then
// right.
func FlankHexes(h Hex, f HexFacing) []Hex {
	if !f.Valid() {
		return nil
	}
	s := f.sides()
	return []Hex{h.Step(s[5]), h.Step(s[2])}
}

// RearHexes returns the two rear hexes of a unit in h facing f, left then
// right.
func RearHexes(h Hex, f HexFacing) []Hex {
	if !f.Valid() {
		return nil
	}
	s := f.sides()
	return []Hex{h.Step(s[4]), h.Step(s[3])}
}

// FrontOf returns the frontal hexes of a unit that fills several hexes
// side by side, all facing f, such as sgboh's double-sized units (SGBOH
// 6.4): the union of each hex's frontal hexes, without the unit's own
// hexes, each listed once. Two hexes side by side have three frontal
// hexes.
func FrontOf(f HexFacing, hexes ...Hex) []Hex {
	var out []Hex
	for _, h := range hexes {
	next:
		for _, fh := range FrontHexes(h, f) {
			for _, x := range hexes {
				if x == fh {
					continue next
				}
			}
			for _, x := range out {
				if x == fh {
					continue next
				}
			}
			out = append(out, fh)
		}
	}
	return out
}

// HexAspect returns which side of a unit in h facing f the neighbouring
// hex other lies on: Front, Left or Right (a flank), or Rear. Sgboh gives
// extra weight to attacks through the flank or rear (SGBOH 8.3). NoSide
// when other is not next to h or f is NoHexFacing.
func HexAspect(h Hex, f HexFacing, other Hex) Side {
	if !f.Valid() {
		return NoSide
	}
	d := HexDirTo(h, other)
	if d == NoHexDir {
		return NoSide
	}
	switch s := f.sides(); d {
	case s[0], s[1]:
		return Front
	case s[2]:
		return Right
	case s[3], s[4]:
		return Rear
	default:
		return Left
	}
}

// cube is a hex in fractional cube coordinates (q + r + s = 0), used to
// draw lines.
type cube struct{ q, r, s float64 }

// round returns the hex nearest c.
func (c cube) round() Hex {
	q, r, s := math.Round(c.q), math.Round(c.r), math.Round(c.s)
	dq, dr, ds := math.Abs(q-c.q), math.Abs(r-c.r), math.Abs(s-c.s)
	switch {
	case dq > dr && dq > ds:
		q = -r - s
	case dr > ds:
		r = -q - s
	}
	return Hex{int(q), int(r)}
}

// hexLine draws the line from a to b with every point nudged by k times a
// tiny offset, so that a line running exactly along a hexside falls
// consistently to one side of it (k = 1) or the other (k = -1).
func hexLine(a, b Hex, k float64) []Hex {
	n := HexDistance(a, b)
	out := make([]Hex, 0, n+1)
	if n == 0 {
		return append(out, a)
	}
	nq, nr := 1e-6*k, 2e-6*k
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		q := float64(a.Q) + float64(b.Q-a.Q)*t + nq
		r := float64(a.R) + float64(b.R-a.R)*t + nr
		out = append(out, cube{q, r, -q - r}.round())
	}
	return out
}

// HexLine returns the hexes a straight line from the centre of a to the
// centre of b passes through, a and b included, one per step of distance.
// Where the line runs exactly along a hexside it keeps to one side,
// always the same; HexLOS looks at both sides.
func HexLine(a, b Hex) []Hex { return hexLine(a, b, 1) }

// HexLOS reports whether the line from a to b is clear: no hex it passes
// through, other than a and b, is blocked. Where the line runs exactly
// along hexsides it is clear if the hexes on one side of it are all clear
// (our ruling: sgboh defers to the standard Great Battles rules, which we
// do not have; this is the usual hex-wargame convention that a hexside
// spine is blocked only when both sides are).
func HexLOS(a, b Hex, blocked func(Hex) bool) bool {
	clear := func(line []Hex) bool {
		for _, h := range line {
			if h != a && h != b && blocked(h) {
				return false
			}
		}
		return true
	}
	return clear(hexLine(a, b, 1)) || clear(hexLine(a, b, -1))
}

// HexCenter returns the centre of h in table units for a map whose hexes
// have corners size from their centres, with the centre of hex 0000 at the
// origin. As everywhere on the table, +Y is north; since printed rows run
// southward, rows further down the map have smaller (negative) Y.
func HexCenter(h Hex, size float64) Vec {
	return Vec{
		X: size * 1.5 * float64(h.Q),
		Y: -size * math.Sqrt(3) * (float64(h.R) + float64(h.Q)/2),
	}
}

// HexCorners returns the six corners of h (see HexCenter), clockwise from
// the north-north-east one: corner i is the vertex that facing
// HexFacings[i] points at.
func HexCorners(h Hex, size float64) [6]Vec {
	c := HexCenter(h, size)
	var out [6]Vec
	for i, f := range HexFacings {
		out[i] = c.Add(f.Heading().Vec().Scale(size))
	}
	return out
}

// HexAt returns the hex containing point p (the inverse of HexCenter).
func HexAt(p Vec, size float64) Hex {
	down := -p.Y
	q := (2.0 / 3 * p.X) / size
	r := (-1.0/3*p.X + math.Sqrt(3)/3*down) / size
	return cube{q, r, -q - r}.round()
}

// upperTrim returns s without surrounding spaces, in upper case.
func upperTrim(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
