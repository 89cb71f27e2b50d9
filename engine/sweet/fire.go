package sweet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Shooting: catapults in the first stage of a turn (Catapult Fire), other
// missile troops in the second (Missile Fire). Both sides shoot in each
// stage as they please and end it with /done; since the rules make both
// sides' shooting simultaneous, a unit shoots with the stands it had when
// the stage began, even if it has lost them since.

// The thrown-clay shell. The rules shoot a marked clay projectile from a
// real device and kill one stand within an inch of where it lands. On the
// grid that becomes one d6 (our ruling): 1 or 2 the shell lands in the
// target square; 3 one square beyond it, 4 one square short of it, 5 one
// square to its left and 6 one square to its right, as the catapult sees
// it. It kills one stand in the square where it lands, friend or foe
// (Catapult Fire 2). In a protected square, or among Assyrian heavy
// archers, whose shields count as one (Missile Fire 4), only a 1, a shell
// dead on target, kills (Catapult Fire 4).
const (
	shellOnTarget = 2 // a roll up to this lands in the target square
	shellLong     = 3
	shellShort    = 4
	shellLeft     = 5
	shellRight    = 6
)

// CatapultFired is a catapult's shot.
type CatapultFired struct {
	Catapult  UnitID        `json:"catapult"`
	Label     string        `json:"label"`
	Crew      UnitID        `json:"crew"`
	Target    engine.Square `json:"target"`
	Roll      int           `json:"roll"`
	Landed    engine.Square `json:"landed"`
	Drift     string        `json:"drift"` // "", "long", "short", "left", "right"
	Victim    UnitID        `json:"victim,omitempty"`
	Victims   string        `json:"victim_label,omitempty"`
	Sheltered bool          `json:"sheltered,omitempty"` // landed in protected ground and killed no one
	// Shields is a shell that landed among Assyrian heavy archers and
	// killed no one: their cane shields count as a protected square
	// (Missile Fire 4).
	Shields bool `json:"shields,omitempty"`
}

// MissilesFired is one unit's missile fire (Missile Fire 3 to 5).
type MissilesFired struct {
	Unit   UnitID        `json:"unit"`
	Label  string        `json:"label"`
	At     engine.Square `json:"at"`
	Target UnitID        `json:"target"`
	Victim string        `json:"victim"`
	Band   string        `json:"band"` // "1 square", "1.5 to 2 squares", "over 2 squares"
	Dice   []int         `json:"dice"`
	Needs  string        `json:"needs"`
	Hits   int           `json:"hits"`
	Notes  []string      `json:"notes,omitempty"`
}

func (CatapultFired) Kind() string { return "sweet.catapult-fired" }
func (MissilesFired) Kind() string { return "sweet.missiles-fired" }

var fireBodies = engine.BodyTypes{
	CatapultFired{}.Kind(): engine.Decoder[CatapultFired](),
	MissilesFired{}.Kind(): engine.Decoder[MissilesFired](),
}

func (b CatapultFired) Apply(s *State) error {
	c, err := s.mustUnit(b.Catapult)
	if err != nil {
		return err
	}
	c.Fired = true
	if crew := s.Unit(b.Crew); crew != nil {
		crew.Manned = true
	}
	if b.Victim != "" {
		return s.lose(b.Victim, 1)
	}
	return nil
}

func (b MissilesFired) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Fired = true
	if s.Targets == nil {
		s.Targets = map[UnitID]int{}
	}
	s.Targets[b.Target]++
	return s.lose(b.Target, b.Hits)
}

// lose takes n stands from unit id; with none left it is gone.
func (s *State) lose(id UnitID, n int) error {
	u, err := s.mustUnit(id)
	if err != nil {
		return err
	}
	u.Stands = max(u.Stands-n, 0)
	if u.Stands == 0 {
		u.Gone = true
	}
	return nil
}

var fireCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "fire", Help: "Shoot a catapult (stage 1) or a missile unit (stage 2) at a square (Catapult Fire, Missile Fire).", Example: "/fire unit:ROM-5 at:F7", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the catapult or unit that shoots", Kind: engine.OptElement, Required: true},
		{Name: "at", Help: "the target square, like F7", Kind: engine.OptPoint, Required: true},
		{Name: "target", Help: "which unit in the square to hit, when more than one could be (the shooter's choice)", Kind: engine.OptElement},
	}}, Run: fire},
}

