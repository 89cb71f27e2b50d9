package btg

// FireMod is the sum of the fire modifiers of 2.H-mods, added to every die
// rolled (hits are low rolls, so a plus makes a hit harder and a minus
// easier; RULINGS.md, btg, "hit direction").
type FireMod struct {
	CloseOrderTarget bool // target in close formation (phalanx): −1
	Overhead         bool // firing overhead over a friendly rank: +1
	Cover            bool // into woods, behind walls, into buildings: +1
	SlingerVsArchers bool // −1
	ElephantArchers  bool // −1
	Superior         bool // from a hill top or siege walls: −1
	HitBonus         int  // Hittite archers, Marksmen: each point is −1
}

// Sum is the total modifier added to each die.
func (m FireMod) Sum() int {
	s := 0
	for _, f := range []struct {
		on bool
		v  int
	}{{m.CloseOrderTarget, -1}, {m.Overhead, 1}, {m.Cover, 1}, {m.SlingerVsArchers, -1}, {m.ElephantArchers, -1}, {m.Superior, -1}} {
		if f.on {
			s += f.v
		}
	}
	return s - m.HitBonus
}

// Hits counts the dice that hit: a die hits when its roll plus the modifier
// is at most the band (2.H). A natural 6 never hits (RULINGS.md, btg).
func Hits(rolls []int, band, mod int) int {
	n := 0
	for _, r := range rolls {
		if r < 6 && r+mod <= band {
			n++
		}
	}
	return n
}

// Casualties is figures lost from hits (2.J): the hits less one if the
// leader took a hit, less the armor; never below nothing.
func Casualties(hits int, leaderHit bool, armor int) int {
	if leaderHit {
		hits--
	}
	hits -= armor
	if hits < 0 {
		return 0
	}
	return hits
}
