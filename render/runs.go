package render

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"image"
	"math"
	"sync/atomic"
)

// A static layer is mostly long stretches of one colour (the table, a
// zone, a field of terrain) broken by thin lines and the antialiased
// edges of its words, so it is kept as runs of equal pixels, row by row:
// about a tenth of its 4 MB as an RGBA picture, which matters when the
// renderer keeps several tables' layers. Copying it onto a picture's
// canvas writes each run as a pattern, which costs about what copying
// the picture's bytes did, and each band of the picture (bands.go)
// copies its own rows.

// runLayer is an RGBA picture as runs of equal pixels. Where pixels
// change at almost every step (the antialiased edges of words and
// lines), they are kept as they are instead, a stretch at a time, and
// copied whole.
type runLayer struct {
	w, h int
	// Row y's runs are runs[row[y][0]:row[y][1]], and its literal
	// pixels are the layer's from the row[y][2]'th on. A row the same as
	// the one above it shares its runs: most rows of a table's ground
	// are (open ground and zones crossed by the vertical grid lines).
	row  [][3]int32
	runs []pixelRun
	// colors holds the layer's colours, each once; a run names its
	// colour by its place there, and lit holds the pixels of the
	// literal runs the same way: two bytes where the pixel takes four.
	// Literal pixels are the antialiased edges of a few colours, a few
	// thousand distinct ones in a layer (a hex map's ground has some
	// 6,000 in 270,000 literal pixels), and they were most of what a
	// layer held. A layer of more distinct colours than two bytes can
	// number keeps every row whole, as literal runs of its pixels as
	// they are, in raw; lit and colors are then nil.
	lit    []uint16
	colors []uint32
	// raw holds the literal pixels as they are (four bytes each, as the
	// picture's bytes hold them): while the layer is built, and after
	// done only in a layer that lit cannot number.
	raw []uint8
	// wide holds the runs while the layer is built (add); done makes
	// runs of them.
	wide []wideRun
	// index holds its colours mapped to the palette it was last shown
	// with (palette.go).
	index atomic.Pointer[layerIndex]
	// hashes holds a hash of each row's pixels, made the first time
	// one is asked for (rowHash).
	hashes atomic.Pointer[rowHashes]
}

// rowHashes are a hash of each row of a layer, with the seed they were
// made with.
type rowHashes struct {
	seed maphash.Seed
	row  []uint64
}

// rowHash returns the hash, with seed, of the pixels of row y: the same
// as maphash.Bytes of the row as copyRows writes it.
func (l *runLayer) rowHash(seed maphash.Seed, y int) uint64 {
	hs := l.hashes.Load()
	if hs == nil || hs.seed != seed {
		hs = &rowHashes{seed: seed, row: make([]uint64, l.h)}
		line := image.NewRGBA(image.Rect(0, 0, l.w, 1))
		for ly := range l.h {
			if ly > 0 && l.row[ly] == l.row[ly-1] {
				hs.row[ly] = hs.row[ly-1]
				continue
			}
			l.copyRows(line, -ly, ly, ly+1)
			hs.row[ly] = maphash.Bytes(seed, line.Pix)
		}
		l.hashes.Store(hs)
	}
	return hs.row[y]
}

// pixelRun is n pixels of colour colors[px]; or, when n has literalRun
// set, n&^literalRun pixels as they are, the row's next literal pixels
// (its literal runs take them in turn; px is not used). A stretch of
// more than maxRun pixels is several runs.
type pixelRun struct {
	n  uint16
	px uint16
}

// wideRun is a run as the layer is built: n pixels of colour px, as the
// picture's bytes hold it (red in the low byte when read
// little-endian); or, when n has literalRun set, n&^literalRun pixels
// of raw from the px'th on.
type wideRun struct {
	n  uint32
	px uint32
}

const literalRun = 1 << 15

// maxRun is the most pixels one run holds.
const maxRun = literalRun - 1

// minRun is the shortest stretch of one colour kept as a run rather than
// as part of a literal one.
const minRun = 4

// newRunLayer keeps img as runs.
func newRunLayer(img *image.RGBA) *runLayer {
	l := &runLayer{w: img.Rect.Dx(), row: make([][3]int32, 0, img.Rect.Dy())}
	l.add(img)
	return l.done()
}

