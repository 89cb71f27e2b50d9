package render

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// header is the title and caption above the board, laid out to fit its
// width: the title on two lines rather than cut, the caption on the whole
// width, and under it the hint of how places are named. Its height
// changes only with the title's lines, which a game keeps, so that the
// board stays on the same pixels from step to step.
type header struct {
	title   []string
	caption string
	// captionFace is the caption's face: a size smaller when that fits
	// it whole.
	captionFace *face
	hint        string
	height      int
}

// layoutHeader lays out the header of v on a picture W pixels wide.
func layoutHeader(fs *faces, k float64, W int, v *engine.View, b *board) header {
	m := 14 * k
	w := float64(W) - 2*m
	h := header{hint: fit(fs.ruler, coordHint(v, b), w)}
	h.captionFace, h.caption = fitted(v.Caption, w, fs.caption, fs.legend)
	h.title = wrap(fs.title, v.Title, w, 2)
	h.height = int(math.Ceil(10*k + float64(len(h.title))*fs.title.height() + 2*k + fs.caption.height() + fs.ruler.height() + 6*k))
	return h
}

// drawHeader writes the title, the caption and, under it, how positions
// on this board are named.
func drawHeader(img *image.RGBA, fs *faces, k float64, h header) {
	m := 14 * k
	y := 10*k + fs.title.ascent
	for i, t := range h.title {
		if i > 0 {
			y += fs.title.height()
		}
		drawText(img, fs.title, t, m, y, ink)
	}
	y += fs.title.descent + 2*k + fs.caption.ascent
	drawText(img, h.captionFace, h.caption, m, y, ink)
	y += fs.caption.descent + fs.ruler.ascent
	drawText(img, fs.ruler, h.hint, m, y, rulerInk)
}

// fitted returns the first of the faces, largest first, in which s is at
// most w pixels wide, and s; when none is, the last face and s shortened
// with an ellipsis. A long caption is drawn a size smaller rather than cut.
func fitted(s string, w float64, faces ...*face) (*face, string) {
	for _, f := range faces {
		if f.width(s) <= w {
			return f, s
		}
	}
	f := faces[len(faces)-1]
	return f, fit(f, s, w)
}

// wrap breaks s into lines of at most w pixels in f, at spaces, no more
// than n of them: the last one that does not hold the rest ends in "…".
func wrap(f *face, s string, w float64, n int) []string {
	var lines []string
	words := strings.Fields(s)
	for len(words) > 0 {
		if len(lines) == n-1 {
			return append(lines, fit(f, strings.Join(words, " "), w))
		}
		line := words[0]
		i := 1
		for ; i < len(words); i++ {
			if f.width(line+" "+words[i]) > w {
				break
			}
			line += " " + words[i]
		}
		lines = append(lines, fit(f, line, w))
		words = words[i:]
	}
	if len(lines) == 0 {
		lines = []string{""}
	}
	return lines
}

// coordHint says how players name places on the board.
func coordHint(v *engine.View, b *board) string {
	switch b.kind {
	case engine.SquareGrid:
		last := engine.Square{Col: int(math.Round(v.Width)) - 1, Row: int(math.Round(v.Depth)) - 1}
		if b.cols < last.Col+1 || b.rows < last.Row+1 {
			return fmt.Sprintf("squares %s to %s shown, of A1 to %s", engine.Square{Col: int(b.wx), Row: int(b.wy)},
				engine.Square{Col: int(b.wx) + b.cols - 1, Row: int(b.wy) + b.rows - 1}, last)
		}
		return fmt.Sprintf("squares A1 (bottom left) to %s", last)
	case engine.HexGrid:
		shown := fmt.Sprintf("hexes %s to %s", engine.HexFromOffset(b.c0, b.r0), engine.HexFromOffset(b.c0+b.cols-1, b.r0+b.rows-1))
		c0, r0 := hexOrigin(v)
		cols, rows := int(math.Round(v.Width)), int(math.Round(v.Depth))
		if b.c0 > c0 || b.r0 > r0 || b.cols < cols || b.rows < rows {
			shown += fmt.Sprintf(" shown, of %s to %s", engine.HexFromOffset(c0, r0), engine.HexFromOffset(c0+cols-1, r0+rows-1))
		}
		return shown
	}
	unit := v.Unit
	if unit == "" {
		unit = "units"
	}
	if b.w < v.Width || b.d < v.Depth {
		return fmt.Sprintf("x,y in %s; %s,%s to %s,%s shown, of %s by %s", unit, num(b.wx), num(b.wy), num(b.wx+b.w), num(b.wy+b.d), num(v.Width), num(v.Depth))
	}
	return "positions x,y in " + unit + " from 0,0 at bottom left"
}

