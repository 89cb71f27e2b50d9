package sgboh

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Missile fire (SGBOH 8.1), hit and run (9.3, 9.41), artillery (9.5) and
// the elephants' rampage (9.14).

var fireCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "fire", Help: "Fire an activated missile unit at an enemy in range and in its front.",
		Example: "/fire unit:SK1 target:PE3", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the firing unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit", Kind: engine.OptElement, Required: true},
		}}, Run: fire},
	{CommandSpec: engine.CommandSpec{Name: "hitrun", Help: "Hit and run: an SK or LI two MP from its target, or missile LC within four, fires without moving (9.3, 9.41).",
		Example: "/hitrun unit:AGR target:PE3", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the skirmishing unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit", Kind: engine.OptElement, Required: true},
		}}, Run: hitRun},
	{CommandSpec: engine.CommandSpec{Name: "rally", Help: "Voluntary rally: an unharmed unit in command range, not next to the enemy, removes two missile hits instead of moving or fighting (10.27).",
		Example: "/rally unit:PH1", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
		}}, Run: rally},
}

// canFire refuses a unit that may not fire now (8.11); oxybeles fire
// only in the range of their own activated leader (9.5).
func (s *State) canFire(u *Unit) error {
	switch {
	case u.Missile == NoMissile:
		return engine.Refuse("8.1", "%s has no missiles.", u.ID)
	case u.Status == Disordered:
		return engine.Refuse("8.11", "%s is Disordered and may not fire.", u.ID)
	case u.Engaged:
		return engine.Refuse("8.11", "%s is Engaged and may not fire.", u.ID)
	case u.lockedOut():
		return engine.Refuse("10.25", "%s is routed.", u.ID)
	case u.Type == AR:
		if l := s.leader(s.Flow.Leader); l == nil || l.Side != u.Side || !l.In() || !l.inRange(u.Hex) {
			return engine.Refuse("9.5", "%s, oxybeles, fire only in the command range of their own activated leader.", u.ID)
		}
	}
	return nil
}

// target finds an enemy unit on the map.
func (w *work) target(me int, id string) (*Unit, error) {
	t := w.unit(id)
	if t == nil || t.Side == me || !t.On() {
		return nil, engine.Refuse("", "%s is no enemy unit on the map.", id)
	}
	return t, nil
}

func fire(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	u, err := w.activeUnit(me, c.Opt("unit"))
	if err != nil {
		return err
	}
	t, err := w.target(me, c.Opt("target"))
	if err != nil {
		return err
	}
	switch {
	case u.Fired:
		return engine.Refuse("8.12", "%s has fired in this activation.", u.ID)
	case u.Fought:
		return engine.Refuse("3.1", "%s has shocked: units fire before they shock.", u.ID)
	case w.Flow.Shocked:
		return engine.Refuse("3.1", afterShock)
	}
	if err := w.canFire(u); err != nil {
		return err
	}
	d := engine.HexDistance(u.Hex, t.Hex)
	if d > u.Missile.reach() {
		return engine.Refuse("8.1", "%s is %d hexes away; %s reach %d.", t.ID, d, u.Missile, u.Missile.reach())
	}
	if !inArc(u, t.Hex) {
		return engine.Refuse("8.1", "%s is not in %s's front: a unit fires within 60° of its facing.", t.ID, u.ID)
	}
	if !w.clearShot(u.Hex, t.Hex) {
		return engine.Refuse("8.1", "%s has no line of sight to %s: units, woods and higher ground block it.", u.ID, t.ID)
	}
	u.Fired = true
	w.shoot(u, t, d, u.Moved, "fires")
	w.returnFire(t, u, d)
	return w.emit(func(e Effects) engine.Body { return Fired{e} })
}

