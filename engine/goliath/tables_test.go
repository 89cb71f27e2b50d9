package goliath

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// The tables of the Goliath text, typed again from the text (not from the
// code's tables) and checked cell by cell against what the code reads.

// TestMeleeTable checks every cell of the melee table (Melee): "X/Y (R)",
// X dice per Y attacking figures, each hitting on R or better; rows the
// attack rating, columns the defence rating.
func TestMeleeTable(t *testing.T) {
	ladder := []Rating{LI, MI, HI, LC, MC, HC}
	text := map[Rating][6]string{ // DR = LI MI HI LC MC HC
		LI: {"1/1 (6)", "1/2 (6)", "1/3 (6)", "1/2 (6)", "1/3 (6)", "1/4 (6)"},
		MI: {"1/1 (5+)", "1/1 (6)", "1/2 (6)", "1/2 (6)", "1/3 (6)", "1/4 (6)"},
		HI: {"1/1 (4+)", "1/1 (5+)", "1/1 (6)", "1/1 (6)", "1/2 (6)", "1/3 (6)"},
		LC: {"2/1 (5+)", "2/1 (6)", "1/1 (6)", "1/1 (6)", "1/2 (6)", "1/3 (6)"},
		MC: {"2/1 (4+)", "2/1 (5+)", "2/1 (6)", "1/1 (5+)", "1/1 (6)", "1/1 (6)"},
		HC: {"4/1 (5+)", "3/1 (5+)", "2/1 (5+)", "2/1 (5+)", "1/1 (5+)", "1/1 (6)"},
	}
	for ar, row := range text {
		for i, want := range row {
			dr := ladder[i]
			var x, y, r int
			if _, err := fmt.Sscanf(want, "%d/%d (%d", &x, &y, &r); err != nil {
				t.Fatal(err)
			}
			// y*12 figures throw x*12 dice, needing r.
			n, need, mod := meleeDice(ar, dr, 0, 0, 12*y)
			got := fmt.Sprintf("%d/%d (%d)", n/12, y, need)
			if n != 12*x || need != r || mod != 0 {
				t.Errorf("melee table, AR=%s against DR=%s: %s (mod %d), the table says %s", ar, dr, got, mod, want)
			}
		}
	}
	// AR+1: flanking LI fights as MI; HC+1 is HC with +1 on each die.
	if n, need, mod := meleeDice(LI, LI, 1, 0, 4); n != 4 || need != 5 || mod != 0 {
		t.Errorf("LI at AR+1 on LI fights as MI (1/1, 5+): %d dice needing %d%+d", n, need, mod)
	}
	if n, need, mod := meleeDice(HC, HC, 1, 0, 2); n != 2 || need != 6 || mod != 1 {
		t.Errorf("HC at AR+1 on HC: 1/1 (6) with +1 a die, got %d dice needing %d%+d", n, need, mod)
	}
}

// TestMissileTable checks the missile table (Missile Fire): what each die
// needs by the target's armour class, and the projectiles' costs and ranges.
func TestMissileTable(t *testing.T) {
	for a, want := range map[Armor]string{Light: "4-6", Medium: "5-6", Heavy: "6"} {
		need := missileNeed(a)
		got := strconv.Itoa(need) + "-6"
		if need == 6 {
			got = "6"
		}
		if got != want {
			t.Errorf("missile fire: %s armour is hit on %s, the table says %s", a, got, want)
		}
	}
	text := map[Weapon][2]float64{Bow: {3, 15}, Crossbow: {1.5, 24}, Longbow: {4, 21}}
	if len(projectiles) != len(text) {
		t.Errorf("missile fire: %d projectiles, the table has %d", len(projectiles), len(text))
	}
	for _, p := range projectiles {
		if w := text[p.weapon]; p.pts != w[0] || p.rng != w[1] {
			t.Errorf("missile fire, %s: %v points and %v\", the table says %v points and %v\"", p.weapon, p.pts, p.rng, w[0], w[1])
		}
	}
}

// TestMoraleTables checks the morale check table, the heavy losses table
// and the armour of each rating.
func TestMoraleTables(t *testing.T) {
	for score, want := range map[int]Result{12: Holds, 6: Holds, 5: FallsBack, 3: FallsBack, 2: Routs, 0: Routs, -1: Surrender, -5: Surrender} {
		if got := result(score); got != want {
			t.Errorf("morale check: a score of %d %s, the table says %s", score, got, want)
		}
	}
	for a, want := range map[Armor]struct {
		percent, penalty int
	}{Light: {25, -2}, Medium: {33, -1}, Heavy: {50, 0}} {
		// The text's 33% as printed, not a third.
		if percent, pen := heavyLoss(a); percent != want.percent || pen != want.penalty {
			t.Errorf("heavy losses, %s: %d%% and %d, the table says %d%% and %d", a, percent, pen, want.percent, want.penalty)
		}
	}
	for r, a := range map[Rating]Armor{LI: Light, MI: Medium, HI: Heavy, LC: Light, MC: Medium, HC: Heavy} {
		if r.Armor() != a || r.Cavalry() != (r >= LC) {
			t.Errorf("figures: %s has armour %s, cavalry %v", r, r.Armor(), r.Cavalry())
		}
	}
}

