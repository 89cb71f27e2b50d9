package gwab

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Taking back a step (/undo). Every step a command takes keeps the book
// as it stood before it, unless the step dealt, drew or discarded a card:
// a card seen cannot be unseen. The book's game master may then take the
// step back, once; the log keeps both the step and its taking back.

// Undone takes back the last step.
type Undone struct {
	Step string `json:"step"` // what the step did, as it was told
}

func (Undone) Kind() string { return "gwab.undone" }

func (b Undone) apply(s *State) error {
	if s.Undo == nil {
		return fmt.Errorf("gwab: nothing to take back")
	}
	*s = *s.Undo.Clone().(*State)
	return nil
}

func (b Undone) text() string {
	return fmt.Sprintf("The game master takes back the last step (%s).", strings.TrimSuffix(b.Step, "."))
}

var undoBodies = engine.BodyTypes{Undone{}.Kind(): engine.Decoder[Undone]()}

var undoCommands = []command{
	{engine.CommandSpec{Name: "undo", Help: "Take back the last step, if it dealt no card. Game master only."}, undo},
}

// checkpoint keeps the book as it stands before a step, and forgets it
// once the step touches a card.
func (s *State) checkpoint(e engine.Event) {
	if _, ok := e.Body.(Undone); ok {
		return
	}
	if e.Step {
		before := s.Clone().(*State)
		before.Undo = nil
		s.Undo, s.UndoText = before, ""
		if n, ok := e.Body.(narrator); ok {
			s.UndoText = n.text()
		}
	}
	if len(e.Draws) > 0 || len(e.Discards) > 0 {
		s.Undo, s.UndoText = nil, ""
	}
}

func undo(tx *engine.Tx, s *State, c engine.Command) error {
	if c.Actor != s.Master && !c.Master {
		return engine.Refuse("", "Only the book's game master (%s) takes steps back.", s.Master)
	}
	if s.Undo == nil {
		return engine.Refuse("", "There is no step to take back: the last one dealt or drew a card, or was already taken back.")
	}
	what := s.UndoText
	if what == "" {
		what = "a step with nothing to tell"
	}
	if err := tx.Emit(Undone{Step: what}); err != nil {
		return err
	}
	sayNext(tx, s)
	return nil
}
