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

// TestTerrainNameStepsAsideAndStaysInside: a terrain's name steps from
// the middle of its area when a piece stands there, goes above a wall
// rather than on its line, and stays wholly inside the table when the
// area runs off the part shown.
func TestTerrainNameStepsAsideAndStaysInside(t *testing.T) {
	r := New(Options{Width: PreviewWidth, SeenAt: PreviewWidth})
	v := &engine.View{Kind: engine.OpenTable, Width: 72, Depth: 48,
		Terrain: []engine.Terrain{
			{Kind: engine.Rough, Label: "the barrow (hill)", Outline: []engine.Vec{{X: 30, Y: 8}, {X: 42, Y: 8}, {X: 42, Y: 14}, {X: 30, Y: 14}}},
			{Kind: engine.Rough, Label: "farm wall", Outline: []engine.Vec{{X: 46, Y: 30}, {X: 58, Y: 30}}},
			{Kind: engine.Protected, Label: "wood", Outline: []engine.Vec{{X: -10, Y: 20}, {X: 4, Y: 20}, {X: 4, Y: 28}, {X: -10, Y: 28}}},
		},
		Pieces: []engine.Piece{{Label: "KIN-3", Base: engine.Base{Center: engine.Vec{X: 36, Y: 11}, Width: 10, Depth: 2}},
			// two more, far apart, so that the picture shows the whole table
			{Label: "A", Base: engine.Base{Center: engine.Vec{X: 2, Y: 2}, Width: 1, Depth: 1}},
			{Label: "B", Base: engine.Base{Center: engine.Vec{X: 70, Y: 46}, Width: 1, Depth: 1}}}}
	b, _, err := newBoard(v, r.width, r.k)
	if err != nil {
		t.Fatal(err)
	}
	labels := staticLabels(r.faces, r.k, v, &b)
	if len(labels) != 3 {
		t.Fatalf("%d terrain names, want 3", len(labels))
	}
	var cs []pt
	for _, c := range v.Pieces[0].Base.Corners() {
		cs = append(cs, b.px(c))
	}
	if o := labels[0].box.overlap(bounds(cs...)); o > 0 {
		t.Errorf("the barrow's name lies %.0f px² under KIN-3", o)
	}
	wall := b.px(engine.Vec{X: 52, Y: 30})
	if labels[1].box.y1 > wall.y {
		t.Errorf("the wall's name (%v) runs across its line at y %.0f", labels[1].box, wall.y)
	}
	for _, l := range labels {
		if l.box.x0 < b.table.x0 || l.box.x1 > b.table.x1 || l.box.y0 < b.table.y0 || l.box.y1 > b.table.y1 {
			t.Errorf("%q at %v runs off the table %v", l.s, l.box, b.table)
		}
	}
}

// TestLossesWrittenAsLosses: a piece of more than eight figures shows
// what it lost as "−N", and nothing while it has lost none, never "0/16";
// a count of hits taken is written "+N".
func TestLossesWrittenAsLosses(t *testing.T) {
	r := New(Options{Width: PreviewWidth, SeenAt: PreviewWidth})
	s := &scene{fs: r.faces, k: r.k, v: &engine.View{Pips: "figure"}}
	for _, tt := range []struct {
		pips          string
		limit, wounds int
		want          string
	}{
		{"figure", 16, 0, ""},
		{"figure", 16, 4, " −4"},
		{"stand", 12, 3, " −3"},
		{"missile hit", 9, 2, " +2"},
		{"figure", 0, 2, " −2"},
	} {
		s.v.Pips = tt.pips
		l := label{text: "GRE-1", limit: tt.limit, wounds: tt.wounds, f: r.faces.label}
		s.labelSize(&l)
		if l.pipText != tt.want {
			t.Errorf("%d of %d %ss: %q beside the name, want %q", tt.wounds, tt.limit, tt.pips, l.pipText, tt.want)
		}
	}
	if got := lossLegend("figure"); got != "figures lost" {
		t.Errorf("the key says %q", got)
	}
}
