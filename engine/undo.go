package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Taking a step back (/undo). A game whose rule system lists a command
// flagged [TakesBack] keeps itself as it stood before its last step, so
// that the step can be taken back, as long as the step showed nothing
// that cannot be unseen: no card dealt or returned, no die rolled, no secret laid down
// ([Sealed]). Taking back is an event like any other: the log keeps the
// step and its taking back, and a replay comes to the same position. Who
// may take a step back is the table's to say (the router lets only a
// game master).

// Undone takes back the last step.
type Undone struct {
	Step string `json:"step"` // what the step did, as it was told
}

func (Undone) Kind() string { return "table.undone" }

// checkpoint is a game as it stood before its last step: its table and
// either its whole state or, more compactly, what the step changed in it
// ([Rewind]).
//
// A checkpoint is never changed once made (copies of a game share it).
// It takes one of three forms:
//   - whole: State holds the state as it stood before the step;
//   - compact: rewind turns the state at event at back to before the step;
//   - pending: neither, while a transaction decides the step; the state
//     before it is the game the transaction started from, and the
//     checkpoint is settled when the transaction ends ([Game.transact]).
type checkpoint struct {
	Table  Table
	State  State
	rewind Rewind
	at     Seq
	// What the step did, as it was told: Text, or, when first is set,
	// the telling of first, the step's first event, made only when it is
	// asked for (text), since most steps are never taken back.
	Text  string
	first *Event
}

// text is what the step did, as it was told by rs.
func (c *checkpoint) text(rs Ruleset) string {
	if c.first != nil {
		return told(rs, *c.first)
	}
	return c.Text
}

// Rewinder is implemented by a State that can keep what a step changed in
// it in less room than a whole copy of the state as it stood before the
// step. A game whose steps can be taken back keeps that between steps,
// so a rule system with a large state implements it to keep a cached
// game small; without it the game keeps a whole copy.
type Rewinder interface {
	// Since returns what turns s back into before, where s is before with
	// the events of one step applied. What it returns keeps nothing that
	// s or before may change later.
	Since(before State) Rewind
}

// A Rewind turns a state back to what it was before a step.
type Rewind interface {
	// Rewind returns a copy of s, the state the Rewind was made from, as
	// it stood before the step. It leaves s as it is and may be called
	// more than once.
	Rewind(s State) State
}

// before returns the state as it stood before the step, a copy of its
// own; g is the game the checkpoint belongs to.
func (c *checkpoint) before(g *Game) (State, error) {
	switch {
	case c.State != nil:
		return c.State.Clone(), nil
	case c.rewind != nil && c.at == g.Seq:
		return c.rewind.Rewind(g.State), nil
	}
	return nil, fmt.Errorf("engine: the state before the last step is not kept at event %d", g.Seq)
}

// settle returns c made compact against g's state, now at the end of
// the step, when the rule system can. from is the game as it stood
// before the step when c is pending, and nil otherwise.
func (c *checkpoint) settle(g *Game, from *Game) *checkpoint {
	if c == nil || c.rewind != nil {
		return c
	}
	out := &checkpoint{Table: c.Table, State: c.State, Text: c.Text, first: c.first}
	if out.State == nil {
		if from == nil {
			return c
		}
		out.Table, out.State = from.Table.clone(), from.State
	}
	if r, ok := g.State.(Rewinder); ok {
		out.rewind, out.at, out.State = r.Since(out.State), g.Seq, nil
	} else if c.State == nil && !from.handedOver {
		// from may change after the step: keep a copy of its state,
		// unless its caller gave it up ([Game.Advance]).
		out.State = from.State.Clone()
	}
	return out
}

// Compact keeps what g needs to take its last step back in as little room
// as its rule system allows. Call it once the events of a step are all
// applied, as after catching up with a store; a step's next event would
// otherwise find it kept whole again.
func (g *Game) Compact() {
	g.undo = g.undo.settle(g, nil)
}

