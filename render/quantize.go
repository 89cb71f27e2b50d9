package render

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// A board picture is mostly flat colour with antialiased edges, so it
// fits a 256-colour palette with no visible loss, and a paletted PNG
// encodes several times faster and about half the size of a true-colour
// one.
//
// The quantiser counts the picture's colours in 32,768 bins (five bits a
// channel). The colours the renderer paints flat (pinned) keep their
// exact value; the other bins, mostly antialiasing between two flat
// colours, stand for the mean of their pixels. The pinned ones and the
// most used of the rest are kept, up to 256, leaving out a shade that
// lies within 16 levels a channel of one kept before it (near): an edge
// still fades through several shades, too close together to tell apart
// at a glance, and the file is a tenth smaller than with every shade
// kept. Every other bin takes its nearest kept colour. No dithering: it
// would only add noise to flat areas and make the file larger.

const bins = 1 << 15

func binOf(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// pinTable maps a bin to the pinned colour in it, if any.
type pinTable struct {
	pin    [bins]int16 // index in colors, or -1
	colors []color.RGBA
}

func newPinTable(cs []color.RGBA) *pinTable {
	t := &pinTable{}
	for i := range t.pin {
		t.pin[i] = -1
	}
	for _, c := range cs {
		b := binOf(c.R, c.G, c.B)
		if t.pin[b] < 0 {
			t.pin[b] = int16(len(t.colors))
			t.colors = append(t.colors, c)
		}
	}
	return t
}

// quantizer holds the counts for one picture; it is reused through a
// pool.
type quantizer struct {
	tally
	// kept and rest are a picture's palette colours and the bins mapped
	// to their nearest, kept for the next picture.
	kept  []color.RGBA
	rest  []int
	byRed redOrder
	index [bins]uint8
	// seen[i] == gen when bin i has its index for this picture.
	seen [bins]uint32
	gen  uint32
	// bands count parts of the picture on other cores, to be added to
	// the quantizer's own tally.
	bands []*tally
}

// tally counts the pixels of each bin and sums their channels. Only the
// bins listed in used are not zero.
type tally struct {
	count [bins]uint32
	sum   [bins][3]uint32
	used  []int
}

// reset zeroes the bins in use.
func (t *tally) reset() {
	for _, i := range t.used {
		t.count[i] = 0
		t.sum[i] = [3]uint32{}
	}
	t.used = t.used[:0]
}

// add counts n pixels of colour c, as loaded little-endian (red in the
// low byte).
func (t *tally) add(c uint32, n uint32) {
	r, g, b := uint8(c), uint8(c>>8), uint8(c>>16)
	i := binOf(r, g, b)
	if t.count[i] == 0 {
		t.used = append(t.used, i)
	}
	t.count[i] += n
	t.sum[i][0] += uint32(r) * n
	t.sum[i][1] += uint32(g) * n
	t.sum[i][2] += uint32(b) * n
}

// countRows counts every fourth row from y0 to y1 (those whose number
// is a multiple of four), a run of equal pixels at a time. That is
// enough to find the colours that matter: a colour used so little that
// it is missed gets its nearest kept colour, and the pinned colours are
// kept whether seen or not. (Counting every other row kept a few more
// faint shades, for a tenth more of a picture's time.)
func (t *tally) countRows(img *image.RGBA, y0, y1 int) {
	w := img.Rect.Dx()
	for y := y0 + (4-y0%4)%4; y < y1; y += 4 {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		prev := binary.LittleEndian.Uint32(row) & 0xFFFFFF
		pair := uint64(prev) | uint64(prev)<<32
		var run uint32
		i := 0
		for i+4 <= len(row) {
			// Two pixels at once while the run goes on.
			if i+8 <= len(row) && binary.LittleEndian.Uint64(row[i:i+8])&twoColours == pair {
				run += 2
				i += 8
				continue
			}
			c := binary.LittleEndian.Uint32(row[i:i+4]) & 0xFFFFFF
			i += 4
			if c == prev {
				run++
				continue
			}
			t.add(prev, run)
			prev, run = c, 1
			pair = uint64(c) | uint64(c)<<32
		}
		t.add(prev, run)
	}
}

// twoColours masks the colours of two pixels loaded little-endian, leaving
// out their alpha.
const twoColours = 0x00FFFFFF00FFFFFF

// countKept is countRows for a picture some of whose rows are a layer's
// rows unchanged (kept says which): those are counted a run of the
// layer at a time, without reading their pixels. The tally is the same.
func (t *tally) countKept(img *image.RGBA, kept func(y int) (*runLayer, int), y0, y1 int) {
	for y := y0 + (4-y0%4)%4; y < y1; y += 4 {
		l, ly := kept(y)
		if l == nil {
			t.countRows(img, y, y+1)
			continue
		}
		for _, r := range l.runs[l.row[ly][0]:l.row[ly][1]] {
			if r.n&literalRun == 0 {
				t.add(r.px, r.n)
				continue
			}
			lit := l.lit[4*r.px:][:4*(r.n&^literalRun)]
			for i := 0; i < len(lit); i += 4 {
				t.add(binary.LittleEndian.Uint32(lit[i:]), 1)
			}
		}
	}
}

// merge adds o's counts to t's and resets o.
func (t *tally) merge(o *tally) {
	for _, i := range o.used {
		if t.count[i] == 0 {
			t.used = append(t.used, i)
		}
		t.count[i] += o.count[i]
		for c := range 3 {
			t.sum[i][c] += o.sum[i][c]
		}
	}
	o.reset()
}

// quantize returns img reduced to at most 256 colours, reusing dst's
// pixel buffer when it is large enough.
func (q *quantizer) quantize(img *image.RGBA, pins *pinTable, dst *image.Paletted) *image.Paletted {
	h := img.Rect.Dy()
	// Two or more cores share the rows, in counting as in mapping; the
	// sums do not depend on how the rows are shared.
	parts := min(runtime.GOMAXPROCS(0), 4, max(1, h/64))
	ts := q.tallies(parts)
	var wg sync.WaitGroup
	for p, t := range ts {
		wg.Go(func() { t.countRows(img, h*p/parts, h*(p+1)/parts) })
	}
	wg.Wait()
	return q.finish(img, pins, dst, parts)
}

// tallies clears the quantizer for a new picture and returns n tallies
// for n parts of it to be counted into at once (countRows), the rows
// shared out in any way.
func (q *quantizer) tallies(n int) []*tally {
	q.reset()
	for len(q.bands) < n-1 {
		q.bands = append(q.bands, new(tally))
	}
	return append([]*tally{&q.tally}, q.bands[:n-1]...)
}

// finish reduces img, whose rows were counted into the n tallies, to at
// most 256 colours, reusing dst's pixel buffer when it is large enough.
func (q *quantizer) finish(img *image.RGBA, pins *pinTable, dst *image.Paletted, n int) *image.Paletted {
	dst = q.palette(img, pins, dst, n)
	// Map the pixels, on every core.
	h := img.Rect.Dy()
	parts := min(runtime.GOMAXPROCS(0), 4, max(1, h/64))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { q.mapRows(img, dst, h*p/parts, h*(p+1)/parts) })
	}
	wg.Wait()
	return dst
}

