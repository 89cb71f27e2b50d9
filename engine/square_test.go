package engine

import (
	"slices"
	"testing"
)

func geoSq(ref string) Square {
	s, err := ParseSquare(ref)
	if err != nil {
		panic(err)
	}
	return s
}

func TestSquareRefs(t *testing.T) {
	tests := []struct {
		ref string
		sq  Square
	}{
		{"A1", Square{0, 0}},
		{"B1", Square{1, 0}},
		{"A2", Square{0, 1}},
		{"H12", Square{7, 11}},
		{"Z1", Square{25, 0}},
		{"AA1", Square{26, 0}},
		{"AB3", Square{27, 2}},
		{"AZ1", Square{51, 0}},
		{"BA1", Square{52, 0}},
		{"ZZ9", Square{701, 8}},
		{"AAA1", Square{702, 0}},
	}
	for _, tt := range tests {
		if got := tt.sq.String(); got != tt.ref {
			t.Errorf("%#v.String() = %q, want %q", tt.sq, got, tt.ref)
		}
		if got, err := ParseSquare(tt.ref); err != nil || got != tt.sq {
			t.Errorf("ParseSquare(%q) = %v, %v; want %#v", tt.ref, got, err, tt.sq)
		}
	}
	for _, ok := range []string{"h12", " c4 ", "aa1", "A09"} {
		if _, err := ParseSquare(ok); err != nil {
			t.Errorf("ParseSquare(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "A", "1", "1A", "A0", "A-1", "A 1", "A1B", "AAAA1", "A12345", "Ä1", "A1.5", "A+1"} {
		if s, err := ParseSquare(bad); err == nil {
			t.Errorf("ParseSquare(%q) = %v, want an error", bad, s)
		}
	}
	if got := (Square{-1, 3}).String(); got != "square(-1,3)" {
		t.Errorf("off-board square written %q", got)
	}
}

// Every square of a 26x20 board, and the columns of a very wide one, name
// themselves uniquely and read back.
func TestSquareRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for c := range 26 {
		for r := range 20 {
			s := Square{c, r}
			ref := s.String()
			if seen[ref] {
				t.Fatalf("%q named twice", ref)
			}
			seen[ref] = true
			if got, err := ParseSquare(ref); err != nil || got != s {
				t.Fatalf("ParseSquare(%q) = %v, %v; want %#v", ref, got, err, s)
			}
		}
	}
	for c := range 2000 {
		s := Square{c, 0}
		if got, err := ParseSquare(s.String()); err != nil || got != s {
			t.Fatalf("column %d: %q reads back as %v, %v", c, s, got, err)
		}
	}
}

func TestDir8(t *testing.T) {
	for i, d := range Dirs8 {
		if d.Heading() != Heading(45*i) {
			t.Errorf("%v heading %v", d, d.Heading())
		}
		if d.Opposite().Opposite() != d || d.Turn(8) != d || d.Turn(-1).Turn(1) != d {
			t.Errorf("%v turns wrong", d)
		}
		if got, err := ParseDir8(d.String()); err != nil || got != d {
			t.Errorf("ParseDir8(%q) = %v, %v", d, got, err)
		}
		if d.Diagonal() != (i%2 == 1) {
			t.Errorf("%v diagonal = %v", d, d.Diagonal())
		}
		c := geoSq("D4")
		if n := c.Step(d); Chebyshev(c, n) != 1 || SquareDirTo(c, n) != d {
			t.Errorf("step %v from D4 to %v", d, n)
		}
	}
	if North.Opposite() != South || NorthEast.Turn(2) != SouthEast || North.Turn(-1) != NorthWest {
		t.Errorf("turns wrong")
	}
	if geoSq("C3").Step(North) != geoSq("C4") || geoSq("C3").Step(East) != geoSq("D3") || geoSq("C3").Step(SouthWest) != geoSq("B2") {
		t.Errorf("Step goes the wrong way: rows should grow northward, columns eastward")
	}
	if NoDir.Turn(1) != NoDir || NoDir.Valid() || geoSq("C3").Step(NoDir) != geoSq("C3") {
		t.Errorf("NoDir misbehaves")
	}
	if _, err := ParseDir8("up"); err == nil {
		t.Errorf("ParseDir8(up) succeeded")
	}
	if d, _ := ParseDir8(" sw "); d != SouthWest {
		t.Errorf("ParseDir8(sw) = %v", d)
	}
	if SquareDirTo(geoSq("A1"), geoSq("C2")) != NorthEast || SquareDirTo(geoSq("A1"), geoSq("D2")) != East || SquareDirTo(geoSq("A1"), geoSq("A1")) != NoDir {
		t.Errorf("SquareDirTo at a distance wrong")
	}
}

func TestNeighbors(t *testing.T) {
	c := geoSq("B2")
	want8 := []Square{geoSq("B3"), geoSq("C3"), geoSq("C2"), geoSq("C1"), geoSq("B1"), geoSq("A1"), geoSq("A2"), geoSq("A3")}
	if got := c.Neighbors8(); !slices.Equal(got, want8) {
		t.Errorf("Neighbors8 = %v, want %v", got, want8)
	}
	want4 := []Square{geoSq("B3"), geoSq("C2"), geoSq("B1"), geoSq("A2")}
	if got := c.Neighbors4(); !slices.Equal(got, want4) {
		t.Errorf("Neighbors4 = %v, want %v", got, want4)
	}
	n := 0
	for _, s := range geoSq("A1").Neighbors8() {
		if s.Within(26, 20) {
			n++
		}
	}
	if n != 3 {
		t.Errorf("a corner square has %d neighbours on the board, want 3", n)
	}
}

func TestDistances(t *testing.T) {
	tests := []struct {
		a, b      string
		cost      float64
		chebyshev int
		manhattan int
	}{
		{"A1", "A1", 0, 0, 0},
		{"A1", "A4", 3, 3, 3},
		{"A1", "E5", 6, 4, 8},   // four diagonal steps cost 6 (sweet, Movement 1)
		{"A1", "B2", 1.5, 1, 2}, // one diagonal
		{"C3", "E8", 6, 5, 7},   // two diagonal, three straight
		{"H8", "A1", 10.5, 7, 14},
	}
	for _, tt := range tests {
		a, b := geoSq(tt.a), geoSq(tt.b)
		if got := MoveCost(a, b); got != tt.cost {
			t.Errorf("MoveCost(%s, %s) = %v, want %v", a, b, got, tt.cost)
		}
		if got := MoveCost(b, a); got != tt.cost {
			t.Errorf("MoveCost(%s, %s) = %v, want %v", b, a, got, tt.cost)
		}
		if got := Chebyshev(a, b); got != tt.chebyshev {
			t.Errorf("Chebyshev(%s, %s) = %v, want %v", a, b, got, tt.chebyshev)
		}
		if got := Manhattan(a, b); got != tt.manhattan {
			t.Errorf("Manhattan(%s, %s) = %v, want %v", a, b, got, tt.manhattan)
		}
	}
}

func TestSqueezes(t *testing.T) {
	// Enemies on C4 and D3 close the gap between C3 and D4 (sweet, Movement 4).
	enemy := func(s Square) bool { return s == geoSq("C4") || s == geoSq("D3") }
	tests := []struct {
		a, b string
		want bool
	}{
		{"C3", "D4", true},
		{"D4", "C3", true},
		{"C3", "B4", false}, // the other diagonal
		{"C3", "C2", false}, // not diagonal
		{"C3", "E5", false}, // not a single step
		{"B4", "C5", false},
	}
	for _, tt := range tests {
		if got := Squeezes(geoSq(tt.a), geoSq(tt.b), enemy); got != tt.want {
			t.Errorf("Squeezes(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	oneEnemy := func(s Square) bool { return s == geoSq("C4") }
	if Squeezes(geoSq("C3"), geoSq("D4"), oneEnemy) {
		t.Errorf("one enemy beside a diagonal does not close it")
	}
}

func TestSquareLine(t *testing.T) {
	refs := func(line []Square) []string {
		var out []string
		for _, s := range line {
			out = append(out, s.String())
		}
		return out
	}
	tests := []struct {
		a, b string
		want []string
	}{
		{"A1", "A1", []string{"A1"}},
		{"A1", "D1", []string{"A1", "B1", "C1", "D1"}},
		{"C5", "C2", []string{"C5", "C4", "C3", "C2"}},
		// Exactly through corners: both side squares count.
		{"A1", "C3", []string{"A1", "B1", "A2", "B2", "C2", "B3", "C3"}},
		{"A1", "B3", []string{"A1", "A2", "B2", "B3"}},
		{"D1", "A2", []string{"D1", "C1", "B1", "C2", "B2", "A2"}},
		{"A1", "D2", []string{"A1", "B1", "C1", "B2", "C2", "D2"}},
		{"A1", "E3", []string{"A1", "B1", "B2", "C2", "D2", "D3", "E3"}},
	}
	for _, tt := range tests {
		got := refs(SquareLine(geoSq(tt.a), geoSq(tt.b)))
		if !slices.Equal(got, tt.want) {
			t.Errorf("SquareLine(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	// Every line is a chain of touching squares and is the same set both
	// ways round.
	for ac := range 6 {
		for ar := range 6 {
			for bc := range 6 {
				for br := range 6 {
					a, b := Square{ac, ar}, Square{bc, br}
					line := SquareLine(a, b)
					if line[0] != a || line[len(line)-1] != b {
						t.Fatalf("SquareLine(%s, %s) = %v", a, b, line)
					}
					back := SquareLine(b, a)
					s1, s2 := refs(line), refs(back)
					slices.Sort(s1)
					slices.Sort(s2)
					if !slices.Equal(s1, s2) {
						t.Fatalf("SquareLine(%s, %s) = %v but backwards %v", a, b, line, back)
					}
					for i := 1; i < len(line); i++ {
						if Chebyshev(line[i-1], line[i]) > 1 {
							t.Fatalf("SquareLine(%s, %s) jumps: %v", a, b, line)
						}
					}
				}
			}
		}
	}
}

func TestSquareLOS(t *testing.T) {
	units := map[Square]bool{geoSq("C3"): true, geoSq("F1"): true}
	blocked := func(s Square) bool { return units[s] }
	tests := []struct {
		a, b string
		want bool
	}{
		{"A3", "E3", false}, // C3 screens (sweet, Missile Fire 2)
		{"A3", "C3", true},  // the target itself does not block
		{"C3", "E3", true},  // nor the shooter
		{"A4", "E4", true},  // the row above is clear
		{"B2", "D4", false}, // through C3 diagonally
		{"E1", "G3", false}, // through the corner between E2 and F1: F1 is held
		{"D2", "H2", true},
		{"D1", "H1", false},
	}
	for _, tt := range tests {
		if got := SquareLOS(geoSq(tt.a), geoSq(tt.b), blocked); got != tt.want {
			t.Errorf("SquareLOS(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestInArc(t *testing.T) {
	from := geoSq("D4")
	tests := []struct {
		facing Dir8
		to     string
		want   bool
	}{
		{North, "D8", true},
		{North, "E6", true},  // 26.6 degrees off
		{North, "F6", true},  // exactly 45: the edge counts
		{North, "F5", false}, // 63.4 degrees off
		{North, "D2", false}, // behind
		{North, "D4", false}, // its own square
		{NorthEast, "F4", true},
		{NorthEast, "G6", true},
		{NorthEast, "B6", false},
		{West, "A3", true},
		{NoDir, "D8", false},
	}
	for _, tt := range tests {
		if got := InArc(from, tt.facing, geoSq(tt.to), 45); got != tt.want {
			t.Errorf("InArc(D4 facing %v, %s) = %v, want %v", tt.facing, tt.to, got, tt.want)
		}
	}
}

func TestSquareCenter(t *testing.T) {
	if got := SquareCenter(geoSq("B3"), 4); got != (Vec{6, 10}) {
		t.Errorf("SquareCenter(B3, 4\") = %v", got)
	}
	for _, ref := range []string{"A1", "B3", "Z20", "M7"} {
		s := geoSq(ref)
		if got := SquareAt(SquareCenter(s, 3), 3); got != s {
			t.Errorf("SquareAt(SquareCenter(%s)) = %v", ref, got)
		}
	}
	if got := SquareAt(Vec{-0.1, 0}, 3); got != (Square{-1, 0}) {
		t.Errorf("SquareAt just west of the board = %#v", got)
	}
}

func FuzzParseSquare(f *testing.F) {
	for _, s := range []string{"A1", "h12", "AA3", "ZZZ9999", " c4 ", "A0", "1A", "", "AAAA1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := ParseSquare(s)
		if err != nil {
			return
		}
		if sq.Col < 0 || sq.Row < 0 {
			t.Fatalf("ParseSquare(%q) = %#v, off the board", s, sq)
		}
		ref := sq.String()
		back, err := ParseSquare(ref)
		if err != nil || back != sq {
			t.Fatalf("round trip %q -> %#v -> %q -> %#v, %v", s, sq, ref, back, err)
		}
	})
}