// legendItem is one entry of the legend's key: an icon and a word.
type legendItem struct {
	icon func(c *canvas, r rect)
	text string
}

// legend lays out the key and the groups below the board.
type legend struct {
	keyRows   [][]legendItem
	aside     int     // rows of the box of pieces off the board (View.Aside)
	groupRows [][]int // group indices, side 0 rows first
	colW      float64
	rowH      float64
	height    int
	// key names everything the legend's pixels depend on but the
	// renderer's width and text size: two legends with one key look
	// the same (the renderer keeps them drawn, paintLegend).
	key string
}

const swatchW, swatchH = 34, 16

func newLegend(v *engine.View, st []groupStyle, fs *faces, k float64, width int) *legend {
	W := float64(width)
	m := 14 * k
	lg := &legend{rowH: 26 * k}
	// The key: only what this picture shows.
	kb := &keyBuilder{}
	kb.sides(v, st, k)
	kb.pieces(v, fs, k)
	kb.tokens(v, k)
	kb.marks(v, k)
	key := &kb.key
	gap := 20 * k
	lg.flowKey(kb.items, fs, k, W, m, gap)
	lg.layoutGroups(v, st, fs, k, W, m, gap)
	if len(v.Aside) > 0 {
		lg.aside = 1
		for _, p := range v.Aside {
			fmt.Fprintf(key, "aside %q %q %d %q\n", p.Label, p.Kind, p.Group, p.Crew)
		}
	}
	n := len(lg.keyRows) + lg.aside + len(lg.groupRows)
	if n == 0 {
		lg.height = int(math.Ceil(6 * k))
	} else {
		lg.height = int(math.Ceil(6*k + float64(n)*lg.rowH + 8*k))
	}
	fmt.Fprintf(key, "rows %d %v %v %d\n", len(lg.keyRows), lg.colW, lg.rowH, lg.height)
	for _, row := range lg.keyRows {
		fmt.Fprintf(key, "%d ", len(row))
	}
	for _, row := range lg.groupRows {
		key.WriteString("\n")
		for _, i := range row {
			p, t := groupEntry(v, st, i)
			fmt.Fprintf(key, "%d %v %q %q;", i, st[i], p, t)
		}
	}
	lg.key = key.String()
	return lg
}

// keyBuilder gathers the legend's key: its items, and the text that
// names them (legend.key).
type keyBuilder struct {
	items []legendItem
	key   strings.Builder
}

func (kb *keyBuilder) add(id string, it legendItem) {
	kb.items = append(kb.items, it)
	fmt.Fprintf(&kb.key, "%s %q\n", id, it.text)
}

// sides keys the side a group fights on.
func (kb *keyBuilder) sides(v *engine.View, st []groupStyle, k float64) {
	add := kb.add
	// The side a group fights on needs a key only when some side has
	// several groups: with one group a side, the group's own swatch
	// below says it all.
	var groups [2]int
	for _, s := range st {
		groups[s.side]++
	}
	for side, name := range sideNames(v) {
		if groups[side] == 0 || (groups[0] <= 1 && groups[1] <= 1) {
			continue
		}
		// A darker grey than any group's, so the key is not read as a
		// group.
		st := groupStyle{fill: keyGrey, light: mix(keyGrey, white, 0.62), side: side}
		cue := "solid"
		if side == 1 {
			cue = "hatched"
		}
		add(fmt.Sprint("side", side), legendItem{func(c *canvas, r rect) { swatch(c, k, st, r) }, cue + ": " + name})
	}
}

