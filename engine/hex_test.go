package engine

import (
	"math"
	"slices"
	"testing"
)

func geoHex(ref string) Hex {
	h, err := ParseHex(ref)
	if err != nil {
		panic(err)
	}
	return h
}

func geoHexRefs(hs []Hex) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	return out
}

func TestHexRefs(t *testing.T) {
	h := geoHex("0412")
	if col, row := h.Offset(); col != 4 || row != 12 {
		t.Errorf("0412 is column %d row %d", col, row)
	}
	if got := HexFromOffset(4, 12).String(); got != "0412" {
		t.Errorf("column 4 row 12 written %q", got)
	}
	if h, err := ParseHex(" 2307 "); err != nil || h.String() != "2307" {
		t.Errorf("ParseHex with spaces: %v, %v", h, err)
	}
	for _, bad := range []string{"", "412", "04120", "04a2", "-412", "04 12", "０４１２", "4-12"} {
		if h, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) = %v, want an error", bad, h)
		}
	}
	if got := HexFromOffset(100, 5).String(); got[:4] != "hex(" {
		t.Errorf("hex off a 100x100 map written %q", got)
	}
}

// Every hex of a 30x30 map, and indeed of 0000 to 9999, reads back.
func TestHexRoundTrip(t *testing.T) {
	for col := range 100 {
		for row := range 100 {
			h := HexFromOffset(col, row)
			if c, r := h.Offset(); c != col || r != row {
				t.Fatalf("offset %d,%d -> %v -> %d,%d", col, row, h, c, r)
			}
			ref := h.String()
			if got, err := ParseHex(ref); err != nil || got != h {
				t.Fatalf("ParseHex(%q) = %v, %v; want %#v", ref, got, err, h)
			}
		}
	}
	seen := map[Hex]bool{}
	for col := 1; col <= 30; col++ {
		for row := 1; row <= 30; row++ {
			h := HexFromOffset(col, row)
			if seen[h] {
				t.Fatalf("two printed numbers for %#v", h)
			}
			seen[h] = true
		}
	}
}

// The printed layout: columns of flat-topped hexes, even columns half a hex
// lower, rows numbered down the map.
func TestHexLayout(t *testing.T) {
	tests := []struct {
		from, to string
		want     HexDir
	}{
		{"0101", "0100", HexN},
		{"0101", "0102", HexS},
		{"0101", "0201", HexSE},
		{"0101", "0200", HexNE},
		{"0201", "0301", HexNE},
		{"0201", "0302", HexSE},
		{"0201", "0101", HexNW},
		{"0201", "0102", HexSW},
		{"0505", "0604", HexNE},
		{"0505", "0404", HexNW},
		{"0505", "0707", NoHexDir},
	}
	for _, tt := range tests {
		if got := HexDirTo(geoHex(tt.from), geoHex(tt.to)); got != tt.want {
			t.Errorf("%s is %v of %s, want %v", tt.to, got, tt.from, tt.want)
		}
	}
	// On the picture north is up, so 0101 lies above 0102 and 0201 lies
	// below 0101.
	size := 1.0
	if HexCenter(geoHex("0101"), size).Y <= HexCenter(geoHex("0102"), size).Y {
		t.Errorf("row 02 is drawn above row 01")
	}
	if HexCenter(geoHex("0201"), size).Y >= HexCenter(geoHex("0101"), size).Y {
		t.Errorf("even column not drawn lower")
	}
}

func TestHexDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"0505", "0505", 0},
		{"0505", "0506", 1},
		{"0505", "0507", 2},
		{"0101", "0301", 2},
		{"0101", "0501", 4},
		{"0101", "0106", 5},
		{"0305", "0707", 4},
		{"0101", "3030", 44},
	}
	for _, tt := range tests {
		a, b := geoHex(tt.a), geoHex(tt.b)
		if got := HexDistance(a, b); got != tt.want {
			t.Errorf("HexDistance(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := HexDistance(b, a); got != tt.want {
			t.Errorf("HexDistance(%s, %s) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
	// Two steps straight on, or bending by one hexside, end 2 away; bending
	// by two hexsides ends next door; doubling back ends where it began.
	c := geoHex("1010")
	for _, d := range HexDirs {
		for _, e := range HexDirs {
			want := 2
			switch e {
			case d.Turn(2), d.Turn(-2):
				want = 1
			case d.Opposite():
				want = 0
			}
			if got := HexDistance(c, c.Step(d).Step(e)); got != want {
				t.Errorf("%v then %v: distance %d, want %d", d, e, got, want)
			}
		}
	}
}

func TestHexDirs(t *testing.T) {
	c := geoHex("1010")
	for i, d := range HexDirs {
		if d.Heading() != Heading(60*i) {
			t.Errorf("%v heading %v", d, d.Heading())
		}
		if d.Opposite().Opposite() != d || d.Turn(6) != d || d.Turn(-1).Turn(1) != d {
			t.Errorf("%v turns wrong", d)
		}
		if got, err := ParseHexDir(d.String()); err != nil || got != d {
			t.Errorf("ParseHexDir(%q) = %v, %v", d, got, err)
		}
		// The neighbour across a hexside is drawn in that direction.
		n := c.Step(d)
		if h := HexCenter(c, 10).Sub(HexCenter(n, 10)).Len(); math.Abs(h-10*math.Sqrt(3)) > 1e-9 {
			t.Errorf("neighbour %v drawn %v away", d, h)
		}
		if got := HeadingTo(HexCenter(c, 10), HexCenter(n, 10)); math.Abs(got.Diff(d.Heading())) > 1e-9 {
			t.Errorf("neighbour %v drawn at heading %v", d, got)
		}
	}
	if got := c.Neighbors(); len(got) != 6 || got[0] != c.Step(HexN) || got[3] != c.Step(HexS) {
		t.Errorf("Neighbors = %v", got)
	}
	if NoHexDir.Turn(1) != NoHexDir || c.Step(NoHexDir) != c {
		t.Errorf("NoHexDir misbehaves")
	}
	if _, err := ParseHexDir("E"); err == nil {
		t.Errorf("flat-topped hexes have no east side")
	}
}

func TestHexFacing(t *testing.T) {
	c := geoHex("0505")
	for i, f := range HexFacings {
		if f.Heading() != Heading(30+60*i) {
			t.Errorf("%v heading %v", f, f.Heading())
		}
		if f.Opposite().Opposite() != f || f.Turn(-6) != f {
			t.Errorf("%v turns wrong", f)
		}
		if got, err := ParseHexFacing(f.String()); err != nil || got != f {
			t.Errorf("ParseHexFacing(%q) = %v, %v", f, got, err)
		}
		// The faced vertex lies between the two frontal hexes.
		fr := FrontHexes(c, f)
		mid := HexCenter(fr[0], 1).Add(HexCenter(fr[1], 1)).Scale(0.5)
		if got := HeadingTo(HexCenter(c, 1), mid); math.Abs(got.Diff(f.Heading())) > 1e-9 {
			t.Errorf("%v: frontal hexes %v centred at heading %v", f, geoHexRefs(fr), got)
		}
		// Front, flanks and rear are the six neighbours, once each.
		all := slices.Concat(FrontHexes(c, f), FlankHexes(c, f), RearHexes(c, f))
		got, want := geoHexRefs(all), geoHexRefs(c.Neighbors())
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%v: front, flanks and rear %v are not the neighbours %v", f, got, want)
		}
	}
	if f, err := ParseHexFacing(" nne "); err != nil || f != FacingNNE {
		t.Errorf("ParseHexFacing(nne) = %v, %v", f, err)
	}
	if _, err := ParseHexFacing("N"); err == nil {
		t.Errorf("a unit cannot face a hexside")
	}
	if FrontHexes(c, NoHexFacing) != nil {
		t.Errorf("FrontHexes with no facing")
	}

	tests := []struct {
		f                   HexFacing
		front, flank, rear  []string
		n, ne, se, s, sw, w Side
	}{
		{FacingE, []string{"0604", "0605"}, []string{"0504", "0506"}, []string{"0404", "0405"}, Left, Front, Front, Right, Rear, Rear},
		{FacingNNE, []string{"0504", "0604"}, []string{"0404", "0605"}, []string{"0405", "0506"}, Front, Front, Right, Rear, Rear, Left},
		{FacingW, []string{"0405", "0404"}, []string{"0506", "0504"}, []string{"0605", "0604"}, Right, Rear, Rear, Left, Front, Front},
	}
	for _, tt := range tests {
		if got := geoHexRefs(FrontHexes(c, tt.f)); !slices.Equal(got, tt.front) {
			t.Errorf("facing %v: front %v, want %v", tt.f, got, tt.front)
		}
		if got := geoHexRefs(FlankHexes(c, tt.f)); !slices.Equal(got, tt.flank) {
			t.Errorf("facing %v: flanks %v, want %v", tt.f, got, tt.flank)
		}
		if got := geoHexRefs(RearHexes(c, tt.f)); !slices.Equal(got, tt.rear) {
			t.Errorf("facing %v: rear %v, want %v", tt.f, got, tt.rear)
		}
		for i, want := range []Side{tt.n, tt.ne, tt.se, tt.s, tt.sw, tt.w} {
			d := HexDirs[i]
			if got := HexAspect(c, tt.f, c.Step(d)); got != want {
				t.Errorf("facing %v, the hex %v is on the %v, want %v", tt.f, d, got, want)
			}
		}
	}
	if HexAspect(c, FacingE, geoHex("0805")) != NoSide || HexAspect(c, NoHexFacing, geoHex("0504")) != NoSide {
		t.Errorf("HexAspect of a hex that is not adjacent")
	}
}

func TestFrontOf(t *testing.T) {
	// A double-sized unit in 0505 and 0506 facing east has three frontal
	// hexes.
	got := geoHexRefs(FrontOf(FacingE, geoHex("0505"), geoHex("0506")))
	want := []string{"0604", "0605", "0606"}
	if !slices.Equal(got, want) {
		t.Errorf("FrontOf = %v, want %v", got, want)
	}
	if got := geoHexRefs(FrontOf(FacingE, geoHex("0505"))); !slices.Equal(got, []string{"0604", "0605"}) {
		t.Errorf("FrontOf one hex = %v", got)
	}
}

func TestHexLine(t *testing.T) {
	tests := []struct {
		a, b string
		want []string
	}{
		{"0505", "0505", []string{"0505"}},
		{"0501", "0505", []string{"0501", "0502", "0503", "0504", "0505"}},
		{"0305", "0707", []string{"0305", "0405", "0506", "0606", "0707"}},
	}
	for _, tt := range tests {
		if got := geoHexRefs(HexLine(geoHex(tt.a), geoHex(tt.b))); !slices.Equal(got, tt.want) {
			t.Errorf("HexLine(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for _, pair := range [][2]string{{"0101", "3030"}, {"1507", "0222"}, {"0505", "0705"}, {"2020", "0311"}} {
		a, b := geoHex(pair[0]), geoHex(pair[1])
		line := HexLine(a, b)
		if len(line) != HexDistance(a, b)+1 || line[0] != a || line[len(line)-1] != b {
			t.Errorf("HexLine(%v, %v) = %v", a, b, geoHexRefs(line))
		}
		for i := 1; i < len(line); i++ {
			if HexDistance(line[i-1], line[i]) != 1 {
				t.Errorf("HexLine(%v, %v) jumps: %v", a, b, geoHexRefs(line))
			}
		}
	}
}

func TestHexLOS(t *testing.T) {
	blockedBy := func(refs ...string) func(Hex) bool {
		return func(h Hex) bool { return slices.Contains(refs, h.String()) }
	}
	tests := []struct {
		name    string
		a, b    string
		blocked []string
		want    bool
	}{
		{"open ground", "0501", "0508", nil, true},
		{"a wood in the way", "0501", "0508", []string{"0504"}, false},
		{"the target's own hex", "0501", "0508", []string{"0508"}, true},
		{"the shooter's own hex", "0501", "0508", []string{"0501"}, true},
		{"a wood beside the line", "0501", "0508", []string{"0604", "0404"}, true},
		// 0505 to 0705 runs along the hexside between 0604 and 0605.
		{"spine, one side blocked", "0505", "0705", []string{"0604"}, true},
		{"spine, other side blocked", "0505", "0705", []string{"0605"}, true},
		{"spine, both sides blocked", "0505", "0705", []string{"0604", "0605"}, false},
	}
	for _, tt := range tests {
		if got := HexLOS(geoHex(tt.a), geoHex(tt.b), blockedBy(tt.blocked...)); got != tt.want {
			t.Errorf("%s: HexLOS(%s, %s) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestHexRing(t *testing.T) {
	c := geoHex("1010")
	if got := HexRing(c, 1); !slices.Equal(got, c.Neighbors()) {
		t.Errorf("ring 1 = %v, want the neighbours clockwise from north %v", geoHexRefs(got), geoHexRefs(c.Neighbors()))
	}
	ring := HexRing(c, 2)
	if len(ring) != 12 || ring[0] != geoHex("1008") || ring[1] != c.Step(HexN).Step(HexNE) {
		t.Errorf("ring 2 = %v", geoHexRefs(ring))
	}
	seen := map[Hex]bool{}
	for i, h := range ring {
		if HexDistance(c, h) != 2 || seen[h] {
			t.Errorf("ring 2 has %v", h)
		}
		seen[h] = true
		if HexDistance(h, ring[(i+1)%len(ring)]) != 1 {
			t.Errorf("ring 2 is not a chain at %v", h)
		}
	}
	if got := HexesWithin(c, 2); len(got) != 19 || got[0] != c {
		t.Errorf("HexesWithin 2 has %d hexes", len(got))
	}
	if got := HexRing(c, 0); !slices.Equal(got, []Hex{c}) {
		t.Errorf("ring 0 = %v", got)
	}
}

func TestHexPixels(t *testing.T) {
	const size = 12.0
	if got := HexCenter(geoHex("0000"), size); got != (Vec{}) {
		t.Errorf("0000 is drawn at %v", got)
	}
	a, b := geoHex("0505"), geoHex("0504")
	ca, cb := HexCorners(a, size), HexCorners(b, size)
	shared := 0
	for i, p := range ca {
		if d := p.Dist(HexCenter(a, size)); math.Abs(d-size) > 1e-9 {
			t.Errorf("corner %d is %v from the centre", i, d)
		}
		for _, q := range cb {
			if p.Dist(q) < 1e-9 {
				shared++
			}
		}
	}
	if shared != 2 {
		t.Errorf("0505 and 0504 share %d corners, want 2", shared)
	}
	// Flat-topped: the two northern corners are level.
	if math.Abs(ca[0].Y-ca[5].Y) > 1e-9 || math.Abs(ca[1].Y-HexCenter(a, size).Y) > 1e-9 {
		t.Errorf("hexes are not flat-topped: %v", ca)
	}
	for col := range 12 {
		for row := range 12 {
			h := HexFromOffset(col, row)
			c := HexCenter(h, size)
			if got := HexAt(c, size); got != h {
				t.Fatalf("HexAt(centre of %v) = %v", h, got)
			}
			for _, d := range HexDirs {
				p := c.Add(d.Heading().Vec().Scale(0.8 * size))
				if got := HexAt(p, size); got != h {
					t.Fatalf("HexAt(a point inside %v) = %v", h, got)
				}
			}
		}
	}
}

func FuzzParseHex(f *testing.F) {
	for _, s := range []string{"0412", "0000", "9999", " 2307 ", "412", "04a2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHex(s)
		if err != nil {
			return
		}
		ref := h.String()
		back, err := ParseHex(ref)
		if err != nil || back != h {
			t.Fatalf("round trip %q -> %#v -> %q -> %#v, %v", s, h, ref, back, err)
		}
	})
}
