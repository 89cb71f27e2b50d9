package btg

import (
	"strings"
	"testing"
)

// The tables of the By the Gods! text, typed again from the text (not from
// the code's tables) and checked cell by cell against what the code reads.

// TestBaseMoraleTable checks every cell of the base morale table (§3): for
// each 2D6 total from 2 to 12, each row's level, 1 red to 4 gold.
func TestBaseMoraleTable(t *testing.T) {
	text := []struct {
		row     string
		classes []Class
		levels  [11]Colour // totals 2..12
	}{
		{"Infantry units", []Class{LightInfantry, HeavyInfantry}, [11]Colour{1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3}},
		{"Templars", []Class{Templar}, [11]Colour{2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 4}},
		{"Mounted", []Class{LightCavalry, Cavalry, Camelry, Chariot, Elephant}, [11]Colour{2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4}},
		{"Phalanx/Legion", []Class{Phalanx, Legion}, [11]Colour{3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4}},
	}
	for _, r := range text {
		for _, c := range r.classes {
			for i, want := range r.levels {
				if got := BaseMorale(c, i+2); got != want {
					t.Errorf("§3 base morale, %s (%s) rolling %d: %s, the table says %s", r.row, c, i+2, got, want)
				}
			}
		}
	}
	for level, name := range map[Colour]string{1: "red", 2: "green", 3: "blue", 4: "gold"} {
		if level.String() != name {
			t.Errorf("§3: morale level %d is %s, the text names it %s", int(level), level, name)
		}
	}
}

// TestMoraleCheckTable checks the check's bands and each modifier of §3:
// D6 plus base plus modifiers; 1-2 routs, 3-4 falls back, 5-6 holds.
func TestMoraleCheckTable(t *testing.T) {
	for total, want := range map[int]Check{1: Rout, 2: Rout, 3: FallBack, 4: FallBack, 5: Hold, 6: Hold} {
		if got := MoraleResult(total); got != want {
			t.Errorf("§3: a morale total of %d gives %d, the text %d", total, got, want)
		}
	}
	for _, c := range []struct {
		why  string
		m    MoraleMod
		want int
	}{
		{"nothing", MoraleMod{Class: HeavyInfantry}, 0},
		{"leader attached", MoraleMod{Leader: true, Class: HeavyInfantry}, +1},
		{"charging", MoraleMod{Charging: true, Class: Cavalry}, +1},
		{"under 50% strength", MoraleMod{UnderHalf: true, Class: HeavyInfantry}, -2},
		{"non-phalanx facing elephants", MoraleMod{FacingElephant: true, Class: HeavyInfantry}, -1},
		{"phalanx facing elephants", MoraleMod{FacingElephant: true, Class: Phalanx}, 0},
		{"legion facing elephants", MoraleMod{FacingElephant: true, Class: Legion}, 0},
		{"Templar", MoraleMod{Class: Templar}, +1},
		{"all at once", MoraleMod{Leader: true, Charging: true, UnderHalf: true, FacingElephant: true, Class: Templar}, 1 + 1 - 2 - 1 + 1},
	} {
		if got := c.m.Sum(); got != c.want {
			t.Errorf("§3 morale modifier, %s: %+d, the text %+d", c.why, got, c.want)
		}
	}
	// A green unit (2) with a leader rolling 2: 2+2+1 = 5 holds.
	if got := MoraleCheck(2, Green, MoraleMod{Leader: true}); got != Hold {
		t.Errorf("§3: D6 2 + green 2 + leader 1 = 5 should hold, got %d", got)
	}
	if got := MoraleCheck(1, Red, MoraleMod{}); got != Rout {
		t.Errorf("§3: D6 1 + red 1 = 2 should rout, got %d", got)
	}
}