func fire(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Catapults && s.Stage != Missiles {
		return engine.Refuse("Turn Sequence 1, 2", "Shooting comes at the start of a turn, before movement; it is now the %s stage.", s.Stage)
	}
	side, err := s.actingSide(c)
	if err != nil {
		return err
	}
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if u.Side != side {
		return engine.Refuse("", "%s is not yours to command.", u.Label())
	}
	if !u.Placed || u.Off || u.FireStands == 0 {
		return engine.Refuse("", "%s is not on the board.", u.Label())
	}
	if s.Armies[side].Done {
		return engine.Refuse("", "The %s have finished shooting this stage.", s.Armies[side].Name)
	}
	at, err := parseSquare("at", c.Opt("at"))
	if err != nil {
		return err
	}
	if !s.onBoard(at) {
		return engine.Refuse("", "%s is off the board.", at)
	}
	if u.Type.IsCatapult() {
		if s.Stage != Catapults {
			return engine.Refuse("Turn Sequence 1", "Catapults shoot in the first stage of the turn, which has passed.")
		}
		return fireCatapult(tx, s, c, u, at)
	}
	if s.Stage != Missiles {
		return engine.Refuse("Turn Sequence 2", "Only catapults shoot now; other missile troops shoot in the next stage (/done when your catapults have shot).")
	}
	return fireMissiles(tx, s, c, u, at)
}

// crew returns what mans catapult c: a friendly stand of crew or infantry
// in its square, or else a commander there (Catapult Fire 1). Shooting is
// simultaneous, so in the catapult stage the stands that count are those
// in the square when the stage began, even if the other side's shells have
// killed them since.
func (s *State) crew(c *Unit) *Unit {
	var leader *Unit
	for _, o := range s.present(c.At) {
		if o.Side != c.Side {
			continue
		}
		switch f := o.Type.spec().Family; {
		case f == Crew || f == Foot:
			return o
		case f == Leader:
			leader = o
		}
	}
	return leader
}

// present lists the units with stands in q, in the order of [State.At]; in
// a shooting stage, those that had stands there when it began.
func (s *State) present(q engine.Square) []*Unit {
	var out []*Unit
	for i := range s.Units {
		u := &s.Units[i]
		if !u.Placed || u.Off || u.At != q {
			continue
		}
		shooting := s.Stage == Catapults || s.Stage == Missiles
		if shooting && u.FireStands > 0 || !shooting && !u.Gone && u.Stands > 0 {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b *Unit) int { return rankInSquare(a) - rankInSquare(b) })
	return out
}

// inRange reports whether to lies within reach squares of from, counted
// with diagonals at 1.5, the target's square counted and the shooter's not
// (Catapult Fire 3, Movement 1).
func inRange(from, to engine.Square, reach float64) bool {
	return engine.MoveCost(from, to) <= reach+1e-9
}

