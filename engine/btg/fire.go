package btg

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// FireMod is the sum of the fire modifiers of 2.H-mods, added to every die
// rolled (hits are low rolls, so a plus makes a hit harder and a minus
// easier; RULINGS.md, btg, "hit direction").
type FireMod struct {
	CloseOrderTarget bool // target in close formation (phalanx): −1
	Overhead         bool // firing overhead over a friendly rank: +1
	Cover            bool // into woods, behind walls, behind or into buildings: +1
	SlingerVsArchers bool // −1
	ElephantArchers  bool // −1
	Superior         bool // from a hill top or siege walls: −1
	HitBonus         int  // Hittite archers, Marksmen: each point is −1
}

// Sum is the total modifier added to each die.
func (m FireMod) Sum() int {
	s := 0
	for _, f := range []struct {
		on bool
		v  int
	}{{m.CloseOrderTarget, -1}, {m.Overhead, 1}, {m.Cover, 1}, {m.SlingerVsArchers, -1}, {m.ElephantArchers, -1}, {m.Superior, -1}} {
		if f.on {
			s += f.v
		}
	}
	return s - m.HitBonus
}

// Hits counts the dice that hit: a die hits when its roll plus the modifier
// is at most the band (2.H). A natural 6 never hits (RULINGS.md, btg).
func Hits(rolls []int, band, mod int) int {
	n := 0
	for _, r := range rolls {
		if r < 6 && r+mod <= band {
			n++
		}
	}
	return n
}

// Casualties is figures lost from hits (2.J): the hits less one if the
// leader took a hit, less the armor; never below nothing.
func Casualties(hits int, leaderHit bool, armor int) int {
	if leaderHit {
		hits--
	}
	hits -= armor
	if hits < 0 {
		return 0
	}
	return hits
}

// The fire phase (§2): each missile unit shoots once at an enemy in its
// arc, in range and in sight; siege engines shoot at structures or units
// once every two turns (§7).

// Fired is one unit's shooting and what it did (§2.F–J).
type Fired struct {
	Firer  string `json:"firer"`
	Target string `json:"target"`
	Label  string `json:"label"`
	// Dist is the range in inches; Band the highest roll that hits
	// before modifiers; Mod the modifiers added to each die, named in Mods.
	Dist  float64  `json:"dist"`
	Band  int      `json:"band"`
	Mod   int      `json:"mod"`
	Mods  []string `json:"mods,omitempty"`
	Rolls []int    `json:"rolls"`
	// Back are the rear rank's dice, shooting overhead at +1 more (2.B).
	Back []int `json:"back,omitempty"`
	Hits int   `json:"hits"`
	// Leader is the target's leader and LeaderRoll his D6: a 6 hits him (2.I).
	Leader     string `json:"leader,omitempty"`
	LeaderRoll int    `json:"leaderRoll,omitempty"`
	LeaderHit  bool   `json:"leaderHit,omitempty"`
	Armor      int    `json:"armor"`
	Lost       int    `json:"lost"`   // figures lost
	Wounds     int    `json:"wounds"` // elephants: the target's wounds after
}

// SiegeFired is a siege engine's shot (§7).
type SiegeFired struct {
	Firer     string `json:"firer"`
	Label     string `json:"label"`
	Target    string `json:"target,omitempty"`    // a unit
	Structure string `json:"structure,omitempty"` // or a building, wall or tower
	Roll      int    `json:"roll"`
	Mod       int    `json:"mod"`
	Damage    int    `json:"damage"`
	Kills     int    `json:"kills"`
	Victim    string `json:"victim,omitempty"` // the unit the kills fall on
	DVLeft    int    `json:"dvLeft"`
	// NoDV marks a shot at a unit that is no engine: it has no damage
	// value to lose, only figures (§7).
	NoDV  bool `json:"noDV,omitempty"`
	Every int  `json:"every"` // turns between its shots (§7)
}

