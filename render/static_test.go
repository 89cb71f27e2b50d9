package render

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"testing"

	"github.com/fogleman/gg"
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
				diff, n := cutAgainstFresh(t, r, &v)
				if diff > n/4000 {
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

// TestZonesDoNotRedrawGround shows one table, framed alike, with its
// zones changing from picture to picture (its own, none, others that
// cross its terrain at no whole pixel, a hex leader's command range of
// either side): the ground is drawn once for all of them, and each
// picture is the one drawn afresh with its zones. A frame cut from the
// ground differs a little from one drawn afresh even with no zones (an
// antialiased edge here and there); the zones tinted over it must add
// next to nothing to that.
func TestZonesDoNotRedrawGround(t *testing.T) {
	hexes := func(c, r, n, side int) []engine.Zone {
		var zs []engine.Zone
		for _, h := range engine.HexesWithin(engine.HexFromOffset(c, r), n) {
			hc, hr := h.Offset()
			p := engine.Vec{X: float64(hc), Y: float64(hr)}
			zs = append(zs, engine.Zone{Min: p, Max: p, Side: side})
		}
		return zs
	}
	for _, c := range []struct {
		name  string
		view  func() engine.View
		zones [][]engine.Zone // the second is none
	}{
		{"open table", skirmish, [][]engine.Zone{
			gwabZones(60),
			nil,
			{{Label: "ambush", Min: engine.Vec{X: 5.3, Y: 12.7}, Max: engine.Vec{X: 40.6, Y: 30.2}, Side: 1}},
			{{Min: engine.Vec{X: 10.2, Y: 14.1}, Max: engine.Vec{X: 28.9, Y: 26.6}, Side: 0}, {Min: engine.Vec{X: 42.45, Y: 11}, Max: engine.Vec{X: 60, Y: 21.3}, Side: 1}},
		}},
		{"square grid", squareScene, [][]engine.Zone{
			squareScene().Zones,
			nil,
			{{Label: "flank", Min: engine.Vec{X: 0, Y: 2}, Max: engine.Vec{X: 5, Y: 5}, Side: 1}, {Min: engine.Vec{X: 8, Y: 3}, Max: engine.Vec{X: 11, Y: 4}, Side: 0}},
		}},
		{"hex map", hexScene, [][]engine.Zone{
			hexScene().Zones,
			nil,
			hexes(9, 8, 3, 0),
			hexes(8, 5, 2, 1),
			append(hexes(4, 6, 2, 0), hexes(17, 8, 2, 1)...),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
			var first board
			diffs := make([]int, len(c.zones))
			n := 0
			for i, zs := range c.zones {
				v := c.view()
				v.Zones = zs
				_, b, _, _, _, err := r.frame(&v)
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = b
				} else if b.scale != first.scale || b.wx != first.wx || b.wy != first.wy || b.c0 != first.c0 || b.r0 != first.r0 {
					t.Fatalf("zones %d changed the frame; the test needs one frame", i)
				}
				diffs[i], n = cutAgainstFresh(t, r, &v)
			}
			for i, d := range diffs {
				if d > diffs[1]+n/50000 {
					t.Errorf("zones %d: the picture with zones tinted over the ground and one drawn afresh differ by more than a shade in %d channels, against %d with no zones", i, d, diffs[1])
				}
			}
			if n := r.staticDraws.Load(); n != 1 {
				t.Errorf("%d sets of zones on one table and frame drew its ground %d times, want once", len(c.zones), n)
			}
		})
	}
}

