package goliath

import (
	"fmt"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// Movement (Facing and Formation, Terrain, Turn sequence): a unit moves
// its front centre in a straight line within 45° of its facing, paying
// double over rugged ground; turning costs a quarter of its move for each
// 45° begun; a change of formation costs its whole move. Contact with the
// enemy is made by a charge.

// Why says what kind of move a Moved event is.
type Why string

const (
	Walk      Why = "moves"
	Flies     Why = "flies"
	Turns     Why = "turns"
	Reforms   Why = "changes formation"
	Charges   Why = "charges"
	Stumbles  Why = "is stopped"
	Retreats  Why = "gives ground"
	Broken    Why = "breaks off its charge"
	Contacted Why = "meets the enemy"
	// Closing is the first half of a charge, to the point where
	// pass-through fire meets it; Halted ends a move that gave ground
	// there (Missile Fire, L128).
	Closing Why = "closes"
	Halted  Why = "goes no further"
)

// Moved is a unit's move.
type Moved struct {
	Unit     string      `json:"unit"`
	Why      Why         `json:"why"`
	From     engine.Base `json:"from"`
	To       engine.Base `json:"to"`
	Cost     float64     `json:"cost"`
	Left     float64     `json:"left"`               // of its allowance, after
	Frontage int         `json:"frontage,omitempty"` // a change of formation
	Target   string      `json:"target,omitempty"`   // a charge's target
	Air      bool        `json:"air,omitempty"`      // flown
	Dist     float64     `json:"dist,omitempty"`     // the distance covered by a charge or a walk
	Note     string      `json:"note,omitempty"`
}

func (Moved) Kind() string { return "goliath.moved" }

var moveBodies = engine.BodyTypes{Moved{}.Kind(): engine.Decoder[Moved](), Freed{}.Kind(): engine.Decoder[Freed]()}

func (b Moved) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Base, u.Moved = b.To, u.Moved+b.Cost
	if b.Air {
		u.Flew = true
	}
	if b.Frontage > 0 {
		u.Frontage = b.Frontage
	}
	if b.Why == Charges {
		u.Charged = true
	}
	return nil
}

// Freed is a unit's paralyzed figures freed by the touch of an elf, a
// hero, a super hero or a wizard of their side (SA 7a). By is the
// freer's unit; it is the unit itself when figures of a freeing type
// free their own fellows.
type Freed struct {
	Unit  string `json:"unit"`
	By    string `json:"by"`
	Count int    `json:"count"`
}

func (Freed) Kind() string { return "goliath.freed" }

func (b Freed) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.freeHeld()
	return nil
}

func (b Freed) Text() string {
	if b.By == b.Unit {
		return fmt.Sprintf("%s's figures still free touch their fellows paralyzed by a ghoulish touch and free %s to fight again (SA 7a).", b.Unit, plural(b.Count, "figure", "figures"))
	}
	return fmt.Sprintf("%s touches %s: its %s paralyzed by a ghoulish touch fight again (SA 7a).", b.By, b.Unit, plural(b.Count, "figure", "figures"))
}

// frees reports whether u can free the paralyzed by touch (SA 7a): a
// unit of elves, heroes, super heroes or wizards on the table with a
// figure able to touch.
func (u *Unit) frees() bool { return u.Profile.Freer && u.In() && u.Figures > 0 }

// held reports whether u has figures paralyzed until a touch frees them
// (SA 7a; a 7b paralysis wears off by itself).
func (u *Unit) held() bool { return u.In() && u.Paralyzed > u.Numb }

// freeTouched frees the paralyzed a move or charge of u has brought
// into touch with a freer of their side: u's paralyzed friends if u is
// a freer, u's own paralyzed figures if it now touches one.
func (s *State) freeTouched(tx *engine.Tx, u *Unit) error {
	if !u.In() {
		return nil
	}
	for _, f := range s.inPlay(u.Side) {
		if f == u || !f.Base.Touches(u.Base) {
			continue
		}
		switch {
		case u.frees() && f.held():
			if err := tx.Emit(Freed{Unit: f.ID, By: u.ID, Count: f.Paralyzed - f.Numb}); err != nil {
				return err
			}
		case f.frees() && u.held():
			if err := tx.Emit(Freed{Unit: u.ID, By: f.ID, Count: u.Paralyzed - u.Numb}); err != nil {
				return err
			}
		}
	}
	return nil
}