// returnFire has t, just shot at by u from r hexes, throw back at u
// (8.16, kept by the text; 9.3 speaks of return fire as following any
// fire): when t may fire (8.11) and u is within its reach and sight.
// Like return fire against hit and run it is not bound by t's arc and
// is not t's reaction fire (8.2), and it draws no return itself.
func (w *work) returnFire(t, u *Unit, r int) {
	if !t.On() || !u.On() || w.canFire(t) != nil || r > t.Missile.reach() || !w.clearShot(t.Hex, u.Hex) {
		return
	}
	w.say("%s returns fire (8.16).", t.ID)
	w.shoot(t, u, r, false, "shoots")
}

// inArc reports whether h lies within 60° either side of u's facing.
func inArc(u *Unit, h engine.Hex) bool {
	a, b := engine.HexCenter(u.Hex, 1), engine.HexCenter(h, 1)
	d := u.Facing.Heading().Diff(engine.HeadingTo(a, b))
	return d >= -60.001 && d <= 60.001
}

// clearShot reports whether the line from a to b passes no unit, woods,
// or ground higher than both ends (our line of sight; 8.1 keeps the
// standard rule we do not have).
func (s *State) clearShot(a, b engine.Hex) bool {
	top := max(s.cell(a).Level, s.cell(b).Level)
	return engine.HexLOS(a, b, func(h engine.Hex) bool {
		c := s.cell(h)
		return s.at(h) != nil || c.Ground == Woods || c.Level > top
	})
}

// shoot resolves one unit's missiles at another at range r: a hit is a
// missile hit (8.15), an elephant hit may rampage, and more hits than
// TQ eliminate the target.
func (w *work) shoot(u, t *Unit, r int, moving bool, verb string) {
	need, _ := u.Missile.hitsOn(r)
	w.tx.Why(u.ID + "'s missiles")
	roll := w.roll()
	mods, sum := missileMods(w.State, u, t, moving)
	total := roll + sum
	hit := total <= need
	res := "a miss"
	if hit {
		res = "a hit"
	}
	w.say("%s %s %s at %s, range %d: roll %d%s = %d against %d or less, %s.", u.ID, verb, u.Missile, t.ID, r, roll, mods, total, need, res)
	w.mark(Mark{Kind: engine.FireMark, From: u.Hex, To: t.Hex, Hit: hit, Side: u.Side})
	if !hit {
		return
	}
	if t.Type == EL {
		rr := w.roll()
		if rr > t.TQ {
			w.say("%s takes no missile hit: its roll of %d is above its TQ %d.", t.ID, rr, t.TQ)
			w.rampage(t, u.Hex)
		} else {
			w.say("%s takes no missile hit and keeps its head (roll %d, TQ %d).", t.ID, rr, t.TQ)
		}
		return
	}
	t.Hits++
	if tq := t.quality(); t.Hits > tq {
		why := fmt.Sprintf("%d missile hits, more than its TQ of %d (8.15)", t.Hits, tq)
		if t.Status == Routed {
			why = fmt.Sprintf("%d missile hits, more than the TQ of 1 of a routed unit (8.15, 10.27)", t.Hits)
		}
		w.eliminate(t, why)
		return
	}
	w.say("%s has %s.", t.ID, engine.Plural(t.Hits, "missile hit", "missile hits"))
}

// missileMods returns the modifiers to a missile roll, written out, and
// their sum: moving fire +1, an armoured target +1, woods or abatis +1,
// a target two or more levels up +1, firing down -1.
func missileMods(s *State, u, t *Unit, moving bool) (string, int) {
	var b strings.Builder
	sum := 0
	add := func(v int, why string) {
		sum += v
		fmt.Fprintf(&b, " %+d %s", v, why)
	}
	if moving {
		add(1, "moving")
	}
	if t.armoured() {
		add(1, "armoured target")
	}
	switch s.cell(t.Hex).Ground {
	case Woods:
		add(1, "woods")
	case Abatis:
		add(1, "abatis")
	}
	up := s.cell(t.Hex).Level - s.cell(u.Hex).Level
	switch {
	case up >= 2:
		add(1, "target above")
	case up <= -1:
		add(-1, "firing down")
	}
	return b.String(), sum
}

