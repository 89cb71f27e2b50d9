package engine

import (
	"encoding/json"
	"fmt"
	"maps"
)

// PlayerID identifies a player: a Discord user ID, or a name at the local table.
type PlayerID string

// Seq is an event's position in its game's log, counting from 1.
type Seq int64

// Body is what an event says happened. Each rule system defines its own
// bodies; Kind names the body's type in the log ("gwab.clan-raised").
type Body interface {
	Kind() string
}

// Draw is one card dealt from a deck or one die rolled.
type Draw struct {
	Deck DeckName `json:"deck,omitempty"`
	Card Card     `json:"card,omitempty"`
	Die  Die      `json:"die,omitempty"`
	Roll int      `json:"roll,omitempty"`
	// Table marks a card or die entered by the players at the table
	// rather than drawn by the bot (tabledraws.go).
	Table bool `json:"table,omitempty"`
}

// String writes the draw as "combat:KS" or "d6:4".
func (d Draw) String() string {
	if d.Die != NoDie {
		return fmt.Sprintf("%s:%d", d.Die, d.Roll)
	}
	return fmt.Sprintf("%s:%s", d.Deck, d.Card)
}

// Event is one recorded fact of a game. Draws are the cards and dice the
// event used, in the order they were drawn; Discards are the cards it
// returned to their decks' discard piles. Step marks the first event of a
// command: the events from one Step to the next are what one command did.
type Event struct {
	Seq      Seq
	Actor    PlayerID
	Step     bool
	Draws    []Draw
	Discards []Draw
	Body     Body
}

// Record is an event as it is stored and exported: the envelope in plain
// fields and the body as JSON.
type Record struct {
	Seq      Seq             `json:"seq"`
	Kind     string          `json:"kind"`
	Actor    PlayerID        `json:"actor,omitempty"`
	Step     bool            `json:"step,omitempty"`
	Draws    []Draw          `json:"draws,omitempty"`
	Discards []Draw          `json:"discards,omitempty"`
	Payload  json.RawMessage `json:"payload"`
}

// Record encodes e for storage.
func (e Event) Record() (Record, error) {
	p, err := json.Marshal(e.Body)
	if err != nil {
		return Record{}, fmt.Errorf("engine: encode %s event %d: %w", e.Body.Kind(), e.Seq, err)
	}
	return Record{Seq: e.Seq, Kind: e.Body.Kind(), Actor: e.Actor, Step: e.Step, Draws: e.Draws, Discards: e.Discards, Payload: p}, nil
}

// DecodeRecord turns a stored record back into an event, using r to decode
// the bodies of its rule system.
func DecodeRecord(r Ruleset, rec Record) (Event, error) {
	var body Body
	var err error
	if _, ok := tableBodies[rec.Kind]; ok {
		body, err = tableBodies.Decode(rec.Kind, rec.Payload)
	} else {
		body, err = r.DecodeBody(rec.Kind, rec.Payload)
	}
	if err != nil {
		return Event{}, fmt.Errorf("engine: decode %s event %d: %w", rec.Kind, rec.Seq, err)
	}
	for _, d := range append(append([]Draw(nil), rec.Draws...), rec.Discards...) {
		if (d.Die == NoDie) == (d.Deck == "") || (d.Die == NoDie && !d.Card.Valid()) {
			return Event{}, fmt.Errorf("engine: decode %s event %d: malformed draw %v", rec.Kind, rec.Seq, d)
		}
	}
	return Event{Seq: rec.Seq, Actor: rec.Actor, Step: rec.Step, Draws: rec.Draws, Discards: rec.Discards, Body: body}, nil
}

// BodyTypes maps each kind of event body to its decoder, for
// [Ruleset.DecodeBody].
type BodyTypes map[string]func(data []byte) (Body, error)

// MergeBodies gathers several sets of body types into one: a rule system
// whose mechanics each bring their own events decodes them all.
func MergeBodies(sets ...BodyTypes) BodyTypes {
	all := BodyTypes{}
	for _, set := range sets {
		maps.Copy(all, set)
	}
	return all
}

// Decode reads the body of an event of the given kind.
func (t BodyTypes) Decode(kind string, data []byte) (Body, error) {
	dec, ok := t[kind]
	if !ok {
		return nil, fmt.Errorf("unknown event kind %q", kind)
	}
	return dec(data)
}

// Decoder returns a decoder of bodies of type T, which decodes to a T
// value (not a pointer), as the rule system emits them.
func Decoder[T Body]() func([]byte) (Body, error) {
	return func(data []byte) (Body, error) {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		return v, nil
	}
}