// freeStanding frees, as a turn begins, the paralyzed that a freer of
// their side touches without having moved to them: one that stood
// beside them when they were paralyzed, or the unfrozen figures of a
// freeing unit beside their own paralyzed fellows (SA 7a).
func (s *State) freeStanding(tx *engine.Tx) error {
	for i := range s.Units {
		u := &s.Units[i]
		if !u.held() {
			continue
		}
		by := ""
		if u.frees() {
			by = u.ID
		} else {
			for _, f := range s.inPlay(u.Side) {
				if f != u && f.frees() && f.Base.Touches(u.Base) {
					by = f.ID
					break
				}
			}
		}
		if by != "" {
			if err := tx.Emit(Freed{Unit: u.ID, By: by, Count: u.Paralyzed - u.Numb}); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b Moved) Text() string {
	var t string
	switch b.Why {
	case Turns:
		t = fmt.Sprintf("%s turns to face %s (%s of its move)", b.Unit, b.To.Facing, inches(b.Cost))
	case Reforms:
		t = fmt.Sprintf("%s changes formation to %d across, its whole move", b.Unit, b.Frontage)
	case Charges:
		t = fmt.Sprintf("%s charges %s, %s, into contact with its front centre at %s", b.Unit, b.Target, inches(b.Dist), b.To.FrontCenter())
	case Broken:
		t = fmt.Sprintf("%s breaks off its charge and goes no further, its front centre at %s", b.Unit, b.To.FrontCenter())
	case Closing:
		t = fmt.Sprintf("%s charges at %s: half-way, %s, its front centre at %s", b.Unit, b.Target, inches(b.Dist), b.To.FrontCenter())
	case Halted:
		t = fmt.Sprintf("%s goes no further this turn, its front centre at %s", b.Unit, b.To.FrontCenter())
	case Walk:
		// The distance walked, and what it cost when slowing ground or a
		// turn made it cost more (Terrain, L108; Facing and Formation).
		// Events logged before walks carried their distance say the cost.
		t = fmt.Sprintf("%s %s %s to %s, facing %s", b.Unit, b.Why, inches(b.Cost), b.To.FrontCenter(), b.To.Facing)
		if b.Dist > 0 {
			t = fmt.Sprintf("%s %s %s to %s, facing %s", b.Unit, b.Why, inches(b.Dist), b.To.FrontCenter(), b.To.Facing)
			if b.Cost > b.Dist+0.005 {
				t += fmt.Sprintf(", at a cost of %s of its move", inches(b.Cost))
			}
		}
		if b.Left > 0.05 {
			t += fmt.Sprintf(" (%s left)", inches(b.Left))
		}
	default:
		t = fmt.Sprintf("%s %s %s to %s, facing %s", b.Unit, b.Why, inches(b.Cost), b.To.FrontCenter(), b.To.Facing)
		if b.Left > 0.05 && b.Why != Contacted {
			t += fmt.Sprintf(" (%s left)", inches(b.Left))
		}
	}
	if b.Note != "" {
		t += ", " + b.Note
	}
	return t + "."
}

var moveCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move a unit: its front centre goes straight to a point within 45° of its facing, with an optional turn at the end.",
		Example: "/move unit:KIN-1 to:30,16 facing:NE", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
			{Name: "to", Help: "where its front centre goes, x,y in inches", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "a facing to turn to at the end: N, NE, E… or degrees"},
			{Name: "air", Help: "yes to fly (fliers only), over troops and terrain", Choices: []string{"yes", "no"}},
		}}, Run: moveCommand},
	{CommandSpec: engine.CommandSpec{Name: "charge", Help: "Charge an enemy unit in front of you, up to your charge move; it checks morale when charged.",
		Example: "/charge unit:KIN-4 target:ORC-2", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the charging unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit charged", Kind: engine.OptElement, Required: true},
		}}, Run: chargeCommand},
	{CommandSpec: engine.CommandSpec{Name: "face", Help: "Turn a unit in place: a quarter of its move for each 45° begun.",
		Example: "/face unit:KIN-1 facing:E", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
			{Name: "facing", Help: "N, NE, E… or degrees", Required: true},
		}}, Run: faceCommand},
	{CommandSpec: engine.CommandSpec{Name: "formation", Help: "Change a unit's frontage; it costs the whole move.",
		Example: "/formation unit:KIN-1 frontage:6", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
			{Name: "frontage", Help: "figures across the front", Kind: engine.OptInt, Required: true},
		}}, Run: formationCommand},
}

