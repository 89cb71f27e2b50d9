package render

import (
	"image"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
	"github.com/rhapsode/rhapsode/engine"
)

// scene is one picture being drawn.
type scene struct {
	// w and h are the picture's size; img is the picture, once it is
	// being painted.
	w, h int
	img  *image.RGBA
	dc   *gg.Context
	fs   *faces
	k    float64
	v    *engine.View
	b    board // in picture coordinates
	st   []groupStyle
	// area is the part of the picture the board and its rulers take.
	area rect

	pieces []pieceShape
	tokens []tokenShape
	// space holds what labels should keep off: bases, tokens, the
	// static layer's words, marks, and each label as it is placed.
	space *spatial
	// labels of pieces and tokens, and plates (marks' labels, drawn last
	// of all).
	labels  []label
	plates  []plate
	sprites *sprites
	// fl fills a piece's small shapes (fill.go).
	fl *filler
	// banded says the scene paints rows rows[0] to rows[1] of the
	// picture alone (bands.go).
	banded bool
	rows   [2]float64
	// canvas, when set, is the canvas whose rows of the static layer
	// are copied onto it only where they are painted over (touch).
	canvas *canvas
}

// pieceShape is where a piece is drawn.
type pieceShape struct {
	p     *engine.Piece
	style groupStyle
	poly  []pt // the base, front-left corner first, clockwise
	front [2]pt
	tick  []pt // grids: the facing triangle
	box   rect
	c     pt
}

func (s *scene) style(g int) groupStyle {
	if g >= 0 && g < len(s.st) {
		return s.st[g]
	}
	return groupStyle{fill: unknownGroup, light: mix(unknownGroup, white, 0.62), text: ink}
}

// labelFace is the face of pieces' and marks' labels: larger where there
// is room (few pieces, or a grid's big cells), to be read on a phone.
func (s *scene) labelFace() *face {
	if s.b.kind == engine.OpenTable && len(s.v.Pieces) <= 40 || s.b.kind != engine.OpenTable && s.b.scale >= 60*s.k {
		return s.fs.labelBig
	}
	return s.fs.label
}

// shapePieces works out where every piece goes.
func (s *scene) shapePieces() {
	v := s.v
	s.pieces = make([]pieceShape, len(v.Pieces))
	if s.b.kind == engine.OpenTable {
		for i := range v.Pieces {
			p := &v.Pieces[i]
			cs := p.Base.Corners()
			poly := make([]pt, 4)
			for j, c := range cs {
				poly[j] = s.b.px(c)
			}
			s.pieces[i] = pieceShape{p: p, style: s.style(p.Group), poly: poly, front: [2]pt{poly[0], poly[1]}, box: bounds(poly...), c: s.b.px(p.Base.Center)}
		}
		return
	}
	// On a grid, a piece is a counter in its cell with a tick towards
	// its facing. Several pieces in one cell share it as a stack of
	// strips across the cell, each wide enough for its type's letters.
	type cell struct{ c, r int }
	count := map[cell]int{}
	for _, p := range v.Pieces {
		count[cell{int(math.Round(p.Base.Center.X)), int(math.Round(p.Base.Center.Y))}]++
	}
	seen := map[cell]int{}
	side := 0.6 * s.b.scale // the counter's side
	if s.b.kind == engine.HexGrid {
		side = 0.98 * s.b.scale
	}
	for i := range v.Pieces {
		p := &v.Pieces[i]
		cl := cell{int(math.Round(p.Base.Center.X)), int(math.Round(p.Base.Center.Y))}
		c := s.b.px(engine.Vec{X: float64(cl.c), Y: float64(cl.r)})
		cc := c // the cell's centre
		sd := side
		hw, hh := side/2, side/2
		if n := count[cl]; n > 1 {
			j := seen[cl]
			seen[cl]++
			span := side * 1.4 // the stack's height and the strips' width
			if s.b.kind == engine.HexGrid {
				span = side * 0.8
			}
			slot := span / float64(n)
			hw, hh = span/2, slot*0.44
			c.y = cc.y - span/2 + (float64(j)+0.5)*slot
			sd = 2 * hh
		}
		poly := []pt{{c.x - hw, c.y - hh}, {c.x + hw, c.y - hh}, {c.x + hw, c.y + hh}, {c.x - hw, c.y + hh}}
		// The tick: a long narrow triangle from inside the counter
		// towards the facing, stopping short of the cell's edge.
		dir := p.Base.Facing.Vec()
		dx, dy := dir.X, -dir.Y
		edge := math.Min(hw/math.Max(math.Abs(dx), 1e-9), hh/math.Max(math.Abs(dy), 1e-9))
		reach := s.cellReach(p.Base.Facing) - math.Hypot(c.x-cc.x, c.y-cc.y)
		tipD := math.Max(math.Min(edge+0.25*sd, 0.94*reach), edge+3*s.k)
		baseD := edge - 0.14*sd
		tw := 0.11 * sd
		tick := []pt{
			{c.x + dx*tipD, c.y + dy*tipD},
			{c.x + dx*baseD - dy*tw, c.y + dy*baseD + dx*tw},
			{c.x + dx*baseD + dy*tw, c.y + dy*baseD - dx*tw},
		}
		s.pieces[i] = pieceShape{p: p, style: s.style(p.Group), poly: poly, tick: tick, box: bounds(append(poly[:4:4], tick...)...), c: c}
	}
}

