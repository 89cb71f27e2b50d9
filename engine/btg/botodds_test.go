package btg

import (
	"math"
	"testing"
)

// The odds of a roll are the ones a player works out at the table: two
// javelin dice hitting on 1–3 against armor 1 kill one figure a quarter
// of the time (2.F, 2.J), and a unit losing one figure for certain loses
// the melee to an enemy that kills none half the time (3.D).
func TestOddsAsAtTheTable(t *testing.T) {
	two := none().roll(2, fireChance(3, 0))
	u := &Unit{Figures: 8}
	if got := two.beyond(1, 8); math.Abs(got-0.25) > 1e-9 {
		t.Errorf("two dice at armor 1 kill %.3f figures; want 0.25", got)
	}
	k := killed(u, two, 1)
	if math.Abs(k[1]-0.25) > 1e-9 || math.Abs(k[0]-0.75) > 1e-9 {
		t.Errorf("two dice at armor 1: %v; want a quarter for one figure", k)
	}
	one := none().plus(1)
	if got := one.over(killed(u, none().roll(1, 0.5), 0)); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("one figure lost against a die that kills half the time: lost the melee %.3f; want 0.5", got)
	}
	if got := fireChance(3, 1); math.Abs(got-2.0/6) > 1e-9 {
		t.Errorf("a band of 3 at +1 hits %.3f; want 1/3", got)
	}
	if got := none().roll(3, 1.0/3).and(none().roll(2, 0.5)).mean(); math.Abs(got-2) > 1e-9 {
		t.Errorf("three dice at a third and two at a half: %.3f hits; want 2", got)
	}
	// Two bloodthirsty kills past armor 1 on a unit of two figures: the
	// die's hit is stopped, the kills are not, and no more than two fall.
	if got := killed(&Unit{Figures: 2}, none().roll(1, 0.5), 1).plus(2).upTo(2); len(got) != 3 || math.Abs(got[2]-1) > 1e-9 {
		t.Errorf("two kills on two figures: %v; want both fallen for certain", got)
	}
}