func (Fired) Kind() string      { return "btg.fired" }
func (SiegeFired) Kind() string { return "btg.siege-fired" }

var fireBodies = engine.BodyTypes{
	Fired{}.Kind():      engine.Decoder[Fired](),
	SiegeFired{}.Kind(): engine.Decoder[SiegeFired](),
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
	f.Fired = true
	s.wound(t, b.Lost, b.Wounds)
	if b.Lost > 0 {
		t.Shaken = "losses to missiles"
	} else if t.Class == Elephant && Casualties(b.Hits, b.LeaderHit, b.Armor) > 0 {
		// A hit through its armor wounds an elephant (3.G, 5.G).
		t.Shaken = "an elephant wounded"
	}
	if b.LeaderHit {
		s.hitLeader(b.Leader, t, true)
	}
	return nil
}

func (b Fired) Text() string {
	mods := ""
	if len(b.Mods) > 0 {
		mods = fmt.Sprintf(", %+d on each die (%s)", b.Mod, strings.Join(b.Mods, ", "))
	}
	t := fmt.Sprintf("%s shoots at %s, %s away: hits on %d or less%s. Dice %s", b.Firer, b.Label, inches(b.Dist), b.Band, mods, dice(b.Rolls))
	if len(b.Back) > 0 {
		t += fmt.Sprintf(", rear rank %s at a further +1", dice(b.Back))
	}
	t += fmt.Sprintf(": %s.", plural(b.Hits, "hit", "hits"))
	if b.Leader != "" {
		if b.LeaderHit {
			t += fmt.Sprintf(" Leader roll %d: %s is hit (2.I).", b.LeaderRoll, b.Leader)
		} else {
			t += fmt.Sprintf(" Leader roll %d: %s is unhurt.", b.LeaderRoll, b.Leader)
		}
	}
	if b.Hits > 0 {
		t += fmt.Sprintf(" Armor %d (2.J): %s lost.", b.Armor, plural(b.Lost, "figure", "figures"))
		if b.Wounds > 0 && Casualties(b.Hits, b.LeaderHit, b.Armor) > 0 {
			t += " One elephant is wounded (it takes two hits, §5.G)."
		}
	}
	return t
}

func (b SiegeFired) Apply(s *State) error {
	f, err := s.mustUnit(b.Firer)
	if err != nil {
		return err
	}
	f.Fired, f.Reload = true, s.Turn
	if b.Structure != "" {
		for i := range s.Terrain {
			if s.Terrain[i].Name == b.Structure {
				s.Terrain[i].DV = b.DVLeft
			}
		}
	}
	if b.Target != "" {
		t, err := s.mustUnit(b.Target)
		if err != nil {
			return err
		}
		if t.Class.Siege() {
			t.DV = b.DVLeft
			if t.DV <= 0 {
				s.remove(t, Destroyed)
			}
		}
	}
	if b.Victim != "" && b.Kills > 0 {
		v, err := s.mustUnit(b.Victim)
		if err != nil {
			return err
		}
		s.wound(v, b.Kills, v.Wounds)
		v.Shaken = "losses to missiles"
	}
	return nil
}

func (b SiegeFired) Text() string {
	what := b.Structure
	if b.Target != "" {
		what = b.Target
	}
	t := fmt.Sprintf("%s shoots at %s: D6 %d", b.Label, what, b.Roll)
	if b.Mod != 0 {
		t += fmt.Sprintf(" %+d", b.Mod)
	}
	if b.NoDV {
		return t + fmt.Sprintf(": %s on %s (§7).%s", plural(b.Kills, "kill", "kills"), b.Target, reloads(b.Every))
	}
	t += fmt.Sprintf(", %d DV lost", b.Damage)
	if b.Structure != "" || b.DVLeft > 0 {
		t += fmt.Sprintf(" (%d left)", max(b.DVLeft, 0))
	}
	switch {
	case b.Kills > 0 && b.Victim != "":
		t += fmt.Sprintf(" and %s on %s", plural(b.Kills, "kill", "kills"), b.Victim)
	case b.Kills > 0:
		t += fmt.Sprintf("; its %s find nobody", plural(b.Kills, "kill", "kills"))
	}
	t += " (§7)."
	if b.DVLeft <= 0 {
		if b.Structure != "" {
			t += fmt.Sprintf(" %s falls to rubble.", b.Structure)
		} else if b.Target != "" && b.Damage > 0 {
			t += fmt.Sprintf(" %s is wrecked.", b.Target)
		}
	}
	return t + reloads(b.Every)
}

