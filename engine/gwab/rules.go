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
type Rules struct{ *engine.Rulebook[*State] }

// New returns the GWAB rule system.
func New() Rules { return Rules{book} }

var _ engine.Ruleset = Rules{}

// book is GWAB's rulebook: its decks, its events, and every command.
// Each mechanic's file contributes its own commands and events.
var book = &engine.Rulebook[*State]{
	Key:       "gwab",
	Name:      "Gang Warfare in the Age of Bronze",
	DeckSpecs: []engine.DeckSpec{{Name: SequenceDeck, Ranking: cardOrder}, {Name: CombatDeck, Jokers: true, Ranking: cardOrder}},
	Version:   3, // 3: an element's dropped armor is a flag and a place, not a pointer
	Blank:     func() *State { return &State{} },
	Bodies:    engine.MergeBodies(setupBodies, scenarioBodies, meleeBodies, fireBodies, lootBodies, challengeBodies, divineBodies, jokerBodies, chariotBodies, terrainBodies, enlistBodies, setupCommandBodies, rulingBodies, successionBodies, withdrawBodies, duelStepBodies),
	CommandRules: slices.Concat(bookCommands, turnCommands, chariotCommands, fireCommands, lootCommands, meleeCommands,
		challengeCommands, divineCommands, jokerCommands, undoCommands, enlistCommands, infoCommands, setupCommands, rulingCommands, successionCommands),
	DirectiveRules: directives,
	Scenarios:      scenarios,
	SetUp:          setUp,
	Ended: func(s *State) error {
		if s.Phase == Ended {
			return engine.Refuse("6.2", "This book has ended.")
		}
		return nil
	},
}

// command is one command players give, with the rule that runs it.
type command = engine.Rule[*State]

var bookCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a book in this channel; you keep it as its game master.", Flags: engine.Opens, Options: append([]engine.OptionSpec{
		{Name: "mode", Help: "battle, raid or practice; left out, it follows the number of players at /book start", Choices: []string{"battle", "raid", "practice"}},
		{Name: "terrain", Help: "on to play with terrain, laid with #terrain (13.1)", Choices: []string{"on", "off"}},
		{Name: "javelins", Help: "the javelins a chariot carries, 3 or 4 recommended (13.2); left out or 0, no limit", Kind: engine.OptInt},
	}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "clan raise", Help: "Raise a clan: a Hero, two Companions, a chariot and 3 or 4 warbands (2.3).", Example: "/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin", Options: append([]engine.OptionSpec{
		{Name: "name", Help: "the clan's name", Required: true},
		{Name: "hero", Help: "the Hero's name; in a saga, left out for the clan's Hero of the saga"},
		{Name: "side", Help: "protagonist or antagonist", Required: true, Choices: []string{"protagonist", "antagonist"}},
		{Name: "warbands", Help: "3 or 4 of spear, sword, javelin, sling, bow, comma-separated", Required: true},
		{Name: "companions", Help: "the two Companions' names, comma-separated"},
		{Name: "tag", Help: "a 2 to 4 letter code for the clan's element names"},
		{Name: "armed", Help: "which of the Hero and Companions carry javelins on foot: hero, c1, c2 or all, comma-separated (9.1)"},
	}, engine.BotSetUpOptions...)}, Run: raiseClan},
	{CommandSpec: engine.CommandSpec{Name: "book start", Help: "Deploy every clan in its huddle and deal the first round (7, 6.1). Game master only.", Flags: engine.MasterOnly}, Run: startBook},
	{CommandSpec: engine.CommandSpec{Name: "book end", Help: "End the book now, by consent (6.2). Game master only.", Flags: engine.MasterOnly, Options: []engine.OptionSpec{
		{Name: "reason", Help: "why the book ends"},
	}}, Run: endBook},
}

var infoCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The round, whose turn it is, and every clan's elements.", Flags: engine.Private | engine.Reads},
		Run: func(tx *engine.Tx, s *State, c engine.Command) error {
			tx.Say(engine.Message{To: c.Actor, Text: status(s)})
			return nil
		}},
}

var turnCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move one element of your clan (8).", Example: "/move element:ACH-W1 to:30,22 facing:N", Options: []engine.OptionSpec{
		{Name: "element", Help: "the element to move", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "where its front centre ends, as x,y in strides", Kind: engine.OptPoint},
		{Name: "toward", Help: "an element to move toward", Kind: engine.OptElement},
		{Name: "strides", Help: "how far to move toward it (default: as far as allowed)", Kind: engine.OptInt},
		{Name: "facing", Help: "the facing at the end: N, NE, E… or degrees"},
	}}, Run: move},
	{CommandSpec: engine.CommandSpec{Name: "aloof", Help: "Stand aloof: your clan passes this round (6.1)."}, Run: standAloof},
}

// directives are the scenario directives of this rule system.
var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place ELEMENT x,y [facing]: put an element's front centre at x,y"}, Run: place},
	{CommandSpec: engine.CommandSpec{Name: "honor", Help: "#honor HERO N: set a Hero's honor points"}, Run: setHonor},
	{CommandSpec: engine.CommandSpec{Name: "wound", Help: "#wound ELEMENT [N]: deal an element N wounds (1 when left out)"}, Run: setWounds},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND x,y x,y… [name]: lay rough ground, an obstacle or a stream (13.1; the book opened with terrain:on)"}, Run: layTerrain},
}
