package render

import (
	"bytes"
	"hash/maphash"
	"image"
	"math/rand/v2"
	"testing"
)

// TestRunLayerCopiesThePicture keeps pictures of every kind of content as
// runs (one colour, noise, stripes, a real static layer) and copies them
// back whole and by bands, onto canvases taller than the layer: every
// byte must come back, and nothing outside the rows asked for be touched.
func TestRunLayerCopiesThePicture(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	flat := image.NewRGBA(image.Rect(0, 0, 37, 9))
	fill(flat, flat.Rect, white)
	noise := image.NewRGBA(image.Rect(0, 0, 41, 13))
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rng.IntN(4))
	}
	stripes := image.NewRGBA(image.Rect(0, 0, 64, 20))
	for i := range stripes.Pix {
		stripes.Pix[i] = uint8(i / 4 / (1 + rng.IntN(9)))
	}
	r := New(Options{})
	if _, err := r.PNG(battle12()); err != nil {
		t.Fatal(err)
	}
	var real *image.RGBA
	for el := r.static.order.Front(); el != nil; el = el.Next() {
		l := el.Value.(*cacheEntry[staticKey, *runLayer]).v
		real = image.NewRGBA(image.Rect(0, 0, l.w, l.h))
		l.copyRows(real, 0, 0, l.h)
	}
	for _, img := range []*image.RGBA{flat, noise, stripes, real} {
		l := newRunLayer(img)
		w, h := img.Rect.Dx(), img.Rect.Dy()
		const top = 3
		dst := image.NewRGBA(image.Rect(0, 0, w, h+top+2))
		for i := range dst.Pix {
			dst.Pix[i] = 0xAB
		}
		cut := h / 3
		l.copyRows(dst, top, cut, h)
		l.copyRows(dst, top, -5, cut)
		got := dst.Pix[dst.PixOffset(0, top):dst.PixOffset(0, top+h)]
		if !bytes.Equal(got, img.Pix) {
			t.Fatalf("a %v picture comes back otherwise from its runs", img.Rect.Size())
		}
		for _, b := range append(dst.Pix[:dst.PixOffset(0, top)], dst.Pix[dst.PixOffset(0, top+h):]...) {
			if b != 0xAB {
				t.Fatalf("a %v picture's runs wrote outside its rows", img.Rect.Size())
			}
		}
		// The hash the layer keeps of each row is the hash of its pixels.
		seed := maphash.MakeSeed()
		for y := range h {
			if got, want := l.rowHash(seed, y), maphash.Bytes(seed, img.Pix[y*img.Stride:][:4*w]); got != want {
				t.Fatalf("a %v picture's row %d hashes to %x from its runs, %x from its pixels", img.Rect.Size(), y, got, want)
			}
		}
	}
}

// TestRunLayerOfManyColours keeps pictures whose every pixel is a colour
// of its own, more than a layer numbers in two bytes, beside pictures of
// a few colours, and rows longer than one run holds, of one colour and
// of noise: each comes back whole, copied by rows and by rectangles, and
// maps to the palette as its pixels do.
func TestRunLayerOfManyColours(t *testing.T) {
	distinct := func(w, h int) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for i := 0; i < len(img.Pix); i += 4 {
			n := i / 4
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(n), uint8(n>>8), uint8(n>>16), 0xFF
		}
		return img
	}
	rng := rand.New(rand.NewPCG(5, 6))
	few := image.NewRGBA(image.Rect(0, 0, 300, 250))
	for i := range few.Pix {
		few.Pix[i] = 0x40 * uint8(rng.IntN(4))
	}
	long := image.NewRGBA(image.Rect(0, 0, 3*maxRun, 3))
	fill(long, image.Rect(0, 0, long.Rect.Dx(), 1), white)
	fill(long, image.Rect(0, 2, long.Rect.Dx(), 3), tableSand)
	for x := range long.Rect.Dx() {
		copy(long.Pix[long.PixOffset(x, 1):], []uint8{uint8(x % 3), uint8(x % 5), 0, 0xFF})
	}
	r := New(Options{})
	v := hexScene()
	c, err := r.draw(&v, true)
	if err != nil {
		t.Fatal(err)
	}
	pal := c.pal
	r.done(c)
	for _, tc := range []struct {
		img *image.RGBA
		raw bool // kept as it is: too many colours to number
	}{{distinct(300, 250), true}, {distinct(3*maxRun, 1), true}, {few, false}, {long, false}} {
		img := tc.img
		w, h := img.Rect.Dx(), img.Rect.Dy()
		l := newRunLayer(img)
		if raw := l.lit == nil; raw != tc.raw {
			t.Fatalf("a %dx%d picture is kept raw: %v, want %v", w, h, raw, tc.raw)
		}
		dst := image.NewRGBA(img.Rect)
		l.copyRows(dst, 0, 0, h)
		if !bytes.Equal(dst.Pix, img.Pix) {
			t.Fatalf("a %dx%d picture comes back otherwise from its runs", w, h)
		}
		clear(dst.Pix)
		part := image.Rect(17, h/3, w-min(w/4, maxRun/2), h)
		l.copyRect(dst, part, 0, 0)
		for y := range h {
			for x := range w {
				want := [4]uint8{}
				if (image.Point{x, y}).In(part) {
					want = [4]uint8(img.Pix[img.PixOffset(x, y):])
				}
				if got := [4]uint8(dst.Pix[dst.PixOffset(x, y):]); got != want {
					t.Fatalf("pixel %d,%d of a %dx%d picture, copied as part of a rectangle, is %v, want %v", x, y, w, h, got, want)
				}
			}
		}
		out := make([]uint8, w)
		for y := range h {
			pal.mapRuns(l, y, out)
			for x, got := range out {
				p := img.Pix[img.PixOffset(x, y):]
				if want := pal.index[binOf(p[0], p[1], p[2])]; got != want {
					t.Fatalf("pixel %d,%d of colour %v is mapped to %d, want %d", x, y, p[:3], got, want)
				}
			}
		}
	}
}
