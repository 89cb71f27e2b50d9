package sweet

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is the de Gre / Sweet ancient grid game: its rulebook, and what
// the grid game adds to it (pictures, turns, completions, the tape).
type Rules struct {
	*engine.Rulebook[*State]
	engine.Drawing[*State]
	engine.Strategy[*State]
	engine.Tape[*State]
}

// New returns the grid game's rule system.
func New() Rules {
	return Rules{book, view, engine.Strategy[*State]{Propose: candidates, Assess: evaluate, Redraw: conceal, Blend: blend, Steps: 2}, measure}
}

var (
	_ engine.Ruleset    = Rules{}
	_ engine.Directiver = Rules{}
)

// book is the grid game's rulebook; it plays with dice only. Each
// mechanic's file contributes its own commands and events.
var book = &engine.Rulebook[*State]{
	Key:            "sweet",
	Name:           "Rules for an Ancient Wargame (de Gre, as modified by the Sweets)",
	Version:        4,
	Blank:          func() *State { return &State{} },
	Bodies:         engine.MergeBodies(setupBodies, turnBodies, fireBodies, moveBodies, detachBodies, meleeBodies, rulingBodies),
	CommandRules:   slices.Concat(openCommands, fireCommands, moveCommands, detachCommands, meleeCommands, turnCommands, setupCommands, rulingCommands),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended:          func(s *State) error { return engine.Refuse("Morale 4", "This game has ended: %s", s.Result) },
	Referee:        func(s *State) engine.PlayerID { return s.Master },
	Waits:          awaited,
	Completions:    complete,
	Undo:           "rolled no die and laid no secret choice",
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]
