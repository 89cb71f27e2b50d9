package btg

import "github.com/rhapsode/rhapsode/engine"

// Side is the colour of an army in the activation deck (§1.A): one side is
// black, the other red. The first army raised is black (RULINGS.md, btg).
type Side int

// The two sides.
const (
	BlackSide Side = iota
	RedSide
)

func (s Side) String() string {
	if s == RedSide {
		return "red"
	}
	return "black"
}

// CardSide is the colour of a card: clubs and spades are black, diamonds and
// hearts red.
func CardSide(c engine.Card) Side {
	if c.Suit() == engine.Diamonds || c.Suit() == engine.Hearts {
		return RedSide
	}
	return BlackSide
}

// Activation is what a card drawn in the movement phase does (§1.A).
type Activation struct {
	Side    Side
	Units   int  // units the side may move: half the number, rounded up
	Leaders bool // a black face card or black Ace: unattached leaders move
	Event   bool // a red face card or red Ace: a random event (§6)
	// Category of the event when Event is set.
	Category EventCategory
}

// Activate reads a movement card. A number card moves ⌈n/2⌉ of its colour's
// units; a black Jack, Queen, King or Ace moves unattached leaders; a red
// one draws an event of the category its rank names (§6). Jokers are not in
// the deck (RULINGS.md, btg), so a joker reads as nothing.
func Activate(c engine.Card) Activation {
	if c.IsJoker() || !c.Valid() {
		return Activation{}
	}
	side := CardSide(c)
	r := c.Rank()
	if r >= engine.Jack {
		if side == BlackSide {
			return Activation{Side: side, Leaders: true}
		}
		return Activation{Side: side, Event: true, Category: categoryOf(r)}
	}
	return Activation{Side: side, Units: (int(r) + 1) / 2}
}

// EventCategory is one of the four groups of seven events (§6).
type EventCategory int

// Categories by the rank of the red card: Ace Mystical, King Character,
// Queen Animal, Jack Other.
const (
	Mystical EventCategory = iota
	Character
	Animal
	Other
)

func categoryOf(r engine.Rank) EventCategory {
	switch r {
	case engine.Ace:
		return Mystical
	case engine.King:
		return Character
	case engine.Queen:
		return Animal
	}
	return Other
}

var eventNames = [4][7]string{
	Mystical:  {"Ferocity", "Armor", "Holy Man", "Baptism", "Holy Lightning", "Prayer", "Speed"},
	Character: {"Bloodthirstiness", "Diplomat", "Doctor", "Marksmen", "Traitors", "Laziness", "Insubordination"},
	Animal:    {"Alligators", "Attack!", "Stupid!", "Lookee Here", "Elephants!", "Vultures", "Lost and Found"},
	Other:     {"Peasant Levies", "Reinforcements", "Rivals", "Sinking Feeling", "Treasure", "Stockpile", "Hidden for a Reason"},
}

// EventName names an event: the category and its number 1 to 7.
func EventName(cat EventCategory, n int) string { return eventNames[cat][n-1] }

// EventCard reads a card drawn to pick the event (§6): its colour is the
// side that gets it, and a number card 2 to 8 is event 1 to 7. Face cards,
// Aces, 9s and 10s are passed over and the drawing goes on (RULINGS.md, btg).
func EventCard(c engine.Card) (side Side, n int, ok bool) {
	if c.IsJoker() || !c.Valid() {
		return 0, 0, false
	}
	r := int(c.Rank())
	if r < 2 || r > 8 {
		return 0, 0, false
	}
	return CardSide(c), r - 1, true
}