// mover finds the actor's unit that may move now in Method 1.
func (s *State) mover(c engine.Command) (*Unit, error) {
	if s.Stage != Moving {
		return nil, engine.Refuse("Turn sequence", "Units move in the movement phase; it is %s now.", s.Stage)
	}
	u, err := s.own(c.Actor, c.Opt("unit"))
	if err != nil {
		return nil, err
	}
	if u.Side != s.Active {
		return nil, engine.Refuse("Turn sequence", "%s move now; your units move when they are done.", engine.Capital(s.armyName(s.Active)))
	}
	return u, s.canMove(u)
}

// canMove refuses a unit that may not move at all.
func (s *State) canMove(u *Unit) error {
	switch {
	case !u.Placed:
		return engine.Refuse("", "%s is not on the table.", u.ID)
	case u.Status == Gone:
		return engine.Refuse("", "%s has %s.", u.ID, u.Lost)
	case u.Status == Routed:
		return engine.Refuse("Rout and Rally", "%s is routing: it may not move until it rallies.", u.ID)
	case u.Rallying:
		return engine.Refuse("Rout and Rally", "%s rallied at the start of this turn and spends it rallying: it may neither move nor attack until the next turn.", u.ID)
	case u.Figures == 0:
		return engine.Refuse("Special Abilities", "Every figure of %s is paralyzed.", u.ID)
	}
	return nil
}

// turnCost is what turning from one facing to another costs: a quarter
// of the move for each 45° begun (Facing and Formation).
func turnCost(mv float64, from, to engine.Heading) float64 {
	deg := math.Abs(from.Diff(to))
	if deg < 0.5 {
		return 0
	}
	return mv / 4 * math.Ceil(deg/45-1e-9)
}

func moveCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.mover(c)
	if err != nil {
		return err
	}
	to, err := engine.ReadPoint("to", c.Opt("to"), "inches")
	if err != nil {
		return err
	}
	var facing *engine.Heading
	if c.Has("facing") {
		h, err := engine.ReadFacing(c.Opt("facing"))
		if err != nil {
			return err
		}
		facing = &h
	}
	if u.Base.FrontCenter().Dist(to) < 0.01 && (facing == nil || turnCost(1, u.Base.Facing, *facing) == 0) {
		return engine.Refuse("", "%s already stands at %s; /face turns it where it stands.", u.ID, to)
	}
	return s.move(tx, u, to, facing, c.Opt("air") == "yes", false)
}

// move carries out a move. partial (a written order) goes as far as it
// can instead of being refused when blocked or too long.
func (s *State) move(tx *engine.Tx, u *Unit, to engine.Vec, facing *engine.Heading, air, partial bool) error {
	if s.engaged(u) {
		return engine.Refuse("Melee", "%s is in melee: it fights until morale breaks the contact.", u.ID)
	}
	if air && u.Profile.Fly == 0 {
		return engine.Refuse("Figures", "%s cannot fly.", u.ID)
	}
	allow := u.Allowance(s.Turn, air)
	if u.Moved > 0 && u.Flew != air {
		// A flier walks or flies in a turn (RULINGS.md, goliath, "flying").
		return engine.Refuse("Figures", "%s has walked or flown already this turn; it does one or the other.", u.ID)
	}
	if allow-u.Moved <= 0.01 {
		return engine.Refuse("Turn sequence", "%s has used its whole move this turn.", u.ID)
	}
	end := u.Base.Facing
	if facing != nil {
		end = *facing
	}
	w := way{u: u, to: to, end: end, air: air, partial: partial, allow: allow}
	ok, err := s.planWay(&w)
	if err != nil || !ok {
		return err
	}
	final, frac, cost, why := w.final, w.frac, w.cost, w.why
	c := cost + turnCost(allow, u.Base.Facing, final.Facing)
	if err := s.shotBound(u, u.Moved+c, allow, "move"); err != nil {
		return err
	}
	half := allow / 2
	before := u.Moved
	from0 := u.Base
	dist := u.Base.FrontCenter().Dist(to) * frac
	walked := 0.0
	if why == Walk {
		walked = dist
	}
	whole := Moved{Unit: u.ID, Why: why, From: from0, To: final, Cost: c, Left: max(0, allow-before-c), Air: air, Dist: walked}
	if before >= half-1e-9 || before+c < half-1e-9 || c <= 0 {
		if err := tx.Emit(whole); err != nil {
			return err
		}
		return s.freeTouched(tx, u)
	}
	// Pass-through fire falls between the two halves of a move (Turn
	// sequence: moves split into half-move segments for it; Missile
	// Fire, L128). When an enemy will shoot, u goes to its half-way
	// point, is shot there, and goes on only if it holds.
	t := s.spentAt(from0.FrontCenter(), final.FrontCenter(), half-before, air)
	at := from0.WithFrontCenter(from0.FrontCenter().Lerp(final.FrontCenter(), t))
	if t > 1-1e-9 || len(s.passShooters(u, at)) == 0 {
		if err := tx.Emit(whole); err != nil {
			return err
		}
		if err := s.freeTouched(tx, u); err != nil {
			return err
		}
		shaken, err := s.passFire(tx, u, at)
		if err != nil {
			return err
		}
		return s.halt(tx, u, shaken)
	}
	first := Walk
	if air {
		first = Flies
	}
	d1 := 0.0
	if !air {
		d1 = dist * t
	}
	if err := tx.Emit(Moved{Unit: u.ID, Why: first, From: from0, To: at, Cost: half - before, Left: allow - half, Air: air, Dist: d1}); err != nil {
		return err
	}
	shaken, err := s.passFire(tx, u, at)
	if err != nil {
		return err
	}
	if shaken != Holds || !u.Able() {
		return s.halt(tx, u, shaken)
	}
	// The rest of the way, with the figures the missiles left it: its
	// losses came off the rear, so its front goes where it was going.
	rest := whole
	rest.From, rest.To = u.Base, u.Base.WithFacing(final.Facing).WithFrontCenter(final.FrontCenter())
	rest.Cost, rest.Dist = c-(half-before), walked*(1-t)
	if err := tx.Emit(rest); err != nil {
		return err
	}
	return s.freeTouched(tx, u)
}

