package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// fonts holds the parsed Go fonts, which are embedded in the binary: a
// picture never depends on the fonts of the machine drawing it.
type fonts struct {
	regular, bold *truetype.Font
}

func parseFonts() (fonts, error) {
	r, err := truetype.Parse(goregular.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("render: parse Go Regular: %w", err)
	}
	b, err := truetype.Parse(gobold.TTF)
	if err != nil {
		return fonts{}, fmt.Errorf("render: parse Go Bold: %w", err)
	}
	return fonts{regular: r, bold: b}, nil
}

// face is one font at one size, with its own caches. Every picture a
// renderer draws, and every band of it, shares one set of faces, so the
// caches and the font face behind them are locked.
type face struct {
	mu      sync.Mutex
	f       font.Face
	ascent  float64
	descent float64
	adv     map[rune]fixed.Int26_6
	// masks caches each string drawn, as coverage masks: labels recur
	// from picture to picture.
	masks map[string]*textMask
	// halos caches each string drawn over a halo, painted and ready to
	// copy, by string and colours.
	halos map[haloKey]*haloText
	// seen, when set (by tests), is told of each string drawn with this
	// face, its ink and what it is drawn on.
	seen func(drawnText)
}

// drawnText is a string as it was drawn: its ink, and the colour under
// its letters: the halo's, for a string drawn over one, else the colour
// most of the pixels under its letters had before it was drawn.
type drawnText struct {
	text       string
	ink, under color.RGBA
}

// commonest returns the colour most of dst's pixels under mask (at (x,
// y), where the mask covers at least half a pixel) have, and whether
// any is under it.
func commonest(dst *image.RGBA, mask *image.Alpha, x, y int) (color.RGBA, bool) {
	n := map[color.RGBA]int{}
	for my := 0; my < mask.Rect.Dy(); my++ {
		for mx := 0; mx < mask.Rect.Dx(); mx++ {
			p := image.Pt(x+mx, y+my)
			if mask.Pix[my*mask.Stride+mx] < 0x80 || !p.In(dst.Rect) {
				continue
			}
			i := dst.PixOffset(p.X, p.Y)
			n[color.RGBA{dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3]}]++
		}
	}
	var best color.RGBA
	most := 0
	for c, k := range n {
		if k > most || k == most && int(c.R)+int(c.G)+int(c.B) < int(best.R)+int(best.G)+int(best.B) {
			best, most = c, k
		}
	}
	return best, most > 0
}

// textMask is a string's coverage, and its halo's, at a whole-pixel
// position: (x0, y0) is the masks' top left from the baseline origin.
// The halo is made the first time it is asked for (haloOf): a string
// drawn without one (the header's) need not pay for it.
type textMask struct {
	text, halo *image.Alpha
	x0, y0     int
}

// maxMasks bounds a face's cache of strings.
const maxMasks = 4096

func newFace(f *truetype.Font, size float64) *face {
	ff := truetype.NewFace(f, &truetype.Options{
		Size: size,
		// No hinting: hinting re-runs the font's programme on every
		// measure and is not needed at these sizes.
		Hinting:    font.HintingNone,
		SubPixelsX: 4,
		// Strings are cached whole (masks, below), so glyphs are
		// rasterised only for a string not seen before: a small glyph
		// cache does, where the default one holds half a megabyte of
		// masks a face.
		GlyphCacheEntries: 64,
	})
	m := ff.Metrics()
	return &face{
		f:       ff,
		ascent:  float64(m.Ascent) / 64,
		descent: float64(m.Descent) / 64,
		adv:     make(map[rune]fixed.Int26_6, 64),
		masks:   make(map[string]*textMask, 256),
		halos:   make(map[haloKey]*haloText, 256),
	}
}

func (f *face) height() float64 { return f.ascent + f.descent }

// advance is r's advance width; the caller holds f.mu.
func (f *face) advance(r rune) fixed.Int26_6 {
	if a, ok := f.adv[r]; ok {
		return a
	}
	a, _ := f.f.GlyphAdvance(r)
	f.adv[r] = a
	return a
}

// width is the advance width of s in pixels.
func (f *face) width(s string) float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.widthLocked(s)
}

func (f *face) widthLocked(s string) float64 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += f.f.Kern(prev, r)
		}
		w += f.advance(r)
		prev = r
	}
	return float64(w) / 64
}

// faces is the set of faces one picture uses.
type faces struct {
	title, caption, label, labelBig, small, kind, kindBig, kindSmall, legend, legendBold, ruler *face
}

