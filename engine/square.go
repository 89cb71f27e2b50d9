package engine

// The square grid, for sweet and for btg or goliath boards drawn with a
// grid.
//
// Squares are counted from the south-west corner: column 0 is the west
// edge, row 0 the near (south) edge, rows grow northward. Players name
// squares as on a chess board, column letters then row number from 1:
// "A1" is the near left corner, and after column Z come AA, AB, ... as in
// a spreadsheet.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Square is one square of a grid, zero-based.
type Square struct{ Col, Row int }

// Limits on square references, far beyond any table.
const (
	maxSquareLetters = 3    // up to column ZZZ
	maxSquareRow     = 9999 // up to row 9999
)

// String writes the square as players name it, e.g. "A1", "H12", "AA3".
// A square with a negative coordinate, off any board, is written
// "square(col,row)".
func (s Square) String() string {
	if s.Col < 0 || s.Row < 0 {
		return fmt.Sprintf("square(%d,%d)", s.Col, s.Row)
	}
	return ColumnLetters(s.Col) + strconv.Itoa(s.Row+1)
}

// ColumnLetters returns the letters naming column col (zero-based): A..Z,
// then AA..AZ, BA.., ZZ, AAA...
func ColumnLetters(col int) string {
	var b []byte
	for n := col + 1; n > 0; n = (n - 1) / 26 {
		b = append(b, byte('A'+(n-1)%26))
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// ParseSquare reads a square reference such as "A1", "h12" or "AA3":
// column letters (any case) then the row number counted from 1. Spaces
// around it are allowed.
func ParseSquare(s string) (Square, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	i := 0
	col := 0
	for i < len(t) && t[i] >= 'A' && t[i] <= 'Z' {
		col = col*26 + int(t[i]-'A') + 1
		i++
	}
	bad := func() (Square, error) {
		return Square{}, fmt.Errorf("engine: %q is not a square: write column letters then row number, for example C4", s)
	}
	if i == 0 || i > maxSquareLetters || i == len(t) || len(t)-i > 4 {
		return bad()
	}
	for _, c := range t[i:] {
		if c < '0' || c > '9' {
			return bad()
		}
	}
	row, err := strconv.Atoi(t[i:])
	if err != nil || row < 1 || row > maxSquareRow {
		return bad()
	}
	return Square{Col: col - 1, Row: row - 1}, nil
}

// Within reports whether s lies on a board cols wide and rows deep.
func (s Square) Within(cols, rows int) bool {
	return s.Col >= 0 && s.Col < cols && s.Row >= 0 && s.Row < rows
}

// Dir8 is one of the eight directions from a square: towards a side
// (N, E, S, W) or towards a corner (NE, SE, SW, NW). Sweet's units face a
// side or a corner of their square (sweet, Movement 6).
type Dir8 uint8

// The directions, clockwise from north. NoDir is no direction (an unset
// facing).
const (
	NoDir Dir8 = iota
	North
	NorthEast
	East
	SouthEast
	South
	SouthWest
	West
	NorthWest
)

var dir8Names = [...]string{NoDir: "", North: "N", NorthEast: "NE", East: "E", SouthEast: "SE", South: "S", SouthWest: "SW", West: "W", NorthWest: "NW"}

// dir8Delta is the column and row step for each direction.
var dir8Delta = [...][2]int{
	North: {0, 1}, NorthEast: {1, 1}, East: {1, 0}, SouthEast: {1, -1},
	South: {0, -1}, SouthWest: {-1, -1}, West: {-1, 0}, NorthWest: {-1, 1},
}

// Dirs8 lists the eight directions clockwise from north.
var Dirs8 = [8]Dir8{North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest}

// Valid reports whether d is one of the eight directions.
func (d Dir8) Valid() bool { return d >= North && d <= NorthWest }

// String returns the compass abbreviation ("N", "NE", ...), or "" for
// NoDir.
func (d Dir8) String() string {
	if int(d) < len(dir8Names) {
		return dir8Names[d]
	}
	return "dir(" + strconv.Itoa(int(d)) + ")"
}

// ParseDir8 reads a compass abbreviation N, NE, E, SE, S, SW, W or NW, in
// any case.
func ParseDir8(s string) (Dir8, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	for _, d := range Dirs8 {
		if dir8Names[d] == t {
			return d, nil
		}
	}
	return NoDir, fmt.Errorf("engine: %q is not a direction: use N, NE, E, SE, S, SW, W or NW", s)
}

// Delta returns the column and row step one square in direction d
// (0,0 for NoDir).
func (d Dir8) Delta() (dc, dr int) {
	if !d.Valid() {
		return 0, 0
	}
	return dir8Delta[d][0], dir8Delta[d][1]
}

// Diagonal reports whether d points at a corner of the square rather than
// a side.
func (d Dir8) Diagonal() bool {
	return d == NorthEast || d == SouthEast || d == SouthWest || d == NorthWest
}

// Turn returns d turned clockwise by n eighths of a circle (anticlockwise
// when n is negative). NoDir stays NoDir.
func (d Dir8) Turn(n int) Dir8 {
	if !d.Valid() {
		return NoDir
	}
	return Dir8(((int(d)-1+n)%8+8)%8 + 1)
}

// Opposite returns the reverse direction.
func (d Dir8) Opposite() Dir8 { return d.Turn(4) }

// Heading returns d as a compass heading (north for NoDir).
func (d Dir8) Heading() Heading {
	if !d.Valid() {
		return HeadingN
	}
	return Heading(45 * (int(d) - 1))
}

// Step returns the square next to s in direction d (s itself for NoDir).
func (s Square) Step(d Dir8) Square {
	dc, dr := d.Delta()
	return Square{s.Col + dc, s.Row + dr}
}

// Neighbors8 returns the eight squares around s, clockwise from the one to
// the north. Squares off the board are included; filter with Within.
func (s Square) Neighbors8() []Square {
	out := make([]Square, 0, 8)
	for _, d := range Dirs8 {
		out = append(out, s.Step(d))
	}
	return out
}

// Neighbors4 returns the four squares sharing a side with s: north, east,
// south, west.
func (s Square) Neighbors4() []Square {
	return []Square{s.Step(North), s.Step(East), s.Step(South), s.Step(West)}
}

// SquareDirTo returns the direction from a whose heading is nearest the line
// from a's centre to b's; for adjacent squares it is exactly the step from
// a to b. NoDir when a == b.
func SquareDirTo(a, b Square) Dir8 {
	if a == b {
		return NoDir
	}
	h := squareBearing(a, b)
	// No pair of whole-square offsets lies exactly between two of the
	// eight directions (tan 22.5° is irrational), so rounding is safe.
	return Dir8(int(math.Round(float64(h)/45))%8 + 1)
}

// squareBearing returns the heading from a's centre to b's.
func squareBearing(a, b Square) Heading {
	return HeadingTo(Vec{float64(a.Col), float64(a.Row)}, Vec{float64(b.Col), float64(b.Row)})
}

func geomAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Chebyshev returns the number of king's moves between two squares, each
// diagonal step counting 1: how sweet counts retreats (sweet, Melee Procedure).
func Chebyshev(a, b Square) int {
	return max(geomAbs(a.Col-b.Col), geomAbs(a.Row-b.Row))
}

// Manhattan returns the number of steps between two squares moving only
// through sides.
func Manhattan(a, b Square) int {
	return geomAbs(a.Col-b.Col) + geomAbs(a.Row-b.Row)
}

// DiagonalCost is what a diagonal step costs in sweet's movement and
// shooting ranges (sweet, Movement 1); a step through a side costs 1.
const DiagonalCost = 1.5

// MoveCost returns the cheapest cost from a to b on an empty grid, with
// steps through a side costing 1 and diagonal steps 1.5: the diagonal part
// of the trip costs 1.5 a square and the rest 1. Four squares diagonally
// cost 6. The same count gives sweet's shooting range, which includes the
// target's square but not the shooter's.
func MoveCost(a, b Square) float64 {
	dc, dr := geomAbs(a.Col-b.Col), geomAbs(a.Row-b.Row)
	diag := min(dc, dr)
	straight := max(dc, dr) - diag
	return DiagonalCost*float64(diag) + float64(straight)
}

// Squeezes reports whether the diagonal step from a to b passes between
// two enemy-held squares: the two squares that share the corner the step
// crosses. Sweet forbids moving through that gap (sweet, Movement 4).
// A step that is not a single diagonal step never squeezes.
func Squeezes(a, b Square, enemy func(Square) bool) bool {
	dc, dr := b.Col-a.Col, b.Row-a.Row
	if geomAbs(dc) != 1 || geomAbs(dr) != 1 {
		return false
	}
	return enemy(Square{a.Col + dc, a.Row}) && enemy(Square{a.Col, a.Row + dr})
}

// SquareLine returns the squares a straight line from the centre of a to
// the centre of b passes through, in order from a to b, both included (a
// "supercover" line). Where the line passes exactly through a corner
// shared by four squares, both side squares it slips between are counted
// as well as the diagonal one, so a line through a corner is blocked by
// either of them.
func SquareLine(a, b Square) []Square {
	dc, dr := b.Col-a.Col, b.Row-a.Row
	nx, ny := geomAbs(dc), geomAbs(dr)
	sx, sy := 1, 1
	if dc < 0 {
		sx = -1
	}
	if dr < 0 {
		sy = -1
	}
	out := make([]Square, 0, nx+ny+1)
	p := a
	out = append(out, p)
	for ix, iy := 0, 0; ix < nx || iy < ny; {
		// Compare where the line next crosses a vertical and a horizontal
		// grid line: (ix+½)/nx against (iy+½)/ny, in whole numbers.
		cmp := (1+2*ix)*ny - (1+2*iy)*nx
		switch {
		case cmp == 0: // through a corner
			out = append(out, Square{p.Col + sx, p.Row}, Square{p.Col, p.Row + sy})
			p.Col += sx
			p.Row += sy
			ix++
			iy++
		case cmp < 0:
			p.Col += sx
			ix++
		default:
			p.Row += sy
			iy++
		}
		out = append(out, p)
	}
	return out
}

// SquareLOS reports whether the line from a to b is clear: no square it
// passes through, other than a and b themselves, is blocked. Sweet's
// screening of missile fire (sweet, Missile Fire 2) is this test with
// blocked reporting squares that hold a unit.
func SquareLOS(a, b Square, blocked func(Square) bool) bool {
	for _, s := range SquareLine(a, b) {
		if s != a && s != b && blocked(s) {
			return false
		}
	}
	return true
}

// InArc reports whether the centre of square to lies within halfAngle
// degrees either side of facing, seen from the centre of from. Sweet lets
// units and catapults shoot within 45 degrees of their facing (sweet
// Missile Fire 1, Catapult Fire 2): InArc(from, f, to, 45). A square is never in
// its own arc.
func InArc(from Square, facing Dir8, to Square, halfAngle float64) bool {
	if from == to || !facing.Valid() {
		return false
	}
	d := facing.Heading().Diff(squareBearing(from, to))
	return math.Abs(d) <= halfAngle+1e-9
}

// SquareCenter returns the centre of s in table units on a board whose
// squares are size wide, with the south-west corner of A1 at the origin.
func SquareCenter(s Square, size float64) Vec {
	return Vec{(float64(s.Col) + 0.5) * size, (float64(s.Row) + 0.5) * size}
}

// SquareAt returns the square holding point p on a board whose squares are
// size wide (the inverse of SquareCenter).
func SquareAt(p Vec, size float64) Square {
	return Square{int(math.Floor(p.X / size)), int(math.Floor(p.Y / size))}
}
