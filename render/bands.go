package render

import (
	"image"
	"math"
	"runtime"
	"sync"

	"github.com/fogleman/gg"
)

// Once its labels are placed, a picture is painted in horizontal bands,
// one a core, at once. Each band runs the whole painting programme
// (leaders, marks under the pieces, tokens, pieces, marks over them,
// labels, plates) over its own rows only: what it paints is clipped to
// them, and what lies wholly outside them it skips. The first band also
// draws the header above the board and the last the legend below it, so
// that every row is painted in the same order as when the picture is
// painted at once. Shapes the filler paints come out exactly as they
// would on the whole picture (it fits them to the whole picture and
// paints only the band's rows); the few that gg strokes (marks, rounded
// plates, tokens) are drawn translated into the band, which can move an
// antialiased edge by a shade.

// maxBands bounds the bands a picture is painted in, and minBandRows
// is the fewest rows worth a band of their own.
const (
	maxBands    = 4
	minBandRows = 64
)

// band is a picture's rows y0 to y1, with a gg context and a filler that
// paint nothing outside them.
type band struct {
	y0, y1 int
	dc     *gg.Context
	fl     *filler
}

// bandCuts splits a picture h rows tall, whose board takes rows a0 to
// a1, into one band per core: the board's rows are shared out evenly,
// the first band taking the rows above it and the last those below.
func bandCuts(h, a0, a1 int) []int {
	n := min(runtime.GOMAXPROCS(0), maxBands, max(1, (a1-a0)/minBandRows))
	cuts := make([]int, n+1)
	for i := 1; i < n; i++ {
		cuts[i] = a0 + (a1-a0)*i/n
	}
	cuts[n] = h
	return cuts
}

// bands returns c's bands between cuts, reset for a new picture; they
// are made again when the cuts change.
func (c *canvas) bands(cuts []int) []band {
	same := len(c.band) == len(cuts)-1
	for i := range c.band {
		same = same && c.band[i].y0 == cuts[i] && c.band[i].y1 == cuts[i+1]
	}
	if same {
		for i := range c.band {
			c.band[i].dc.Pop()
			c.band[i].dc.Push()
		}
		return c.band
	}
	img := c.img
	c.band = make([]band, len(cuts)-1)
	for i := range c.band {
		y0, y1 := cuts[i], cuts[i+1]
		// gg draws on the band's rows as a picture of their own, with
		// everything moved up by y0.
		view := &image.RGBA{Pix: img.Pix[img.PixOffset(0, y0):], Stride: img.Stride, Rect: image.Rect(0, 0, img.Rect.Dx(), y1-y0)}
		dc := gg.NewContextForRGBA(view)
		dc.Translate(0, -float64(y0))
		dc.Push() // the band's first state, for the next picture
		fl := newFiller()
		fl.whole = img
		c.band[i] = band{y0: y0, y1: y1, dc: dc, fl: fl}
	}
	return c.band
}

// paint paints the laid-out scene s onto c in bands at once, each after
// under has drawn on its rows what is drawn under everything (for a
// picture drawn afresh, nothing: its static layer is already painted),
// with the header (drawn by header) in the first band and the legend
// (by legend) in the last. On a cached picture, each item the scene
// paints first copies the rows of the static layer it reaches
// (outside, touch).
func (s *scene) paint(c *canvas, cuts []int, under func(y0, y1 int), header, legend func()) {
	bands := c.bands(cuts)
	var wg sync.WaitGroup
	for i := range bands {
		run := func() {
			under(bands[i].y0, bands[i].y1)
			if i == 0 {
				header()
			}
			b := s.in(c.img, bands[i])
			b.drawLeaders()
			b.drawUnder()
			b.drawTokens()
			b.drawPieces()
			b.drawMarks()
			b.drawLabels()
			b.drawPlates()
			if i == len(bands)-1 {
				legend()
			}
		}
		if i == len(bands)-1 {
			run() // on this goroutine
		} else {
			wg.Go(run)
		}
	}
	wg.Wait()
}

// in returns a copy of s that paints on band b of img alone.
func (s *scene) in(img *image.RGBA, b band) *scene {
	t := *s
	t.img = img.SubImage(image.Rect(img.Rect.Min.X, b.y0, img.Rect.Max.X, b.y1)).(*image.RGBA)
	t.dc, t.fl = b.dc, b.fl
	t.rows = [2]float64{float64(b.y0), float64(b.y1)}
	t.banded = true
	return &t
}

// outside reports whether r, grown by a margin for what is drawn round
// it (outlines, halos, casings), lies wholly outside the rows the scene
// paints, so that painting it can be skipped.
//
// What it does not skip it counts as painted over (touch).
func (s *scene) outside(r rect) bool {
	if !s.banded {
		return false
	}
	m := 12 * s.k
	if r.y1+m < s.rows[0] || r.y0-m > s.rows[1] {
		return true
	}
	s.touch(r.grow(m))
	return false
}

// touch readies the band's part of r to be painted over: a row of the
// static layer not touched before is copied onto the picture now, and
// its columns in r are no longer taken for the layer's (canvas.rowOf).
// A box with a side that is not a number touches the whole band.
func (s *scene) touch(r rect) {
	if s.canvas == nil {
		return
	}
	a, b := math.Max(math.Floor(r.y0), s.rows[0]), math.Min(math.Ceil(r.y1)+1, s.rows[1])
	x0, x1 := math.Floor(r.x0), math.Ceil(r.x1)+1
	if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(x0) || math.IsNaN(x1) {
		a, b, x0, x1 = s.rows[0], s.rows[1], math.Inf(-1), math.Inf(1)
	}
	s.canvas.touch(s.img, int(a), int(b), int(math.Max(x0, -1)), int(math.Min(x1, float64(s.w)+1)))
}
