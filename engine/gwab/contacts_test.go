package gwab

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestContactsAsEveryPair crowds a twelve-clan battle's elements into a
// small part of the table, again and again at random, and checks that
// the contacts found by sweeping the table are every antagonist pair
// whose bases touch, in the order of the elements: the order melees are
// fought in, which a replay must find again.
func TestContactsAsEveryPair(t *testing.T) {
	p := battle12(t)
	s := p.Game.State.(*State).Clone().(*State)
	rng := rand.New(rand.NewPCG(21, 22))
	total := 0
	for range 50 {
		for i := range s.Elements {
			el := &s.Elements[i]
			el.Base.Center = engine.Vec{X: 10 + rng.Float64()*14, Y: 10 + rng.Float64()*8}
			el.Base.Facing = engine.Heading(rng.IntN(8) * 45)
		}
		var want [][2]*Element
		for i := range s.Elements {
			for j := i + 1; j < len(s.Elements); j++ {
				a, b := &s.Elements[i], &s.Elements[j]
				if a.inPlay() && b.inPlay() && s.Antagonists(a.Clan, b.Clan) && a.Base.Touches(b.Base) {
					want = append(want, [2]*Element{a, b})
				}
			}
		}
		got := s.contacts()
		if !slices.Equal(got, want) {
			t.Fatalf("%d contacts found, %d pairs touch, or in another order", len(got), len(want))
		}
		total += len(want)
	}
	if total == 0 {
		t.Fatal("no pair ever touched: the test proves nothing")
	}
}