// storedCheckpoint is a checkpoint as a snapshot keeps it.
type storedCheckpoint struct {
	Table Table           `json:"table"`
	State json.RawMessage `json:"state"`
	Text  string          `json:"text,omitempty"`
}

// undoable reports whether r's steps can be taken back: it lists a
// command flagged [TakesBack].
func undoable(r Ruleset) bool {
	return slices.ContainsFunc(r.Commands(), func(s CommandSpec) bool { return s.Is(TakesBack) })
}

// mark keeps the game as it stands before e when e begins a step, and
// forgets it when e shows what cannot be unseen. In a transaction (inTx)
// the game before the step is the one the transaction started from, so
// the checkpoint is left pending until the transaction ends.
func (g *Game) mark(e Event, inTx bool) {
	if !g.undoable {
		return
	}
	if _, ok := e.Body.(Undone); ok {
		return
	}
	switch {
	case e.Step && inTx:
		g.undo = &checkpoint{first: &e}
	case e.Step:
		g.undo = &checkpoint{Table: g.Table.clone(), State: g.State.Clone(), first: &e}
	case g.undo != nil && g.undo.rewind != nil:
		// A step continues after its checkpoint was made compact: keep
		// the state before it whole, as the rewind knows only the state
		// it was made from.
		st, err := g.undo.before(g)
		if err != nil {
			g.undo = nil
		} else {
			g.undo = &checkpoint{Table: g.undo.Table, State: st, Text: g.undo.Text, first: g.undo.first}
		}
	}
	_, secret := e.Body.(Sealed)
	if a, ok := e.Body.(Asked); ok {
		// A command waiting for the table's draws can be taken back,
		// unless it laid down a secret.
		secret = a.Secret
	}
	if secret || len(e.Draws) > 0 || len(e.Discards) > 0 {
		g.undo = nil
	}
}

// told is the first thing the table was told of e, by rs.
func told(rs Ruleset, e Event) string {
	for _, m := range rs.Narrate(e) {
		if !m.Private() && m.Text != "" {
			return m.Text
		}
	}
	return ""
}

// takeBack restores the game as it stood before its last step.
func (g *Game) takeBack() error {
	if g.undo == nil {
		return fmt.Errorf("engine: no step to take back")
	}
	st, err := g.undo.before(g)
	if err != nil {
		return err
	}
	g.Table, g.State, g.undo = g.undo.Table.clone(), st, nil
	return nil
}

// Resumer is implemented by rule systems that have something to say once
// a step is taken back, such as whose turn it is again.
type Resumer interface {
	Resume(tx *Tx)
}

// undoStep decides /undo.
func (tx *Tx) undoStep() error {
	cp := tx.game.undo
	if cp == nil {
		return Refuse("", "There is no step to take back: the last one showed a card, a die or a secret, or was already taken back.")
	}
	what := strings.TrimSuffix(cp.text(tx.game.Rules), ".")
	if what == "" {
		what = "a step with nothing to tell"
	}
	if err := tx.Emit(Undone{Step: what}); err != nil {
		return err
	}
	if r, ok := tx.game.Rules.(Resumer); ok {
		r.Resume(tx)
	}
	return nil
}

// store returns c as a snapshot keeps it; g is the game it belongs to.
func (c *checkpoint) store(g *Game) (*storedCheckpoint, error) {
	if c == nil {
		return nil, nil
	}
	before, err := c.before(g)
	if err != nil {
		return nil, err
	}
	st, err := json.Marshal(before)
	if err != nil {
		return nil, err
	}
	return &storedCheckpoint{Table: c.Table, State: st, Text: c.text(g.Rules)}, nil
}

func (s *storedCheckpoint) load(r Ruleset) (*checkpoint, error) {
	if s == nil {
		return nil, nil
	}
	st, err := r.DecodeState(s.State)
	if err != nil {
		return nil, err
	}
	return &checkpoint{Table: s.Table, State: st, Text: s.Text}, nil
}
