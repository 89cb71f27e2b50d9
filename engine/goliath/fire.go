package goliath

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Missile fire (Missile Fire): a die for each HT of each figure in the
// first two ranks, hitting on 4-6 against light armour, 5-6 against
// medium and 6 against heavy; rates of fire by weapon and movement,
// heavy crossbows, split-move-and-fire, pass-through fire, arcs, indirect
// fire and cover.

// darkRange is how far a figure that cannot see in the dark shoots at
// night or into darkness (RULINGS.md, goliath, "darkness").
const darkRange = 3

// Fired is one volley.
type Fired struct {
	Firer    string `json:"firer"`
	Target   string `json:"target"`
	Label    string `json:"label"`
	Why      string `json:"why,omitempty"`
	Figures  int    `json:"figures,omitempty"`
	Dice     int    `json:"dice,omitempty"`
	Need     int    `json:"need,omitempty"`
	Mod      int    `json:"mod,omitempty"`
	Rolls    []int  `json:"rolls,omitempty"`
	Confirms []int  `json:"confirms,omitempty"` // second dice for sixes against armour above heavy
	Cover    bool   `json:"cover,omitempty"`
	Indirect bool   `json:"indirect,omitempty"`
	Pause    bool   `json:"pause,omitempty"` // a split move's firing pause
	// RollOff is the firer's and the target's D6 when the firer moved
	// more than half its move; Missed says the firer lost it.
	RollOff []int `json:"rollOff,omitempty"`
	Missed  bool  `json:"missed,omitempty"`
	Harm    Harm  `json:"harm"`
}

// HoldSet says whether a missile unit holds its fire when enemies pass
// it: the text leaves pass-through fire to the owner's choice. For a
// wizard (Wizard set) it says whether he holds his counterspells, which
// the text leaves to his side's choice as well (Spells: an opponent's
// wizard "can" counter).
type HoldSet struct {
	Unit   string `json:"unit"`
	Hold   bool   `json:"hold"`
	Wizard bool   `json:"wizard,omitempty"`
}

func (Fired) Kind() string   { return "goliath.fired" }
func (HoldSet) Kind() string { return "goliath.hold-set" }

var fireBodies = engine.BodyTypes{Fired{}.Kind(): engine.Decoder[Fired](), HoldSet{}.Kind(): engine.Decoder[HoldSet]()}

func (b HoldSet) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.HoldFire = b.Hold
	return nil
}

func (b HoldSet) Text() string {
	if b.Wizard {
		if b.Hold {
			return fmt.Sprintf("%s will not counter the enemy's spells, keeping his castings for his own.", b.Unit)
		}
		return fmt.Sprintf("%s will counter the enemy's spells when he can (Spells).", b.Unit)
	}
	if b.Hold {
		return fmt.Sprintf("%s will hold its fire as enemies pass, keeping its shots for the missile phase.", b.Unit)
	}
	return fmt.Sprintf("%s will shoot at enemies passing it (pass-through fire).", b.Unit)
}

func (b Fired) Apply(s *State) error {
	f, err := s.mustUnit(b.Firer)
	if err != nil {
		return err
	}
	t, err := s.mustUnit(b.Target)
	if err != nil {
		return err
	}
	f.Shots++
	// A heavy crossbow that lost its roll-off loosed nothing: it has
	// nothing to reload (Missile Fire, L124: every other turn).
	if f.Profile.Weapon == HeavyCrossbow && !b.Missed {
		f.Unloaded = true
	}
	if b.Pause {
		f.Paused = true
	}
	if t.Status == Routed {
		t.Attacked = true
	}
	if !b.Missed {
		s.keepingRear(t, func() { b.Harm.apply(f, t, s.Turn) })
	}
	return nil
}

func (b Fired) Text() string {
	var t strings.Builder
	fmt.Fprintf(&t, "%s shoots at %s", b.Label, b.Target)
	if b.Why != "" {
		t.WriteString(" " + b.Why)
	}
	if len(b.RollOff) == 2 {
		fmt.Fprintf(&t, "; having moved more than half its move it must win a roll-off: D6 %d against %d", b.RollOff[0], b.RollOff[1])
		if b.Missed {
			t.WriteString(", lost: no shot.")
			return t.String()
		}
	}
	if b.Indirect {
		t.WriteString(", overhead (indirect: a third off the range, the target's armour one class better)")
	}
	fmt.Fprintf(&t, ": %s firing, %s needing %s", plural(b.Figures, "figure", "figures"), plural(b.Dice, "die", "dice"), needText(b.Need, b.Mod))
	fmt.Fprintf(&t, " %s", dice(b.Rolls))
	if len(b.Confirms) > 0 {
		fmt.Fprintf(&t, ", sixes confirmed on %d+ %s", b.Need-b.Mod-3, dice(b.Confirms))
	}
	if b.Cover {
		t.WriteString(", hits halved for cover")
	}
	t.WriteString(": " + b.Harm.say(b.Target) + ".")
	return t.String()
}

