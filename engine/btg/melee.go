package btg

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The phases no player acts in, played when both sides end their fire:
// morale from fire (§3 A, F, G), melee (§5), morale from melee (§3 C–G)
// and the rally/rout phase (§3; RULINGS.md, btg, "rally"). Every die is
// rolled and recorded here, unit by unit.

// Removed takes a unit out of the battle.
type Removed struct {
	Unit  string `json:"unit"`
	Label string `json:"label"`
	Loss  Loss   `json:"loss"`
	By    string `json:"by,omitempty"` // the captor
}

// FiguresSet sets a unit's figures: a scenario, an event, a ruling.
// Full, when set, is the unit's full strength afterwards: figures that
// join it (Peasant Levies, §6) raise its full strength with its figures.
type FiguresSet struct {
	Unit    string `json:"unit"`
	Label   string `json:"label"`
	Figures int    `json:"figures"`
	Was     int    `json:"was,omitempty"`
	Full    int    `json:"full,omitempty"`
	Why     string `json:"why"`
	// Harm marks figures lost to harm done in play (an event's), not
	// set by a scenario: elephants so wounded check morale (3.G).
	Harm bool `json:"harm,omitempty"`
}

// MoraleChecked is a morale check (§3): a D6 plus the unit's base morale
// plus the modifiers; 1–2 routs, 3–4 falls back (or stops), 5–6 holds.
type MoraleChecked struct {
	Unit   string   `json:"unit"`
	Label  string   `json:"label"`
	Why    string   `json:"why"`
	Roll   int      `json:"roll"`
	Base   int      `json:"base"`
	Mod    int      `json:"mod"`
	Mods   []string `json:"mods,omitempty"`
	Total  int      `json:"total"`
	Result Check    `json:"result"`
	Rally  bool     `json:"rally,omitempty"`
	// Elephants rampage where other troops rout (§3).
	Elephants bool `json:"elephants,omitempty"`
}

// Support is a friend within 1" adding its dice to a melee (5.C).
// Supporting elephants roll to triple their own hits (8b).
type Support struct {
	Unit   string `json:"unit"`
	Band   int    `json:"band"`
	Rolls  []int  `json:"rolls"`
	Triple int    `json:"triple,omitempty"`
}

// Fought is one unit's dice in the melee phase against the enemy it
// faces, and what they did (§5, §8b).
type Fought struct {
	Unit     string    `json:"unit"`
	Opponent string    `json:"opponent"`
	Label    string    `json:"label"`
	Band     int       `json:"band"`
	Rolls    []int     `json:"rolls"`
	Bonus    []int     `json:"bonus,omitempty"`
	BonusWhy []string  `json:"bonusWhy,omitempty"`
	Supports []Support `json:"supports,omitempty"`
	Triple   int       `json:"triple,omitempty"` // elephants' D6: 5 or less triples (8b)
	Kills    int       `json:"kills,omitempty"`  // Bloodthirstiness (§6)
	Hits     int       `json:"hits"`
	Armor    int       `json:"armor"`
	Lost     int       `json:"lost"`
	Wounds   int       `json:"wounds"`
	// The opponent's leader's D10 (read 0–9) when it lost figures: a 0
	// hits him (5.F).
	Leader     string `json:"leader,omitempty"`
	LeaderRoll int    `json:"leaderRoll,omitempty"`
	LeaderHit  bool   `json:"leaderHit,omitempty"`
}

// MeleeJudged names the units that lost the melee (§3.D) and those
// surrounded (§3.E): each checks morale.
type MeleeJudged struct {
	Losers     []string `json:"losers,omitempty"`
	Surrounded []string `json:"surrounded,omitempty"`
}

func (Removed) Kind() string       { return "btg.removed" }
func (FiguresSet) Kind() string    { return "btg.figures-set" }
func (MoraleChecked) Kind() string { return "btg.morale-checked" }
func (Fought) Kind() string        { return "btg.fought" }
func (MeleeJudged) Kind() string   { return "btg.melee-judged" }

