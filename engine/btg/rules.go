package btg

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is By the Gods!: its rulebook, and what the game adds to it
// (pictures, turns, completions).
type Rules struct {
	*engine.Rulebook[*State]
	engine.Drawing[*State]
	engine.Strategy[*State]
	engine.Tape[*State]
}

// New returns By the Gods! as a rule system.
func New() Rules {
	return Rules{book, view, engine.Strategy[*State]{Propose: candidates, Assess: evaluate, Blend: blend, Hard: hardSearch}, measure}
}

var (
	_ engine.Ruleset    = Rules{}
	_ engine.Directiver = Rules{}
)

// Deck is the activation deck (§1.A): 52 cards, no jokers.
const Deck engine.DeckName = "cards"

// book is the game's rulebook. Each mechanic's file contributes its own
// commands and events.
var book = &engine.Rulebook[*State]{
	Key:            "btg",
	Name:           "By the Gods! (Sean Pitts, version 2.5)",
	Version:        1,
	DeckSpecs:      []engine.DeckSpec{{Name: Deck}},
	Blank:          func() *State { return &State{} },
	Bodies:         engine.MergeBodies(setupBodies, turnBodies, moveBodies, fireBodies, combatBodies, eventBodies, rulingBodies),
	CommandRules:   slices.Concat(openCommands, moveCommands, fireCommands, turnCommands, setupCommands, rulingCommands),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended:          func(s *State) error { return engine.Refuse("", "This battle has ended: %s", s.Result) },
	Referee:        func(s *State) engine.PlayerID { return s.Master },
	Waits:          awaited,
	Completions:    complete,
	Undo:           "drew no card and rolled no die",
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]
