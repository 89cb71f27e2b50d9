package render

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/raster"
	"github.com/rhapsode/rhapsode/engine"
	"golang.org/x/image/math/fixed"
)

// The static layer is the board without anything that moves: the table
// or map, its grid or ruler, terrain and zones. It changes only when the
// table does, so it is drawn once and copied into every later picture of
// the same table.

// staticKey identifies a static layer: everything it is drawn from.
type staticKey struct {
	kind    engine.BoardKind
	w, d    float64
	wx, wy  float64 // open table: the part shown
	c0, r0  int
	content uint64 // hash of unit, zones and terrain
}

func keyOf(v *engine.View, b *board) staticKey {
	return staticKey{kind: v.Kind, w: b.w, d: b.d, wx: b.wx, wy: b.wy, c0: b.c0, r0: b.r0, content: contentHash(v).Sum64()}
}

// groundKey identifies the ground of a whole table (groundOf): the table
// and the shapes of its terrain, at one scale. Zones are not in it: they
// are tinted over each frame's cut (zones.go), as they come and go
// (deployment ends, a leader's command range follows him) while the
// table stays; nor are the terrain's names, drawn over the cut too.
type groundKey struct {
	kind     engine.BoardKind
	scale    float64
	hc0, hr0 int
	content  uint64 // hash of the table's size and its terrain's kinds and outlines
}

func groundKeyOf(v *engine.View, b *board) groundKey {
	h := fnv.New64a()
	var buf [8]byte
	f := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	f(v.Width)
	f(v.Depth)
	f(float64(len(v.Terrain)))
	for _, t := range v.Terrain {
		f(float64(t.Kind))
		f(float64(len(t.Outline)))
		for _, p := range t.Outline {
			f(p.X)
			f(p.Y)
		}
	}
	return groundKey{kind: v.Kind, scale: b.scale, hc0: b.hc0, hr0: b.hr0, content: h.Sum64()}
}

