package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Game is one game of one rule system: the fold of its events so far.
type Game struct {
	Rules Ruleset
	Seq   Seq // the last event applied
	Table Table
	State State

	// undoable is set when the rules let steps be taken back, and undo is
	// then the game as it stood before its last step (undo.go).
	undoable bool
	undo     *checkpoint
	// handedOver is set on the copy of a game that [Game.Advance] decides
	// on: its state is the caller's no longer, so the state before the
	// step may be kept as it is rather than copied.
	handedOver bool
}

// NewGame returns a game of r before its first event.
func NewGame(r Ruleset) *Game {
	return &Game{Rules: r, Table: newTable(r.Decks()), State: r.NewState(), undoable: undoable(r)}
}

// Open returns the first event of a new game, which records its seed.
func (g *Game) Open(actor PlayerID, seed uint64) Event {
	return Event{Seq: g.Seq + 1, Actor: actor, Step: true, Body: Opened{Ruleset: g.Rules.ID(), Seed: seed}}
}

// Apply folds e into the game. Events must come in sequence.
func (g *Game) Apply(e Event) error {
	if e.Seq != g.Seq+1 {
		return fmt.Errorf("engine: event %d applied to a game at %d", e.Seq, g.Seq)
	}
	g.mark(e, false)
	if err := g.Table.applyDraws(e.Draws); err != nil {
		return err
	}
	return g.fold(e)
}

// fold applies e, whose draws are already taken from the table.
func (g *Game) fold(e Event) error {
	if err := g.Table.applyDiscards(e.Discards); err != nil {
		return err
	}
	handled, err := g.Table.applyTable(e.Body)
	if err != nil {
		return err
	}
	if _, ok := e.Body.(Undone); ok {
		handled, err = true, g.takeBack()
		if err != nil {
			return err
		}
	}
	if b, ok := e.Body.(SeatHanded); ok {
		handled = true
		if err := g.applySeat(b); err != nil {
			return err
		}
	}
	if !handled {
		if err := g.State.Apply(e); err != nil {
			return fmt.Errorf("engine: apply %s event %d: %w", e.Body.Kind(), e.Seq, err)
		}
	}
	g.Seq = e.Seq
	return nil
}

// Clone returns an independent copy of g.
func (g *Game) Clone() *Game {
	return &Game{Rules: g.Rules, Seq: g.Seq, Table: g.Table.clone(), State: g.State.Clone(), undoable: g.undoable, undo: g.undo}
}

// Result is what a command came to: the events to record and the messages
// for the table and for single players.
type Result struct {
	Events   []Event
	Messages []Message
	// After is the game with Events applied: the transaction's working
	// copy, which the caller may keep once the events are recorded rather
	// than copy the game and apply them again.
	After *Game
}

// Decide turns c into events without changing g. Table directives
// (#seed, #stack, #load) are handled here; everything else goes to the
// rule system. A command the rules do not allow returns a [Refusal].
func (g *Game) Decide(c Command) (Result, error) {
	var spec CommandSpec
	if !c.Directive {
		spec, _ = g.Spec(c.Name)
		if ts, ok := tableSpec(c.Name); ok && spec.Name == "" && (g.Table.FromTable || ts.Name == diceSpec.Name) {
			if err := ts.Check(c); err != nil {
				return Result{}, err
			}
			return g.decideTableCommand(c)
		}
		if spec.Is(Opens) && c.Has(DiceOption.Name) {
			return g.decideOpening(c)
		}
		if a := g.Table.Asked; a != nil && !spec.Is(Reads) && !spec.Is(TakesBack) {
			return Result{}, Refuse("", "Waiting for the table: %s (for %s). Nothing else goes on until it is entered; /undo takes the command back.", a.open(), a.Command)
		}
	}
	if !c.Directive {
		if err := spec.Check(c); spec.Name != "" && err != nil {
			return Result{}, err
		}
	}
	if g.Table.FromTable && !c.Directive {
		return g.decideTable(c, nil, nil, func(tx *Tx) error {
			if spec.Is(TakesBack) && g.undoable {
				return tx.undoStep()
			}
			return g.Rules.Decide(tx, c)
		})
	}
	return g.transact(c.Actor, func(tx *Tx) error {
		switch {
		case c.Directive && isTableDirective(c.Name):
			return tx.tableDirective(c)
		case spec.Is(TakesBack) && g.undoable:
			return tx.undoStep()
		case !c.Directive && c.Name == HandSeatSpec.Name:
			return tx.handSeat(c)
		}
		return g.Rules.Decide(tx, c)
	})
}

// Advance is Decide for a caller that will keep Result.After in g's place
// and never change g again (the router, once the events are recorded):
// the state before the step, which a game whose steps can be taken back
// keeps, is then g's own state rather than a copy of it. Advance leaves g
// as it was, and g may still be read; but applying anything to g after a
// decision whose After is kept changes that After's past.
func (g *Game) Advance(c Command) (Result, error) {
	h := *g
	h.handedOver = true
	return h.Decide(c)
}

// Spec returns the rule system's description of the command name.
func (g *Game) Spec(name string) (CommandSpec, bool) {
	i := slices.IndexFunc(g.Rules.Commands(), func(s CommandSpec) bool { return s.Name == name })
	if i < 0 {
		return CommandSpec{}, false
	}
	return g.Rules.Commands()[i], true
}

// Snapshot encodes the whole game for a snapshot.
func (g *Game) Snapshot() ([]byte, error) {
	st, err := json.Marshal(g.State)
	if err != nil {
		return nil, fmt.Errorf("engine: encode %s state: %w", g.Rules.ID(), err)
	}
	undo, err := g.undo.store(g)
	if err != nil {
		return nil, fmt.Errorf("engine: encode %s state before the last step: %w", g.Rules.ID(), err)
	}
	return json.Marshal(snapshot{Seq: g.Seq, Table: g.Table, State: st, Undo: undo})
}

// Restore rebuilds a game of r from a snapshot written by [Game.Snapshot].
func Restore(r Ruleset, data []byte) (*Game, error) {
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("engine: decode snapshot: %w", err)
	}
	st, err := r.DecodeState(s.State)
	if err != nil {
		return nil, fmt.Errorf("engine: decode %s state: %w", r.ID(), err)
	}
	if len(s.Table.Decks) != len(r.Decks()) {
		return nil, fmt.Errorf("engine: snapshot has %d decks, %s plays with %d", len(s.Table.Decks), r.ID(), len(r.Decks()))
	}
	undo, err := s.Undo.load(r)
	if err != nil {
		return nil, fmt.Errorf("engine: decode %s state before the last step: %w", r.ID(), err)
	}
	g := &Game{Rules: r, Seq: s.Seq, Table: s.Table, State: st, undoable: undoable(r), undo: undo}
	g.Compact()
	return g, nil
}