func hitRun(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	u, err := w.activeUnit(me, c.Opt("unit"))
	if err != nil {
		return err
	}
	t, err := w.target(me, c.Opt("target"))
	if err != nil {
		return err
	}
	lc := u.Type == LC
	switch {
	case !lc && u.Type != SK && u.Type != LI:
		return engine.Refuse("9.3", "Only SK, LI and missile-armed LC hit and run.")
	case u.Moved || u.Fired || u.Fought:
		return engine.Refuse("9.3", "%s must start its movement to hit and run, and has already acted.", u.ID)
	case w.Flow.Shocked:
		return engine.Refuse("3.1", afterShock)
	}
	if err := w.canFire(u); err != nil {
		return err
	}
	if engine.HexDistance(u.Hex, t.Hex) == 1 {
		return engine.Refuse("9.3", "%s is next to %s: hit and run starts from further off.", u.ID, t.ID)
	}
	limit := 2
	if lc {
		limit = 4
	} else if t.MA > u.MA {
		return engine.Refuse("9.3", "%s (MA %d) is faster than %s (MA %d): SK and LI hit and run only at units no faster.", t.ID, t.MA, u.ID, u.MA)
	}
	mp, ok := w.mpTo(u, t, lc)
	if !ok || mp > limit {
		through := "not through a friendly unit"
		if lc {
			through = "a friendly unit in the way costing 1 more"
		}
		return engine.Refuse("9.3", "%s is more than %d MP from %s (%s).", t.ID, limit, u.ID, through)
	}
	u.Moved, u.Fired = true, true
	w.say("%s hits and runs at %s, %d MP off (9.3).", u.ID, t.ID, mp)
	w.shoot(u, t, 1, true, "throws")
	if t.On() && w.canFire(t) == nil {
		w.say("%s returns fire.", t.ID)
		w.shoot(t, u, 1, false, "shoots")
	}
	return w.emit(func(e Effects) engine.Body { return Fired{e} })
}

// mpTo returns the movement points from u to t: the cheapest way to a
// hex next to t, plus the step into t. Enemy units block; friendly
// combat units block skirmishers and cost LC one more (9.41).
func (s *State) mpTo(u, t *Unit, lc bool) (int, bool) {
	best := map[engine.Hex]int{u.Hex: 0}
	frontier := []engine.Hex{u.Hex}
	for len(frontier) > 0 {
		var next []engine.Hex
		for _, a := range frontier {
			for _, b := range a.Neighbors() {
				if !s.onMap(b) || b == t.Hex {
					continue
				}
				c, ok := s.enterCost(u.Type, a, b)
				if !ok {
					continue
				}
				if o := s.at(b); o != nil {
					if o.Side != u.Side || !lc {
						continue
					}
					c++
				}
				c += best[a]
				if old, seen := best[b]; (seen && old <= c) || c > 8 {
					continue
				}
				best[b] = c
				next = append(next, b)
			}
		}
		frontier = next
	}
	out, found := 0, false
	for _, n := range t.Hex.Neighbors() {
		if c, ok := best[n]; ok && (!found || c+1 < out) {
			out, found = c+1, true
		}
	}
	return out, found
}