var combatBodies = engine.BodyTypes{
	Removed{}.Kind():       engine.Decoder[Removed](),
	FiguresSet{}.Kind():    engine.Decoder[FiguresSet](),
	MoraleChecked{}.Kind(): engine.Decoder[MoraleChecked](),
	Fought{}.Kind():        engine.Decoder[Fought](),
	MeleeJudged{}.Kind():   engine.Decoder[MeleeJudged](),
}

// remove takes u out of the battle. A leader whose unit is destroyed
// stands alone where it stood; one whose unit is captured, flees or
// leaves goes with it.
func (s *State) remove(u *Unit, loss Loss) {
	u.Status, u.Lost, u.Shaken = Gone, loss, ""
	if l := s.leaderOf(u); l != nil {
		l.Unit = ""
		if loss == Destroyed {
			l.At, l.Facing = u.Base.Center, u.Base.Facing
		} else {
			l.Gone = true
		}
	}
	u.Leader = ""
}

// wound takes lost figures from u and leaves it wounds (elephants).
func (s *State) wound(u *Unit, lost, wounds int) {
	u.Wounds = wounds
	if lost <= 0 {
		return
	}
	s.lose(u, lost)
	if u.Figures == 0 {
		u.Status = Steady // remove sets Gone with its leader's fate
		s.remove(u, Destroyed)
	}
}

// hitLeader gives leader id a hit: the second kills him, and his unit
// checks morale for its leader's loss (§3.F). A routed unit has no check
// to make: it routs again only when charged or shot (§3), so only a
// leader killed by missiles sends it on (RULINGS.md, btg, "when").
func (s *State) hitLeader(id string, u *Unit, missile bool) {
	l := s.Leader(id)
	if l == nil {
		return
	}
	l.Hits++
	if l.Hits < 2 {
		return
	}
	l.Gone = true
	if u != nil && u.Leader == l.ID {
		u.Leader = ""
		if u.In() && (u.Status != Routed || missile) {
			u.Shaken = "the loss of its leader"
		}
	}
}

func (b Removed) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	s.remove(u, b.Loss)
	return nil
}

func (b Removed) Text() string {
	switch b.Loss {
	case Captured:
		return fmt.Sprintf("%s, routed and caught by %s, is captured (§3).", b.Label, b.By)
	case Destroyed:
		return fmt.Sprintf("%s is destroyed.", b.Label)
	}
	return fmt.Sprintf("%s has %s.", b.Label, b.Loss)
}

func (b FiguresSet) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	switch {
	case b.Figures == 0:
		u.Figures = 0
		s.remove(u, Destroyed)
	case b.Figures < u.Figures:
		s.lose(u, u.Figures-b.Figures)
	default:
		s.gain(u, b.Figures-u.Figures)
	}
	if b.Full > 0 {
		u.Start = b.Full
	}
	// §3.G asks only that elephants be wounded, not by what: those an
	// event hurts check in the next morale phase, as those hurt by
	// missiles or in melee do (RULINGS.md, btg, "Events").
	if b.Harm && u.Class == Elephant && u.In() && b.Figures < b.Was {
		u.Shaken = "an elephant wounded"
	}
	return nil
}

func (b FiguresSet) Text() string {
	if b.Figures == 0 {
		return fmt.Sprintf("%s: %s; the unit is destroyed.", b.Label, b.Why)
	}
	if b.Full > 0 {
		return fmt.Sprintf("%s: %s; it has %s now, at a full strength of %d.", b.Label, b.Why, plural(b.Figures, "figure", "figures"), b.Full)
	}
	return fmt.Sprintf("%s: %s; it has %s now.", b.Label, b.Why, plural(b.Figures, "figure", "figures"))
}

func (b MoraleChecked) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Shaken = ""
	return nil
}