// spentAt is the share of the straight way from a to b at which a mover
// has spent need of its move: where it has used half its move, and
// pass-through fire meets it (Missile Fire, L128), or where what it has
// left runs out. Ground that slows costs double (Terrain, L108), so over
// mixed ground that is not the same share of the distance; in the air
// every inch costs one. When the way costs less than need, the rest is
// spent in the turn at its end, and the mover stands at b.
func (s *State) spentAt(a, b engine.Vec, need float64, air bool) float64 {
	l := a.Dist(b)
	if need <= 0 {
		return 0
	}
	if l <= 0 {
		return 1
	}
	var spans [][2]float64
	if !air {
		spans, _, _ = s.slowSpans(a, b)
	}
	// Walk the way in stretches, open and slowing by turns, until need is
	// spent.
	pos, spent := 0.0, 0.0
	stretch := func(end, rate float64) (float64, bool) {
		c := (end - pos) * l * rate
		if spent+c >= need {
			return pos + (need-spent)/(l*rate), true
		}
		spent, pos = spent+c, end
		return 0, false
	}
	for _, sp := range spans {
		if x, ok := stretch(sp[0], 1); ok {
			return x
		}
		if x, ok := stretch(sp[1], 2); ok {
			return x
		}
	}
	if x, ok := stretch(1, 1); ok {
		return min(x, 1)
	}
	return 1
}

// shotBound refuses a movement that would take u, having shot this
// turn, past half its move (allow): to moved in all, or, for a charge or
// a change of formation, its whole move. Missile troops that move more
// than half their move shoot in that turn only by winning a roll-off
// (Missile Fire, L122, L124); in Method 1 a side's missile troops may
// give pass-through fire (L128) before their own move, and having shot
// without one they keep within half. Thrown weapons fire once a turn
// however far their throwers go (L138); horsemen who split move and
// fire go the balance of their move after their shot (L126), but do not
// charge (RULINGS.md, goliath, "no charge after the pause"). Archers
// who have shot twice, as only those who do not move may, do not move.
func (s *State) shotBound(u *Unit, moved, allow float64, what string) error {
	if u.Shots == 0 || u.Profile.Weapon == Thrown {
		return nil
	}
	if u.Shots > 1 {
		return engine.Refuse("Missile Fire", "%s has shot twice this turn, which archers may only in a turn they do not move: it may not move.", u.ID)
	}
	why := "for missile troops that move more than half shoot only by winning a roll-off"
	switch what {
	case "charge":
		return engine.Refuse("Missile Fire", "%s has shot this turn: it may not charge, a charge being its whole move, %s.", u.ID, why)
	case "formation":
		return engine.Refuse("Missile Fire", "%s has shot this turn: it may not change formation, which costs its whole move, %s.", u.ID, why)
	}
	if u.Profile.SplitsMove() || moved <= allow/2+1e-6 {
		return nil
	}
	return engine.Refuse("Missile Fire", "%s has shot this turn: it may move no more than half its move, %s, %s.", u.ID, inches(allow/2), why)
}