// missileNeed is what a die needs to hit a target of armour a (Missile
// Fire): 4-6 on light, 5-6 on medium, 6 on heavy; a point more for each
// class above heavy (indirect fire raises the class, needing sixes
// confirmed).
func missileNeed(a Armor) int { return 4 + int(a) }

func needText(need, mod int) string {
	eff := need - mod
	switch {
	case eff <= 1:
		return "any roll"
	case eff >= 7:
		return "a 6, then a second die"
	case eff == 6:
		return "6"
	}
	return fmt.Sprintf("%d-6", eff)
}

var fireCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "fire", Help: "Shoot a missile unit at an enemy in range and arc; horse archers may shoot mid-move (split move and fire).",
		Example: "/fire unit:KIN-3 target:ORC-1", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the shooting unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit", Kind: engine.OptElement, Required: true},
			{Name: "indirect", Help: "yes to shoot overhead (bows and longbows): a third off the range, armour one class better", Choices: []string{"yes", "no"}},
		}}, Run: fireCommand},
	{CommandSpec: engine.CommandSpec{Name: "hold", Help: "Choose whether a missile unit gives pass-through fire at enemies moving past it, or a wizard counters enemy spells (each does unless told to hold).",
		Example: "/hold unit:KIN-3 fire:yes", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the missile unit or wizard", Kind: engine.OptElement, Required: true},
			{Name: "fire", Help: "yes to hold its fire (or a wizard's counterspells), no to give pass-through fire (or counter)", Required: true, Choices: []string{"yes", "no"}},
		}}, Run: holdCommand},
}

func holdCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage < Deploying || s.Stage == Over {
		return engine.Refuse("", "Units hold or give fire once they are raised, until the battle ends.")
	}
	u, err := s.own(c.Actor, c.Opt("unit"))
	if err != nil {
		return err
	}
	hold := c.Opt("fire") == "yes"
	if u.Profile.Wizard {
		if u.HoldFire == hold {
			if hold {
				return engine.Refuse("", "%s already holds his counterspells.", u.ID)
			}
			return engine.Refuse("", "%s already counters the enemy's spells.", u.ID)
		}
		return tx.Emit(HoldSet{Unit: u.ID, Hold: hold, Wizard: true})
	}
	if !u.Profile.Shoots() {
		return engine.Refuse("Missile Fire", "%s have no missiles.", u.Profile.Name)
	}
	if u.HoldFire == hold {
		if hold {
			return engine.Refuse("", "%s already holds its fire.", u.ID)
		}
		return engine.Refuse("", "%s already gives pass-through fire.", u.ID)
	}
	return tx.Emit(HoldSet{Unit: u.ID, Hold: hold})
}

func fireCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.own(c.Actor, c.Opt("unit"))
	if err != nil {
		return err
	}
	t, err := s.findUnit(c.Opt("target"))
	if err != nil {
		return err
	}
	sh := shot{indirect: c.Opt("indirect") == "yes"}
	switch {
	case s.Stage == Missile && u.Side == s.Active:
	case s.Stage == Moving && u.Side == s.Active:
		if !u.Profile.SplitsMove() {
			return engine.Refuse("Missile Fire", "Only horsemen armed with bows and those who split move and fire (SA 3) shoot in the movement phase; %s shoot in the missile phase.", u.Profile.Name)
		}
		switch {
		case u.Paused:
			return engine.Refuse("Missile Fire", "%s has already paused to shoot this move.", u.ID)
		case u.Moved > u.Allowance(s.Turn, false)/2+1e-6:
			return engine.Refuse("Missile Fire", "%s has moved more than half its move; it may pause to shoot only within the first half.", u.ID)
		}
		// "Up to half" its move includes none: it may shoot before it
		// stirs and then ride its whole move.
		sh.pause, sh.why = true, "pausing in its move (split move and fire)"
	case s.Stage == Missile || s.Stage == Moving:
		return engine.Refuse("Turn sequence", "%s shoot now; your units shoot when they are done.", engine.Capital(s.armyName(s.Active)))
	default:
		return engine.Refuse("Turn sequence", "Units shoot in the missile phase; it is %s now.", s.Stage)
	}
	if err := s.canShoot(u, t, t.Base, sh); err != nil {
		return err
	}
	if err := s.shoot(tx, u, t, sh); err != nil {
		return err
	}
	if sh.pause && u.In() {
		// The pausing horsemen may be shot at meanwhile; if that makes
		// them give ground, their move is over.
		shaken, err := s.passFire(tx, u, u.Base)
		if err != nil {
			return err
		}
		if err := s.halt(tx, u, shaken); err != nil {
			return err
		}
	}
	_, err = s.checkHeavy(tx, t.ID, u.ID)
	return err
}