// cellReach is how far it is from a cell's centre to its edge, heading
// h.
func (s *scene) cellReach(h engine.Heading) float64 {
	d := h.Vec()
	if s.b.kind == engine.SquareGrid {
		return 0.5 * s.b.scale / math.Max(math.Abs(d.X), math.Abs(d.Y))
	}
	// A flat-topped hex: its sides face 0, 60, ... 300 degrees.
	phi := math.Mod(float64(h.Norm())+30, 60) - 30
	return math.Sqrt(3) / 2 * s.b.scale / math.Cos(phi*math.Pi/180)
}

// drawPieces draws every base. Each is its own short path: freetype's
// rasteriser keeps a sorted list of cells per pixel row, so one path
// holding every base along a battle line would be much slower.
func (s *scene) drawPieces() {
	dc, k := s.dc, s.k
	origin := pt{s.b.table.x0, s.b.table.y0}
	dc.SetLineJoinRound()
	for _, ps := range s.pieces {
		if s.outside(ps.box) {
			continue
		}
		st := ps.style
		fl := s.filler()
		body := st.fill
		if st.side == 1 {
			body = st.light
		}
		polygon(fl, ps.poly)
		fl.fill(dc, s.img, body)
		if st.side == 1 {
			stripes(fl, ps.poly, origin, -45, 6*k, 3.2*k)
			fl.fill(dc, s.img, st.fill)
		}
		if outline(fl, ps.poly, 1.3*k) {
			fl.fill(dc, s.img, ink)
		} else {
			dc.SetColor(ink)
			dc.SetLineWidth(1.3 * k)
			polygon(dc, ps.poly)
			dc.Stroke()
		}
		if st.ring > 0 {
			s.dots(ps)
		}
		if s.b.kind == engine.OpenTable {
			// The front edge: a bright bar cased in black.
			bar(fl, ps.front[0], ps.front[1], 5*k)
			fl.fill(dc, s.img, ink)
			a, b := inset(ps.front[0], ps.front[1], 1.6*k)
			bar(fl, a, b, 2.2*k)
			fl.fill(dc, s.img, white)
		} else {
			// On a grid, a tick towards the facing.
			dc.SetColor(white)
			polygon(dc, ps.tick)
			dc.FillPreserve()
			dc.SetColor(ink)
			dc.SetLineWidth(1.3 * k)
			dc.Stroke()
		}
		s.kindCode(ps)
	}
}

// filler returns the scene's filler, making one for a scene drawn
// without a canvas (the legend's swatches).
func (s *scene) filler() *filler {
	if s.fl == nil {
		s.fl = newFiller()
	}
	return s.fl
}

