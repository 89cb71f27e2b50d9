package render

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"image"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/fogleman/gg"
	"github.com/rhapsode/rhapsode/engine"
)

// DefaultWidth is the width of a picture, in pixels, when Options leaves
// it out: wide enough for a 72-stride table at 16 pixels a stride, and
// small enough to load quickly on a phone.
const DefaultWidth = 1280

// Options configure a Renderer.
type Options struct {
	// Width is the picture's width in pixels: DefaultWidth when zero,
	// and at least 480 and at most 4096. The height follows from the
	// board's shape. Text and lines scale with the width.
	Width int
	// SeenAt, when set, is the width in pixels at which players will
	// see the picture: a chat app shows a picture smaller than it is
	// drawn (Discord's preview is about PreviewWidth wide). Text, lines
	// and marks are then sized to read at that width.
	SeenAt int
}

// PreviewWidth is about the width at which Discord shows a picture in
// the channel before it is opened.
const PreviewWidth = 520

// seenScale is how much larger than at DefaultWidth text must be drawn,
// relative to the picture, to read as well at SeenAt pixels wide: a
// 1280-pixel picture's 14-pixel labels stay legible down to about 1150.
func seenScale(width, seenAt int) float64 {
	if seenAt <= 0 || seenAt >= 1150 {
		return 1
	}
	return 1150 / float64(seenAt)
}

// Renderer draws board pictures. It is safe for concurrent use: each
// picture has its own drawing context and font faces, and what is shared
// (the cache of static layers, pools of buffers) is locked.
type Renderer struct {
	width int
	k     float64
	faces *faces
	// grounds caches the ground of whole tables, by table and scale
	// (static.go); static the board without pieces, by table and frame,
	// cut from its ground with the frame's markings drawn over it (up
	// to 8 MB of each: many channels at once each show a few frames of
	// their own); legends, the legends below it.
	grounds layerCache[groundKey]
	static  layerCache[staticKey]
	legends layerCache[string]
	pins    *pinTable
	// palettes holds the palettes of the tables last shown.
	palettes cache[paletteKey, *tablePalette]
	sprites  *sprites
	frames   spares[*canvas]
	outs     spares[*bytes.Buffer]
	pals     spares[*image.Paletted]
	png      *pngEncoder
	// slots bounds the pictures being painted, quantised and encoded at
	// once (draw): each uses every core and holds picture-sized buffers.
	slots chan struct{}
	// laidOut, when set (by tests), sees each scene once its labels and
	// plates are placed.
	laidOut func(*scene)
	// copyAll, when set (by tests), copies every row of the static layer
	// and the legend onto the picture, as if all were painted over.
	copyAll bool
	// staticDraws counts the grounds drawn for the cache, for the
	// benchmarks to say how often a picture had to draw one.
	staticDraws atomic.Int64
}

// New returns a Renderer drawing pictures as opts says.
func New(opts Options) *Renderer {
	w := opts.Width
	if w == 0 {
		w = DefaultWidth
	}
	w = max(480, min(w, 4096))
	f, err := parseFonts()
	if err != nil {
		// The fonts are compiled in; failing to parse them is a broken
		// build, not a condition to handle.
		panic(err)
	}
	r := &Renderer{
		width:    w,
		k:        float64(w) / DefaultWidth * seenScale(w, opts.SeenAt),
		grounds:  newLayerCache[groundKey](16, 8<<20),
		static:   newLayerCache[staticKey](64, 8<<20),
		legends:  newLayerCache[string](16, 0),
		pins:     newPinTable(pinned()),
		palettes: cache[paletteKey, *tablePalette]{max: 16},
	}
	r.sprites = newSprites(r.k)
	// A picture paints, quantises and encodes on every core (a band of
	// rows a core, up to maxBands), so a machine paints one picture at
	// a time for each maxBands cores it has; as many may be laid out at
	// once as there are cores. Buffers are kept for each, and beyond
	// that made and dropped.
	procs := runtime.GOMAXPROCS(0)
	slots := max(1, procs/maxBands)
	r.slots = make(chan struct{}, slots)
	r.faces = newFaces(f, r.k)
	r.png = newPNGEncoder(pieceBudget, slots)
	r.frames = newSpares[*canvas](slots)
	r.outs = newSpares[*bytes.Buffer](slots)
	r.pals = newSpares[*image.Paletted](slots)
	return r
}

// Width returns the width of the pictures r draws, in pixels.
func (r *Renderer) Width() int { return r.width }