// add appends img's rows to the layer, which is as wide as img; done
// finishes it. A large layer is drawn and kept a band of rows at a time.
func (l *runLayer) add(img *image.RGBA) {
	w := l.w
	var prev []uint8
	for y := range img.Rect.Dy() {
		start, lits := len(l.wide), len(l.raw)
		line := img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y):][:4*w]
		if n := len(l.row); n > 0 && prev != nil && bytes.Equal(line, prev) {
			// The same pixels as the row above: its runs.
			l.row = append(l.row, l.row[n-1])
			l.h++
			continue
		}
		prev = line
		lit := -1 // where the literal run being gathered starts in line
		flush := func(end int) {
			for lit >= 0 && lit < end {
				n := min(end-lit, maxRun)
				l.wide = append(l.wide, wideRun{uint32(n) | literalRun, uint32(len(l.raw) / 4)})
				l.raw = append(l.raw, line[4*lit:4*(lit+n)]...)
				lit += n
			}
			lit = -1
		}
		for x := 0; x < w; {
			px := binary.LittleEndian.Uint32(line[4*x:])
			n := 1
			for x+n < w && binary.LittleEndian.Uint32(line[4*(x+n):]) == px {
				n++
			}
			if n < minRun {
				if lit < 0 {
					lit = x
				}
			} else {
				flush(x)
				for left := n; left > 0; left -= maxRun {
					l.wide = append(l.wide, wideRun{uint32(min(left, maxRun)), px})
				}
			}
			x += n
		}
		flush(w)
		l.h++
		end := len(l.wide)
		if n := len(l.row); n > 0 && l.same(l.row[n-1], start, end, lits) {
			l.row = append(l.row, l.row[n-1])
			l.wide, l.raw = l.wide[:start], l.raw[:lits]
			continue
		}
		l.row = append(l.row, [3]int32{int32(start), int32(end), int32(lits / 4)})
	}
}

// same reports whether the runs from start to end (their literal pixels
// from lits on) are those of the row at prev.
func (l *runLayer) same(prev [3]int32, start, end, lits int) bool {
	a, b := l.wide[prev[0]:prev[1]], l.wide[start:end]
	if len(a) != len(b) {
		return false
	}
	at := lits
	for i := range a {
		if a[i].n != b[i].n {
			return false
		}
		if a[i].n&literalRun == 0 {
			if a[i].px != b[i].px {
				return false
			}
			continue
		}
		n := 4 * int(a[i].n&^literalRun)
		if !bytes.Equal(l.raw[4*a[i].px:][:n], l.raw[at:at+n]) {
			return false
		}
		at += n
	}
	return true
}

// done makes the layer's runs of the ones it was built with, each
// colour a number (colors), and lets its spare room go: the room its
// slices grew by as they were appended to (up to a quarter more for a
// large layer's), which the collector frees only with a copy of exactly
// their length. No rows are added after.
func (l *runLayer) done() *runLayer {
	l.row = trim(l.row)
	x := newColourIndex()
	runs := make([]pixelRun, len(l.wide))
	for y, r := range l.row {
		if y > 0 && r == l.row[y-1] {
			continue // the same runs
		}
		for i := r[0]; i < r[1]; i++ {
			w := l.wide[i]
			if w.n&literalRun != 0 {
				runs[i] = pixelRun{n: uint16(w.n)}
				continue
			}
			c := x.of(w.px)
			if c > math.MaxUint16 {
				l.keepRaw()
				return l
			}
			runs[i] = pixelRun{uint16(w.n), uint16(c)}
		}
	}
	lit := make([]uint16, len(l.raw)/4)
	last, at := uint32(0), -1 // neighbours are often alike
	for i := range lit {
		c := binary.LittleEndian.Uint32(l.raw[4*i:])
		if at < 0 || c != last {
			last, at = c, x.of(c)
			if at > math.MaxUint16 {
				l.keepRaw()
				return l
			}
		}
		lit[i] = uint16(at)
	}
	l.runs, l.lit, l.colors = runs, lit, trim(x.colors)
	l.wide, l.raw = nil, nil
	return l
}

// keepRaw makes each row of the layer one literal run of its pixels as
// they are, in raw: done's way for a layer of more colours than it can
// number.
func (l *runLayer) keepRaw() {
	var raw []uint8
	var runs []pixelRun
	line := make([]uint8, 4*l.w)
	var prev [3]int32
	for y, r := range l.row {
		if y > 0 && r == prev {
			l.row[y] = l.row[y-1]
			continue
		}
		prev = r
		x := 0
		for _, w := range l.wide[r[0]:r[1]] {
			n := int(w.n &^ literalRun)
			seg := line[4*x : 4*(x+n)]
			x += n
			if w.n&literalRun != 0 {
				copy(seg, l.raw[4*w.px:])
				continue
			}
			for i := 0; i < len(seg); i += 4 {
				binary.LittleEndian.PutUint32(seg[i:], w.px)
			}
		}
		start := len(runs)
		for left := l.w; left > 0; left -= maxRun {
			runs = append(runs, pixelRun{n: uint16(min(left, maxRun)) | literalRun})
		}
		l.row[y] = [3]int32{int32(start), int32(len(runs)), int32(len(raw) / 4)}
		raw = append(raw, line...)
	}
	l.runs, l.raw, l.lit, l.colors, l.wide = runs, raw, nil, nil, nil
}

// colourIndex numbers colours in the order they are first seen. It is a
// hash table of open addressing, kept at most half full, of each
// colour's number plus one (0 for an empty slot): several times faster
// than a map for the quarter million literal pixels of a large ground.
type colourIndex struct {
	colors []uint32
	slots  []uint32
	shift  uint // 32 less the bits of a slot's number
}

func newColourIndex() *colourIndex {
	const bits = 12
	return &colourIndex{slots: make([]uint32, 1<<bits), shift: 32 - bits}
}