// contentHash hashes what a table's layers are drawn from besides the
// frame: its size, unit, zones and terrain.
func contentHash(v *engine.View) hash.Hash64 {
	h := fnv.New64a()
	var buf [8]byte
	f := func(x float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	s := func(t string) {
		f(float64(len(t)))
		h.Write([]byte(t))
	}
	s(v.Unit)
	f(float64(len(v.Zones)))
	for _, z := range v.Zones {
		s(z.Label)
		f(z.Min.X)
		f(z.Min.Y)
		f(z.Max.X)
		f(z.Max.Y)
		f(float64(z.Side))
	}
	f(float64(len(v.Terrain)))
	for _, t := range v.Terrain {
		f(float64(t.Kind))
		s(t.Label)
		f(float64(len(t.Outline)))
		for _, p := range t.Outline {
			f(p.X)
			f(p.Y)
		}
	}
	f(v.Width)
	f(v.Depth)
	return h
}

// layerCache keeps the parts of pictures drawn lately that later
// pictures show again (a table's static layer, a legend) as runs
// (runs.go: a few hundred KB a layer at the default width, where the
// picture is 4 MB). Many channels each showing a few frames of their own
// table need many layers at once; a cache that holds fewer draws one for
// nearly every picture.
type layerCache[K comparable] struct {
	cache[K, *runLayer]
}

// newLayerCache returns a cache of at most max layers and, when budget is
// set, at most budget bytes of them.
func newLayerCache[K comparable](max, budget int) layerCache[K] {
	return layerCache[K]{cache[K, *runLayer]{max: max, budget: budget, size: (*runLayer).bytes}}
}

// get returns the layer for key, drawing it with draw the first time.
func (c *layerCache[K]) get(key K, draw func() *image.RGBA) *runLayer {
	return c.cache.get(key, func() *runLayer { return newRunLayer(draw()) })
}

// getRuns is get for a layer drawn straight as runs.
func (c *layerCache[K]) getRuns(key K, draw func() *runLayer) *runLayer {
	return c.cache.get(key, draw)
}

// drawStatic draws the static layer of v on the part area of img, in
// b's coordinates, afresh.
func drawStatic(img *image.RGBA, area image.Rectangle, fs *faces, k float64, v *engine.View, b *board) {
	fill(img, area, white)
	drawGround(img, fs, k, v, b, tableSand)
	drawMarkings(img, fs, k, v, b, true)
}

// A static layer is drawn in two parts. The ground (the table, its
// cells, grid lines and terrain; a hex map's outlines and numbers) is
// the same in every frame of a table at one scale, so it is drawn once
// for the whole table (groundOf) and each frame takes its part of it,
// with the zones' fills tinted in (zones.go). What is drawn over it
// along the frame's edges, or placed
// within the frame (zones' borders and names, terrain's names, the
// table's edge, the ruler or the squares' letters), is drawn for each
// frame (drawMarkings), after the ground as before: it is a few strokes
// and words.

// drawGround draws the ground of v's table on img, in b's coordinates,
// its open ground (outside zones and terrain) in base: the table's sand,
// marked bare for a ground kept as a layer (drawGroundLayer).
func drawGround(img *image.RGBA, fs *faces, k float64, v *engine.View, b *board, base color.Color) {
	dc := gg.NewContextForRGBA(img)
	switch b.kind {
	case engine.OpenTable:
		drawOpenGround(dc, img, k, v, b, base)
	case engine.SquareGrid:
		drawSquareGround(dc, img, fs, k, v, b, base)
	case engine.HexGrid:
		drawHexGround(dc, img, fs, k, v, b, base)
	}
}

// drawMarkings draws what goes over the ground of v's table in b's
// frame. Without names, an open table's terrain names are left out:
// they step aside from the pieces, so each picture draws its own over
// the frame's layer (render.go), and the layer serves whatever stands
// on the table.
func drawMarkings(img *image.RGBA, fs *faces, k float64, v *engine.View, b *board, names bool) {
	dc := gg.NewContextForRGBA(img)
	switch b.kind {
	case engine.OpenTable:
		drawOpenMarkings(dc, img, fs, k, v, b, names)
	case engine.SquareGrid:
		drawSquareMarkings(dc, img, fs, k, v, b)
	case engine.HexGrid:
		drawSpots(img, staticLabels(fs, k, v, b))
	}
}

// groundPixels is about how many pixels of a whole table's ground are
// drawn at a time, a band of rows: a large table at a close scale would
// take tens of MB as one picture, and is kept as runs a tenth of that.
const groundPixels = 2 << 20

// groundOf returns the board of b's whole table at b's scale, moved by
// whole pixels to start just inside a picture of its own, that
// picture's size, and how far it moved: pixel (x, y) of the ground is
// pixel (x+dx, y+dy) of b's picture. Every frame of a table at one scale
// gives the same ground, as b's world origin is on a whole pixel.
func groundOf(b *board) (g board, w, h, dx, dy int) {
	const pad = 2
	dx = int(math.Floor(b.all.x0)) - pad
	dy = int(math.Floor(b.all.y0)) - pad
	w = int(math.Ceil(b.all.x1)) - dx + pad
	h = int(math.Ceil(b.all.y1)) - dy + pad
	g = *b
	g.ox -= float64(dx)
	g.oy -= float64(dy)
	g.all = rect{b.all.x0 - float64(dx), b.all.y0 - float64(dy), b.all.x1 - float64(dx), b.all.y1 - float64(dy)}
	g.table = g.all
	switch b.kind {
	case engine.OpenTable:
		g.wx, g.wy, g.w, g.d = 0, 0, b.allW, b.allD
	case engine.SquareGrid:
		g.wx, g.wy, g.w, g.d = 0, 0, b.allW, b.allD
		g.cols, g.rows = int(b.allW), int(b.allD)
	case engine.HexGrid:
		g.c0, g.r0 = b.hc0, b.hr0
		g.cols, g.rows = int(b.allW), int(b.allD)
	}
	return g, w, h, dx, dy
}

// drawGroundLayer draws the ground of v's whole table without its zones,
// g from groundOf, w by h pixels, a band of rows at a time. Each pixel's
// alpha says how much of it is not bare ground, for the zones tinted over
// it later (zones.go): the open ground is filled in bare sand, which
// leaves the alpha of what it covers at none, and everything drawn over
// it raises the alpha by what it covers (see bare). Alpha 255 is a pixel
// with no bare ground, 0 one all bare.
//
// The band's buffer holds about groundPixels pixels (8 MB), and is let
// go once its rows are kept as runs (a tenth of its size or less): the heap is
// shared with other channels' pictures, and the collector lets it grow
// to twice what it found live, so a ground being drawn when it looks
// costs double.
func drawGroundLayer(fs *faces, k float64, v *engine.View, g board, w, h int) *runLayer {
	return drawGroundBands(fs, k, v, g, w, h, max(256, groundPixels/w))
}

// drawGroundBands is drawGroundLayer in bands of band rows.
func drawGroundBands(fs *faces, k float64, v *engine.View, g board, w, h, band int) *runLayer {
	bare := *v
	bare.Zones = nil
	img := image.NewRGBA(image.Rect(0, 0, w, min(h, band)))
	l := &runLayer{w: w, row: make([][3]int32, 0, h)}
	for y0 := 0; y0 < h; y0 += band {
		r := image.Rect(0, 0, w, min(band, h-y0))
		part := &image.RGBA{Pix: img.Pix, Stride: img.Stride, Rect: r}
		gb := g.shifted(-float64(y0))
		fill(part, r, white)
		drawGround(part, fs, k, &bare, &gb, bareSand)
		l.add(part)
	}
	return l.done()
}

// bareSand is the table's sand, marking the ground it covers bare.
var bareSand = bare{tableSand}

// cutGround copies onto img (the board's area, in b's coordinates) the
// part of ground (from groundOf, moved by dx, dy) that b's frame shows.
// A hex frame shows whole hexes: what lies outside them is left white.
func cutGround(img *image.RGBA, ground *runLayer, fs *faces, k float64, v *engine.View, b *board, dx, dy int) {
	t := b.table
	r := image.Rect(int(math.Floor(t.x0)), int(math.Floor(t.y0)), int(math.Ceil(t.x1)), int(math.Ceil(t.y1)))
	var edges func()
	if b.kind == engine.HexGrid {
		// The outlines of the edge hexes reach a little past the map.
		g := int(math.Ceil(1.2*k)) + 2
		edges = cutHexes(img, r.Inset(-g).Intersect(img.Rect), fs, k, v, b)
	}
	ground.copyRect(img, r, dx, dy)
	tintZones(img, v, b)
	opaque(img, r)
	if edges != nil {
		edges()
	}
}

// cutHexes leaves of the part r of img only the hexes of b's frame, once
// the ground is cut over it: it returns the function that does so.
// Within a few pixels of the frame's edge, the ground of the whole map
// holds the neighbouring hexes' colours in its antialiased edges, so
// there the pixels are those of the frame's edge hexes drawn alone, on
// white, as a frame drawn afresh has them.
//
// The edge hexes are drawn straight onto img, before the ground is cut
// over it, and only their pixels near the frame's edge are kept aside
// to be put back: a picture-sized scratch picture for them would hold
// 4 MB while a frame is cut. img has the same size as that scratch
// picture had, so its rasteriser and fillers give the same pixels; what
// the drawing reaches beyond r is put back as it was.
func cutHexes(img *image.RGBA, r image.Rectangle, fs *faces, k float64, v *engine.View, b *board) func() {
	if r.Empty() {
		return nil
	}
	edge := func(c, rr int) bool {
		return c == b.c0 || c == b.c0+b.cols-1 || rr == b.r0 || rr == b.r0+b.rows-1
	}
	// The ring round r that the drawing may reach (a tree's crown past
	// its hex), as it was.
	reach := r.Inset(-int(math.Ceil(4*k)) - 4).Intersect(img.Rect)
	var around []keptPixels
	for _, o := range []image.Rectangle{
		image.Rect(reach.Min.X, reach.Min.Y, reach.Max.X, r.Min.Y),
		image.Rect(reach.Min.X, r.Max.Y, reach.Max.X, reach.Max.Y),
		image.Rect(reach.Min.X, r.Min.Y, r.Min.X, r.Max.Y),
		image.Rect(r.Max.X, r.Min.Y, reach.Max.X, r.Max.Y),
	} {
		for y := o.Min.Y; y < o.Max.Y; y++ {
			around = keep(around, img, y, o.Min.X, o.Max.X)
		}
	}
	fill(img, r, white)
	dc := gg.NewContextForRGBA(img)
	drawGridCellsWhere(dc, img, k, v, b, tableSand, edge)
	dc.SetColor(gridDark)
	dc.SetLineWidth(1.2 * k)
	gridCells(b, func(c, rr int, ps []pt) {
		if edge(c, rr) {
			polygon(dc, ps)
			dc.Stroke()
		}
	})
	for _, sp := range hexNumbers(fs, b) {
		drawText(img, sp.f, sp.s, sp.x, sp.y, sp.c)
	}
	putBack(img, around)
	// Each row's stretches inside the frame's hexes.
	s, s3 := b.scale, math.Sqrt(3)
	inside := func(y int) [][2]float64 {
		wy := b.oy - (float64(y) + 0.5) // world, y up
		var out [][2]float64
		for c := b.c0; c < b.c0+b.cols; c++ {
			half := 0.0
			if c&1 == 1 {
				half = 0.5
			}
			row := min(max(int(math.Round(half-wy/(s3*s))), b.r0), b.r0+b.rows-1)
			t := math.Abs(wy + s3*s*(float64(row)-half))
			if t > s3*s/2 {
				continue
			}
			cx, span := b.ox+1.5*s*float64(c), s-t/s3
			if n := len(out); n > 0 && cx-span <= out[n-1][1]+1 {
				out[n-1][1] = max(out[n-1][1], cx+span)
			} else {
				out = append(out, [2]float64{cx - span, cx + span})
			}
		}
		return out
	}
	const m = 3 // pixels from the frame's edge taken from the hexes alone
	// deep returns the stretches of row y at least m pixels inside the
	// frame's hexes, in this row and m rows above and below.
	shrink := func(in [][2]float64) [][2]float64 {
		var out [][2]float64
		for _, iv := range in {
			if iv[1]-iv[0] > 2*m {
				out = append(out, [2]float64{iv[0] + m, iv[1] - m})
			}
		}
		return out
	}
	both := func(a, b [][2]float64) [][2]float64 {
		var out [][2]float64
		for _, p := range a {
			for _, q := range b {
				if lo, hi := max(p[0], q[0]), min(p[1], q[1]); lo < hi {
					out = append(out, [2]float64{lo, hi})
				}
			}
		}
		return out
	}
	rows := map[int][][2]float64{}
	at := func(y int) [][2]float64 {
		if in, ok := rows[y]; ok {
			return in
		}
		rows[y] = shrink(inside(y))
		return rows[y]
	}
	// The pixels that are not deep keep the edge hexes.
	var hexes []keptPixels
	for y := r.Min.Y; y < r.Max.Y; y++ {
		deep := both(both(at(y-m), at(y)), at(y+m))
		delete(rows, y-m)
		// A pixel is deep when its middle lies in a deep stretch.
		x := r.Min.X
		for _, iv := range deep {
			a := min(max(int(math.Ceil(iv[0]-0.5)), x), r.Max.X)
			b := min(max(int(math.Floor(iv[1]-0.5))+1, a), r.Max.X)
			hexes = keep(hexes, img, y, x, a)
			x = b
		}
		hexes = keep(hexes, img, y, x, r.Max.X)
	}
	return func() { putBack(img, hexes) }
}

// keptPixels is a copy of the pixels of row y of a picture from x0 to
// x0+len(pix)/4.
type keptPixels struct {
	y, x0 int
	pix   []uint8
}

// keep adds to ks a copy of row y of img from x0 to x1, if not empty.
func keep(ks []keptPixels, img *image.RGBA, y, x0, x1 int) []keptPixels {
	if x0 >= x1 {
		return ks
	}
	return append(ks, keptPixels{y, x0, slices.Clone(img.Pix[img.PixOffset(x0, y):img.PixOffset(x1, y)])})
}

// putBack writes the kept pixels ks back onto img.
func putBack(img *image.RGBA, ks []keptPixels) {
	for _, p := range ks {
		copy(img.Pix[img.PixOffset(p.x0, p.y):], p.pix)
	}
}

// fillRect paints the box r (in pixels, its edges anywhere) of img with
// the colour c, each pixel its edges cut blended by the share of it the
// box covers, as a rasteriser does: a table's ground and zones are large
// boxes, and gg would blend every pixel of them. Its colours are c's,
// and its alpha moves toward c's: a whole one for any colour drawn, or
// none for bare ground (see bare).
func fillRect(img *image.RGBA, r rect, c color.RGBA) {
	b := img.Rect
	x0, x1 := max(r.x0, float64(b.Min.X)), min(r.x1, float64(b.Max.X))
	y0, y1 := max(r.y0, float64(b.Min.Y)), min(r.y1, float64(b.Max.Y))
	if x0 >= x1 || y0 >= y1 {
		return
	}
	// cover is how much of pixel i (from lo to hi) the span covers.
	cover := func(i int, lo, hi float64) float64 {
		return max(0, min(hi, float64(i+1))-max(lo, float64(i)))
	}
	ix0, ix1 := int(math.Floor(x0)), int(math.Ceil(x1))
	iy0, iy1 := int(math.Floor(y0)), int(math.Ceil(y1))
	// The whole pixels, straight.
	fx0, fx1 := int(math.Ceil(x0)), int(math.Floor(x1))
	fy0, fy1 := int(math.Ceil(y0)), int(math.Floor(y1))
	if fx0 < fx1 && fy0 < fy1 {
		fill(img, image.Rect(fx0, fy0, fx1, fy1), c)
	}
	blend := func(x, y int, a float64) {
		if a <= 0 {
			return
		}
		i := img.PixOffset(x, y)
		p := img.Pix[i : i+4 : i+4]
		p[0] = uint8(float64(p[0]) + (float64(c.R)-float64(p[0]))*a + 0.5)
		p[1] = uint8(float64(p[1]) + (float64(c.G)-float64(p[1]))*a + 0.5)
		p[2] = uint8(float64(p[2]) + (float64(c.B)-float64(p[2]))*a + 0.5)
		p[3] = uint8(float64(p[3]) + (float64(c.A)-float64(p[3]))*a + 0.5)
	}
	for y := iy0; y < iy1; y++ {
		cy := cover(y, y0, y1)
		for x := ix0; x < ix1; x++ {
			if y >= fy0 && y < fy1 && x >= fx0 && x < fx1 {
				x = fx1 - 1 // painted already
				continue
			}
			blend(x, y, cy*cover(x, x0, x1))
		}
	}
}

// straight draws the line from (x0, y0) to (x1, y1), which runs across
// or up and down, w pixels wide: a box reaching w/2 past each end, where
// gg's stroke ends in a round cap, the same but for a shade at the
// cap's corners. The ruler's ticks and the grid lines are many, and gg
// would rasterise each over the whole picture's height.
func straight(img *image.RGBA, x0, y0, x1, y1, w float64, c color.RGBA) {
	h := w / 2
	if x0 == x1 {
		fillRect(img, rect{x0 - h, min(y0, y1) - h, x0 + h, max(y0, y1) + h}, c)
	} else {
		fillRect(img, rect{min(x0, x1) - h, y0 - h, max(x0, x1) + h, y0 + h}, c)
	}
}

// fill paints r of img with c.
func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return
	}
	row := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):img.PixOffset(r.Max.X, r.Min.Y)]
	for i := 0; i < len(row); i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, c.A
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(r.Min.X, y):], row)
	}
}