// reloads says when an engine that shot every turns may shoot again.
func reloads(every int) string {
	if every == 1 {
		return " It reloads for the next turn."
	}
	return " It reloads for the next turn but one."
}

func dice(rolls []int) string {
	parts := make([]string, len(rolls))
	for i, r := range rolls {
		parts[i] = strconv.Itoa(r)
	}
	return strings.Join(parts, " ")
}

var fireCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "fire", Help: "Shoot with a missile unit at an enemy in its 90° arc and range, or with a siege engine at a unit or a structure (§2; siege engines §7).",
		Example: "/fire unit:PER-5 target:GRE-1", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the shooting unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit", Kind: engine.OptElement},
			{Name: "structure", Help: "for a siege engine: the building, wall or tower", Kind: engine.OptFeature},
		}}, Run: fireCommand},
}

// siegeRange is how far each engine throws (RULINGS.md, btg, "siege").
func siegeRange(c Class) float64 {
	switch c {
	case StoneThrower:
		return 18
	case HeavyCatapult:
		return 30
	}
	return 24
}

// siegeMod is the damage roll's modifier (§7).
func siegeMod(c Class) int {
	switch c {
	case HeavyCatapult:
		return 1
	case StoneThrower, Ballista:
		return -1
	}
	return 0
}

// Reloaded reports whether a siege engine may shoot this turn: once every
// two turns, every turn for the Sumerians (§7, §8a).
func (s *State) reloaded(u *Unit) bool {
	gap := 2
	if s.civ(u.Side).FastReload {
		gap = 1
	}
	return u.Reload == 0 || s.Turn-u.Reload >= gap
}

// canShoot says why u may not shoot this phase (nil when it may).
func (s *State) canShoot(u *Unit) error {
	switch {
	case !u.In():
		return engine.Refuse("", "%s is not on the table.", u.ID)
	case !u.Missile():
		return engine.Refuse("§2", "%s has no missiles.", u.Label())
	case u.Fired:
		return engine.Refuse("§2", "%s has already shot this turn.", u.ID)
	case u.Status != Steady:
		return engine.Refuse("§3", "%s is not in good order and cannot shoot.", u.ID)
	case s.engaged(u):
		return engine.Refuse("5.A", "%s is locked in melee.", u.ID)
	case u.Class.Siege() && !s.reloaded(u):
		return engine.Refuse("§7", "%s shot last turn and is still reloading: siege engines shoot once every two turns.", u.ID)
	case u.moved() && !movingShooter(u):
		return engine.Refuse("2.D", "%s moved this turn; only slingers, skirmishers and horse archers move and shoot.", u.ID)
	}
	return nil
}

// moved reports whether u has moved this turn, on a card or not: any
// move keeps it from shooting, or halves its dice (2.D).
func (u *Unit) moved() bool { return u.Moves > 0 || u.Forced }

// movingShooter tells the troops that may move and shoot (2.D): slingers
// and horse archers at half their dice, skirmishers (light infantry with
// javelins) at full.
func movingShooter(u *Unit) bool {
	return u.Weapon == Sling || skirmisher(u) || horseArcher(u)
}

func skirmisher(u *Unit) bool { return u.Class == LightInfantry && u.Weapon == Javelin }

