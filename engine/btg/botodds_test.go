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

// Elephants supporting a melee triple their hits too (5.C, 8b), and the
// bot counts them so. Eight heavy infantry with clubs fight eight alike,
// armor 1; two elephants stand beside the Persians: four club dice on
// 1-2, and the elephants' one die on 1-5, tripled on a D6 of 5 or less.
// The Greeks may expect to lose what those dice bring past the armor,
// worked out die by die as at the table.
func TestBotCountsASupportingElephantsTriple(t *testing.T) {
	g := botTable(t, `
@gm /book open rules:btg cards:1 turns:1
#load 2d6 7 7 7
@bob /army build name:Greeks civ:greek units:"1 hvy-inf club 8"
@bot /army build name:Persians civ:persian units:"1 hvy-inf club 8, 1 elephant tusks 2"
#place GRE-1 40,20 N 2
#place PER-1 40,20 S 2
#place PER-2 44.3,21 S 1
#place GRE-G 10,2
#place PER-G 10,46
#stack cards 2C
@bob /done
`)
	s := g.State.(*State)
	want := 0.0
	for clubs := 0; clubs <= 4; clubs++ {
		p := float64(binomial(4, clubs)) * math.Pow(1.0/3, float64(clubs)) * math.Pow(2.0/3, float64(4-clubs))
		for _, e := range []struct{ hits, chance float64 }{{0, 1.0 / 6}, {1, 5.0 / 6 * 1 / 6}, {3, 5.0 / 6 * 5 / 6}} {
			want += p * e.chance * math.Max(0, float64(clubs)+e.hits-1)
		}
	}
	if got := s.expectedLosses().figures[s.Unit("GRE-1").Side]; math.Abs(got-want) > 1e-9 {
		t.Errorf("the bot expects the Greeks to lose %.4f figures; the dice bring %.4f", got, want)
	}
}

func binomial(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}