func (b MoraleChecked) Text() string {
	mods := ""
	if len(b.Mods) > 0 {
		mods = " " + strings.Join(b.Mods, " ")
	}
	res := map[Check]string{Rout: "it routs", FallBack: "it falls back", Hold: "it holds"}[b.Result]
	switch {
	case b.Elephants && b.Result == Rout:
		res = "they rampage"
	case b.Elephants && b.Rally && b.Result == Hold:
		res = "they calm down"
	case b.Elephants && b.Rally:
		res = "they rampage on"
	case b.Rally && b.Result == Hold:
		res = "it rallies"
	case b.Rally:
		res = "it runs on"
	case b.Why == "to charge" && b.Result == FallBack:
		res = "it stops"
	case b.Why == "to charge" && b.Result == Hold:
		res = "it charges home"
	case b.Why == "to avoid the charge" && b.Result == Hold:
		res = "it gets away"
	case b.Why == "to avoid the charge" && b.Result == FallBack:
		res = "it cannot get away"
	}
	return fmt.Sprintf("Morale (%s) for %s: D6 %d + base %d%s = %d: %s.", b.Why, b.Label, b.Roll, b.Base, mods, b.Total, res)
}

func (b Fought) Apply(s *State) error {
	o, err := s.mustUnit(b.Opponent)
	if err != nil {
		return err
	}
	s.wound(o, b.Lost, b.Wounds)
	if o.Class == Elephant && b.Hits > b.Armor && o.In() {
		// Only hits through its armor wound it (3.G, 5.G).
		o.Shaken = "an elephant wounded"
	}
	if b.LeaderHit {
		s.hitLeader(b.Leader, o, false)
	}
	return nil
}

func (b Fought) Text() string {
	t := fmt.Sprintf("%s fights %s: dice %s hit on %d or less", b.Unit, b.Label, dice(b.Rolls), b.Band)
	if len(b.Bonus) > 0 {
		t += fmt.Sprintf("; bonus dice %s hit on 5 or 6 (%s)", dice(b.Bonus), strings.Join(b.BonusWhy, ", "))
	}
	for _, sp := range b.Supports {
		t += fmt.Sprintf("; %s supports with %s on %d or less", sp.Unit, dice(sp.Rolls), sp.Band)
		switch {
		case sp.Triple > 5:
			t += fmt.Sprintf(", its elephants' D6 %d not tripling them", sp.Triple)
		case sp.Triple > 0:
			t += fmt.Sprintf(", its elephants' D6 %d tripling its hits", sp.Triple)
		}
	}
	if b.Triple > 0 {
		if b.Triple <= 5 {
			t += fmt.Sprintf("; the elephants' D6 shows %d, so the damage triples", b.Triple)
		} else {
			t += fmt.Sprintf("; the elephants' D6 shows %d, so the damage does not triple", b.Triple)
		}
	}
	if b.Kills > 0 {
		t += fmt.Sprintf("; %d more kills for bloodthirst, past any armor", b.Kills)
	}
	t += fmt.Sprintf(": %s, armor %d, %s lost.", plural(b.Hits, "hit", "hits"), b.Armor, plural(b.Lost, "figure", "figures"))
	if b.Wounds > 0 && b.Hits > b.Armor {
		t += " One elephant is wounded."
	}
	if b.Leader != "" {
		if b.LeaderHit {
			t += fmt.Sprintf(" Leader D10 %d: %s is hit (5.F).", b.LeaderRoll, b.Leader)
		} else {
			t += fmt.Sprintf(" Leader D10 %d: %s is unhurt.", b.LeaderRoll, b.Leader)
		}
	}
	return t
}

func (b MeleeJudged) Apply(s *State) error {
	for _, id := range b.Losers {
		if u := s.Unit(id); u != nil && u.In() {
			u.Shaken = "losing the melee"
		}
	}
	for _, id := range b.Surrounded {
		if u := s.Unit(id); u != nil && u.In() {
			u.Shaken = "being surrounded"
		}
	}
	return nil
}