func drawOpenGround(dc *gg.Context, img *image.RGBA, k float64, v *engine.View, b *board, base color.Color) {
	t := b.table
	if c, ok := base.(bare); ok {
		fillRect(img, t, color.RGBA{R: c.c.R, G: c.c.G, B: c.c.B})
	} else {
		fillRect(img, t, base.(color.RGBA))
	}
	clampZ := func(z engine.Zone) rect { return openZone(b, z) }
	for _, z := range v.Zones {
		r := clampZ(z)
		if r.w() <= 0 || r.h() <= 0 {
			continue
		}
		fillRect(img, r, zoneFill[sideOf(z.Side)])
	}
	step, _ := rulerSteps(b.scale, k)
	// Grid lines at every numbered step.
	for x := math.Floor(b.wx/step)*step + step; x < b.wx+b.w-1e-9; x += step {
		p := b.px(engine.Vec{X: x})
		straight(img, p.x, t.y0, p.x, t.y1, 1*k, gridLine)
	}
	for y := math.Floor(b.wy/step)*step + step; y < b.wy+b.d-1e-9; y += step {
		p := b.px(engine.Vec{Y: y})
		straight(img, t.x0, p.y, t.x1, p.y, 1*k, gridLine)
	}
	if len(v.Terrain) == 0 {
		return
	}
	// Terrain reaching past the part of the table shown stops at its
	// edge.
	shapes := make([][]pt, len(v.Terrain))
	for i, tr := range v.Terrain {
		shapes[i] = make([]pt, len(tr.Outline))
		for j, p := range tr.Outline {
			shapes[i][j] = b.px(p)
		}
	}
	// How far past its outline a terrain's drawing reaches: half a
	// stream's or road's width with its edge, a tree's crown, the
	// outline's stroke, and a pixel of antialiasing each side.
	reach := math.Max(0.8*b.scale, 6*k)/2 + 4*k + 2
	clipped(dc, img, t, func(dc *gg.Context, y0, y1 int) {
		for i, tr := range v.Terrain {
			if bb := bounds(shapes[i]...); bb.y1+reach < float64(y0) || bb.y0-reach > float64(y1) {
				// It paints nothing in these rows. A line leaves
				// the context's caps butt.
				if len(shapes[i]) < 3 {
					dc.SetLineCapButt()
				}
				continue
			}
			drawTerrain(dc, nil, img, k, tr.Kind, slices.Clone(shapes[i]), b)
		}
	})
}