// TestTroopTypes checks every cell of the troop types table.
func TestTroopTypes(t *testing.T) {
	// Type | AR | DR | HT | MR | MV | Chg | Fly | Mss | SA | Pts, as printed
	// ("*" for the types whose ratings follow their armour and mount; the
	// ogres' "2(9)" written 2,9).
	text := `Bowmen | LI | LI | 1 | +0 | 9" | 12" | -- | 15" |   | 4.0
Crossbowmen | LI | LI | 1 | +0 | 12" | -- | -- | 24" |   | 2.5
Dragon | HC | HC | 4 | +4 | 9" | 15" | 24" | -- | 2,5,6,10 | 100.0
Dwarves | MI | LI | 1 | +0 | 6" | 9" | -- | -- | 2 | 2.5
Elves | MI | MI | 1 | +1 | 12" | -- | -- | 18" | 1,2,3 | 4.0
Ghouls | LC | HC | 2 | +2 | 9" | -- | -- | -- | 2,7a,12 | 20.0
Giants | MI | HI | 12 | +4 | 12" | 18" | -- | 20" | 2,10 | 50.0
Goblins | MI | LI | 1 | +0 | 6" | 9" | -- | -- | 2 | 2.5
Halflings | LI | LI | 1 | +0 | 12" | -- | -- | 15" | 1 | 1.0
Heavy Cavalry | HC | HC | 1 | +1 | 12" | 18" | -- | -- |   | 5.0
Heavy Infantry | HI | HI | 1 | +0 | 6" | -- | -- | -- |   | 2.5
Heavy Crossbowmen | MI | MI | 1 | +0 | 9" | -- | -- | 24" |   | 4.0
Hero | * | * | 4 | +4 | 12" | 15" | -- | 18" | 4 | 20.0
Light Cavalry | LC | LC | 1 | +0 | 24" | 30" | -- | -- |   | 3.0
Light Infantry | LI | LI | 1 | -2 | 9" | 12" | -- | -- |   | 1.0
Longbowmen | LI | LI | 1 | +0 | 12" | 15" | -- | 21" |   | 5.0
Medium Cavalry | MC | MC | 1 | +0 | 18" | 24" | -- | -- |   | 4.0
Medium Infantry | MI | MI | 1 | -1 | 9" | 12" | -- | -- |   | 2.0
Ogres | MI | MI | 6 | +1 | 9" | 12" | -- | -- | 2,9 | 15.0
Ogrillons | MI | MI | 4 | +1 | 9" | 12" | -- | 15" | 2 | 10.0
Orcs | MI | MI | 1 | +0 | 9" | 12" | -- | 15" | 2 | 2.0
Orcs, Giant | HI | MI | 1 | +0 | 9" | 12" | -- | 15" | 2 | 2.5
Orogs | HI | MI | 2 | +0 | 9" | 12" | -- | 15" | 2 | 5.0
Peasants | LI | LI | 1 | -4 | 9" | 12" | -- | -- | | 0.5
Ranger | *+1 | * | 4 | +4 | 12" | 15" | -- | 18" | 4 | 20.5
Skeletons | MI | MI | 1 | +4 | 6" | -- | 9" | -- | 2 | 5.0
Super Hero | * | * | 8 | +4 | 12" | 15" | -- | 21" | 4,5,6 | 50.0
Trolls | HI | HI | 3 | +4 | 9" | 12" | -- | -- | 11 | 75.0
Werewolf | HI | MI | 4 | +4 | 9" | 12" | -- | -- | 2,8 | 20.0
Wights | LC | HC | 1 | +1 | 9" | -- | -- | -- | 2,7b | 7.5
Wizards | HI | HI | 2 | +4 | 12" | -- | -- | 24" | 1,2,4,5,10 | 100.0
Wraiths | MC | MC | 2 | +2 | 18" | 24" | 36" | -- | 2,5,6,7a | 10.0
Zombies | MI | MI | 1 | +4 | 6" | -- | 9" | -- | 2,12 | 15.0`
	lines := strings.Split(text, "\n")
	if len(lines) != len(roster) {
		t.Errorf("troop types: the text has %d types, the roster %d", len(lines), len(roster))
	}
	inches := func(v float64) string {
		if v == 0 {
			return "--"
		}
		return strconv.FormatFloat(v, 'f', -1, 64) + `"`
	}
	for _, line := range lines {
		f := strings.Split(line, "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		ty, ok := findType(nil, f[0])
		if !ok {
			t.Errorf("troop types: no type %q", f[0])
			continue
		}
		ar, dr := ty.AR.String(), ty.DR.String()
		if ty.Star {
			ar, dr = "*", "*"
			if ty.Step > 0 {
				ar = fmt.Sprintf("*+%d", ty.Step)
			}
		}
		var sa []string
		for _, a := range ty.SA {
			sa = append(sa, string(a))
		}
		got := []string{ty.Name, ar, dr, strconv.Itoa(ty.HT), fmt.Sprintf("%+d", ty.MR), inches(ty.MV), inches(ty.Chg), inches(ty.Fly), inches(ty.Mss), strings.Join(sa, ","), strconv.FormatFloat(ty.Pts, 'f', 1, 64)}
		for i, col := range []string{"type", "AR", "DR", "HT", "MR", "MV", "Chg", "Fly", "Mss", "SA", "Pts"} {
			if got[i] != f[i] {
				t.Errorf("troop types, %s: %s is %q, the table says %q", f[0], col, got[i], f[i])
			}
		}
	}
}
