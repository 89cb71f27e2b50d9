package sweet

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The tables of the Sweet de Gre text, typed again from the text (not from
// the code's tables) and checked cell by cell against what the code reads.

// TestUnitTable checks every cell of the unit table (the table after the
// turn sequence): move in squares, melee value (with the charging value
// after a slash), firing range ("-" for none), support type, points and
// stands.
func TestUnitTable(t *testing.T) {
	text := []struct {
		name                              string
		ty                                Type
		move, melee, rng, support, points string
		stands                            int
	}{
		{"Light Infantry", LightInfantry, "3", "0.5", "3", "B", "3", 3},
		{"Roman Velites", Velites, "3", "1", "2", "B", "3", 3},
		{"Macedonian Peltasts", Peltasts, "3", "0.75", "2", "B", "3", 3},
		{"Heavy Infantry", HeavyInfantry, "2", "1", "-", "A", "3", 4},
		{"Roman Legionary", Legionaries, "2", "1.5", "1.5", "A", "4", 4},
		{"Macedon Phalanx", Phalangites, "2", "1.5", "-", "A", "3", 4},
		{"Mac. Hypaspists", Hypaspists, "3", "1", "-", "A", "4", 4},
		{"Assyrian Heavy Archers", AssyrianArchers, "2", "1", "3", "A", "4", 3},
		{"Indian Med Archers", IndianArchers, "2", "1", "3", "A", "4", 4},
		{"Light Cavalry", LightCavalry, "5", "0.5", "2.5", "B", "5", 3},
		{"Numidian LC", Numidians, "6", "0.75", "3", "B", "6", 3},
		{"Heavy Cavalry", HeavyCavalry, "4", "1", "-", "A", "5", 4},
		{"Mac Companions", Companions, "4", "1.5", "-", "A", "6", 4},
		{"Ass Hvy Mtd Arch", MountedArchers, "4", "1", "3", "B", "6", 3},
		{"Chariots", Chariots, "4", "2/3", "-", "A", "10", 1},
		{"Egypt/Ass Lt Ch", LightChariots, "5", "2/3", "3", "B", "9", 2},
		{"Assyrian Hvy Ch.", HeavyChariots, "4", "3", "3", "A", "12", 1},
		{"Elephants", Elephants, "4", "2/4", "-", "A", "10", 1},
		{"Carthagenian or Indian Elephants", ShootingElephants, "4", "2/4", "3", "A", "10", 1},
		{"Light Catapults", LightCatapult, "3", "-", "4", "-", "6", 1},
		{"Horse Crew", HorseCrew, "3", "1", "-", "D", "3", 1},
		{"Heavy Catapults", HeavyCatapult, "2", "-", "6", "-", "8", 1},
		{"Foot Crew", FootCrew, "2", "0.5", "-", "D", "2", 2},
		{"Commanders", Commander, "2", "2", "-", "C", "10", 1},
		{"SubCommander", SubCommander, "3", "1.5", "-", "C", "5", 1},
	}
	if len(text) != int(numTypes)-1 {
		t.Fatalf("the text has %d rows, the code %d types", len(text), numTypes-1)
	}
	num := func(f float64) string {
		if f == 0 {
			return "-"
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	for _, r := range text {
		sp := r.ty.spec()
		melee := num(sp.Melee)
		if sp.Charge > 0 {
			melee += "/" + num(sp.Charge)
		}
		got := []string{strconv.Itoa(sp.Move), melee, num(sp.Range), sp.Support.String(), strconv.Itoa(sp.Points), strconv.Itoa(sp.Stands)}
		want := []string{r.move, r.melee, r.rng, r.support, r.points, strconv.Itoa(r.stands)}
		for i, col := range []string{"move", "melee value", "firing range", "support type", "points", "stands"} {
			if got[i] != want[i] {
				t.Errorf("unit table, %s: %s is %s, the text says %s", r.name, col, got[i], want[i])
			}
		}
	}
	// The standard types in bold that Morale 1 binds.
	for ty := Type(1); ty < numTypes; ty++ {
		want := ty == HeavyInfantry || ty == HeavyCavalry || ty == LightCavalry
		if ty.spec().Standard != want {
			t.Errorf("morale 1: %s bound by the single-stand rule = %v, want %v", ty.Name(), ty.spec().Standard, want)
		}
	}
}

// TestPhalangiteValue checks the note # of the unit table: phalangites count
// 1.5 a stand with three or four stands left, 1 with two or one.
func TestPhalangiteValue(t *testing.T) {
	s := &State{}
	m := &Melee{}
	for stands, want := range map[int]float64{4: 1.5, 3: 1.5, 2: 1, 1: 1} {
		u := &Unit{Type: Phalangites, Stands: stands}
		if got := s.standValue(u, m, stands); got != want {
			t.Errorf("a phalangite unit of %d stands counts %v a stand, the note says %v", stands, got, want)
		}
	}
}

// TestMissileTable checks every cell of the table of Missile Fire 5: what
// the dice must show to kill a stand, by target type and range, and which
// type falls in which row.
func TestMissileTableCells(t *testing.T) {
	// Each cell: the faces, then "x2" or "x3" for doubles and triples;
	// "impossible" for none.
	text := map[TargetClass][3]string{
		TargetLight:      {"1,2,3", "1,2", "1"},
		TargetHeavyFoot:  {"1,2", "1", "1 x2"},
		TargetHeavyHorse: {"1", "1 x2", "1 x3"},
		TargetBig:        {"1,2 x2", "1,2 x3", "1 x3"},
		TargetLeader:     {"1 x2", "1 x3", "impossible"},
	}
	for class, row := range text {
		for b, cell := range row {
			n := missileTable[class][b]
			got := "impossible"
			if n.Count > 0 {
				var faces []string
				for _, f := range n.Faces {
					faces = append(faces, strconv.Itoa(f))
				}
				got = strings.Join(faces, ",")
				if n.Count > 1 {
					got += fmt.Sprintf(" x%d", n.Count)
				}
			}
			if got != cell {
				t.Errorf("missile fire 5: target row %d at %s needs %q, the table says %q", class, bandNames[b], got, cell)
			}
		}
	}
	rows := map[TargetClass][]Type{
		TargetLight:      {LightInfantry, FootCrew, IndianArchers}, // "@" Indian archers as LI
		TargetHeavyFoot:  {HeavyInfantry, LightCavalry, HorseCrew},
		TargetHeavyHorse: {HeavyCavalry},
		TargetBig:        {Chariots, Elephants},
		TargetLeader:     {Commander},
	}
	for class, types := range rows {
		for _, ty := range types {
			if got := ty.spec().Target; got != class {
				t.Errorf("missile fire 5: %s is shot at on row %d, the table puts it on row %d", ty.Name(), got, class)
			}
		}
	}
	// The range bands: 1 square; 1.5 to 2 squares; over 2.
	for d, want := range map[float64]int{1: 0, 1.5: 1, 2: 1, 2.5: 2, 3: 2, 4.5: 2} {
		if got := band(d); got != want {
			t.Errorf("missile fire 5: %v squares falls in %q, want %q", d, bandNames[got], bandNames[want])
		}
	}
	// Doubles and triples: two dice showing the same listed face.
	big := missileTable[TargetBig][0]
	for _, c := range []struct {
		dice []int
		want int
	}{{[]int{1, 1}, 1}, {[]int{2, 2}, 1}, {[]int{1, 2}, 0}, {[]int{1, 1, 1, 1}, 2}, {[]int{3, 3}, 0}} {
		if got := big.hits(c.dice); got != c.want {
			t.Errorf("double 1 or double 2 on %v kills %d, want %d", c.dice, got, c.want)
		}
	}
	light := missileTable[TargetLight][0]
	if got := light.hits([]int{1, 2, 3, 4, 5, 6}); got != 3 {
		t.Errorf("1, 2 or 3 on one die each: six dice 1-6 kill %d, want 3", got)
	}
}

// TestSampleArmies checks the Sample Army Compositions, typed again from
// the text: how many units of each type each list holds ("g" marks a
// guard unit; the Egyptian Sherdan and the generic guard infantry are
// heavy infantry guards, the Assyrian heavy foot archers the Assyrian
// heavy archers, the special elephants the shooting ones).
func TestSampleArmies(t *testing.T) {
	text := map[string]string{
		"egyptian":     "1 CMD, 5 HI, 1 HI g, 4 LI, 1 HC, 3 SUB, 4 LCH",
		"assyrian":     "1 CMD, 1 HCAT, 3 HI, 2 AHA, 1 HC, 3 AMA, 1 LCH, 2 HCH",
		"macedonian":   "1 CMD, 1 HCAT, 1 LCAT, 2 LI, 2 PEL, 4 PHA, 1 HYP, 2 COM",
		"indian":       "1 CMD, 1 HCAT, 1 LCAT, 2 LI, 2 HI, 3 IMA, 4 SEL, 2 HCH, 1 HC",
		"roman":        "1 CMD, 1 HCAT, 1 LCAT, 2 LI, 1 VEL, 1 HI, 4 LEG, 2 LC, 1 HC",
		"carthaginian": "1 CMD, 1 HCAT, 1 LCAT, 2 LI, 4 HI, 3 SEL, 2 HC, 2 NLC",
		"generic":      "1 CMD, 1 HCAT, 1 LCAT, 3 LI, 4 HI, 1 HI g, 2 LC, 2 HC, 1 SUB, 1 HCR",
	}
	if len(sampleLists) != len(text) {
		t.Errorf("%d sample armies, the text has %d", len(sampleLists), len(text))
	}
	for key, want := range text {
		l, ok := findList(key)
		if !ok {
			t.Errorf("no sample army %q", key)
			continue
		}
		var got []string
		for _, e := range l.Entries {
			s := fmt.Sprintf("%d %s", e.N, e.Type)
			if e.Guard {
				s += " g"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, ", "); g != want {
			t.Errorf("sample army %s: %s; the text: %s", key, g, want)
		}
	}
}