func horseArcher(u *Unit) bool {
	return u.Class.Mounted() && u.Class != Elephant && (u.Weapon == ShortBow || u.Weapon == CompositeBow)
}

func bow(w Weapon) bool { return w == ShortBow || w == CompositeBow }

// shooters lists side's units that could shoot at something now.
func (s *State) shooters(side Side) []*Unit {
	var out []*Unit
	for _, u := range s.inPlay(side) {
		if s.canShoot(u) != nil {
			continue
		}
		if u.Class.Siege() {
			out = append(out, u) // structures and far targets: let the player judge
			continue
		}
		_, long := s.civ(side).Range(u.Weapon)
		for _, t := range s.inPlay(side.Other()) {
			if !u.Base.Near(t.Base, float64(long)) {
				continue // out of range: aim would refuse it
			}
			if _, err := s.aim(u, t); err == nil {
				out = append(out, u)
				break
			}
		}
	}
	return out
}

// shot is what aiming at a target found: the range, the hit band, the
// modifiers and the dice of each rank.
type shot struct {
	dist        float64
	band        int
	mod         FireMod
	mods        []string
	front, back int
}

// aim says whether u may shoot at t, and how (§2).
func (s *State) aim(u, t *Unit) (shot, error) {
	var sh shot
	if t.Side == u.Side || !t.In() {
		return sh, engine.Refuse("", "%s is not an enemy on the table.", t.ID)
	}
	if s.engaged(t) {
		return sh, engine.Refuse("§2", "%s is locked in melee; nobody shoots into a melee.", t.ID)
	}
	if !inArc(u.Base, t.Base) {
		return sh, engine.Refuse("2.A", "%s is outside %s's arc of fire, 45° either side of straight ahead.", t.ID, u.ID)
	}
	sh.dist = u.Base.Gap(t.Base)
	short, long := s.civ(u.Side).Range(u.Weapon)
	inWoods := s.on(u.Base, func(g Ground) bool { return g == Wood }) != nil || s.on(t.Base, func(g Ground) bool { return g == Wood }) != nil
	switch {
	case sh.dist <= float64(short):
		sh.band = weapons[u.Weapon].shortHit
		if inWoods && bow(u.Weapon) {
			sh.band = weapons[u.Weapon].longHit // in woods bows hit as at long range (2.G)
		}
	case sh.dist <= float64(long):
		if inWoods && bow(u.Weapon) {
			return sh, engine.Refuse("2.G", "In woods bows shoot at short range only (%s); %s is %s away.", inches(float64(short)), t.ID, inches(sh.dist))
		}
		sh.band = weapons[u.Weapon].longHit
	default:
		return sh, engine.Refuse("2.F", "%s is %s away; %s reach %s.", t.ID, inches(sh.dist), u.Weapon.Key(), inches(float64(long)))
	}
	if err := s.lineOfFire(u, t, &sh); err != nil {
		return sh, err
	}
	s.fireMods(u, t, &sh)
	shotDice(u, &sh)
	return sh, nil
}

