package render

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/rhapsode/rhapsode/engine"
)

// This file lends the external tests (played_bench_test.go) what they
// need of the renderer's insides.

// NaivePNG draws v the plain way, as a first gg programme would: gg
// draws everything, the static layer included, on a new picture, and
// image/png encodes it in true colour with its default settings. It is
// the reference the renderer's speed is measured against.
func NaivePNG(r *Renderer, v engine.View) ([]byte, error) {
	c, err := r.draw(&v, false, nil)
	if err != nil {
		return nil, err
	}
	defer r.done(c)
	var buf bytes.Buffer
	if err := png.Encode(&buf, c.img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// StaticDraws returns how many static layers r has drawn for its cache.
func StaticDraws(r *Renderer) int64 { return r.staticDraws.Load() }

// StaticKeyOf describes the static layer v's picture needs: its board's
// frame and the hash of the rest.
func StaticKeyOf(r *Renderer, v engine.View) string {
	b, _, err := newBoard(&v, r.width, r.k)
	if err != nil {
		return err.Error()
	}
	if v.Kind == engine.OpenTable {
		v = *framed(&v, window{b.wx, b.wy, b.wx + b.w, b.wy + b.d})
	}
	key := keyOf(&v, &b, r.faces, r.k)
	return fmt.Sprintf("frame %g %g %g %g %d %d scale %g | %x", b.wx, b.wy, b.w, b.d, b.c0, b.r0, b.scale, key.content)
}
