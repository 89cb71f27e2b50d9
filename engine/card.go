package engine

import (
	"fmt"
	"strconv"
	"strings"
)

// Suit is a playing-card suit. The zero Suit is no suit (a joker, or no card).
type Suit uint8

const (
	NoSuit Suit = iota
	Clubs
	Diamonds
	Hearts
	Spades
)

var suitLetters = [...]string{NoSuit: "", Clubs: "C", Diamonds: "D", Hearts: "H", Spades: "S"}
var suitNames = [...]string{NoSuit: "no suit", Clubs: "Clubs", Diamonds: "Diamonds", Hearts: "Hearts", Spades: "Spades"}

// String returns the suit's letter as players type it: C, D, H or S.
func (s Suit) String() string {
	if int(s) < len(suitLetters) {
		return suitLetters[s]
	}
	return fmt.Sprintf("Suit(%d)", s)
}

// Name returns the suit's display name, such as "Spades".
func (s Suit) Name() string {
	if int(s) < len(suitNames) {
		return suitNames[s]
	}
	return s.String()
}

// Rank is a playing-card rank, 2 through 10 by value, then Jack, Queen,
// King and Ace. The zero Rank is no rank (a joker, or no card).
type Rank uint8

const (
	NoRank Rank = 0
	Jack   Rank = 11
	Queen  Rank = 12
	King   Rank = 13
	Ace    Rank = 14
)

// IsFace reports whether r is a Jack, Queen or King.
func (r Rank) IsFace() bool { return r >= Jack && r <= King }

// IsNumber reports whether r is one of the number cards 2 to 10.
func (r Rank) IsNumber() bool { return r >= 2 && r <= 10 }

// String returns the rank as players type it: 2…10, J, Q, K, A.
func (r Rank) String() string {
	switch {
	case r.IsNumber():
		return fmt.Sprint(uint8(r))
	case r == Jack:
		return "J"
	case r == Queen:
		return "Q"
	case r == King:
		return "K"
	case r == Ace:
		return "A"
	}
	return ""
}

// Name returns the rank's display name: "7", "Jack", "Ace".
func (r Rank) Name() string {
	switch r {
	case Jack:
		return "Jack"
	case Queen:
		return "Queen"
	case King:
		return "King"
	case Ace:
		return "Ace"
	}
	return r.String()
}

// Card is one card of a 54-card pack: the 52 ranked cards and two jokers.
// The zero Card is no card.
type Card uint8

const (
	NoCard Card = 0
	// Joker and Joker2 are the pack's two jokers. Both read "JOKER" to
	// players; in logs the second is written JOKER2 so that replays can tell
	// them apart.
	Joker  Card = 53
	Joker2 Card = 54
)

// numCards is the size of the full pack with both jokers.
const numCards = 54

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card {
	if r < 2 || r > Ace || s == NoSuit || s > Spades {
		return NoCard
	}
	return Card(1 + (uint8(s)-1)*13 + uint8(r) - 2)
}

// Rank returns c's rank, NoRank for a joker or NoCard.
func (c Card) Rank() Rank {
	if c == NoCard || c.IsJoker() {
		return NoRank
	}
	return Rank((uint8(c)-1)%13 + 2)
}

// Suit returns c's suit, NoSuit for a joker or NoCard.
func (c Card) Suit() Suit {
	if c == NoCard || c.IsJoker() {
		return NoSuit
	}
	return Suit((uint8(c)-1)/13 + 1)
}

// IsJoker reports whether c is one of the two jokers.
func (c Card) IsJoker() bool { return c == Joker || c == Joker2 }

// Valid reports whether c names a card of the pack.
func (c Card) Valid() bool { return c >= 1 && c <= numCards }

// String returns the card as players type it: "AS", "10D", "JOKER".
func (c Card) String() string {
	switch {
	case c == Joker:
		return "JOKER"
	case c == Joker2:
		return "JOKER2"
	case c.Valid():
		return c.Rank().String() + c.Suit().String()
	}
	return "-"
}

// Name returns the card's display name: "King of Spades", "Joker".
func (c Card) Name() string {
	switch {
	case c.IsJoker():
		return "Joker"
	case c.Valid():
		return c.Rank().Name() + " of " + c.Suit().Name()
	}
	return "no card"
}

// ParseCard reads a card written the way players and scenarios write it:
// rank then suit ("AS", "10D", "qh", "2C"), or "JOKER" (also "JOKER1",
// "JOKER2").
func ParseCard(s string) (Card, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	switch u {
	case "JOKER", "JOKER1":
		return Joker, nil
	case "JOKER2":
		return Joker2, nil
	}
	if len(u) < 2 {
		return NoCard, fmt.Errorf("%q is not a card: write rank then suit, like AS, 10D or JOKER", s)
	}
	var suit Suit
	switch u[len(u)-1] {
	case 'C':
		suit = Clubs
	case 'D':
		suit = Diamonds
	case 'H':
		suit = Hearts
	case 'S':
		suit = Spades
	default:
		return NoCard, fmt.Errorf("%q is not a card: the suit must be C, D, H or S", s)
	}
	var rank Rank
	switch r := u[:len(u)-1]; r {
	case "A":
		rank = Ace
	case "K":
		rank = King
	case "Q":
		rank = Queen
	case "J":
		rank = Jack
	default:
		n, err := strconv.Atoi(r)
		if err != nil || n < 2 || n > 10 || r[0] == '0' || r[0] == '+' {
			return NoCard, fmt.Errorf("%q is not a card: the rank must be 2 to 10, J, Q, K or A", s)
		}
		rank = Rank(n)
	}
	return NewCard(rank, suit), nil
}

// MarshalText writes the card as [Card.String] does.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("engine: cannot encode card %d", uint8(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a card as [ParseCard] does.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Ranking orders cards for one rule system: by rank, Ace high, and then by
// suit, from Suits[0] (highest) to Suits[3] (lowest). Jokers rank above every
// other card; rule systems that give jokers no rank keep them out of
// comparisons.
type Ranking struct {
	Suits [4]Suit
}

func (o Ranking) suitPower(s Suit) int {
	for i, x := range o.Suits {
		if x == s {
			return 4 - i
		}
	}
	return 0
}

// Compare returns a positive number if a outranks b, a negative one if b
// outranks a, and zero if they are the same card.
func (o Ranking) Compare(a, b Card) int {
	pa, pb := o.power(a), o.power(b)
	return pa - pb
}

func (o Ranking) power(c Card) int {
	switch {
	case c == Joker2:
		return 1001
	case c == Joker:
		return 1000
	case !c.Valid():
		return 0
	}
	return int(c.Rank())*10 + o.suitPower(c.Suit())
}

// Highest returns the highest of cards, or NoCard if there are none.
func (o Ranking) Highest(cards []Card) Card {
	best := NoCard
	for _, c := range cards {
		if best == NoCard || o.Compare(c, best) > 0 {
			best = c
		}
	}
	return best
}