// watch has every face tell seen of each string it draws (for tests;
// set before drawing).
func (fs *faces) watch(seen func(drawnText)) {
	for _, f := range []*face{fs.title, fs.caption, fs.label, fs.labelBig, fs.small, fs.kind, fs.kindBig, fs.kindSmall, fs.legend, fs.legendBold, fs.ruler} {
		f.seen = seen
	}
}

// newFaces makes the set of faces a renderer draws every picture with:
// fonts at sizes scaled by k (picture width / 1280). Every picture shares
// it, each face's caches behind its lock, so that a string measured or
// drawn for one picture is ready for the next, whichever draws it.
func newFaces(f fonts, k float64) *faces {
	return &faces{
		title:      newFace(f.bold, 24*k),
		caption:    newFace(f.regular, 18*k),
		label:      newFace(f.bold, 14*k),
		labelBig:   newFace(f.bold, 17*k),
		small:      newFace(f.regular, 12*k),
		kind:       newFace(f.bold, 11*k),
		kindBig:    newFace(f.bold, 20*k),
		kindSmall:  newFace(f.bold, 8.5*k),
		legend:     newFace(f.regular, 15*k),
		legendBold: newFace(f.bold, 15*k),
		ruler:      newFace(f.regular, 13*k),
	}
}

// mask returns s's coverage and halo masks, making them the first time.
func (f *face) mask(s string) *textMask {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.maskLocked(s)
}

func (f *face) maskLocked(s string) *textMask {
	if m, ok := f.masks[s]; ok {
		return m
	}
	if len(f.masks) >= maxMasks {
		clear(f.masks)
	}
	m := f.drawMask(s)
	f.masks[s] = m
	return m
}

// maskHalo returns s's masks with the halo's made.
func (f *face) maskHalo(s string) *textMask {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.maskLocked(s)
	m.haloOf()
	return m
}

// drawMask makes s's coverage mask; the caller holds f.mu.
func (f *face) drawMask(s string) *textMask {
	// One pixel of room all round for the halo.
	w := int(math.Ceil(f.widthLocked(s))) + 4
	asc, desc := int(math.Ceil(f.ascent))+2, int(math.Ceil(f.descent))+2
	m := &textMask{
		text: image.NewAlpha(image.Rect(0, 0, w, asc+desc)),
		x0:   -2, y0: -asc,
	}
	dot := fixed.Point26_6{X: 2 * 64, Y: fixed.Int26_6(asc * 64)}
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			dot.X += f.f.Kern(prev, r)
		}
		dr, gm, mp, adv, ok := f.f.Glyph(dot, r)
		if ok {
			coverOver(m.text, dr, gm, mp)
		}
		dot.X += adv
		prev = r
	}
	return m
}

// coverOver lays the coverage mask (its point mp at r.Min) over dst in
// r: what draw.DrawMask does with an opaque source and draw.Over, to the
// byte, without reading and writing each pixel through an interface,
// which is most of what making a word's mask costs.
func coverOver(dst *image.Alpha, r image.Rectangle, mask image.Image, mp image.Point) {
	m, ok := mask.(*image.Alpha)
	if !ok {
		draw.DrawMask(dst, r, image.Opaque, image.Point{}, mask, mp, draw.Over)
		return
	}
	orig := r.Min
	r = r.Intersect(dst.Rect).Intersect(m.Rect.Add(orig.Sub(mp)))
	mp = mp.Add(r.Min.Sub(orig))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		d := dst.Pix[dst.PixOffset(r.Min.X, y):][:r.Dx()]
		c := m.Pix[m.PixOffset(mp.X, mp.Y+y-r.Min.Y):][:r.Dx()]
		for i, a := range c {
			if a == 0 {
				continue
			}
			// In 16 bits, as image/draw: the mask's alpha over the
			// destination's, what is left of it showing through.
			ma, da := uint32(a)*0x101, uint32(d[i])*0x101
			d[i] = uint8((da*(0xFFFF-ma) + 0xFFFF*ma) / 0xFFFF >> 8)
		}
	}
}

// haloOf makes m's halo, if not made yet: the text grown by a pixel each
// way, the most of each pixel's three neighbours across and then of
// those up and down. The face holding m is locked.
func (m *textMask) haloOf() *image.Alpha {
	if m.halo != nil {
		return m.halo
	}
	t := m.text
	w, h := t.Rect.Dx(), t.Rect.Dy()
	across := make([]uint8, w*h)
	for y := range h {
		row, out := t.Pix[y*t.Stride:][:w], across[y*w:][:w]
		for x := range w {
			a := row[x]
			if x > 0 {
				a = max(a, row[x-1])
			}
			if x+1 < w {
				a = max(a, row[x+1])
			}
			out[x] = a
		}
	}
	m.halo = image.NewAlpha(t.Rect)
	for y := range h {
		out := m.halo.Pix[y*m.halo.Stride:][:w]
		copy(out, across[y*w:][:w])
		for _, yy := range [2]int{y - 1, y + 1} {
			if yy >= 0 && yy < h {
				for x, a := range across[yy*w:][:w] {
					out[x] = max(out[x], a)
				}
			}
		}
	}
	return m.halo
}

