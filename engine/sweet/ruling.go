package sweet

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// A game master's ruling: after the dice, the table may agree that a
// result should stand otherwise (a die off the table, a unit set in the
// wrong square). /ruling sets what the ruling changes, with the reason, as
// its own event, shown in the log, the export and the picture; /undo
// still takes back the last step.

// Ruled is a game master's ruling on one unit. Each field set is what the
// ruling changed; the rest stands as it was.
type Ruled struct {
	engine.Ruling
	Unit   UnitID         `json:"unit"`
	Stands *int           `json:"stands,omitempty"`
	Full   int            `json:"full,omitempty"`
	From   *engine.Square `json:"from,omitempty"`
	To     *engine.Square `json:"to,omitempty"`
	Facing *engine.Dir8   `json:"facing,omitempty"`
}

func (Ruled) Kind() string { return "sweet.ruled" }

var rulingBodies = engine.BodyTypes{Ruled{}.Kind(): engine.Decoder[Ruled]()}

func (b Ruled) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	if b.Stands != nil {
		u.Stands, u.Gone = *b.Stands, *b.Stands == 0
	}
	if b.To != nil {
		u.At, u.Placed, u.Off = *b.To, true, false
	}
	if b.Facing != nil {
		u.Facing = *b.Facing
	}
	return nil
}

func (b Ruled) Text() string {
	var what []string
	if b.Stands != nil {
		if *b.Stands == 0 {
			what = append(what, "gone from the field")
		} else {
			what = append(what, fmt.Sprintf("%d of %d stands", *b.Stands, b.Full))
		}
	}
	switch {
	case b.To != nil && b.Facing != nil:
		what = append(what, fmt.Sprintf("in %s facing %s", b.To, b.Facing))
	case b.To != nil:
		what = append(what, fmt.Sprintf("in %s", b.To))
	case b.Facing != nil:
		what = append(what, fmt.Sprintf("facing %s", b.Facing))
	}
	return b.Tell("game master", what)
}

var rulingCommands = []command{
	{CommandSpec: engine.RulingSpec("Overrule a result, with the reason: set a unit's stands, square or facing. It is logged as a ruling; /undo still takes back the last step. Game master only.",
		`/ruling piece:ROM-3 stands:2 reason:"the die fell off the table"`, "the unit the ruling is on",
		engine.OptionSpec{Name: "stands", Help: "the stands it has now; 0 takes it from the field", Kind: engine.OptInt},
		engine.OptionSpec{Name: "at", Help: "the square it stands in now, like E5", Kind: engine.OptPoint},
		engine.OptionSpec{Name: "facing", Help: "its facing now: N, NE, E…"},
	), Run: rule},
}

func rule(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage == Mustering {
		return engine.Refuse("", "A ruling overrules play; the armies are still mustering.")
	}
	reason, err := engine.RulingReason(c)
	if err != nil {
		return err
	}
	u, err := s.findUnit(c.Opt("piece"))
	if err != nil {
		return err
	}
	b := Ruled{Ruling: engine.Ruling{By: c.Actor, Label: u.Label(), Reason: reason}, Unit: u.ID}
	if c.Has("stands") {
		n, err := c.Int("stands", 0)
		if err != nil {
			return err
		}
		if n < 0 || n > u.Full {
			return engine.Refuse("", "%s has from 0 to %d stands.", u.Label(), u.Full)
		}
		b.Stands, b.Full = &n, u.Full
	}
	if c.Has("at") {
		q, err := parseSquare("at", c.Opt("at"))
		if err != nil {
			return err
		}
		if !s.onBoard(q) {
			return engine.Refuse("", "%s is off the board.", q)
		}
		if err := s.canStand(u, q); err != nil {
			return err
		}
		if u.OnBoard() {
			from := u.At
			b.From = &from
		}
		b.To = &q
	}
	if c.Has("facing") {
		f, err := parseFacing(u, c.Opt("facing"))
		if err != nil {
			return err
		}
		b.Facing = &f
	}
	if b.Stands == nil && b.To == nil && b.Facing == nil {
		return engine.NothingRuled("stands", "at", "facing")
	}
	return tx.Emit(b)
}
