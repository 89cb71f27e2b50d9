package goliath

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is Goliath: its rulebook, and what the game adds to it
// (pictures, turns, completions).
type Rules struct {
	*engine.Rulebook[*State]
	engine.Drawing[*State]
	engine.Strategy[*State]
	engine.Tape[*State]
}

// New returns Goliath as a rule system.
func New() Rules {
	return Rules{book, view, engine.Strategy[*State]{Propose: candidates, Assess: evaluate, Redraw: conceal, Blend: blend, Divide: orderParts}, measure}
}

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
	CommandRules: settled(slices.Concat(openCommands, moveCommands, fireCommands, magicCommands, orderCommands, turnCommands,
		setupCommands, rulingCommands)),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended:          func(s *State) error { return engine.Refuse("", "This battle has ended: %s", s.Result) },
	Referee:        func(s *State) engine.PlayerID { return s.Master },
	MasterTitle:    "referee",
	Waits:          awaited,
	Completions:    complete,
	Undo:           "rolled no die",
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]

// settled makes every command that changes the game, in Method 1's
// movement and missile phases, end the battle as soon as a side has no
// unit left on the table (RULINGS.md, goliath, "victory"): a charger
// shot down on its way, or a volley that takes a side's last figures,
// does not leave the game waiting on a side that has nothing to move.
// The end of a turn and the carrying out of written orders ask the same
// (verdict) themselves.
func settled(rules []command) []command {
	for i := range rules {
		run := rules[i].Run
		if run == nil || rules[i].Is(engine.Reads) {
			continue
		}
		rules[i].Run = func(tx *engine.Tx, s *State, c engine.Command) error {
			if err := run(tx, s, c); err != nil {
				return err
			}
			if s.Stage != Moving && s.Stage != Missile {
				return nil
			}
			_, err := s.verdict(tx, false)
			return err
		}
	}
	return rules
}