// drawText draws s with its left end of the baseline at (x, y), rounded
// to whole pixels. It writes cached coverage masks straight onto the
// image: much faster than gg's DrawString, which resamples every glyph
// through an affine transform.
func drawText(dst *image.RGBA, f *face, s string, x, y float64, c color.RGBA) {
	m := f.mask(s)
	ox, oy := int(math.Round(x))+m.x0, int(math.Round(y))+m.y0
	if f.seen != nil {
		if under, ok := commonest(dst, m.text, ox, oy); ok {
			f.seen(drawnText{text: s, ink: c, under: under})
		}
	}
	put(dst, m.text, ox, oy, c)
}

// drawHalo draws s in c over a halo of colour h, so that it reads over
// anything. (x, y) is the left end of the baseline.
func drawHalo(dst *image.RGBA, f *face, s string, x, y float64, c, h color.RGBA) {
	if f.seen != nil {
		f.seen(drawnText{text: s, ink: c, under: h})
	}
	if c.A != 0xFF || h.A != 0xFF {
		m := f.maskHalo(s)
		ox, oy := int(math.Round(x))+m.x0, int(math.Round(y))+m.y0
		put(dst, m.halo, ox, oy, h)
		put(dst, m.text, ox, oy, c)
		return
	}
	ht := f.halo(s, c, h)
	ht.paint(dst, int(math.Round(x))+ht.x0, int(math.Round(y))+ht.y0)
}

// A label is drawn many times a picture, always in its halo: the two
// masks' work is done once, and what is left for each picture is a copy
// of the rows of pixels the halo covers whole, and the blending of the
// few it covers in part. The pixels are those put paints with the halo
// mask and then the text mask (TestHaloPaintsAsPut).

type haloKey struct {
	s    string
	c, h color.RGBA
}

// haloText is a string in colour c over a halo of colour h, made for
// painting.
type haloText struct {
	x0, y0 int // its top left from the baseline origin
	w, h   int
	// runs are the stretches of each row where the halo is whole, and pix
	// holds their pixels, one run after another: the pixel the halo and
	// the text over it make, whatever was under them.
	pix  []uint8
	runs []haloRun
	// edges are the pixels the halo covers in part, blended with what is
	// under them.
	edges  []haloEdge
	c, hue color.RGBA
}

// haloRun is row y's pixels x0 to x1, which start at pix[at].
type haloRun struct{ y, x0, x1, at int32 }

type haloEdge struct {
	x, y   int32
	ha, ta uint8
}

// halo returns s in c over a halo of h, making it the first time.
func (f *face) halo(s string, c, h color.RGBA) *haloText {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := haloKey{s, c, h}
	if ht, ok := f.halos[k]; ok {
		return ht
	}
	if len(f.halos) >= maxMasks {
		clear(f.halos)
	}
	// The masks are only made into ht, not kept: a string drawn over a
	// halo is seldom drawn without one.
	m, ok := f.masks[s]
	if !ok {
		m = f.drawMask(s)
	}
	m.haloOf()
	w, hh := m.text.Rect.Dx(), m.text.Rect.Dy()
	ht := &haloText{x0: m.x0, y0: m.y0, w: w, h: hh, c: c, hue: h}
	for y := range hh {
		start := -1
		for x := 0; x <= w; x++ {
			var ha, ta uint8
			if x < w {
				ha, ta = m.halo.Pix[y*m.halo.Stride+x], m.text.Pix[y*m.text.Stride+x]
			}
			if ha == 0xFF {
				p := [4]uint8{h.R, h.G, h.B, 0xFF}
				over(p[:], c, ta)
				ht.pix = append(ht.pix, p[:]...)
				if start < 0 {
					start = x
				}
				continue
			}
			if start >= 0 {
				ht.runs = append(ht.runs, haloRun{y: int32(y), x0: int32(start), x1: int32(x), at: int32(len(ht.pix) - 4*(x-start))})
				start = -1
			}
			if x < w && (ha != 0 || ta != 0) {
				ht.edges = append(ht.edges, haloEdge{int32(x), int32(y), ha, ta})
			}
		}
	}
	ht.pix = slices.Clip(ht.pix)
	ht.runs = slices.Clip(ht.runs)
	ht.edges = slices.Clip(ht.edges)
	f.halos[k] = ht
	return ht
}