// palette chooses the palette of img, whose rows were counted into the
// n tallies, and returns the paletted picture for its pixels, reusing
// dst's buffers when large enough: its rows are written by mapRows.
func (q *quantizer) palette(img *image.RGBA, pins *pinTable, dst *image.Paletted, n int) *image.Paletted {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for _, t := range q.bands[:n-1] {
		q.merge(t)
	}
	for _, c := range pins.colors {
		if i := binOf(c.R, c.G, c.B); q.count[i] == 0 {
			q.used = append(q.used, i)
			q.count[i] = 1 // its colour is pinned; the count only ranks it
		}
	}
	// Each bin's colour: pinned, or the mean of its pixels.
	rep := func(i int) color.RGBA {
		if p := pins.pin[i]; p >= 0 {
			return pins.colors[p]
		}
		n := q.count[i]
		return color.RGBA{uint8((q.sum[i][0] + n/2) / n), uint8((q.sum[i][1] + n/2) / n), uint8((q.sum[i][2] + n/2) / n), 0xFF}
	}
	// Pinned bins first, then by use; ties by bin, so the palette depends
	// only on the picture.
	slices.SortFunc(q.used, func(ia, ib int) int {
		pa, pb := pins.pin[ia] >= 0, pins.pin[ib] >= 0
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		case q.count[ia] != q.count[ib]:
			return cmp.Compare(q.count[ib], q.count[ia])
		}
		return cmp.Compare(ia, ib)
	})
	var pal color.Palette
	if dst != nil && cap(dst.Palette) >= 256 {
		pal = dst.Palette[:0] // the spare's palette is this picture's to write
	} else {
		pal = make(color.Palette, 0, 256)
	}
	kept, rest, byRed := q.kept[:0], q.rest[:0], q.byRed[:0]
	defer func() { q.kept, q.rest, q.byRed = kept, rest[:0], byRed[:0] }()
	for _, i := range q.used {
		c := rep(i)
		if len(kept) < 256 && (pins.pin[i] >= 0 || !byRed.near(kept, c)) {
			q.index[i] = uint8(len(kept))
			kept = append(kept, c)
			byRed.add(kept, len(kept)-1)
			pal = append(pal, c)
		} else {
			rest = append(rest, i)
		}
	}
	for _, i := range rest {
		q.index[i] = byRed.nearest(kept, rep(i))
	}
	q.gen++
	for _, i := range q.used {
		q.seen[i] = q.gen
	}
	if dst == nil || cap(dst.Pix) < w*h {
		dst = &image.Paletted{Pix: make([]uint8, w*h)}
	}
	dst.Pix = dst.Pix[:w*h]
	dst.Stride = w
	dst.Rect = image.Rect(0, 0, w, h)
	dst.Palette = pal
	return dst
}