// clipped calls draw with a context for img clipped to the box t, as
// dc's DrawRectangle and Clip would clip it, with the same pixels, and
// the rows from y0 to y1 it may paint.
//
// gg's clip is a mask as large as img (a large table's ground is 2 MB
// of it), but the mask of a box has only a few kinds of rows: none
// above and below it, its top and bottom edges' rows, and all the rows
// between alike. So draw is called once for each run of like rows (a
// box's edges on whole pixels have one), on a context of img cut short
// below the run, whose mask is that one row for every row from the
// run's first and nothing above it. The rows are drawn by the same
// rasteriser over the same points as dc's, and each pixel is blended by
// the same painter with the same mask, once.
func clipped(dc *gg.Context, img *image.RGBA, t rect, draw func(dc *gg.Context, y0, y1 int)) {
	// A rasteriser more than 120 pixels wide splits curves alike
	// whatever its height; a narrower one would not.
	if img.Rect.Min != (image.Point{}) || img.Rect.Dx() <= 120 {
		dc.DrawRectangle(t.x0, t.y0, t.w(), t.h())
		dc.Clip()
		draw(dc, img.Rect.Min.Y, img.Rect.Max.Y)
		dc.ResetClip()
		return
	}
	w := img.Rect.Dx()
	for _, m := range boxMask(t, w, img.Rect.Dy()) {
		part := &image.RGBA{Pix: img.Pix, Stride: img.Stride, Rect: image.Rect(0, 0, w, m.y1)}
		pc := gg.NewContextForRGBA(part)
		if err := pc.SetMask(&image.Alpha{Pix: m.row, Rect: image.Rect(0, m.y0, w, m.y0+m.y1)}); err != nil {
			panic(err) // the mask is made to the context's size
		}
		draw(pc, m.y0, m.y1)
	}
}

// maskRows is rows y0 to y1 of a clip mask, all alike: row.
type maskRows struct {
	y0, y1 int
	row    []uint8
}

// boxMask returns the rows of the mask gg makes to clip a w by h
// picture to the box t (DrawRectangle, then Clip), as runs of like rows;
// rows left out are wholly masked.
func boxMask(t rect, w, h int) []maskRows {
	// The path gg fills for the mask: the box's corners, closed, and
	// its start again, each point scaled to 26.6 and truncated.
	fix := func(x, y float64) fixed.Point26_6 {
		return fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}
	}
	x1, y1 := t.x0+t.w(), t.y0+t.h()
	var path raster.Path
	path.Start(fix(t.x0, t.y0))
	path.Add1(fix(x1, t.y0))
	path.Add1(fix(x1, y1))
	path.Add1(fix(t.x0, y1))
	path.Add1(fix(t.x0, t.y0))
	path.Add1(fix(t.x0, t.y0))
	r := raster.NewRasterizer(w, h)
	r.UseNonZeroWinding = true
	r.AddPath(path)
	p := &maskPainter{w: w, y: -1}
	r.Rasterize(p)
	p.end()
	return p.runs
}

// maskPainter paints the spans of a mask as gg's clip does (an
// AlphaOverPainter over a clear mask: each pixel the top byte of its
// span's alpha), a row at a time, keeping runs of like rows.
type maskPainter struct {
	w    int
	y    int // the row being painted, -1 before the first
	cur  []uint8
	runs []maskRows
}

