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

// checkpoint is a game as it stood before its last step.
type checkpoint struct {
	Table Table
	State State
	Text  string // what the step did, as it was told
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
// forgets it when e shows what cannot be unseen.
func (g *Game) mark(e Event) {
	if !g.undoable {
		return
	}
	if _, ok := e.Body.(Undone); ok {
		return
	}
	if e.Step {
		g.undo = &checkpoint{Table: g.Table.clone(), State: g.State.Clone(), Text: g.told(e)}
	}
	if _, secret := e.Body.(Sealed); secret || len(e.Draws) > 0 || len(e.Discards) > 0 {
		g.undo = nil
	}
}

// told is the first thing the table was told of e.
func (g *Game) told(e Event) string {
	for _, m := range g.Rules.Narrate(e) {
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
	g.Table, g.State, g.undo = g.undo.Table.clone(), g.undo.State.Clone(), nil
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
	what := strings.TrimSuffix(cp.Text, ".")
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

func (c *checkpoint) store() (*storedCheckpoint, error) {
	if c == nil {
		return nil, nil
	}
	st, err := json.Marshal(c.State)
	if err != nil {
		return nil, err
	}
	return &storedCheckpoint{Table: c.Table, State: st, Text: c.Text}, nil
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