// inset moves a and b towards each other by d each.
func inset(a, b pt, d float64) (pt, pt) {
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if l <= 2*d {
		m := pt{(a.x + b.x) / 2, (a.y + b.y) / 2}
		return m, m
	}
	ux, uy := (b.x-a.x)/l*d, (b.y-a.y)/l*d
	return pt{a.x + ux, a.y + uy}, pt{b.x - ux, b.y - uy}
}

// dots marks a piece of a repeated colour with ring white dots along
// its rear edge.
func (s *scene) dots(ps pieceShape) {
	dc, k := s.dc, s.k
	rl, rr := ps.poly[3], ps.poly[2]
	n := ps.style.ring
	for i := 0; i < n; i++ {
		t := (float64(i) + 1) / float64(n+1)
		x, y := rl.x+(rr.x-rl.x)*t, rl.y+(rr.y-rl.y)*t
		// a little inside the base
		x += (ps.c.x - x) * 0.3
		y += (ps.c.y - y) * 0.3
		dc.DrawCircle(x, y, 2.6*k)
	}
	dc.SetColor(white)
	dc.FillPreserve()
	dc.SetColor(ink)
	dc.SetLineWidth(1 * k)
	dc.Stroke()
}

// kindCode writes the piece's kind ("H", "CH", "Sp") on its base when it
// fits inside.
func (s *scene) kindCode(ps pieceShape) {
	code := ps.p.Kind
	if code == "" {
		return
	}
	f := s.fs.kind
	var w, h float64 // the upright box the code must fit in
	if s.b.kind == engine.OpenTable {
		if a := math.Mod(float64(ps.p.Base.Facing.Norm()), 90); a < 1 || a > 89 {
			w, h = ps.box.w(), ps.box.h() // square to the picture
		} else {
			// A turned base keeps its code when the code's upright box,
			// centred, lies inside the base: its half-extents along
			// the base's own axes are within the base's.
			tw, capH := f.width(code)+2*s.k, f.ascent*0.72+3*s.k
			rad := float64(ps.p.Base.Facing) * math.Pi / 180
			c, sn := math.Abs(math.Cos(rad)), math.Abs(math.Sin(rad))
			hw, hh := ps.p.Base.Width*s.b.scale/2, ps.p.Base.Depth*s.b.scale/2
			if tw/2*c+capH/2*sn > hw || tw/2*sn+capH/2*c > hh {
				return
			}
			w, h = tw, capH
		}
	} else {
		w = ps.poly[1].x - ps.poly[0].x
		h = ps.poly[2].y - ps.poly[1].y
		if w >= 40*s.k && h >= 40*s.k {
			f = s.fs.kindBig
		}
	}
	tw := f.width(code)
	capH := f.ascent * 0.72 // about the height of a capital
	if (tw+2*s.k > w || capH+3*s.k > h) && f == s.fs.kind {
		// A long code ("CMD", "HCAT") in a small square: a size smaller.
		f = s.fs.kindSmall
		tw, capH = f.width(code), f.ascent*0.72
	}
	if tw+2*s.k > w || capH+3*s.k > h {
		return
	}
	x := ps.c.x - tw/2
	y := ps.c.y + capH/2
	if ps.style.side == 1 {
		// On stripes the code needs a halo of its own.
		drawHalo(s.img, f, code, x, y, ink, white)
		return
	}
	drawText(s.img, f, code, x, y, ps.style.text)
}

// tokenShape is where a token is drawn.
type tokenShape struct {
	t     *engine.Token
	style groupStyle
	c     pt
	r     float64
}

func (s *scene) shapeTokens() {
	r := 6.5 * s.k
	if s.b.kind != engine.OpenTable {
		r = math.Max(r, 0.16*s.b.scale)
	}
	s.tokens = make([]tokenShape, len(s.v.Tokens))
	for i := range s.v.Tokens {
		t := &s.v.Tokens[i]
		c := s.b.px(t.At)
		if s.b.kind != engine.OpenTable {
			// In the lower part of the cell, clear of any counter.
			c.y += 0.36 * s.b.scale
		}
		s.tokens[i] = tokenShape{t: t, style: s.style(t.Group), c: c, r: r}
	}
}