// lineOfFire refuses a shot from u at t whose line enemies or woods
// block; friends in the way are shot over only by infantry
// archers (2.C), which sh notes, and by elephant archers (2.E).
func (s *State) lineOfFire(u, t *Unit, sh *shot) error {
	from, to := u.Base.FrontCenter(), t.Base.Center
	for i := range s.Units {
		o := &s.Units[i]
		if o == u || o == t || !o.In() || !o.Base.BlocksLine(from, to) {
			continue
		}
		switch {
		case o.Side != u.Side:
			return engine.Refuse("§2", "%s stands in the line of fire.", o.ID)
		case u.Class == Elephant:
		case u.Class == LightInfantry && bow(u.Weapon) && u.Ranks > 1:
			// Only archers in a line shoot over friends (2.C), one
			// rank only (2.H-mods): two deep, the rear rank already
			// shoots over the front (2.B).
			return engine.Refuse("2.C", "%s stands in the way; %s stands %d ranks deep, and only archers in a line (1 rank) shoot over friends.", o.ID, u.ID, u.Ranks)
		case u.Class == LightInfantry && bow(u.Weapon):
			sh.mod.Overhead = true
		default:
			return engine.Refuse("2.E", "%s stands in the way; %s cannot shoot overhead.", o.ID, u.Label())
		}
	}
	// Woods between hide the target. A building between does not: the
	// text gives +1 for shooting behind one, as behind a wall (2.H-mods),
	// so it is cover (fireMods).
	for i := range s.Terrain {
		f := &s.Terrain[i]
		if f.ground() != Wood || f.Area.Overlaps(u.Base) || f.Area.Overlaps(t.Base) {
			continue
		}
		if f.Area.SegmentGap(from, to) <= 0 {
			return engine.Refuse("§2", "%s blocks the line of fire.", f.Label())
		}
	}
	return nil
}

// fireMods lists the modifiers of a shot from u at t (2.H).
func (s *State) fireMods(u, t *Unit, sh *shot) {
	from, to := u.Base.FrontCenter(), t.Base.Center
	add := func(on *bool, text string) {
		*on = true
		sh.mods = append(sh.mods, text)
	}
	if t.Class == Phalanx || t.Class == Legion {
		add(&sh.mod.CloseOrderTarget, "close-order target -1")
	}
	if sh.mod.Overhead {
		sh.mods = append(sh.mods, "overhead +1")
	}
	cover := s.on(t.Base, func(g Ground) bool { return g.Cover() }) != nil
	for i := range s.Terrain {
		f := &s.Terrain[i]
		g := f.ground()
		if !(g.IsWall() || g.IsBuilding()) || f.Area.SegmentGap(from, to) > 0 || f.Area.Overlaps(u.Base) {
			continue
		}
		// A wall shelters those behind it, not those it faces (§4):
		// troops standing against it shoot over it, and their target
		// has its cover only if it stands against the wall as well.
		if g.IsWall() && against(u.Base, f) && !against(t.Base, f) {
			continue
		}
		cover = true
	}
	if cover {
		add(&sh.mod.Cover, "target in cover +1")
	}
	if u.Weapon == Sling && bow(t.Weapon) {
		add(&sh.mod.SlingerVsArchers, "slingers at archers -1")
	}
	if u.Class == Elephant {
		add(&sh.mod.ElephantArchers, "elephant archers -1")
	}
	high := func(b engine.Base) bool {
		return s.on(b, func(g Ground) bool { return g == Hill }) != nil || s.inside(b) != nil && (s.inside(b).ground() == Tower || s.inside(b).ground() == LargeTower)
	}
	if high(u.Base) && !high(t.Base) {
		add(&sh.mod.Superior, "superior position -1")
	}
	if cv := s.civ(u.Side); cv.HitBonus > 0 && bow(u.Weapon) {
		sh.mod.HitBonus += cv.HitBonus
		sh.mods = append(sh.mods, fmt.Sprintf("%s archers -%d", cv.Name, cv.HitBonus))
	}
	if u.Effects.HitBonus > 0 {
		sh.mod.HitBonus += u.Effects.HitBonus
		sh.mods = append(sh.mods, fmt.Sprintf("marksmen -%d", u.Effects.HitBonus))
	}
}

// against reports a base standing at a feature's edge, as a unit that
// came up to it stands (1.E).
func against(b engine.Base, f *Feature) bool { return b.Gap(f.Area) <= 2*engine.ContactTolerance }