// TestMovementTableCells checks every cell of the movement table (§1) for
// the six columns of the text.
func TestMovementTableCells(t *testing.T) {
	text := map[string]struct {
		classes []Class
		inches  [3]int // level, rough/hills, woods/swamp; 0 "cant enter"
	}{
		"Lt. Inf":   {[]Class{LightInfantry}, [3]int{8, 6, 6}},
		"Hvy Inf":   {[]Class{HeavyInfantry}, [3]int{6, 4, 3}},
		"Lt. Cav":   {[]Class{LightCavalry}, [3]int{16, 13, 10}},
		"Cav/Camel": {[]Class{Cavalry, Camelry}, [3]int{14, 12, 10}},
		"Chariots":  {[]Class{Chariot}, [3]int{12, 6, 0}},
		"Elephants": {[]Class{Elephant}, [3]int{8, 4, 0}},
	}
	none, _ := CivByKey("hittite") // no move bonus
	for col, r := range text {
		for _, c := range r.classes {
			for tr := Level; tr <= Woods; tr++ {
				if got := none.Move(c, tr); got != r.inches[tr] {
					t.Errorf("§1 movement, %s on %s: %d\", the table says %d\"", col, []string{"level ground", "rough/hills", "woods/swamp"}[tr], got, r.inches[tr])
				}
			}
		}
	}
}

// TestSiegeEngineMoves checks the moves RULINGS.md gives the siege
// engines, which the movement table of §1 leaves out (btg, "Movement":
// dragged by their crews): 4" on level ground, 2" over rough, never into
// woods; the helepolis 3" on level ground only.
func TestSiegeEngineMoves(t *testing.T) {
	ruled := map[Class][3]int{
		StoneThrower:  {4, 2, 0},
		Catapult:      {4, 2, 0},
		HeavyCatapult: {4, 2, 0},
		Ballista:      {4, 2, 0},
		Helepolis:     {3, 0, 0},
	}
	none, _ := CivByKey("hittite") // no move bonus
	for c, inches := range ruled {
		for tr := Level; tr <= Woods; tr++ {
			if got := none.Move(c, tr); got != inches[tr] {
				t.Errorf("%s on %s: %d\", RULINGS.md says %d\"", c, []string{"level ground", "rough/hills", "woods/swamp"}[tr], got, inches[tr])
			}
		}
	}
}

// TestMissileTableCells checks every cell of the missile table (§2.F):
// ranges short and long, and what hits at each.
func TestMissileTableCells(t *testing.T) {
	text := []struct {
		row                 string
		weapons             []Weapon
		short, long         int
		shortHits, longHits int
	}{
		{"Javelins/Slings", []Weapon{Javelin, Sling}, 6, 8, 3, 2},
		{"Short Bow", []Weapon{ShortBow}, 7, 14, 4, 3},
		{"Compound Bow", []Weapon{CompositeBow}, 8, 16, 5, 4},
	}
	for _, r := range text {
		for _, w := range r.weapons {
			for _, c := range []struct {
				inches float64
				hit    int
				ok     bool
			}{
				{0, r.shortHits, true}, {float64(r.short), r.shortHits, true},
				{float64(r.short) + 0.1, r.longHits, true}, {float64(r.long), r.longHits, true},
				{float64(r.long) + 0.1, 0, false},
			} {
				hit, ok := w.FireHit(c.inches)
				if hit != c.hit || ok != c.ok {
					t.Errorf("§2.F %s at %v\": hits on 1-%d (in range %v), the table says 1-%d (%v)", r.row, c.inches, hit, ok, c.hit, c.ok)
				}
			}
		}
	}
	// §2.H modifiers, each alone.
	for _, c := range []struct {
		why  string
		m    FireMod
		want int
	}{
		{"close formation target", FireMod{CloseOrderTarget: true}, -1},
		{"overhead", FireMod{Overhead: true}, +1},
		{"into woods, walls or buildings", FireMod{Cover: true}, +1},
		{"slinger vs archers", FireMod{SlingerVsArchers: true}, -1},
		{"elephant archers", FireMod{ElephantArchers: true}, -1},
		{"superior position", FireMod{Superior: true}, -1},
	} {
		if got := c.m.Sum(); got != c.want {
			t.Errorf("§2.H modifier %s: %+d, the text %+d", c.why, got, c.want)
		}
	}
	// §2.J: hits less a leader's hit less armor.
	for _, c := range []struct {
		hits   int
		leader bool
		armor  int
		want   int
	}{{5, false, 0, 5}, {5, true, 0, 4}, {5, false, 2, 3}, {5, true, 2, 2}, {1, false, 3, 0}} {
		if got := Casualties(c.hits, c.leader, c.armor); got != c.want {
			t.Errorf("§2.J: %d hits, leader hit %v, armor %d: %d casualties, want %d", c.hits, c.leader, c.armor, got, c.want)
		}
	}
}

