package gwab

import (
	"encoding/json"
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

// Rules is the GWAB rule system.
type Rules struct{}

var _ engine.Ruleset = Rules{}

func (Rules) ID() string    { return "gwab" }
func (Rules) Title() string { return "Gang Warfare in the Age of Bronze" }

func (Rules) Decks() []engine.DeckSpec {
	return []engine.DeckSpec{
		{Name: SequenceDeck, Ranking: cardOrder},
		{Name: CombatDeck, Jokers: true, Ranking: cardOrder},
	}
}

func (Rules) NewState() engine.State { return &State{} }

func (Rules) StateVersion() int { return 2 }

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

// bodies decodes every event of the book. Each mechanic's file
// contributes its own.
var bodies = engine.MergeBodies(setupBodies, scenarioBodies, meleeBodies, fireBodies, lootBodies, challengeBodies, divineBodies, jokerBodies, chariotBodies, terrainBodies, enlistBodies)

// command is one command players give, with the rule that runs it.
type command struct {
	engine.CommandSpec
	run func(tx *engine.Tx, s *State, c engine.Command) error
}

// commandTable is every command, in the order /help lists them. Each
// mechanic's file contributes its own.
var commandTable = slices.Concat(bookCommands, turnCommands, chariotCommands, fireCommands, lootCommands, meleeCommands, challengeCommands, divineCommands, jokerCommands, undoCommands, enlistCommands, infoCommands)

// Commands lists what players can do in a book.
func (Rules) Commands() []engine.CommandSpec {
	specs := make([]engine.CommandSpec, len(commandTable))
	for i, c := range commandTable {
		specs[i] = c.CommandSpec
	}
	return specs
}

var bookCommands = []command{
	{engine.CommandSpec{Name: "book open", Help: "Open a book in this channel; you keep it as its game master.", Options: []engine.OptionSpec{
		{Name: "mode", Help: "battle, raid or practice; left out, it follows the number of players at /book start", Choices: []string{"battle", "raid", "practice"}},
		{Name: "rules", Help: "the rule system (default gwab)"},
		{Name: "terrain", Help: "on to play with terrain, laid with #terrain (13.1)", Choices: []string{"on", "off"}},
		{Name: "javelins", Help: "the javelins a chariot carries, 3 or 4 recommended (13.2); left out or 0, no limit", Kind: engine.OptInt},
	}}, openBook},
	{engine.CommandSpec{Name: "clan raise", Help: "Raise a clan: a Hero, two Companions, a chariot and 3 or 4 warbands (2.3).", Options: []engine.OptionSpec{
		{Name: "name", Help: "the clan's name", Required: true},
		{Name: "hero", Help: "the Hero's name; in a saga, left out for the clan's Hero of the saga"},
		{Name: "side", Help: "protagonist or antagonist", Required: true, Choices: []string{"protagonist", "antagonist"}},
		{Name: "warbands", Help: "3 or 4 of spear, sword, javelin, sling, bow, comma-separated", Required: true},
		{Name: "companions", Help: "the two Companions' names, comma-separated"},
		{Name: "tag", Help: "a 2 to 4 letter code for the clan's element names"},
		{Name: "armed", Help: "which of the Hero and Companions carry javelins on foot: hero, c1, c2 or all, comma-separated (9.1)"},
	}}, raiseClan},
	{engine.CommandSpec{Name: "book start", Help: "Deploy every clan in its huddle and deal the first round (7, 6.1). Game master only."}, startBook},
	{engine.CommandSpec{Name: "book end", Help: "End the book now, by consent (6.2). Game master only.", Options: []engine.OptionSpec{
		{Name: "reason", Help: "why the book ends"},
	}}, endBook},
}

var infoCommands = []command{
	{engine.CommandSpec{Name: "status", Help: "The round, whose turn it is, and every clan's elements."},
		func(tx *engine.Tx, s *State, c engine.Command) error {
			tx.Say(engine.Message{To: c.Actor, Text: status(s)})
			return nil
		}},
}

var turnCommands = []command{
	{engine.CommandSpec{Name: "move", Help: "Move one element of your clan (8).", Options: []engine.OptionSpec{
		{Name: "element", Help: "the element to move", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "where its front centre ends, as x,y in strides", Kind: engine.OptPoint},
		{Name: "toward", Help: "an element to move toward", Kind: engine.OptElement},
		{Name: "strides", Help: "how far to move toward it (default: as far as allowed)", Kind: engine.OptInt},
		{Name: "facing", Help: "the facing at the end: N, NE, E… or degrees"},
	}}, move},
	{engine.CommandSpec{Name: "aloof", Help: "Stand aloof: your clan passes this round (6.1)."}, standAloof},
}

// directives are the scenario directives of this rule system.
var directives = []command{
	{engine.CommandSpec{Name: "place", Help: "#place ELEMENT x,y [facing]: put an element's front centre at x,y"}, place},
	{engine.CommandSpec{Name: "honor", Help: "#honor HERO N: set a Hero's honor points"}, setHonor},
	{engine.CommandSpec{Name: "wound", Help: "#wound ELEMENT [N]: deal an element N wounds (1 when left out)"}, setWounds},
	{engine.CommandSpec{Name: "terrain", Help: "#terrain KIND x,y x,y… [name]: lay rough ground, an obstacle or a stream (13.1; the book opened with terrain:on)"}, layTerrain},
}

var _ engine.Directiver = Rules{}

// Directives lists this rule system's scenario directives.
func (Rules) Directives() []engine.CommandSpec {
	specs := make([]engine.CommandSpec, len(directives))
	for i, d := range directives {
		specs[i] = d.CommandSpec
	}
	return specs
}

// Decide turns a command into events.
func (r Rules) Decide(tx *engine.Tx, c engine.Command) error {
	s := tx.State().(*State)
	if c.Directive {
		for _, d := range directives {
			if d.Name == c.Name {
				return d.run(tx, s, c)
			}
		}
		return engine.Refuse("", "Unknown directive #%s; /help lists the directives.", c.Name)
	}
	if s.Phase == Ended && c.Name != "status" {
		return engine.Refuse("6.2", "This book has ended.")
	}
	for _, cmd := range commandTable {
		if cmd.Name == c.Name {
			return cmd.run(tx, s, c)
		}
	}
	return engine.Refuse("", "There is no /%s command; /help lists them.", c.Name)
}
