package render

import (
	"errors"
	"fmt"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// Limits on what a view may ask for.
const (
	maxGridCols = 200 // square grids: columns up to GR
	maxHexCols  = 99  // hex numbers have two digits for column and row
	maxUnits    = 1e5 // open tables
)

// ErrBadView is returned (wrapped) for a view that cannot be drawn: a
// table with no size, or a grid too large to number.
var ErrBadView = errors.New("render: view cannot be drawn")

// pt is a point on the picture, in pixels, y down.
type pt struct{ x, y float64 }

// rect is an axis-aligned box on the picture, in pixels.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) w() float64 { return r.x1 - r.x0 }
func (r rect) h() float64 { return r.y1 - r.y0 }

// overlap returns the area r and o share.
func (r rect) overlap(o rect) float64 {
	w := min(r.x1, o.x1) - max(r.x0, o.x0)
	h := min(r.y1, o.y1) - max(r.y0, o.y0)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

func (r rect) union(o rect) rect {
	return rect{math.Min(r.x0, o.x0), math.Min(r.y0, o.y0), math.Max(r.x1, o.x1), math.Max(r.y1, o.y1)}
}

func (r rect) grow(d float64) rect { return rect{r.x0 - d, r.y0 - d, r.x1 + d, r.y1 + d} }

// span is the smallest rect holding a and b.
func span(a, b pt) rect {
	return rect{math.Min(a.x, b.x), math.Min(a.y, b.y), math.Max(a.x, b.x), math.Max(a.y, b.y)}
}

func bounds(ps ...pt) rect {
	r := rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range ps {
		r.x0, r.y0 = math.Min(r.x0, p.x), math.Min(r.y0, p.y)
		r.x1, r.y1 = math.Max(r.x1, p.x), math.Max(r.y1, p.y)
	}
	return r
}

// board maps the view's positions to pixels. On the open table a
// position is in table units with y growing north (up the picture); on a
// square grid it is (column, row), zero-based from A1 at the bottom
// left; on a hex grid it is the printed (column, row), rows growing
// southward.
type board struct {
	kind       engine.BoardKind
	w, d       float64 // open table: size in units of the part shown
	wx, wy     float64 // open table: the table position at the part's bottom left
	cols, rows int     // grids
	c0, r0     int     // hex grids: printed number of the first column and row
	scale      float64 // pixels per unit, per square, or a hex's corner radius
	table      rect    // the table or map on the picture
	ox, oy     float64 // pixel position of the world origin: whole pixels
	// all is the whole table or map on the picture (the part shown is
	// table), allW and allD its size in units, squares or hexes, and
	// hc0, hr0 a hex map's first printed column and row: the static
	// layer is drawn once for all of it and cut to the part shown.
	all        rect
	allW, allD float64
	hc0, hr0   int
}

// world returns p in the engine's own world frame, scaled to pixels: y
// grows north.
func (b *board) world(p engine.Vec) (float64, float64) {
	switch b.kind {
	case engine.SquareGrid:
		return (p.X + 0.5) * b.scale, (p.Y + 0.5) * b.scale
	case engine.HexGrid:
		// engine.HexCenter at whole cells, continued between them.
		half := 0.0
		if int(math.Round(p.X))&1 == 1 {
			half = 0.5
		}
		return 1.5 * b.scale * p.X, -math.Sqrt(3) * b.scale * (p.Y - half)
	}
	return p.X * b.scale, p.Y * b.scale
}

// px returns the picture position of p. Positions far off the picture,
// or not numbers at all, are brought to just off it: the rasteriser
// works in 26.6 fixed point and would overflow.
func (b *board) px(p engine.Vec) pt {
	x, y := b.world(p)
	return pt{tame(b.ox + x), tame(b.oy - y)}
}

// farOff is how far off the picture a point may lie, in pixels.
const farOff = 20000

func tame(x float64) float64 {
	if math.IsNaN(x) {
		return -farOff
	}
	return math.Max(-farOff, math.Min(x, farOff))
}

// fromWorld maps a point of the engine's world frame (as returned by
// engine.HexCenter or engine.SquareCenter, at b.scale) to the picture.
func (b *board) fromWorld(v engine.Vec) pt { return pt{b.ox + v.X, b.oy - v.Y} }

// shifted returns b moved down the picture by dy pixels.
func (b board) shifted(dy float64) board {
	b.oy += dy
	b.table.y0 += dy
	b.table.y1 += dy
	b.all.y0 += dy
	b.all.y1 += dy
	return b
}

// newBoard sizes the board of v for a picture width pixels wide (k is
// width/1280). The board's coordinates start at the top of its area.
func newBoard(v *engine.View, width int, k float64) (board, int, error) {
	b := board{kind: v.Kind}
	W := float64(width)
	maxH := 1.4 * W
	switch v.Kind {
	case engine.OpenTable:
		if !(v.Width > 0 && v.Depth > 0 && v.Width <= maxUnits && v.Depth <= maxUnits) {
			return b, 0, fmt.Errorf("%w: open table %g by %g", ErrBadView, v.Width, v.Depth)
		}
		mx, mt, mb := 46*k, 26*k, 28*k
		f := frameOf(v, W-2*mx, maxH)
		b.wx, b.wy = f.x0, f.y0
		b.w, b.d = f.x1-f.x0, f.y1-f.y0
		// The width sets the scale unless the frame is too deep for
		// the picture (the test frameOf makes, in the same terms).
		b.scale = (W - 2*mx) / b.w
		if b.d*b.scale > maxH {
			b.scale = maxH / b.d
		}
		tw, th := b.w*b.scale, b.d*b.scale
		x0 := math.Round((W - tw) / 2)
		// The world origin falls on a whole pixel, so that every frame
		// at this scale is a whole-pixel cut of one layer.
		b.ox, b.oy = math.Round(x0-b.wx*b.scale), math.Round(mt+th+b.wy*b.scale)
		b.table = rect{b.ox + b.wx*b.scale, b.oy - b.wy*b.scale - th, b.ox + b.wx*b.scale + tw, b.oy - b.wy*b.scale}
		b.allW, b.allD = v.Width, v.Depth
		b.all = rect{b.ox, b.oy - v.Depth*b.scale, b.ox + v.Width*b.scale, b.oy}
		return b, int(math.Ceil(mt + th + mb)), nil
	case engine.SquareGrid:
		cols, rows, err := gridSize(v, maxGridCols)
		if err != nil {
			return b, 0, err
		}
		mx, mt, mb := 34*k, 26*k, 26*k
		c0, r0, c1, r1 := gridFrameOf(v, cols, rows, (W-2*mx)/maxH)
		b.allW, b.allD = float64(cols), float64(rows)
		cols, rows = c1-c0+1, r1-r0+1
		b.cols, b.rows = cols, rows
		b.wx, b.wy = float64(c0), float64(r0)
		b.w, b.d = float64(cols), float64(rows)
		b.scale = math.Floor(math.Min((W-2*mx)/float64(cols), maxH/float64(rows)))
		if b.scale < 4 {
			return b, 0, fmt.Errorf("%w: %d by %d squares do not fit %d pixels", ErrBadView, cols, rows, width)
		}
		tw, th := float64(cols)*b.scale, float64(rows)*b.scale
		x0 := math.Round((W - tw) / 2)
		b.ox, b.oy = x0-b.wx*b.scale, math.Round(mt+th+b.wy*b.scale)
		b.table = rect{x0, b.oy - b.wy*b.scale - th, x0 + tw, b.oy - b.wy*b.scale}
		b.all = rect{b.ox, b.oy - b.allD*b.scale, b.ox + b.allW*b.scale, b.oy}
		return b, int(math.Ceil(mt + th + mb)), nil
	case engine.HexGrid:
		cols, rows, err := gridSize(v, maxHexCols)
		if err != nil {
			return b, 0, err
		}
		b.cols, b.rows = cols, rows
		b.c0, b.r0 = hexOrigin(v)
		b.hc0, b.hr0 = b.c0, b.r0
		b.allW, b.allD = float64(cols), float64(rows)
		if b.c0+cols-1 > maxHexCols || b.r0+rows-1 > maxHexCols {
			return b, 0, fmt.Errorf("%w: hex map %d by %d from %02d%02d runs past 99", ErrBadView, cols, rows, b.c0, b.r0)
		}
		m := 14 * k
		// The most columns whose counters still read at the size the
		// picture is seen at.
		legible := max(minHexCols, int(((W-2*m)/(legibleHex*k)-0.5)/1.5))
		b.c0, b.r0, b.cols, b.rows = hexFrameOf(v, b.c0, b.r0, cols, rows, legible)
		cols, rows = b.cols, b.rows
		s3 := math.Sqrt(3)
		b.scale = math.Min((W-2*m)/(1.5*float64(cols)+0.5), maxH/(s3*(float64(rows)+0.5)))
		tw, th := b.scale*(1.5*float64(cols)+0.5), s3*b.scale*(float64(rows)+0.5)
		x0 := math.Round((W - tw) / 2)
		// The left corner of the first column is at x0; the top of the
		// odd columns (the higher ones) at the top of the map; both
		// moved by less than a pixel to put the world origin on a whole
		// one.
		b.ox = math.Round(x0 + b.scale - 1.5*b.scale*float64(b.c0))
		b.oy = math.Round(m - s3*b.scale*float64(b.r0-1))
		x0 = b.ox - b.scale + 1.5*b.scale*float64(b.c0)
		y0 := b.oy + s3*b.scale*float64(b.r0-1)
		b.table = rect{x0, y0, x0 + tw, y0 + th}
		ax := b.ox - b.scale + 1.5*b.scale*float64(b.hc0)
		ay := b.oy + s3*b.scale*float64(b.hr0-1)
		b.all = rect{ax, ay, ax + b.scale*(1.5*b.allW+0.5), ay + s3*b.scale*(b.allD+0.5)}
		return b, int(math.Ceil(m + th + m)), nil
	}
	return b, 0, fmt.Errorf("%w: unknown board kind %d", ErrBadView, v.Kind)
}

func gridSize(v *engine.View, most int) (int, int, error) {
	cols, rows := math.Round(v.Width), math.Round(v.Depth)
	if !(cols >= 1 && rows >= 1 && cols <= float64(most) && rows <= float64(most)) {
		return 0, 0, fmt.Errorf("%w: grid %g by %g (1 to %d each way)", ErrBadView, v.Width, v.Depth, most)
	}
	return int(cols), int(rows), nil
}

// hexOrigin is the printed number of the map's first column and row:
// 01, as on printed maps, unless something stands in column or row 00.
func hexOrigin(v *engine.View) (c0, r0 int) {
	c0, r0 = 1, 1
	see := func(p engine.Vec) {
		if math.Round(p.X) < 1 {
			c0 = 0
		}
		if math.Round(p.Y) < 1 {
			r0 = 0
		}
	}
	for _, p := range v.Pieces {
		see(p.Base.Center)
	}
	for _, t := range v.Tokens {
		see(t.At)
	}
	for _, m := range v.Marks {
		see(m.From)
		if m.Kind != engine.KillMark {
			see(m.To) // a removal has no To
		}
	}
	for _, z := range v.Zones {
		see(z.Min)
	}
	return c0, r0
}