// halt ends the move of a unit that pass-through fire made give ground
// (shaken is the worst morale result of the volleys): like a charger
// that falls back, it goes no further this turn (RULINGS.md, goliath,
// "pass-through fire"). A unit that routed or left the field has no
// move to end.
func (s *State) halt(tx *engine.Tx, u *Unit, shaken Result) error {
	if shaken == Holds || !u.Able() {
		return nil
	}
	return tx.Emit(Moved{Unit: u.ID, Why: Halted, From: u.Base, To: u.Base, Cost: max(0, u.Allowance(s.Turn, u.Flew)-u.Moved), Air: u.Flew, Note: "having given ground under the missiles"})
}

// way is a move of u being planned: to a point and a facing, walking or
// in the air, and, when partial, as far as it can go. planWay fills in
// where it ends (final), the share of the way it goes (frac), what the
// ground costs (cost) and what kind of move it is (why).
type way struct {
	u            *Unit
	to           engine.Vec
	end          engine.Heading
	air, partial bool
	allow        float64

	final engine.Base
	frac  float64
	cost  float64 // of the part of the way it goes
	why   Why
}

// planWay checks a move and finds where it ends. It reports false,
// without an error, when a partial move cannot be made at all.
func (s *State) planWay(w *way) (bool, error) {
	u, to, air, partial := w.u, w.to, w.air, w.partial
	left := w.allow - u.Moved
	from := u.Base.FrontCenter()
	dist := from.Dist(to)
	if dist > 0.01 {
		if d := math.Abs(u.Base.Facing.Diff(engine.HeadingTo(from, to))); d > 45+1e-6 {
			if !partial {
				return false, engine.Refuse("Facing and Formation", "%s can only move within 45° of its facing (%s); that way is %.0f° off. Turn it first with /face.", u.ID, u.Base.Facing, d)
			}
			return false, nil
		}
	}
	turn := turnCost(w.allow, u.Base.Facing, w.end)
	cost, water, _ := s.pathCost(from, to)
	if air {
		cost, water = dist, false
	}
	if water {
		if !partial {
			return false, engine.Refuse("Terrain", "%s cannot cross water but in the air.", u.ID)
		}
		return false, nil
	}
	frac := 1.0
	if cost+turn > left+1e-6 {
		if !partial {
			return false, engine.Refuse("Turn sequence", "That move costs %s (ground that slows counts double, turns a quarter move per 45°); %s has %s left.", inches(cost+turn), u.ID, inches(left))
		}
		if cost <= 0 || left-turn <= 0 {
			return false, nil
		}
		// As far as what is left pays for: over mixed ground that is not
		// the same share of the way as of the cost (Terrain, L108).
		frac = s.spentAt(from, to, left-turn, air)
	}
	target := u.Base.WithFrontCenter(from.Lerp(to, frac))
	bases, units := s.others(u)
	if !air {
		f, hit := u.Base.Sweep(target.Center, bases...)
		if f < 1-1e-9 {
			if !partial {
				return false, engine.Refuse("", "%s would run into %s on the way.", u.ID, units[hit].ID)
			}
			frac *= f
			target = u.Base.WithFrontCenter(from.Lerp(to, frac))
		}
	}
	final := target.WithFacing(w.end)
	final = final.WithFrontCenter(target.FrontCenter())
	if !s.onTable(final) {
		if !partial {
			return false, engine.Refuse("", "%s would leave the table.", u.ID)
		}
		return false, nil
	}
	why, err := s.wayEnd(u, final, bases, units, air, partial)
	if err != nil {
		return false, err
	}
	if frac < 1 {
		cost = dist * frac
		if !air {
			cost, _, _ = s.pathCost(from, from.Lerp(to, frac))
		}
	}
	w.final, w.frac, w.cost, w.why = final, frac, cost, why
	return true, nil
}

