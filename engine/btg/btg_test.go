package btg

import (
	"strings"
	"testing"
)

// §1 movement table: level / rough-hills / woods-swamp.
func TestMovementTable(t *testing.T) {
	want := map[Class][3]int{
		LightInfantry: {8, 6, 6},
		HeavyInfantry: {6, 4, 3},
		LightCavalry:  {16, 13, 10},
		Cavalry:       {14, 12, 10},
		Camelry:       {14, 12, 10},
		Chariot:       {12, 6, 0},
		Elephant:      {8, 4, 0},
	}
	for c, w := range want {
		for tr := Level; tr <= Woods; tr++ {
			if got := c.Move(tr); got != w[tr] {
				t.Errorf("%s on terrain %d: %d, want %d", c, tr, got, w[tr])
			}
		}
	}
	greek, _ := CivByKey("greek")
	if got := greek.Move(Phalanx, Level); got != 9 {
		t.Errorf("Greek phalanx on level ground moves %d, want 6+3", got)
	}
	persian, _ := CivByKey("persian")
	if got := persian.Move(Elephant, Woods); got != 0 {
		t.Errorf("Persian elephants still cannot enter woods, got %d", got)
	}
}

// §1.D: only cavalry, camelry, chariots and phalanx/legion charge.
func TestCharge(t *testing.T) {
	for c := LightInfantry; c <= Elephant; c++ {
		want := c == Phalanx || c == Legion || c == LightCavalry || c == Cavalry || c == Camelry || c == Chariot
		if c.CanCharge() != want {
			t.Errorf("%s charge: %v, want %v", c, c.CanCharge(), want)
		}
	}
}

// §2.F-H: ranges and hit bands, one die per two figures rounded up.
func TestFireTable(t *testing.T) {
	cases := []struct {
		w      Weapon
		inches float64
		hit    int
		ok     bool
	}{
		{Javelin, 6, 3, true}, {Javelin, 7, 2, true}, {Javelin, 8.5, 0, false},
		{Sling, 0.5, 3, true},
		{ShortBow, 7, 4, true}, {ShortBow, 14, 3, true}, {ShortBow, 14.1, 0, false},
		{CompositeBow, 8, 5, true}, {CompositeBow, 16, 4, true},
		{Spear, 1, 0, false},
	}
	for _, c := range cases {
		hit, ok := c.w.FireHit(c.inches)
		if hit != c.hit || ok != c.ok {
			t.Errorf("%s at %v\": %d %v, want %d %v", c.w.Key(), c.inches, hit, ok, c.hit, c.ok)
		}
	}
	for figs, dice := range map[int]int{1: 1, 2: 1, 3: 2, 8: 4, 15: 8} {
		if Dice(figs) != dice {
			t.Errorf("%d figures roll %d dice, want %d", figs, Dice(figs), dice)
		}
	}
	minoan, _ := CivByKey("minoan")
	if s, l := minoan.Range(CompositeBow); s != 10 || l != 18 {
		t.Errorf("Minoan composite bow range %d/%d, want 10/18", s, l)
	}
	if s, l := minoan.Range(ShortBow); s != 7 || l != 14 {
		t.Errorf("Minoan short bow range %d/%d, want 7/14", s, l)
	}
}

// §8b melee chart.
func TestMeleeChart(t *testing.T) {
	for w, hit := range map[Weapon]int{Club: 2, Axe: 3, Spear: 5, Sword: 4, Tusks: 5} {
		if w.MeleeHit() != hit {
			t.Errorf("%s hits on 1-%d, want 1-%d", w.Key(), w.MeleeHit(), hit)
		}
	}
}

// §3 base morale by 2D6 and colour; the check's result bands.
func TestMorale(t *testing.T) {
	cases := []struct {
		c    Class
		roll int
		want Colour
	}{
		{LightInfantry, 2, Red}, {HeavyInfantry, 3, Green}, {LightInfantry, 8, Green}, {LightInfantry, 9, Blue}, {HeavyInfantry, 12, Blue},
		{Templar, 6, Green}, {Templar, 7, Blue}, {Templar, 11, Blue}, {Templar, 12, Gold},
		{Cavalry, 2, Green}, {Camelry, 3, Blue}, {Chariot, 8, Blue}, {Elephant, 9, Gold},
		{Phalanx, 7, Blue}, {Legion, 8, Gold}, {Legion, 2, Blue},
	}
	for _, c := range cases {
		if got := BaseMorale(c.c, c.roll); got != c.want {
			t.Errorf("%s rolling %d: %s, want %s", c.c, c.roll, got, c.want)
		}
	}
	for total, want := range map[int]Check{-1: Rout, 1: Rout, 2: Rout, 3: FallBack, 4: FallBack, 5: Hold, 6: Hold, 9: Hold} {
		if got := MoraleResult(total); got != want {
			t.Errorf("morale total %d: %d, want %d", total, got, want)
		}
	}
}

