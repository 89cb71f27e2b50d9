package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/raster"
	"golang.org/x/image/math/fixed"
)

// A piece is a handful of small shapes, and gg fills each with a
// rasteriser as tall as the picture: clearing it and scanning it costs a
// thousand rows a shape, far more than the shape's own few dozen. A
// filler fills a small shape with a rasteriser only as tall as the shape,
// over a view of the picture at the shape's corner: the same rasteriser
// and painter gg uses, given the same points moved by whole pixels, so
// the pixels come out exactly as gg's (TestFillerPaintsAsGG).

// pather takes a path: *gg.Context and *filler both do.
type pather interface {
	MoveTo(x, y float64)
	LineTo(x, y float64)
	ClosePath()
}

var _ pather = (*gg.Context)(nil)

// fillerRows is the tallest shape a filler fills itself; a taller one,
// or one reaching past the picture's edges, it hands to gg.
const fillerRows = 128

// filler gathers a path and fills it.
type filler struct {
	r      *raster.Rasterizer
	pts    []pt
	starts []int // where each subpath starts in pts
}

func newFiller() *filler {
	return &filler{r: raster.NewRasterizer(1<<16, fillerRows)}
}

func (f *filler) MoveTo(x, y float64) {
	f.starts = append(f.starts, len(f.pts))
	f.pts = append(f.pts, pt{x, y})
}

func (f *filler) LineTo(x, y float64) {
	if len(f.starts) == 0 {
		f.MoveTo(x, y)
		return
	}
	f.pts = append(f.pts, pt{x, y})
}

// ClosePath does nothing: every subpath is closed when it is filled.
func (f *filler) ClosePath() {}

// fill paints the path gathered since the last fill in c with the
// non-zero winding rule, as dc.Fill would, and forgets it.
func (f *filler) fill(dc *gg.Context, img *image.RGBA, c color.Color) {
	defer func() { f.pts, f.starts = f.pts[:0], f.starts[:0] }()
	if len(f.pts) == 0 {
		return
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range f.pts {
		x0, y0 = math.Min(x0, p.x), math.Min(y0, p.y)
		x1, y1 = math.Max(x1, p.x), math.Max(y1, p.y)
	}
	// The view: whole pixels round the shape, with one to spare.
	vx0, vy0 := int(math.Floor(x0))-1, int(math.Floor(y0))-1
	vx1, vy1 := int(math.Ceil(x1))+2, int(math.Ceil(y1))+2
	if img == nil || vx0 < img.Rect.Min.X || vy0 < img.Rect.Min.Y || vx1 > img.Rect.Max.X || vy1 > img.Rect.Max.Y || vy1-vy0 > fillerRows {
		f.replay(dc)
		dc.SetColor(c)
		dc.Fill()
		return
	}
	view := &image.RGBA{
		Pix:    img.Pix[img.PixOffset(vx0, vy0):],
		Stride: img.Stride,
		Rect:   image.Rect(0, 0, vx1-vx0, vy1-vy0),
	}
	// gg's fixed point: the float scaled by 64 and truncated. The points
	// are moved by whole pixels first, which is exact, and stay positive,
	// so that they truncate as gg's do.
	fix := func(p pt) fixed.Point26_6 {
		return fixed.Point26_6{X: fixed.Int26_6((p.x - float64(vx0)) * 64), Y: fixed.Int26_6((p.y - float64(vy0)) * 64)}
	}
	r := f.r
	r.UseNonZeroWinding = true
	r.Clear()
	for i, s := range f.starts {
		end := len(f.pts)
		if i+1 < len(f.starts) {
			end = f.starts[i+1]
		}
		start := fix(f.pts[s])
		r.Start(start)
		for _, p := range f.pts[s+1 : end] {
			r.Add1(fix(p))
		}
		r.Add1(start)
	}
	painter := raster.NewRGBAPainter(view)
	painter.SetColor(c)
	r.Rasterize(painter)
}

// replay gives the gathered path to dc (gg or another filler).
func (f *filler) replay(dc pather) {
	for i, s := range f.starts {
		end := len(f.pts)
		if i+1 < len(f.starts) {
			end = f.starts[i+1]
		}
		dc.MoveTo(f.pts[s].x, f.pts[s].y)
		for _, p := range f.pts[s+1 : end] {
			dc.LineTo(p.x, p.y)
		}
		dc.ClosePath()
	}
}