// drawTokens draws markers left on the table, each kind its own shape: a
// fallen body is a disc crossed by a bar, dropped armour a shield, any
// other marker a diamond; all in the group's colour.
func (s *scene) drawTokens() {
	dc, k := s.dc, s.k
	for _, t := range s.tokens {
		if s.outside(rect{t.c.x - t.r, t.c.y - t.r, t.c.x + t.r, t.c.y + t.r}) {
			continue
		}
		dc.SetColor(t.style.fill)
		tokenPath(dc, t.t.Kind, t.c, t.r)
		dc.FillPreserve()
		dc.SetColor(ink)
		dc.SetLineWidth(1.3 * k)
		dc.Stroke()
		if t.t.Kind == engine.BodyToken {
			dc.SetLineCapButt()
			dc.SetColor(ink)
			dc.SetLineWidth(3.4 * k)
			dc.DrawLine(t.c.x-t.r, t.c.y, t.c.x+t.r, t.c.y)
			dc.Stroke()
			dc.SetColor(white)
			dc.SetLineWidth(1.4 * k)
			dc.DrawLine(t.c.x-t.r+1.2*k, t.c.y, t.c.x+t.r-1.2*k, t.c.y)
			dc.Stroke()
		}
	}
}

func tokenPath(dc *gg.Context, kind engine.TokenKind, c pt, r float64) {
	switch kind {
	case engine.BodyToken:
		dc.DrawCircle(c.x, c.y, r)
	case engine.ArmorToken:
		polygon(dc, []pt{
			{c.x - r, c.y - r}, {c.x + r, c.y - r}, {c.x + r, c.y + 0.1*r},
			{c.x, c.y + 1.15*r}, {c.x - r, c.y + 0.1*r},
		})
	default:
		polygon(dc, []pt{{c.x, c.y - 1.2*r}, {c.x + r, c.y}, {c.x, c.y + 1.2*r}, {c.x - r, c.y}})
	}
}

// label is the text beside a piece or token: its name, then its wound
// pips, and the crew on a second line.
type label struct {
	text, crew    string
	limit, wounds int
	f             *face
	pipR, pipStep float64
	pipsW, firstW float64
	pipText       string
	textC         color.RGBA
	at            rect // where it was placed
	of            rect // what it names
	leader        bool // drawn apart from what it names, so joined by a line
	anchor        pt   // where the leader starts
}

// What covering things costs a label, per pixel covered.
const (
	costBase  = 1.0
	costCode  = 60.0 // a piece's type letters: a callout over them hides what the piece is
	costLabel = 3.0
	costMark  = 0.5
	costWord  = 2.0
)

// labelSize lays out l and returns its size.
func (s *scene) labelSize(l *label) (w, h float64) {
	k := s.k
	l.firstW = l.f.width(l.text)
	l.pipR = 3.7 * k
	l.pipStep = 2*l.pipR + 1.8*k
	l.pipsW = 0
	l.pipText = ""
	switch {
	case l.limit > 0 && l.limit <= 8:
		l.pipsW = 3*k + float64(l.limit)*l.pipStep
	case l.wounds > 0:
		// Too many for pips: the losses alone, as a count. What is left
		// is the crew's to say ("12/16 left"), so that no picture shows
		// "0/16" lost beside "16/16" left.
		l.pipText = " " + lossText(l.wounds, s.v.Pips)
		l.pipsW = s.fs.small.width(l.pipText)
	}
	w = l.firstW + l.pipsW
	h = l.f.height()
	if l.crew != "" {
		w = math.Max(w, s.fs.small.width(l.crew))
		h += s.fs.small.height() - 1*k
	}
	pad := 1.5 * k
	return w + 2*pad, h + 2*pad
}

