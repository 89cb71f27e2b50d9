package render_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
)

// A Renderer turns a rule system's view of the table into a PNG.
func ExampleRenderer_PNG() {
	r := render.New(render.Options{Width: 800})
	v := engine.View{
		Kind: engine.OpenTable, Width: 60, Depth: 40, Unit: "strides",
		Title:   "A raid",
		Caption: "Next: the Myrmidons (alice)",
		Groups:  []engine.Group{{Name: "Myrmidons", Player: "alice", Side: 0}},
		Pieces: []engine.Piece{{
			Label: "MYR-W1", Kind: "Sp", Group: 0,
			Base: engine.Base{Center: engine.Vec{X: 30, Y: 5}, Width: 2, Depth: 1},
		}},
		Marks: []engine.Mark{{Kind: engine.MoveMark, From: engine.Vec{X: 30, Y: 1}, To: engine.Vec{X: 30, Y: 5.5}}},
	}
	pic, err := r.PNG(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(pic))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(cfg.Width, "pixels wide")
	// Output: 800 pixels wide
}