// PNG draws v and returns it as a PNG file. It fails (with an error
// wrapping ErrBadView) only for a view with no board to draw: a table
// without a size, or a grid too large to number.
func (r *Renderer) PNG(v engine.View) ([]byte, error) {
	c, err := r.draw(&v, true)
	if err != nil {
		return nil, err
	}
	defer r.done(c)
	w, h := c.img.Rect.Dx(), c.img.Rect.Dy()
	pal, _ := r.pals.get()
	if pal == nil || cap(pal.Pix) < w*h {
		pal = &image.Paletted{Pix: make([]uint8, w*h)}
	}
	pal.Pix, pal.Stride, pal.Rect, pal.Palette = pal.Pix[:w*h], w, image.Rect(0, 0, w, h), c.pal.colors
	defer r.pals.put(pal)
	buf, ok := r.outs.get()
	if !ok {
		buf = new(bytes.Buffer)
	}
	defer r.outs.put(buf)
	buf.Reset()
	r.png.encode(buf, pal, canvasRows{c, pal})
	return bytes.Clone(buf.Bytes()), nil
}

// draw draws v. With cached, as PNG does, the static layer comes from
// (and goes to) the cache and the canvas is a spare one; without,
// everything is made and drawn afresh, as a plain gg programme would.
// Either way the picture holds one of the renderer's painting slots
// until the caller hands it to done. A cached picture's canvas holds its
// table's palette (palette.go).
//
// A picture is laid out (its pieces shaped, its labels placed) before it
// takes a slot and a canvas: the picture-sized buffers are held only
// while the pixels are painted, quantised and encoded, and that work
// uses every core by itself.
func (r *Renderer) draw(v *engine.View, cached bool) (*canvas, error) {
	fs := r.faces
	k, W := r.k, r.width
	v, b, areaH, st, lg, err := r.frame(v)
	if err != nil {
		return nil, err
	}
	hd := layoutHeader(fs, k, W, v, &b)
	headerH := hd.height
	H := headerH + areaH + lg.height
	s := &scene{
		fs: fs, k: k, v: v, st: st, sprites: r.sprites, w: W, h: H,
		b:    b.shifted(float64(headerH)),
		area: rect{0, float64(headerH), float64(W), float64(headerH + areaH)},
	}
	s.shapePieces()
	s.shapeTokens()
	s.fillSpace(append(staticLabels(fs, k, v, &s.b), hexNumbers(fs, &s.b)...))
	s.placePlates()
	s.placeLabels()
	if r.laidOut != nil {
		r.laidOut(s)
	}

	r.slots <- struct{}{}
	key := keyOf(v, &b)
	var pal *tablePalette
	if cached {
		// A frame not cut before, or a table's first palette, needs
		// the table's ground: got before this picture takes a canvas
		// (see ground).
		if !r.static.has(key) {
			r.ground(v, &b)
		}
		pal = r.palettes.get(paletteKeyOf(v, &b, st), func() *tablePalette {
			ground, _, _ := r.ground(v, &b)
			return newTablePalette(ground, st, r.pins)
		})
	}
	var c *canvas
	if cached {
		c = r.canvas(W, H)
	} else {
		c = newCanvas(image.NewRGBA(image.Rect(0, 0, W, H)), nil)
	}
	frame := c.img
	c.reset(0)
	fill(frame, image.Rect(0, 0, W, headerH), white)
	if cached {
		c.reset(H)
		s.canvas = c
	} else {
		fill(frame, image.Rect(0, headerH+areaH, W, H), white)
	}
	// Each band copies its rows of the cached static layer first.
	under := func(y0, y1 int) {}
	if cached {
		// A frame not drawn before is drawn straight onto this
		// picture's board, and kept from there.
		drawn := false
		c.pal = pal
		layer := r.static.get(key, func() *image.RGBA {
			ground, dx, dy := r.ground(v, &b)
			img := &image.RGBA{Pix: frame.Pix[frame.PixOffset(0, headerH):], Stride: frame.Stride, Rect: image.Rect(0, 0, W, areaH)}
			fill(img, img.Rect, white)
			cutGround(img, ground, fs, k, v, &b, dx, dy)
			drawMarkings(img, fs, k, v, &b, v.Kind != engine.OpenTable)
			drawn = true
			return img
		})
		if !drawn {
			// Rows are copied from the layer only where something is
			// painted over them (canvas.touch).
			c.shows(layer, headerH, areaH)
			if r.copyAll {
				c.touchRows(frame, headerH, headerH+areaH)
			}
		}
		if v.Kind == engine.OpenTable && len(v.Terrain) > 0 {
			// Terrain names step aside from the pieces: each picture
			// draws its own, over the layer's rows of each band.
			names := staticLabels(fs, k, v, &s.b)
			under = func(y0, y1 int) {
				for _, sp := range names {
					a, b := max(y0, int(sp.box.y0-12*k)), min(y1, int(sp.box.y1+12*k)+1)
					c.touch(frame, a, b, int(sp.box.x0-12*k), int(sp.box.x1+12*k)+1)
				}
				drawSpots(frame.SubImage(image.Rect(0, y0, W, y1)).(*image.RGBA), names)
			}
		}
	} else {
		sb := b.shifted(float64(headerH))
		drawStatic(frame, image.Rect(0, headerH, W, headerH+areaH), fs, k, v, &sb)
	}
	legend := func() { lg.draw(c, fs, k, v, st, float64(headerH+areaH)) }
	if cached {
		legend = func() {
			// The legend is the kept one's rows as they are, over
			// anything that reached them: it is not copied onto the
			// picture.
			l := keptLegend(&r.legends, lg, frame.Rect.Dx(), func(c *canvas) { lg.draw(c, fs, k, v, st, 0) })
			c.shows(l, headerH+areaH, lg.height)
			for y := headerH + areaH; y < H; y++ {
				c.touched[y] = false
			}
			if r.copyAll {
				c.touchRows(frame, headerH+areaH, H)
			}
		}
	}
	cuts := bandCuts(H, headerH, headerH+areaH)
	s.paint(c, cuts, under, func() { drawHeader(frame, fs, k, hd) }, legend)
	return c, nil
}

