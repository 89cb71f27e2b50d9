package render

import (
	"image/color"
	"math"
	"sort"

	"github.com/fogleman/gg"
	"github.com/rhapsode/rhapsode/engine"
)

// The last step is drawn over the board. Each kind of mark has its own
// shape, so none depends on colour alone:
//
//   - a move is an arrow in the mover's colour, cased in black (a ring
//     where something was set down without moving);
//   - a missile is a thin black arrow, solid with a star at the target
//     when it struck, dashed with an empty circle when it missed;
//   - a melee pairing is a line between the two, under them, with a
//     yellow disc where they meet joined to a yellow plate with the
//     result;
//   - a push (impact) is a hollow white arrow;
//   - a removed element is a red cross cased in black.

// markOrder stacks the marks: moves lowest, removals on top.
var markOrder = [...]int{engine.MoveMark: 0, engine.ImpactMark: 1, engine.FireMark: 2, engine.MeleeMark: 3, engine.KillMark: 4}

func rank(k engine.MarkKind) int {
	if int(k) < len(markOrder) {
		return markOrder[k]
	}
	return len(markOrder)
}

// plate is a mark's label, drawn over everything.
type plate struct {
	text   string
	at     rect
	anchor pt // the middle of the pairing
}

// sortedMarks returns the marks in drawing order.
func (s *scene) sortedMarks() []*engine.Mark {
	ms := make([]*engine.Mark, len(s.v.Marks))
	for i := range s.v.Marks {
		ms[i] = &s.v.Marks[i]
	}
	sort.SliceStable(ms, func(a, b int) bool { return rank(ms[a].Kind) < rank(ms[b].Kind) })
	return ms
}

// drawUnder draws the marks that go under the pieces: moves' and
// pushes' trails (the piece that moved stands at the trail's end) and
// the lines pairing melees (the pieces are usually touching; a line over
// them would hide them).
func (s *scene) drawUnder() {
	for _, m := range s.sortedMarks() {
		if s.outside(span(s.b.px(m.From), s.b.px(m.To)).grow(20 * s.k)) {
			continue
		}
		switch m.Kind {
		case engine.MoveMark:
			moveMark(s.dc, s.k, s.b.px(m.From), s.b.px(m.To), s.style(m.Group).fill)
		case engine.MeleeMark:
			meleeLine(s.dc, s.k, s.b.px(m.From), s.b.px(m.To))
		case engine.ImpactMark:
			impactMark(s.dc, s.k, s.b.px(m.From), s.b.px(m.To))
		}
	}
}

// drawMarks draws the marks that go over the pieces: missiles, where
// melees meet, and removals.
func (s *scene) drawMarks() {
	for _, m := range s.sortedMarks() {
		from, to := s.b.px(m.From), s.b.px(m.To)
		if s.outside(span(from, to).grow(s.targetR(m.To) + 20*s.k)) {
			continue
		}
		switch m.Kind {
		case engine.FireMark:
			fireMark(s.dc, s.k, from, to, m.Hit, s.targetR(m.To))
		case engine.MeleeMark:
			meleeDot(s.dc, s.k, from, to)
		case engine.KillMark:
			killMark(s.dc, s.k, from)
		}
	}
}

// placePlates places the melee results beside their pairings, clear of
// the pieces, before the pieces' labels are placed.
func (s *scene) placePlates() {
	f := s.labelFace()
	for _, m := range s.sortedMarks() {
		if m.Kind != engine.MeleeMark || m.Label == "" {
			continue
		}
		a, b := s.b.px(m.From), s.b.px(m.To)
		c := pt{(a.x + b.x) / 2, (a.y + b.y) / 2}
		text := clip(m.Label)
		w, h := f.width(text)+8*s.k, f.height()+4*s.k
		r := 3 * s.k
		at, _ := s.place(rect{c.x - r, c.y - r, c.x + r, c.y + r}, -1, w, h)
		s.space.add(at, costLabel, -1)
		s.plates = append(s.plates, plate{text: text, at: at, anchor: c})
	}
}