func (p *maskPainter) Paint(ss []raster.Span, done bool) {
	for _, s := range ss {
		if s.Y < 0 || s.X0 >= s.X1 {
			continue
		}
		if s.Y != p.y {
			p.end()
			p.y = s.Y
			p.cur = make([]uint8, p.w)
		}
		for x := max(s.X0, 0); x < min(s.X1, p.w); x++ {
			p.cur[x] = uint8(s.Alpha >> 8)
		}
	}
}

// end closes the row being painted: one more of the last run, when it
// follows it and is alike, or a run of its own.
func (p *maskPainter) end() {
	if p.cur == nil {
		return
	}
	if n := len(p.runs); n > 0 && p.runs[n-1].y1 == p.y && slices.Equal(p.runs[n-1].row, p.cur) {
		p.runs[n-1].y1++
	} else if slices.ContainsFunc(p.cur, func(a uint8) bool { return a != 0 }) {
		p.runs = append(p.runs, maskRows{p.y, p.y + 1, p.cur})
	}
	p.cur = nil
}

func drawOpenMarkings(dc *gg.Context, img *image.RGBA, fs *faces, k float64, v *engine.View, b *board, names bool) {
	t := b.table
	clampZ := func(z engine.Zone) rect { return openZone(b, z) }
	step, minor := rulerSteps(b.scale, k)
	for _, z := range v.Zones {
		r := clampZ(z)
		if r.w() <= 0 || r.h() <= 0 {
			continue
		}
		dc.SetColor(zoneBorder[sideOf(z.Side)])
		dc.SetLineWidth(1.5 * k)
		dc.SetDash(6*k, 4*k)
		dc.DrawRectangle(r.x0, r.y0, r.w(), r.h())
		dc.Stroke()
		dc.SetDash()
	}
	dc.SetColor(tableEdge)
	dc.SetLineWidth(2 * k)
	dc.DrawRectangle(t.x0, t.y0, t.w(), t.h())
	dc.Stroke()
	if names {
		drawSpots(img, staticLabels(fs, k, v, b))
	}
	// The ruler: numbers as players type them, on all four sides.
	tick := func(x0, y0, x1, y1 float64) { straight(img, x0, y0, x1, y1, 1*k, rulerInk) }
	for i := 0; ; i++ {
		x := math.Ceil(b.wx/minor-1e-9)*minor + float64(i)*minor
		if x > b.wx+b.w+1e-9 {
			break
		}
		major := isMultiple(x, step)
		l := 4 * k
		if major {
			l = 8 * k
		}
		p := b.px(engine.Vec{X: x})
		tick(p.x, t.y1, p.x, t.y1+l)
		tick(p.x, t.y0, p.x, t.y0-l)
		if major {
			s := num(x)
			lx, ly := anchor(fs.ruler, s, p.x, t.y1+l+1*k, 0.5, 0)
			drawText(img, fs.ruler, s, lx, ly, rulerInk)
			lx, ly = anchor(fs.ruler, s, p.x, t.y0-l-1*k, 0.5, 1)
			drawText(img, fs.ruler, s, lx, ly, rulerInk)
		}
	}
	for i := 0; ; i++ {
		y := math.Ceil(b.wy/minor-1e-9)*minor + float64(i)*minor
		if y > b.wy+b.d+1e-9 {
			break
		}
		major := isMultiple(y, step)
		l := 4 * k
		if major {
			l = 8 * k
		}
		p := b.px(engine.Vec{Y: y})
		tick(t.x0, p.y, t.x0-l, p.y)
		tick(t.x1, p.y, t.x1+l, p.y)
		if major {
			s := num(y)
			lx, ly := anchor(fs.ruler, s, t.x0-l-2*k, p.y, 1, 0.5)
			drawText(img, fs.ruler, s, lx, ly, rulerInk)
			lx, ly = anchor(fs.ruler, s, t.x1+l+2*k, p.y, 0, 0.5)
			drawText(img, fs.ruler, s, lx, ly, rulerInk)
		}
	}
}

// rulerSteps picks the numbered step of the ruler, so numbers do not
// crowd, and the step of its small ticks.
func rulerSteps(scale, k float64) (step, minor float64) {
	mant := [3]float64{1, 2, 5}
	step = 0.5
	for e := 0; step*scale < 40*k && e < 60; e++ {
		step = mant[e%3] * math.Pow(10, float64(e/3))
	}
	minor = step
	for _, d := range []float64{10, 5, 4, 2} {
		m := step / d
		if m*scale >= 6*k && (m >= 1 || step < 1) && isMultiple(m, 0.5) {
			minor = m
			break
		}
	}
	return step, minor
}

// isMultiple reports whether x is a whole multiple of m, within rounding.
func isMultiple(x, m float64) bool {
	q := x / m
	return math.Abs(q-math.Round(q)) < 1e-6
}

// num writes a ruler number as players type it: at most one decimal.
func num(x float64) string {
	return strconv.FormatFloat(math.Round(x*10)/10, 'f', -1, 64)
}