// pieces keys how a piece shows its front or facing, its losses and its
// wounds.
func (kb *keyBuilder) pieces(v *engine.View, fs *faces, k float64) {
	add := kb.add
	if len(v.Pieces) > 0 && v.Kind == engine.OpenTable {
		add("front", legendItem{func(c *canvas, r rect) {
			dc := c.dc
			dc.SetLineWidth(5 * k)
			dc.SetColor(ink)
			dc.DrawLine(r.x0, r.y0+r.h()/2, r.x1, r.y0+r.h()/2)
			dc.Stroke()
			dc.SetLineWidth(2.2 * k)
			dc.SetColor(white)
			dc.DrawLine(r.x0+1.6*k, r.y0+r.h()/2, r.x1-1.6*k, r.y0+r.h()/2)
			dc.Stroke()
		}, "front edge"})
	}
	if len(v.Pieces) > 0 && v.Kind != engine.OpenTable {
		add("facing", legendItem{func(cv *canvas, r rect) {
			dc := cv.dc
			c := pt{(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2}
			polygon(dc, []pt{{c.x + 9*k, c.y}, {c.x - 3*k, c.y - 5*k}, {c.x - 3*k, c.y + 5*k}})
			dc.SetColor(white)
			dc.FillPreserve()
			dc.SetColor(ink)
			dc.SetLineWidth(1.3 * k)
			dc.Stroke()
		}, "facing"})
	}
	wounds, losses := false, false
	for _, p := range v.Pieces {
		if p.Limit > 0 && p.Limit <= 8 {
			wounds = true
		} else if p.Wounds > 0 {
			losses = true
		}
	}
	if losses {
		add("losses", legendItem{func(c *canvas, r rect) {
			t := lossText(4, v.Pips)
			drawHalo(c.img, fs.small, t, (r.x0+r.x1)/2-fs.small.width(t)/2, (r.y0+r.y1)/2+fs.small.ascent/2-1*k, woundFill, white)
		}, lossLegend(v.Pips)})
	}
	if wounds {
		add("pips", legendItem{func(c *canvas, r rect) {
			dc := c.dc
			cy := (r.y0 + r.y1) / 2
			rr := 3.7 * k
			for i, x := range []float64{r.x0 + 8*k, r.x0 + 18*k} {
				dc.DrawCircle(x, cy, rr)
				if i == 0 {
					dc.SetColor(woundFill)
				} else {
					dc.SetColor(white)
				}
				dc.FillPreserve()
				dc.SetColor(ink)
				dc.SetLineWidth(1.2 * k)
				dc.Stroke()
			}
		}, pipLegend(v.Pips)})
	}
}

// tokens keys the tokens on the board.
func (kb *keyBuilder) tokens(v *engine.View, k float64) {
	add := kb.add
	var tokens [3]bool
	for _, t := range v.Tokens {
		if int(t.Kind) < len(tokens) {
			tokens[t.Kind] = true
		} else {
			tokens[engine.MarkerToken] = true
		}
	}
	// Markers all of one meaning are named by it ("melee waits").
	marker := ""
	for _, t := range v.Tokens {
		if t.Kind == engine.MarkerToken || int(t.Kind) >= len(tokens) {
			if marker == "" {
				marker = t.Label
			} else if marker != t.Label {
				marker = "marker"
				break
			}
		}
	}
	if marker == "" {
		marker = "marker"
	}
	for kind, name := range []string{"fallen", "armour dropped", marker} {
		if tokens[kind] {
			kind := engine.TokenKind(kind)
			add(fmt.Sprint("token", kind), legendItem{func(c *canvas, r rect) {
				ts := tokenShape{t: &engine.Token{Kind: kind}, style: groupStyle{fill: keyGrey}, c: pt{(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2}, r: 6.5 * k}
				(&scene{img: c.img, dc: c.dc, fl: c.fl, k: k, tokens: []tokenShape{ts}}).drawTokens()
			}, name})
		}
	}
}

// marks keys the marks of what the last step did.
func (kb *keyBuilder) marks(v *engine.View, k float64) {
	add := kb.add
	var marks [6]bool
	for _, mk := range v.Marks {
		switch {
		case mk.Kind == engine.FireMark && mk.Hit:
			marks[5] = true
		case int(mk.Kind) < 5:
			marks[mk.Kind] = true
		}
	}
	mid := func(r rect) (pt, pt) {
		return pt{r.x0 + 2*k, (r.y0 + r.y1) / 2}, pt{r.x1 - 2*k, (r.y0 + r.y1) / 2}
	}
	markItems := []legendItem{
		{func(c *canvas, r rect) { a, b := mid(r); moveMark(c.dc, k, a, b, keyGrey) }, "moved"},
		{func(c *canvas, r rect) { a, b := mid(r); fireMark(c.dc, k, a, pt{b.x + 6*k, b.y}, false, 7*k) }, "missile missed"},
		{func(c *canvas, r rect) { a, b := mid(r); meleeMark(c.dc, k, a, b) }, "melee"},
		{func(c *canvas, r rect) { a, b := mid(r); impactMark(c.dc, k, a, b) }, "pushed"},
		{func(c *canvas, r rect) { killMark(c.dc, k, pt{(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2}) }, "removed"},
		{func(c *canvas, r rect) {
			a, b := mid(r)
			b.x -= 11 * k
			fireMark(c.dc, k, a, b, true, 7*k)
		}, "missile hit"},
	}
	for _, i := range []int{0, 5, 1, 2, 3, 4} {
		if marks[i] {
			add(fmt.Sprint("mark", i), markItems[i])
		}
	}
}

// flowKey flows the key's items into rows as wide as the picture.
func (lg *legend) flowKey(items []legendItem, fs *faces, k, W, m, gap float64) {
	iconW := (swatchW + 6) * k
	x := m
	var row []legendItem
	for _, it := range items {
		w := iconW + fs.legend.width(it.text)
		if len(row) > 0 && x+w > W-m {
			lg.keyRows = append(lg.keyRows, row)
			row, x = nil, m
		}
		row = append(row, it)
		x += w + gap
	}
	if len(row) > 0 {
		lg.keyRows = append(lg.keyRows, row)
	}
}

// layoutGroups sets the groups in columns as wide as the widest entry,
// side 0's rows first.
func (lg *legend) layoutGroups(v *engine.View, st []groupStyle, fs *faces, k, W, m, gap float64) {
	maxW := 0.0
	for i := range v.Groups {
		maxW = math.Max(maxW, groupEntryWidth(v, st, fs, k, i))
	}
	cols := 1
	if maxW > 0 {
		cols = int((W - 2*m + gap) / (maxW + gap))
	}
	cols = max(1, min(cols, 6, len(v.Groups)))
	lg.colW = maxW + gap
	if cols > 1 {
		lg.colW = (W - 2*m + gap) / float64(cols)
	}
	for side := 0; side < 2; side++ {
		var row []int
		for i := range v.Groups {
			if i < len(st) && st[i].side == side {
				row = append(row, i)
				if len(row) == cols {
					lg.groupRows = append(lg.groupRows, row)
					row = nil
				}
			}
		}
		if len(row) > 0 {
			lg.groupRows = append(lg.groupRows, row)
		}
	}
}

// sideNames names the two sides from the deployment zones' labels.
func sideNames(v *engine.View) [2]string {
	names := [2]string{"side 0", "side 1"}
	var set [2]bool
	for _, z := range v.Zones {
		s := sideOf(z.Side)
		if z.Label != "" && !set[s] {
			names[s], set[s] = clip(z.Label), true
		}
	}
	return names
}

func groupEntry(v *engine.View, st []groupStyle, i int) (prefix, text string) {
	g := v.Groups[i]
	text = clip(g.Name)
	if g.Player != "" {
		text += " · " + clip(g.Player)
	}
	if i < len(st) {
		prefix = st[i].prefix
	}
	return prefix, text
}

func groupEntryWidth(v *engine.View, st []groupStyle, fs *faces, k float64, i int) float64 {
	p, t := groupEntry(v, st, i)
	w := (swatchW+8)*k + fs.legend.width(t)
	if p != "" {
		w += fs.legendBold.width(p) + 6*k
	}
	return w
}

// draw draws the legend with its top at y.
func (lg *legend) draw(c *canvas, fs *faces, k float64, v *engine.View, st []groupStyle, y float64) {
	img, dc := c.img, c.dc
	W := float64(img.Bounds().Dx())
	m := 14 * k
	// a rule between board and legend
	dc.SetColor(gridLine)
	dc.SetLineWidth(1 * k)
	dc.DrawLine(m, y+1*k, W-m, y+1*k)
	dc.Stroke()
	y += 6 * k
	base := func(top float64) float64 { return top + (lg.rowH+fs.legend.ascent*0.72)/2 }
	iconW, gap := (swatchW+6)*k, 20*k
	for _, row := range lg.keyRows {
		x := m
		for _, it := range row {
			r := rect{x, y + (lg.rowH-swatchH*k)/2, x + swatchW*k, y + (lg.rowH+swatchH*k)/2}
			it.icon(c, r)
			drawText(img, fs.legend, it.text, x+iconW, base(y), rulerInk)
			x += iconW + fs.legend.width(it.text) + gap
		}
		y += lg.rowH
	}
	if lg.aside > 0 {
		lg.drawAside(c, fs, k, v, st, y, base(y))
		y += lg.rowH
	}
	for _, row := range lg.groupRows {
		for j, i := range row {
			x := m + float64(j)*lg.colW
			r := rect{x, y + (lg.rowH-swatchH*k)/2, x + swatchW*k, y + (lg.rowH+swatchH*k)/2}
			swatch(c, k, st[i], r)
			x += (swatchW + 8) * k
			p, t := groupEntry(v, st, i)
			if p != "" {
				drawText(img, fs.legendBold, p, x, base(y), ink)
				x += fs.legendBold.width(p) + 6*k
			}
			drawText(img, fs.legend, fit(fs.legend, t, m+float64(j+1)*lg.colW-x-8*k), x, base(y), ink)
		}
		y += lg.rowH
	}
}

// drawAside draws the box of the pieces off the board, in a row whose top
// is y: "off the board:", then each one's swatch, name and why, as many
// as the width holds.
func (lg *legend) drawAside(c *canvas, fs *faces, k float64, v *engine.View, st []groupStyle, y, baseline float64) {
	W := float64(c.img.Bounds().Dx())
	m := 14 * k
	dc := c.dc
	dc.SetColor(ink)
	dc.SetLineWidth(1.2 * k)
	dc.DrawRectangle(m, y+1*k, W-2*m, lg.rowH-2*k)
	dc.Stroke()
	x := m + 6*k
	head := "Off the board:"
	drawText(c.img, fs.legendBold, head, x, baseline, ink)
	x += fs.legendBold.width(head) + 8*k
	for _, p := range v.Aside {
		if x > W-m-40*k {
			break
		}
		r := rect{x, y + (lg.rowH-swatchH*k)/2, x + swatchH*k, y + (lg.rowH+swatchH*k)/2}
		if p.Group >= 0 && p.Group < len(st) {
			swatch(c, k, st[p.Group], r)
		}
		x = r.x1 + 4*k
		name := p.Label
		if p.Kind != "" {
			name += " " + p.Kind
		}
		drawText(c.img, fs.legendBold, name, x, baseline, ink)
		x += fs.legendBold.width(name) + 4*k
		t := fit(fs.legend, p.Crew, W-m-6*k-x)
		drawText(c.img, fs.legend, t, x, baseline, rulerInk)
		x += fs.legend.width(t) + 12*k
	}
}

// swatch draws a group's sample base in r, front edge up. Its hatching
// runs from its own corner, so that a swatch, and the legend, looks the
// same wherever it is drawn.
func swatch(c *canvas, k float64, st groupStyle, r rect) {
	poly := []pt{{r.x0, r.y0}, {r.x1, r.y0}, {r.x1, r.y1}, {r.x0, r.y1}}
	s := &scene{img: c.img, dc: c.dc, fl: c.fl, k: k, b: board{kind: engine.OpenTable, table: rect{r.x0, r.y0, r.x0, r.y0}}}
	s.pieces = []pieceShape{{p: &engine.Piece{}, style: st, poly: poly, front: [2]pt{poly[0], poly[1]}, box: r, c: pt{(r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2}}}
	s.drawPieces()
}

// pipLegend explains the pips: what each counts, taken and left.
func pipLegend(what string) string {
	if what == "" {
		what = "wound"
	}
	if takes(what) {
		return what + " taken, " + what + " left"
	}
	return what + " lost, " + what + " left"
}

// lossLegend explains a count of losses written beside a name, for
// pieces with too many to show as pips.
func lossLegend(what string) string {
	if what == "" {
		what = "wound"
	}
	if takes(what) {
		return what + "s taken"
	}
	return what + "s lost"
}

// keptLegend returns lg as runs, for a picture width pixels wide: the
// same legend drawn before and kept in legends, or drawn now by draw
// (onto a canvas of its own, with its top at 0) and kept. A game's
// legend changes only when a new kind of mark or marker shows, and looks
// the same at any height (swatch), so most pictures find theirs.
func keptLegend(legends *layerCache[string], lg *legend, width int, draw func(*canvas)) *runLayer {
	return legends.get(lg.key, func() *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, width, lg.height))
		fill(img, img.Rect, white)
		draw(newCanvas(img, nil))
		return img
	})
}
