package render

import (
	"bytes"
	"encoding/binary"
	"hash/fnv"
	"image"
	"image/color"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/rhapsode/rhapsode/engine"
)

// A board picture is mostly flat colour with antialiased edges, so it
// fits a 256-colour palette with no visible loss, and a paletted PNG
// encodes several times faster and about half the size of a true-colour
// one. No dithering: it would only add noise to flat areas and make the
// file larger.
//
// Every picture of one table is written with the same palette, made once
// for the table (its ground) and its groups' colours (whatever zones it
// shows: a hex leader's command range comes and goes at every
// activation): a picture's pixels then map through a table of 32,768 bins
// made with the palette, and nothing is counted while it is painted.
//
// The palette is made from what the renderer paints. Its colours, in the
// order they are kept (up to 256):
//   - every colour the renderer paints flat (pinned), exactly;
//   - the ground's shades (its hatching, lines, edges and words) that
//     cover a ten-thousandth of it or more, the most used first;
//   - the legend's grey samples, and seven greys from ink to white,
//     where most words' edges fall;
//   - the shades where one colour drawn over another is antialiased: a
//     piece's, a mark's, a zone's or a letter's colour (the groups'
//     fills and hatching, ink, white, the marks', the zones' borders and
//     names) half over each other one and over each colour that covers
//     much of the ground; then the ground's other shades; then the
//     quarter and eighth shades of the same pairs;
//   - but for the greys, none within 16 levels a channel (as a distance)
//     of a colour kept before it: an edge still fades through several
//     shades, too close together to tell apart at a glance, and the file
//     is smaller than with every shade kept.
//
// Each of 32,768 bins (five bits a channel) takes the palette colour
// nearest the mean of the ground's pixels in it, or its middle when the
// ground has none; a bin holding a pinned colour takes that colour. So a
// table's pictures use the same colours for the same things, whatever
// else each shows, and a picture is the same whatever was drawn before
// it.

// tablePalette is the palette of a table's pictures and each bin's index
// in it.
type tablePalette struct {
	colors color.Palette
	index  [bins]uint8
	// id tells this palette from every other the process makes.
	id uint64
}

// paletteIDs numbers the palettes made.
var paletteIDs atomic.Uint64

// paletteKey names what a table palette is made from.
type paletteKey struct {
	ground groundKey
	groups uint64 // hash of the groups' colours
}

func paletteKeyOf(v *engine.View, b *board, st []groupStyle) paletteKey {
	k := paletteKey{ground: groundKeyOf(v, b)}
	h := fnv.New64a()
	for _, g := range st {
		h.Write([]byte{g.fill.R, g.fill.G, g.fill.B, g.light.R, g.light.G, g.light.B})
	}
	k.groups = h.Sum64()
	return k
}