// rampage runs an elephant amok (9.14): every other unit within two
// hexes, the one that set it off first, then clockwise from its bearing,
// is disordered on a roll above its TQ; a roll of 0, 1, 8 or 9 ends the
// rampage with the elephant destroyed, and if none does it is destroyed
// at the end.
func (w *work) rampage(el *Unit, cause engine.Hex) {
	if !el.On() {
		return
	}
	at := engine.HexCenter(el.Hex, 1)
	start := engine.HeadingTo(at, engine.HexCenter(cause, 1))
	var near []*Unit
	for i := range w.Units {
		u := &w.Units[i]
		if u.On() && u.Type != EL && u != el && engine.HexDistance(el.Hex, u.Hex) <= 2 {
			near = append(near, u)
		}
	}
	angle := func(u *Unit) float64 {
		d := float64(engine.HeadingTo(at, engine.HexCenter(u.Hex, 1)) - start)
		for d < -0.001 {
			d += 360
		}
		if d >= 359.999 {
			d = 0
		}
		return d
	}
	sort.SliceStable(near, func(i, j int) bool {
		// The unit that set it off rolls first (9.14), even when another
		// stands nearer on its bearing, as one may when light cavalry hit
		// and run through a friend (9.41).
		if ci, cj := near[i].Hex == cause, near[j].Hex == cause; ci != cj {
			return ci
		}
		ai, aj := angle(near[i]), angle(near[j])
		if ai != aj {
			return ai < aj
		}
		return engine.HexDistance(el.Hex, near[i].Hex) < engine.HexDistance(el.Hex, near[j].Hex)
	})
	w.say("%s rampages (9.14).", el.ID)
	for _, u := range near {
		if !u.On() {
			continue
		}
		r := w.roll()
		if r > u.TQ {
			w.say("Rampage at %s: roll %d, above its TQ %d.", u.ID, r, u.TQ)
			w.disorder(u, el.Hex, true)
		} else {
			w.say("Rampage at %s: roll %d, within its TQ %d; no effect.", u.ID, r, u.TQ)
		}
		if r <= 1 || r >= 8 {
			w.eliminate(el, fmt.Sprintf("its rampage ends on a roll of %d", r))
			return
		}
	}
	w.eliminate(el, "the rampage is over")
}

// eliminate takes a unit off the map for good.
func (w *work) eliminate(u *Unit, why string) {
	if u.Gone {
		return
	}
	u.Gone, u.Engaged = true, false
	w.say("%s is eliminated: %s.", u.ID, why)
	w.mark(Mark{Kind: engine.KillMark, From: u.Hex, Side: u.Side})
}

func rally(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	u := w.unit(c.Opt("unit"))
	switch {
	case u == nil || u.Side != me || !u.On():
		return engine.Refuse("", "%s is no unit of %s on the map.", c.Opt("unit"), s.name(me))
	case !w.inCommand(u):
		return engine.Refuse("10.27", "%s is not within the command range of the activated leader.", u.ID)
	case u.Status != Full:
		return engine.Refuse("10.27", "%s is %s: it rallies (mandatorily) at the end of an activation in which it does nothing.", u.ID, u.Status)
	case u.Hits == 0:
		return engine.Refuse("10.27", "%s has no missile hits to remove.", u.ID)
	case u.Moved || u.Fired || u.Fought || u.Rallied:
		return engine.Refuse("10.27", "%s has acted: a voluntary rally is instead of moving or fighting.", u.ID)
	case len(w.enemiesNext(u.Side, u.Hex)) > 0:
		return engine.Refuse("10.27", "%s is next to the enemy and may not rally.", u.ID)
	}
	before := u.Hits
	u.Hits = max(0, u.Hits-2)
	u.Rallied = true
	w.say("%s rallies, removing %s (10.27); %d left.", u.ID, engine.Plural(before-u.Hits, "missile hit", "missile hits"), u.Hits)
	return w.emit(func(e Effects) engine.Body { return Rallied{e} })
}

// inCommand reports whether u is within the activated leader's range, or
// in the activated group. A leader killed or captured in his own
// activation has no range left (8.34, 6.7), so the rally (10.27) that
// follows finds no unit in it.
func (s *State) inCommand(u *Unit) bool {
	if l := s.leader(s.Flow.Leader); l != nil {
		return l.In() && l.inRange(u.Hex)
	}
	return containsID(s.Flow.Group, u.ID)
}
