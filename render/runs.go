package render

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"image"
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
	// Row y's runs are runs[row[y][0]:row[y][1]]. A row the same as the
	// one above it shares its runs: most rows of a table's ground are
	// (open ground and zones crossed by the vertical grid lines).
	row  [][2]int32
	runs []pixelRun
	// lit holds the pixels of the literal runs.
	lit []uint8
	// index holds its literal pixels mapped to the palette it was last
	// shown with (palette.go).
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

// pixelRun is n pixels of one colour px, as the picture's bytes hold it
// (red in the low byte when read little-endian); or, when n has
// literalRun set, n&^literalRun pixels as they are, from lit[4*px:].
type pixelRun struct {
	n  uint32
	px uint32
}

const literalRun = 1 << 31

// minRun is the shortest stretch of one colour kept as a run rather than
// as part of a literal one.
const minRun = 4

// newRunLayer keeps img as runs.
func newRunLayer(img *image.RGBA) *runLayer {
	l := &runLayer{w: img.Rect.Dx(), row: make([][2]int32, 0, img.Rect.Dy())}
	l.add(img)
	return l.done()
}

// add appends img's rows to the layer, which is as wide as img; done
// finishes it. A large layer is drawn and kept a band of rows at a time.
func (l *runLayer) add(img *image.RGBA) {
	w := l.w
	var prev []uint8
	for y := range img.Rect.Dy() {
		start, lits := len(l.runs), len(l.lit)
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
			if lit >= 0 {
				l.runs = append(l.runs, pixelRun{uint32(end-lit) | literalRun, uint32(len(l.lit) / 4)})
				l.lit = append(l.lit, line[4*lit:4*end]...)
				lit = -1
			}
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
				l.runs = append(l.runs, pixelRun{uint32(n), px})
			}
			x += n
		}
		flush(w)
		l.h++
		end := len(l.runs)
		if n := len(l.row); n > 0 && l.same(l.row[n-1], start, end, lits) {
			l.row = append(l.row, l.row[n-1])
			l.runs, l.lit = l.runs[:start], l.lit[:lits]
			continue
		}
		l.row = append(l.row, [2]int32{int32(start), int32(end)})
	}
}

// same reports whether the runs from start to end (their literal pixels
// from lits on) are those of the row at prev.
func (l *runLayer) same(prev [2]int32, start, end, lits int) bool {
	a, b := l.runs[prev[0]:prev[1]], l.runs[start:end]
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
		if !bytes.Equal(l.lit[4*a[i].px:][:n], l.lit[at:at+n]) {
			return false
		}
		at += n
	}
	return true
}

// done lets the layer's spare room go: the room its slices grew by as
// they were appended to (up to a quarter more for a large layer's), which
// the collector frees only with a copy of exactly their length.
func (l *runLayer) done() *runLayer {
	l.row = trim(l.row)
	l.runs = trim(l.runs)
	l.lit = trim(l.lit)
	return l
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
		x := 0
		for _, run := range l.runs[l.row[y-dy][0]:l.row[y-dy][1]] {
			n := int(run.n &^ literalRun)
			a, b := max(x, x0), min(x+n, x1)
			if a < b {
				seg := dst.Pix[dst.PixOffset(a+dx, y):dst.PixOffset(b+dx, y)]
				if run.n&literalRun != 0 {
					copy(seg, l.lit[4*(int(run.px)+a-x):])
				} else {
					binary.LittleEndian.PutUint32(seg, run.px)
					for done := 4; done < len(seg); done *= 2 {
						copy(seg[done:], seg[:done])
					}
				}
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
		x := 0
		for _, r := range l.runs[l.row[y][0]:l.row[y][1]] {
			if r.n&literalRun != 0 {
				n := int(r.n &^ literalRun)
				copy(line[4*x:4*(x+n)], l.lit[4*r.px:])
				x += n
				continue
			}
			seg := line[4*x : 4*(x+int(r.n))]
			x += int(r.n)
			if len(seg) < 4*shortRun {
				for i := 0; i+4 <= len(seg); i += 4 {
					binary.LittleEndian.PutUint32(seg[i:], r.px)
				}
				continue
			}
			binary.LittleEndian.PutUint32(seg, r.px)
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
func (l *runLayer) bytes() int { return 8*len(l.row) + 8*len(l.runs) + len(l.lit) }
