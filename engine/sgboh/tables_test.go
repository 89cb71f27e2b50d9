package sgboh

import (
	"fmt"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// The tables of the SGBOH text, typed again from the text (not from the
// code's tables) and checked cell by cell against what the code reads.

// TestWeaponsSystemMatrix checks every cell of the Weapons System DRM
// Matrix (8.3, 8.6): rows are the defender, columns the attacker; "NA" is
// an attack not allowed (cavalry on elephants, 9.15).
func TestWeaponsSystemMatrix(t *testing.T) {
	attackers := []string{"PH", "HI", "LP", "LI/SK*", "HC", "LN", "LC", "EL", "CH"}
	text := map[string][9]string{
		"PH": {"0", "0", "-2", "-4", "-3", "-2", "-4", "-2", "0"},
		"HI": {"+1", "0", "-1", "-4", "-3", "-2", "-3", "0", "+1"},
		"LP": {"+3", "+2", "0", "-1", "-1", "-1", "-1", "+3", "+2"},
		"LI": {"+3", "+3", "+1", "0", "+1", "0", "-1", "+3", "+2"},
		"SK": {"+5", "+5", "+4", "+3", "+5", "+5", "+4", "+5", "+5"},
		"HC": {"+1", "+1", "0", "-1", "0", "-1", "-2", "+5", "+3"},
		"LN": {"+1", "+1", "0", "0", "+2", "0", "0", "+5", "+4"},
		"LC": {"+2", "+2", "0", "+1", "+2", "+1", "0", "+5", "+4"},
		"EL": {"-1", "-1", "-3", "-3", "NA", "NA", "NA", "0", "0"},
		"CH": {"-1", "-1", "-2", "+2", "-3", "-3", "-4", "0", "0"},
	}
	unit := func(code string) *Unit {
		if code == "LI/SK*" {
			return &Unit{Type: SK, Star: true}
		}
		ty, err := parseType(code)
		if err != nil {
			t.Fatal(err)
		}
		return &Unit{Type: ty}
	}
	for def, row := range text {
		for i, att := range attackers {
			a, d := unit(att), unit(def)
			sys, ok := a.attackSystem()
			if !ok {
				t.Fatalf("%s may not attack", att)
			}
			got := "NA"
			if v := matrix[d.defenceSystem()][sys.column()]; v != na {
				got = fmt.Sprintf("%+d", v)
				if v == 0 {
					got = "0"
				}
			}
			if got != row[i] {
				t.Errorf("8.6: %s attacking %s reads %s; the matrix says %s", att, def, got, row[i])
			}
		}
	}
	// An LI attacks in the same column as SK*.
	li, _ := (&Unit{Type: LI}).attackSystem()
	sk, _ := (&Unit{Type: SK, Star: true}).attackSystem()
	if li != sk {
		t.Errorf("9.3: SK* attack as LI, but read column %d, LI %d", sk.column(), li.column())
	}
	if _, ok := (&Unit{Type: SK}).attackSystem(); ok {
		t.Errorf("9.3: a plain SK may not attack")
	}
	// The bracketed cells: HC on PH, HI and LP (8.6 [#]).
	for _, def := range []Type{PH, HI, LP, LI, SK, HC, LN, LC, EL, CH} {
		d := &Unit{Type: def}
		want := def == PH || def == HI || def == LP
		if got := bracketed(d.defenceSystem(), sysHC); got != want {
			t.Errorf("8.6: HC on %s bracketed = %v, the matrix brackets it: %v", def, got, want)
		}
	}
}

// TestSizeRatio checks the size modifier of 8.3: +1 when the attacker has
// at least 2 Size Points more, +2 when it is also at least twice as big; the
// same against when the defender is bigger.
func TestSizeRatio(t *testing.T) {
	for _, c := range []struct{ a, d, want int }{
		{7, 7, 0}, {8, 7, 0}, {9, 7, 1}, {13, 7, 1}, {14, 7, 2}, {20, 7, 2},
		{7, 8, 0}, {7, 9, -1}, {7, 13, -1}, {7, 14, -2},
		{1, 2, 0}, {2, 1, 0}, {3, 1, 2}, {4, 2, 2}, {2, 4, -2}, {1, 3, -2},
		{5, 4, 0}, {6, 4, 1}, {4, 6, -1}, {3, 5, -1}, {5, 3, 1},
	} {
		if got := sizeMod(c.a, c.d); got != c.want {
			t.Errorf("8.3: size %d attacking %d gives %+d, want %+d", c.a, c.d, got, c.want)
		}
	}
}

// TestShockTable checks the Shock Results Table (8.3) at every edge.
func TestShockTable(t *testing.T) {
	want := map[int]string{
		-5: "the attacker routs", -1: "the attacker routs",
		0: "the attacker is disordered", 3: "the attacker is disordered",
		4: "no effect", 5: "no effect",
		6: "the defender is disordered", 7: "the defender is disordered",
		8: "the defender is disordered and retreats", 9: "the defender is disordered and retreats",
		10: "the defender routs", 15: "the defender routs",
	}
	for dr, w := range want {
		if got := shockWords(dr); got != w {
			t.Errorf("8.3: a shock total of %d reads %q, the table says %q", dr, got, w)
		}
	}
}

// TestCavalryPursuitTable checks the Cavalry Pursuit Table (8.3): the
// highest roll with which HC, LN and LC of each TQ pursue.
func TestCavalryPursuitTable(t *testing.T) {
	text := map[int][3]int{ // TQ: HC LN LC, each "0-n"
		1: {8, 6, 5}, 2: {8, 6, 5}, 3: {8, 6, 5}, 4: {8, 6, 5},
		5: {6, 4, 3},
		6: {5, 3, 2},
		7: {4, 2, 2},
		8: {2, 1, 0}, 9: {2, 1, 0},
	}
	for tq, row := range text {
		for i, ty := range []Type{HC, LN, LC} {
			if got := (&Unit{Type: ty, TQ: tq}).pursuesOn(); got != row[i] {
				t.Errorf("8.3: %s of TQ %d pursues on 0-%d, the table says 0-%d", ty, tq, got, row[i])
			}
		}
	}
}

// TestRallyTable checks the New Rally Table (10.27): for each TQ, the
// rolls giving Full status, Disorder and Rout.
func TestRallyTable(t *testing.T) {
	text := map[int][3]string{ // TQ: F, D, R as the ranges of the text
		1: {"0-1", "2-3", "4-9"}, 2: {"0-1", "2-3", "4-9"}, 3: {"0-1", "2-3", "4-9"},
		4: {"0-2", "3-5", "6-9"}, 5: {"0-2", "3-5", "6-9"},
		6: {"0-3", "4-6", "7-9"}, 7: {"0-3", "4-6", "7-9"},
		8: {"0-4", "5-8", "9-9"}, 9: {"0-4", "5-8", "9-9"},
	}
	results := []rallyResult{rallyFull, rallyDisorder, rallyRout}
	for tq, row := range text {
		for i, rng := range row {
			var lo, hi int
			fmt.Sscanf(rng, "%d-%d", &lo, &hi)
			for roll := lo; roll <= hi; roll++ {
				if got := rallyOn(tq, roll); got != results[i] {
					t.Errorf("10.27: TQ %d rolling %d rallies to %d, the table says %s", tq, roll, got, []string{"F", "D", "R"}[i])
				}
			}
		}
	}
}

// TestShockModifiers checks the shock modifiers of 8.3 and the terrain
// effects on the combat die roll, one at a time against a plain attack:
// each changes the total by what the text says.
func TestShockModifiers(t *testing.T) {
	hex := func(s string) engine.Hex {
		h, err := engine.ParseHex(s)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	facing := func(s string) engine.HexFacing {
		f, err := engine.ParseHexFacing(s)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// HI (TQ 7, size 6) in 0505 facing NNE attacks HI in 0504 facing
	// SSW, head on, on clear level ground.
	type setup struct {
		s    *State
		att  *Unit
		def  *Unit
		atts []*Unit
	}
	fresh := func() setup {
		s := &State{}
		s.newMap(10, 8)
		a := &Unit{ID: "A", Type: HI, Side: 0, TQ: 7, Size: 6, Hex: hex("0505"), Facing: facing("NNE")}
		d := &Unit{ID: "D", Type: HI, Side: 1, TQ: 7, Size: 6, Hex: hex("0504"), Facing: facing("SSW")}
		return setup{s, a, d, []*Unit{a}}
	}
	total := func(x setup) int {
		w := &work{State: x.s}
		n := 0
		for _, m := range w.shockMods(x.atts, x.def) {
			n += m.v
		}
		return n
	}
	base := total(fresh())
	if base != 1 {
		t.Fatalf("HI on HI head on, moving: %+d, want +1 (moving only)", base)
	}
	ground := func(h string, g Ground, level int) func(x setup) {
		return func(x setup) {
			// Each case lays one ground or one level on clear ground.
			if err := x.s.lay(Feature{Ground: g, Level: level, Hexes: []engine.Hex{hex(h)}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		why    string
		change func(x setup)
		delta  int
	}{
		// Terrain (defender in): shock column.
		{"defender in woods", ground("0504", Woods, 0), -1},
		{"defender in rocky ground", ground("0504", Rocky, 0), -1},
		{"defender in marsh", ground("0504", Marsh, 0), -1},
		{"defender behind an abatis", ground("0504", Abatis, 0), -1},
		{"defender up 1 level", ground("0504", Clear, 1), -1},
		{"defender up 2 levels", ground("0504", Clear, 2), -2},
		{"defender up 3 levels", ground("0504", Clear, 3), -2},
		{"defender down 1 level", ground("0505", Clear, 1), +1},
		// Terrain (attacker in or across).
		{"attacker in a major river", ground("0505", River, 0), -2},
		{"attacker in a minor river", ground("0505", Stream, 0), -1},
		{"attacker on a steep bank", ground("0505", Bank, 0), -1},
		// The DRM of 8.3.
		{"TQ 1 higher", func(x setup) { x.att.TQ = 8 }, +1},
		{"TQ 5 higher, capped at 3", func(x setup) { x.att.TQ = 12 }, +3},
		{"TQ 5 lower, capped at 3", func(x setup) { x.att.TQ = 2 }, -3},
		{"size 2 more", func(x setup) { x.att.Size = 8 }, +1},
		{"attacker's missile hits", func(x setup) { x.att.Hits = 2 }, -2},
		{"defender's missile hits", func(x setup) { x.def.Hits = 3 }, +3},
		{"attacker disordered", func(x setup) { x.att.Status = Disordered }, -1},
		{"defender disordered", func(x setup) { x.def.Status = Disordered }, +1},
		{"engaged, not moving", func(x setup) { x.att.Engaged = true }, -1},
		{"leader with the attacker", func(x setup) {
			x.s.Leaders = append(x.s.Leaders, Leader{ID: "L", Side: 0, Hex: x.att.Hex})
		}, +1},
		{"leader with the defender", func(x setup) {
			x.s.Leaders = append(x.s.Leaders, Leader{ID: "L", Side: 1, Hex: x.def.Hex})
		}, -1},
		{"flank attack", func(x setup) { x.def.Facing = facing("E") }, +2},
		{"rear attack", func(x setup) { x.def.Facing = facing("NNE") }, +3},
		{"cataphracted HC defending", func(x setup) {
			x.def.Type, x.def.Cataphract = HC, true
			x.att.Type = LN
		}, -1 - 1}, // LN on HC -1 (8.6), where HI on HI was 0; cataphracts -1 (note b)
		{"moving on a phalanx's front", func(x setup) { x.def.Type = PH }, -1},                       // HI on PH 0 (8.6), note a -1
		{"engaged on a phalanx's front", func(x setup) { x.def.Type, x.att.Engaged = PH, true }, -1}, // no note a, no moving +1
		{"double-depth phalanx attacking", func(x setup) { x.att.Deep = true }, +1},
		{"double-depth phalanx defending", func(x setup) { x.def.Deep = true }, -1},
	} {
		x := fresh()
		c.change(x)
		if got := total(x) - base; got != c.delta {
			t.Errorf("8.3 %s: the total moves by %+d, the text says %+d", c.why, got, c.delta)
		}
	}
}

// TestMissileChart checks our missile chart as RULINGS.md writes it
// (sgboh, "Missile fire"; the text keeps the standard chart of 8.6, which
// we do not have): the highest modified roll that hits at each range in
// hexes, and nothing beyond the last.
func TestMissileChart(t *testing.T) {
	ruled := map[string][]int{
		"javelin": {4, 2},
		"sling":   {4, 3, 2},
		"bow":     {4, 3, 3, 2, 1},
		"bolt":    {4, 4, 3, 3, 2, 2, 1, 1},
	}
	for name, row := range ruled {
		m, err := parseMissile(name)
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r <= len(row)+1; r++ {
			got, ok := m.hitsOn(r)
			want, in := 0, r >= 1 && r <= len(row)
			if in {
				want = row[r-1]
			}
			if ok != in || got != want {
				t.Errorf("%s at range %d: hits on %d (in range %v); RULINGS.md says %d (in range %v)", name, r, got, ok, want, in)
			}
		}
	}
}