// shotDice counts the dice of u's volley (2.F): one per two figures of
// the front two ranks, the rear rank shooting overhead (2.B); slingers
// and horse archers that moved roll half (2.D).
func shotDice(u *Unit, sh *shot) {
	figs := u.Volley
	if figs == 0 {
		figs = u.Figures
	}
	files := (figs + u.Ranks - 1) / u.Ranks
	front := min(files, figs)
	second := 0
	// Only archers on foot and elephant archers shoot over a front rank
	// (2.B, 2.E): slingers, skirmishers and horse archers shoot with
	// their front rank alone.
	if u.Ranks >= 2 && bow(u.Weapon) && (u.Class.Foot() || u.Class == Elephant) {
		second = min(files, figs-front)
	}
	// One die for every two figures shooting, rounded up once for the
	// whole volley (2.F): the front rank's figures are paired first, and
	// the dice left over are the rear rank's.
	sh.front = Dice(front)
	sh.back = Dice(front+second) - sh.front
	if u.Class == Elephant {
		sh.front, sh.back = sh.front+sh.back, 0 // elephant archers shoot overhead without penalty (2.E)
	}
	if u.moved() && (u.Weapon == Sling || horseArcher(u)) {
		sh.front, sh.back = (sh.front+1)/2, sh.back/2
	}
}

// inArc reports whether any corner or the centre of t lies within 45° of
// straight ahead from f's front edge (2.A).
func inArc(f, t engine.Base) bool {
	fc := f.FrontCenter()
	cs := t.Corners()
	pts := append(cs[:], t.Center)
	for _, p := range pts {
		if p.Dist(fc) < 1e-9 {
			return true
		}
		if math.Abs(f.Facing.Diff(engine.HeadingTo(fc, p))) <= 45+1e-9 {
			return true
		}
	}
	return false
}

func fireCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if err := s.pending(); err != nil {
		return err
	}
	if s.Stage != Fire {
		return engine.Refuse("§2", "Units shoot in the fire phase; this is the %s phase.", s.Stage)
	}
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if a := s.army(u.Side); a == nil || a.Player != c.Actor {
		return engine.Refuse("", "%s is not yours.", u.ID)
	}
	if s.Armies[u.Side].Done {
		return engine.Refuse("§2", "The %s have finished firing this turn.", s.Armies[u.Side].Name)
	}
	if u.Class == Helepolis {
		return engine.Refuse("§7", "A helepolis is a tower to climb, not an engine that shoots.")
	}
	if err := s.canShoot(u); err != nil {
		return err
	}
	if u.Class.Siege() {
		return siegeFire(tx, s, c, u)
	}
	if c.Has("structure") {
		return engine.Refuse("§7", "Only siege engines shoot at structures.")
	}
	t, err := s.findUnit(c.Opt("target"))
	if err != nil {
		return err
	}
	if t.Effects.Immune {
		return engine.Refuse("§6", "%s is at prayer, and no missile touches it this turn (Prayer).", t.ID)
	}
	sh, err := s.aim(u, t)
	if err != nil {
		return err
	}
	b := Fired{Firer: u.ID, Target: t.ID, Label: t.Label(), Dist: sh.dist, Band: sh.band, Mod: sh.mod.Sum(), Mods: sh.mods}
	tx.Why(u.ID + " shooting at " + t.ID)
	for range sh.front {
		b.Rolls = append(b.Rolls, tx.Roll(engine.D6))
	}
	for range sh.back {
		b.Back = append(b.Back, tx.Roll(engine.D6))
	}
	b.Hits = Hits(b.Rolls, sh.band, b.Mod) + Hits(b.Back, sh.band, b.Mod+1)
	if l := s.leaderOf(t); l != nil {
		tx.Why(l.ID + ", the leader under fire")
		b.Leader, b.LeaderRoll = l.ID, tx.Roll(engine.D6)
		b.LeaderHit = b.LeaderRoll == 6
	}
	b.Armor = s.armor(t, true)
	b.Lost, b.Wounds = s.casualties(t, Casualties(b.Hits, b.LeaderHit, b.Armor))
	return tx.Emit(b)
}