// newTablePalette makes the palette of a table whose ground is the layer
// ground, with groups st.
func newTablePalette(ground *runLayer, st []groupStyle, pins *pinTable) *tablePalette {
	var t tally
	t.countLayer(ground)
	total := uint64(0)
	for _, i := range t.used {
		total += uint64(t.count[i])
	}
	mean := func(i int) color.RGBA {
		n := uint64(t.count[i])
		return color.RGBA{uint8((t.sum[i][0] + n/2) / n), uint8((t.sum[i][1] + n/2) / n), uint8((t.sum[i][2] + n/2) / n), 0xFF}
	}
	slices.SortFunc(t.used, func(a, b int) int {
		if t.count[a] != t.count[b] {
			return int(t.count[b]) - int(t.count[a])
		}
		return a - b
	})

	// The colours drawn over others, and those drawn under them.
	over := []color.RGBA{white, ink}
	for _, g := range st {
		over = append(over, g.fill, g.light)
	}
	keyLight := mix(keyGrey, white, 0.62)
	over = append(over, woundFill, killCore, meleePlate, rulerInk, keyGrey, keyLight)
	var under []color.RGBA
	for side := range zoneFill {
		over = append(over, zoneBorder[side], zoneText[side])
		under = append(under, zoneFill[side])
	}
	for _, i := range t.used {
		if uint64(t.count[i])*100 < total {
			break
		}
		c := mean(i)
		if p := pins.pin[i]; p >= 0 {
			c = pins.colors[p]
		}
		under = append(under, c)
	}
	all := append(slices.Clip(over), under...)

	p := &tablePalette{colors: make(color.Palette, 0, 256), id: paletteIDs.Add(1)}
	var kept []color.RGBA
	var byRed redOrder
	keep := func(c color.RGBA) {
		kept = append(kept, c)
		byRed.add(kept, len(kept)-1)
	}
	for _, c := range pins.colors {
		keep(c)
	}
	shade := func(c color.RGBA) {
		if len(kept) < 256 && !byRed.near(kept, c) {
			keep(c)
		}
	}
	// The ground's shades that cover a ten-thousandth of it or more: the
	// colours of its lines and edges as drawn.
	for _, i := range t.used {
		if uint64(t.count[i])*10000 < total {
			break
		}
		if pins.pin[i] < 0 {
			shade(mean(i))
		}
	}
	for _, c := range []color.RGBA{keyGrey, keyLight} {
		if !slices.Contains(kept, c) {
			keep(c)
		}
	}
	// The greys between ink and white, where most words' edges fall,
	// are kept whatever lies near them: a grey taken for a pinned brown
	// or slate would tint the words.
	for i := 1; i < 8; i++ {
		if c := mix(ink, white, float64(i)/8); !slices.Contains(kept, c) {
			keep(c)
		}
	}
	blends := func(ts ...float64) {
		for i, a := range over {
			for _, b := range all[i+1:] {
				for _, f := range ts {
					shade(mix(a, b, f))
				}
			}
		}
	}
	blends(0.5)
	for _, i := range t.used {
		if pins.pin[i] < 0 {
			shade(mean(i))
		}
	}
	blends(0.25, 0.75)
	blends(0.125, 0.375, 0.625, 0.875)

	for _, c := range kept {
		p.colors = append(p.colors, c)
	}
	seen := make([]bool, bins)
	for _, i := range t.used {
		seen[i] = true
	}
	for i := range p.index {
		if pi := pins.pin[i]; pi >= 0 {
			p.index[i] = uint8(pi) // pins are kept first, in their order
			continue
		}
		c := color.RGBA{uint8(i>>10)<<3 | 4, uint8(i>>5&31)<<3 | 4, uint8(i&31)<<3 | 4, 0xFF}
		if seen[i] {
			c = mean(i)
		}
		p.index[i] = byRed.nearest(kept, c)
	}
	for _, c := range []color.RGBA{keyGrey, keyLight} {
		if i := binOf(c.R, c.G, c.B); pins.pin[i] < 0 {
			p.index[i] = uint8(slices.Index(kept, c))
		}
	}
	return p
}

// countLayer counts every pixel of layer l.
func (t *tally) countLayer(l *runLayer) {
	for y := range l.h {
		row := l.row[y]
		at := int(row[2]) // the next literal pixel
		for _, r := range l.runs[row[0]:row[1]] {
			if r.n&literalRun == 0 {
				t.add(l.colors[r.px], uint32(r.n))
				continue
			}
			for range int(r.n &^ literalRun) {
				t.add(l.litPixel(at), 1)
				at++
			}
		}
	}
}

// mapRows writes rows y0 to y1 of dst with the palette indices of img's
// pixels. A row that is a cached layer's (from says which, when set) is
// mapped a run of the layer at a time, without reading its pixels, and
// then only the columns painted over are read from img. A row the same
// as the one above it takes that row's indices.
func (p *tablePalette) mapRows(img *image.RGBA, from func(y int) rowSource, dst *image.Paletted, y0, y1 int) {
	w := dst.Rect.Dx()
	// The row above was mapped from layer above's row aboveRow, or, with
	// above nil and painted set, from the picture's pixels alone.
	var above *runLayer
	aboveRow, painted := -1, false
	for y := y0; y < y1; y++ {
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		if from != nil {
			if src := from(y); src.l != nil {
				l, ly := src.l, src.ly
				if src.x0 < src.x1 {
					p.mapRuns(l, ly, out)
					p.mapPixels(row[4*src.x0:4*src.x1], out[src.x0:src.x1])
					above, painted = nil, false
					continue
				}
				if l == above && l.row[ly] == l.row[aboveRow] {
					copy(out, dst.Pix[(y-1)*dst.Stride:])
				} else {
					p.mapRuns(l, ly, out)
				}
				above, aboveRow, painted = l, ly, false
				continue
			}
			above = nil
		}
		if painted && bytes.Equal(row, img.Pix[(y-1)*img.Stride:(y-1)*img.Stride+4*w]) {
			copy(out, dst.Pix[(y-1)*dst.Stride:])
			continue
		}
		painted = true
		p.mapPixels(row, out)
	}
}

