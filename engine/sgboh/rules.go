package sgboh

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is Simple GBoH: its rulebook, and what the game adds to it
// (pictures, whom it waits for, completions).
type Rules struct {
	*engine.Rulebook[*State]
	engine.Drawing[*State]
	engine.Strategy[*State]
	engine.Tape[*State]
}

// New returns Simple GBoH as a rule system.
func New() Rules {
	return Rules{book, view, engine.Strategy[*State]{Propose: candidates, Assess: evaluate, Redraw: nil, Easy: easySearch, Hard: hardSearch}, measure}
}

var (
	_ engine.Ruleset    = Rules{}
	_ engine.Directiver = Rules{}
)

var book = &engine.Rulebook[*State]{
	Key:     "sgboh",
	Name:    "Simple Great Battles of History (Alexander)",
	Version: 1,
	Blank:   func() *State { return &State{} },
	Bodies:  engine.MergeBodies(setupBodies, playBodies, rulingBodies),
	CommandRules: slices.Concat(openCommands, playCommands, moveCommands, fireCommands, shockCommands,
		setupCommands, rulingCommands),
	SetUp:       setUp,
	Scenarios:   engineScenarios(),
	Ended:       func(s *State) error { return engine.Refuse("", "This battle has ended: %s", s.Result) },
	Referee:     func(s *State) engine.PlayerID { return s.Master },
	Waits:       awaited,
	Completions: complete,
	Undo:        "rolled no die",
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]