// mapRows writes rows y0 to y1 of dst: each pixel's bin's palette index.
// A bin that the sampled rows missed takes the palette colour nearest
// its middle. A row the same as the one above it (open ground crossed by
// grid lines, a zone, the margins) takes that row's indices: comparing
// two rows costs a fraction of mapping one.
func (q *quantizer) mapRows(img *image.RGBA, dst *image.Paletted, y0, y1 int) {
	q.mapKept(img, nil, dst, y0, y1)
}

// mapKept is mapRows for a picture some of whose rows are a layer's rows
// unchanged (kept says which, when set): those are mapped a run of the
// layer at a time, without reading their pixels, and a row whose runs
// are the row above's takes its indices.
func (q *quantizer) mapKept(img *image.RGBA, kept func(y int) (*runLayer, int), dst *image.Paletted, y0, y1 int) {
	var missed map[int]uint8
	w := dst.Rect.Dx()
	// The row above was mapped from layer above's row aboveRow, or, with
	// above nil and painted set, from the picture's pixels (a kept row's
	// pixels may not be on the picture).
	var above *runLayer
	aboveRow, painted := -1, false
	for y := y0; y < y1; y++ {
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		if kept != nil {
			if l, ly := kept(y); l != nil {
				if l == above && l.row[ly] == l.row[aboveRow] {
					copy(out, dst.Pix[(y-1)*dst.Stride:])
				} else {
					q.mapRuns(l, ly, out, &missed)
				}
				above, aboveRow, painted = l, ly, false
				continue
			}
			above = nil
		}
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		if painted && bytes.Equal(row, img.Pix[(y-1)*img.Stride:(y-1)*img.Stride+4*w]) {
			copy(out, dst.Pix[(y-1)*dst.Stride:])
			continue
		}
		painted = true
		prev := ^uint32(0)
		pair := ^uint64(0)
		var idx uint8
		for x := 0; x < len(out); x++ {
			// Two pixels at once while they are the last one's colour.
			if x+1 < len(out) && binary.LittleEndian.Uint64(row[4*x:4*x+8])&twoColours == pair {
				out[x], out[x+1] = idx, idx
				x++
				continue
			}
			c := binary.LittleEndian.Uint32(row[4*x:4*x+4]) & 0xFFFFFF
			if c != prev {
				pair = uint64(c) | uint64(c)<<32
				prev = c
				if i := binOf(uint8(c), uint8(c>>8), uint8(c>>16)); q.seen[i] == q.gen {
					idx = q.index[i]
				} else {
					idx = q.missedIndex(i, &missed)
				}
			}
			out[x] = idx
		}
	}
}

