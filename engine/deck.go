package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// DeckName names one of a game's decks, such as "sequence" or "combat".
type DeckName string

// DeckSpec describes a deck a rule system plays with.
type DeckSpec struct {
	Name    DeckName
	Jokers  bool // the two jokers are in the pack
	Ranking Ranking
	// Shuffled decks are shuffled whole before every deal: a card comes
	// from every card not in play, the discards included, not from what
	// is left of the draw pile (GWAB's sequence deck, shuffled each round,
	// 6.1).
	Shuffled bool
}

// Pile is a set of cards, one bit per card.
type Pile uint64

// Has reports whether c is in p.
func (p Pile) Has(c Card) bool { return c.Valid() && p&(1<<c) != 0 }

// With returns p with c added.
func (p Pile) With(c Card) Pile { return p | 1<<c }

// Without returns p with c removed.
func (p Pile) Without(c Card) Pile { return p &^ (1 << c) }

// Len returns how many cards are in p.
func (p Pile) Len() int { return bits.OnesCount64(uint64(p)) }

// Cards returns p's cards in pack order.
func (p Pile) Cards() []Card {
	var out []Card
	for c := Card(1); c <= numCards; c++ {
		if p.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// nth returns the n-th card of p in pack order, counting from zero.
func (p Pile) nth(n int) Card {
	for c := Card(1); c <= numCards; c++ {
		if p.Has(c) {
			if n == 0 {
				return c
			}
			n--
		}
	}
	return NoCard
}

func fullPile(jokers bool) Pile {
	var p Pile
	for c := Card(1); c <= 52; c++ {
		p = p.With(c)
	}
	if jokers {
		p = p.With(Joker).With(Joker2)
	}
	return p
}

// Deck is a deck in play: the cards still to be drawn, the discards, and
// the cards a scenario has stacked to come next. A card in neither pile is
// held in play (dealt to a clan, kept as a joker). The draw pile has no
// order: a draw takes a card from it uniformly at random, which is the same
// as dealing from a well-shuffled deck.
type Deck struct {
	Name    DeckName `json:"name"`
	Draw    Pile     `json:"draw"`
	Discard Pile     `json:"discard"`
	Stacked []Card   `json:"stacked,omitempty"`
}

// NewDeck returns a fresh, full deck for spec.
func NewDeck(spec DeckSpec) Deck {
	return Deck{Name: spec.Name, Draw: fullPile(spec.Jokers)}
}

// ErrDeckEmpty is returned when a draw is asked of a deck whose every card
// is held in play.
var ErrDeckEmpty = errors.New("engine: every card of the deck is in play")

// pool is what the next card is dealt from: the draw pile, or the
// discards reshuffled when it is empty; for a deck shuffled whole before
// every deal, both.
func (d *Deck) pool(shuffled bool) Pile {
	if shuffled || d.Draw == 0 {
		return d.Draw | d.Discard
	}
	return d.Draw
}

// choose picks the next card without changing the deck: the first stacked
// card if there is one, otherwise a random card of its pool.
func (d *Deck) choose(r *rand.Rand, shuffled bool) (Card, error) {
	if len(d.Stacked) > 0 {
		c := d.Stacked[0]
		if d.Draw.Has(c) || d.Discard.Has(c) {
			return c, nil
		}
		if twin := jokerTwin(c); twin != NoCard && (d.Draw.Has(twin) || d.Discard.Has(twin)) {
			return twin, nil
		}
		return NoCard, fmt.Errorf("engine: the stacked card %s is held in play and cannot be dealt from the %s deck", c, d.Name)
	}
	from := d.pool(shuffled)
	if from == 0 {
		return NoCard, ErrDeckEmpty
	}
	return from.nth(r.IntN(from.Len())), nil
}

func jokerTwin(c Card) Card {
	switch c {
	case Joker:
		return Joker2
	case Joker2:
		return Joker
	}
	return NoCard
}

// take removes c from the deck as a draw does, first turning the discards
// into a new draw pile if the draw pile is empty, and consumes the front of
// the stack if there is one. It reports whether the deck was reshuffled.
// Deciding and replaying both go through take, so they cannot disagree.
func (d *Deck) take(c Card) (reshuffled bool) {
	if d.Draw == 0 && d.Discard != 0 {
		d.Draw, d.Discard = d.Discard, 0
		reshuffled = true
	}
	d.Draw = d.Draw.Without(c)
	d.Discard = d.Discard.Without(c)
	if len(d.Stacked) > 0 {
		d.Stacked = d.Stacked[1:]
		if len(d.Stacked) == 0 {
			d.Stacked = nil
		}
	}
	return reshuffled
}

// discard puts cards on the discard pile.
func (d *Deck) discard(cards ...Card) {
	for _, c := range cards {
		if c.Valid() && !d.Draw.Has(c) {
			d.Discard = d.Discard.With(c)
		}
	}
}

// Held returns the cards that are in neither pile: dealt and in play.
func (d *Deck) Held(spec DeckSpec) []Card {
	return (fullPile(spec.Jokers) &^ d.Draw &^ d.Discard).Cards()
}
