package render

import "math"

// spatial finds the boxes a label would cover quickly: boxes are filed
// in the square cells of a coarse grid over the picture.
type spatial struct {
	cell       float64
	cols, rows int
	buckets    [][]int32
	items      []weighted
	stamp      []uint32
	cur        uint32
}

// weighted is a box with what covering it costs per pixel, and the
// thing it belongs to (-1 for none), which its own label may touch.
type weighted struct {
	r     rect
	w     float64
	owner int
}

func newSpatial(w, h, cell float64) *spatial {
	s := &spatial{cell: cell, cols: int(w/cell) + 1, rows: int(h/cell) + 1}
	s.buckets = make([][]int32, s.cols*s.rows)
	return s
}

func (s *spatial) span(r rect) (c0, r0, c1, r1 int) {
	cl := func(x float64, n int) int { return max(0, min(n-1, int(math.Floor(x/s.cell)))) }
	return cl(r.x0, s.cols), cl(r.y0, s.rows), cl(r.x1, s.cols), cl(r.y1, s.rows)
}

func (s *spatial) add(r rect, w float64, owner int) {
	id := int32(len(s.items))
	s.items = append(s.items, weighted{r, w, owner})
	s.stamp = append(s.stamp, 0)
	c0, r0, c1, r1 := s.span(r)
	for y := r0; y <= r1; y++ {
		for x := c0; x <= c1; x++ {
			s.buckets[y*s.cols+x] = append(s.buckets[y*s.cols+x], id)
		}
	}
}

// near calls f once with each box filed in a cell that r touches, until
// f returns false. It is a plain loop rather than an iterator: label
// placement asks it thousands of times a picture.
func (s *spatial) near(r rect, f func(*weighted) bool) {
	s.cur++
	c0, r0, c1, r1 := s.span(r)
	for y := r0; y <= r1; y++ {
		for x := c0; x <= c1; x++ {
			for _, id := range s.buckets[y*s.cols+x] {
				if s.stamp[id] == s.cur {
					continue
				}
				s.stamp[id] = s.cur
				if !f(&s.items[id]) {
					return
				}
			}
		}
	}
}

// cost is the weighted area of r covered by boxes not owned by self, or
// some sum at least limit once it is clear that the cost reaches it.
func (s *spatial) cost(r rect, self int, limit float64) float64 {
	total := 0.0
	s.cur++
	c0, r0, c1, r1 := s.span(r)
	for y := r0; y <= r1; y++ {
		for x := c0; x <= c1; x++ {
			for _, id := range s.buckets[y*s.cols+x] {
				if s.stamp[id] == s.cur {
					continue
				}
				s.stamp[id] = s.cur
				it := &s.items[id]
				if it.owner >= 0 && it.owner == self {
					continue
				}
				if total += it.w * r.overlap(it.r); total >= limit {
					return total
				}
			}
		}
	}
	return total
}

// count is the number of boxes other than self's that meet r.
func (s *spatial) count(r rect, self int) int {
	n := 0
	s.near(r, func(it *weighted) bool {
		if it.owner != self && r.overlap(it.r) > 0 {
			n++
		}
		return true
	})
	return n
}
