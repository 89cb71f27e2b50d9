package render

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fogleman/gg"
)

// TestFillerPaintsAsGG fills the shapes a piece is made of (rotated
// bases, their hatching, outlines, front bars), small and large, inside
// the picture and over its edges, once through a filler and once through
// gg, and checks that every pixel comes out the same.
func TestFillerPaintsAsGG(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const W, H = 300, 200
	got := image.NewRGBA(image.Rect(0, 0, W, H))
	want := image.NewRGBA(got.Rect)
	for i := range got.Pix {
		got.Pix[i] = uint8(i * 7)
	}
	copy(want.Pix, got.Pix)
	dcGot, dcWant := gg.NewContextForRGBA(got), gg.NewContextForRGBA(want)
	fl := newFiller()
	for n := range 400 {
		c := pt{rng.Float64()*(W+40) - 20, rng.Float64()*(H+40) - 20}
		w, d := 4+rng.Float64()*60, 3+rng.Float64()*30
		if n%50 == 0 {
			w, d = 150, 140 // taller than a filler fills itself
		}
		a := rng.Float64() * 2 * math.Pi
		s, co := math.Sincos(a)
		corner := func(x, y float64) pt { return pt{c.x + x*co - y*s, c.y + x*s + y*co} }
		poly := []pt{corner(-w/2, -d/2), corner(w/2, -d/2), corner(w/2, d/2), corner(-w/2, d/2)}
		col := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
		shapes := []func(p pather) bool{
			func(p pather) bool { polygon(p, poly); return true },
			func(p pather) bool { stripes(p, poly, pt{3, 5}, -45, 6, 3.2); return true },
			func(p pather) bool { return outline(p, poly, 1.3+rng.Float64()*2) },
			func(p pather) bool { bar(p, poly[0], poly[1], 5); return true },
		}
		shape := shapes[n%len(shapes)]
		// The same random draws for both: shape once, replayed.
		rec := &filler{}
		if !shape(rec) {
			continue
		}
		rec.replay(dcWant)
		dcWant.SetColor(col)
		dcWant.Fill()
		rec.replay(fl)
		fl.fill(dcGot, got, col)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("shape %d (kind %d, %.0f by %.0f at %.1f,%.1f) is painted otherwise than gg paints it", n, n%len(shapes), w, d, c.x, c.y)
		}
	}
}

// TestFillerStrokesAsGG strokes segments of every length, width and slant,
// with butt caps, inside the picture and over its edges,
// once through a filler and once through gg, and checks that every pixel
// comes out the same.
func TestFillerStrokesAsGG(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const W, H = 300, 200
	got := image.NewRGBA(image.Rect(0, 0, W, H))
	want := image.NewRGBA(got.Rect)
	for i := range got.Pix {
		got.Pix[i] = uint8(i * 5)
	}
	copy(want.Pix, got.Pix)
	dcGot, dcWant := gg.NewContextForRGBA(got), gg.NewContextForRGBA(want)
	fl := newFiller()
	for n := range 600 {
		a := pt{rng.Float64()*(W+40) - 20, rng.Float64()*(H+40) - 20}
		l := rng.Float64() * 80
		if n%60 == 0 {
			l = 180 // taller than a filler strokes itself
		}
		if n%7 == 0 {
			l = rng.Float64() * 0.2 // next to nothing: gg leaves a point
		}
		ang := rng.Float64() * 2 * math.Pi
		b := pt{a.x + l*math.Cos(ang), a.y + l*math.Sin(ang)}
		w := 0.5 + rng.Float64()*6
		col := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}

		dcWant.DrawLine(a.x, a.y, b.x, b.y)
		dcWant.SetColor(col)
		dcWant.SetLineWidth(w)
		dcWant.SetLineCapButt()
		dcWant.Stroke()
		fl.line(dcGot, got, a, b, w, col)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("segment %d (%.1f,%.1f to %.1f,%.1f, %.1f wide) is stroked otherwise than gg strokes it", n, a.x, a.y, b.x, b.y, w)
		}
	}
}
