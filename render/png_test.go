package render

import (
	"bytes"
	"hash/adler32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPNGDecodesAsWritten writes paletted pictures of many shapes (fewer
// rows than a band, one band, several, a palette with see-through
// colours) in bands and checks that image/png reads back every pixel as
// it does from its own encoder, and an opaque picture's exactly as drawn.
func TestPNGDecodesAsWritten(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	enc := newPNGEncoder(pieceBudget, 1)
	for _, size := range []image.Point{{1, 1}, {7, 3}, {480, 63}, {520, 64}, {1040, 700}, {1280, 913}} {
		for _, opaque := range []bool{true, false} {
			pal := make(color.Palette, 1+rng.IntN(256))
			for i := range pal {
				a := uint8(0xFF)
				if !opaque && i%3 == 0 {
					a = uint8(rng.IntN(256))
				}
				// Premultiplied, as color.RGBA must be.
				c := color.NRGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), a}
				pal[i] = color.RGBAModel.Convert(c)
			}
			img := image.NewPaletted(image.Rect(0, 0, size.X, size.Y), pal)
			for i := range img.Pix {
				// Runs and noise, as a board has both.
				if i%97 < 60 {
					img.Pix[i] = uint8(i / 997 % len(pal))
				} else {
					img.Pix[i] = uint8(rng.IntN(len(pal)))
				}
			}
			var ours, theirs bytes.Buffer
			enc.encode(&ours, img, nil)
			if err := png.Encode(&theirs, img); err != nil {
				t.Fatal(err)
			}
			got := decode(t, ours.Bytes())
			want := decode(t, theirs.Bytes())
			if got.Bounds() != img.Bounds() {
				t.Fatalf("%v: decoded %v", size, got.Bounds())
			}
			for y := 0; y < size.Y; y++ {
				for x := 0; x < size.X; x++ {
					if g, w := got.At(x, y), want.At(x, y); g != w {
						t.Fatalf("%v opaque %v: pixel %d,%d is %v, image/png's %v", size, opaque, x, y, g, w)
					}
					// A see-through colour loses a little in PNG's
					// straight alpha, for image/png as for us.
					if g, w := color.RGBAModel.Convert(got.At(x, y)), color.RGBAModel.Convert(img.At(x, y)); opaque && g != w {
						t.Fatalf("%v opaque %v: pixel %d,%d reads %v, was %v", size, opaque, x, y, g, w)
					}
				}
			}
		}
	}
}

// TestPiecesFoundAsCompressed writes a picture, then others that share
// some of its pieces of rows (a row changed in one piece, the rows
// moved down by a piece, the picture cut short): each file must be the
// one a new encoder writes, byte for byte, and decode to its pixels.
func TestPiecesFoundAsCompressed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	pal := make(color.Palette, 40)
	for i := range pal {
		pal[i] = color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
	}
	first := image.NewPaletted(image.Rect(0, 0, 520, 5*pieceRows+17), pal)
	for i := range first.Pix {
		first.Pix[i] = uint8(i / 131 % len(pal))
	}
	changed := image.NewPaletted(first.Rect, pal)
	copy(changed.Pix, first.Pix)
	changed.Pix[changed.PixOffset(300, 2*pieceRows+5)] ^= 1
	moved := image.NewPaletted(first.Rect, pal)
	copy(moved.Pix[pieceRows*moved.Stride:], first.Pix)
	short := first.SubImage(image.Rect(0, 0, 520, 3*pieceRows)).(*image.Paletted)

	enc := newPNGEncoder(pieceBudget, 1)
	for i, img := range []*image.Paletted{first, changed, moved, short, first} {
		var got, want bytes.Buffer
		enc.encode(&got, img, nil)
		newPNGEncoder(pieceBudget, 1).encode(&want, img, nil)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("picture %d: the file with pieces found differs from the one compressed afresh", i)
		}
		dec := decode(t, got.Bytes()).(*image.Paletted)
		for y := range img.Rect.Dy() {
			if !bytes.Equal(dec.Pix[y*dec.Stride:][:dec.Rect.Dx()], img.Pix[y*img.Stride:][:img.Rect.Dx()]) {
				t.Fatalf("picture %d: row %d decodes otherwise than written", i, y)
			}
		}
	}
	if n, c := enc.written.Load(), enc.compressed.Load(); c == n || c == 0 {
		t.Errorf("%d pieces compressed of %d written: want some found, some not", c, n)
	}
}

// randomMask returns a coverage mask of bounds r whose pixels are clear,
// opaque or anything between, a third each.
func randomMask(rng *rand.Rand, r image.Rectangle) *image.Alpha {
	mask := image.NewAlpha(r)
	for i := range mask.Pix {
		switch rng.IntN(3) {
		case 0:
			mask.Pix[i] = 0
		case 1:
			mask.Pix[i] = 0xFF
		default:
			mask.Pix[i] = uint8(rng.IntN(256))
		}
	}
	return mask
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return img
}

