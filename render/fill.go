package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
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
	r *raster.Rasterizer
	// big, bigSize: a rasteriser the picture's size, for bare shapes r
	// does not take.
	big     *raster.Rasterizer
	bigSize image.Point
	pts     []pt
	starts  []int // where each subpath starts in pts
	// whole, when set, is the picture of which the image given to fill
	// and line is one band (bands.go): a shape is fitted to the whole
	// picture, as it would be were the picture drawn at once, and only
	// its rows in the band are painted.
	whole *image.RGBA
	// v and painter paint a shape: the view of the picture round it.
	v       image.RGBA
	painter solidPainter
}

// view returns the part of the picture that rows y0 to y1 of a shape
// whose box starts at (x0, y0) and ends at (x1, y1) paint when img is
// drawn, in the shape's own coordinates, and false when it is to be
// left to gg: the shape reaches past the picture's edges, or is too tall
// for the filler's rasteriser. Its pixels lie in img alone; it may be
// empty, when the shape lies outside img's band.
func (f *filler) view(img *image.RGBA, x0, y0, x1, y1 int) (*image.RGBA, bool) {
	if img == nil {
		return nil, false
	}
	whole := img
	if f.whole != nil {
		whole = f.whole
	}
	if x0 < whole.Rect.Min.X || y0 < whole.Rect.Min.Y || x1 > whole.Rect.Max.X || y1 > whole.Rect.Max.Y || y1-y0 > fillerRows {
		return nil, false
	}
	r0, r1 := max(y0, img.Rect.Min.Y), min(y1, img.Rect.Max.Y)
	if r0 >= r1 {
		f.v = image.RGBA{}
		return &f.v, true
	}
	f.v = image.RGBA{
		Pix:    whole.Pix[whole.PixOffset(x0, r0):],
		Stride: whole.Stride,
		Rect:   image.Rect(0, r0-y0, x1-x0, r1-y0),
	}
	return &f.v, true
}