// wayEnd checks where a move of u ends: on no other unit, touching no
// enemy (contact is made by /charge; a written order's move stops in
// contact), and not in water unless in the air. It says what kind of
// move it is.
func (s *State) wayEnd(u *Unit, final engine.Base, bases []engine.Base, units []*Unit, air, partial bool) (Why, error) {
	why := Walk
	if air {
		why = Flies
	}
	for i, o := range bases {
		if final.Clashes(o) || (o != u.Base && final.Touches(o) && units[i].Side != u.Side) {
			if partial && units[i].Side != u.Side && !final.Clashes(o) {
				why = Contacted
				continue
			}
			if units[i].Side != u.Side {
				return why, engine.Refuse("Morale Check", "%s would end in contact with %s: make contact by /charge.", u.ID, units[i].ID)
			}
			return why, engine.Refuse("", "%s would overlap %s there.", u.ID, units[i].ID)
		}
	}
	if !air && s.on(final, Water) {
		return why, engine.Refuse("Terrain", "%s cannot stand in water.", u.ID)
	}
	return why, nil
}

func faceCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.mover(c)
	if err != nil {
		return err
	}
	h, err := engine.ReadFacing(c.Opt("facing"))
	if err != nil {
		return err
	}
	return s.face(tx, u, h)
}

// face turns a unit in place about its centre.
func (s *State) face(tx *engine.Tx, u *Unit, h engine.Heading) error {
	mv := u.Allowance(s.Turn, false)
	cost := turnCost(mv, u.Base.Facing, h)
	if cost == 0 {
		return engine.Refuse("", "%s already faces %s.", u.ID, h)
	}
	if cost > mv-u.Moved+1e-6 {
		return engine.Refuse("Facing and Formation", "That turn costs %s; %s has %s of its move left.", inches(cost), u.ID, inches(mv-u.Moved))
	}
	if err := s.shotBound(u, u.Moved+cost, mv, "move"); err != nil {
		return err
	}
	to := u.Base.WithFacing(h)
	bases, units := s.others(u)
	for i, o := range bases {
		if to.Clashes(o) && !u.Base.Clashes(o) {
			return engine.Refuse("", "%s has no room to turn: it would overlap %s.", u.ID, units[i].ID)
		}
	}
	if !s.onTable(to) {
		return engine.Refuse("", "%s has no room to turn there: it would leave the table.", u.ID)
	}
	return tx.Emit(Moved{Unit: u.ID, Why: Turns, From: u.Base, To: to, Cost: cost, Left: mv - u.Moved - cost})
}

func formationCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.mover(c)
	if err != nil {
		return err
	}
	n, err := c.Int("frontage", 0)
	if err != nil {
		return err
	}
	return s.reform(tx, u, n)
}

// reform changes a unit's frontage, keeping its front centre.
func (s *State) reform(tx *engine.Tx, u *Unit, n int) error {
	if n < 1 || n > u.Total() {
		return engine.Refuse("Facing and Formation", "frontage: must be from 1 to the unit's %d figures.", u.Total())
	}
	if n == min(u.Frontage, u.Total()) {
		return engine.Refuse("", "%s already stands %d across.", u.ID, n)
	}
	if u.Moved > 0 {
		return engine.Refuse("Facing and Formation", "A change of formation costs a whole move, and %s has moved this turn.", u.ID)
	}
	if s.engaged(u) {
		return engine.Refuse("Melee", "%s is in melee and cannot change formation.", u.ID)
	}
	if err := s.shotBound(u, math.Inf(1), 0, "formation"); err != nil {
		return err
	}
	for _, g := range s.groundUnder(u.Base) {
		if g.Bars() {
			return engine.Refuse("Terrain", "%s stands on %s ground, where formations cannot be changed.", u.ID, g)
		}
	}
	to := u.shape(u.Total(), n, u.Base.FrontCenter(), u.Base.Facing)
	if !s.onTable(to) {
		return engine.Refuse("", "%s has no room for that formation: it would leave the table.", u.ID)
	}
	if err := s.roomFor(u, to); err != nil {
		return engine.Refuse("", "%s has no room for that formation: %s", u.ID, err.(*engine.Refusal).Text)
	}
	mv := u.Allowance(s.Turn, false)
	return tx.Emit(Moved{Unit: u.ID, Why: Reforms, From: u.Base, To: to, Cost: mv, Frontage: n})
}

func chargeCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.mover(c)
	if err != nil {
		return err
	}
	t, err := s.findUnit(c.Opt("target"))
	if err != nil {
		return err
	}
	return s.charge(tx, u, t)
}