// paint paints ht with its top left at (x, y).
func (ht *haloText) paint(dst *image.RGBA, x, y int) {
	clip := image.Rect(x, y, x+ht.w, y+ht.h).Intersect(dst.Rect)
	if clip.Empty() {
		return
	}
	for _, r := range ht.runs {
		py := int(r.y) + y
		if py < clip.Min.Y || py >= clip.Max.Y {
			continue
		}
		x0, x1 := max(int(r.x0)+x, clip.Min.X), min(int(r.x1)+x, clip.Max.X)
		if x0 >= x1 {
			continue
		}
		si := int(r.at) + 4*(x0-int(r.x0)-x)
		copy(dst.Pix[dst.PixOffset(x0, py):], ht.pix[si:si+4*(x1-x0)])
	}
	for _, e := range ht.edges {
		px, py := int(e.x)+x, int(e.y)+y
		if !(image.Point{px, py}.In(clip)) {
			continue
		}
		i := dst.PixOffset(px, py)
		p := dst.Pix[i : i+4 : i+4]
		over(p, ht.hue, e.ha)
		over(p, ht.c, e.ta)
	}
}

// over paints the opaque colour c over pixel p with coverage a, with the
// arithmetic of put (image/draw's Over).
func over(p []uint8, c color.RGBA, a uint8) {
	switch a {
	case 0:
	case 0xFF:
		p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xFF
	default:
		const m = 1<<16 - 1
		a16 := uint32(a) * 0x101
		k := (m - a16) * 0x101
		p[0] = uint8((uint32(p[0])*k + uint32(c.R)*0x101*a16) / m >> 8)
		p[1] = uint8((uint32(p[1])*k + uint32(c.G)*0x101*a16) / m >> 8)
		p[2] = uint8((uint32(p[2])*k + uint32(c.B)*0x101*a16) / m >> 8)
		p[3] = uint8((uint32(p[3])*k + 0xFFFF*a16) / m >> 8)
	}
}

// put paints colour c through mask with the mask's top left at (x, y).
// An opaque colour, as every colour of text is, is painted here with the
// arithmetic of image/draw's Over, so that the pixels are the same, but
// with no work for the mask's empty pixels and none but a copy for its
// full ones.
func put(dst *image.RGBA, mask *image.Alpha, x, y int, c color.RGBA) {
	r := mask.Rect.Add(image.Pt(x, y))
	if c.A != 0xFF || !mask.Rect.Min.Eq(image.Point{}) {
		draw.DrawMask(dst, r, image.NewUniform(c), image.Point{}, mask, image.Point{}, draw.Over)
		return
	}
	clip := r.Intersect(dst.Rect)
	if clip.Empty() {
		return
	}
	const m = 1<<16 - 1
	sr, sg, sb := uint32(c.R)*0x101, uint32(c.G)*0x101, uint32(c.B)*0x101
	w := clip.Dx()
	for py := clip.Min.Y; py < clip.Max.Y; py++ {
		mi := (py-r.Min.Y)*mask.Stride + (clip.Min.X - r.Min.X)
		di := dst.PixOffset(clip.Min.X, py)
		for _, ma := range mask.Pix[mi : mi+w] {
			switch ma {
			case 0:
			case 0xFF:
				p := dst.Pix[di : di+4 : di+4]
				p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 0xFF
			default:
				a16 := uint32(ma) * 0x101
				k := (m - a16) * 0x101
				p := dst.Pix[di : di+4 : di+4]
				p[0] = uint8((uint32(p[0])*k + sr*a16) / m >> 8)
				p[1] = uint8((uint32(p[1])*k + sg*a16) / m >> 8)
				p[2] = uint8((uint32(p[2])*k + sb*a16) / m >> 8)
				p[3] = uint8((uint32(p[3])*k + 0xFFFF*a16) / m >> 8)
			}
			di += 4
		}
	}
}

// anchor returns the baseline origin that puts s's box with its point
// (ax, ay) (0..1 of its width and height) at (x, y).
func anchor(f *face, s string, x, y, ax, ay float64) (float64, float64) {
	w := f.width(s)
	return x - ax*w, y - ay*f.height() + f.ascent
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func fit(f *face, s string, w float64) string {
	if f.width(s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 {
		r = r[:len(r)-1]
		t := string(r) + "…"
		if f.width(t) <= w {
			return t
		}
	}
	return ""
}