func (s *scene) drawPlates() {
	dc, k := s.dc, s.k
	for _, p := range s.plates {
		// The plate, its anchor and the leader between them.
		if s.outside(p.at.union(span(p.anchor, p.anchor))) {
			continue
		}
		if gap(p.at, rect{p.anchor.x, p.anchor.y, p.anchor.x, p.anchor.y}) > 4*k {
			q := nearestOn(p.at, p.anchor)
			dc.SetLineCapRound()
			dc.DrawLine(p.anchor.x, p.anchor.y, q.x, q.y)
			dc.SetColor(white)
			dc.SetLineWidth(3.4 * k)
			dc.StrokePreserve()
			dc.SetColor(ink)
			dc.SetLineWidth(1.4 * k)
			dc.Stroke()
			dc.SetLineCapButt()
		}
		dc.SetColor(meleePlate)
		dc.DrawRoundedRectangle(p.at.x0, p.at.y0, p.at.w(), p.at.h(), 3*k)
		dc.FillPreserve()
		dc.SetColor(ink)
		dc.SetLineWidth(1.2 * k)
		dc.Stroke()
		f := s.labelFace()
		x, y := anchor(f, p.text, (p.at.x0+p.at.x1)/2, (p.at.y0+p.at.y1)/2, 0.5, 0.5)
		drawText(s.img, f, p.text, x, y, ink)
	}
}

// back returns the point d before to on the way from from.
func back(from, to pt, d float64) pt {
	l := math.Hypot(to.x-from.x, to.y-from.y)
	if l <= d {
		return from
	}
	t := (l - d) / l
	return pt{from.x + (to.x-from.x)*t, from.y + (to.y-from.y)*t}
}

func moveMark(dc *gg.Context, k float64, from, to pt, c color.RGBA) {
	if math.Hypot(to.x-from.x, to.y-from.y) < 3*k {
		// Set down in place: a ring.
		dc.DrawCircle(to.x, to.y, 8*k)
		dc.SetColor(ink)
		dc.SetLineWidth(4.6 * k)
		dc.StrokePreserve()
		dc.SetColor(c)
		dc.SetLineWidth(2.2 * k)
		dc.Stroke()
		return
	}
	head := 13 * k
	end := back(from, to, head*0.8)
	dc.SetLineCapRound()
	casedLine(dc, from, end, ink, 5.6*k, c, 3*k)
	dc.SetLineCapButt()
	arrowHead(dc, from, to, head, 11*k)
	dc.SetColor(c)
	dc.FillPreserve()
	dc.SetColor(ink)
	dc.SetLineWidth(1.3 * k)
	dc.Stroke()
	// where it started
	dc.DrawCircle(from.x, from.y, 3*k)
	dc.SetColor(c)
	dc.FillPreserve()
	dc.SetColor(ink)
	dc.SetLineWidth(1.2 * k)
	dc.Stroke()
}

// targetR is the radius of what a missile aimed at p strikes: on a grid,
// a counter; on an open table, the base there, so that the burst rings
// it and leaves its code in sight.
func (s *scene) targetR(p engine.Vec) float64 {
	switch s.b.kind {
	case engine.SquareGrid:
		return 0.3 * s.b.scale
	case engine.HexGrid:
		return 0.49 * s.b.scale
	}
	r := 7 * s.k
	for _, ps := range s.pieces {
		b := ps.p.Base
		if b.Center.Dist(p) < 1e-6 || b.Contains(p) {
			r = math.Max(r, math.Hypot(ps.box.w(), ps.box.h())/2+1*s.k)
			break
		}
	}
	return r
}