// TestAdler32Combine checks the joined checksum against the checksum of
// the joined bytes, at lengths around the modulus.
func TestAdler32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 65520}, {65521, 65521}, {100000, 200003}, {3, 1 << 20}} {
		a := make([]byte, n[0])
		b := make([]byte, n[1])
		for i := range a {
			a[i] = byte(rng.IntN(256))
		}
		for i := range b {
			b[i] = 0xFF
		}
		want := adler32.Checksum(append(append([]byte{}, a...), b...))
		if got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b))); got != want {
			t.Errorf("lengths %v: combined %08x, want %08x", n, got, want)
		}
	}
}

// TestPutPaintsAsImageDraw paints opaque colours through random masks,
// some hanging off the picture's edges, and checks every pixel against
// image/draw's Over.
func TestPutPaintsAsImageDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 200 {
		mask := randomMask(rng, image.Rect(0, 0, 1+rng.IntN(40), 1+rng.IntN(20)))
		got := image.NewRGBA(image.Rect(0, 0, 50, 30))
		for i := range got.Pix {
			got.Pix[i] = uint8(rng.IntN(256))
		}
		want := image.NewRGBA(got.Rect)
		copy(want.Pix, got.Pix)
		c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
		x, y := rng.IntN(70)-20, rng.IntN(40)-10
		put(got, mask, x, y, c)
		draw.DrawMask(want, mask.Rect.Add(image.Pt(x, y)), image.NewUniform(c), image.Point{}, mask, image.Point{}, draw.Over)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("case %d: a %v mask at %d,%d in %v paints otherwise than image/draw", n, mask.Rect.Size(), x, y, c)
		}
	}
}

// TestHaloPaintsAsPut paints strings over their halos, some hanging off
// the picture's edges, in several faces and colours, and checks every
// pixel against the halo mask and then the text mask painted by put.
func TestHaloPaintsAsPut(t *testing.T) {
	fonts, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	faces := []*face{newFace(fonts.bold, 14), newFace(fonts.regular, 12*1.8), newFace(fonts.bold, 8.5)}
	words := []string{"MYR-W3", "driver, Companion", "QH>8S wound", "Ἀχιλλεύς", "il", "W"}
	for n := range 300 {
		f, s := faces[n%len(faces)], words[rng.IntN(len(words))]
		got := image.NewRGBA(image.Rect(0, 0, 120, 40))
		for i := range got.Pix {
			got.Pix[i] = uint8(rng.IntN(256))
		}
		want := image.NewRGBA(got.Rect)
		copy(want.Pix, got.Pix)
		c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
		h := white
		if n%3 == 0 {
			h = color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
		}
		x, y := rng.Float64()*160-40, rng.Float64()*70-10
		drawHalo(got, f, s, x, y, c, h)
		m := f.maskHalo(s)
		ox, oy := int(math.Round(x))+m.x0, int(math.Round(y))+m.y0
		put(want, m.halo, ox, oy, h)
		put(want, m.text, ox, oy, c)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("case %d: %q at %.1f,%.1f paints otherwise than its two masks", n, s, x, y)
		}
	}
}

// BenchmarkPut paints a label's halo and text, as image/draw would and
// as put does.
func BenchmarkPut(b *testing.B) {
	mask := image.NewAlpha(image.Rect(0, 0, 80, 20))
	for i := range mask.Pix {
		switch x := i % 80; {
		case x < 5 || x > 75:
		case x < 8 || x > 72:
			mask.Pix[i] = uint8(40 * (i % 6))
		default:
			mask.Pix[i] = 0xFF
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, 200, 100))
	c := color.RGBA{10, 20, 30, 0xFF}
	b.Run("put", func(b *testing.B) {
		for b.Loop() {
			put(dst, mask, 50, 40, c)
		}
	})
	b.Run("image-draw", func(b *testing.B) {
		for b.Loop() {
			draw.DrawMask(dst, mask.Rect.Add(image.Pt(50, 40)), image.NewUniform(c), image.Point{}, mask, image.Point{}, draw.Over)
		}
	})
}

// TestRedOrderAsLinear builds palettes at random, some with many equal
// reds and equal colours, and checks that looking outward by red finds
// what a look at every colour does: the same nearness, and the same
// nearest colour, ties to the lowest index.
func TestRedOrderAsLinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for n := range 200 {
		var kept []color.RGBA
		var o redOrder
		levels := 2 + rng.IntN(255) // few levels: many ties
		pick := func() uint8 { return uint8(rng.IntN(levels) * 255 / levels) }
		for range 1 + rng.IntN(256) {
			kept = append(kept, color.RGBA{pick(), pick(), pick(), 0xFF})
			o.add(kept, len(kept)-1)
		}
		for range 50 {
			c := color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
			if rng.IntN(4) == 0 {
				c = kept[rng.IntN(len(kept))]
			}
			if got, want := o.nearest(kept, c), nearest(kept, c); got != want {
				t.Fatalf("palette %d: nearest to %v is %d by red, %d by looking at all", n, c, got, want)
			}
			if got, want := o.near(kept, c), nearAll(kept, c); got != want {
				t.Fatalf("palette %d: near %v is %v by red, %v by looking at all", n, c, got, want)
			}
		}
	}
}

