package render

import (
	"math"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestZoomSnapsToLevels frames one move at a time, short and long, all
// over each kind of board: every framing shows its move whole and cuts
// no piece, and the frames come in only a few scales (a zoom level or
// the whole width), so that the table's ground is drawn a few times at
// most; short moves anywhere on an empty table share one scale.
func TestZoomSnapsToLevels(t *testing.T) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	for _, c := range []struct {
		name  string
		view  func() engine.View
		first float64 // the first column and row
		most  int     // scales allowed: the levels narrower than most of the table, and the whole
	}{
		{"open table", skirmish, 0, 4}, // 20, 30, 45 strides, and all 60
		{"square grid", squareScene, 0, 2},
		{"hex map", hexScene, 1, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := c.view()
			last := base.Width - 1 + c.first
			if base.Kind == engine.OpenTable {
				last = base.Width
			}
			scales := map[float64]int{}
			short := map[float64]int{}
			for i := range 8 {
				for j := range 5 {
					for _, n := range []float64{1, 2, 3, 6, 10, 15, 25, 40} {
						from := engine.Vec{X: math.Round(c.first + float64(i)*(last-c.first)/8), Y: math.Round(c.first + float64(j)*(base.Depth-1)/5)}
						to := engine.Vec{X: math.Min(from.X+n, last), Y: from.Y}
						v := c.view()
						if n <= 2 && i%2 == 1 {
							// Alone on the table, so that no piece
							// widens the frame.
							v.Pieces, v.Tokens = nil, nil
						}
						v.Marks = []engine.Mark{{Kind: engine.MoveMark, From: from, To: to}}
						fv, b, _, _, _, err := r.frame(&v)
						if err != nil {
							t.Fatal(err)
						}
						if len(fv.Marks) != 1 {
							t.Errorf("a move from %v to %v is not in its own frame", from, to)
						}
						if v.Kind == engine.OpenTable {
							for _, p := range fv.Pieces {
								if q := p.Base.Center; cutBy(q, math.Hypot(p.Base.Width, p.Base.Depth)/2, b, v.Width, v.Depth) {
									t.Errorf("the frame of a move from %v to %v cuts %s at %v", from, to, p.Label, q)
								}
							}
						}
						scales[b.scale]++
						if len(v.Pieces) == 0 {
							short[b.scale]++
						}
					}
				}
			}
			if len(scales) > c.most {
				t.Errorf("moves were framed at %d scales, want at most %d: %v", len(scales), c.most, scales)
			}
			if len(short) != 1 {
				t.Errorf("short moves on an empty table were framed at %d scales, want one: %v", len(short), short)
			}
		})
	}
}

// cutBy reports whether a piece reaching r units round c is partly in and
// partly out of b's frame of an open table w by d, at an edge of the
// frame that is not the table's.
func cutBy(c engine.Vec, r float64, b board, w, d float64) bool {
	x0, y0, x1, y1 := b.wx, b.wy, b.wx+b.w, b.wy+b.d
	in := c.X+r > x0 && c.X-r < x1 && c.Y+r > y0 && c.Y-r < y1
	return in && (c.X-r < x0 && x0 > 0 || c.X+r > x1 && x1 < w || c.Y-r < y0 && y0 > 0 || c.Y+r > y1 && y1 < d)
}
