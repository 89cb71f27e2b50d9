package sweet

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Taking back a step (/undo), as in gwab: every step keeps the game as it
// stood before it, unless the step rolled a die (a roll seen cannot be
// unseen) or laid a secret choice down (it stands, Melee Procedure). The
// game master may then take the step back, once; the log keeps both.

// Undone takes back the last step.
type Undone struct {
	Step string `json:"step"` // what the step did, as it was told
}

func (Undone) Kind() string { return "sweet.undone" }

func (b Undone) apply(s *State) error {
	if s.Undo == nil {
		return fmt.Errorf("sweet: nothing to take back")
	}
	*s = *s.Undo.Clone().(*State)
	return nil
}

func (b Undone) text() string {
	return fmt.Sprintf("The game master takes back the last step (%s).", strings.TrimSuffix(b.Step, "."))
}

var undoBodies = engine.BodyTypes{Undone{}.Kind(): engine.Decoder[Undone]()}

var undoCommands = []command{
	{engine.CommandSpec{Name: "undo", Help: "Take back the last step, if it rolled no die and laid no secret choice. Game master only."}, undo},
}

// checkpoint keeps the game as it stands before a step, and forgets it
// once the step rolls a die or lays a secret down.
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
	if _, secret := e.Body.(engine.Sealed); secret || len(e.Draws) > 0 {
		s.Undo, s.UndoText = nil, ""
	}
}

func undo(tx *engine.Tx, s *State, c engine.Command) error {
	if c.Actor != s.Master && !c.Master {
		return engine.Refuse("", "Only the game master (%s) takes steps back.", s.Master)
	}
	if s.Undo == nil {
		return engine.Refuse("", "There is no step to take back: the last one rolled a die or laid a choice face down, or was already taken back.")
	}
	what := s.UndoText
	if what == "" {
		what = "a step with nothing to tell"
	}
	return tx.Emit(Undone{Step: what})
}
