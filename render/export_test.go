package render

import (
	"image"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// This file lends the external tests (played_bench_test.go) what they
// need of the renderer's insides.

// Layout is where a picture of a view puts things, for a plain drawing
// of the same picture to put them in the same places.
type Layout struct {
	W, H, Top int             // the picture's size; the board's top
	Table     image.Rectangle // the board's table or map, in pixels
	Scale     float64         // pixels a unit, a square or a hex's radius
	View      engine.View     // the view as framed: what the picture shows
	Cells     [][]Point       // a grid's cells' outlines
	Px        func(engine.Vec) Point
}

// Point is a point of the picture, in pixels.
type Point struct{ X, Y float64 }

// LayoutOf lays out v as r would draw it.
func LayoutOf(r *Renderer, v engine.View) (Layout, error) {
	fs, k, W := r.faces, r.k, r.width
	b, areaH, err := newBoard(&v, W, k)
	if err != nil {
		return Layout{}, err
	}
	fv := &v
	switch v.Kind {
	case engine.OpenTable:
		fv = framed(&v, window{b.wx, b.wy, b.wx + b.w, b.wy + b.d})
	case engine.SquareGrid:
		if b.cols < int(math.Round(v.Width)) || b.rows < int(math.Round(v.Depth)) {
			fv = gridFramed(&v, int(b.wx), int(b.wy), int(b.wx)+b.cols-1, int(b.wy)+b.rows-1)
		}
	case engine.HexGrid:
		if b.cols < int(math.Round(v.Width)) || b.rows < int(math.Round(v.Depth)) {
			fv = gridFramed(&v, b.c0, b.r0, b.c0+b.cols-1, b.r0+b.rows-1)
		}
	}
	st := groupStyles(fv)
	lg := newLegend(fv, st, fs, k, W)
	hd := layoutHeader(fs, k, W, fv, &b)
	sb := b.shifted(float64(hd.height))
	l := Layout{
		W: W, H: hd.height + areaH + lg.height, Top: hd.height,
		Table: image.Rect(int(sb.table.x0), int(sb.table.y0), int(math.Ceil(sb.table.x1)), int(math.Ceil(sb.table.y1))),
		Scale: sb.scale, View: *fv,
		Px: func(p engine.Vec) Point { q := sb.px(p); return Point{q.x, q.y} },
	}
	if b.kind != engine.OpenTable {
		gridCells(&sb, func(c, r int, ps []pt) {
			cell := make([]Point, len(ps))
			for i, p := range ps {
				cell[i] = Point{p.x, p.y}
			}
			l.Cells = append(l.Cells, cell)
		})
	}
	return l, nil
}

// StaticDraws returns how many static layers r has drawn for its cache:
// grounds of whole tables (static.go), which frames are cut from.
func StaticDraws(r *Renderer) int64 { return r.staticDraws.Load() }

// PaintingAll makes r copy every row of its static layers and legends
// onto each picture and map all its pixels, as if the whole picture were
// painted over: what the pictures must look like anyway.
func PaintingAll(r *Renderer) { r.copyAll = true }

// PiecesFound returns the share of the pieces of r's pictures that were
// found compressed already (png.go).
func PiecesFound(r *Renderer) float64 {
	n := r.png.written.Load()
	if n == 0 {
		return 0
	}
	return 1 - float64(r.png.compressed.Load())/float64(n)
}