// place finds a spot for a box w by h beside box (the thing it names),
// keeping off everything in s.space, and returns it with its cost.
func (s *scene) place(box rect, self int, w, h float64) (rect, float64) {
	k := s.k
	g := 1.5 * k
	cx, cy := (box.x0+box.x1)/2, (box.y0+box.y1)/2
	type cand struct {
		x, y float64
		far  bool
	}
	cands := [...]cand{
		{cx - w/2, box.y1 + g, false},         // below
		{cx - w/2, box.y0 - g - h, false},     // above
		{box.x1 + g, cy - h/2, false},         // right
		{box.x0 - g - w, cy - h/2, false},     // left
		{box.x1 + g, box.y1 - h/3, false},     // right, low
		{box.x1 + g, box.y0 - 2*h/3, false},   // right, high
		{box.x0 - g - w, box.y1 - h/3, false}, // left, low
		{box.x0 - g - w, box.y0 - 2*h/3, false},
		{box.x1 - w/3, box.y1 + g, false}, // below, to the right
		{box.x0 - 2*w/3, box.y1 + g, false},
		{box.x1 - w/3, box.y0 - g - h, false}, // above, to the right
		{box.x0 - 2*w/3, box.y0 - g - h, false},
		{cx - w/2, box.y1 + 6*k + h, true}, // further away, with a leader
		{cx - w/2, box.y0 - 6*k - 2*h, true},
		{box.x1 + 8*k, box.y1 + 4*k, true},
		{box.x0 - 8*k - w, box.y1 + 4*k, true},
		{box.x1 + 8*k, box.y0 - 4*k - h, true},
		{box.x0 - 8*k - w, box.y0 - 4*k - h, true},
		{cx - w/2, box.y1 + 10*k + 2*h, true},
		{cx - w/2, box.y0 - 10*k - 3*h, true},
	}
	best, bestCost := rect{}, math.Inf(1)
	W := float64(s.w)
	for i, c := range cands {
		r := rect{c.x, c.y, c.x + w, c.y + h}
		cost := float64(i) * 1.5 * k * k
		if c.far {
			cost += 60 * k * k
		}
		if cost >= bestCost {
			break // the rest cost more before they cover anything
		}
		if r.x0 < 0 || r.y0 < s.area.y0 || r.x1 > W || r.y1 > s.area.y1 {
			continue // off the picture, or over the title or legend
		}
		// Over the ruler is worse than on the table.
		cost += 0.6 * (r.w()*r.h() - r.overlap(s.b.table))
		cost += s.space.cost(r, self, bestCost-cost)
		if cost < bestCost {
			best, bestCost = r, cost
		}
	}
	if math.IsInf(bestCost, 1) {
		best = rect{cx - w/2, box.y1 + g, cx + w/2, box.y1 + g + h}
		bestCost = 1e9
	}
	return best, bestCost
}

// fillSpace files everything labels keep off.
func (s *scene) fillSpace(words []spot) {
	W, H := float64(s.w), float64(s.h)
	s.space = newSpatial(W, H, 48*s.k)
	for i, p := range s.pieces {
		s.space.add(p.box, costBase, i)
		if p.p.Kind != "" {
			// The type letters in the middle of the piece are kept clear
			// of every callout and label, its own included.
			f := s.fs.kind
			hw, hh := f.width(p.p.Kind)/2+s.k, f.ascent*0.36+s.k
			s.space.add(rect{p.c.x - hw, p.c.y - hh, p.c.x + hw, p.c.y + hh}, costCode, -1)
		}
	}
	for i, t := range s.tokens {
		s.space.add(rect{t.c.x - t.r, t.c.y - t.r, t.c.x + t.r, t.c.y + t.r}, costBase, len(s.pieces)+i)
	}
	for _, w := range words {
		s.space.add(w.box, costWord, -1)
	}
	// Marks: boxes along each line, or round a cross.
	for _, m := range s.v.Marks {
		a, b := s.b.px(m.From), s.b.px(m.To)
		if m.Kind == engine.KillMark {
			r := 13 * s.k
			s.space.add(rect{a.x - r, a.y - r, a.x + r, a.y + r}, costMark, -1)
			continue
		}
		l := math.Hypot(b.x-a.x, b.y-a.y)
		n := min(int(l/(8*s.k))+1, 1000)
		r := 4 * s.k
		for i := 0; i <= n; i++ {
			t := float64(i) / float64(n)
			p := pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
			s.space.add(rect{p.x - r, p.y - r, p.x + r, p.y + r}, costMark, -1)
		}
	}
}

