package gwab

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// The two decks of 2.1: one without jokers for the sequence of play, one
// with jokers for combat and divine intervention.
const (
	SequenceDeck engine.DeckName = "sequence"
	CombatDeck   engine.DeckName = "combat"
)

// cardOrder is the fixed ruling on card order: Ace high, and suits Spades,
// Hearts, Clubs, Diamonds from highest to lowest.
var cardOrder = engine.Ranking{Suits: [4]engine.Suit{engine.Spades, engine.Hearts, engine.Clubs, engine.Diamonds}}

// Rules is the GWAB rule system: its rulebook, and what GWAB adds to it
// (pictures, turns, completions, the saga).
type Rules struct {
	*engine.Rulebook[*State]
	engine.Drawing[*State]
	engine.Strategy[*State]
	engine.Tape[*State]
}

// New returns the GWAB rule system.
func New() Rules {
	return Rules{book, view, engine.Strategy[*State]{Propose: candidates, Listed: listCandidates, Assess: evaluate, Redraw: nil}, measure}
}

var _ engine.Ruleset = Rules{}

// book is GWAB's rulebook: its decks, its events, and every command.
// Each mechanic's file contributes its own commands and events.
var book = &engine.Rulebook[*State]{
	Key:       "gwab",
	Name:      "Gang Warfare in the Age of Bronze",
	DeckSpecs: []engine.DeckSpec{{Name: SequenceDeck, Ranking: cardOrder, Shuffled: true}, {Name: CombatDeck, Jokers: true, Ranking: cardOrder}},
	Version:   3, // 3: an element's dropped armor is a flag and a place, not a pointer
	Blank:     func() *State { return &State{} },
	Bodies:    engine.MergeBodies(setupBodies, scenarioBodies, meleeBodies, fireBodies, lootBodies, challengeBodies, divineBodies, jokerBodies, chariotBodies, terrainBodies, enlistBodies, setupCommandBodies, rulingBodies, successionBodies, withdrawBodies, duelStepBodies),
	CommandRules: slices.Concat(bookCommands, turnCommands, chariotCommands, fireCommands, lootCommands, meleeCommands,
		challengeCommands, divineCommands, jokerCommands, enlistCommands, infoCommands, setupCommands, rulingCommands, successionCommands),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended:          func(*State) error { return engine.Refuse("6.2", "This book has ended.") },
	Referee:        func(s *State) engine.PlayerID { return s.Master },
	Waits:          awaited,
	Completions:    complete,
	Undo:           "dealt no card",
	AfterUndo:      sayNext,
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]