// ground returns the ground of v's whole table at b's scale (groundOf),
// and how far it is moved from b's picture, drawing it when it is not
// kept. While a ground is drawn it holds a band of it as large as a
// picture, and the gg paths and masks of its terrain: the spare
// canvases and palette images are let go first, so that the heap does
// not hold both (the collector lets the heap grow to twice what it
// finds live, so what is live while a ground is drawn counts double).
func (r *Renderer) ground(v *engine.View, b *board) (l *runLayer, dx, dy int) {
	g, w, h, dx, dy := groundOf(b)
	l = r.grounds.getRuns(groundKeyOf(v, b), func() *runLayer {
		r.staticDraws.Add(1)
		r.frames.drop()
		r.pals.drop()
		return drawGroundLayer(r.faces, r.k, v, g, w, h)
	})
	return l, dx, dy
}

// frame lays v out as draw does: the part of the table it shows, the
// board's place, its height, the groups' styles and the legend.
func (r *Renderer) frame(v *engine.View) (*engine.View, board, int, []groupStyle, *legend, error) {
	b, areaH, err := newBoard(v, r.width, r.k)
	if err != nil {
		return nil, board{}, 0, nil, nil, err
	}
	switch v.Kind {
	case engine.OpenTable:
		v = framed(v, window{b.wx, b.wy, b.wx + b.w, b.wy + b.d})
	case engine.SquareGrid:
		if b.cols < int(math.Round(v.Width)) || b.rows < int(math.Round(v.Depth)) {
			v = gridFramed(v, int(b.wx), int(b.wy), int(b.wx)+b.cols-1, int(b.wy)+b.rows-1)
		}
	case engine.HexGrid:
		if b.cols < int(math.Round(v.Width)) || b.rows < int(math.Round(v.Depth)) {
			v = gridFramed(v, b.c0, b.r0, b.c0+b.cols-1, b.r0+b.rows-1)
		}
	}
	st := groupStyles(v)
	return v, b, areaH, st, newLegend(v, st, r.faces, r.k, r.width), nil
}

// Size returns the size in pixels of the picture PNG would draw of v,
// without drawing it: what a page needs to keep the picture's room.
func (r *Renderer) Size(v engine.View) (width, height int, err error) {
	fv, b, areaH, _, lg, err := r.frame(&v)
	if err != nil {
		return 0, 0, err
	}
	return r.width, layoutHeader(r.faces, r.k, r.width, fv, &b).height + areaH + lg.height, nil
}

// done takes back a canvas draw gave and frees its painting slot.
func (r *Renderer) done(c *canvas) {
	r.frames.put(c)
	<-r.slots
}

// canvas is a picture and its gg context, kept together for reuse: the
// context keeps the buffers its rasteriser and paths grew.
type canvas struct {
	img *image.RGBA
	dc  *gg.Context
	fl  *filler
	// band holds the bands the picture was last painted in (bands.go).
	band []band
	// from says, for each row of the picture, the row of a cached layer
	// (the board's static layer, the legend) it shows, if any; touched,
	// which of those rows the pieces, marks and labels may paint over.
	// Only those are copied onto the picture (touch); the others are
	// the layer's rows as they are (kept), and the palette's mapping
	// reads them from the layer's runs.
	from    []layerRow
	touched []bool
	// span says, for each touched row, the columns x0 to x1 that may be
	// painted over: outside them, the row is still its layer's.
	span [][2]int32
	// pal is the palette of the picture's table (palette.go).
	pal *tablePalette
}