// placeLabels places the labels of pieces and tokens. A label is always
// the piece's full name, as players type it: a name cut to "W2" or "1"
// reads as another piece's, or as a number. The most crowded pieces
// choose first; a label that had to go further off is joined to its
// piece by a thin line.
func (s *scene) placeLabels() {
	k := s.k
	order := make([]int, len(s.pieces))
	crowd := make([]int, len(s.pieces))
	for i := range order {
		order[i] = i
		crowd[i] = s.space.count(s.pieces[i].box.grow(24*k), i)
	}
	sort.SliceStable(order, func(a, b int) bool { return crowd[order[a]] > crowd[order[b]] })
	byPiece := make([]label, len(s.pieces))
	for _, i := range order {
		ps := s.pieces[i]
		l := label{text: clip(ps.p.Label), crew: clip(ps.p.Crew), limit: ps.p.Limit, wounds: ps.p.Wounds, f: s.labelFace(), textC: ink, of: ps.box, anchor: ps.c}
		w, h := s.labelSize(&l)
		at, _ := s.place(ps.box, i, w, h)
		l.at = at
		s.space.add(at, costLabel, -1)
		byPiece[i] = l
	}
	s.labels = append(s.labels, byPiece...)
	for i, t := range s.tokens {
		if t.t.Label == "" {
			continue
		}
		box := rect{t.c.x - t.r, t.c.y - t.r, t.c.x + t.r, t.c.y + t.r}
		l := label{text: clip(t.t.Label), f: s.fs.small, textC: ink, of: box, anchor: t.c}
		w, h := s.labelSize(&l)
		l.at, _ = s.place(box, len(s.pieces)+i, w, h)
		s.space.add(l.at, costLabel, -1)
		s.labels = append(s.labels, l)
	}
	// A label that does not touch its piece's outline (a turned base
	// leaves the corners of its box empty) gets a leader.
	for i := range s.labels {
		l := &s.labels[i]
		d := gap(l.at, l.of)
		if i < len(s.pieces) {
			d = outlineGap(l.at, s.pieces[i].poly)
		}
		l.leader = d > 4*k
	}
}

// outlineGap is about the distance from r to the polygon ps: to the
// nearest of its corners and edges' midpoints.
func outlineGap(r rect, ps []pt) float64 {
	d := math.Inf(1)
	for i, a := range ps {
		b := ps[(i+1)%len(ps)]
		for _, p := range [2]pt{a, {(a.x + b.x) / 2, (a.y + b.y) / 2}} {
			d = math.Min(d, gap(r, rect{p.x, p.y, p.x, p.y}))
		}
	}
	return d
}

// maxLabel is the most runes of a name drawn on the board.
const maxLabel = 32

// clip shortens a name to maxLabel runes.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	return string(r[:maxLabel-1]) + "…"
}

// gap is the distance between two boxes, 0 when they meet.
func gap(a, b rect) float64 {
	dx := math.Max(0, math.Max(a.x0-b.x1, b.x0-a.x1))
	dy := math.Max(0, math.Max(a.y0-b.y1, b.y0-a.y1))
	return math.Hypot(dx, dy)
}

// nearestOn returns the point of r nearest p.
func nearestOn(r rect, p pt) pt {
	return pt{math.Max(r.x0, math.Min(p.x, r.x1)), math.Max(r.y0, math.Min(p.y, r.y1))}
}

// drawLeaders joins labels set apart to what they name. They are drawn
// under the pieces, so a line starts at its piece's edge.
func (s *scene) drawLeaders() {
	for _, l := range s.labels {
		if l.leader {
			q := nearestOn(l.at.grow(-1*s.k), l.anchor)
			if s.outside(span(l.anchor, q)) {
				continue
			}
			s.fl.line(s.dc, s.img, l.anchor, q, 1.1*s.k, rulerInk)
		}
	}
}

// lossText is how a count too many for pips is written: "−4" figures
// lost, or "+4" wounds or hits taken (View.Pips says which).
func lossText(n int, pips string) string {
	if takes(pips) {
		return "+" + strconv.Itoa(n)
	}
	return "\u2212" + strconv.Itoa(n)
}