// drawTerrain draws one piece of terrain. Each kind has its own fill and
// pattern, so that they differ in more than colour: rough ground is
// hatched, streams have water lines, roads are plain and edged,
// protected ground (woods, buildings) is dotted with trees, and darkness
// is dark and cross-hatched.
//
// With fl, the fills of the ground and its hatching go through fl (the
// same pixels as gg's, without a rasteriser as tall as the picture, for
// a grid's cells); an open table's terrain, drawn under a clip, goes to
// gg alone.
func drawTerrain(dc *gg.Context, fl *filler, img *image.RGBA, k float64, kind engine.TerrainKind, ps []pt, b *board) {
	var path pather = dc
	fillIn := func(c color.RGBA) {
		dc.SetColor(c)
		dc.Fill()
	}
	if fl != nil {
		path = fl
		fillIn = func(c color.RGBA) { fl.fill(dc, img, c) }
	}
	unit := b.scale
	// Patterns run from the whole table's corner, so that every frame
	// of it shows them alike.
	origin := pt{b.all.x0, b.all.y0}
	var fillC, edge color.RGBA
	switch kind {
	case engine.Stream:
		fillC, edge = streamFill, streamEdge
	case engine.Road:
		fillC, edge = roadFill, roadEdge
	case engine.Protected:
		fillC, edge = coverFill, coverEdge
	case engine.Dark:
		fillC, edge = darkFill, darkEdge
	default:
		fillC, edge = roughFill, roughEdge
	}
	if len(ps) < 3 {
		// A line (a stream's or road's course) or a spot.
		w := math.Max(0.8*unit, 6*k)
		dc.SetLineCapRound()
		if len(ps) == 1 {
			ps = append(ps, ps[0])
		}
		dc.SetColor(edge)
		dc.SetLineWidth(w + 3*k)
		dc.MoveTo(ps[0].x, ps[0].y)
		dc.LineTo(ps[1].x, ps[1].y)
		dc.Stroke()
		dc.SetColor(fillC)
		dc.SetLineWidth(w)
		dc.MoveTo(ps[0].x, ps[0].y)
		dc.LineTo(ps[1].x, ps[1].y)
		dc.Stroke()
		dc.SetLineCapButt()
		return
	}
	// Only what is on the table is drawn; a huge outline would take the
	// rasteriser a long time to walk.
	ps = clipRect(ps, b.table)
	if len(ps) < 3 {
		return
	}
	polygon(path, ps)
	fillIn(fillC)
	switch kind {
	case engine.Rough:
		stripes(path, ps, origin, 45, 7*k, 1.6*k)
		fillIn(roughHatch)
	case engine.Stream:
		stripes(path, ps, origin, 0, 6*k, 1.8*k)
		fillIn(streamHatch)
	case engine.Dark:
		// Crossed stripes, so that it differs from rough ground in more
		// than its darkness.
		stripes(path, ps, origin, 45, 6*k, 1.4*k)
		fillIn(darkHatch)
		stripes(path, ps, origin, -45, 6*k, 1.4*k)
		fillIn(darkHatch)
	case engine.Protected:
		// On an open table, a row of trees at a time: a large wood at
		// a close scale has thousands, and gg would hold them all as
		// one path (and a copy of it) and the rasteriser's cells for
		// all of them. The trees are apart, no pixel touched by two,
		// so each pixel is blended once, by the same cover, either
		// way. A grid's cell holds a few, filled at once: each fill
		// scans gg's rasteriser over the whole picture's height.
		dc.SetColor(coverTree)
		r := bounds(ps...)
		sp := 11 * k
		j0 := math.Floor((r.y0 - origin.y) / sp)
		for j := j0; origin.y+j*sp < r.y1; j++ {
			y := origin.y + j*sp + sp/2
			off := 0.0
			if math.Mod(j, 2) != 0 {
				off = sp / 2
			}
			for x := origin.x + off + math.Floor((r.x0-origin.x-off)/sp)*sp; x < r.x1; x += sp {
				if inside(ps, pt{x, y}) {
					dc.DrawCircle(x, y, 2.4*k)
				}
			}
			if fl == nil {
				dc.Fill()
			}
		}
		if fl != nil {
			dc.Fill()
		}
	}
	dc.SetColor(edge)
	dc.SetLineWidth(1.6 * k)
	if kind == engine.Stream || kind == engine.Protected {
		dc.SetLineWidth(2 * k)
	}
	polygon(dc, ps)
	dc.Stroke()
}

// cellCovered reports whether the cell (c, r) belongs to terrain drawn
// with outline o on a grid: its centre lies inside o or on its edge, or
// o is a single cell or a line of cells through it.
func cellCovered(o []engine.Vec, c, r int) bool {
	p := engine.Vec{X: float64(c), Y: float64(r)}
	const eps = 1e-6
	for i := range o {
		a, b := o[i], o[(i+1)%len(o)]
		if len(o) == 1 {
			return p.Dist(a) < eps
		}
		d := b.Sub(a)
		l2 := d.Dot(d)
		t := 0.0
		if l2 > 0 {
			t = math.Max(0, math.Min(1, p.Sub(a).Dot(d)/l2))
		}
		if p.Dist(a.Add(d.Scale(t))) < eps {
			return true
		}
	}
	if len(o) < 3 {
		return false
	}
	ps := make([]pt, len(o))
	for i, q := range o {
		ps[i] = pt{q.X, q.Y}
	}
	return inside(ps, pt{p.X, p.Y})
}

// cellZone reports whether cell (c, r) is in the zone: zones on grids
// run from the cell Min to the cell Max, both included.
func cellZone(z engine.Zone, c, r int) bool {
	x0, x1 := math.Round(math.Min(z.Min.X, z.Max.X)), math.Round(math.Max(z.Min.X, z.Max.X))
	y0, y1 := math.Round(math.Min(z.Min.Y, z.Max.Y)), math.Round(math.Max(z.Min.Y, z.Max.Y))
	fc, fr := float64(c), float64(r)
	return fc >= x0 && fc <= x1 && fr >= y0 && fr <= y1
}

func squareCell(b *board, c, r int) []pt {
	p := b.fromWorld(engine.SquareCenter(engine.Square{Col: c, Row: r}, b.scale))
	h := b.scale / 2
	return []pt{{p.x - h, p.y - h}, {p.x + h, p.y - h}, {p.x + h, p.y + h}, {p.x - h, p.y + h}}
}

func hexCell(b *board, c, r int) []pt {
	cs := engine.HexCorners(engine.HexFromOffset(c, r), b.scale)
	out := make([]pt, 6)
	for i, v := range cs {
		out[i] = b.fromWorld(v)
	}
	return out
}

// gridCells calls f for each cell of a grid board, with its outline.
func gridCells(b *board, f func(c, r int, ps []pt)) {
	for c := 0; c < b.cols; c++ {
		for r := 0; r < b.rows; r++ {
			if b.kind == engine.HexGrid {
				f(b.c0+c, b.r0+r, hexCell(b, b.c0+c, b.r0+r))
			} else {
				f(int(b.wx)+c, int(b.wy)+r, squareCell(b, int(b.wx)+c, int(b.wy)+r))
			}
		}
	}
}

// drawGridCells draws the zones and terrain of a grid, cell by cell.
// A cell is small, so its fills go through a filler: gg would clear and
// scan a rasteriser as tall as the picture for each.
func drawGridCells(dc *gg.Context, img *image.RGBA, k float64, v *engine.View, b *board, base color.Color) {
	drawGridCellsWhere(dc, img, k, v, b, base, func(int, int) bool { return true })
}

