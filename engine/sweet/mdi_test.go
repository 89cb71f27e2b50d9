package sweet

import (
	"fmt"
	"testing"
)

// TestJudgeEveryPair checks all 36 pairs of indicators against the
// superiority table of the Melee Procedure, written out here pair by pair:
// "S" the south side's deployment is superior, "N" the north's, "=" equal
// deployments, "WW" both withdraw, "Ws"/"Wn" the south's or north's
// withdrawal succeeds.
func TestJudgeEveryPair(t *testing.T) {
	want := map[[2]MDI]string{
		{Line, Line}: "=", {Line, Column}: "S", {Line, Square}: "S", {Line, Flanking}: "N", {Line, Pincers}: "N", {Line, Withdrawal}: "Wn",
		{Column, Line}: "N", {Column, Column}: "=", {Column, Square}: "N", {Column, Flanking}: "S", {Column, Pincers}: "S", {Column, Withdrawal}: "S",
		{Square, Line}: "N", {Square, Column}: "S", {Square, Square}: "=", {Square, Flanking}: "N", {Square, Pincers}: "S", {Square, Withdrawal}: "Wn",
		{Flanking, Line}: "S", {Flanking, Column}: "N", {Flanking, Square}: "S", {Flanking, Flanking}: "=", {Flanking, Pincers}: "N", {Flanking, Withdrawal}: "S",
		{Pincers, Line}: "S", {Pincers, Column}: "N", {Pincers, Square}: "N", {Pincers, Flanking}: "S", {Pincers, Pincers}: "=", {Pincers, Withdrawal}: "S",
		{Withdrawal, Line}: "Ws", {Withdrawal, Column}: "N", {Withdrawal, Square}: "Ws", {Withdrawal, Flanking}: "N", {Withdrawal, Pincers}: "N", {Withdrawal, Withdrawal}: "WW",
	}
	if len(want) != 36 {
		t.Fatalf("the table has %d pairs, want 36", len(want))
	}
	code := func(v Verdict) string {
		switch v.Kind {
		case Equal:
			return "="
		case BothWithdraw:
			return "WW"
		case Withdraws:
			return map[Side]string{South: "Ws", North: "Wn"}[v.Side]
		}
		return map[Side]string{South: "S", North: "N"}[v.Side]
	}
	for _, a := range MDIs {
		for _, b := range MDIs {
			if got := code(Judge(a, b)); got != want[[2]MDI{a, b}] {
				t.Errorf("%s against %s: got %s, want %s", a, b, got, want[[2]MDI{a, b}])
			}
			// Swapping the sides swaps the verdict.
			swap := map[string]string{"S": "N", "N": "S", "Ws": "Wn", "Wn": "Ws", "=": "=", "WW": "WW"}
			if got, back := code(Judge(a, b)), code(Judge(b, a)); swap[got] != back {
				t.Errorf("%s/%s gives %s but %s/%s gives %s", a, b, got, b, a, back)
			}
		}
	}
}

