package sweet

import (
	"encoding/json"
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Rules is the de Gre / Sweet ancient grid game.
type Rules struct{}

var (
	_ engine.Ruleset    = Rules{}
	_ engine.Directiver = Rules{}
)

func (Rules) ID() string { return "sweet" }
func (Rules) Title() string {
	return "Rules for an Ancient Wargame (de Gre, as modified by the Sweets)"
}

// Decks: the game plays with dice only.
func (Rules) Decks() []engine.DeckSpec { return nil }

func (Rules) NewState() engine.State { return &State{} }

func (Rules) StateVersion() int { return 3 }

func (Rules) DecodeState(data []byte) (engine.State, error) {
	s := &State{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (Rules) DecodeBody(kind string, data []byte) (engine.Body, error) {
	return bodies.Decode(kind, data)
}

// bodies decodes every event of a game; each mechanic's file contributes
// its own.
var bodies = engine.MergeBodies(setupBodies, turnBodies, fireBodies, moveBodies, meleeBodies)

// command is one command players give, with the rule that runs it.
type command struct {
	engine.CommandSpec
	run func(tx *engine.Tx, s *State, c engine.Command) error
}

// commandTable is every command, in the order /help lists them.
var commandTable = slices.Concat(setupCommands, fireCommands, moveCommands, meleeCommands, turnCommands, undoCommands)

// Commands lists what players can do.
func (Rules) Commands() []engine.CommandSpec {
	specs := make([]engine.CommandSpec, len(commandTable))
	for i, c := range commandTable {
		specs[i] = c.CommandSpec
	}
	return specs
}

// Directives lists the scenario directives.
func (Rules) Directives() []engine.CommandSpec {
	specs := make([]engine.CommandSpec, len(directives))
	for i, d := range directives {
		specs[i] = d.CommandSpec
	}
	return specs
}

// Decide turns a command into events.
func (Rules) Decide(tx *engine.Tx, c engine.Command) error {
	s := tx.State().(*State)
	if c.Directive {
		for _, d := range directives {
			if d.Name == c.Name {
				return d.run(tx, s, c)
			}
		}
		return engine.Refuse("", "Unknown directive #%s; /help lists the directives.", c.Name)
	}
	if s.Stage == Over && c.Name != "status" {
		return engine.Refuse("Morale 4", "This game has ended: %s", s.Result)
	}
	for _, cmd := range commandTable {
		if cmd.Name == c.Name {
			return cmd.run(tx, s, c)
		}
	}
	return engine.Refuse("", "There is no /%s command in this game; /help lists them.", c.Name)
}