// drawGridCellsWhere draws the cells of the grid for which which is true.
func drawGridCellsWhere(dc *gg.Context, img *image.RGBA, k float64, v *engine.View, b *board, base color.Color, which func(c, r int) bool) {
	fl := newFiller()
	rows := img.Rect
	gridCells(b, func(c, r int, ps []pt) {
		// A cell wholly above or below the rows drawn (a band of a
		// ground) is left out.
		if bb := bounds(ps...); !which(c, r) || bb.y1 < float64(rows.Min.Y)-2 || bb.y0 > float64(rows.Max.Y)+2 {
			return
		}
		col := base
		for _, z := range v.Zones {
			if cellZone(z, c, r) {
				col = zoneFill[sideOf(z.Side)]
			}
		}
		polygon(fl, ps)
		fl.fill(dc, img, col)
		for _, tr := range v.Terrain {
			if cellCovered(tr.Outline, c, r) {
				drawTerrain(dc, fl, img, k, tr.Kind, ps, b)
			}
		}
	})
}

// gridTerrainAt is the middle of the cells a terrain covers in the part
// of the grid shown; false when it covers none of them.
func gridTerrainAt(b *board) func(engine.Terrain) (pt, bool) {
	return func(tr engine.Terrain) (pt, bool) {
		var m pt
		n := 0
		gridCells(b, func(c, r int, _ []pt) {
			if cellCovered(tr.Outline, c, r) {
				p := b.px(engine.Vec{X: float64(c), Y: float64(r)})
				m.x += p.x
				m.y += p.y
				n++
			}
		})
		if n == 0 {
			return pt{}, false
		}
		return pt{m.x / float64(n), m.y / float64(n)}, true
	}
}

func drawSquareGround(dc *gg.Context, img *image.RGBA, fs *faces, k float64, v *engine.View, b *board, base color.Color) {
	t := b.table
	drawGridCells(dc, img, k, v, b, base)
	for c := 1; c < b.cols; c++ {
		x := t.x0 + float64(c)*b.scale
		straight(img, x, t.y0, x, t.y1, 1*k, gridDark)
	}
	for r := 1; r < b.rows; r++ {
		y := t.y0 + float64(r)*b.scale
		straight(img, t.x0, y, t.x1, y, 1*k, gridDark)
	}
}

func drawSquareMarkings(dc *gg.Context, img *image.RGBA, fs *faces, k float64, v *engine.View, b *board) {
	t := b.table
	for _, z := range v.Zones {
		r, found := gridZone(b, z)
		if !found {
			continue
		}
		dc.SetColor(zoneBorder[sideOf(z.Side)])
		dc.SetLineWidth(2 * k)
		dc.SetDash(6*k, 4*k)
		dc.DrawRectangle(r.x0+1*k, r.y0+1*k, r.w()-2*k, r.h()-2*k)
		dc.Stroke()
		dc.SetDash()
	}
	dc.SetColor(tableEdge)
	dc.SetLineWidth(2 * k)
	dc.DrawRectangle(t.x0, t.y0, t.w(), t.h())
	dc.Stroke()
	drawSpots(img, staticLabels(fs, k, v, b))
	// Column letters and row numbers, as players name squares.
	for c := 0; c < b.cols; c++ {
		s := engine.ColumnLetters(int(b.wx) + c)
		x := t.x0 + (float64(c)+0.5)*b.scale
		lx, ly := anchor(fs.ruler, s, x, t.y1+5*k, 0.5, 0)
		drawText(img, fs.ruler, s, lx, ly, rulerInk)
		lx, ly = anchor(fs.ruler, s, x, t.y0-5*k, 0.5, 1)
		drawText(img, fs.ruler, s, lx, ly, rulerInk)
	}
	for r := 0; r < b.rows; r++ {
		s := strconv.Itoa(int(b.wy) + r + 1)
		y := t.y1 - (float64(r)+0.5)*b.scale
		lx, ly := anchor(fs.ruler, s, t.x0-6*k, y, 1, 0.5)
		drawText(img, fs.ruler, s, lx, ly, rulerInk)
		lx, ly = anchor(fs.ruler, s, t.x1+6*k, y, 0, 0.5)
		drawText(img, fs.ruler, s, lx, ly, rulerInk)
	}
}

func drawHexGround(dc *gg.Context, img *image.RGBA, fs *faces, k float64, v *engine.View, b *board, base color.Color) {
	drawGridCells(dc, img, k, v, b, base)
	dc.SetColor(gridDark)
	dc.SetLineWidth(1.2 * k)
	gridCells(b, func(c, r int, ps []pt) {
		polygon(dc, ps)
		dc.Stroke()
	})
	for _, sp := range hexNumbers(fs, b) {
		drawText(img, sp.f, sp.s, sp.x, sp.y, sp.c)
	}
}

// hexNumbers places each hex's number, as printed maps have it, near its
// top edge (none when the hexes are too small to hold them). Pieces'
// labels keep clear of them, as of terrain's names.
func hexNumbers(fs *faces, b *board) []spot {
	if b.kind != engine.HexGrid {
		return nil
	}
	var out []spot
	gridCells(b, func(c, r int, ps []pt) {
		s := engine.HexFromOffset(c, r).String()
		if fs.small.width(s) > 1.3*b.scale {
			return
		}
		p := b.px(engine.Vec{X: float64(c), Y: float64(r)})
		out = append(out, spotAt(fs.small, s, p.x, p.y-0.84*b.scale, 0.5, 0, hexLabel))
	})
	return out
}

// openZone is the rectangle of zone z on the open table, cut to the
// table's edges.
func openZone(b *board, z engine.Zone) rect {
	x0, y0, x1, y1 := b.wx, b.wy, b.wx+b.w, b.wy+b.d
	lo := b.px(engine.Vec{X: math.Max(x0, math.Min(z.Min.X, z.Max.X)), Y: math.Min(y1, math.Max(z.Min.Y, z.Max.Y))})
	hi := b.px(engine.Vec{X: math.Min(x1, math.Max(z.Min.X, z.Max.X)), Y: math.Max(y0, math.Min(z.Min.Y, z.Max.Y))})
	return rect{lo.x, lo.y, hi.x, hi.y}
}

// spot is a piece of text placed on the static layer.
type spot struct {
	s    string
	f    *face
	x, y float64 // baseline origin
	c    color.RGBA
	box  rect
}

