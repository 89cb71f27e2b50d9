package engine

import "testing"

func TestCardRoundTrip(t *testing.T) {
	for c := Card(1); c <= numCards; c++ {
		got, err := ParseCard(c.String())
		if err != nil || got != c {
			t.Errorf("ParseCard(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
	}
}

func TestParseCard(t *testing.T) {
	for in, want := range map[string]Card{
		"AS": NewCard(Ace, Spades), "10d": NewCard(10, Diamonds), " 7c ": NewCard(7, Clubs), "qh": NewCard(Queen, Hearts),
		"2C": NewCard(2, Clubs), "JOKER": Joker, "joker2": Joker2,
	} {
		if got, err := ParseCard(in); err != nil || got != want {
			t.Errorf("ParseCard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "1S", "11H", "AX", "S", "10", "KK", "JOKER3", "02C", "+3H", "-2S"} {
		if c, err := ParseCard(bad); err == nil {
			t.Errorf("ParseCard(%q) = %v, want an error", bad, c)
		}
	}
}

func TestCardNames(t *testing.T) {
	if got := NewCard(King, Spades).Name(); got != "King of Spades" {
		t.Errorf("Name = %q", got)
	}
	if got := Joker2.Name(); got != "Joker" {
		t.Errorf("Name = %q", got)
	}
	if !NewCard(Jack, Hearts).Rank().IsFace() || NewCard(Ace, Hearts).Rank().IsFace() || !NewCard(10, Clubs).Rank().IsNumber() {
		t.Error("face and number ranks misread")
	}
}

func TestRankingGWAB(t *testing.T) {
	o := Ranking{Suits: [4]Suit{Spades, Hearts, Clubs, Diamonds}}
	// Highest first, as the fixed ruling orders them.
	order := []string{"AS", "AH", "AC", "AD", "KS", "QH", "JC", "10S", "10D", "9H", "2C", "2D"}
	for i := 0; i+1 < len(order); i++ {
		a, _ := ParseCard(order[i])
		b, _ := ParseCard(order[i+1])
		if o.Compare(a, b) <= 0 || o.Compare(b, a) >= 0 {
			t.Errorf("%s should outrank %s", a, b)
		}
	}
	ks, _ := ParseCard("KS")
	if o.Compare(ks, ks) != 0 {
		t.Error("a card should tie with itself")
	}
	cards := []Card{NewCard(4, Clubs), NewCard(Jack, Spades), NewCard(4, Spades)}
	if got := o.Highest(cards); got != NewCard(Jack, Spades) {
		t.Errorf("Highest = %v", got)
	}
}

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"AS", "10D", "joker2", "02C", "+3H", "1S", "11H"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCard(s)
		if err != nil {
			return
		}
		if !c.Valid() {
			t.Fatalf("ParseCard(%q) = %d, not a card of the pack", s, c)
		}
		back, err := ParseCard(c.String())
		if err != nil || back != c {
			t.Fatalf("%q read as %v, which reads back as %v, %v", s, c, back, err)
		}
	})
}

// TestPileCardsListsEveryCard checks that a pile lists every card it
// holds, from the first to the second joker.
func TestPileCardsListsEveryCard(t *testing.T) {
	var p Pile
	for c := Card(1); c.Valid(); c++ {
		p = p.With(c)
	}
	cards := p.Cards()
	if len(cards) != 54 || p.Len() != 54 {
		t.Fatalf("a full pack lists %d cards (holds %d), want 54", len(cards), p.Len())
	}
	if cards[0] != Card(1) || cards[53] != Card(54) {
		t.Errorf("the pack runs %v to %v", cards[0], cards[53])
	}
	if got := Pile(0).With(Card(54)).Cards(); len(got) != 1 {
		t.Errorf("a pile of the last card lists %v", got)
	}
}