// §7 siege damage table.
func TestSiege(t *testing.T) {
	for roll, want := range map[int][2]int{0: {1, 0}, 1: {1, 0}, 2: {2, 1}, 3: {2, 1}, 4: {3, 1}, 5: {3, 1}, 6: {3, 2}, 7: {3, 2}} {
		d, k := SiegeResult(roll)
		if d != want[0] || k != want[1] {
			t.Errorf("siege roll %d: %d DV %d kills, want %v", roll, d, k, want)
		}
	}
	if DamageValues["city wall"] != 20 || DamageValues["siege weapon"] != 6 {
		t.Errorf("damage values wrong: %v", DamageValues)
	}
}

// §8a: 18 civilizations, each doing what its attribute says.
func TestCivs(t *testing.T) {
	if len(Civs()) != 18 {
		t.Fatalf("%d civilizations, want 18", len(Civs()))
	}
	mac, _ := CivByKey("macedonian")
	if mac.ExtraArmor(Legion, Sword, true) != 2 || mac.ExtraArmor(Phalanx, Spear, false) != 0 {
		t.Error("Macedonian armor is +2 for phalanx and legion against missiles only")
	}
	cho, _ := CivByKey("choson")
	if cho.ExtraArmor(HeavyInfantry, Sword, false) != 1 || cho.ExtraArmor(HeavyInfantry, Spear, false) != 0 {
		t.Error("Choson armor is for sword infantry only")
	}
	rom, _ := CivByKey("roman")
	if rom.ExtraBonusDice(Legion, Sword) != 2 || rom.ExtraBonusDice(HeavyInfantry, Sword) != 2 || rom.ExtraBonusDice(Cavalry, Sword) != 0 {
		t.Error("Roman bonus dice: +2 for legions and sword infantry only")
	}
	yam, _ := CivByKey("yamato")
	if yam.ExtraBonusDice(Cavalry, Spear) != 2 || yam.ExtraBonusDice(Phalanx, Spear) != 0 {
		t.Error("Yamato bonus dice: +2 for cavalry only")
	}
	asy, _ := CivByKey("assyrian")
	if asy.ExtraBonusDice(Phalanx, Spear) != 1 {
		t.Error("Assyrian: +1 bonus die for melee units")
	}
}

func TestParseUnits(t *testing.T) {
	got, err := ParseUnits("4 phalanx spear 16, 2 lt-cav javelin 8")
	if err != nil {
		t.Fatal(err)
	}
	want := []UnitSpec{{4, Phalanx, Spear, 16, 1}, {2, LightCavalry, Javelin, 8, 0}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
	bad := map[string]string{
		"":                                       "empty",
		"4 phalanx spear 16,":                    "item 2 is empty",
		"4 phalanx spear":                        "four words",
		"x phalanx spear 16":                     "not a number of units",
		"4 hoplite spear 16":                     "no troop class \"hoplite\"",
		"4 phalanx pike 16":                      "no weapon \"pike\"",
		"4 phalanx sword 16":                     "phalanx cannot carry sword",
		"4 phalanx spear 1":                      "2 to 32 figures",
		"4 phalanx spear many":                   "not a number of figures",
		"30 phalanx spear 16, 11 lt-inf sling 8": "at most 40 units",
	}
	for line, msg := range bad {
		_, err := ParseUnits(line)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: error %v, want one containing %q", line, err, msg)
		}
	}
	for _, s := range SampleArmies {
		if _, _, err := ParseArmy(s.Units); err != nil {
			t.Errorf("sample army %s: %v", s.Name, err)
		}
		if _, ok := CivByKey(s.Civ); !ok {
			t.Errorf("sample army %s: no civilization %q", s.Name, s.Civ)
		}
	}
}
