package sweet

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Separating and reforming (Movement 3): of the fighting units only light
// infantry and light cavalry may split or come together again (commanders
// and catapults attach and detach as Movement 2 lets them). In its side's
// movement such a unit that has not moved sends some of its stands off as a
// unit of their own, which moves at once as any unit does; and a unit of
// those types moves into the square of another of its type and side to
// reform with it, never into more stands than the unit table gives one unit;
// the reformed unit has moved for that turn.

// UnitSplit is stands leaving a light unit as a new unit of the same type,
// in the same square and facing; the move that takes them away follows as
// its own event.
type UnitSplit struct {
	From   UnitID `json:"from"`
	Label  string `json:"label"`
	New    Unit   `json:"new"`
	Stands int    `json:"stands"`
}

// UnitsJoined is a light unit moving into the square of another of its
// type and side and reforming with it: its stands join that unit's.
type UnitsJoined struct {
	Unit      UnitID          `json:"unit"`
	Label     string          `json:"label"`
	Into      UnitID          `json:"into"`
	IntoLabel string          `json:"into_label"`
	Path      []engine.Square `json:"path"`
	Cost      float64         `json:"cost"`
	Stands    int             `json:"stands"` // the reformed unit's stands
}

func (UnitSplit) Kind() string   { return "sweet.unit-split" }
func (UnitsJoined) Kind() string { return "sweet.units-joined" }

var detachBodies = engine.BodyTypes{
	UnitSplit{}.Kind():   engine.Decoder[UnitSplit](),
	UnitsJoined{}.Kind(): engine.Decoder[UnitsJoined](),
}

func (b UnitSplit) Apply(s *State) error {
	u, err := s.mustUnit(b.From)
	if err != nil {
		return err
	}
	if b.Stands < 1 || b.Stands >= u.Stands || s.Unit(b.New.ID) != nil {
		return fmt.Errorf("sweet: bad split of %d stands from %q as %q", b.Stands, b.From, b.New.ID)
	}
	u.Stands -= b.Stands
	u.Full = max(u.Full-b.Stands, u.Stands)
	s.Units = append(s.Units, b.New)
	return nil
}

func (b UnitsJoined) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	into, err := s.mustUnit(b.Into)
	if err != nil || len(b.Path) == 0 {
		return fmt.Errorf("sweet: bad reforming of %q into %q: %v", b.Unit, b.Into, err)
	}
	// The reformed unit has moved: the stands that came to it may not
	// go farther this turn.
	into.Full += u.Full
	into.Stands, into.Moved = b.Stands, true
	u.At, u.Moved, u.Stands, u.Full, u.Gone, u.Joined = b.Path[len(b.Path)-1], true, 0, 0, true, b.Into
	s.Ordered = true
	return nil
}

var detachCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "detach", Help: "Send some stands of a light infantry or light cavalry unit off as a new unit, which moves at once (Movement 3).", Example: "/detach unit:ROM-3 stands:1 to:E5", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the light infantry or light cavalry unit, which has not moved this turn", Kind: engine.OptElement, Required: true},
		{Name: "stands", Help: "how many stands leave it, fewer than it has", Kind: engine.OptInt, Required: true},
		{Name: "to", Help: "the square the new unit moves to, like E5", Kind: engine.OptPoint, Required: true},
		{Name: "facing", Help: "its facing at the end: N, NE, E…; default the unit's facing"},
	}}, Run: detach},
	{CommandSpec: engine.CommandSpec{Name: "reform", Help: "Move a light infantry or light cavalry unit into the square of another of its type to join it as one unit (Movement 3).", Example: "/reform unit:ROM-9 into:ROM-3", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the unit that moves", Kind: engine.OptElement, Required: true},
		{Name: "into", Help: "the unit of the same type it joins", Kind: engine.OptElement, Required: true},
	}}, Run: reform},
}

// separates reports whether units of type t may split and reform
// (Movement 3): the light infantry and light cavalry rows.
func separates(t Type) bool { return t == LightInfantry || t == LightCavalry }

