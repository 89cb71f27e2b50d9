package btg

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

func card(t *testing.T, s string) engine.Card {
	t.Helper()
	c, err := engine.ParseCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// §1.A: half the number rounded up; black faces move leaders; red faces
// and red Aces draw events (§6) by rank.
func TestActivate(t *testing.T) {
	cases := map[string]Activation{
		"7S":  {Side: BlackSide, Units: 4},
		"2C":  {Side: BlackSide, Units: 1},
		"10H": {Side: RedSide, Units: 5},
		"9D":  {Side: RedSide, Units: 5},
		"KS":  {Side: BlackSide, Leaders: true},
		"AC":  {Side: BlackSide, Leaders: true},
		"AH":  {Side: RedSide, Event: true, Category: Mystical},
		"KD":  {Side: RedSide, Event: true, Category: Character},
		"QH":  {Side: RedSide, Event: true, Category: Animal},
		"JD":  {Side: RedSide, Event: true, Category: Other},
	}
	for s, want := range cases {
		if got := Activate(card(t, s)); got != want {
			t.Errorf("%s: %+v, want %+v", s, got, want)
		}
	}
}

func TestEventCard(t *testing.T) {
	side, n, ok := EventCard(card(t, "2S"))
	if !ok || side != BlackSide || n != 1 {
		t.Errorf("2S: %v %d %v, want black event 1", side, n, ok)
	}
	side, n, ok = EventCard(card(t, "8H"))
	if !ok || side != RedSide || n != 7 {
		t.Errorf("8H: %v %d %v, want red event 7", side, n, ok)
	}
	for _, s := range []string{"9C", "10D", "JH", "AS"} {
		if _, _, ok := EventCard(card(t, s)); ok {
			t.Errorf("%s should be passed over", s)
		}
	}
	if EventName(Other, 5) != "Treasure" || EventName(Mystical, 1) != "Ferocity" || EventName(Animal, 7) != "Lost and Found" {
		t.Error("event names out of order")
	}
}

// Every one of the 28 events has a rule to play it, under the name the
// text gives it.
func TestEveryEventHasItsRule(t *testing.T) {
	seen := map[eventKind]bool{}
	for cat := Mystical; cat <= Other; cat++ {
		for n := 1; n <= 7; n++ {
			k := kindOf(cat, n)
			if k == evNone || seen[k] {
				t.Fatalf("%s %d: kind %d is none or taken twice", cat, n, k)
			}
			seen[k] = true
			if k.String() != EventName(cat, n) {
				t.Errorf("%s %d is %q, want %q", cat, n, k, EventName(cat, n))
			}
			if eventRules[k].play == nil {
				t.Errorf("%s has no rule", k)
			}
		}
	}
	if kindOf(Other, 8) != evNone || kindOf(Mystical, 0) != evNone {
		t.Error("a number outside 1 to 7 names an event")
	}
}