func fireCatapult(tx *engine.Tx, s *State, c engine.Command, cat *Unit, at engine.Square) error {
	if cat.Fired {
		return engine.Refuse("Catapult Fire 4", "%s has had its one shot this turn.", cat.Label())
	}
	crew := s.crew(cat)
	if crew == nil {
		return engine.Refuse("Catapult Fire 1", "%s has no crew, infantry or commander in its square to man it.", cat.Label())
	}
	if crew.Fired {
		return engine.Refuse("Catapult Fire 1", "%s has shot already this turn and cannot man %s too.", crew.Label(), cat.Label())
	}
	reach := cat.Type.spec().Range
	if !inRange(cat.At, at, reach) {
		return engine.Refuse("Catapult Fire 3", "%s is %g squares away; %s reaches %g.", at, engine.MoveCost(cat.At, at), cat.Label(), reach)
	}
	if !engine.InArc(cat.At, cat.Facing, at, 45) {
		return engine.Refuse("Catapult Fire 2", "%s is not within 45 degrees of %s's facing (%s).", at, cat.Label(), cat.Facing)
	}
	tx.Why(cat.Label() + "'s shot")
	roll := tx.Roll(engine.D6)
	line := engine.SquareDirTo(cat.At, at)
	b := CatapultFired{Catapult: cat.ID, Label: cat.Label(), Crew: crew.ID, Target: at, Roll: roll, Landed: at}
	switch {
	case roll <= shellOnTarget:
	case roll == shellLong:
		b.Drift, b.Landed = "long", at.Step(line)
	case roll == shellShort:
		b.Drift, b.Landed = "short", at.Step(line.Opposite())
	case roll == shellLeft:
		b.Drift, b.Landed = "left", at.Step(line.Turn(-2))
	case roll == shellRight:
		b.Drift, b.Landed = "right", at.Step(line.Turn(2))
	}
	if victim := s.shellVictim(c, cat, b.Landed); victim != nil {
		switch {
		case roll == 1:
			b.Victim, b.Victims = victim.ID, victim.Label()
		case s.terrain(b.Landed) == Protected:
			b.Sheltered = true
		case victim.Type == AssyrianArchers:
			// Their shields count as a protected square whenever they
			// are shot at, by a catapult too (Missile Fire 4).
			b.Shields = true
		default:
			b.Victim, b.Victims = victim.ID, victim.Label()
		}
	}
	return tx.Emit(b)
}

// shellVictim is the stand a shell landing in q kills: the shooter's
// choice (target:) among the units there, otherwise an enemy before a
// friend, the unit before a commander before a catapult.
func (s *State) shellVictim(c engine.Command, cat *Unit, q engine.Square) *Unit {
	there := s.At(q)
	if len(there) == 0 {
		return nil
	}
	if c.Has("target") {
		for _, u := range there {
			if strings.EqualFold(string(u.ID), c.Opt("target")) {
				return u
			}
		}
	}
	for _, u := range there {
		if u.Side != cat.Side {
			return u
		}
	}
	return there[0]
}

// missileNeed is a cell of the missile table: which dice kill a stand.
// Single values kill one stand a die; a Count of 2 or 3 needs that many
// dice showing one of Faces to kill a stand (doubles, triples).
type missileNeed struct {
	Faces []int
	Count int // 1, 2 or 3; 0 is impossible
}

func (n missileNeed) String() string {
	if n.Count == 0 {
		return "nothing can hit it there"
	}
	faces := make([]string, len(n.Faces))
	for i, f := range n.Faces {
		faces[i] = fmt.Sprint(f)
	}
	switch n.Count {
	case 1:
		return "each " + orList(faces) + " kills a stand"
	case 2:
		return "each double " + strings.Join(faces, " or double ") + " kills a stand"
	}
	return "each triple " + strings.Join(faces, " or triple ") + " kills a stand"
}

// orList writes "1", "1 or 2", "1, 2 or 3".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// missileTable is Missile Fire 5, by target class and range band (1
// square; 1.5 to 2 squares; over 2).
var missileTable = map[TargetClass][3]missileNeed{
	TargetLight:      {{[]int{1, 2, 3}, 1}, {[]int{1, 2}, 1}, {[]int{1}, 1}},
	TargetHeavyFoot:  {{[]int{1, 2}, 1}, {[]int{1}, 1}, {[]int{1}, 2}},
	TargetHeavyHorse: {{[]int{1}, 1}, {[]int{1}, 2}, {[]int{1}, 3}},
	TargetBig:        {{[]int{1, 2}, 2}, {[]int{1, 2}, 3}, {[]int{1}, 3}},
	TargetLeader:     {{[]int{1}, 2}, {[]int{1}, 3}, {nil, 0}},
}

var bandNames = [3]string{"1 square", "1.5 to 2 squares", "over 2 squares"}

func band(d float64) int {
	switch {
	case d <= 1:
		return 0
	case d <= 2:
		return 1
	}
	return 2
}

// hits counts the stands dice kill under need: each die showing a face
// for a single; for doubles and triples, each full set of dice showing the
// same listed face.
func (n missileNeed) hits(dice []int) int {
	if n.Count == 0 {
		return 0
	}
	total := 0
	for _, f := range n.Faces {
		k := 0
		for _, d := range dice {
			if d == f {
				k++
			}
		}
		total += k / n.Count
	}
	return total
}