// mapPixels writes into out the palette indices of the RGBA pixels of
// row.
func (p *tablePalette) mapPixels(row []uint8, out []uint8) {
	pair := ^uint64(0)
	var idx uint8
	for x := 0; x < len(out); x++ {
		// Two pixels at once while they are the last one's colour.
		if x+1 < len(out) && binary.LittleEndian.Uint64(row[4*x:4*x+8])&twoColours == pair {
			out[x], out[x+1] = idx, idx
			x++
			continue
		}
		c := binary.LittleEndian.Uint32(row[4*x : 4*x+4])
		pair = uint64(c&0xFFFFFF) * (1<<32 | 1)
		idx = p.index[pixelBin(c)]
		out[x] = idx
	}
}

// mapRuns writes into out the palette indices of layer l's row ly, from
// its colours' as mapped once (indexOf).
func (p *tablePalette) mapRuns(l *runLayer, ly int, out []uint8) {
	li := p.indexOf(l)
	row := l.row[ly]
	x, at := 0, int(row[2]) // at: the next literal pixel
	for _, r := range l.runs[row[0]:row[1]] {
		if r.n&literalRun != 0 {
			n := int(r.n &^ literalRun)
			if l.lit == nil {
				copy(out[x:x+n], li.lit[at:])
			} else {
				for i, c := range l.lit[at : at+n] {
					out[x+i] = li.lit[c]
				}
			}
			x, at = x+n, at+n
			continue
		}
		seg := out[x : x+int(r.n)]
		x += int(r.n)
		idx := li.lit[r.px]
		if len(seg) < shortRun {
			for j := range seg {
				seg[j] = idx
			}
			continue
		}
		// The rest of a long run doubles what is written.
		seg[0] = idx
		for done := 1; done < len(seg); done *= 2 {
			copy(seg[done:], seg[:done])
		}
	}
}

// layerIndex is a layer's colours mapped to a palette: the palette index
// of each of its colours (runLayer.colors), or, in a layer that keeps
// its pixels raw, of each pixel.
type layerIndex struct {
	pal *tablePalette
	lit []uint8
}

// indexOf returns layer l mapped to p, mapping it the first time it is
// shown with p (a layer shown with another palette is mapped again).
func (p *tablePalette) indexOf(l *runLayer) *layerIndex {
	if li := l.index.Load(); li != nil && li.pal == p {
		return li
	}
	var li *layerIndex
	if l.lit == nil {
		li = &layerIndex{pal: p, lit: make([]uint8, len(l.raw)/4)}
		for i := range li.lit {
			li.lit[i] = p.index[pixelBin(binary.LittleEndian.Uint32(l.raw[4*i:]))]
		}
	} else {
		li = &layerIndex{pal: p, lit: make([]uint8, len(l.colors))}
		for i, c := range l.colors {
			li.lit[i] = p.index[pixelBin(c)]
		}
	}
	l.index.Store(li)
	return li
}

const bins = 1 << 15

func binOf(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// pixelBin is the bin of a pixel as loaded little-endian (red in the low
// byte).
func pixelBin(c uint32) int { return int(c>>3&31)<<10 | int(c>>11&31)<<5 | int(c>>19&31) }

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

// tally counts the pixels of each bin and sums their channels. Only the
// bins listed in used are not zero.
type tally struct {
	count [bins]uint32
	sum   [bins][3]uint64 // a ground may have more than 2^24 pixels
	used  []int
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
	t.sum[i][0] += uint64(r) * uint64(n)
	t.sum[i][1] += uint64(g) * uint64(n)
	t.sum[i][2] += uint64(b) * uint64(n)
}

// twoColours masks the colours of two pixels loaded little-endian, leaving
// out their alpha.
const twoColours = 0x00FFFFFF00FFFFFF

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
