package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

func geomNear(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func geomNearVec(a, b Vec) bool { return geomNear(a.X, b.X) && geomNear(a.Y, b.Y) }

// Gwab's bases in strides (GWAB 2.4, 2.5): a 60x30 mm warband is 2x1, a
// 60x80 mm chariot is 2 wide and 8/3 deep.
func geoWarband(x, y float64, h Heading) Base {
	return Base{Center: Vec{x, y}, Width: 2, Depth: 1, Facing: h}
}

func geoChariot(x, y float64, h Heading) Base {
	return Base{Center: Vec{x, y}, Width: 2, Depth: 8.0 / 3, Facing: h}
}

func TestVecString(t *testing.T) {
	tests := []struct {
		v    Vec
		want string
	}{
		{Vec{12, 7.5}, "12,7.5"},
		{Vec{0, 0}, "0,0"},
		{Vec{-3, 4}, "-3,4"},
		{Vec{-0.04, 3.04}, "0,3"},
		{Vec{2.96, 10.25}, "3,10.3"},
		{Vec{1.0 / 3, 2.0 / 3}, "0.3,0.7"},
		{Vec{100, -2.5}, "100,-2.5"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestParseVec(t *testing.T) {
	tests := []struct {
		in   string
		want Vec
		ok   bool
	}{
		{"12,7.5", Vec{12, 7.5}, true},
		{" 12 , 7.5 ", Vec{12, 7.5}, true},
		{"(3, 4)", Vec{3, 4}, true},
		{"-3,+4", Vec{-3, 4}, true},
		{".5,5.", Vec{0.5, 5}, true},
		{"0,0", Vec{}, true},
		{"12", Vec{}, false},
		{"12;7", Vec{}, false},
		{"a,b", Vec{}, false},
		{"1,2,3", Vec{}, false},
		{",", Vec{}, false},
		{"1e3,2", Vec{}, false},
		{"NaN,1", Vec{}, false},
		{"inf,1", Vec{}, false},
		{"0x10,1", Vec{}, false},
		{"1.2.3,4", Vec{}, false},
		{"--1,4", Vec{}, false},
		{"2000000,0", Vec{}, false},
		{"", Vec{}, false},
	}
	for _, tt := range tests {
		got, err := ParseVec(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseVec(%q) error = %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if tt.ok && got != tt.want {
			t.Errorf("ParseVec(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestVecArithmetic(t *testing.T) {
	a, b := Vec{3, 4}, Vec{1, -2}
	if got := a.Add(b); got != (Vec{4, 2}) {
		t.Errorf("Add = %v", got)
	}
	if got := a.Sub(b); got != (Vec{2, 6}) {
		t.Errorf("Sub = %v", got)
	}
	if got := a.Scale(2); got != (Vec{6, 8}) {
		t.Errorf("Scale = %v", got)
	}
	if a.Len() != 5 || a.Dist(Vec{}) != 5 {
		t.Errorf("Len or Dist of 3,4 is not 5")
	}
	if a.Dot(b) != -5 {
		t.Errorf("Dot = %v", a.Dot(b))
	}
	if !geomNearVec(a.Unit(), Vec{0.6, 0.8}) || (Vec{}).Unit() != (Vec{}) {
		t.Errorf("Unit wrong")
	}
	// Rotate turns clockwise, like headings.
	if got := (Vec{0, 1}).Rotate(90); !geomNearVec(got, Vec{1, 0}) {
		t.Errorf("north rotated 90 = %v, want east", got)
	}
	if got := (Vec{1, 0}).Rotate(-90); !geomNearVec(got, Vec{0, 1}) {
		t.Errorf("east rotated -90 = %v, want north", got)
	}
}

func TestParseHeading(t *testing.T) {
	tests := []struct {
		in   string
		want Heading
		ok   bool
	}{
		{"N", 0, true},
		{"ne", 45, true},
		{" E ", 90, true},
		{"Se", 135, true},
		{"S", 180, true},
		{"sw", 225, true},
		{"W", 270, true},
		{"NW", 315, true},
		{"135", 135, true},
		{"22.5", 22.5, true},
		{"-90", 270, true},
		{"450", 90, true},
		{"360", 0, true},
		{"90°", 90, true},
		{"90 deg", 90, true},
		{"NNE", 0, false},
		{"north", 0, false},
		{"", 0, false},
		{"1e2", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseHeading(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseHeading(%q) error = %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if tt.ok && got != tt.want {
			t.Errorf("ParseHeading(%q) = %v, want %v", tt.in, float64(got), float64(tt.want))
		}
	}
}

func TestHeading(t *testing.T) {
	strs := []struct {
		h    Heading
		want string
	}{
		{0, "N"}, {90, "E"}, {135, "SE"}, {315, "NW"}, {360, "N"}, {-45, "NW"},
		{30, "30"}, {22.5, "23"}, {359.99, "N"}, {200.04, "200"}, {185.6, "186"}, {44.6, "NE"},
	}
	for _, tt := range strs {
		if got := tt.h.String(); got != tt.want {
			t.Errorf("Heading(%v).String() = %q, want %q", float64(tt.h), got, tt.want)
		}
	}
	if !geomNearVec(HeadingE.Vec(), Vec{1, 0}) || !geomNearVec(HeadingN.Vec(), Vec{0, 1}) || !geomNearVec(HeadingS.Vec(), Vec{0, -1}) {
		t.Errorf("Heading.Vec wrong")
	}
	to := []struct {
		from, to Vec
		want     Heading
	}{
		{Vec{0, 0}, Vec{0, 5}, 0},
		{Vec{0, 0}, Vec{5, 5}, 45},
		{Vec{0, 0}, Vec{-5, 0}, 270},
		{Vec{1, 1}, Vec{1, -3}, 180},
		{Vec{2, 2}, Vec{2, 2}, 0},
	}
	for _, tt := range to {
		if got := HeadingTo(tt.from, tt.to); !geomNear(float64(got), float64(tt.want)) {
			t.Errorf("HeadingTo(%v, %v) = %v, want %v", tt.from, tt.to, float64(got), float64(tt.want))
		}
	}
	if d := Heading(350).Diff(10); !geomNear(d, 20) {
		t.Errorf("350 to 10 = %v, want 20", d)
	}
	if d := Heading(10).Diff(350); !geomNear(d, -20) {
		t.Errorf("10 to 350 = %v, want -20", d)
	}
	if got := HeadingE.Reverse(); got != HeadingW {
		t.Errorf("E reversed = %v", got)
	}
	for _, h := range []Heading{-1e-20, -720, 1e6 + 0.5} {
		if n := h.Norm(); n < 0 || n >= 360 {
			t.Errorf("Norm(%v) = %v out of [0,360)", float64(h), float64(n))
		}
	}
}

func TestBaseShape(t *testing.T) {
	b := geoWarband(10, 10, HeadingN)
	want := [4]Vec{{9, 10.5}, {11, 10.5}, {11, 9.5}, {9, 9.5}}
	for i, c := range b.Corners() {
		if !geomNearVec(c, want[i]) {
			t.Errorf("north-facing corner %d = %v, want %v", i, c, want[i])
		}
	}
	if !geomNearVec(b.FrontCenter(), Vec{10, 10.5}) {
		t.Errorf("FrontCenter = %v", b.FrontCenter())
	}
	e := geoWarband(0, 0, HeadingE)
	if !geomNearVec(e.FrontCenter(), Vec{0.5, 0}) || !geomNearVec(e.FrontLeft(), Vec{0.5, 1}) || !geomNearVec(e.FrontRight(), Vec{0.5, -1}) {
		t.Errorf("east-facing front = %v %v %v", e.FrontLeft(), e.FrontCenter(), e.FrontRight())
	}
	// GWAB 8.4 measures from the front centre: moving it there moves the base.
	m := e.WithFrontCenter(Vec{3.5, 2})
	if !geomNearVec(m.FrontCenter(), Vec{3.5, 2}) || !geomNearVec(m.Center, Vec{3, 2}) || m.Facing != HeadingE {
		t.Errorf("WithFrontCenter = %+v", m)
	}
	for _, tt := range []struct {
		p    Vec
		want bool
	}{
		{Vec{10, 10}, true}, {Vec{11, 10.5}, true}, {Vec{11.01, 10}, false}, {Vec{10, 10.6}, false},
	} {
		if got := b.Contains(tt.p); got != tt.want {
			t.Errorf("Contains(%v) = %v", tt.p, got)
		}
	}
	// Facing NE, the base runs from north-west to south-east.
	if !geoWarband(0, 0, 45).Contains(Vec{0.7, -0.7}) || geoWarband(0, 0, 45).Contains(Vec{0.7, 0.7}) {
		t.Errorf("Contains wrong for a base facing NE")
	}
}

func TestBaseContact(t *testing.T) {
	tests := []struct {
		name     string
		a, b     Base
		overlaps bool
		touches  bool
		gap      float64
	}{
		{"warbands side by side", geoWarband(0, 0, HeadingN), geoWarband(2, 0, HeadingN), false, true, 0},
		{"warbands front to front", geoWarband(0, 0, HeadingN), geoWarband(0, 1, HeadingS), false, true, 0},
		{"warbands a hair apart", geoWarband(0, 0, HeadingN), geoWarband(2.03, 0, HeadingN), false, true, 0.03},
		{"warbands half a stride apart", geoWarband(0, 0, HeadingN), geoWarband(2.5, 0, HeadingN), false, false, 0.5},
		{"warbands overlapping", geoWarband(0, 0, HeadingN), geoWarband(1.9, 0, HeadingN), true, false, 0},
		{"one on top of the other", geoWarband(0, 0, HeadingN), geoWarband(0, 0, HeadingE), true, false, 0},
		{"corner to corner", geoWarband(0, 0, HeadingN), geoWarband(2, 1, HeadingN), false, true, 0},
		{"corners diagonally apart", geoWarband(0, 0, HeadingN), geoWarband(5, 5, HeadingN), false, false, math.Hypot(3, 4)},
		{"chariot against warband flank", geoChariot(0, 0, HeadingN), geoWarband(1.5, 0, HeadingE), false, true, 0},
		{"turned base, corner on edge", geoWarband(0, 0, HeadingN), geoWarband(0, 0.5+math.Sqrt2*0.75, 45), false, true, 0},
		{"turned base, corner a hair in", geoWarband(0, 0, HeadingN), geoWarband(0, 0.5+math.Sqrt2*0.75-0.01, 45), true, true, 0},
		{"turned base, corner well in", geoWarband(0, 0, HeadingN), geoWarband(0, 0.5+math.Sqrt2*0.75-0.2, 45), true, false, 0},
		{"warbands overlapping by a hair", geoWarband(0, 0, HeadingN), geoWarband(1.97, 0, HeadingN), true, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, pair := range [][2]Base{{tt.a, tt.b}, {tt.b, tt.a}} {
				x, y := pair[0], pair[1]
				if got := x.Overlaps(y); got != tt.overlaps {
					t.Errorf("Overlaps = %v, want %v", got, tt.overlaps)
				}
				if got := x.Touches(y); got != tt.touches {
					t.Errorf("Touches = %v, want %v", got, tt.touches)
				}
				if got, want := x.Clashes(y), tt.overlaps && !tt.touches; got != want {
					t.Errorf("Clashes = %v, want %v (penetration %v)", got, want, x.Penetration(y))
				}
				if got := x.Gap(y); math.Abs(got-tt.gap) > 1e-6 {
					t.Errorf("Gap = %v, want %v", got, tt.gap)
				}
			}
		})
	}
}

// TestGapIsTheLeastDistanceBetweenSides checks Gap against its definition,
// the least distance between a side of one base and a side of the other,
// to the last bit: a bot's choice among units ranked by Gap, or a rule's
// range test, must not move when the measurement is made faster. The
// bases are drawn apart, touching (a corner or a side set on the other's
// side, as moves to contact leave them) and a hair into each other.
func TestGapIsTheLeastDistanceBetweenSides(t *testing.T) {
	bySides := func(b, o Base) float64 {
		if b.Overlaps(o) || b.Contains(o.Center) || o.Contains(b.Center) {
			return 0
		}
		best := math.Inf(1)
		for _, e := range b.edges() {
			for _, f := range o.edges() {
				best = math.Min(best, segmentDist(e[0], e[1], f[0], f[1]))
			}
		}
		return best
	}
	r := rand.New(rand.NewPCG(1, 2))
	headings := []Heading{HeadingN, HeadingE, 45, 30, 90.5, 200}
	base := func() Base {
		return Base{
			Center: Vec{r.Float64() * 20, r.Float64() * 20},
			Width:  0.5 + r.Float64()*6, Depth: 0.5 + r.Float64()*3,
			Facing: headings[r.IntN(len(headings))] + Heading(r.IntN(2))*Heading(r.Float64()*360),
		}
	}
	kinds := map[string]int{}
	for i := range 20000 {
		b, o := base(), base()
		switch i % 4 {
		case 1: // o's rear edge laid on b's front
			o.Facing = b.Facing
			o.Center = b.world(Vec{(r.Float64() - 0.5) * b.Width * 1.5, b.Depth/2 + o.Depth/2})
		case 2: // the same, a hair in or out
			o.Facing = b.Facing + Heading(r.IntN(3)-1)*1e-7
			o.Center = b.world(Vec{(r.Float64() - 0.5) * b.Width * 1.5, b.Depth/2 + o.Depth/2 + (r.Float64()-0.5)*4e-6})
		case 3: // o turned and set with a corner near b's side
			o.Center = b.world(Vec{b.Width/2 + o.Width/2 + (r.Float64()-0.5)*0.01, (r.Float64() - 0.5) * b.Depth})
		}
		got, want := b.Gap(o), bySides(b, o)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("Gap(%+v, %+v) = %v, by its sides %v", b, o, got, want)
		}
		switch {
		case want == 0:
			kinds["in contact"]++
		case want < 1e-3:
			kinds["a hair apart"]++
		default:
			kinds["apart"]++
		}
	}
	for _, k := range []string{"in contact", "a hair apart", "apart"} {
		if kinds[k] < 100 {
			t.Errorf("only %d pairs %s: the test does not reach that case (%v)", kinds[k], k, kinds)
		}
	}
}

func TestSideFacing(t *testing.T) {
	b := geoWarband(0, 0, HeadingN)
	tests := []struct {
		p    Vec
		want Side
	}{
		{Vec{0, 3}, Front},
		{Vec{0.9, 0.6}, Front},
		{Vec{3, 0}, Right},
		{Vec{0, -3}, Rear},
		{Vec{-3, 0.4}, Left},
		{Vec{-1.1, 0.45}, Left}, // against the flank, near the front corner
		{Vec{0, 0}, Front},
	}
	for _, tt := range tests {
		if got := b.SideFacing(tt.p); got != tt.want {
			t.Errorf("SideFacing(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	// The same, turned to face east: north of it is its left.
	if got := geoWarband(0, 0, HeadingE).SideFacing(Vec{0, 5}); got != Left {
		t.Errorf("east-facing base, point to the north: %v, want left", got)
	}
}

func TestContactSide(t *testing.T) {
	hero := geoWarband(0, 0, HeadingN)
	tests := []struct {
		name string
		o    Base
		want Side
	}{
		{"faced front to front", geoWarband(0, 1, HeadingS), Front},
		{"charged in the right flank", geoWarband(1.5, 0, HeadingW), Right},
		{"charged in the left flank near the front corner", geoWarband(-1.5, -0.5, HeadingE), Left},
		{"hit from behind, offset", geoWarband(1, -1, HeadingN), Rear},
		{"chariot on the left flank", geoChariot(-2.3333333333, 0, HeadingE), Left},
		{"far away", geoWarband(10, 10, HeadingN), NoSide},
	}
	for _, tt := range tests {
		if got := hero.ContactSide(tt.o); got != tt.want {
			t.Errorf("%s: ContactSide = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !Left.Flank() || !Right.Flank() || Front.Flank() || Rear.Flank() {
		t.Errorf("Side.Flank wrong")
	}
	if NoSide.String() != "none" || Rear.String() != "rear" {
		t.Errorf("Side.String wrong")
	}
}

func TestBlocksLine(t *testing.T) {
	b := geoWarband(5, 5, HeadingN) // x 4..6, y 4.5..5.5
	tests := []struct {
		name string
		a, c Vec
		want bool
	}{
		{"straight through", Vec{5, 0}, Vec{5, 10}, true},
		{"across the middle", Vec{0, 5}, Vec{10, 5}, true},
		{"passing beside", Vec{6.01, 0}, Vec{6.01, 10}, false},
		{"along its edge", Vec{6, 0}, Vec{6, 10}, false},
		{"through one corner only", Vec{5, 6.5}, Vec{7, 4.5}, false},
		{"clipping a corner", Vec{5, 6.4}, Vec{7, 4.4}, true},
		{"stopping short", Vec{5, 0}, Vec{5, 4.4}, false},
		{"ending inside", Vec{5, 0}, Vec{5, 5}, true},
	}
	for _, tt := range tests {
		if got := b.BlocksLine(tt.a, tt.c); got != tt.want {
			t.Errorf("%s: BlocksLine = %v, want %v", tt.name, got, tt.want)
		}
	}
	if g := b.SegmentGap(Vec{8, 0}, Vec{8, 10}); !geomNear(g, 2) {
		t.Errorf("SegmentGap beside = %v, want 2", g)
	}
	if g := b.SegmentGap(Vec{5, 0}, Vec{5, 10}); g != 0 {
		t.Errorf("SegmentGap through = %v, want 0", g)
	}
	if g := b.SegmentGap(Vec{0, 0}, Vec{1, 0.5}); !geomNear(g, 5) {
		t.Errorf("SegmentGap to the corner = %v, want 5", g)
	}
}

func TestSweep(t *testing.T) {
	mover := geoWarband(0, 0, HeadingN)
	thin := Base{Center: Vec{0, 3}, Width: 4, Depth: 0.01, Facing: HeadingN}
	tests := []struct {
		name   string
		to     Vec
		others []Base
		frac   float64
		hit    int
	}{
		{"clear ground", Vec{0, 9}, []Base{geoWarband(5, 5, HeadingN)}, 1, -1},
		{"into a warband ahead", Vec{0, 6}, []Base{geoWarband(0, 4, HeadingS)}, 3.0 / 6, 0},
		{"the nearer of two", Vec{0, 9}, []Base{geoWarband(0, 8, HeadingS), geoWarband(1, 4, HeadingS)}, 3.0 / 9, 1},
		{"a thin base across the path", Vec{0, 9}, []Base{thin}, (3 - 0.005 - 0.5) / 9, 0},
		{"sliding past a flank in contact", Vec{0, 9}, []Base{geoWarband(2, 3, HeadingN)}, 1, -1},
		{"already overlapping", Vec{0, 9}, []Base{geoWarband(0.5, 0, HeadingN)}, 0, 0},
		// Two bases placed 0.03 into each other are in contact (RULINGS):
		// moving apart or along the contact is free, moving in is not.
		{"backing out of a hairline overlap", Vec{0, -3}, []Base{geoWarband(0, 0.97, HeadingS)}, 1, -1},
		{"sliding along a hairline overlap", Vec{3, 0}, []Base{geoWarband(0, 0.97, HeadingS)}, 1, -1},
		{"pressing into a hairline overlap", Vec{0, 3}, []Base{geoWarband(0, 0.97, HeadingS)}, 0, 0},
		{"backing out of a deep overlap", Vec{0, -3}, []Base{geoWarband(0, 0.5, HeadingS)}, 0, 0},
		{"stopping short", Vec{0, 2}, []Base{geoWarband(0, 4, HeadingN)}, 1, -1},
		{"diagonal into a corner", Vec{3, 3}, []Base{geoWarband(3, 3, HeadingN)}, 2.0 / 3, 0},
	}
	for _, tt := range tests {
		frac, hit := mover.Sweep(tt.to, tt.others...)
		if hit != tt.hit || math.Abs(frac-tt.frac) > 1e-5 {
			t.Errorf("%s: Sweep = %v, %d; want %v, %d", tt.name, frac, hit, tt.frac, tt.hit)
			continue
		}
		if hit >= 0 && frac > 0 {
			stop := mover.WithCenter(mover.Center.Lerp(tt.to, frac))
			if !stop.Touches(tt.others[hit]) {
				t.Errorf("%s: at the stopping point the bases do not touch (gap %v)", tt.name, stop.Gap(tt.others[hit]))
			}
		}
	}
}

// TestSweepAgainstSampling checks the exact sweep against small steps on
// many random layouts.
func TestSweepAgainstSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randBase := func() Base {
		return Base{
			Center: Vec{r.Float64() * 20, r.Float64() * 20},
			Width:  0.1 + r.Float64()*3,
			Depth:  0.1 + r.Float64()*3,
			Facing: Heading(r.Float64() * 360),
		}
	}
	for i := range 2000 {
		b, o := randBase(), randBase()
		to := Vec{r.Float64() * 20, r.Float64() * 20}
		frac, hit := b.Sweep(to, o)
		const n = 4000
		at := func(f float64) Base { return b.WithCenter(b.Center.Lerp(to, f)) }
		first, found := 1.0, false
		for k := 0; k <= n; k++ {
			if f := float64(k) / n; at(f).Overlaps(o) {
				first, found = f, true
				break
			}
		}
		switch {
		case found && (hit != 0 || frac > first+1e-9 || first-frac > 1.0/n+1e-9):
			t.Fatalf("case %d: Sweep = %v, %d; sampling finds overlap at %v\nb=%#v\no=%#v\nto=%#v", i, frac, hit, first, b, o, to)
		case hit == 0 && frac > 0 && at(frac).Overlaps(o):
			t.Fatalf("case %d: Sweep stops at %v, overlapping\nb=%#v\no=%#v\nto=%#v", i, frac, b, o, to)
		case !found && hit == 0:
			// A glancing contact between samples: look closer.
			real := false
			for k := 1; k <= 1000 && !real; k++ {
				real = at(frac + float64(k)/1000/n).Overlaps(o)
			}
			if !real {
				t.Fatalf("case %d: Sweep finds a collision at %v that is not there\nb=%#v\no=%#v\nto=%#v", i, frac, b, o, to)
			}
		case !found && hit != -1:
			t.Fatalf("case %d: Sweep hit %d, want -1", i, hit)
		}
	}
}

func TestWheel(t *testing.T) {
	// A chariot wheels to the right about its front right corner (GWAB 8.4).
	c := geoChariot(0, 0, HeadingN)
	pivot := c.FrontRight()
	w := c.Wheel(90)
	if w.Facing != HeadingE {
		t.Errorf("facing after wheeling right 90 = %v", w.Facing)
	}
	if !geomNearVec(w.FrontRight(), pivot) {
		t.Errorf("pivot moved: %v -> %v", pivot, w.FrontRight())
	}
	// The outer corner swings a quarter circle of radius 2 round to the
	// other side of the pivot.
	if !geomNearVec(w.FrontLeft(), pivot.Add(Vec{0, 2})) {
		t.Errorf("outer corner ended at %v", w.FrontLeft())
	}
	if d := c.WheelDistance(90); !geomNear(d, math.Pi) {
		t.Errorf("WheelDistance(90) = %v, want pi", d)
	}
	if d := c.WheelDistance(-45); !geomNear(d, math.Pi/2) {
		t.Errorf("WheelDistance(-45) = %v", d)
	}
	if a := WheelAngle(2, math.Pi); !geomNear(a, 90) {
		t.Errorf("WheelAngle = %v, want 90", a)
	}
	l := c.Wheel(-30)
	if !geomNearVec(l.FrontLeft(), c.FrontLeft()) || l.Facing != 330 {
		t.Errorf("wheel left: %+v", l)
	}
	// Wheeling round through a whole circle comes back.
	if back := c.Wheel(90).Wheel(90).Wheel(90).Wheel(90); !geomNearVec(back.Center, c.Center) || back.Facing.Norm() != 0 {
		t.Errorf("four right wheels: %+v", back)
	}
}

func TestSweepWheel(t *testing.T) {
	c := geoChariot(0, 0, HeadingN)
	// A warband sitting where the chariot's left front corner swings to.
	block := geoWarband(1, 3, HeadingN)
	frac, hit := c.SweepWheel(90, block)
	if hit != 0 || frac <= 0 || frac >= 1 {
		t.Fatalf("SweepWheel = %v, %d; want a stop part way round", frac, hit)
	}
	if stop := c.Wheel(90 * frac); stop.Overlaps(block) || !stop.Touches(block) {
		t.Errorf("stopping position: overlaps %v, gap %v", stop.Overlaps(block), stop.Gap(block))
	}
	if frac, hit := c.SweepWheel(90, geoWarband(-5, 0, HeadingN)); frac != 1 || hit != -1 {
		t.Errorf("clear wheel = %v, %d", frac, hit)
	}
	// A thin marker in the way of the swing is not stepped over.
	// It lies where the chariot passes mid-turn, clear of where it starts and
	// ends.
	thin := Base{Center: Vec{-1.4, 0.333}, Width: 0.02, Depth: 0.3, Facing: 45}
	if thin.Overlaps(c) || thin.Overlaps(c.Wheel(90)) {
		t.Fatalf("the thin base is not only in mid-turn")
	}
	if _, hit := c.SweepWheel(90, thin); hit != 0 {
		t.Errorf("wheel went through a thin base")
	}
}

func FuzzParseVec(f *testing.F) {
	for _, s := range []string{"12,7.5", " 3 , -4 ", "(1,2)", "0,0", ".5,5.", "1e3,2", "a,b", ",", "-0.04,9.95"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVec(s)
		if err != nil {
			return
		}
		if math.IsNaN(v.X) || math.IsNaN(v.Y) || math.IsInf(v.X, 0) || math.IsInf(v.Y, 0) {
			t.Fatalf("ParseVec(%q) = %v", s, v)
		}
		str := v.String()
		w, err := ParseVec(str)
		if err != nil {
			t.Fatalf("ParseVec(%q) of String of %q: %v", str, s, err)
		}
		if w.Dist(v) > 0.05*math.Sqrt2+1e-9 || w.String() != str {
			t.Fatalf("round trip %q -> %v -> %q -> %v", s, v, str, w)
		}
	})
}

func FuzzParseHeading(f *testing.F) {
	for _, s := range []string{"N", "se", "135", "-30", "22.5", "90°", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHeading(s)
		if err != nil {
			return
		}
		if h < 0 || h >= 360 {
			t.Fatalf("ParseHeading(%q) = %v, not normalised", s, float64(h))
		}
		str := h.String()
		g, err := ParseHeading(str)
		if err != nil || math.Abs(h.Diff(g)) > 0.5+1e-9 || g.String() != str {
			t.Fatalf("round trip %q -> %v -> %q -> %v, %v", s, float64(h), str, float64(g), err)
		}
	})
}

func TestInArcAsymmetric(t *testing.T) {
	// A horseman at 10,10 facing north sees 180° to his left and 45° to
	// his right (Goliath's arc of fire).
	b := Base{Center: Vec{10, 9}, Width: 2, Depth: 2, Facing: HeadingN}
	at := func(x, y float64) Base { return Base{Center: Vec{x, y}, Width: 1, Depth: 1, Facing: HeadingS} }
	for _, tt := range []struct {
		name string
		o    Base
		want bool
	}{
		{"ahead", at(10, 20), true},
		{"30° right", at(15.8, 20), true},
		{"due right", at(20, 10), false},
		{"due left", at(0, 10), true},
		{"behind on the left", at(5, 2), true},
	} {
		if got := b.InArc(tt.o, 180, 45); got != tt.want {
			t.Errorf("%s: InArc = %v, want %v", tt.name, got, tt.want)
		}
	}
	if b.InArc(at(0, 10), 45, 45) {
		t.Error("foot see due left")
	}
}

func TestCrossing(t *testing.T) {
	b := Base{Center: Vec{10, 10}, Width: 4, Depth: 4, Facing: HeadingN}
	if t0, t1, ok := b.Crossing(Vec{10, 0}, Vec{10, 20}); !ok || math.Abs(t0-0.4) > 1e-9 || math.Abs(t1-0.6) > 1e-9 {
		t.Errorf("a line through the middle crosses it from %v to %v (%v), want 0.4 to 0.6: 0.2 of it inside", t0, t1, ok)
	}
	if t0, t1, ok := b.Crossing(Vec{0, 0}, Vec{0, 20}); ok && t1 > t0 {
		t.Errorf("a line beside it crosses it from %v to %v, want not at all", t0, t1)
	}
}

func TestWithinAndTableSize(t *testing.T) {
	if !(Base{Center: Vec{1, 1}, Width: 2, Depth: 2}).Within(72, 48) {
		t.Error("a base touching the corner is off the table")
	}
	if (Base{Center: Vec{71.5, 1}, Width: 2, Depth: 2}).Within(72, 48) {
		t.Error("a base over the east edge is on the table")
	}
	if w, d, err := ParseTableSize("96 x 60"); err != nil || w != 96 || d != 60 {
		t.Errorf("96 x 60 read as %v, %v, %v", w, d, err)
	}
	for _, bad := range []string{"72", "10x48", "72x200", "axb"} {
		if _, _, err := ParseTableSize(bad); err == nil {
			t.Errorf("%q read as a size", bad)
		}
	}
}

// TestFarApartIsApart: where farApart spares the exact tests, they would
// have found no overlap anywhere along the way. Random bases of every
// size and facing, placed round the distance where their reaches meet,
// are tested both ways, at the start, at the end and along the way.
func TestFarApartIsApart(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	spared, near := 0, 0
	for range 20000 {
		b := Base{Center: Vec{r.Float64() * 20, r.Float64() * 20}, Width: 0.2 + r.Float64()*6, Depth: 0.2 + r.Float64()*6, Facing: Heading(r.Float64() * 360)}
		o := Base{Center: Vec{r.Float64() * 20, r.Float64() * 20}, Width: 0.2 + r.Float64()*6, Depth: 0.2 + r.Float64()*6, Facing: Heading(r.Float64() * 360)}
		var v Vec
		if r.IntN(2) == 0 {
			v = Vec{r.Float64()*10 - 5, r.Float64()*10 - 5}
		}
		if !b.farApart(v, o) {
			continue
		}
		spared++
		for k := range 65 {
			at := b.WithCenter(b.Center.Add(v.Scale(float64(k) / 64)))
			if p := at.penetration(o); p > 0 {
				t.Fatalf("%+v moved by %v×%d/64 reaches into %+v by %g, yet farApart spared it", b, v, k, o, p)
			}
			if gap := at.Gap(o); gap < 1e-3 {
				near++
			}
		}
	}
	if spared < 5000 {
		t.Errorf("farApart spared %d of 20000 pairs; want a test that reaches it", spared)
	}
	if near > 0 {
		t.Errorf("%d positions farApart spared came within a thousandth of touching", near)
	}
}