func fireMissiles(tx *engine.Tx, s *State, c engine.Command, u *Unit, at engine.Square) error {
	sp := u.Type.spec()
	switch {
	case sp.Range == 0:
		return engine.Refuse("Missile Fire", "%s has no missiles.", u.Label())
	case u.Fired:
		return engine.Refuse("Missile Fire 1", "%s has shot already this turn.", u.Label())
	case u.Manned && u.FireStands <= 1:
		return engine.Refuse("Catapult Fire 1", "%s manned a catapult this turn with its only stand, which cannot shoot otherwise.", u.Label())
	case !inRange(u.At, at, sp.Range):
		return engine.Refuse("Missile Fire 1", "%s is %g squares away; %s reaches %g.", at, engine.MoveCost(u.At, at), u.Label(), sp.Range)
	case !engine.InArc(u.At, u.Facing, at, 45):
		return engine.Refuse("Missile Fire 1", "%s is not within 45 degrees of %s's facing (%s).", at, u.Label(), u.Facing)
	}
	var targets []*Unit
	for _, o := range s.At(at) {
		if o.Side == u.Side.Other() {
			targets = append(targets, o)
		}
	}
	if len(targets) == 0 {
		return engine.Refuse("Missile Fire 6", "No enemy stands in %s.", at)
	}
	target := targets[0]
	if c.Has("target") {
		i := slices.IndexFunc(targets, func(o *Unit) bool { return strings.EqualFold(string(o.ID), c.Opt("target")) })
		if i < 0 {
			return engine.Refuse("Missile Fire 6", "%s is not an enemy unit in %s.", c.Opt("target"), at)
		}
		target = targets[i]
	}
	// Shooting is simultaneous: a unit shot away earlier in this stage
	// was in the way when the stage began, and screens still.
	var screen []*Unit
	engine.SquareLOS(u.At, at, func(q engine.Square) bool {
		if here := s.present(q); len(here) > 0 {
			screen = here
			return true
		}
		return false
	})
	if len(screen) > 0 {
		names := make([]string, len(screen))
		for i, o := range screen {
			names[i] = o.Label()
		}
		gone := ""
		if len(s.At(screen[0].At)) == 0 {
			gone = ": it was in the way when this stage's shooting began, and all shooting in it is at once"
		}
		return engine.Refuse("Missile Fire 2", "%s in %s screens the shot from %s at %s%s.", engine.JoinAnd(names), screen[0].At, u.Label(), at, gone)
	}
	b := MissilesFired{Unit: u.ID, Label: u.Label(), At: at, Target: target.ID, Victim: target.Label()}
	dice := u.FireStands
	if u.Manned {
		// Only the stand that manned a catapult is kept from shooting
		// (Catapult Fire 1); the rest of its unit shoots.
		dice--
		b.Notes = append(b.Notes, "one stand manned a catapult and does not shoot")
	}
	if u.Type == HeavyChariots {
		dice *= 2
		b.Notes = append(b.Notes, "two dice a stand for heavy chariots")
	}
	if s.terrain(at) == Protected {
		dice--
		b.Notes = append(b.Notes, "one die less into a protected square")
	} else if target.Type == AssyrianArchers {
		dice--
		b.Notes = append(b.Notes, "one die less against Assyrian heavy archers' shields")
	}
	if s.Targets[target.ID] > 0 {
		dice++
		b.Notes = append(b.Notes, "one die more as another unit has shot at the same target")
	}
	d := engine.MoveCost(u.At, at)
	bi := band(d)
	need := missileTable[target.Type.spec().Target][bi]
	b.Band, b.Needs = bandNames[bi], need.String()
	if need.Count == 0 {
		dice = 0 // nothing to roll for: the table says it cannot hit
	}
	tx.Why(u.Label() + "'s missiles")
	for range max(dice, 0) {
		b.Dice = append(b.Dice, tx.Roll(engine.D6))
	}
	b.Hits = min(need.hits(b.Dice), target.Stands)
	return tx.Emit(b)
}
