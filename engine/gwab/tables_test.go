package gwab

import (
	"testing"
)

// The tables of the GWAB text, typed again from the text (not from the
// code's tables) and checked cell by cell against what the code reads.

// TestHonorChart checks every cell of the Honor Points chart (4.4) in its
// two columns, Battle and Raid (the fixed rulings): kills and wounds of a
// Hero of each class, a chariot taken or lost, a Hero's armor taken, a
// challenge refused, and failing to show.
func TestHonorChart(t *testing.T) {
	type cell struct{ battle, raid int }
	chart := []struct {
		row  string
		got  column
		want cell
	}{
		{"kill, Class 4 Hero", killPoints[4], cell{40, 20}},
		{"kill, Class 3 Hero", killPoints[3], cell{30, 15}},
		{"kill, Class 2 Hero", killPoints[2], cell{20, 10}},
		{"kill, Class 1 Hero", killPoints[1], cell{10, 5}},
		{"wound, Class 4 Hero", woundPoints[4], cell{5, 1}},
		{"wound, Class 3 Hero", woundPoints[3], cell{4, 1}},
		{"wound, Class 2 Hero", woundPoints[2], cell{3, 1}},
		{"wound, Class 1 Hero", woundPoints[1], cell{2, 1}},
		{"Chariot, capture", chariotWon, cell{50, 25}},
		{"Chariot, loss", chariotLost, cell{-50, -25}},
		{"Hero's Armor, capture", armorWon, cell{15, 7}},
		{"Refusing Challenge, Class 4 Hero", refusePoints[4], cell{-10, -3}},
		{"Refusing Challenge, Class 3 Hero", refusePoints[3], cell{-5, -2}},
		{"Refusing Challenge, Class 2 Hero", refusePoints[2], cell{-2, -1}},
		{"Refusing Challenge, Class 1 Hero", refusePoints[1], cell{-1, 0}}, // the Raid cell is blank
		{"Failure to Show", absentPoints, cell{-10, -3}},
	}
	for _, c := range chart {
		if got := c.got[Battle.column()]; got != c.want.battle {
			t.Errorf("4.4 honor chart, %s, Battle: %d, the chart says %d", c.row, got, c.want.battle)
		}
		if got := c.got[Raid.column()]; got != c.want.raid {
			t.Errorf("4.4 honor chart, %s, Raid: %d, the chart says %d", c.row, got, c.want.raid)
		}
	}
	if Practice.column() != Raid.column() {
		t.Errorf("a practice book keeps its tally by the Raid column (RULINGS.md)")
	}
}

// TestRankChart checks the Honor Point Rank Chart (4.5) at each edge, by
// the fixed ruling's bands.
func TestRankChart(t *testing.T) {
	for points, class := range map[int]int{
		0: 1, 99: 1, 100: 2, 200: 2, 201: 3, 300: 3, 301: 4, 400: 4, 401: 5, 999: 5,
	} {
		if got := classFor(points); got != class {
			t.Errorf("4.5: %d points is class %d, the chart says %d", points, got, class)
		}
	}
}

// TestWoundLimits checks the wound limits of 10.1.3: charioteers and
// slingers or archers 1, javelins 2, spears and swords 3, a Companion 3,
// a Hero 3 to 6 by class.
func TestWoundLimits(t *testing.T) {
	s := &State{Clans: []Clan{{Tag: "A", Hero: "A-H"}}}
	hero := func(points int) *Element { return &Element{ID: "A-H", Clan: "A", Kind: Hero, Honor: points} }
	for _, c := range []struct {
		row  string
		el   *Element
		want int
	}{
		{"Charioteers", &Element{ID: "A-C", Clan: "A", Kind: Chariot}, 1},
		{"Slingers", &Element{ID: "A-W1", Clan: "A", Kind: Warband, Weapon: Sling}, 1},
		{"Archer elements", &Element{ID: "A-W2", Clan: "A", Kind: Warband, Weapon: Bow}, 1},
		{"Javelin armed element", &Element{ID: "A-W3", Clan: "A", Kind: Warband, Weapon: Javelin}, 2},
		{"Spear armed element", &Element{ID: "A-W4", Clan: "A", Kind: Warband, Weapon: Spear}, 3},
		{"Sword armed element", &Element{ID: "A-W5", Clan: "A", Kind: Warband, Weapon: Sword}, 3},
		{"Companion", &Element{ID: "A-P", Clan: "A", Kind: Companion}, 3},
		{"Class 1 Hero", hero(50), 3},
		{"Class 2 Hero", hero(100), 4},
		{"Class 3 Hero", hero(250), 5},
		{"Class 4 Hero", hero(350), 6},
	} {
		if got := s.woundLimit(c.el); got != c.want {
			t.Errorf("10.1.3 wound limits, %s: %d, the text says %d", c.row, got, c.want)
		}
	}
}