// TestMeleeChartCells checks the melee chart (§8, "Melee Chart"): the
// highest D6 that hits for each weapon.
func TestMeleeChartCells(t *testing.T) {
	text := map[string]struct {
		w   Weapon
		hit int
	}{
		"Inf. w/ club/blunt objects": {Club, 2},
		"Inf. w/ axes":               {Axe, 3},
		"Spears":                     {Spear, 5},
		"Swords":                     {Sword, 4},
		"Elephants":                  {Tusks, 5},
	}
	for row, c := range text {
		if got := c.w.MeleeHit(); got != c.hit {
			t.Errorf("melee chart, %s: hits on 1-%d, the chart says 1-%d", row, got, c.hit)
		}
	}
	// The chart has no line for missile troops and siege crews; RULINGS.md
	// (btg, "Melee") has them fight as clubs.
	for _, w := range []Weapon{Javelin, Sling, ShortBow, CompositeBow, Engine} {
		if got := w.MeleeHit(); got != 2 {
			t.Errorf("melee, %s: hits on 1-%d; RULINGS.md has missile troops and siege crews fight as clubs (1-2)", w.Key(), got)
		}
	}
}

// TestDamageTables checks the Damage Value Chart and the damage roll of §7.
func TestDamageTables(t *testing.T) {
	chart := []struct {
		row     string
		grounds []Ground
		key     []string
		dv      int
	}{
		{"All siege weapons", nil, []string{"siege weapon"}, 6},
		{"Small walls and buildings", []Ground{Wall, Building}, []string{"small wall", "small building"}, 10},
		{"Medium walls and large buildings", []Ground{MediumWall, LargeBuilding}, []string{"medium wall", "large building"}, 15},
		{"City Walls and Barracks", []Ground{CityWall, Barracks}, []string{"city wall", "barracks"}, 20},
		{"Small Arrow towers", []Ground{Tower}, []string{"small tower"}, 25},
		{"Large Arrow and Ballista Towers", []Ground{LargeTower}, []string{"large tower", "ballista tower"}, 30},
	}
	s := &State{}
	for _, r := range chart {
		for _, g := range r.grounds {
			if got := s.fullDV(g, nil); got != r.dv {
				t.Errorf("§7 damage value chart, %s: %s has %d DV, the chart %d", r.row, g, got, r.dv)
			}
		}
		for _, k := range r.key {
			if got := DamageValues[k]; got != r.dv {
				t.Errorf("§7 damage value chart, %s: %q has %d DV, the chart %d", r.row, k, got, r.dv)
			}
		}
	}
	// The roll: -1- 1 DV; -2,3- 2 DV, 1 kill; -4,5- 3 DV, 1 kill; -6- 3 DV, 2 kills.
	for roll, want := range map[int][2]int{1: {1, 0}, 2: {2, 1}, 3: {2, 1}, 4: {3, 1}, 5: {3, 1}, 6: {3, 2}} {
		if d, k := SiegeResult(roll); d != want[0] || k != want[1] {
			t.Errorf("§7 damage roll %d: %d DV lost and %d kills, the table %d and %d", roll, d, k, want[0], want[1])
		}
	}
	// +1 for heavy catapults, -1 for stone throwers and ballistae.
	for c, want := range map[Class]int{HeavyCatapult: 1, StoneThrower: -1, Ballista: -1, Catapult: 0, Helepolis: 0} {
		if got := siegeMod(c); got != want {
			t.Errorf("§7: the damage roll of a %s is modified %+d, the text %+d", c, got, want)
		}
	}
}