func fireMark(dc *gg.Context, k float64, from, to pt, hit bool, target float64) {
	// A hit ends in a burst around the target, leaving it in sight; a
	// miss is dashed and falls short.
	burst0, burst1 := target, target+6*k
	end := back(from, to, burst0)
	if !hit {
		end = back(from, to, target-1*k+8*k)
		dc.SetDash(7*k, 5*k)
	}
	dc.SetLineCapButt()
	casedLine(dc, from, end, white, 4.4*k, fireInk, 2*k)
	dc.SetDash()
	if !hit {
		tip := back(from, to, target-1*k)
		arrowHead(dc, from, tip, 10*k, 9*k)
		dc.SetColor(fireInk)
		dc.FillPreserve()
		dc.SetColor(white)
		dc.SetLineWidth(1 * k)
		dc.Stroke()
		return
	}
	rays := func() {
		for i := 0; i < 8; i++ {
			a := float64(i)*math.Pi/4 + math.Pi/8
			c, s := math.Cos(a), math.Sin(a)
			dc.MoveTo(to.x+c*burst0, to.y+s*burst0)
			dc.LineTo(to.x+c*burst1, to.y+s*burst1)
		}
	}
	dc.SetLineCapRound()
	rays()
	dc.SetColor(ink)
	dc.SetLineWidth(4.4 * k)
	dc.Stroke()
	rays()
	dc.SetColor(killCore)
	dc.SetLineWidth(2.2 * k)
	dc.Stroke()
	dc.SetLineCapButt()
}

// meleeLine pairs two elements in melee.
func meleeLine(dc *gg.Context, k float64, from, to pt) {
	dc.SetLineCapRound()
	casedLine(dc, from, to, white, 5.4*k, ink, 2.4*k)
	dc.SetLineCapButt()
}

// meleeDot marks where a melee pairing meets, over the pieces: a yellow
// disc like the plate that gives the result.
func meleeDot(dc *gg.Context, k float64, from, to pt) {
	c := pt{(from.x + to.x) / 2, (from.y + to.y) / 2}
	dc.DrawCircle(c.x, c.y, 4.8*k)
	dc.SetColor(meleePlate)
	dc.FillPreserve()
	dc.SetColor(ink)
	dc.SetLineWidth(1.6 * k)
	dc.Stroke()
}

// meleeMark draws a whole melee mark, for the legend.
func meleeMark(dc *gg.Context, k float64, from, to pt) {
	meleeLine(dc, k, from, to)
	meleeDot(dc, k, from, to)
}

func impactMark(dc *gg.Context, k float64, from, to pt) {
	l := math.Hypot(to.x-from.x, to.y-from.y)
	if l < 1 {
		return
	}
	ux, uy := (to.x-from.x)/l, (to.y-from.y)/l
	nx, ny := -uy, ux
	head := math.Min(15*k, l*0.7)
	sw, hw := 3.2*k, 9*k
	b := pt{to.x - ux*head, to.y - uy*head}
	polygon(dc, []pt{
		{from.x + nx*sw, from.y + ny*sw},
		{b.x + nx*sw, b.y + ny*sw},
		{b.x + nx*hw, b.y + ny*hw},
		to,
		{b.x - nx*hw, b.y - ny*hw},
		{b.x - nx*sw, b.y - ny*sw},
		{from.x - nx*sw, from.y - ny*sw},
	})
	dc.SetColor(white)
	dc.FillPreserve()
	dc.SetColor(ink)
	dc.SetLineWidth(2 * k)
	dc.SetLineJoinRound()
	dc.Stroke()
}

func killMark(dc *gg.Context, k float64, at pt) {
	// The arms leave the middle open: a fallen body's token lies there.
	r0, r1 := 9*k, 15*k
	x := func() {
		for _, d := range [4][2]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			dc.MoveTo(at.x+d[0]*r0*0.7071, at.y+d[1]*r0*0.7071)
			dc.LineTo(at.x+d[0]*r1*0.7071, at.y+d[1]*r1*0.7071)
		}
	}
	dc.SetLineCapRound()
	x()
	dc.SetColor(ink)
	dc.SetLineWidth(7 * k)
	dc.Stroke()
	x()
	dc.SetColor(killCore)
	dc.SetLineWidth(3.6 * k)
	dc.Stroke()
	dc.SetLineCapButt()
}

// casedLine draws a line from a to b in c, w wide, over a wider one in
// edge, so that it reads on any ground.
func casedLine(dc *gg.Context, a, b pt, edge color.Color, edgeW float64, c color.Color, w float64) {
	dc.DrawLine(a.x, a.y, b.x, b.y)
	dc.SetColor(edge)
	dc.SetLineWidth(edgeW)
	dc.StrokePreserve()
	dc.SetColor(c)
	dc.SetLineWidth(w)
	dc.Stroke()
}