func (b MeleeJudged) Text() string {
	var parts []string
	if len(b.Losers) > 0 {
		parts = append(parts, fmt.Sprintf("Lost the melee (losing more figures than they killed): %s.", strings.Join(b.Losers, ", ")))
	}
	if len(b.Surrounded) > 0 {
		parts = append(parts, fmt.Sprintf("Surrounded: %s.", strings.Join(b.Surrounded, ", ")))
	}
	return strings.Join(parts, " ")
}

// check rolls a morale check for u (§3) and records it.
func (s *State) check(tx *engine.Tx, u *Unit, why string, m MoraleMod) (Check, error) {
	return s.checkAs(tx, u, why, m, false)
}

func (s *State) checkAs(tx *engine.Tx, u *Unit, why string, m MoraleMod, rally bool) (Check, error) {
	m.Class = u.Class
	m.Leader = s.leaderOf(u) != nil
	m.UnderHalf = u.UnderHalf()
	for _, o := range s.touching(u) {
		m.FacingElephant = m.FacingElephant || o.Class == Elephant
	}
	var mods []string
	if m.Leader {
		mods = append(mods, "+1 leader")
	}
	if m.Charging {
		mods = append(mods, "+1 charging")
	}
	if m.UnderHalf {
		mods = append(mods, "-2 under half strength")
	}
	if m.FacingElephant && u.Class != Phalanx && u.Class != Legion {
		mods = append(mods, "-1 facing elephants")
	}
	if u.Class == Templar {
		mods = append(mods, "+1 Templars")
	}
	roll := tx.Roll(engine.D6)
	total := roll + int(u.Morale) + m.Sum()
	b := MoraleChecked{Unit: u.ID, Label: u.Label(), Why: why, Roll: roll, Base: int(u.Morale), Mod: m.Sum(), Mods: mods, Total: total, Result: MoraleResult(total), Rally: rally, Elephants: u.Class == Elephant}
	return b.Result, tx.Emit(b)
}

// moraleFromFire checks every unit that lost figures to missiles, lost
// its leader or had an elephant wounded (§3 A, F, G); a routed unit that
// took losses routs again instead (§3).
func moraleFromFire(tx *engine.Tx, s *State) error { return s.morale(tx) }

// morale runs the checks of units marked shaken, in the order they stand
// in the army lists; a rout makes friends within 2" of where the routing
// unit stood check too (§3.C).
func (s *State) morale(tx *engine.Tx) error {
	var queue []string
	for _, u := range s.Units {
		if u.Shaken != "" && u.In() {
			queue = append(queue, u.ID)
		}
	}
	return s.checkEach(tx, queue, map[string]string{}, map[string]bool{})
}

// routSpreads makes the friends within 2" of where u stood before its
// rout check morale, and theirs in turn (§3.C), for a rout that is not
// the morale phase's: a charger or its target routing on its check (3.B).
func (s *State) routSpreads(tx *engine.Tx, u *Unit, stood engine.Base) error {
	if u.Class == Elephant {
		return nil // elephants rampage; they do not rout
	}
	whyOf, checked := map[string]string{}, map[string]bool{u.ID: true}
	return s.checkEach(tx, s.nearRout(u, stood, whyOf, checked), whyOf, checked)
}

// nearRout lists u's steady friends not yet checked within 2" of stood,
// where u stood when it routed, not where its rout ends (§3.C), noting
// why each checks.
func (s *State) nearRout(u *Unit, stood engine.Base, whyOf map[string]string, checked map[string]bool) []string {
	var out []string
	for _, f := range s.inPlay(u.Side) {
		if f != u && f.Status == Steady && !checked[f.ID] && f.Base.Gap(stood) <= 2 {
			out = append(out, f.ID)
			whyOf[f.ID] = fmt.Sprintf("%s routing within 2\"", u.ID)
		}
	}
	return out
}