// shot says how a volley is shot.
type shot struct {
	why          string
	indirect     bool
	pause        bool
	pass         bool
	simultaneous bool // Method 2: the firer's figures as the phase began
}

// shotsAllowed is how many volleys u may shoot this turn, and whether it
// must win a roll-off first (Missile Fire, Rate of Fire). The roll-off
// after more than half a move is the text's for crossbowmen, archers,
// longbowmen and heavy crossbowmen only: thrown weapons fire once a
// turn however far they moved (L138).
func (s *State) shotsAllowed(u *Unit) (n int, rollOff bool, why string) {
	half := u.Allowance(s.Turn, false) / 2
	// Falling back is movement too, though not of the unit's own will
	// (RULINGS.md, goliath, "rate of fire"): archers driven back a move
	// did move, and do not shoot twice.
	moved := u.Moved + u.Driven
	if u.Charged {
		moved = u.Allowance(s.Turn, false)
	}
	rollOff = moved > half+1e-6 && u.Profile.Weapon != Thrown
	switch w := u.Profile.Weapon; {
	case w == HeavyCrossbow && u.Unloaded:
		return 0, false, "its heavy crossbows are reloading: they shoot every other turn"
	case w.Archers() && moved == 0 && !u.Fought && !s.engaged(u):
		return 2, false, ""
	}
	return 1, rollOff, ""
}

// canShoot refuses a volley the rules do not allow, u shooting at t
// standing at b.
func (s *State) canShoot(u, t *Unit, b engine.Base, sh shot) error {
	p := &u.Profile
	switch {
	case p.Wizard || p.Breath:
		return engine.Refuse("Troop Types", "%s cast their fire with /cast.", p.Name)
	case !p.Shoots():
		return engine.Refuse("Missile Fire", "%s have no missiles.", p.Name)
	case (!u.In() || u.Figures == 0) && !(sh.simultaneous && u.Volley > 0):
		return engine.Refuse("", "%s cannot shoot now.", u.ID)
	case u.Status == Routed:
		return engine.Refuse("Rout and Rally", "%s is routing and may not attack.", u.ID)
	case u.Rallying:
		return engine.Refuse("Rout and Rally", "%s rallied at the start of this turn and spends it rallying: it may neither move nor attack until the next turn.", u.ID)
	case t.Side == u.Side:
		return engine.Refuse("", "%s is a friend.", t.ID)
	case !t.In():
		return engine.Refuse("", "%s is not on the table.", t.ID)
	case s.engaged(u):
		return engine.Refuse("Melee", "%s is in melee and cannot shoot.", u.ID)
	}
	n, _, why := s.shotsAllowed(u)
	if u.Shots >= n {
		if why == "" {
			why = fmt.Sprintf("it has shot %s this turn, all it may", plural(u.Shots, "time", "times"))
		}
		return engine.Refuse("Missile Fire", "%s cannot shoot: %s.", u.ID, why)
	}
	// A unit given pass-through fire is on the move, and so seen (SA 1).
	if why := s.hidden(u, t); why != "" && !sh.pass {
		return engine.Refuse("Special Abilities", "%s cannot shoot at %s: %s.", u.ID, t.ID, why)
	}
	if sh.indirect {
		if !p.Weapon.Archers() {
			return engine.Refuse("Missile Fire", "Only bows and longbows shoot overhead; not %ss.", p.Weapon)
		}
	}
	rng := p.Mss
	if sh.indirect {
		rng = rng * 2 / 3
	}
	dark := s.dark(u, b)
	if dark {
		rng = min(rng, darkRange)
	}
	if d := u.Base.Gap(b); d > rng+1e-6 {
		extra := ""
		if sh.indirect {
			extra = " overhead"
		}
		if dark {
			extra += " in the dark"
		}
		return engine.Refuse("Missile Fire", "%s is %s away; %s shoot %s%s.", t.ID, inches(d), p.Name, inches(rng), extra)
	}
	return s.inSight(u, t, b, sh.indirect)
}