func detach(tx *engine.Tx, s *State, c engine.Command) error {
	side, u, err := s.movingUnit(c, "Movement 3", "Units split in their side's movement")
	if err != nil {
		return err
	}
	n, err := c.Int("stands", 0)
	if err != nil {
		return err
	}
	switch {
	case !separates(u.Type):
		return engine.Refuse("Movement 3", "Only light infantry and light cavalry split into smaller units; %s may not.", u.Label())
	case s.shaken(u):
		return engine.Refuse("Morale 1", "%s is down to one stand and may only fall back toward its own edge.", u.Label())
	case u.Moved:
		return engine.Refuse("Movement 3", "%s has moved this turn; a unit splits before it moves.", u.Label())
	case s.inMelee(u):
		return engine.Refuse("Charging and Melee 2", "%s is in a melee this turn and cannot move.", u.Label())
	case u.Stands < 2:
		return engine.Refuse("Movement 3", "%s has one stand only, and nothing to send off.", u.Label())
	case n < 1 || n >= u.Stands:
		return engine.Refuse("Movement 3", "%s has %d stands: from 1 to %d of them may leave it.", u.Label(), u.Stands, u.Stands-1)
	}
	id := s.nextID(side)
	nu := Unit{ID: id, Type: u.Type, Side: side, Stands: n, Full: n, Guard: u.Guard, At: u.At, Facing: u.Facing, Placed: true}
	if err := tx.Emit(UnitSplit{From: u.ID, Label: u.Label(), New: nu, Stands: n}); err != nil {
		return err
	}
	mc := engine.NewCommand(c.Actor, "move", "unit", string(id), "to", c.Opt("to"))
	if c.Has("facing") {
		mc.Options["facing"] = c.Opt("facing")
	}
	mc.Master = c.Master
	return move(tx, s, mc)
}

// nextID is the name of a new unit of side: its army's tag and the next
// number after those it has.
func (s *State) nextID(side Side) UnitID {
	tag := s.Armies[side].Tag
	n := 0
	for _, u := range s.Units {
		if num, ok := strings.CutPrefix(string(u.ID), tag+"-"); ok {
			var k int
			if _, err := fmt.Sscanf(num, "%d", &k); err == nil && k > n {
				n = k
			}
		}
	}
	return UnitID(fmt.Sprintf("%s-%d", tag, n+1))
}

func reform(tx *engine.Tx, s *State, c engine.Command) error {
	side, u, err := s.movingUnit(c, "Movement 3", "Units reform in their side's movement")
	if err != nil {
		return err
	}
	into, err := s.ownUnit(c, "into", side)
	if err != nil {
		return err
	}
	switch {
	case !separates(u.Type):
		return engine.Refuse("Movement 3", "Only light infantry and light cavalry reform; %s may not.", u.Label())
	case into.Type != u.Type || into == u:
		return engine.Refuse("Movement 3", "%s reforms only with another unit of %s.", u.Label(), u.Type.Name())
	case s.shaken(u):
		return engine.Refuse("Morale 1", "%s is down to one stand and may only fall back toward its own edge.", u.Label())
	case u.Balked || u.Moved:
		return engine.Refuse("Movement", "%s has moved this turn.", u.Label())
	case s.inMelee(u) || s.inMelee(into):
		return engine.Refuse("Charging and Melee 2", "A unit in a melee this turn neither moves nor takes others in.")
	case u.Stands+into.Stands > u.Type.spec().Stands:
		return engine.Refuse("Movement 3", "Together they would have %d stands; a unit of %s has at most %d.", u.Stands+into.Stands, u.Type.Name(), u.Type.spec().Stands)
	}
	path, cost := s.route(u, into.At, float64(u.Type.spec().Move), false)
	if path == nil && s.terrain(u.At) == Road && s.terrain(into.At) == Road {
		path, cost = s.route(u, into.At, float64(u.Type.spec().Move)+1, true)
	}
	if path == nil {
		return engine.Refuse("Movement 1, 4", "%s cannot reach %s this turn: it moves %d squares (a diagonal step costs 1.5), and no enemy may be passed or slipped between.", u.Label(), into.At, u.Type.spec().Move)
	}
	b := UnitsJoined{Unit: u.ID, Label: u.Label(), Into: into.ID, IntoLabel: into.Label(), Path: path, Cost: cost, Stands: u.Stands + into.Stands}
	for _, q := range path[1:] {
		if v := s.runDownVictim(u, q); v != nil {
			return engine.Refuse("Movement 3", "%s would ride down %s on its way; move it first, then reform.", u.Label(), v.Label())
		}
	}
	return tx.Emit(b)
}

func (b UnitSplit) Text() string {
	return fmt.Sprintf("%s sends %s off as a new unit, %s.", b.Label, engine.Plural(b.Stands, "stand", "stands"), b.New.Label())
}

func (b UnitsJoined) Text() string {
	return fmt.Sprintf("%s moves from %s to %s (%s) and reforms with %s, now %s.", b.Label, b.Path[0], b.Path[len(b.Path)-1], squares(b.Cost), b.IntoLabel, engine.Plural(b.Stands, "stand", "stands"))
}
