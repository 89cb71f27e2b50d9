package sgboh

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A game master's ruling: after the dice, the table may agree that a
// result should stand otherwise (a die off the table, a counter set in
// the wrong hex or flipped to the wrong side). /ruling sets what it
// changes on one combat unit, with the reason, as its own event (the
// engine's ruling kit); /undo still takes back a last step that rolled
// no die.

// Ruled is a game master's ruling on one combat unit. Each field set is
// what the ruling changed; the rest stands as it was.
type Ruled struct {
	engine.Ruling
	Unit   string            `json:"unit"`
	Hits   *int              `json:"hits,omitempty"`
	Status *Status           `json:"status,omitempty"`
	Gone   *bool             `json:"gone,omitempty"`
	To     *engine.Hex       `json:"to,omitempty"`
	Facing *engine.HexFacing `json:"facing,omitempty"`
}

func (Ruled) Kind() string { return "sgboh.ruled" }

var rulingBodies = engine.BodyTypes{Ruled{}.Kind(): engine.Decoder[Ruled]()}

func (b Ruled) Apply(s *State) error {
	u := s.unit(b.Unit)
	if u == nil {
		return fmt.Errorf("sgboh: no unit %q to rule on", b.Unit)
	}
	if b.Hits != nil {
		u.Hits = *b.Hits
	}
	if b.Status != nil {
		u.Status = *b.Status
	}
	if b.Gone != nil {
		u.Gone = *b.Gone
		u.Engaged = u.Engaged && !u.Gone
		if !u.Gone {
			u.OffMap = false
		}
	}
	if b.To != nil {
		u.Hex, u.OffMap, u.Engaged = *b.To, false, false
	}
	if b.Facing != nil {
		u.Facing = *b.Facing
	}
	return nil
}

func (b Ruled) Text() string {
	var what []string
	if b.Hits != nil {
		what = append(what, engine.Plural(*b.Hits, "missile hit", "missile hits"))
	}
	if b.Gone != nil && *b.Gone {
		what = append(what, "eliminated")
	} else if b.Status != nil {
		what = append(what, b.Status.String())
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
	{CommandSpec: engine.RulingSpec("Overrule a result, with the reason: set a combat unit's missile hits, status, hex or facing. It is logged as a ruling; /undo still takes back the last step. Game master only.",
		`/ruling piece:PH1 hits:0 reason:"the die rolled off the table"`, "the combat unit the ruling is on",
		engine.OptionSpec{Name: "hits", Help: "the missile hits it has now, from 0 to its TQ (8.15)", Kind: engine.OptInt},
		engine.OptionSpec{Name: "status", Help: "full, disordered or routed; eliminated takes it off the map", Choices: []string{"full", "disordered", "routed", "eliminated"}},
		engine.OptionSpec{Name: "at", Help: "the hex it stands in now, like 0412", Kind: engine.OptPoint},
		engine.OptionSpec{Name: "facing", Help: "its facing now: NNE, E, SSE, SSW, W or NNW"},
	), Run: rule},
}

var statusNamed = map[string]Status{"full": Full, "disordered": Disordered, "routed": Routed}

func rule(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Flow.Stage == SettingUp {
		return engine.Refuse("", "A ruling overrules play; the battle has not begun (before it, /setup unit lays a unit out as it should be).")
	}
	reason, err := engine.RulingReason(c)
	if err != nil {
		return err
	}
	u := s.unit(c.Opt("piece"))
	if u == nil {
		return engine.Refuse("", "There is no combat unit %q; /status lists them.", strings.TrimSpace(c.Opt("piece")))
	}
	b := Ruled{Ruling: engine.Ruling{By: c.Actor, Label: u.Label(), Reason: reason}, Unit: u.ID}
	if c.Has("hits") {
		n, err := c.Int("hits", 0)
		if err != nil {
			return err
		}
		if u.Type == EL && n != 0 {
			// 8.15: a hit on an elephant is a roll against its TQ, never
			// a hit it carries into the shock's modifiers.
			return engine.Refuse("8.15", "%s is an elephant, and elephants take no missile hits: a hit on one is a roll against its TQ, and above it the elephant rampages.", u.ID)
		}
		if n < 0 || n > u.TQ {
			return engine.Refuse("8.15", "%s is eliminated at more than %d missile hits; a ruling sets from 0 to %d. To take it off the map, rule status:eliminated.", u.ID, u.TQ, u.TQ)
		}
		b.Hits = &n
	}
	if err := ruleStatus(&b, u, c.Opt("status")); err != nil {
		return err
	}
	if err := ruleHex(s, &b, u, c); err != nil {
		return err
	}
	if b.Hits == nil && b.Status == nil && b.Gone == nil && b.To == nil && b.Facing == nil {
		return engine.NothingRuled("hits", "status", "at", "facing")
	}
	return tx.Emit(b)
}

// ruleStatus reads the status a ruling gives u: eliminated takes it off
// the map, any other brings it back on if it was gone.
func ruleStatus(b *Ruled, u *Unit, v string) error {
	v = strings.ToLower(strings.TrimSpace(v))
	switch {
	case v == "":
		return nil
	case v == "eliminated":
		if u.Gone {
			return engine.Refuse("", "%s is already eliminated.", u.ID)
		}
		gone := true
		b.Gone = &gone
		return nil
	}
	st, ok := statusNamed[v]
	if !ok {
		return engine.Refuse("", "status: is full, disordered, routed or eliminated.")
	}
	b.Status = &st
	if u.Gone {
		back := false
		b.Gone = &back
	}
	return nil
}

// ruleHex reads where a ruling sets u and how it faces: a hex on the map
// that no other combat unit holds (6.91), in ground it may stand in.
func ruleHex(s *State, b *Ruled, u *Unit, c engine.Command) error {
	if gone := u.Gone && (b.Gone == nil || *b.Gone); gone && (c.Has("at") || c.Has("facing")) {
		return engine.Refuse("", "%s is eliminated; bring it back with status: and at:.", u.ID)
	}
	if c.Has("at") {
		h, err := parseHexOn(s, "at", c.Opt("at"))
		if err != nil {
			return err
		}
		if o := s.at(h); o != nil && o != u {
			return engine.Refuse("6.91", "at: %s already stands in %s; one combat unit to a hex.", o.ID, h)
		}
		if _, ok := s.cell(h).Ground.cost(u.Type); !ok {
			return engine.Refuse("", "at: %s may not stand in %s ground.", u.Type.Words(), s.cell(h).Ground)
		}
		b.To = &h
	} else if u.Gone && b.Gone != nil && !*b.Gone {
		return engine.Refuse("", "%s was eliminated; give the hex it comes back to with at:.", u.ID)
	}
	if c.Has("facing") {
		f, err := engine.ParseHexFacing(c.Opt("facing"))
		if err != nil {
			return engine.Refuse("", "facing: NNE, E, SSE, SSW, W or NNW.")
		}
		b.Facing = &f
	}
	return nil
}