// inSight refuses a missile attack of u at t standing at b that the arc
// or the line of fire does not allow (Missile Fire: Arc of Fire, Indirect
// Fire; woods and buildings screen): the text gives the arcs by mount,
// whatever the missile, and only bows and longbows shoot overhead. A
// wizard's bolts and fireballs, thrown at his Mss range, are held to it
// too (RULINGS.md, goliath, "bolts and fireballs").
func (s *State) inSight(u, t *Unit, b engine.Base, indirect bool) error {
	return s.sightFrom(u, u.Base, t, b, indirect)
}

// sightFrom is inSight with u standing at from: where a written order
// would take it before it shoots (the bot's orderShots).
func (s *State) sightFrom(u *Unit, from engine.Base, t *Unit, b engine.Base, indirect bool) error {
	p := &u.Profile
	left, right := 45.0, 45.0
	if p.Cavalry() {
		left = 180
	}
	if !from.InArc(b, left, right) {
		if p.Cavalry() {
			return engine.Refuse("Missile Fire", "%s is outside %s's arc: horsemen shoot 180° to their left and 45° to their right.", t.ID, u.ID)
		}
		return engine.Refuse("Missile Fire", "%s is outside %s's arc: foot shoot 45° either side of their facing.", t.ID, u.ID)
	}
	front, to := from.FrontCenter(), b.Center
	bases, units := s.others(u)
	for i, o := range bases {
		if units[i] == t || !o.BlocksLine(front, to) {
			continue
		}
		if indirect && o.Gap(from) > 3 {
			continue
		}
		switch {
		case indirect:
			return engine.Refuse("Missile Fire", "%s is within 3\" of %s: overhead fire goes only over troops more than 3\" away.", units[i].ID, u.ID)
		case p.Weapon.Archers():
			return engine.Refuse("Missile Fire", "%s stands in the line of fire; bows and longbows may shoot overhead (indirect:yes).", units[i].ID)
		}
		return engine.Refuse("Missile Fire", "%s stands in the line of fire.", units[i].ID)
	}
	if f := s.screened(front, to); f != "" && !indirect {
		return engine.Refuse("Terrain", "%s blocks the line of fire.", engine.Capital(f))
	}
	return nil
}

// covered reports whether b stands on ground that gives cover (Missile
// Fire: Cover).
func (s *State) covered(b engine.Base) bool {
	for _, g := range s.groundUnder(b) {
		if g.Covers() {
			return true
		}
	}
	return false
}

// hidden says why t cannot be seen by u: invisible (SA 1) while it has
// neither moved (nor been driven back), shot nor fought this turn,
// unless u detects hidden enemies (SA 6) or a light spell lies on it
// (RULINGS.md, goliath, "invisibility").
func (s *State) hidden(u, t *Unit) string {
	if !t.Profile.Has(Invisible) || u.Profile.Has(Detects) {
		return ""
	}
	if t.Moved > 0 || t.Driven > 0 || t.Charged || t.Shots > 0 || t.Fought || t.Cast || s.engaged(t) {
		return ""
	}
	if t.Volley > 0 && s.ordersShot(t) {
		// Under written orders the volleys fly at once: once they have
		// begun, a unit ordered to shoot or cast shows itself to those
		// who shoot at it, whichever is rolled first (L102).
		return ""
	}
	for _, l := range s.Lights {
		if l.covers(t.Base) {
			return ""
		}
	}
	return "it is invisible (SA 1)"
}

// dark reports whether u fights in the dark against a target standing
// at tb: at night, or with either in a darkness spell not lit, and u
// unable to see in darkness (SA 2).
func (s *State) dark(u *Unit, tb engine.Base) bool {
	if u.Profile.Has(DarkSight) {
		return false
	}
	lit := func(b engine.Base) bool {
		for _, l := range s.Lights {
			if l.covers(b) {
				return true
			}
		}
		return false
	}
	for _, b := range []engine.Base{u.Base, tb} {
		for _, d := range s.Darkness {
			if d.covers(b) && !lit(b) {
				return true
			}
		}
	}
	return s.Options.Night && !lit(tb)
}

