package goliath

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is Goliath: its rulebook, and what the game adds to it
// (pictures, turns, completions).
type Rules struct{ *engine.Rulebook[*State] }

// New returns Goliath as a rule system.
func New() Rules { return Rules{book} }

var (
	_ engine.Ruleset    = Rules{}
	_ engine.Directiver = Rules{}
)

// book is the game's rulebook. Each mechanic's file contributes its own
// commands and events.
var book = &engine.Rulebook[*State]{
	Key:     "goliath",
	Name:    "Goliath, Guidelines for War Games (krusader74, version 0.6)",
	Version: 1,
	Blank:   func() *State { return &State{} },
	Bodies:  engine.MergeBodies(setupBodies, turnBodies, moveBodies, fireBodies, meleeBodies, moraleBodies, magicBodies, orderBodies, rulingBodies),
	CommandRules: slices.Concat(openCommands, moveCommands, fireCommands, magicCommands, orderCommands, turnCommands,
		undoCommands, setupCommands, rulingCommands),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended: func(s *State) error {
		if s.Stage == Over {
			return engine.Refuse("", "This battle has ended: %s", s.Result)
		}
		return nil
	},
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]

// Taking back a step (/undo) is the engine's: it keeps the game as it
// stood before its last step, unless that step rolled a die.
var undoCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "undo", Help: "Take back the last step, if it rolled no die. Referee only.", Flags: engine.TakesBack | engine.MasterOnly}, Run: nil},
}
