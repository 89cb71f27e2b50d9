package btg

// MeleeHits counts a unit's melee hits (5.D, 5.E, 8b): each base die hits on
// 1 up to the weapon's number, each bonus die on 5 or 6. When the unit is of
// elephants, its triple roll (a D6, rolled each time it fights) of 5 or less
// triples the hits: the text's "5 or less" is followed over its "50%"
// (RULINGS.md, btg).
func MeleeHits(w Weapon, base, bonus []int, tripleRoll int) int {
	n := 0
	for _, r := range base {
		if r <= w.MeleeHit() {
			n++
		}
	}
	for _, r := range bonus {
		if r >= 5 {
			n++
		}
	}
	if w == Tusks && tripleRoll >= 1 && tripleRoll <= 5 {
		n *= 3
	}
	return n
}

// MeleeLeaderHit reads the D10 (faces 0–9) for a leader in melee (5.F): a 0
// hits him, and only when his unit lost figures.
func MeleeLeaderHit(d10 int, unitLostFigures bool) bool {
	return unitLostFigures && d10 == 0
}
