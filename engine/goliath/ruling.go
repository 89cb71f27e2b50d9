package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Rule One (Ten Things): the referee's judgement stands above every
// guideline. The bot resolves by the guidelines; the book's game master
// is the referee, and /ruling overrules any result on a unit with a
// reason that stays in the log and the export. /undo still takes back a
// last step that rolled no die.

// Ruled is a referee's ruling on one unit.
type Ruled struct {
	engine.Ruling
	Unit    string       `json:"unit"`
	Figures *int         `json:"figures,omitempty"`
	Status  string       `json:"status,omitempty"` // steady, routed, surrendered, removed
	To      *engine.Base `json:"to,omitempty"`
	Tired   *bool        `json:"tired,omitempty"`
}

func (Ruled) Kind() string { return "goliath.ruled" }

var rulingBodies = engine.BodyTypes{Ruled{}.Kind(): engine.Decoder[Ruled]()}

func (b Ruled) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	if b.Figures != nil {
		n := *b.Figures
		if n == 0 {
			u.Figures = 0
			u.kill(0)
		} else {
			u.Figures, u.Damage = n, 0
			if u.Status == Gone && u.Lost == Destroyed {
				u.Status, u.Lost = Steady, ""
			}
			u.TurnFigs = max(u.TurnFigs, 0)
			u.reshape()
		}
	}
	if b.To != nil {
		u.Base = *b.To
	}
	switch b.Status {
	case "steady":
		u.Status, u.Lost, u.RoutTurn, u.Attacked = Steady, "", 0, false
	case "routed":
		u.Status, u.Lost, u.RoutTurn, u.Attacked = Routed, "", 0, false
	case "surrendered":
		u.Status, u.Lost = Gone, Surrendered
	case "removed":
		u.Status, u.Lost = Gone, Removed
	}
	if b.Tired != nil {
		u.Tired = *b.Tired
		if !u.Tired {
			u.MeleeTurns, u.MoveTurns = 0, 0
		}
	}
	return nil
}

func (b Ruled) Text() string {
	var what []string
	if b.Figures != nil {
		what = append(what, plural(*b.Figures, "figure", "figures"))
	}
	if b.To != nil {
		what = append(what, fmt.Sprintf("front centre at %s facing %s", b.To.FrontCenter(), b.To.Facing))
	}
	if b.Status != "" {
		what = append(what, b.Status)
	}
	if b.Tired != nil {
		what = append(what, map[bool]string{true: "tired", false: "rested"}[*b.Tired])
	}
	return b.Tell("referee", what)
}

var rulingCommands = []command{
	{CommandSpec: engine.RulingSpec("Overrule a result on a unit (Rule One): its figures, morale, place or fatigue, with the reason. Referee only.",
		`/ruling piece:ORC-2 figures:14 status:steady reason:"the goblins were hiding behind the hill"`, "the unit ruled on",
		engine.OptionSpec{Name: "figures", Help: "its figures able to fight", Kind: engine.OptInt},
		engine.OptionSpec{Name: "status", Help: "steady, routed, surrendered or removed", Choices: []string{"steady", "routed", "surrendered", "removed"}},
		engine.OptionSpec{Name: "at", Help: "where its front centre stands, x,y in inches", Kind: engine.OptPoint},
		engine.OptionSpec{Name: "facing", Help: "its facing: N, NE, E… or degrees"},
		engine.OptionSpec{Name: "tired", Help: "yes or no", Choices: []string{"yes", "no"}},
	), Run: rule},
}

func rule(tx *engine.Tx, s *State, c engine.Command) error {
	if len(s.Armies) < 2 {
		return engine.Refuse("", "There is nothing to rule on before both armies are raised.")
	}
	u, err := s.findUnit(c.Opt("piece"))
	if err != nil {
		return err
	}
	r, err := engine.NewRuling(c, u.Label())
	if err != nil {
		return err
	}
	b := Ruled{Ruling: r, Unit: u.ID}
	if c.Has("figures") {
		n, err := c.Int("figures", 0)
		if err != nil {
			return err
		}
		if n < 0 || n > maxFigures {
			return engine.Refuse("", "figures: must be 0 to %d.", maxFigures)
		}
		b.Figures = &n
	}
	b.Status = strings.ToLower(c.Opt("status"))
	if c.Has("at") || c.Has("facing") {
		base := u.Base
		if c.Has("facing") {
			h, err := engine.ReadFacing(c.Opt("facing"))
			if err != nil {
				return err
			}
			base = base.WithFacing(h).WithFrontCenter(u.Base.FrontCenter())
		}
		if c.Has("at") {
			p, err := engine.ReadPoint("at", c.Opt("at"), "inches")
			if err != nil {
				return err
			}
			base = base.WithFrontCenter(p)
		}
		if !s.onTable(base) {
			return engine.Refuse("", "%s would stand off the table there.", u.ID)
		}
		b.To = &base
	}
	if c.Has("tired") {
		t := c.Opt("tired") == "yes"
		b.Tired = &t
	}
	if b.Figures == nil && b.Status == "" && b.To == nil && b.Tired == nil {
		return engine.NothingRuled("figures", "status", "at", "facing", "tired")
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if s.Stage > Deploying && s.Stage != Referee {
		_, err := s.verdict(tx, false)
		return err
	}
	return nil
}
