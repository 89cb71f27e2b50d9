package render

import (
	"bytes"
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