// takes reports whether a piece's pips count what it takes (wounds,
// hits) rather than what it loses (figures, stands).
func takes(pips string) bool {
	return pips == "" || pips == "wound" || strings.HasSuffix(pips, "hit")
}

// drawLabels draws the labels where they were placed.
func (s *scene) drawLabels() {
	k := s.k
	pad := 1.5 * k
	for _, l := range s.labels {
		if s.outside(l.at) {
			continue
		}
		x, y := l.at.x0+pad, l.at.y0+pad+l.f.ascent
		drawHalo(s.img, l.f, l.text, x, y, l.textC, white)
		if l.pipText != "" {
			drawHalo(s.img, s.fs.small, l.pipText, x+l.firstW, y, woundFill, white)
		} else if l.limit > 0 && l.limit <= 8 {
			s.pips(l, pt{x + l.firstW + 3*k + l.pipR, l.at.y0 + pad + l.f.height()/2})
		}
		if l.crew != "" {
			cy := l.at.y0 + pad + l.f.height() - 1*k + s.fs.small.ascent
			drawHalo(s.img, s.fs.small, l.crew, x, cy, rulerInk, white)
		}
	}
}

// pips draws a label's wound pips from c rightwards: wounds taken are
// filled red, the rest hollow; each has a white halo and a black rim so
// it reads on any colour. Pips are sprites drawn once per renderer:
// gg's circles are slow and every picture has hundreds of pips.
func (s *scene) pips(l label, c pt) {
	for i := 0; i < l.limit; i++ {
		sp := s.sprites.empty
		if i < l.wounds {
			sp = s.sprites.full
		}
		x := int(math.Round(c.x+float64(i)*l.pipStep)) - sp.Rect.Dx()/2
		y := int(math.Round(c.y)) - sp.Rect.Dy()/2
		pasteOver(s.img, sp, image.Pt(x, y))
	}
}

// pasteOver draws the sprite sp over dst with its corner at p: what
// draw.Draw does with draw.Over, to the byte, but that a pixel the
// sprite does not cover is left alone and one it covers wholly is
// copied, where image/draw blends every pixel of it.
func pasteOver(dst, sp *image.RGBA, p image.Point) {
	r := sp.Rect.Add(p.Sub(sp.Rect.Min)).Intersect(dst.Rect)
	const m = 1<<16 - 1
	for y := r.Min.Y; y < r.Max.Y; y++ {
		d := dst.Pix[dst.PixOffset(r.Min.X, y):][:4*r.Dx()]
		src := sp.Pix[sp.PixOffset(r.Min.X-p.X+sp.Rect.Min.X, y-p.Y+sp.Rect.Min.Y):][:4*r.Dx()]
		for i := 0; i < len(d); i += 4 {
			switch s := src[i : i+4 : i+4]; s[3] {
			case 0:
			case 0xFF:
				copy(d[i:i+4], s)
			default:
				// Premultiplied, in 16 bits, as image/draw.
				a := (m - uint32(s[3])*0x101) * 0x101
				px := d[i : i+4 : i+4]
				for j := range 4 {
					px[j] = uint8((uint32(px[j])*a/m + uint32(s[j])*0x101) >> 8)
				}
			}
		}
	}
}

// sprites are small pictures drawn once and copied many times.
type sprites struct {
	full, empty *image.RGBA
}

func newSprites(k float64) *sprites {
	r := 3.7 * k
	n := int(math.Ceil(2*(r+1.2*k))) + 2
	mk := func(full bool) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, n, n))
		dc := gg.NewContextForRGBA(img)
		c := float64(n) / 2
		dc.DrawCircle(c, c, r+1.2*k)
		dc.SetColor(white)
		dc.Fill()
		if full {
			dc.DrawCircle(c, c, r)
			dc.SetColor(woundFill)
			dc.Fill()
		}
		dc.DrawCircle(c, c, r-0.3*k)
		dc.SetColor(ink)
		dc.SetLineWidth(1.2 * k)
		dc.Stroke()
		return img
	}
	return &sprites{full: mk(true), empty: mk(false)}
}