// armor is t's armor value against missiles or in melee: its own, its
// civilization's, and an event's (2.J, §8a, §6).
func (s *State) armor(t *Unit, missile bool) int {
	return t.Armor + s.civ(t.Side).ExtraArmor(t.Class, t.Weapon, missile) + t.Effects.Armor
}

// casualties turns hits that got through into figures lost and the
// wounds left: an elephant takes two hits to die (§5.G).
func (s *State) casualties(t *Unit, hits int) (lost, wounds int) {
	if t.Class != Elephant {
		return min(hits, t.Figures), 0
	}
	total := t.Wounds + hits
	return min(total/2, t.Figures), total % 2
}

func siegeFire(tx *engine.Tx, s *State, c engine.Command, u *Unit) error {
	b := SiegeFired{Firer: u.ID, Label: u.Label(), Mod: siegeMod(u.Class), Every: 2}
	if s.civ(u.Side).FastReload {
		b.Every = 1
	}
	reach := siegeRange(u.Class)
	var victim *Unit
	switch {
	case c.Has("structure"):
		f, err := s.feature(c.Opt("structure"))
		if err != nil {
			return err
		}
		if !f.Ground.Structure() || !f.Standing() {
			return engine.Refuse("§7", "%s is no standing building, wall or tower.", f.Label())
		}
		if d := u.Base.Gap(f.Area); d > reach {
			return engine.Refuse("§7", "%s is %s away; a %s throws %s.", f.Name, inches(d), u.Class, inches(reach))
		}
		if !inArc(u.Base, f.Area) {
			return engine.Refuse("2.A", "%s is outside %s's arc.", f.Name, u.ID)
		}
		b.Structure = f.Name
		b.Roll = tx.Roll(engine.D6)
		b.Damage, b.Kills = SiegeResult(b.Roll + b.Mod)
		b.DVLeft = max(0, f.DV-b.Damage)
		// The kills fall on the enemy unit in or on the structure nearest
		// its middle (RULINGS.md, btg, "siege").
		best := math.Inf(1)
		// A unit at prayer is spared them: no missile touches it (§6).
		for _, o := range s.inPlay(u.Side.Other()) {
			if o.Effects.Immune {
				continue
			}
			if d := o.Base.Gap(f.Area); d <= engine.ContactTolerance && o.Base.Center.Dist(f.Area.Center) < best {
				victim, best = o, o.Base.Center.Dist(f.Area.Center)
			}
		}
	case c.Has("target"):
		t, err := s.findUnit(c.Opt("target"))
		if err != nil {
			return err
		}
		if t.Side == u.Side || !t.In() {
			return engine.Refuse("", "%s is not an enemy on the table.", t.ID)
		}
		if t.Effects.Immune {
			return engine.Refuse("§6", "%s is at prayer, and no missile touches it this turn (Prayer).", t.ID)
		}
		if d := u.Base.Gap(t.Base); d > reach {
			return engine.Refuse("§7", "%s is %s away; a %s throws %s.", t.ID, inches(d), u.Class, inches(reach))
		}
		if !inArc(u.Base, t.Base) {
			return engine.Refuse("2.A", "%s is outside %s's arc.", t.ID, u.ID)
		}
		if s.engaged(t) {
			return engine.Refuse("§2", "%s is locked in melee; nobody shoots into a melee.", t.ID)
		}
		b.Target = t.ID
		b.Roll = tx.Roll(engine.D6)
		b.Damage, b.Kills = SiegeResult(b.Roll + b.Mod)
		if t.Class.Siege() {
			b.DVLeft = max(0, t.DV-b.Damage)
		} else {
			b.DVLeft, b.NoDV = 1, true // only engines and structures have damage values
		}
		victim = t
	default:
		return engine.Refuse("§7", "Name the target: target: a unit, or structure: a building, wall or tower.")
	}
	if victim != nil && b.Kills > 0 {
		b.Victim = victim.ID
		b.Kills = min(b.Kills, victim.Figures)
	}
	return tx.Emit(b)
}
