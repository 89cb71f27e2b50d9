package render

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// granicusLike is a hex map 22 columns wide with two armies facing each
// other across its whole width, the front between rows 5 and 9.
func granicusLike() *engine.View {
	v := &engine.View{Kind: engine.HexGrid, Width: 22, Depth: 12,
		Groups: []engine.Group{{Name: "Macedonians", Side: 0}, {Name: "Persians", Side: 1}}}
	for c := 3; c <= 19; c++ {
		v.Pieces = append(v.Pieces,
			engine.Piece{Label: "M", Kind: "HC", Group: 0, Base: engine.Base{Center: engine.Vec{X: float64(c), Y: 9}}},
			engine.Piece{Label: "P", Kind: "HC", Group: 1, Base: engine.Base{Center: engine.Vec{X: float64(c), Y: 5}}})
	}
	return v
}

// TestWholeHexBattleFramesTheFront: a picture with nothing marked of a
// map too wide for its counters to read shows at most the columns that
// read, round the middle of the front; with a mark across the map it
// shows what the mark needs.
func TestWholeHexBattleFramesTheFront(t *testing.T) {
	v := granicusLike()
	c0, _, cols, _ := hexFrameOf(v, 1, 1, 22, 12, 15)
	if cols > 15 {
		t.Errorf("%d columns framed, want at most 15", cols)
	}
	if mid := c0 + cols/2; mid < 9 || mid > 13 {
		t.Errorf("the frame's middle column is %d, want the front's middle, about 11", mid)
	}
	v.Marks = []engine.Mark{{Kind: engine.MoveMark, From: engine.Vec{X: 1, Y: 9}, To: engine.Vec{X: 22, Y: 9}}}
	if _, _, cols, _ := hexFrameOf(v, 1, 1, 22, 12, 15); cols != 22 {
		t.Errorf("a mark across the map framed %d columns, want all 22", cols)
	}
}

// TestAsideBoxUnderTheBoard: pieces off the board (View.Aside) get a row
// of their own in the legend.
func TestAsideBoxUnderTheBoard(t *testing.T) {
	r := New(Options{Width: PreviewWidth, SeenAt: PreviewWidth})
	height := func(v *engine.View) int {
		b, err := r.PNG(*v)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dy()
	}
	v := granicusLike()
	without := height(v)
	v.Aside = []engine.Piece{{Label: "C2", Kind: "HC", Group: 1, Crew: "pursuing"}}
	if with := height(v); with <= without {
		t.Errorf("with a piece aside the picture is %d high, without %d: no box", with, without)
	}
}