func spotAt(f *face, s string, x, y, ax, ay float64, c color.RGBA) spot {
	bx, by := anchor(f, s, x, y, ax, ay)
	return spot{s: s, f: f, x: bx, y: by, c: c, box: rect{bx - 1, by - f.ascent - 1, bx + f.width(s) + 1, by + f.descent + 1}}
}

func drawSpots(img *image.RGBA, ss []spot) {
	for _, sp := range ss {
		drawHalo(img, sp.f, sp.s, sp.x, sp.y, sp.c, white)
	}
}

// staticLabels places the labels of terrain and zones: a terrain's in
// its middle (on an open table, by an edge inside it when pieces stand
// over the middle), a zone's inside it by the edge nearer the table's
// middle. Pieces' labels keep clear of them.
func staticLabels(fs *faces, k float64, v *engine.View, b *board) []spot {
	var out []spot
	var pieces []rect // on an open table, where the pieces stand
	if b.kind == engine.OpenTable {
		for _, p := range v.Pieces {
			var cs []pt
			for _, c := range p.Base.Corners() {
				cs = append(cs, b.px(c))
			}
			pieces = append(pieces, bounds(cs...))
		}
	}
	for _, tr := range v.Terrain {
		if tr.Label == "" || len(tr.Outline) == 0 {
			continue
		}
		if b.kind == engine.OpenTable {
			if sp, ok := openTerrainLabel(fs, k, b, tr, pieces); ok {
				out = append(out, sp)
			}
			continue
		}
		c, ok := gridTerrainAt(b)(tr)
		if !ok {
			continue
		}
		out = append(out, spotAt(fs.small, clip(tr.Label), c.x, c.y, 0.5, 0.5, ink))
	}
	for _, z := range v.Zones {
		if z.Label == "" {
			continue
		}
		var r rect
		if b.kind == engine.OpenTable {
			r = openZone(b, z)
			if r.w() <= 0 || r.h() <= 0 {
				continue
			}
		} else {
			var found bool
			if r, found = gridZone(b, z); !found {
				continue
			}
		}
		c := zoneText[sideOf(z.Side)]
		pad := 5 * k
		if (r.y0+r.y1)/2 > (b.table.y0+b.table.y1)/2 {
			out = append(out, spotAt(fs.small, clip(z.Label), r.x0+pad, r.y0+pad, 0, 0, c))
		} else {
			out = append(out, spotAt(fs.small, clip(z.Label), r.x0+pad, r.y1-pad, 0, 1, c))
		}
	}
	return out
}

// openTerrainLabel places the label of a feature of an open table: in the
// middle of the part of it the picture shows, or, for a feature too thin
// to hold it (a wall, a hedge), beside it rather than on its line; moved
// wholly inside the picture's table so that no letter is cut. A feature
// out of the picture, or one whose area only touches its edge, has no
// label.
func openTerrainLabel(fs *faces, k float64, b *board, tr engine.Terrain, pieces []rect) (spot, bool) {
	ps := make([]pt, len(tr.Outline))
	for i, p := range tr.Outline {
		ps[i] = b.px(p)
	}
	bb := bounds(ps...)
	vis := rect{max(bb.x0, b.table.x0), max(bb.y0, b.table.y0), min(bb.x1, b.table.x1), min(bb.y1, b.table.y1)}
	if vis.w() < 0 || vis.h() < 0 || vis.w() == 0 && bb.w() > 0 || vis.h() == 0 && bb.h() > 0 {
		// Out of the picture, or an area that only touches its edge.
		return spot{}, false
	}
	text := clip(tr.Label)
	f := fs.small
	var sp spot
	thin := f.height() + 2*k
	switch {
	case vis.h() < thin && vis.w() >= vis.h():
		// Along a feature that runs across: above its line.
		sp = spotAt(f, text, (vis.x0+vis.x1)/2, vis.y0-3*k, 0.5, 1, ink)
		if sp.box.y0 < b.table.y0 {
			sp = spotAt(f, text, (vis.x0+vis.x1)/2, vis.y1+3*k, 0.5, 0, ink)
		}
	case vis.w() < thin:
		// Beside a feature that runs up and down: to its right.
		sp = spotAt(f, text, vis.x1+3*k, (vis.y0+vis.y1)/2, 0, 0.5, ink)
		if sp.box.x1 > b.table.x1 {
			sp = spotAt(f, text, vis.x0-3*k, (vis.y0+vis.y1)/2, 1, 0.5, ink)
		}
	default:
		c := pt{(vis.x0 + vis.x1) / 2, (vis.y0 + vis.y1) / 2}
		if len(ps) > 2 && vis == bb {
			c = centroid(ps)
		}
		// In the middle, or else by the top or bottom edge, inside or
		// just outside, wherever the fewest pieces stand over it.
		pad := 3 * k
		cands := []spot{
			spotAt(f, text, c.x, c.y, 0.5, 0.5, ink),
			spotAt(f, text, c.x, vis.y0+pad, 0.5, 0, ink),
			spotAt(f, text, c.x, vis.y1-pad, 0.5, 1, ink),
			spotAt(f, text, c.x, vis.y0-pad, 0.5, 1, ink),
			spotAt(f, text, c.x, vis.y1+pad, 0.5, 0, ink),
		}
		best := -1.0
		for _, cand := range cands {
			covered := 0.0
			for _, r := range pieces {
				covered += cand.box.overlap(r)
			}
			if best < 0 || covered < best {
				sp, best = cand, covered
			}
		}
	}
	// Inside the table, by as little as it takes.
	pad := 2 * k
	dx := max(0, b.table.x0+pad-sp.box.x0) - max(0, sp.box.x1-(b.table.x1-pad))
	dy := max(0, b.table.y0+pad-sp.box.y0) - max(0, sp.box.y1-(b.table.y1-pad))
	sp.x, sp.y = sp.x+dx, sp.y+dy
	sp.box = rect{sp.box.x0 + dx, sp.box.y0 + dy, sp.box.x1 + dx, sp.box.y1 + dy}
	return sp, true
}

// gridZone is the rectangle around the cells of zone z on a grid board,
// and whether it has any.
func gridZone(b *board, z engine.Zone) (r rect, found bool) {
	gridCells(b, func(c, rr int, ps []pt) {
		if !cellZone(z, c, rr) {
			return
		}
		if found {
			r = r.union(bounds(ps...))
		} else {
			r = bounds(ps...)
		}
		found = true
	})
	return r, found
}
