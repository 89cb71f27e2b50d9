package render

import (
	"math"
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Framing: on an open table a picture shows the part of the table where
// something happens, not the whole of it, so that pieces and their labels
// read at a chat app's preview size. The part shown is the last step's
// marks and the pieces near them, or, with no marks, every piece, as
// /board shows them, so that a step that moved nothing frames exactly as
// the picture before it and no label moves; it keeps a margin round them, is at least minFrame units each way, and
// runs from and to whole multiples of frameSnap on the ruler, so that
// pictures of one area keep one frame. The ruler gives the table's own
// positions whatever part is shown.

const (
	frameMargin = 3   // units kept round what is framed
	frameSnap   = 5   // the frame's edges fall on multiples of this
	minFrameW   = 20  // the narrowest frame, in units
	minFrameD   = 12  // the shallowest
	wholeShare  = 0.8 // a frame this much of the table each way shows the whole
)

// window is a part of an open table, in table units.
type window struct{ x0, y0, x1, y1 float64 }

// contains reports whether p lies within slack of w (inside it by -slack,
// for a negative slack).
func (w window) contains(p engine.Vec, slack float64) bool {
	return p.X >= w.x0-slack && p.X <= w.x1+slack && p.Y >= w.y0-slack && p.Y <= w.y1+slack
}

// frameOf returns the part of v's open table the picture shows.
func frameOf(v *engine.View) window {
	whole := window{0, 0, v.Width, v.Depth}
	box := window{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	add := func(p engine.Vec, r float64) {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return
		}
		box.x0, box.y0 = math.Min(box.x0, p.X-r), math.Min(box.y0, p.Y-r)
		box.x1, box.y1 = math.Max(box.x1, p.X+r), math.Max(box.y1, p.Y+r)
	}
	reach := func(p engine.Piece) float64 { return math.Hypot(p.Base.Width, p.Base.Depth) / 2 }
	for _, m := range v.Marks {
		add(m.From, 0)
		if m.Kind != engine.KillMark {
			add(m.To, 0)
		}
	}
	if math.IsInf(box.x0, 1) {
		for _, p := range v.Pieces {
			add(p.Base.Center, reach(p))
		}
		for _, t := range v.Tokens {
			add(t.At, 0)
		}
	}
	if math.IsInf(box.x0, 1) {
		return whole
	}
	box.x0, box.y0 = box.x0-frameMargin, box.y0-frameMargin
	box.x1, box.y1 = box.x1+frameMargin, box.y1+frameMargin
	grow := func(lo, hi, least, size float64) (float64, float64) {
		least = math.Min(least, size)
		if d := least - (hi - lo); d > 0 {
			lo, hi = lo-d/2, hi+d/2
		}
		lo = math.Floor(lo/frameSnap) * frameSnap
		hi = math.Ceil(hi/frameSnap) * frameSnap
		// Slide back onto the table rather than shrink.
		if lo < 0 {
			lo, hi = 0, hi-lo
		}
		if hi > size {
			lo, hi = math.Max(0, lo-(hi-size)), size
		}
		return lo, math.Min(hi, size)
	}
	box.x0, box.x1 = grow(box.x0, box.x1, minFrameW, v.Width)
	box.y0, box.y1 = grow(box.y0, box.y1, minFrameD, v.Depth)
	// A piece the frame cuts is taken in whole, and the frame snapped
	// again, until it cuts none.
	for range 4 {
		cut := false
		for _, p := range v.Pieces {
			r := reach(p)
			c := p.Base.Center
			if box.contains(c, r) && (c.X-r < box.x0 && box.x0 > 0 || c.X+r > box.x1 && box.x1 < v.Width ||
				c.Y-r < box.y0 && box.y0 > 0 || c.Y+r > box.y1 && box.y1 < v.Depth) {
				add(p.Base.Center, r)
				cut = true
			}
		}
		if !cut {
			break
		}
		box.x0, box.x1 = grow(box.x0, box.x1, minFrameW, v.Width)
		box.y0, box.y1 = grow(box.y0, box.y1, minFrameD, v.Depth)
	}
	if box.x1-box.x0 >= wholeShare*v.Width && box.y1-box.y0 >= wholeShare*v.Depth {
		return whole
	}
	return box
}

// Square grids are framed the same way, in whole squares: the last
// step's marks (else the view's focus, else every piece), with a square
// round them, at least minGridCols by minGridRows.
const (
	gridMargin  = 1
	minGridCols = 8
	minGridRows = 6
)

// gridFrameOf returns the squares of v's grid the picture shows: columns
// c0 to c1 and rows r0 to r1, zero-based, both included.
func gridFrameOf(v *engine.View, cols, rows int) (c0, r0, c1, r1 int) {
	return gridFrame(v, cols, rows, minGridCols, minGridRows)
}

// gridFrame is gridFrameOf with the least frame given.
func gridFrame(v *engine.View, cols, rows, leastCols, leastRows int) (c0, r0, c1, r1 int) {
	whole := func() (int, int, int, int) { return 0, 0, cols - 1, rows - 1 }
	c0, r0, c1, r1 = math.MaxInt, math.MaxInt, math.MinInt, math.MinInt
	add := func(p engine.Vec) {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.Abs(p.X) > 1e6 || math.Abs(p.Y) > 1e6 {
			return
		}
		c, r := int(math.Round(p.X)), int(math.Round(p.Y))
		c0, r0, c1, r1 = min(c0, c), min(r0, r), max(c1, c), max(r1, r)
	}
	for _, m := range v.Marks {
		add(m.From)
		if m.Kind != engine.KillMark {
			add(m.To)
		}
	}
	if c0 == math.MaxInt {
		for _, f := range v.Focus {
			add(f)
		}
	}
	if c0 == math.MaxInt {
		for _, p := range v.Pieces {
			add(p.Base.Center)
		}
		for _, t := range v.Tokens {
			add(t.At)
		}
	}
	if c0 == math.MaxInt {
		return whole()
	}
	fit := func(lo, hi, least, size int) (int, int) {
		lo, hi = lo-gridMargin, hi+gridMargin
		least = min(least, size)
		for hi-lo+1 < least {
			if lo > 0 {
				lo--
			}
			if hi-lo+1 < least && hi < size-1 {
				hi++
			}
		}
		return max(lo, 0), min(hi, size-1)
	}
	c0, c1 = fit(c0, c1, leastCols, cols)
	r0, r1 = fit(r0, r1, leastRows, rows)
	if float64(c1-c0+1) >= wholeShare*float64(cols) && float64(r1-r0+1) >= wholeShare*float64(rows) {
		return whole()
	}
	return c0, r0, c1, r1
}

// gridFramed returns v with only the pieces, tokens and marks in the
// squares c0..c1 by r0..r1.
func gridFramed(v *engine.View, c0, r0, c1, r1 int) *engine.View {
	in := func(p engine.Vec) bool {
		c, r := int(math.Round(p.X)), int(math.Round(p.Y))
		return c >= c0 && c <= c1 && r >= r0 && r <= r1
	}
	out := *v
	out.Pieces = nil
	for _, p := range v.Pieces {
		if in(p.Base.Center) {
			out.Pieces = append(out.Pieces, p)
		}
	}
	out.Tokens = nil
	for _, t := range v.Tokens {
		if in(t.At) {
			out.Tokens = append(out.Tokens, t)
		}
	}
	out.Marks = nil
	for _, m := range v.Marks {
		if in(m.From) && (m.Kind == engine.KillMark || in(m.To)) {
			out.Marks = append(out.Marks, m)
		}
	}
	return &out
}

// framed returns v with only what shows in w: pieces whose base reaches
// into it, and tokens and marks in it.
func framed(v *engine.View, w window) *engine.View {
	if w == (window{0, 0, v.Width, v.Depth}) {
		return v
	}
	out := *v
	out.Pieces = nil
	for _, p := range v.Pieces {
		if w.contains(p.Base.Center, math.Hypot(p.Base.Width, p.Base.Depth)/2) {
			out.Pieces = append(out.Pieces, p)
		}
	}
	out.Tokens = nil
	for _, t := range v.Tokens {
		if w.contains(t.At, 0) {
			out.Tokens = append(out.Tokens, t)
		}
	}
	out.Marks = nil
	for _, m := range v.Marks {
		if w.contains(m.From, 0) && (m.Kind == engine.KillMark || w.contains(m.To, 0)) {
			out.Marks = append(out.Marks, m)
		}
	}
	return &out
}

// The hexes a picture of a hex map shows, by the same rule as a square
// grid's: the last step's marks, or every piece, with a margin, at
// least minHexCols by minHexRows, or the whole map when that is nearly
// all of it.
const (
	minHexCols = 12
	minHexRows = 8
	// legibleHex is the least corner radius of a hex, in pixels at the
	// size the picture is seen at, at which a counter's type letters
	// read. A frame of every piece wider than that allows (a whole
	// battle's opening) shows the front instead: the columns where the
	// sides' units stand nearest each other.
	legibleHex = 21
	frontReach = 3 // hexes: a unit with an enemy this near is at the front
)

// hexFrameOf returns the first printed column and row of the part of
// v's hex map the picture shows, and its columns and rows; the map's
// own first column and row are c0 and r0. A frame with no marks to show
// is at most legible columns wide, round the front.
func hexFrameOf(v *engine.View, c0, r0, cols, rows, legible int) (fc0, fr0, fcols, frows int) {
	shift := func(p engine.Vec) engine.Vec { return engine.Vec{X: p.X - float64(c0), Y: p.Y - float64(r0)} }
	w := engine.View{Marks: make([]engine.Mark, len(v.Marks)), Pieces: make([]engine.Piece, len(v.Pieces)), Tokens: make([]engine.Token, len(v.Tokens))}
	for _, f := range v.Focus {
		w.Focus = append(w.Focus, shift(f))
	}
	for i, m := range v.Marks {
		m.From, m.To = shift(m.From), shift(m.To)
		w.Marks[i] = m
	}
	for i, p := range v.Pieces {
		p.Base.Center = shift(p.Base.Center)
		w.Pieces[i] = p
	}
	for i, t := range v.Tokens {
		t.At = shift(t.At)
		w.Tokens[i] = t
	}
	a, b, c, d := gridFrame(&w, cols, rows, minHexCols, minHexRows)
	if c-a+1 > legible && len(w.Marks) == 0 {
		mid := frontColumn(v) - c0
		a = min(max(0, mid-legible/2), cols-legible)
		c = a + legible - 1
	}
	return c0 + a, r0 + b, c - a + 1, d - b + 1
}

// frontColumn is the printed column of the middle of the front: of the
// pieces with an enemy within frontReach hexes (every piece when none
// has), the middle one's column.
func frontColumn(v *engine.View) int {
	side := func(p engine.Piece) int {
		if p.Group >= 0 && p.Group < len(v.Groups) {
			return v.Groups[p.Group].Side
		}
		return p.Group
	}
	hex := func(p engine.Vec) engine.Hex { return engine.HexFromOffset(int(math.Round(p.X)), int(math.Round(p.Y))) }
	var cols []int
	for _, p := range v.Pieces {
		for _, q := range v.Pieces {
			if side(q) != side(p) && engine.HexDistance(hex(p.Base.Center), hex(q.Base.Center)) <= frontReach {
				cols = append(cols, int(math.Round(p.Base.Center.X)))
				break
			}
		}
	}
	if len(cols) == 0 {
		for _, p := range v.Pieces {
			cols = append(cols, int(math.Round(p.Base.Center.X)))
		}
	}
	if len(cols) == 0 {
		return 0
	}
	slices.Sort(cols)
	return cols[len(cols)/2]
}