// layerRow is row y of layer l.
type layerRow struct {
	l *runLayer
	y int
}

// reset makes c's notes of its rows ready for a picture h rows tall,
// none copied from a layer.
func (c *canvas) reset(h int) {
	if cap(c.from) < h {
		c.from, c.touched, c.span = make([]layerRow, h), make([]bool, h), make([][2]int32, h)
	}
	c.from, c.touched, c.span = c.from[:h], c.touched[:h], c.span[:h]
	clear(c.from)
	clear(c.touched)
}

// shows notes that rows top to top+n of the picture are rows 0 to n of
// layer l, not yet copied onto it.
func (c *canvas) shows(l *runLayer, top, n int) {
	for y := range min(n, l.h) {
		c.from[top+y] = layerRow{l, y}
	}
}

// touch copies rows y0 to y1 of the picture from their layers onto img,
// where not done before, to be painted over between columns x0 and x1.
func (c *canvas) touch(img *image.RGBA, y0, y1, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, img.Rect.Dx())
	for y := y0; y < y1; y++ {
		if c.touched[y] {
			c.span[y] = [2]int32{min(c.span[y][0], int32(x0)), max(c.span[y][1], int32(x1))}
			continue
		}
		c.touched[y] = true
		c.span[y] = [2]int32{int32(x0), int32(x1)}
		if f := c.from[y]; f.l != nil {
			f.l.copyRows(img, y-f.y, f.y, f.y+1)
		}
	}
}

// touchRows is touch across the whole width.
func (c *canvas) touchRows(img *image.RGBA, y0, y1 int) {
	c.touch(img, y0, y1, 0, img.Rect.Dx())
}

// rowOf says where row y of the picture comes from (rowSource).
func (c *canvas) rowOf(y int) rowSource {
	if y >= len(c.from) || c.from[y].l == nil {
		return rowSource{}
	}
	s := rowSource{l: c.from[y].l, ly: c.from[y].y}
	if c.touched[y] {
		s.x0, s.x1 = int(c.span[y][0]), int(c.span[y][1])
	}
	return s
}

// canvasRows are the rows of a canvas's picture as its palette's indices
// in dst (pictureRows). A piece of them is named by the palette and a
// hash of each row's pixels: a row that shows its layer's row unchanged
// by the hash its layer keeps of it, without reading the row, and a row
// painted over by its pixels (which are all there: the row was copied
// from its layer before it was painted).
type canvasRows struct {
	c   *canvas
	dst *image.Paletted
}

func (cr canvasRows) write(y0, y1 int) {
	cr.c.pal.mapRows(cr.c.img, cr.c.rowOf, cr.dst, y0, y1)
}

func (cr canvasRows) name(h *maphash.Hash, y0, y1 int) {
	var word [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(word[:], v)
		h.Write(word[:])
	}
	img, seed := cr.c.img, h.Seed()
	w := cr.dst.Rect.Dx()
	put(cr.c.pal.id)
	for y := y0; y < y1; y++ {
		if src := cr.c.rowOf(y); src.l != nil && src.x0 == src.x1 {
			put(src.l.rowHash(seed, src.ly))
		} else {
			put(maphash.Bytes(seed, img.Pix[y*img.Stride:][:4*w]))
		}
	}
}

// rowSource is where a row of a picture comes from: with l nil, its
// pixels alone; otherwise row ly of layer l, but for columns x0 to x1,
// which are the picture's pixels (none when x0 == x1).
type rowSource struct {
	l      *runLayer
	ly     int
	x0, x1 int
}

// newCanvas makes a canvas of img, with fl as its filler (a new one when
// nil).
func newCanvas(img *image.RGBA, fl *filler) *canvas {
	dc := gg.NewContextForRGBA(img)
	dc.Push() // the context's first state, for the next picture
	if fl == nil {
		fl = newFiller()
	}
	return &canvas{img: img, dc: dc, fl: fl}
}

// canvas returns a spare w by h canvas, or a new one. Its pixels are not
// cleared (drawing covers every one), and its context is as new.
func (r *Renderer) canvas(w, h int) *canvas {
	c, ok := r.frames.get()
	if ok && c.img.Rect.Dx() == w && c.img.Rect.Dy() == h {
		c.dc.Pop()
		c.dc.Push()
		return c
	}
	n := 4 * w * h
	if !ok || cap(c.img.Pix) < n {
		// Room for a little more, so that a taller picture next time
		// does not allocate again.
		var fl *filler
		if ok {
			fl = c.fl
		}
		return newCanvas(&image.RGBA{Pix: make([]uint8, n, n+n/8), Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}, fl)
	}
	return newCanvas(&image.RGBA{Pix: c.img.Pix[:n], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}, c.fl)
}