// nearAll is redOrder.near the slow way: a look at every kept colour.
func nearAll(kept []color.RGBA, c color.RGBA) bool {
	for _, k := range kept {
		if dist(k, c) < nearLimit {
			return true
		}
	}
	return false
}

// TestMapRowsAsEachPixel draws board pictures over their cached layers,
// lays noise over some painted rows (runs of every length, rows repeated
// and not, colours no table has), and checks that mapping the picture
// (the layers' rows from their runs, and only the columns said to be
// painted over from the picture) gives every pixel its bin's index.
func TestMapRowsAsEachPixel(t *testing.T) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sc := range scenes() {
		v := sc.view()
		// The second picture of a table shows its cached layers.
		for range 2 {
			c, err := r.draw(&v, true)
			if err != nil {
				t.Fatal(err)
			}
			img := c.img
			w, h := img.Rect.Dx(), img.Rect.Dy()
			for y := 1; y < h; y += 1 + rng.IntN(40) {
				x0 := rng.IntN(w)
				x1 := min(w, x0+rng.IntN(300))
				c.touch(img, y, y+1, x0, x1)
				for x := x0; x < x1; {
					n := 1 + rng.IntN(12)
					px := [4]uint8{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xFF}
					for ; n > 0 && x < x1; n, x = n-1, x+1 {
						copy(img.Pix[img.PixOffset(x, y):], px[:])
					}
				}
			}
			pal := &image.Paletted{Pix: make([]uint8, w*h), Stride: w, Rect: img.Rect, Palette: c.pal.colors}
			kept := 0
			for y := range h {
				if src := c.rowOf(y); src.l != nil && src.x0 == src.x1 {
					kept++
				}
			}
			c.pal.mapRows(img, c.rowOf, pal, 0, h)
			img = c.whole()
			for y := range h {
				for x := range w {
					p := img.Pix[img.PixOffset(x, y):]
					want := c.pal.index[binOf(p[0], p[1], p[2])]
					if got := pal.Pix[y*pal.Stride+x]; got != want {
						t.Fatalf("%s: pixel %d,%d of colour %v is mapped to %d, want %d", sc.name, x, y, p[:3], got, want)
					}
				}
			}
			r.done(c)
			if kept == 0 {
				t.Errorf("%s: no row of the picture was its layer's as it is", sc.name)
			}
		}
	}
}

// nearest is the index of the colour of kept nearest c, ties to the
// lowest index, found by looking at every one.
func nearest(kept []color.RGBA, c color.RGBA) uint8 {
	best, bd := 0, 1<<30
	for i, k := range kept {
		if d := dist(k, c); d < bd {
			best, bd = i, d
		}
	}
	return uint8(best)
}

// TestPaletteKeepsColours draws board pictures and maps them to their
// tables' palettes: every pixel of a colour drawn flat keeps it (or,
// where two such colours share a bin, as the grey group's hatching and
// an unknown group's do, the one the bin keeps, a level off), no pixel is more than maxOff levels off in any channel, and at most
// a share offShare of them are more than 16 levels off, as with the
// antialiased shades of an edge.
func TestPaletteKeepsColours(t *testing.T) {
	const maxOff, offShare = 36, 0.015
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	flat := map[color.RGBA]bool{keyGrey: true, mix(keyGrey, white, 0.62): true}
	for _, c := range pinned() {
		flat[c] = true
	}
	for _, sc := range scenes() {
		v := sc.view()
		c, err := r.draw(&v, true)
		if err != nil {
			t.Fatal(err)
		}
		img := c.whole()
		worst, far := 0, 0
		for y := range img.Rect.Dy() {
			for x := range img.Rect.Dx() {
				p := img.Pix[img.PixOffset(x, y):]
				was := color.RGBA{p[0], p[1], p[2], 0xFF}
				got := c.pal.colors[c.pal.index[binOf(p[0], p[1], p[2])]].(color.RGBA)
				off := max(abs(int(got.R)-int(was.R)), abs(int(got.G)-int(was.G)), abs(int(got.B)-int(was.B)))
				if flat[was] && off > 1 {
					t.Fatalf("%s: pixel %d,%d drawn flat in %v is %v", sc.name, x, y, was, got)
				}
				worst = max(worst, off)
				if off > 16 {
					far++
				}
			}
		}
		share := float64(far) / float64(img.Rect.Dx()*img.Rect.Dy())
		t.Logf("%s: %d colours; worst %d levels off; %.3f%% more than 16", sc.name, len(c.pal.colors), worst, 100*share)
		if worst > maxOff || share > offShare {
			t.Errorf("%s: a pixel is %d levels off its colour (at most %d), and %.2f%% more than 16 (at most %.1f%%)", sc.name, worst, maxOff, 100*share, 100*offShare)
		}
		r.done(c)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
