package render

import (
	"math"

	"github.com/fogleman/gg"
)

// polygon adds the closed polygon ps to dc's path.
func polygon(dc pather, ps []pt) {
	if len(ps) == 0 {
		return
	}
	dc.MoveTo(ps[0].x, ps[0].y)
	for _, p := range ps[1:] {
		dc.LineTo(p.x, p.y)
	}
	dc.ClosePath()
}

// bar adds to dc's path the rectangle a butt-capped line from a to b,
// width w across, covers: filled, it paints what stroking the line
// paints, without the cost of the stroker.
func bar(dc pather, a, b pt, w float64) {
	l := math.Hypot(b.x-a.x, b.y-a.y)
	if l == 0 {
		return
	}
	nx, ny := -(b.y-a.y)/l*w/2, (b.x-a.x)/l*w/2
	dc.MoveTo(a.x+nx, a.y+ny)
	dc.LineTo(b.x+nx, b.y+ny)
	dc.LineTo(b.x-nx, b.y-ny)
	dc.LineTo(a.x-nx, a.y-ny)
	dc.ClosePath()
}

// outline adds to dc's path the ring that stroking the convex polygon ps
// with round joins, w wide, covers: the polygon grown by w/2 with its
// corners rounded, less the polygon shrunk by w/2. Filled, it paints
// what the stroke paints, without the cost of the stroker. A polygon
// that is not convex, or too small to shrink, is stroked instead: it
// returns false, and adds nothing.
func outline(dc pather, ps []pt, w float64) bool {
	n := len(ps)
	if n < 3 {
		return false
	}
	r := w / 2
	// The polygon's turn: +1 when its corners turn one way throughout,
	// -1 the other; 0 when it is not convex.
	turn := 0.0
	normals := make([]pt, n) // each edge's outward normal, unit length
	for i := range n {
		a, b, c := ps[i], ps[(i+1)%n], ps[(i+2)%n]
		cross := (b.x-a.x)*(c.y-b.y) - (b.y-a.y)*(c.x-b.x)
		switch {
		case cross == 0:
			return false
		case turn == 0:
			turn = math.Copysign(1, cross)
		case math.Copysign(1, cross) != turn:
			return false
		}
		l := math.Hypot(b.x-a.x, b.y-a.y)
		if l < 2*w {
			return false
		}
		// Outward is to the right of the edge when the polygon turns
		// positive (clockwise on screen, y down).
		normals[i] = pt{-(b.y - a.y) / l * turn, (b.x - a.x) / l * turn}
	}
	// Outside: each corner's arc, from the normal of the edge before it
	// to the normal of the edge after, in three steps.
	for i := range n {
		v := ps[(i+1)%n]
		n0, n1 := normals[i], normals[(i+1)%n]
		a0 := math.Atan2(n0.y, n0.x)
		da := math.Atan2(n0.x*n1.y-n0.y*n1.x, n0.x*n1.x+n0.y*n1.y)
		for j := 0; j <= 3; j++ {
			a := a0 + da*float64(j)/3
			p := pt{v.x + r*math.Cos(a), v.y + r*math.Sin(a)}
			if i == 0 && j == 0 {
				dc.MoveTo(p.x, p.y)
			} else {
				dc.LineTo(p.x, p.y)
			}
		}
	}
	dc.ClosePath()
	// Inside, the other way round: each corner where the edges moved
	// in by w/2 meet.
	for k := range n {
		i := n - 1 - k
		v := ps[(i+1)%n]
		n0, n1 := normals[i], normals[(i+1)%n]
		d := 1 + n0.x*n1.x + n0.y*n1.y
		p := pt{v.x - r*(n0.x+n1.x)/d, v.y - r*(n0.y+n1.y)/d}
		if k == 0 {
			dc.MoveTo(p.x, p.y)
		} else {
			dc.LineTo(p.x, p.y)
		}
	}
	dc.ClosePath()
	return true
}

// clipHalf keeps the part of poly where n·p >= c (Sutherland–Hodgman).
func clipHalf(poly []pt, nx, ny, c float64) []pt {
	return clipHalfTo(nil, poly, nx, ny, c)
}

// clipHalfTo is clipHalf appending to out, which must not share poly's
// memory.
func clipHalfTo(out, poly []pt, nx, ny, c float64) []pt {
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		da, db := nx*a.x+ny*a.y-c, nx*b.x+ny*b.y-c
		if da >= 0 {
			out = append(out, a)
		}
		if (da >= 0) != (db >= 0) {
			t := da / (da - db)
			out = append(out, pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t})
		}
	}
	return out
}

// clipRect returns the part of poly inside r.
func clipRect(poly []pt, r rect) []pt {
	poly = clipHalf(poly, 1, 0, r.x0)
	poly = clipHalf(poly, -1, 0, -r.x1)
	poly = clipHalf(poly, 0, 1, r.y0)
	return clipHalf(poly, 0, -1, -r.y1)
}

// stripes adds to dc's path the stripes of a hatch over poly: bands
// width w wide, every period pixels, across the direction at angle deg
// (0 is horizontal bands). The stripes are laid from origin, so that
// neighbouring shapes' hatching continues, and a shape's does not change
// when the whole picture moves.
func stripes(dc pather, poly []pt, origin pt, deg, period, w float64) {
	if len(poly) < 3 {
		return
	}
	s, c := math.Sincos(deg * math.Pi / 180)
	nx, ny := -s, c // normal to the bands
	lo, hi := math.Inf(1), math.Inf(-1)
	o := nx*origin.x + ny*origin.y
	for _, p := range poly {
		d := nx*p.x + ny*p.y - o
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	// Two buffers for the clipped bands, reused: polygon copies them.
	var half, band []pt
	for k := math.Floor(lo / period); k*period < hi; k++ {
		a := k*period + o
		half = clipHalfTo(half[:0], poly, nx, ny, a)
		band = clipHalfTo(band[:0], half, -nx, -ny, -(a + w))
		if len(band) >= 3 {
			polygon(dc, band)
		}
	}
}

// inside reports whether p lies inside poly (even-odd rule).
func inside(poly []pt, p pt) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a.y > p.y) != (b.y > p.y) && p.x < (b.x-a.x)*(p.y-a.y)/(b.y-a.y)+a.x {
			in = !in
		}
	}
	return in
}

// centroid returns the centre of poly's area, or the mean of its points
// when it has none.
func centroid(poly []pt) pt {
	var a, cx, cy float64
	for i := range poly {
		p, q := poly[i], poly[(i+1)%len(poly)]
		cr := p.x*q.y - q.x*p.y
		a += cr
		cx += (p.x + q.x) * cr
		cy += (p.y + q.y) * cr
	}
	if math.Abs(a) < 1e-9 {
		var m pt
		for _, p := range poly {
			m.x += p.x / float64(len(poly))
			m.y += p.y / float64(len(poly))
		}
		return m
	}
	return pt{cx / (3 * a), cy / (3 * a)}
}

// arrowHead adds a filled triangle pointing at tip from the direction of
// from, len long and wide across.
func arrowHead(dc *gg.Context, from, tip pt, length, wide float64) {
	dx, dy := tip.x-from.x, tip.y-from.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	bx, by := tip.x-ux*length, tip.y-uy*length
	dc.MoveTo(tip.x, tip.y)
	dc.LineTo(bx-uy*wide/2, by+ux*wide/2)
	dc.LineTo(bx+uy*wide/2, by-ux*wide/2)
	dc.ClosePath()
}