// cutAgainstFresh draws v once from the cached ground and once afresh, and
// returns in how many of the picture's n channels the two differ by more
// than a shade.
func cutAgainstFresh(t *testing.T, r *Renderer, v *engine.View) (diff, n int) {
	t.Helper()
	a, err := r.draw(v, true)
	if err != nil {
		t.Fatal(err)
	}
	got := append([]byte(nil), a.whole().Pix...)
	r.done(a)
	f, err := r.draw(v, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.done(f)
	for j := range got {
		if d := int(got[j]) - int(f.img.Pix[j]); d > 8 || d < -8 {
			diff++
		}
	}
	return diff, len(got)
}

// TestClippedAsGG draws terrain reaching past the edges of boxes (on
// whole pixels and not; from above the picture, as a band of a ground
// below its first has it; wider than the picture) clipped by rows of
// the box's mask, and with gg's own clip: every pixel is the same.
func TestClippedAsGG(t *testing.T) {
	const w, h = 300, 200
	b := &board{scale: 9, all: rect{-20, -20, 320, 220}}
	shapes := []struct {
		kind engine.TerrainKind
		ps   []pt
	}{
		{engine.Rough, []pt{{-15, 30}, {120, -12}, {160, 90}, {40, 150}}},
		{engine.Protected, []pt{{150, 40}, {330, 60}, {310, 215}, {170, 190}}},
		{engine.Stream, []pt{{-10, 120}, {310, 170}}},
		{engine.Road, []pt{{90, -30}, {140, 230}}},
		{engine.Dark, []pt{{20, 160}, {100, 140}, {130, 230}, {10, 240}}},
	}
	for _, box := range []rect{
		{2.3, 2.7, 297.6, 196.2},
		{2, 3, 290, 190},
		{10.5, -250.25, 280.75, 150.5},
		{-3.2, 40.1, 305.9, 260},
		{0, 0, w, h},
	} {
		b.table = box
		draw := func(dc *gg.Context, img *image.RGBA) {
			for _, s := range shapes {
				drawTerrain(dc, nil, img, 1.5, s.kind, slices.Clone(s.ps), b)
			}
		}
		want := image.NewRGBA(image.Rect(0, 0, w, h))
		fill(want, want.Rect, tableSand)
		got := image.NewRGBA(want.Rect)
		copy(got.Pix, want.Pix)

		dc := gg.NewContextForRGBA(want)
		dc.DrawRectangle(box.x0, box.y0, box.w(), box.h())
		dc.Clip()
		draw(dc, want)

		clipped(gg.NewContextForRGBA(got), got, box, func(dc *gg.Context, _, _ int) { draw(dc, got) })
		n := 0
		for i := range want.Pix {
			if want.Pix[i] != got.Pix[i] {
				n++
			}
		}
		if n > 0 {
			t.Errorf("box %v: %d channels differ from gg's clip", box, n)
		}
		if slices.Equal(want.Pix, func() []uint8 {
			img := image.NewRGBA(want.Rect)
			fill(img, img.Rect, tableSand)
			return img.Pix
		}()) {
			t.Errorf("box %v: nothing was drawn", box)
		}
	}
}

// TestGroundMarksBare checks the ground kept for each test scene against
// the way its bare share can be told from outside: the same ground drawn
// twice, once on sand and once on black, differs by the sand that shows
// through. The kept ground's colours are those of the drawing on sand,
// exactly, and its alpha is the share of each pixel the sand does not
// show through, to within rounding. The ground is drawn whole, and in
// bands of 97 rows, as a large table is: the shapes that cross from one
// band to the next are drawn cut in each.
func TestGroundMarksBare(t *testing.T) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	for _, sc := range scenes() {
		v := sc.view()
		fv, bd, _, _, _, err := r.frame(&v)
		if err != nil {
			t.Fatal(err)
		}
		g, w, h, _, _ := groundOf(&bd)
		noZones := *fv
		noZones.Zones = nil
		for _, band := range []int{h, 97} {
			drawn := func(base color.RGBA) *image.RGBA {
				img := image.NewRGBA(image.Rect(0, 0, w, h))
				for y0 := 0; y0 < h; y0 += band {
					part := img.SubImage(image.Rect(0, y0, w, min(h, y0+band))).(*image.RGBA)
					part.Rect = part.Rect.Sub(image.Pt(0, y0))
					gb := g.shifted(-float64(y0))
					fill(part, part.Rect, white)
					drawGround(part, r.faces, r.k, &noZones, &gb, base)
				}
				return img
			}
			kept := image.NewRGBA(image.Rect(0, 0, w, h))
			drawGroundBands(r.faces, r.k, fv, g, w, h, band).copyRows(kept, 0, 0, h)
			checkBare(t, fmt.Sprintf("%s in bands of %d rows", sc.name, band), kept, drawn(tableSand), drawn(color.RGBA{A: 0xFF}))
		}
	}
}

// checkBare compares kept, a ground kept as a layer, with the same
// ground drawn on sand and on black.
func checkBare(t *testing.T, name string, kept, sand, dark *image.RGBA) {
	t.Helper()
	sum := int(tableSand.R) + int(tableSand.G) + int(tableSand.B)
	n := kept.Rect.Dx() * kept.Rect.Dy()
	var colours, off, far, bare, covered int
	for i := 0; i < len(kept.Pix); i += 4 {
		p, s, d := kept.Pix[i:i+4], sand.Pix[i:i+4], dark.Pix[i:i+4]
		if p[0] != s[0] || p[1] != s[1] || p[2] != s[2] {
			colours++
		}
		shows := int(s[0]) - int(d[0]) + int(s[1]) - int(d[1]) + int(s[2]) - int(d[2])
		want := 255 - min(max((255*shows+sum/2)/sum, 0), 255)
		switch diff := int(p[3]) - want; {
		case diff > 3 || diff < -3:
			far++

		case diff != 0:
			off++
		}
		switch p[3] {
		case 0:
			bare++
		case 255:
			covered++
		}
	}
	if colours > 0 {
		t.Errorf("%s: %d of %d pixels of the kept ground differ in colour from the ground drawn on sand; want none", name, colours, n)
	}
	if far > n/10000 {
		t.Errorf("%s: the alpha of %d of %d pixels is more than 3 from the share the sand does not show through (%d within 3)", name, far, n, off)
	}
	if bare < n/10 || covered < n/100 {
		t.Errorf("%s: %d pixels all bare and %d not bare at all of %d; want both kinds", name, bare, covered, n)
	}
}