// TestCivilizationTable checks what each civilization of §8a changes, in
// the numbers of the text.
func TestCivilizationTable(t *testing.T) {
	civ := func(k string) Civ {
		c, ok := CivByKey(k)
		if !ok {
			t.Fatalf("no civilization %q", k)
		}
		return c
	}
	base := func(c Class, tr Terrain) int { return c.Move(tr) }
	moves := []struct {
		civ   string
		class Class
		plus  int
	}{
		{"barbarian-cav", LightCavalry, 2}, {"barbarian-inf", LightInfantry, 2}, {"greek", Phalanx, 3},
		{"palmyran", Camelry, 3}, {"persian", Elephant, 2},
	}
	for _, m := range moves {
		if got := civ(m.civ).Move(m.class, Level) - base(m.class, Level); got != m.plus {
			t.Errorf("§8a %s: %s move +%d\", the text +%d\"", m.civ, m.class, got, m.plus)
		}
		if got := civ(m.civ).Move(HeavyInfantry, Level) - base(HeavyInfantry, Level); m.class != HeavyInfantry && got != 0 {
			t.Errorf("§8a %s: heavy infantry move changed by %d", m.civ, got)
		}
	}
	armor := []struct {
		civ     string
		class   Class
		w       Weapon
		missile bool
		plus    int
	}{
		{"carthaginian", Elephant, Tusks, false, 1}, {"carthaginian", Elephant, Tusks, true, 1},
		{"choson", HeavyInfantry, Sword, false, 1}, {"choson", HeavyInfantry, Spear, false, 0},
		{"egyptian", Chariot, Spear, true, 1}, {"egyptian", Cavalry, Spear, true, 0},
		{"macedonian", Phalanx, Spear, true, 2}, {"macedonian", Legion, Sword, true, 2}, {"macedonian", Legion, Sword, false, 0},
	}
	for _, a := range armor {
		if got := civ(a.civ).ExtraArmor(a.class, a.w, a.missile); got != a.plus {
			t.Errorf("§8a %s: %s with %s (missile %v) armor +%d, the text +%d", a.civ, a.class, a.w.Key(), a.missile, got, a.plus)
		}
	}
	dice := []struct {
		civ   string
		class Class
		w     Weapon
		plus  int
	}{
		{"assyrian", HeavyInfantry, Axe, 1}, {"assyrian", Cavalry, Spear, 1},
		{"assyrian", LightInfantry, ShortBow, 0}, {"assyrian", Cavalry, CompositeBow, 0}, {"assyrian", Catapult, Engine, 0},
		{"roman", Legion, Sword, 2}, {"roman", HeavyInfantry, Sword, 2}, {"roman", HeavyInfantry, Spear, 0},
		{"yamato", Cavalry, Sword, 2}, {"yamato", HeavyInfantry, Sword, 0},
	}
	for _, d := range dice {
		if got := civ(d.civ).ExtraBonusDice(d.class, d.w); got != d.plus {
			t.Errorf("§8a %s: %s with %s bonus dice +%d, the text +%d", d.civ, d.class, d.w.Key(), got, d.plus)
		}
	}
	if s, l := civ("phoenician").Range(ShortBow); s != 8 || l != 15 {
		t.Errorf("§8a Phoenician: short bow ranges %d/%d, the text +1\" on 7/14", s, l)
	}
	if s, l := civ("minoan").Range(CompositeBow); s != 10 || l != 18 {
		t.Errorf("§8a Minoan: composite bow ranges %d/%d, the text +2\" on 8/16", s, l)
	}
	if civ("hittite").HitBonus != 1 {
		t.Errorf("§8a Hittite: archers +%d to hit, the text +1", civ("hittite").HitBonus)
	}
	// The 18 civilizations of §8a, by the names of the text.
	names := []string{"Assyrian", "Babylonian", "Barbarian Cavalry Tribes", "Barbarian Infantry Tribes", "Carthaginian",
		"Choson", "Egyptian", "Greek", "Hittite", "Macedonian", "Minoan", "Palmyran", "Persian", "Phoenician", "Roman",
		"Shang", "Sumerian", "Yamato"}
	all := Civs()
	if len(all) != len(names) {
		t.Fatalf("§8a: %d civilizations, the text has %d", len(all), len(names))
	}
	for i, n := range names {
		if !strings.EqualFold(all[i].Name, n) {
			t.Errorf("§8a: civilization %d is %q, the text's is %q", i+1, all[i].Name, n)
		}
		if strings.TrimSpace(all[i].Attribute) == "" {
			t.Errorf("§8a: %s has no attribute to show", n)
		}
	}
	// Babylonians double buildings and towers, the Shang walls.
	for _, c := range []struct {
		civ  string
		g    Ground
		want int
	}{
		{"babylonian", Building, 20}, {"babylonian", LargeTower, 60}, {"babylonian", CityWall, 20},
		{"shang", CityWall, 40}, {"shang", Wall, 20}, {"shang", Tower, 25},
	} {
		s := &State{Armies: []Army{{Civ: c.civ}}}
		side := BlackSide
		if got := s.fullDV(c.g, &side); got != c.want {
			t.Errorf("§8a %s: a %s has %d DV, want %d", c.civ, c.g, got, c.want)
		}
	}
}