// contactEdge is where a charger meets the target: the middle of the
// target's edge that faces the charger, and the heading the charger
// faces to strike it.
func contactEdge(t engine.Base, from engine.Vec) (engine.Vec, engine.Heading, engine.Side) {
	side := t.SideFacing(from)
	var out engine.Heading
	var at engine.Vec
	h := t.Facing
	switch side {
	case engine.Front:
		out, at = h, t.FrontCenter()
	case engine.Rear:
		out, at = h.Reverse(), t.Center.Add(h.Vec().Scale(-t.Depth/2))
	case engine.Right:
		out, at = h.Add(90), t.Center.Add(h.Add(90).Vec().Scale(t.Width/2))
	default:
		out, at = h.Add(-90), t.Center.Add(h.Add(-90).Vec().Scale(t.Width/2))
	}
	return at, out.Reverse(), side
}

// chargePlan is a charge the rules allow: from the charger's front centre
// to the point of contact on the face of the target it meets, and what
// the way there costs.
type chargePlan struct {
	from, at    engine.Vec
	facing      engine.Heading
	side        engine.Side // the face of the target met
	cost, reach float64
	start, end  engine.Base // the charger turned to go, and at contact
}

// planCharge works out u's charge at t, or says why the rules refuse it
// (Troop Types, Turn sequence, Morale Check, Terrain, Special Abilities).
func (s *State) planCharge(u, t *Unit) (chargePlan, error) {
	switch {
	case t.Side == u.Side:
		return chargePlan{}, engine.Refuse("", "%s is a friend.", t.ID)
	case !t.In():
		return chargePlan{}, engine.Refuse("", "%s is not on the table.", t.ID)
	case u.Profile.ChargeMove() <= 0:
		return chargePlan{}, engine.Refuse("Troop Types", "%s do not move, and so cannot charge.", u.Profile.Name)
	case u.Moved > 0:
		return chargePlan{}, engine.Refuse("Turn sequence", "A charge is a unit's whole move, and %s has moved this turn.", u.ID)
	case u.Paused:
		// Split move and fire grants a move, a shot, and the balance of
		// the MV (L126), not a charge: a charge is a move of its own, at
		// Chg (Figures, item 8), and the whole of the unit's move.
		return chargePlan{}, engine.Refuse("Missile Fire", "%s has paused in its move to shoot (split move and fire): it may ride on with the balance of its move, but not charge this turn.", u.ID)
	case s.engaged(u):
		return chargePlan{}, engine.Refuse("Melee", "%s is already in melee.", u.ID)
	}
	if err := s.shotBound(u, math.Inf(1), 0, "charge"); err != nil {
		return chargePlan{}, err
	}
	if why := s.hidden(u, t); why != "" {
		return chargePlan{}, engine.Refuse("Special Abilities", "%s cannot charge %s: %s.", u.ID, t.ID, why)
	}
	if s.dark(u, t.Base) {
		return chargePlan{}, engine.Refuse("Special Abilities", "%s cannot see to charge in the dark (only those who see in darkness, SA 2, can).", u.ID)
	}
	p := chargePlan{from: u.Base.FrontCenter()}
	p.at, p.facing, p.side = contactEdge(t.Base, p.from)
	if d := math.Abs(u.Base.Facing.Diff(engine.HeadingTo(p.from, p.at))); d > 90+1e-6 && p.from.Dist(p.at) > 0.01 {
		return chargePlan{}, engine.Refuse("Morale Check", "%s is not in front of %s: a charge goes at an enemy ahead of it.", t.ID, u.ID)
	}
	cost, water, bars := s.pathCost(p.from, p.at)
	if water {
		return chargePlan{}, engine.Refuse("Terrain", "%s cannot charge across water.", u.ID)
	}
	if bars {
		return chargePlan{}, engine.Refuse("Terrain", "Difficult ground lies on the way: no charges over it.")
	}
	p.cost, p.reach = cost, u.ChargeReach(s.Turn)
	if p.cost > p.reach+1e-6 {
		return chargePlan{}, engine.Refuse("Figures", "%s is %s away (ground that slows counts double); %s charge %s.", t.ID, inches(p.cost), u.Profile.Name, inches(p.reach))
	}
	p.end = u.Base.WithFacing(p.facing).WithFrontCenter(p.at)
	bases, units := s.others(u)
	var others []engine.Base
	var names []*Unit
	for i, o := range bases {
		if units[i] != t {
			others, names = append(others, o), append(names, units[i])
		}
	}
	p.start = u.Base.WithFacing(p.facing).WithFrontCenter(p.from)
	if f, hit := p.start.Sweep(p.end.Center, others...); f < 1-1e-9 {
		return chargePlan{}, engine.Refuse("", "%s is in the way of the charge.", names[hit].ID)
	}
	for i, o := range others {
		if p.end.Clashes(o) {
			return chargePlan{}, engine.Refuse("", "There is no room to charge home: %s would overlap %s.", u.ID, names[i].ID)
		}
	}
	if !s.onTable(p.end) {
		return chargePlan{}, engine.Refuse("", "%s would leave the table.", u.ID)
	}
	return p, nil
}

