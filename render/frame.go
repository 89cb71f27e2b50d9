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
// the picture before it and no label moves; it keeps a margin round
// them, is at least minFrame units each way and a zoom level wide (see
// below), and runs from and to whole multiples of frameSnap on the ruler
// (or the table's edge), so that pictures of one area keep one frame.
// The ruler gives the table's own positions whatever part is shown.

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

// Zoom levels. A frame's scale follows from how many units, squares or
// hexes it is wide, so a frame is made as wide as the narrowest of a few
// fixed widths that holds what it must show (and deep enough, at that
// width's scale, for the picture's height): each table is then drawn at
// a few scales at most, and its ground (static.go), drawn once for each,
// serves every frame at that scale. A level of nearly the whole table's
// width shows the whole width instead. Each level is about half as wide
// again as the one before.
var (
	openLevels = levels(minFrameW, 1.5, frameSnap, maxUnits) // 20, 30, 45, 70, 105… units
	gridLevels = levels(minGridCols, 1.5, 1, maxGridCols)    // 8, 12, 18, 27, 41… squares
	hexLevels  = levels(minHexCols, 4.0/3, 1, maxHexCols)    // 12, 16, 21, 28, 37… hexes
)

// levels returns the widths from least up to most, each about ratio times
// the one before, rounded to a multiple of step.
func levels(least, ratio, step, most float64) []float64 {
	var out []float64
	for l := least; l <= most; l = math.Max(l+step, math.Round(l*ratio/step)*step) {
		out = append(out, l)
	}
	return out
}

// zoomLevel returns the width of a frame that must show at least need
// units of a board size units wide: the narrowest level that holds
// need, or the whole width when that level is most of it.
func zoomLevel(ls []float64, need, size float64) float64 {
	for _, l := range ls {
		if l >= need {
			if l >= wholeShare*size {
				return size
			}
			return l
		}
	}
	return size
}

// frameOf returns the part of v's open table the picture shows, when the
// table's part wa pixels wide may be at most maxH pixels deep.
func frameOf(v *engine.View, wa, maxH float64) window {
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
	// deep reports whether a frame w by d units is too deep for the
	// picture at the scale its width gives (newBoard's test).
	deep := func(w, d float64) bool { return d*(wa/w) > maxH }
	// snap makes the frame a level wide: as much wider on each side as
	// whole multiples of frameSnap allow, and back onto the table.
	snap := func() {
		box.x0, box.x1 = grow(box.x0, box.x1, minFrameW, v.Width)
		box.y0, box.y1 = grow(box.y0, box.y1, minFrameD, v.Depth)
		w, d := box.x1-box.x0, box.y1-box.y0
		need := w
		if deep(w, d) {
			need = d * wa / maxH
		}
		l := zoomLevel(openLevels, need, v.Width)
		if l == v.Width && deep(l, d) {
			box = whole
			return
		}
		lo := box.x0 - math.Floor((l-w)/2/frameSnap)*frameSnap
		box.x0, box.x1 = lo, lo+l
		if box.x0 < 0 {
			box.x0, box.x1 = 0, l
		}
		if box.x1 > v.Width {
			box.x0, box.x1 = math.Max(0, v.Width-l), v.Width
		}
	}
	snap()
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
		snap()
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
// c0 to c1 and rows r0 to r1, zero-based, both included. The frame is a
// zoom level wide (gridLevels), and, as the picture may be at most one
// row for every aspect columns, wide enough for its rows at that scale.
func gridFrameOf(v *engine.View, cols, rows int, aspect float64) (c0, r0, c1, r1 int) {
	c0, r0, c1, r1 = gridFrame(v, cols, rows, minGridCols, minGridRows)
	need := math.Max(float64(c1-c0+1), float64(r1-r0+1)*aspect)
	l := int(zoomLevel(gridLevels, need, float64(cols)))
	if l == cols && float64(r1-r0+1)*aspect > float64(cols) {
		return 0, 0, cols - 1, rows - 1
	}
	return gridFrame(v, cols, rows, l, minGridRows)
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
		lo, hi = max(lo-gridMargin, 0), min(hi+gridMargin, size-1)
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
// least minHexCols by minHexRows and a zoom level wide, or the whole map
// when that is nearly all of it. (A map much deeper than wide may be
// framed at a scale its depth sets, outside the levels.)
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
	// The frame is a zoom level wide, and the front's frame the widest
	// level that still reads.
	l := int(zoomLevel(hexLevels, float64(c-a+1), float64(cols)))
	if i := slices.IndexFunc(hexLevels, func(l float64) bool { return l > float64(legible) }); i > 0 {
		legible = int(hexLevels[i-1])
	}
	if l > legible && len(w.Marks) == 0 {
		mid := frontColumn(v) - c0
		a = min(max(0, mid-legible/2), cols-legible)
		c = a + legible - 1
	} else {
		a, b, c, d = gridFrame(&w, cols, rows, l, minHexRows)
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