// shoot rolls a volley of u at t and emits it.
func (s *State) shoot(tx *engine.Tx, u, t *Unit, sh shot) error {
	b := Fired{Firer: u.ID, Target: t.ID, Label: u.Label(), Why: sh.why, Indirect: sh.indirect, Pause: sh.pause}
	tx.Why(u.Label() + "'s fire")
	if _, rollOff, _ := s.shotsAllowed(u); rollOff && !sh.pass {
		b.RollOff = []int{tx.Roll(engine.D6), tx.Roll(engine.D6)}
		if b.RollOff[0] <= b.RollOff[1] {
			b.Missed = true
			return tx.Emit(b)
		}
	}
	figs := u.Figures
	if sh.simultaneous && u.Volley > 0 {
		figs = u.Volley
	}
	// The first two ranks shoot; all of them from a hill over lower ground.
	if !(s.on(u.Base, Hill) && !s.on(t.Base, Hill)) {
		figs = min(figs, 2*u.Frontage)
	}
	b.Figures = figs
	b.Dice = figs * max(1, u.Profile.HT)
	armor := t.Profile.Armor()
	if sh.indirect {
		armor++
	}
	b.Need = missileNeed(armor)
	if u.Profile.Weapon == HeavyCrossbow {
		b.Mod = 1
	}
	b.Rolls = pool(tx, b.Dice)
	hits := 0
	if eff := b.Need - b.Mod; eff <= 6 {
		hits = count(b.Rolls, eff, 0)
	} else {
		for _, r := range b.Rolls {
			if r == 6 {
				b.Confirms = append(b.Confirms, tx.Roll(engine.D6))
			}
		}
		hits = count(b.Confirms, min(6, eff-3), 0)
	}
	b.Cover = s.covered(t.Base)
	if b.Cover {
		hits /= 2
	}
	b.Harm = harm(u, t, hits, false)
	return tx.Emit(b)
}

// passShooters lists the enemy missile units that would give mover
// pass-through fire where it stands at its half-way point (at): those
// that are stationary (not moved, nor driven back by a morale result,
// and not ordered to move this turn under written orders), able, not
// holding their fire, and can shoot at it there; the nearest first.
func (s *State) passShooters(mover *Unit, at engine.Base) []*Unit {
	var out []*Unit
	for _, e := range s.inPlay(mover.Side.Other()) {
		if !e.Able() || e.Moved > 0 || e.Driven > 0 || e.Charged || s.ordersMove(e) || !e.Profile.Shoots() || e.Profile.Wizard || e.HoldFire {
			continue
		}
		if s.canShoot(e, mover, at, shot{pass: true}) == nil {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Unit) int { return cmp.Compare(a.Base.Gap(at), b.Base.Gap(at)) })
	return out
}

// passFire gives pass-through fire: every stationary enemy missile unit
// that can shoot at the mover where it stands at its half-move point (at)
// does so, once, the nearest first, since each volley's hits come off
// before the next (Missile Fire, Pass-through Fire; RULINGS.md, goliath,
// "pass-through fire").
func (s *State) passFire(tx *engine.Tx, mover *Unit, at engine.Base) (Result, error) {
	worst := Holds
	was := mover.Base
	for _, e := range s.passShooters(mover, at) {
		// The fire is given at the half-move portion (L128). A mover that
		// fell back, routed or left the field under a nearer volley is no
		// longer there: the farther shooters keep their shots for the
		// missile phase, where they may shoot at it where it stands. One
		// hemmed in still stands there, and is still shot.
		if !mover.In() || mover.Base.FrontCenter().Dist(was.FrontCenter()) >= 0.05 || mover.Base.Facing != was.Facing {
			return worst, nil
		}
		sh := shot{why: "as it passes (pass-through fire)", pass: true}
		if s.canShoot(e, mover, at, sh) != nil {
			continue
		}
		if err := s.shoot(tx, e, mover, sh); err != nil {
			return worst, err
		}
		r, err := s.checkHeavy(tx, mover.ID)
		if err != nil {
			return worst, err
		}
		worst = max(worst, r)
	}
	return worst, nil
}