// checkEach checks the morale of the units queued, one after another,
// each once, queuing the friends of any that routs.
func (s *State) checkEach(tx *engine.Tx, queue []string, whyOf map[string]string, checked map[string]bool) error {
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		u := s.Unit(id)
		if u == nil || !u.In() || checked[id] {
			continue
		}
		checked[id] = true
		why := u.Shaken
		if w, ok := whyOf[id]; ok {
			why = w
		}
		if u.Status == Routed {
			if err := s.routMove(tx, u, false); err != nil {
				return err
			}
			continue
		}
		if u.Status == Rampaging {
			continue
		}
		chk, err := s.check(tx, u, why, MoraleMod{})
		if err != nil {
			return err
		}
		switch chk {
		case Rout:
			stood := u.Base
			if err := s.routMove(tx, u, false); err != nil {
				return err
			}
			if u.Class == Elephant {
				continue
			}
			queue = append(queue, s.nearRout(u, stood, whyOf, checked)...)
		case FallBack:
			if err := s.fallBack(tx, u, s.giveGround(u), Back); err != nil {
				return err
			}
		}
	}
	return nil
}

// giveGround is the way u falls back (§3): straight back, unless the
// enemies touching it touch only its rear or flanks; then straight away
// from them, since a fall back gives ground before the enemy and
// straight back would run into them (RULINGS.md, btg, "results").
func (s *State) giveGround(u *Unit) engine.Heading {
	fwd := u.Base.Facing.Vec()
	right := engine.Vec{X: fwd.Y, Y: -fwd.X}
	var away engine.Vec
	for _, o := range s.touching(u) {
		switch u.Base.ContactSide(o.Base) {
		case engine.Front:
			return u.Base.Facing.Reverse()
		case engine.Rear:
			away = away.Add(fwd)
		case engine.Left:
			away = away.Add(right)
		case engine.Right:
			away = away.Sub(right)
		}
	}
	if away.Len() < 1e-9 {
		return u.Base.Facing.Reverse()
	}
	return engine.HeadingTo(engine.Vec{}, away)
}

// foes lists the units u fights in the melee phase: enemies it touches;
// rampaging elephants fight friends they touch as well, and are fought
// by them (§3).
func (s *State) foes(u *Unit) []*Unit {
	var out []*Unit
	for i := range s.Units {
		o := &s.Units[i]
		if o == u || !o.In() {
			continue
		}
		// Which side first: the measure is the dearer test, and a
		// friend beside u is most often a friend in good order.
		if o.Side == u.Side && u.Status != Rampaging && o.Status != Rampaging {
			continue
		}
		if u.Base.Touches(o.Base) {
			out = append(out, o)
		}
	}
	return out
}

// fight is one unit's part in the melee, worked out before any die is
// rolled so that both sides strike with the figures they began with.
type fight struct {
	u, opp   *Unit
	dice     int
	band     int
	bonus    int
	why      []string
	supports []*Unit
	kills    int
}

