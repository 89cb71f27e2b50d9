package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Table is what every game has whatever its rules: the recorded seed of
// its random source, its decks, and dice a scenario has loaded; and, in a
// book whose draws come from the table (tabledraws.go), the command
// waiting for them.
type Table struct {
	Seed      uint64        `json:"seed"`
	Decks     []Deck        `json:"decks"`
	Loaded    map[Die][]int `json:"loaded,omitempty"`
	FromTable bool          `json:"from_table,omitempty"`
	// Asked is never changed in place (applyAsked makes a new one), so
	// copies of a table may share it.
	Asked *Asked `json:"asked,omitempty"`
}

func newTable(specs []DeckSpec) Table {
	t := Table{}
	for _, s := range specs {
		t.Decks = append(t.Decks, NewDeck(s))
	}
	return t
}

func (t *Table) clone() Table {
	c := Table{Seed: t.Seed, FromTable: t.FromTable, Asked: t.Asked}
	if t.Decks != nil {
		c.Decks = make([]Deck, len(t.Decks))
	}
	for i, d := range t.Decks {
		d.Stacked = append([]Card(nil), d.Stacked...)
		c.Decks[i] = d
	}
	if len(t.Loaded) > 0 {
		c.Loaded = make(map[Die][]int, len(t.Loaded))
		for k, v := range t.Loaded {
			c.Loaded[k] = append([]int(nil), v...)
		}
	}
	return c
}

// Deck returns the deck called name, or nil if the game has none.
func (t *Table) Deck(name DeckName) *Deck {
	for i := range t.Decks {
		if t.Decks[i].Name == name {
			return &t.Decks[i]
		}
	}
	return nil
}

// rand returns the source for the action that will be recorded at seq.
// It depends only on the table's seed and seq, so a game's draws follow
// from its log alone.
func (t *Table) rand(seq Seq) *rand.Rand {
	return rand.New(rand.NewPCG(t.Seed, uint64(seq)))
}

// The table's own event bodies: the opening of a game and the directives
// of scenarios (seed, stacked cards, loaded dice).

// Opened is the first event of every game.
type Opened struct {
	Ruleset string `json:"ruleset"`
	Seed    uint64 `json:"seed"`
}

// Seeded replaces the seed of the game's random source.
type Seeded struct {
	Seed uint64 `json:"seed"`
}

// Stacked sets the next cards of a deck, replacing any earlier stack.
type Stacked struct {
	Deck  DeckName `json:"deck"`
	Cards []Card   `json:"cards"`
}

// Loaded sets the next results of a die, replacing any earlier loading.
type Loaded struct {
	Die   Die   `json:"die"`
	Rolls []int `json:"rolls"`
}

func (Opened) Kind() string  { return "table.opened" }
func (Seeded) Kind() string  { return "table.seeded" }
func (Stacked) Kind() string { return "table.stacked" }
func (Loaded) Kind() string  { return "table.loaded" }

var tableBodies = BodyTypes{
	Opened{}.Kind():     Decoder[Opened](),
	Seeded{}.Kind():     Decoder[Seeded](),
	Undone{}.Kind():     Decoder[Undone](),
	Stacked{}.Kind():    Decoder[Stacked](),
	Loaded{}.Kind():     Decoder[Loaded](),
	SeatHanded{}.Kind(): Decoder[SeatHanded](),

	DiceFrom{}.Kind(): Decoder[DiceFrom](),
	Asked{}.Kind():    Decoder[Asked](),
	Entered{}.Kind():  Decoder[Entered](),
}

// applyTable applies a table body; it reports false for any other body.
func (t *Table) applyTable(b Body) (bool, error) {
	switch b := b.(type) {
	case Opened:
		t.Seed = b.Seed
	case Seeded:
		t.Seed = b.Seed
	case Stacked:
		d := t.Deck(b.Deck)
		if d == nil {
			return true, fmt.Errorf("engine: no %q deck on this table", b.Deck)
		}
		d.Stacked = append([]Card(nil), b.Cards...)
	case Loaded:
		if t.Loaded == nil {
			t.Loaded = map[Die][]int{}
		}
		t.Loaded[b.Die] = append([]int(nil), b.Rolls...)
		if len(b.Rolls) == 0 {
			delete(t.Loaded, b.Die)
		}
	default:
		return t.applyAsked(b), nil
	}
	return true, nil
}

// applyDraws removes the event's draws from the decks and consumes loaded
// dice, exactly as they were taken when the event was decided.
func (t *Table) applyDraws(draws []Draw) error {
	for _, d := range draws {
		if d.Die != NoDie {
			if l := t.Loaded[d.Die]; len(l) > 0 {
				t.Loaded[d.Die] = l[1:]
				if len(l) == 1 {
					delete(t.Loaded, d.Die)
				}
			}
			continue
		}
		deck := t.Deck(d.Deck)
		if deck == nil {
			return fmt.Errorf("engine: no %q deck on this table", d.Deck)
		}
		deck.take(d.Card)
	}
	return nil
}

func (t *Table) applyDiscards(discards []Draw) error {
	for _, d := range discards {
		deck := t.Deck(d.Deck)
		if deck == nil {
			return fmt.Errorf("engine: no %q deck on this table", d.Deck)
		}
		deck.discard(d.Card)
	}
	return nil
}

// NarrateTable says what a table event means, for the rule systems'
// narration; ok is false for any other body.
func NarrateTable(e Event) (msgs []Message, ok bool) {
	if msgs, ok := narrateAsked(e); ok {
		return msgs, true
	}
	var text string
	switch b := e.Body.(type) {
	case Opened:
		return nil, true
	case Undone:
		text = fmt.Sprintf("The game master takes back the last step (%s).", b.Step)
	case SeatHanded:
		text = b.text()
	case Seeded:
		text = fmt.Sprintf("The table's random source is seeded with %d.", b.Seed)
	case Stacked:
		cards := make([]string, len(b.Cards))
		for i, c := range b.Cards {
			cards[i] = c.String()
		}
		if len(cards) == 0 {
			text = fmt.Sprintf("The %s is no longer stacked.", deckWords(string(b.Deck)))
		} else {
			text = fmt.Sprintf("The next %s stacked: %s.", deckCards(string(b.Deck), len(cards)), strings.Join(cards, " "))
		}
	case Loaded:
		rolls := make([]string, len(b.Rolls))
		for i, r := range b.Rolls {
			rolls[i] = fmt.Sprint(r)
		}
		if len(rolls) == 0 {
			text = fmt.Sprintf("The %s is no longer loaded.", b.Die)
		} else {
			text = fmt.Sprintf("The next %s rolls are loaded: %s.", b.Die, strings.Join(rolls, " "))
		}
	default:
		return nil, false
	}
	return []Message{{Text: text}}, true
}

// JoinAnd writes a list for a sentence: "A", "A and B", "A, B and C".
func JoinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// deckWords names a deck for the table: "the combat deck"; a deck named
// "cards" is "the deck" (not "the cards deck").
func deckWords(deck string) string {
	if deck == "cards" || deck == "" {
		return "deck"
	}
	return deck + " deck"
}

// deckCards names n cards of a deck: "combat cards are", "card is" for
// one of a deck named "cards" (not "cards cards").
func deckCards(deck string, n int) string {
	words := "cards are"
	if n == 1 {
		words = "card is"
	}
	if deck == "cards" || deck == "" {
		return words
	}
	return deck + " " + words
}
