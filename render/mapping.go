package render

import (
	"bytes"
	"image"
	"math"
	"slices"
)

// Most of a picture is its frame showing through: the cached static
// layer (static.go), which the picture copies before painting the pieces,
// marks and labels over it, and which is kept as runs of one colour
// (runs.go). Mapping the picture to its palette need not read those
// pixels one by one: where nothing was painted over the layer, a run of
// the layer is one palette index written along the run. Only the rects
// the bands were told to paint (bands.go: outside), grown by the margin
// they may reach beyond, and the layer's own literal stretches are
// mapped a pixel at a time.

// overLayer says which of a picture's rows show a cached layer, and what
// was painted over it.
type overLayer struct {
	layer *runLayer // nil when the picture was drawn afresh
	top   int       // the picture's row that shows the layer's first
	// touched holds, in pixels and sorted by top, the parts of the
	// picture painted over the layer.
	touched []image.Rectangle
}

// set makes o the layer l shown from row top, painted over in rs (the
// bands' rects and any others) within a w by h picture.
func (o *overLayer) set(l *runLayer, top, w, h int, rs ...[]rect) {
	o.layer, o.top = l, top
	o.touched = o.touched[:0]
	for _, list := range rs {
		for _, r := range list {
			p := image.Rect(int(math.Floor(r.x0))-1, int(math.Floor(r.y0))-1, int(math.Ceil(r.x1))+1, int(math.Ceil(r.y1))+1)
			if p = p.Intersect(image.Rect(0, 0, w, h)); !p.Empty() {
				o.touched = append(o.touched, p)
			}
		}
	}
	slices.SortFunc(o.touched, func(a, b image.Rectangle) int { return a.Min.Y - b.Min.Y })
}

// pixelSpan is the pixels x0 to x1 of a row.
type pixelSpan struct{ x0, x1 int }

// mapRowsOver is mapRows for a picture whose rows show the layer o says,
// painted over where it says.
func (q *quantizer) mapRowsOver(img *image.RGBA, dst *image.Paletted, y0, y1 int, o *overLayer) {
	l := o.layer
	if l == nil {
		q.mapRows(img, dst, y0, y1)
		return
	}
	m := q.mapper()
	w := dst.Rect.Dx()
	var active []image.Rectangle
	var spans []pixelSpan
	next := 0           // the first rect of o.touched not yet active
	cleanAbove := false // the row above showed the layer untouched
	for y := y0; y < y1; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		ly := y - o.top
		if ly < 0 || ly >= l.h {
			cleanAbove = false
			if y > y0 && bytes.Equal(row, img.Pix[(y-1)*img.Stride:(y-1)*img.Stride+4*w]) {
				copy(out, dst.Pix[(y-1)*dst.Stride:])
				continue
			}
			m.pixels(row, out)
			continue
		}
		// The rects over this row, as merged spans.
		active = slices.DeleteFunc(active, func(r image.Rectangle) bool { return r.Max.Y <= y })
		for next < len(o.touched) && o.touched[next].Min.Y <= y {
			if o.touched[next].Max.Y > y {
				active = append(active, o.touched[next])
			}
			next++
		}
		spans = spans[:0]
		for _, r := range active {
			spans = append(spans, pixelSpan{r.Min.X, r.Max.X})
		}
		slices.SortFunc(spans, func(a, b pixelSpan) int { return a.x0 - b.x0 })
		spans = mergeSpans(spans)
		runs := l.row[ly]
		if len(spans) == 0 {
			if cleanAbove && y > y0 && runs == l.row[ly-1] {
				copy(out, dst.Pix[(y-1)*dst.Stride:])
				continue
			}
			cleanAbove = true
		} else {
			cleanAbove = false
		}
		x, k := 0, 0
		for _, r := range l.runs[runs[0]:runs[1]] {
			n := int(r.n &^ literalRun)
			a, b := x, x+n
			x = b
			if r.n&literalRun != 0 {
				m.pixels(row[4*a:4*b], out[a:b])
				continue
			}
			for a < b {
				for k < len(spans) && spans[k].x1 <= a {
					k++
				}
				if k < len(spans) && spans[k].x0 <= a {
					e := min(b, spans[k].x1)
					m.pixels(row[4*a:4*e], out[a:e])
					a = e
					continue
				}
				e := b
				if k < len(spans) {
					e = min(b, spans[k].x0)
				}
				fillIndex(out[a:e], m.lookup(r.px&0xFFFFFF))
				a = e
			}
		}
	}
}

// mergeSpans joins the overlapping spans of ss, sorted by start.
func mergeSpans(ss []pixelSpan) []pixelSpan {
	if len(ss) == 0 {
		return ss
	}
	out := ss[:1]
	for _, s := range ss[1:] {
		if last := &out[len(out)-1]; s.x0 <= last.x1 {
			last.x1 = max(last.x1, s.x1)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// fillIndex sets every byte of out to i.
func fillIndex(out []uint8, i uint8) {
	if len(out) < 16 {
		for j := range out {
			out[j] = i
		}
		return
	}
	out[0] = i
	for done := 1; done < len(out); done *= 2 {
		copy(out[done:], out[:done])
	}
}