// charge carries out a charge: pass-through fire at its half-way point,
// the target's thrown weapons, contact, and the target's morale check.
func (s *State) charge(tx *engine.Tx, u, t *Unit) error {
	p, err := s.planCharge(u, t)
	if err != nil {
		return err
	}
	from, at, facing, side, cost, reach, start := p.from, p.at, p.facing, p.side, p.cost, p.reach, p.start
	// The target's thrown weapons, loosed at its chargers whatever it did
	// this turn (Missile Fire, L138).
	throws := func() bool {
		return t.Able() && !t.Rallying && t.Profile.Weapon == Thrown && t.Shots == 0 && !s.engaged(t)
	}
	// Pass-through fire at the half-way point, then the target's thrown
	// weapons, at the same point: the text names one moment at which
	// missile troops shoot at those charging them, the half-move portion
	// (L128, L96), and L138's "always" widens who throws, not when.
	mid := start.WithFrontCenter(from.Lerp(at, 0.5))
	if len(s.passShooters(u, mid)) > 0 || throws() {
		// It is shot where it stands, half-way (Missile Fire, L128); the
		// charge's cost is counted when it goes home or breaks.
		if err := tx.Emit(Moved{Unit: u.ID, Why: Closing, From: u.Base, To: mid, Target: t.ID, Dist: cost / 2}); err != nil {
			return err
		}
	}
	was := u.Base
	// Losses alone narrow or shorten the charger's base (they come off
	// the rear rank) but leave its front where it was; a morale result
	// moves the front, unless the unit is hemmed in (Shifted).
	gaveGround := func() bool {
		return u.Base.FrontCenter().Dist(was.FrontCenter()) >= 0.05 || u.Base.Facing != was.Facing
	}
	shaken, err := s.passFire(tx, u, mid)
	if err != nil {
		return err
	}
	if u.Able() && shaken == Holds && !gaveGround() && throws() {
		if err := s.shoot(tx, t, u, shot{why: "at the chargers (Missile Fire: thrown weapons)"}); err != nil {
			return err
		}
		// Heavy losses are checked as soon as they are taken, before
		// contact (Morale Check, L190).
		r, err := s.checkHeavy(tx, u.ID)
		if err != nil {
			return err
		}
		shaken = max(shaken, r)
	}
	// A charger that broke, or fell back a move after its losses, goes
	// no further: a unit that falls back does not go on charging
	// (Morale Check; RULINGS.md, goliath, "charges"); one that held goes
	// on with the figures it has left.
	fellBack := gaveGround() || shaken != Holds
	if !u.Able() || u.Figures == 0 || fellBack {
		if u.In() {
			note := "under the missiles"
			switch {
			case gaveGround():
				note = "having fallen back under the missiles"
			case fellBack:
				note = "bound to give ground under the missiles"
			}
			return tx.Emit(Moved{Unit: u.ID, Why: Broken, From: u.Base, To: u.Base, Cost: reach, Note: note})
		}
		return nil
	}
	// The charger's base as the missiles left it.
	end := u.Base.WithFacing(facing).WithFrontCenter(at)
	note := ""
	switch side {
	case engine.Left, engine.Right:
		note = fmt.Sprintf("against %s's %s flank", t.ID, side)
	case engine.Rear:
		note = fmt.Sprintf("against %s's rear", t.ID)
	}
	if err := tx.Emit(Moved{Unit: u.ID, Why: Charges, From: u.Base, To: end, Cost: u.Allowance(s.Turn, false), Dist: cost, Target: t.ID, Note: note}); err != nil {
		return err
	}
	if err := s.freeTouched(tx, u); err != nil {
		return err
	}
	why := "on being charged"
	if u.Profile.Has(Fearsome) {
		why = "on being charged by " + u.Profile.Name + " (SA 5)"
	}
	_, err = s.test(tx, t, why, false)
	return err
}
