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