// paint rasterises what r holds onto view in c.
func (f *filler) paint(r *raster.Rasterizer, view *image.RGBA, c color.Color) {
	if b, ok := c.(bare); ok {
		r.Rasterize(&barePainter{img: view, c: b.c})
		return
	}
	f.painter.Image = view
	f.painter.Op = draw.Over
	f.painter.SetColor(c)
	r.Rasterize(&f.painter)
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
	view, ok := f.view(img, vx0, vy0, vx1, vy1)
	r := f.r
	switch {
	case !ok && isBare(c):
		// gg cannot mark a pixel bare: the shape is rasterised as gg
		// would, with a rasteriser the picture's size and the points
		// scaled as gg scales them, and painted bare. (A ground is
		// drawn on a picture of its own: whole is not set.)
		b := img.Bounds()
		if f.big == nil || f.bigSize != b.Size() {
			f.big, f.bigSize = raster.NewRasterizer(b.Dx(), b.Dy()), b.Size()
		}
		view = &image.RGBA{Pix: img.Pix, Stride: img.Stride, Rect: image.Rectangle{Max: b.Size()}}
		vx0, vy0, r = b.Min.X, b.Min.Y, f.big
	case !ok:
		f.replay(dc)
		dc.SetColor(c)
		dc.Fill()
		return
	case view.Rect.Empty():
		return
	}
	fix := func(p pt) fixed.Point26_6 { return fixedAt(p, vx0, vy0) }
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
	f.paint(r, view, c)
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

// line strokes the segment from a to b, width wide, with butt caps, in
// c, as dc would with DrawLine and Stroke: over a view of the picture
// round the segment, with the filler's short rasteriser, which gives the
// same pixels as gg's (TestFillerStrokesAsGG). (Round caps are curves,
// which the rasteriser splits a little differently away from the
// picture's corner, so they are left to gg.) A segment too tall for the
// filler, or reaching past the picture's edges, goes to dc.
func (f *filler) line(dc *gg.Context, img *image.RGBA, a, b pt, width float64, c color.Color) {
	m := width/2 + 2
	vx0, vy0 := int(math.Floor(math.Min(a.x, b.x)-m)), int(math.Floor(math.Min(a.y, b.y)-m))
	vx1, vy1 := int(math.Ceil(math.Max(a.x, b.x)+m)), int(math.Ceil(math.Max(a.y, b.y)+m))
	view, ok := f.view(img, vx0, vy0, vx1, vy1)
	if !ok {
		dc.DrawLine(a.x, a.y, b.x, b.y)
		dc.SetColor(c)
		dc.SetLineWidth(width)
		dc.SetLineCapButt()
		dc.Stroke()
		return
	}
	if view.Rect.Empty() {
		return
	}
	fix := func(p pt) fixed.Point26_6 { return fixedAt(p, vx0, vy0) }
	// As gg strokes: a segment shorter than 8/64 of a pixel, in both
	// directions together, is left out, leaving a lone point.
	p0, p1 := fix(a), fix(b)
	var path raster.Path
	path.Start(p0)
	if d := p1.Sub(p0); abs26(d.X)+abs26(d.Y) > 8 {
		path.Add1(p1)
	}
	r := f.r
	r.UseNonZeroWinding = true
	r.Clear()
	r.AddStroke(path, fixed.Int26_6(width*64), raster.ButtCapper, raster.RoundJoiner)
	f.paint(r, view, c)
}

func abs26(x fixed.Int26_6) fixed.Int26_6 {
	if x < 0 {
		return -x
	}
	return x
}

// fixedAt is p in gg's fixed point, in a view whose corner is the whole
// pixel (x0, y0): the float scaled by 64 and truncated, as gg does. The
// point is moved by whole pixels first, which is exact, and stays
// positive, so that it truncates as gg's own does.
func fixedAt(p pt, x0, y0 int) fixed.Point26_6 {
	return fixed.Point26_6{X: fixed.Int26_6((p.x - float64(x0)) * 64), Y: fixed.Int26_6((p.y - float64(y0)) * 64)}
}

// solidPainter paints as raster.RGBAPainter does, over, with a short
// way for a span an opaque colour covers wholly: most of a cell's or a
// base's pixels, where the general blend works out to the colour itself,
// so writing it is exact. (TestFillerPaintsAsGG holds it to gg's pixels.)
type solidPainter struct {
	raster.RGBAPainter
	opaque bool
	px     uint32 // the colour as the picture's bytes hold it, read little-endian
}

func (p *solidPainter) SetColor(c color.Color) {
	p.RGBAPainter.SetColor(c)
	r, g, b, a := c.RGBA()
	p.opaque = a == 0xffff
	p.px = r>>8 | g>>8<<8 | b>>8<<16 | a>>8<<24
}

func (p *solidPainter) Paint(ss []raster.Span, done bool) {
	if !p.opaque || p.Op != draw.Over {
		p.RGBAPainter.Paint(ss, done)
		return
	}
	for i, s := range ss {
		if s.Alpha != 0xffff {
			p.RGBAPainter.Paint(ss[i:i+1], false)
			continue
		}
		row, below := spanPixels(p.Image, s)
		if below {
			return
		}
		for j := 0; j < len(row); j += 4 {
			binary.LittleEndian.PutUint32(row[j:], p.px)
		}
	}
}

// spanPixels returns the bytes of the pixels of img that span s covers,
// cut to img's bounds (none when it covers none of them), and whether s
// lies below img, where a rasteriser's later spans lie too.
func spanPixels(img *image.RGBA, s raster.Span) (row []uint8, below bool) {
	b := img.Bounds()
	if s.Y >= b.Max.Y {
		return nil, true
	}
	x0, x1 := max(s.X0, b.Min.X), min(s.X1, b.Max.X)
	if s.Y < b.Min.Y || x0 >= x1 {
		return nil, false
	}
	i0 := (s.Y-img.Rect.Min.Y)*img.Stride + (x0-img.Rect.Min.X)*4
	return img.Pix[i0 : i0+4*(x1-x0)], false
}

// bare is a colour for the open ground of a ground kept for later frames
// (drawGroundLayer): a filler paints it as it paints the colour itself,
// and leaves in each pixel's alpha how much of the pixel it did not
// cover. Whatever is drawn over it afterwards blends over as ever, which
// raises the alpha again by the share it covers, so the alpha ends as how
// much of the pixel is not bare ground (zones.go). Elsewhere it is the
// colour itself.
type bare struct{ c color.RGBA }

func (b bare) RGBA() (r, g, bl, a uint32) { return b.c.RGBA() }

func isBare(c color.Color) bool {
	_, ok := c.(bare)
	return ok
}

// barePainter paints spans in an opaque colour as raster.RGBAPainter
// does, over (the same sums, so the same colours), but moves each pixel's
// alpha toward none rather than toward whole, by the share the span
// covers.
type barePainter struct {
	img *image.RGBA
	c   color.RGBA
}

func (p *barePainter) Paint(ss []raster.Span, done bool) {
	const m = 1<<16 - 1
	cr, cg, cb := uint32(p.c.R)*0x101, uint32(p.c.G)*0x101, uint32(p.c.B)*0x101
	for _, s := range ss {
		row, below := spanPixels(p.img, s)
		if below {
			return
		}
		ma := s.Alpha
		if ma == m {
			for j := 0; j < len(row); j += 4 {
				row[j], row[j+1], row[j+2], row[j+3] = p.c.R, p.c.G, p.c.B, 0
			}
			continue
		}
		a := (m - ma) * 0x101
		for j := 0; j < len(row); j += 4 {
			q := row[j : j+4 : j+4]
			q[0] = uint8((uint32(q[0])*a + cr*ma) / m >> 8)
			q[1] = uint8((uint32(q[1])*a + cg*ma) / m >> 8)
			q[2] = uint8((uint32(q[2])*a + cb*ma) / m >> 8)
			q[3] = uint8(uint32(q[3]) * a / m >> 8)
		}
	}
}