// TestMeleeArithmetic works the Melee Procedure's sums for each kind of
// verdict: losses, then who retreats or is destroyed.
func TestMeleeArithmetic(t *testing.T) {
	cases := []struct {
		south, north MDI
		points       [2]float64
		losses       [2]float64
		after        [2]float64 // as the stands taken leave them
		retreat      [2]bool
		destroyed    [2]bool
	}{
		// Equal: each loses half the weaker's points, 2; level after, both retreat.
		{Line, Line, [2]float64{4, 4}, [2]float64{2, 2}, [2]float64{2, 2}, [2]bool{true, true}, [2]bool{}},
		// Equal: 6 against 2: each loses 1; 5 against 1 is 3:1, the north is destroyed.
		{Square, Square, [2]float64{6, 2}, [2]float64{1, 1}, [2]float64{5, 1}, [2]bool{}, [2]bool{false, true}},
		// Equal: 5 against 3: each loses 1.5; 3.5 against 1.5, the north retreats.
		{Column, Column, [2]float64{5, 3}, [2]float64{1.5, 1.5}, [2]float64{3.5, 1.5}, [2]bool{false, true}, [2]bool{}},
		// Equal: 3 against 2.5, each loses 1.25; the dice leave 1 against
		// 1.5, but the north was the weaker before losses and retreats.
		{Line, Line, [2]float64{3, 2.5}, [2]float64{1.25, 1.25}, [2]float64{1, 1.5}, [2]bool{false, true}, [2]bool{}},
		// Superior south with 4: inflicts 1 + 3/2 = 2.5 and takes 1.25.
		{Line, Column, [2]float64{4, 4}, [2]float64{1.25, 2.5}, [2]float64{3, 2}, [2]bool{false, true}, [2]bool{}},
		// Superior north with 3 against 6: inflicts 1 + 2/2 = 2, takes 1.
		{Line, Pincers, [2]float64{6, 3}, [2]float64{2, 1}, [2]float64{4, 2}, [2]bool{false, true}, [2]bool{}},
		// Level after losses: the inferior side retreats.
		{Column, Square, [2]float64{2, 2}, [2]float64{1.5, 0.75}, [2]float64{1, 1}, [2]bool{true, false}, [2]bool{}},
		// Superior with less than a point inflicts what it has; 0.5
		// against 2.5 is still three to one, and the weaker is destroyed.
		{Flanking, Line, [2]float64{0.5, 3}, [2]float64{0.25, 0.5}, [2]float64{0.5, 2.5}, [2]bool{}, [2]bool{true, false}},
		// A failed withdrawal is the inferior deployment: 9 points would
		// inflict 5, but the south has only 3 to lose, and the north takes
		// half of that.
		{Withdrawal, Pincers, [2]float64{3, 9}, [2]float64{3, 1.5}, [2]float64{0, 7.5}, [2]bool{}, [2]bool{true, false}},
		// A withdrawal that works: no losses, the withdrawing side retreats.
		{Withdrawal, Square, [2]float64{3, 9}, [2]float64{0, 0}, [2]float64{3, 9}, [2]bool{true, false}, [2]bool{}},
		{Withdrawal, Withdrawal, [2]float64{3, 9}, [2]float64{0, 0}, [2]float64{3, 9}, [2]bool{true, true}, [2]bool{}},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%s %v", c.south, c.north, c.points)
		v := Judge(c.south, c.north)
		if got := Losses(v, c.points); got != c.losses {
			t.Errorf("%s: losses %v, want %v", name, got, c.losses)
		}
		r, d := Outcome(v, c.points, c.after)
		if r != c.retreat || d != c.destroyed {
			t.Errorf("%s: retreat %v destroyed %v, want %v %v", name, r, d, c.retreat, c.destroyed)
		}
	}
}

// TestMissileTable reads the missile table (Missile Fire 5) for each
// target class at each range band, with dice chosen to sit on its edges.
func TestMissileTable(t *testing.T) {
	cases := []struct {
		class TargetClass
		dist  float64
		dice  []int
		hits  int
	}{
		{TargetLight, 1, []int{1, 2, 3, 4}, 3},
		{TargetLight, 2, []int{1, 2, 3}, 2},
		{TargetLight, 2.5, []int{1, 2, 1}, 2},
		{TargetHeavyFoot, 1, []int{2, 3}, 1},
		{TargetHeavyFoot, 1.5, []int{1, 2}, 1},
		{TargetHeavyFoot, 3, []int{1, 2, 1}, 1},
		{TargetHeavyFoot, 3, []int{1, 1, 1, 1}, 2},
		{TargetHeavyHorse, 1, []int{1, 2}, 1},
		{TargetHeavyHorse, 2, []int{1, 1}, 1},
		{TargetHeavyHorse, 4, []int{1, 1, 2}, 0},
		{TargetHeavyHorse, 4, []int{1, 1, 1}, 1},
		{TargetBig, 1, []int{1, 2}, 0},
		{TargetBig, 1, []int{2, 2, 1, 1}, 2},
		{TargetBig, 2, []int{2, 2, 2}, 1},
		{TargetBig, 3, []int{2, 2, 2}, 0},
		{TargetLeader, 1, []int{1, 1}, 1},
		{TargetLeader, 2, []int{1, 1}, 0},
		{TargetLeader, 2, []int{1, 1, 1}, 1},
		{TargetLeader, 2.5, []int{1, 1, 1, 1, 1, 1}, 0},
	}
	for _, c := range cases {
		if got := missileTable[c.class][band(c.dist)].hits(c.dice); got != c.hits {
			t.Errorf("class %d at %g squares, dice %v: %d hits, want %d", c.class, c.dist, c.dice, got, c.hits)
		}
	}
}