// mapRuns writes into out the palette indices of layer l's row ly.
func (q *quantizer) mapRuns(l *runLayer, ly int, out []uint8, missed *map[int]uint8) {
	x := 0
	prev := ^uint32(0)
	var idx uint8
	for _, r := range l.runs[l.row[ly][0]:l.row[ly][1]] {
		if r.n&literalRun == 0 {
			if c := r.px & 0xFFFFFF; c != prev {
				prev, idx = c, q.indexOf(c, missed)
			}
			seg := out[x : x+int(r.n)]
			for i := range seg {
				seg[i] = idx
			}
			x += int(r.n)
			continue
		}
		lit := l.lit[4*r.px:][:4*(r.n&^literalRun)]
		for i := 0; i < len(lit); i += 4 {
			if c := binary.LittleEndian.Uint32(lit[i:]) & 0xFFFFFF; c != prev {
				prev, idx = c, q.indexOf(c, missed)
			}
			out[x] = idx
			x++
		}
	}
}

// indexOf returns the palette index of colour c (red in the low byte).
func (q *quantizer) indexOf(c uint32, missed *map[int]uint8) uint8 {
	i := binOf(uint8(c), uint8(c>>8), uint8(c>>16))
	if q.seen[i] == q.gen {
		return q.index[i]
	}
	return q.missedIndex(i, missed)
}

// missedIndex returns the palette index of bin i, which the sampled rows
// missed: that of the palette colour nearest the bin's middle,
// remembered in missed.
func (q *quantizer) missedIndex(i int, missed *map[int]uint8) uint8 {
	idx, ok := (*missed)[i]
	if !ok {
		if *missed == nil {
			*missed = map[int]uint8{}
		}
		mid := color.RGBA{uint8(i>>10)<<3 | 4, uint8(i>>5&31)<<3 | 4, uint8(i&31)<<3 | 4, 0xFF}
		idx = nearest(q.kept, mid)
		(*missed)[i] = idx
	}
	return idx
}

func nearest(kept []color.RGBA, c color.RGBA) uint8 {
	best, bd := 0, 1<<30
	for i, k := range kept {
		if d := dist(k, c); d < bd {
			best, bd = i, d
		}
	}
	return uint8(best)
}

func dist(a, b color.RGBA) int {
	dr, dg, db := int(a.R)-int(b.R), int(a.G)-int(b.G), int(a.B)-int(b.B)
	return dr*dr + dg*dg + db*db
}

// redOrder lists a palette's colours by red, so that the colours near
// one are found by looking outward from its red: a colour whose red
// alone is farther off than the best found so far cannot be nearer. Its
// answers are those of looking at every colour (nearest), ties going to
// the lowest index.
type redOrder []uint8

// add files kept[i], the colour just appended to kept.
func (o *redOrder) add(kept []color.RGBA, i int) {
	r := kept[i].R
	at := sort.Search(len(*o), func(j int) bool { return kept[(*o)[j]].R > r })
	*o = slices.Insert(*o, at, uint8(i))
}

// from is where colours with red r or more begin.
func (o redOrder) from(kept []color.RGBA, r uint8) int {
	return sort.Search(len(o), func(j int) bool { return kept[o[j]].R >= r })
}

// nearLimit is the squared distance within which near holds.
const nearLimit = 3 * 16 * 16

// near reports whether c is within 16 levels a channel (as a distance)
// of a kept colour, so that keeping it would add a shade no one sees
// and make the file larger.
func (o redOrder) near(kept []color.RGBA, c color.RGBA) bool {
	const limit = nearLimit
	start := o.from(kept, c.R)
	for j := start; j < len(o); j++ {
		k := kept[o[j]]
		if dr := int(k.R) - int(c.R); dr*dr >= limit {
			break
		}
		if dist(k, c) < limit {
			return true
		}
	}
	for j := start - 1; j >= 0; j-- {
		k := kept[o[j]]
		if dr := int(c.R) - int(k.R); dr*dr >= limit {
			break
		}
		if dist(k, c) < limit {
			return true
		}
	}
	return false
}

// nearest is nearest(kept, c).
func (o redOrder) nearest(kept []color.RGBA, c color.RGBA) uint8 {
	best, bd := 0, 1<<30
	try := func(i uint8) {
		if d := dist(kept[i], c); d < bd || (d == bd && int(i) < best) {
			best, bd = int(i), d
		}
	}
	start := o.from(kept, c.R)
	for j := start; j < len(o); j++ {
		if dr := int(kept[o[j]].R) - int(c.R); dr*dr > bd {
			break
		}
		try(o[j])
	}
	for j := start - 1; j >= 0; j-- {
		if dr := int(c.R) - int(kept[o[j]].R); dr*dr > bd {
			break
		}
		try(o[j])
	}
	return uint8(best)
}
