package render

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestGroundDrawnOncePerScale shows one table in frames at different
// places, each framed round a move there at the same scale: the ground is
// drawn once for all of them, and every picture is the one drawn afresh
// for its frame.
func TestGroundDrawnOncePerScale(t *testing.T) {
	for _, c := range []struct {
		name  string
		view  func() engine.View
		moves [][2]engine.Vec
	}{
		{"open table", skirmish, [][2]engine.Vec{{{X: 10, Y: 8}, {X: 12, Y: 8}}, {{X: 30, Y: 20}, {X: 32, Y: 20}}, {{X: 48, Y: 30}, {X: 50, Y: 30}}}},
		{"square grid", squareScene, [][2]engine.Vec{{{X: 1, Y: 1}, {X: 1, Y: 2}}, {{X: 10, Y: 5}, {X: 10, Y: 6}}}},
		{"hex map", hexScene, [][2]engine.Vec{{{X: 3, Y: 3}, {X: 3, Y: 4}}, {{X: 17, Y: 9}, {X: 17, Y: 10}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
			frames := map[staticKey]bool{}
			var scale float64
			for i, m := range c.moves {
				v := c.view()
				v.Pieces, v.Tokens = nil, nil // the frame follows the move alone
				v.Marks = []engine.Mark{{Kind: engine.MoveMark, Group: 0, From: m[0], To: m[1]}}
				fv, b, _, _, _, err := r.frame(&v)
				if err != nil {
					t.Fatal(err)
				}
				if i > 0 && b.scale != scale {
					t.Fatalf("move %d is framed at %g pixels a unit, the first at %g: the test needs one scale", i, b.scale, scale)
				}
				scale = b.scale
				frames[keyOf(fv, &b)] = true
				a, err := r.draw(&v, true, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := append([]byte(nil), a.img.Pix...)
				r.done(a)
				f, err := r.draw(&v, false, nil)
				if err != nil {
					t.Fatal(err)
				}
				diff := 0
				for j := range got {
					if d := int(got[j]) - int(f.img.Pix[j]); d > 8 || d < -8 {
						diff++
					}
				}
				r.done(f)
				if diff > len(got)/4000 {
					t.Errorf("move %d: the frame cut from the ground and one drawn afresh differ in %d channels", i, diff)
				}
			}
			if len(frames) != len(c.moves) {
				t.Fatalf("%d moves showed %d frames; the test needs one each", len(c.moves), len(frames))
			}
			if n := r.staticDraws.Load(); n != 1 {
				t.Errorf("%d frames of one table at one scale drew its ground %d times, want once", len(frames), n)
			}
		})
	}
}
