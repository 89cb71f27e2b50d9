package gwab

import (
	"math"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

func v(x, y float64) engine.Vec { return engine.Vec{X: x, Y: y} }

// square is the area x0..x1 by y0..y1, corners in order.
func square(x0, y0, x1, y1 float64) []engine.Vec {
	return []engine.Vec{v(x0, y0), v(x1, y0), v(x1, y1), v(x0, y1)}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestInsidePolyAndArea(t *testing.T) {
	// An L-shaped area: concave, so the even-odd rule and the clipping
	// must both cope.
	ell := []engine.Vec{v(0, 0), v(4, 0), v(4, 1), v(1, 1), v(1, 4), v(0, 4)}
	for _, tt := range []struct {
		p  engine.Vec
		in bool
	}{{v(0.5, 0.5), true}, {v(3, 0.5), true}, {v(0.5, 3), true}, {v(3, 3), false}, {v(-1, 1), false}, {v(2, 1.5), false}} {
		if got := insidePoly(tt.p, ell); got != tt.in {
			t.Errorf("insidePoly(%v) = %v, want %v", tt.p, got, tt.in)
		}
	}
	if a := polyArea(ell); !near(a, 7) {
		t.Errorf("polyArea(L) = %g, want 7", a)
	}
	// A 2x2 base centred on the L's inner corner covers three of its four
	// quarters of a stride square each: 3 square strides.
	b := engine.Base{Center: v(1, 1), Width: 2, Depth: 2}
	if a := areaIn(b, ell); !near(a, 3) {
		t.Errorf("areaIn = %g, want 3", a)
	}
	// Turned 45°, a base wholly inside a big square keeps its whole area.
	b = engine.Base{Center: v(5, 5), Width: 2, Depth: 1, Facing: 45}
	if a := areaIn(b, square(0, 0, 10, 10)); !near(a, 2) {
		t.Errorf("areaIn (turned, inside) = %g, want 2", a)
	}
}

func TestFeatureOnAndTouches(t *testing.T) {
	grove := Feature{Kind: Rough, Points: square(0, 0, 4, 4)}
	wall := Feature{Kind: Obstacle, Points: []engine.Vec{v(10, 0), v(10, 4)}}
	for _, tt := range []struct {
		name      string
		f         Feature
		front     engine.Vec
		on, touch bool
	}{
		{"against the grove's edge", grove, v(2, 0), false, true},
		{"a hair into the grove", grove, v(2, 0.01), true, true},
		{"well clear of the grove", grove, v(2, -1), false, false},
		{"across the wall", wall, v(10.5, 2.5), true, true},
		{"against the wall", wall, v(10, 2.5), false, true},
		{"a stride short of the wall", wall, v(9, 2.5), false, false},
		{"beyond the wall's end", wall, v(10, 6), false, false},
	} {
		// A warband facing east whose front centre is given: it lies to
		// the west of that point for the wall, south of it for the grove.
		b := engine.Base{Width: 2, Depth: 1}
		if tt.f.Kind == Obstacle {
			b.Facing = engine.HeadingE
		}
		b = b.WithFrontCenter(tt.front)
		if got := tt.f.on(b); got != tt.on {
			t.Errorf("%s: on = %v, want %v", tt.name, got, tt.on)
		}
		if got := tt.f.touches(b); got != tt.touch {
			t.Errorf("%s: touches = %v, want %v", tt.name, got, tt.touch)
		}
	}
}

func TestFootLimit(t *testing.T) {
	s := &State{Terrain: []Feature{
		{Kind: Rough, Points: square(10, 14, 14, 15), Label: "rocks"},
		{Kind: Obstacle, Points: []engine.Vec{v(30, 14), v(38, 14)}, Label: "palisade"},
		{Kind: Stream, Points: square(40, 14, 50, 16), Label: "stream"},
	}}
	for _, tt := range []struct {
		name   string
		p0, p1 engine.Vec
		want   float64 // the fraction of the way allowed
	}{
		{"into the rocks and stopping", v(12, 12.5), v(12, 14.5), 1},
		{"through the rocks", v(12, 12.5), v(12, 15.5), 2.5 / 3},
		{"out of the rocks it stands in", v(12, 14.5), v(12, 17), 1},
		{"just over the palisade", v(34, 12.5), v(34, 15), 1},
		{"too far over the palisade", v(34, 12.5), v(34, 15.5), 2.5 / 3},
		{"on from beyond the palisade", v(34, 15), v(34, 17), 1},
		{"through the stream", v(45, 13), v(45, 16), 1},
	} {
		got, _ := s.footLimit(tt.p0, tt.p1, 1)
		if !near(got, tt.want) {
			t.Errorf("%s: limit %g, want %g", tt.name, got, tt.want)
		}
	}
}

func TestLeavesAfterEnteringThroughAVertex(t *testing.T) {
	// A diamond entered and left through its corners: the path is inside
	// only between them.
	diamond := []engine.Vec{v(0, -1), v(1, 0), v(0, 1), v(-1, 0)}
	out, ok := leavesAfterEntering(v(-2, 0), v(2, 0), diamond)
	if !ok || !near(out, 0.75) {
		t.Errorf("leaves at %g (%v), want 0.75", out, ok)
	}
	// Grazing a corner from outside is not entering.
	if _, ok := leavesAfterEntering(v(-2, 1), v(2, 1), diamond); ok {
		t.Errorf("a path that grazes a corner was taken to enter")
	}
}

func TestBookOptions(t *testing.T) {
	for _, tt := range []struct {
		kv   []string
		want Options
		ok   bool
	}{
		{nil, Options{}, true},
		{[]string{"terrain", "on"}, Options{Terrain: true}, true},
		{[]string{"terrain", "off", "javelins", "3"}, Options{Javelins: 3}, true},
		{[]string{"javelins", "-1"}, Options{}, false},
		{[]string{"javelins", "many"}, Options{}, false},
		{[]string{"terrain", "maybe"}, Options{}, false},
	} {
		got, err := bookOptions(opt("alice", "book open", tt.kv...))
		if (err == nil) != tt.ok || tt.ok && got != tt.want {
			t.Errorf("%v: %+v, %v", tt.kv, got, err)
		}
	}
}

func TestTerrainLaidRefusesMalformedFeatures(t *testing.T) {
	for _, f := range []Feature{
		{Kind: 7, Points: square(0, 0, 1, 1)},
		{Kind: Rough, Points: []engine.Vec{v(0, 0), v(1, 1)}},
		{Kind: Obstacle, Points: []engine.Vec{v(0, 0)}},
		{Kind: Stream, Points: []engine.Vec{v(0, 0), v(1, math.Inf(1)), v(2, 0)}},
	} {
		if err := (TerrainLaid{Feature: f}).Apply(&State{}); err == nil {
			t.Errorf("%+v was laid", f)
		}
	}
}