// melee plays the melee phase (§5): every unit in contact fights the
// enemy on its front (or the first it touches), one die per two figures
// and its bonus dice; friends within 1" support it (5.C). Routed units
// caught in contact are captured first (§3).
func melee(tx *engine.Tx, s *State) error {
	if err := captureRouted(tx, s); err != nil {
		return err
	}
	fights := s.fights()
	lost := map[string]int{}
	dealt := map[string]int{}
	for _, f := range fights {
		b := s.strike(tx, f)
		if !f.opp.In() {
			continue // destroyed by an earlier fight's dice this phase
		}
		if err := tx.Emit(b); err != nil {
			return err
		}
		lost[f.opp.ID] += b.Lost
		dealt[f.u.ID] += b.Lost
	}
	var judged MeleeJudged
	seen := map[string]bool{}
	for _, f := range fights {
		if seen[f.u.ID] {
			continue
		}
		seen[f.u.ID] = true
		if f.u.In() && lost[f.u.ID] > dealt[f.u.ID] {
			judged.Losers = append(judged.Losers, f.u.ID)
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if u.In() && s.surrounded(u) && !slices.Contains(judged.Losers, u.ID) {
			judged.Surrounded = append(judged.Surrounded, u.ID)
		}
	}
	if len(judged.Losers)+len(judged.Surrounded) > 0 {
		return tx.Emit(judged)
	}
	return nil
}

// captureRouted takes routed units caught in contact by an enemy that is
// not routed itself (§3). Their own rampaging elephants fight them, but
// do not take them prisoner.
func captureRouted(tx *engine.Tx, s *State) error {
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() || u.Status != Routed {
			continue
		}
		for _, o := range s.foes(u) {
			if o.Side != u.Side && o.Status != Routed {
				if err := tx.Emit(Removed{Unit: u.ID, Label: u.Label(), Loss: Captured, By: o.ID}); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

// fights lists every unit's part in the melee, with its supports.
func (s *State) fights() []fight {
	var fights []fight
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() || u.Status == Routed {
			continue
		}
		foes := s.foes(u)
		if len(foes) == 0 {
			continue
		}
		opp := foes[0]
		for _, o := range foes {
			if u.Base.ContactSide(o.Base) == engine.Front {
				opp = o
				break
			}
		}
		f := fight{u: u, opp: opp, dice: Dice(u.Figures), band: meleeWeapon(u).MeleeHit()}
		f.bonus, f.why = s.bonusDice(u, opp)
		f.kills = u.Effects.Kills
		fights = append(fights, f)
	}
	// Supports (5.C): a friend within 1" not in contact itself adds its
	// dice to the fight of the nearest friend in melee.
	supporting := map[string]bool{}
	for i := range s.Units {
		sp := &s.Units[i]
		if !sp.In() || sp.Status != Steady || len(s.foes(sp)) > 0 || sp.Class.Siege() {
			continue
		}
		best, bestD := -1, math.Inf(1)
		for j, f := range fights {
			if f.u.Side != sp.Side || f.u.Status != Steady || !sp.Base.Near(f.u.Base, 1+engine.ContactTolerance) {
				continue
			}
			if d := sp.Base.Gap(f.u.Base); d <= 1+engine.ContactTolerance && d < bestD {
				best, bestD = j, d
			}
		}
		if best >= 0 && !supporting[sp.ID] {
			supporting[sp.ID] = true
			fights[best].supports = append(fights[best].supports, sp)
		}
	}
	return fights
}

// strike rolls one fight's dice, its supports' and its leader's, and
// works out the hits and the figures its opponent loses.
func (s *State) strike(tx *engine.Tx, f fight) Fought {
	b := Fought{Unit: f.u.ID, Opponent: f.opp.ID, Label: f.opp.Label(), Band: f.band, BonusWhy: f.why, Kills: f.kills}
	tx.Why(f.u.ID + " fighting " + f.opp.ID)
	for range f.dice {
		b.Rolls = append(b.Rolls, tx.Roll(engine.D6))
	}
	for range f.bonus {
		b.Bonus = append(b.Bonus, tx.Roll(engine.D6))
	}
	support := 0
	for _, sp := range f.supports {
		x := Support{Unit: sp.ID, Band: meleeWeapon(sp).MeleeHit()}
		for range Dice(sp.Figures) {
			x.Rolls = append(x.Rolls, tx.Roll(engine.D6))
		}
		// A supporter attacks the foe its friend fights (5.C), and
		// elephants roll to triple each time they fight (8b).
		if meleeWeapon(sp) == Tusks {
			x.Triple = tx.Roll(engine.D6)
		}
		support += MeleeHits(meleeWeapon(sp), x.Rolls, nil, x.Triple)
		b.Supports = append(b.Supports, x)
	}
	weapon := meleeWeapon(f.u)
	if weapon == Tusks {
		b.Triple = tx.Roll(engine.D6)
	}
	b.Hits = MeleeHits(weapon, b.Rolls, b.Bonus, b.Triple) + support
	b.Armor = s.armor(f.opp, false)
	b.Lost, b.Wounds = s.casualties(f.opp, max(0, b.Hits-b.Armor))
	// Bloodthirsty kills are figures slain, which no armor stops (§6).
	b.Lost = min(b.Lost+b.Kills, f.opp.Figures)
	if l := s.leaderOf(f.opp); l != nil && b.Lost > 0 {
		tx.Why(l.ID + ", the leader in the fight")
		b.Leader, b.LeaderRoll = l.ID, tx.Roll(engine.D0to9)
		b.LeaderHit = MeleeLeaderHit(b.LeaderRoll, true)
	}
	return b
}

// meleeWeapon is the melee line a unit fights on (8b): elephants fight
// as elephants whatever they carry, so elephant archers hit on 1-5 and
// roll to triple; other missile troops and siege crews fight as clubs
// (RULINGS.md, btg, "melee").
func meleeWeapon(u *Unit) Weapon {
	switch {
	case u.Class == Elephant:
		return Tusks
	case u.Weapon.Missile() || u.Weapon == Engine:
		return Club
	}
	return u.Weapon
}

// surrounded reports a unit with enemies touching its front, rear and
// both flanks, and no gap a stand wide anywhere between them round its
// edge (§3.E).
func (s *State) surrounded(u *Unit) bool {
	sides := map[engine.Side]bool{}
	var covered [][2]float64
	for _, o := range s.touching(u) {
		side := u.Base.ContactSide(o.Base)
		sides[side] = true
		covered = append(covered, edgeCover(u.Base, o.Base, side))
	}
	if !sides[engine.Front] || !sides[engine.Rear] || !sides[engine.Left] || !sides[engine.Right] {
		return false
	}
	stand := max(u.Class.fileWidth(), 0.5)
	return widestGap(covered, 2*(u.Base.Width+u.Base.Depth)) < stand-engine.ContactTolerance
}

// edgeCover is the stretch of b's edge, on the side o touches, that o
// covers, as distances along b's edge measured clockwise from its front
// left corner (front, right flank, rear, left flank).
func edgeCover(b, o engine.Base, side engine.Side) [2]float64 {
	fwd := b.Facing.Vec()
	right := engine.Vec{X: fwd.Y, Y: -fwd.X}
	w, d := b.Width/2, b.Depth/2
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range o.Corners() {
		p := c.Sub(b.Center)
		x, y := p.Dot(right), p.Dot(fwd)
		var t float64
		switch side {
		case engine.Front:
			t = math.Max(-w, math.Min(w, x)) + w
		case engine.Right:
			t = 2*w + d - math.Max(-d, math.Min(d, y))
		case engine.Rear:
			t = 2*w + 2*d + w - math.Max(-w, math.Min(w, x))
		default:
			t = 4*w + 2*d + d + math.Max(-d, math.Min(d, y))
		}
		lo, hi = math.Min(lo, t), math.Max(hi, t)
	}
	return [2]float64{lo, hi}
}

// widestGap is the longest stretch of a closed edge of the given length
// that no span of covered covers.
func widestGap(covered [][2]float64, length float64) float64 {
	if len(covered) == 0 {
		return length
	}
	slices.SortFunc(covered, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	widest, reach := 0.0, covered[0][1]
	for _, c := range covered[1:] {
		widest = math.Max(widest, c[0]-reach)
		reach = math.Max(reach, c[1])
	}
	// The stretch from the last span round past the corner to the first.
	return math.Max(widest, length-reach+covered[0][0])
}

// bonusDice lists u's melee bonus dice against opp (5.D, §8a, §6).
func (s *State) bonusDice(u, opp *Unit) (int, []string) {
	n := 0
	var why []string
	add := func(k int, w string) {
		n += k
		why = append(why, fmt.Sprintf("%s +%d", w, k))
	}
	switch opp.Base.ContactSide(u.Base) {
	case engine.Rear:
		add(2, "rear")
	case engine.Left, engine.Right:
		add(1, "flank")
	}
	onHill := func(b engine.Base) bool { return s.on(b, func(g Ground) bool { return g == Hill }) != nil }
	if onHill(u.Base) && !onHill(opp.Base) {
		add(1, "hilltop")
	}
	if u.Weapon == Spear && s.impact(u, opp) {
		add(1, "spear on impact")
	}
	if s.leaderOf(u) != nil {
		add(1, "leader")
	}
	// A siege crew serves its engine on foot, so horse have the die
	// against it as against any foot.
	if u.Class.Mounted() && u.Class != Camelry && !opp.Class.Mounted() {
		add(1, "mounted against foot")
	}
	if u.Class == Templar || u.Class == Phalanx || u.Class == Elephant {
		add(1, u.Class.String())
	}
	if u.Class == Camelry && (opp.Class == Cavalry || opp.Class == LightCavalry) {
		add(1, "camels against horse")
	}
	if k := s.civ(u.Side).ExtraBonusDice(u.Class, u.Weapon); k > 0 {
		add(k, s.civ(u.Side).Name)
	}
	if u.Effects.Bonus > 0 {
		add(u.Effects.Bonus, "ferocity")
	}
	return n, why
}

// moraleFromMelee checks the losers of the melee, surrounded units,
// units that lost their leader and wounded elephants (§3 C–G); a unit
// that falls back leaves the melee (5.B).
func moraleFromMelee(tx *engine.Tx, s *State) error { return s.morale(tx) }

// rallyRout plays the rally/rout phase: every routed unit checks morale
// and on 5 or more rallies, facing the enemy again; otherwise it routs
// another full move (§3; RULINGS.md, btg, "rally"). Rampaging elephants
// check the same way to calm down, or rampage on.
func rallyRout(tx *engine.Tx, s *State) error {
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() || u.Status == Steady || u.Ran == s.Turn {
			// A unit that routed (or routed again) this turn has made
			// this turn's rout move; it rallies or runs on in the
			// rally/rout phase of the turns after (§3).
			continue
		}
		chk, err := s.checkAs(tx, u, "rally", MoraleMod{}, true)
		if err != nil {
			return err
		}
		if chk == Hold {
			h := u.Side.forward()
			to := u.Base.WithFacing(h).WithCenter(u.Base.Center)
			if err := s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Rally, From: u.Base, To: to, Ranks: u.Ranks}); err != nil {
				return err
			}
			continue
		}
		if u.Status == Rampaging {
			if err := s.rampage(tx, u); err != nil {
				return err
			}
			continue
		}
		if err := s.routMove(tx, u, false); err != nil {
			return err
		}
	}
	return nil
}

// rampage moves elephants out of control a full move straight at the
// nearest unit, friend or foe, to attack it (§3).
func (s *State) rampage(tx *engine.Tx, u *Unit) error {
	var near *Unit
	best := math.Inf(1)
	for i := range s.Units {
		o := &s.Units[i]
		if o == u || !o.In() {
			continue
		}
		if d := u.Base.Gap(o.Base); d < best {
			near, best = o, d
		}
	}
	if near == nil {
		return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Rampage, From: u.Base, To: u.Base, Ranks: u.Ranks})
	}
	h := engine.HeadingTo(u.Base.Center, near.Base.Center)
	b := u.Base.WithFacing(h).WithCenter(u.Base.Center)
	if best <= engine.ContactTolerance {
		return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Rampage, From: u.Base, To: b, Ranks: u.Ranks, Contact: near.ID})
	}
	to, d, stop, off := s.flee(u, b, h, s.fullMove(u))
	m := Moved{Unit: u.ID, Label: u.Label(), Why: Rampage, From: u.Base, To: to, Ranks: u.Ranks, Dist: d, Fled: off}
	for i := range s.Units {
		o := &s.Units[i]
		if o != u && o.In() && to.Touches(o.Base) {
			m.Contact = o.ID
			break
		}
	}
	if m.Contact == "" {
		m.Stop = stop
	}
	return s.emitMove(tx, m)
}
