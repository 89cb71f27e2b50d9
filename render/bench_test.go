package render

import (
	"bytes"
	"image"
	"image/png"
	"slices"
	"testing"
	"time"
)

// median reports the median of the times taken, which the mean hides
// behind the odd garbage collection.
func median(b *testing.B, ts []time.Duration) {
	if len(ts) == 0 {
		return
	}
	slices.Sort(ts)
	b.ReportMetric(float64(ts[len(ts)/2])/1e6, "ms-median")
}

// BenchmarkBattle12 is the renderer as the bot uses it: a twelve-clan
// battle (about 150 elements) drawn over the cached static layer,
// quantised to 256 colours and encoded as a fast paletted PNG; at the
// default width, and at the width and text size the bot draws for
// Discord (1040 pixels, read at 520).
func BenchmarkBattle12(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"default", Options{}},
		{"bot", Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth}},
	} {
		b.Run(c.name, func(b *testing.B) {
			r := New(c.opts)
			v := battle12()
			// The bot draws the same table step after step: start with
			// its static layer cached, as it is from the second picture
			// of a game.
			if _, err := r.PNG(v); err != nil {
				b.Fatal(err)
			}
			var size int
			var ts []time.Duration
			for b.Loop() {
				t0 := time.Now()
				pic, err := r.PNG(v)
				if err != nil {
					b.Fatal(err)
				}
				ts = append(ts, time.Since(t0))
				size = len(pic)
			}
			b.ReportMetric(float64(size), "bytes/png")
			median(b, ts)
		})
	}
}

// BenchmarkBattle12Naive is the same picture made the plain way, for
// comparison: gg draws everything, static layer included, and
// image/png encodes the true-colour result with its default settings.
func BenchmarkBattle12Naive(b *testing.B) {
	r := New(Options{})
	v := battle12()
	var size int
	var ts []time.Duration
	for b.Loop() {
		t0 := time.Now()
		c, err := r.draw(&v, false)
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, c.img); err != nil {
			b.Fatal(err)
		}
		r.done(c)
		ts = append(ts, time.Since(t0))
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "bytes/png")
	median(b, ts)
}

// BenchmarkStages times the parts of the pipeline on their own.
func BenchmarkStages(b *testing.B) {
	r := New(Options{})
	v := battle12()
	b.Run("draw", func(b *testing.B) {
		for b.Loop() {
			f, err := r.draw(&v, true)
			if err != nil {
				b.Fatal(err)
			}
			r.done(f)
		}
	})
	b.Run("drawAfresh", func(b *testing.B) {
		for b.Loop() {
			c, err := r.draw(&v, false)
			if err != nil {
				b.Fatal(err)
			}
			r.done(c)
		}
	})
	c, _ := r.draw(&v, true)
	f := c.whole()
	defer r.done(c)
	// A table's palette, made the first time the table is shown.
	b.Run("palette", func(b *testing.B) {
		fv, bd, _, st, _, err := r.frame(&v)
		if err != nil {
			b.Fatal(err)
		}
		g, gw, gh, _, _ := groundOf(&bd)
		ground := drawGroundLayer(r.faces, r.k, fv, g, gw, gh)
		for b.Loop() {
			newTablePalette(ground, st, r.pins)
		}
	})
	w, h := f.Rect.Dx(), f.Rect.Dy()
	p := &image.Paletted{Pix: make([]uint8, w*h), Stride: w, Rect: f.Rect, Palette: c.pal.colors}
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			c.pal.mapRows(f, nil, p, 0, h)
		}
	})
	// The PNG written in pieces on every core, all compressed (as for a
	// picture of a table not seen lately) or all found, and by
	// image/png on one.
	b.Run("encode", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			newPNGEncoder(pieceBudget, 1).encode(&buf, p, nil)
		}
		b.ReportMetric(float64(buf.Len()), "bytes/png")
	})
	b.Run("encode-found", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			r.png.encode(&buf, p, nil)
		}
	})
	b.Run("encode-image-png", func(b *testing.B) {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(&buf, p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "bytes/png")
	})
}

// BenchmarkStatic draws each test scene's static layer afresh at the
// size the bot draws for Discord: what a picture costs the first time
// its table is seen in a frame.
func BenchmarkStatic(b *testing.B) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	for _, sc := range scenes() {
		b.Run(sc.name, func(b *testing.B) {
			v := sc.view()
			bd, areaH, err := newBoard(&v, r.width, r.k)
			if err != nil {
				b.Fatal(err)
			}
			img := image.NewRGBA(image.Rect(0, 0, r.width, areaH))
			for b.Loop() {
				drawStatic(img, img.Bounds(), r.faces, r.k, &v, &bd)
			}
		})
	}
}

// BenchmarkGround draws each test scene's ground, the whole table at
// the scale of the bot's picture of it, as a picture that has not seen
// it at that scale does (static.go: drawn twice, kept as runs).
func BenchmarkGround(b *testing.B) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	for _, sc := range scenes() {
		b.Run(sc.name, func(b *testing.B) {
			v := sc.view()
			fv, bd, _, _, _, err := r.frame(&v)
			if err != nil {
				b.Fatal(err)
			}
			g, w, h, _, _ := groundOf(&bd)
			for b.Loop() {
				drawGroundLayer(r.faces, r.k, fv, g, w, h)
			}
		})
	}
}
