package engine

import "encoding/json"

// Ruleset is one rule system: the commands it understands, the decks it
// plays with, how commands become events, and how events read to players.
type Ruleset interface {
	// ID is the short name a game records ("gwab").
	ID() string
	// Title is the rule system's full name.
	Title() string
	// Decks lists the decks a game of these rules plays with.
	Decks() []DeckSpec
	// Commands lists the commands players may give, for help and for
	// transports that declare commands up front.
	Commands() []CommandSpec
	// NewState returns the state of a game before its first event.
	NewState() State
	// DecodeState reads a state written by json.Marshal, for snapshots.
	DecodeState(data []byte) (State, error)
	// StateVersion changes whenever the encoding of State changes, so that
	// old snapshots are ignored rather than misread.
	StateVersion() int
	// DecodeBody reads the body of an event of this rule system.
	DecodeBody(kind string, data []byte) (Body, error)
	// Decide validates c against tx's state and emits its events through
	// tx. A refused command returns a [Refusal] and must emit nothing that
	// the caller keeps: the whole transaction is then discarded.
	Decide(tx *Tx, c Command) error
	// Narrate says what an event means to the table, in game terms. It
	// reads only the event, so that old events read the same later.
	Narrate(e Event) []Message
}

// Directiver is implemented by rule systems that understand scenario
// directives of their own, beyond the table's #seed, #stack and #load.
type Directiver interface {
	// Directives describes them; Name is the directive without its "#",
	// and Help shows how it is written.
	Directives() []CommandSpec
}

// State is a rule system's game state. The engine gives each State to one
// owner at a time: Apply may change it in place, and Clone returns an
// independent copy.
type State interface {
	Apply(e Event) error
	Clone() State
	// Over reports whether the game has ended.
	Over() bool
}

// Message is a line of text for the table, or, when To is set, for one
// player alone.
type Message struct {
	To   PlayerID `json:"to,omitempty"`
	Text string   `json:"text"`
	// Buttons are choices offered with the message, for transports that
	// can show them; the text must still say how to make each choice by
	// command, for those that cannot.
	Buttons []Button `json:"buttons,omitempty"`
}

// Button is a choice offered to one player: pressing it gives Command as
// the player who pressed it. For is the only player who may press it ("" for
// anyone at the table).
type Button struct {
	Label   string   `json:"label"`
	For     PlayerID `json:"for,omitempty"`
	Command Command  `json:"command"`
}

// Private reports whether m is for one player alone.
func (m Message) Private() bool { return m.To != "" }

// snapshot is a game as stored in a snapshot.
type snapshot struct {
	Seq   Seq               `json:"seq"`
	Table Table             `json:"table"`
	State json.RawMessage   `json:"state"`
	Undo  *storedCheckpoint `json:"undo,omitempty"`
}