// of returns c's number, numbering it if it is new.
func (x *colourIndex) of(c uint32) int {
	mask := uint32(len(x.slots) - 1)
	for h := c * 0x9E3779B1 >> x.shift; ; h = (h + 1) & mask {
		s := x.slots[h]
		if s == 0 {
			x.colors = append(x.colors, c)
			x.slots[h] = uint32(len(x.colors))
			if 2*len(x.colors) > len(x.slots) {
				x.grow()
			}
			return len(x.colors) - 1
		}
		if x.colors[s-1] == c {
			return int(s - 1)
		}
	}
}

// grow doubles the table and files every colour again.
func (x *colourIndex) grow() {
	x.slots = make([]uint32, 2*len(x.slots))
	x.shift--
	mask := uint32(len(x.slots) - 1)
	for i, c := range x.colors {
		h := c * 0x9E3779B1 >> x.shift
		for x.slots[h] != 0 {
			h = (h + 1) & mask
		}
		x.slots[h] = uint32(i + 1)
	}
}

// copyLit writes the layer's literal pixels from the i'th on into seg,
// as many as it holds.
func (l *runLayer) copyLit(seg []uint8, i int) {
	if l.lit == nil {
		copy(seg, l.raw[4*i:])
		return
	}
	for j, c := range l.lit[i : i+len(seg)/4] {
		binary.LittleEndian.PutUint32(seg[4*j:], l.colors[c])
	}
}

// litPixel returns the layer's i'th literal pixel, as the picture's
// bytes hold it, read little-endian.
func (l *runLayer) litPixel(i int) uint32 {
	if l.lit == nil {
		return binary.LittleEndian.Uint32(l.raw[4*i:])
	}
	return l.colors[l.lit[i]]
}

// trim returns s in an array of its own length, when it has room to
// spare.
func trim[S ~[]E, E any](s S) S {
	switch {
	case cap(s) == len(s):
		return s
	case len(s) == 0:
		return nil
	}
	return append(make(S, 0, len(s)), s...)
}

// copyRect writes the part r of dst from the layer, whose pixel (x, y)
// goes to (x+dx, y+dy) of dst; what r holds beyond the layer is left.
func (l *runLayer) copyRect(dst *image.RGBA, r image.Rectangle, dx, dy int) {
	r = r.Intersect(dst.Rect).Intersect(image.Rect(dx, dy, dx+l.w, dy+l.h))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		x0, x1 := r.Min.X-dx, r.Max.X-dx // in the layer
		row := l.row[y-dy]
		x, at := 0, int(row[2]) // at: the next literal pixel
		for _, run := range l.runs[row[0]:row[1]] {
			n := int(run.n &^ literalRun)
			a, b := max(x, x0), min(x+n, x1)
			if a < b {
				seg := dst.Pix[dst.PixOffset(a+dx, y):dst.PixOffset(b+dx, y)]
				if run.n&literalRun != 0 {
					l.copyLit(seg, at+a-x)
				} else {
					binary.LittleEndian.PutUint32(seg, l.colors[run.px])
					for done := 4; done < len(seg); done *= 2 {
						copy(seg[done:], seg[:done])
					}
				}
			}
			if run.n&literalRun != 0 {
				at += n
			}
			x += n
			if x >= x1 {
				break
			}
		}
	}
}

// copyRows writes rows y0 to y1 of the layer onto dst, with the layer's
// top left at (0, top) of dst; dst is as wide as the layer. A row that
// shares its runs with the one above (most of an open table's) is a copy
// of the row just written; a short run is written a pixel at a time, as
// a call to copy costs more than the few pixels it would write.
func (l *runLayer) copyRows(dst *image.RGBA, top, y0, y1 int) {
	y0, y1 = max(y0, 0), min(y1, l.h)
	for y := y0; y < y1; y++ {
		line := dst.Pix[dst.PixOffset(0, top+y):][:4*l.w]
		if y > y0 && l.row[y] == l.row[y-1] {
			copy(line, dst.Pix[dst.PixOffset(0, top+y-1):][:4*l.w])
			continue
		}
		row := l.row[y]
		x, at := 0, int(row[2]) // at: the next literal pixel
		for _, r := range l.runs[row[0]:row[1]] {
			if r.n&literalRun != 0 {
				n := int(r.n &^ literalRun)
				l.copyLit(line[4*x:4*(x+n)], at)
				x, at = x+n, at+n
				continue
			}
			seg := line[4*x : 4*(x+int(r.n))]
			x += int(r.n)
			px := l.colors[r.px]
			if len(seg) < 4*shortRun {
				for i := 0; i+4 <= len(seg); i += 4 {
					binary.LittleEndian.PutUint32(seg[i:], px)
				}
				continue
			}
			binary.LittleEndian.PutUint32(seg, px)
			// The rest of a long run doubles what is written.
			for done := 4; done < len(seg); done *= 2 {
				copy(seg[done:], seg[:done])
			}
		}
	}
}

// shortRun is the longest run copyRows writes a pixel at a time.
const shortRun = 8

// bytes is about how much memory the layer holds.
func (l *runLayer) bytes() int {
	return 12*len(l.row) + 4*len(l.runs) + 2*len(l.lit) + 4*len(l.colors) + len(l.raw)
}
