package btg

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A game master's ruling: after the dice, the table may agree that a
// result should stand otherwise (a die off the table, a unit set in the
// wrong place, a routed unit that should have rallied). /ruling sets what
// it changes, with the reason, as its own event; /undo still takes back
// the last step. /decide answers an event that asks for judgement (§6).

// Ruled is a game master's ruling on one unit.
type Ruled struct {
	engine.Ruling
	Unit    string       `json:"unit"`
	Figures *int         `json:"figures,omitempty"`
	To      *engine.Base `json:"to,omitempty"`
	Status  *Status      `json:"status,omitempty"`
}

func (Ruled) Kind() string { return "btg.ruled" }

var rulingBodies = engine.BodyTypes{Ruled{}.Kind(): engine.Decoder[Ruled]()}

func (b Ruled) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	if b.Figures != nil {
		switch {
		case *b.Figures == 0:
			u.Figures = 0
			s.remove(u, Destroyed)
		case *b.Figures < u.Figures:
			s.lose(u, u.Figures-*b.Figures)
		default:
			s.gain(u, *b.Figures-u.Figures)
		}
	}
	if b.To != nil {
		u.Base = *b.To
	}
	if b.Status != nil && u.Status != Gone {
		u.Status = *b.Status
	}
	return nil
}

var statusNames = map[Status]string{Steady: "steady", Routed: "routed", Rampaging: "rampaging"}

func (b Ruled) Text() string {
	var what []string
	if b.Figures != nil {
		what = append(what, plural(*b.Figures, "figure", "figures"))
	}
	if b.To != nil {
		what = append(what, fmt.Sprintf("front centre at %s facing %s", b.To.FrontCenter(), b.To.Facing))
	}
	if b.Status != nil {
		what = append(what, statusNames[*b.Status])
	}
	return b.Tell("game master", what)
}

var rulingCommands = []command{
	{CommandSpec: engine.RulingSpec("Overrule a result, with the reason: set a unit's figures, place or status. Logged as a ruling. Game master only.",
		`/ruling piece:GRE-3 figures:12 reason:"a die fell off the table"`, "the unit the ruling is on",
		engine.OptionSpec{Name: "figures", Help: "the figures it has now; 0 destroys it", Kind: engine.OptInt},
		engine.OptionSpec{Name: "at", Help: "where its front centre stands now, x,y in inches", Kind: engine.OptPoint},
		engine.OptionSpec{Name: "facing", Help: "its facing now: N, NE, E… or degrees"},
		engine.OptionSpec{Name: "status", Help: "steady, routed or rampaging", Choices: []string{"steady", "routed", "rampaging"}},
	), Run: rule},
	{CommandSpec: engine.CommandSpec{Name: "decide", Flags: engine.MasterOnly,
		Help:    "Decide what a random event leaves to the game master: a point of the river, where the village's slingers come back, a rival unit (§6). Game master only.",
		Example: "/decide at:30,24",
		Options: []engine.OptionSpec{
			{Name: "at", Help: "the point the event asks for, x,y in inches", Kind: engine.OptPoint},
			{Name: "unit", Help: "the unit the event asks for", Kind: engine.OptElement},
			{Name: "note", Help: "a word for the log"},
		}}, Run: decideCommand},
}

func rule(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage == Mustering {
		return engine.Refuse("", "A ruling overrules play; the armies are still being raised.")
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
	if c.Has("figures") {
		n, err := c.Int("figures", 0)
		if err != nil {
			return err
		}
		if n < 0 || n > MaxFigures {
			return engine.Refuse("", "A unit has from 0 to %d figures.", MaxFigures)
		}
		b.Figures = &n
	}
	if c.Has("at") || c.Has("facing") {
		if !u.Placed {
			return engine.Refuse("", "%s is not on the table yet; it is deployed with /place, or set with /setup place before the first turn.", u.ID)
		}
		p := u.Base.FrontCenter()
		if c.Has("at") {
			if p, err = engine.ReadPoint("at", c.Opt("at"), "inches"); err != nil {
				return err
			}
		}
		h, err := engine.ReadFacingOr(c.Opt("facing"), u.Base.Facing)
		if err != nil {
			return err
		}
		nb := u.shape(u.Ranks, h, p)
		if !s.onTable(nb) {
			return engine.Refuse("", "%s would stand partly off the table.", u.ID)
		}
		b.To = &nb
	}
	if c.Has("status") {
		var st Status
		switch strings.ToLower(c.Opt("status")) {
		case "steady":
			st = Steady
		case "routed":
			st = Routed
		case "rampaging":
			if u.Class != Elephant {
				return engine.Refuse("§3", "Only elephants rampage.")
			}
			st = Rampaging
		default:
			return engine.Refuse("", "status: is steady, routed or rampaging.")
		}
		b.Status = &st
	}
	if b.Figures == nil && b.To == nil && b.Status == nil {
		return engine.NothingRuled("figures", "at", "facing", "status")
	}
	return tx.Emit(b)
}
