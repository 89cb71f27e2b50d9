package sgboh

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Shock (SGBOH 8.2-8.3, 8.5, 9.1-9.6): attacks declared all at once,
// each settled by one roll and its modifiers, with the defender's
// reaction fire and cavalry's retreat before combat first, and pursuit
// after.

var shockCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "shock", Help: "Declare every shock attack of the activation at once: attackers>defender, attacks separated by commas.",
		Example: `/shock attacks:"PH1 PH2>PE3, HC1>PE4"`, Options: []engine.OptionSpec{
			{Name: "attacks", Help: "each attack as ATTACKER [ATTACKER…]>DEFENDER; separate attacks by commas", Required: true},
		}}, Run: shock},
}

func attackList(as []Attack) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = strings.Join(a.By, " ") + ">" + a.On
	}
	return strings.Join(parts, ", ")
}

func shock(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	if s.Flow.Shocked {
		return engine.Refuse("8.3", "The attacks of this activation are declared, all at once, and may not change.")
	}
	w := begin(tx, s)
	var attacks []Attack
	used, attacked := map[string]bool{}, map[string]bool{}
	for _, part := range strings.FieldsFunc(c.Opt("attacks"), func(r rune) bool { return r == ',' || r == ';' }) {
		by, on, ok := strings.Cut(part, ">")
		on = strings.TrimSpace(on)
		switch {
		case !ok:
			return engine.Refuse("8.3", "%q has no \">\": write each attack as ATTACKER [ATTACKER…]>DEFENDER, as in PH1 PH2>PE3.", strings.TrimSpace(part))
		case on == "":
			return engine.Refuse("8.3", "In %q no defender follows \">\": name the enemy unit attacked after it.", strings.TrimSpace(part))
		case strings.Contains(on, ">") || len(strings.Fields(on)) > 1:
			return engine.Refuse("8.3", "In %q, %q is not one defender: an attack has one defender; separate attacks by commas.", strings.TrimSpace(part), on)
		}
		d, err := w.target(me, on)
		if err != nil {
			return err
		}
		if attacked[d.ID] {
			return engine.Refuse("8.3", "%s is named in two attacks: all the units attacking one defender make one attack, one roll, named together as in P1 P2>%s.", d.ID, d.ID)
		}
		attacked[d.ID] = true
		a := Attack{On: d.ID}
		for _, id := range strings.Fields(strings.ReplaceAll(by, "+", " ")) {
			u, err := w.activeUnit(me, id)
			if err != nil {
				return err
			}
			if err := w.mayAttack(u, d); err != nil {
				return err
			}
			if used[u.ID] {
				return engine.Refuse("8.3", "%s is named in two attacks: a unit attacks once.", u.ID)
			}
			used[u.ID] = true
			a.By = append(a.By, u.ID)
		}
		if len(a.By) == 0 {
			return engine.Refuse("8.3", "Name the attackers of %s.", d.ID)
		}
		attacks = append(attacks, a)
	}
	if len(attacks) == 0 {
		return engine.Refuse("8.3", "Declare at least one attack.")
	}
	var missing []string
	for _, a := range w.mandatoryAttacks() {
		for _, id := range a.By {
			if !used[id] {
				missing = append(missing, id)
			}
		}
	}
	if len(missing) > 0 {
		return engine.Refuse("7.3", "Engaged units in command must shock: add %s.", strings.Join(missing, ", "))
	}
	w.Flow.Shocked = true
	w.Flow.Attacks = attacks
	w.say("%s declare: %s.", s.name(me), attackList(attacks))
	w.proceed()
	return w.emit(func(e Effects) engine.Body { return Shocked{e} })
}

// mayAttack refuses an attack the rules forbid.
func (w *work) mayAttack(u, d *Unit) error {
	if _, ok := u.attackSystem(); !ok {
		if u.Type == SK {
			return engine.Refuse("9.3", "%s are skirmishers and may not shock (only SK* may).", u.ID)
		}
		return engine.Refuse("9.5", "%s is artillery and does not shock.", u.ID)
	}
	switch {
	case u.Fought:
		return engine.Refuse("8.3", "%s has shocked already.", u.ID)
	case u.Type.Cavalry() && d.Type == EL:
		return engine.Refuse("9.15", "Cavalry may not attack elephants.")
	case !slices.Contains(engine.FrontHexes(u.Hex, u.Facing), d.Hex):
		return engine.Refuse("8.3", "%s is not in %s's frontal hexes.", d.ID, u.ID)
	}
	return nil
}

// mandatoryAttacks returns, for each Engaged unit a leader activated that
// has an enemy in its front and has not attacked, an attack on the first
// such enemy (7.3); units that fall on one defender make one attack (8.3).
func (w *work) mandatoryAttacks() []Attack {
	if w.Flow.Leader == "" {
		// A leaderless group is activated by no leader, so none of its
		// units stands in an activated leader's range: 7.3 leaves their
		// shock voluntary.
		return nil
	}
	var out []Attack
	join := func(u *Unit, d *Unit) {
		for i := range out {
			if out[i].On == d.ID {
				out[i].By = append(out[i].By, u.ID)
				return
			}
		}
		out = append(out, Attack{By: []string{u.ID}, On: d.ID})
	}
	for i := range w.Units {
		u := &w.Units[i]
		if !u.Act || !u.On() || !u.Engaged || u.Fought || u.lockedOut() || u.Side != w.Flow.Side {
			continue
		}
		if _, ok := u.attackSystem(); !ok {
			continue
		}
		for _, d := range w.inFront(u) {
			if w.mayAttack(u, d) == nil {
				join(u, d)
				break
			}
		}
	}
	return out
}

// proceed settles the declared attacks in order until one needs an
// answer or none is left.
func (w *work) proceed() {
	for len(w.Flow.Queue) == 0 && len(w.Flow.Attacks) > 0 {
		a := &w.Flow.Attacks[0]
		d := w.unit(a.On)
		var atts []*Unit
		for _, id := range a.By {
			if u := w.unit(id); u.On() && !u.lockedOut() && slices.Contains(engine.FrontHexes(u.Hex, u.Facing), d.Hex) {
				atts = append(atts, u)
			}
		}
		if !d.On() || len(atts) == 0 {
			w.say("The attack on %s lapses.", a.On)
			w.popAttack()
			continue
		}
		switch a.Step {
		case 0:
			a.Step = 1
			if d.Status == Routed {
				for _, u := range atts {
					u.Fought = true
				}
				v := d.Hex
				w.eliminate(d, "a routed unit shocked is destroyed (10.25)")
				w.Flow.Vacated = append(w.Flow.Vacated, Advance{Hex: v, By: ids(atts)})
				w.popAttack()
				continue
			}
			if !d.Type.Cavalry() {
				continue
			}
			elephants := slices.ContainsFunc(atts, func(u *Unit) bool { return u.Type == EL })
			foot := !slices.ContainsFunc(atts, func(u *Unit) bool { return !u.Type.Infantry() })
			if !elephants && !foot {
				continue
			}
			// Cavalry next to enemy cavalry may not retreat before
			// combat, nor may Engaged cavalry, which may not move at all
			// (6.4); before elephants that leaves it Disordered (9.16).
			held := d.Engaged || slices.ContainsFunc(w.enemiesNext(d.Side, d.Hex), func(u *Unit) bool { return u.Type.Cavalry() })
			if held && !elephants {
				continue
			}
			to, ok := w.evasion(d, atts)
			ok = ok && !held
			if elephants {
				if ok {
					w.say("%s must retreat before the elephants (9.16).", d.ID)
					w.evade(d, to, atts)
				} else {
					w.say("%s cannot retreat before the elephants (9.16).", d.ID)
					w.disorder(d, atts[0].Hex, false)
				}
				continue
			}
			if ok {
				w.Flow.Queue = append(w.Flow.Queue, Question{Kind: "evade", Side: d.Side, Unit: d.ID, Foe: atts[0].ID, To: to})
				w.askLine()
			}
		case 1:
			a.Step = 2
			if w.canFire(d) == nil && !d.Reacted {
				w.Flow.Queue = append(w.Flow.Queue, Question{Kind: "fire", Side: d.Side, Unit: d.ID, Foe: atts[0].ID, Targets: ids(atts)})
				w.askLine()
			}
		default:
			w.popAttack()
			w.resolve(atts, d)
		}
	}
}

// engage marks Engaged every unit of a fight that ended in the band
// 0-6 and still stands next to a foe of that fight, neither gone nor
// routed.
func (w *work) engage(atts []*Unit, d *Unit) {
	standing := func(u *Unit) bool { return u.On() && u.Status != Routed }
	var eng []string
	for _, u := range append(slices.Clone(atts), d) {
		if !standing(u) {
			continue
		}
		foes := atts
		if u != d {
			foes = []*Unit{d}
		}
		if slices.ContainsFunc(foes, func(f *Unit) bool { return standing(f) && engine.HexDistance(f.Hex, u.Hex) == 1 }) {
			u.Engaged = true
			eng = append(eng, u.ID)
		}
	}
	switch len(eng) {
	case 0:
	case 1:
		w.say("%s is Engaged.", eng[0])
	default:
		w.say("%s are Engaged.", strings.Join(eng, ", "))
	}
}

func (w *work) popAttack() { w.Flow.Attacks = w.Flow.Attacks[1:] }

func ids(us []*Unit) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// evasion finds where cavalry retreating before combat go: a hex two
// away, through an empty one, next to no attacker, as far from them as
// may be (8.3).
func (w *work) evasion(d *Unit, atts []*Unit) (engine.Hex, bool) {
	var best engine.Hex
	score := -1
	for _, mid := range d.Hex.Neighbors() {
		if !w.evadeVia(d, mid) {
			continue
		}
		for _, h := range mid.Neighbors() {
			if engine.HexDistance(d.Hex, h) != 2 || !w.canStand(d, h, false) {
				continue
			}
			sum := 0
			near := false
			for _, a := range atts {
				dist := engine.HexDistance(a.Hex, h)
				near = near || dist < 2
				sum += dist
			}
			if near || (d.Type.Cavalry() && w.nearElephant(d.Side, h)) {
				continue
			}
			// Furthest from the attackers; of those, nearest home.
			sum = sum*100 - w.edgeDist(d.Side, h)
			if sum > score {
				best, score = h, sum
			}
		}
	}
	return best, score >= 0
}

// evadeVia reports whether cavalry retreating before combat may pass
// through mid on its way: ground it may enter, no enemy there, and not
// next to an enemy elephant, since cavalry never moves next to one
// (9.15), in passing as at the end of its move.
func (w *work) evadeVia(d *Unit, mid engine.Hex) bool {
	return w.canStand(d, mid, true) && !(d.Type.Cavalry() && w.nearElephant(d.Side, mid))
}

// canStand reports whether u may step into h: on the map, ground it may
// enter, no enemy there, and no friend either unless only passing.
func (w *work) canStand(u *Unit, h engine.Hex, passing bool) bool {
	if !w.onMap(h) {
		return false
	}
	if _, ok := w.cell(h).Ground.cost(u.Type); !ok {
		return false
	}
	o := w.at(h)
	return o == nil || o == u || (passing && o.Side == u.Side)
}

// evade moves cavalry two hexes away before combat.
func (w *work) evade(d *Unit, to engine.Hex, atts []*Unit) {
	from := d.Hex
	d.Hex = to
	w.carryLeaders(d.Side, from, to)
	for _, u := range atts {
		u.Fought = true
	}
	w.say("%s retreats before combat from %s to %s; the attack is not made.", d.ID, from, to)
	w.mark(Mark{Kind: engine.MoveMark, From: from, To: to, Side: d.Side})
	w.popAttack()
}

// mod is one modifier to a shock roll.
type mod struct {
	why string
	v   int
}

// resolve settles one attack: the roll, its modifiers, the result.
func (w *work) resolve(atts []*Unit, d *Unit) {
	mods := w.shockMods(atts, d)
	w.tx.Why("the shock attack on " + d.ID)
	roll := w.roll()
	total := roll
	var words []string
	for _, m := range mods {
		if m.v != 0 {
			total += m.v
			words = append(words, fmt.Sprintf("%+d %s", m.v, m.why))
		}
	}
	how := "moving"
	if !moving(atts) {
		how = "engaged"
	}
	w.say("Shock, %s: %s on %s. Roll %s = %d: %s.", how, strings.Join(ids(atts), " and "), d.ID, strings.Join(append([]string{fmt.Sprint(roll)}, words...), " "), total, shockWords(total))
	for _, u := range atts {
		u.Fought = true
		w.mark(Mark{Kind: engine.MeleeMark, From: u.Hex, To: d.Hex, Label: fmt.Sprint(total), Side: u.Side})
	}
	// Only a cavalry unit that was itself moving, not Engaged, when it
	// attacked may pursue (8.3).
	var fresh []*Unit
	for _, u := range atts {
		if !u.Engaged {
			fresh = append(fresh, u)
		}
	}
	// Every leader stacked with a unit of the fight rolls for his life
	// (8.34), two in one hex as much as one alone.
	var leaders []*Leader
	for _, u := range append(slices.Clone(atts), d) {
		leaders = append(leaders, w.leadersAt(u.Side, u.Hex)...)
	}
	from := d.Hex
	routed := false
	switch {
	case total >= 6:
		routed = w.defenderResult(total, atts, d)
	case total >= 4:
	case total >= 0:
		for _, u := range atts {
			w.disorder(u, d.Hex, false)
		}
	default:
		for _, u := range atts {
			w.shockRout(u, true)
		}
	}
	if total >= 0 && total <= 6 {
		w.engage(atts, d)
	}
	for _, l := range leaders {
		if !l.In() {
			continue
		}
		r := w.roll()
		if r == 0 {
			l.Dead = true
			w.say("%s, in the fight, rolls 0 and is killed (8.34).", l.Name)
		} else {
			w.say("%s, in the fight, rolls %d and is unhurt (8.34).", l.Name, r)
		}
	}
	// Advance follows only a retreat or a rout (8.5), or what stands for
	// one (skirmishers and chariots destroyed instead); not an elephant
	// gone in its rampage, nor artillery destroyed by a plain Disorder.
	if (total >= 8 || routed) && (d.Hex != from || d.Gone) {
		if w.at(from) == nil {
			w.Flow.Vacated = append(w.Flow.Vacated, Advance{Hex: from, By: ids(atts)})
		}
	}
	if routed && d.Type != SK && !d.Gone {
		for _, u := range fresh {
			if u.On() && u.Type.Cavalry() && !u.lockedOut() {
				w.Flow.Queue = append(w.Flow.Queue, Question{Kind: "pursue", Side: u.Side, Unit: u.ID, Foe: d.ID, To: from})
			}
		}
		w.askLine()
	}
}

// defenderResult applies a shock total of 6 or more to the defender d
// (8.3): 10+ routs it, 8-9 Disorders it and makes it retreat, 6-7
// Disorders it; skirmishers made to retreat or rout are destroyed (9.3).
// It reports whether d routed or was destroyed so, for pursuit.
func (w *work) defenderResult(total int, atts []*Unit, d *Unit) bool {
	switch {
	case total >= 10:
		w.shockRout(d, false)
		return true
	case total >= 8:
		if d.Type == SK {
			w.eliminate(d, "skirmishers made to retreat are destroyed (9.3)")
			return false
		}
		was := d.Status
		w.disorder(d, atts[0].Hex, true)
		switch {
		case d.Gone:
			return false
		case was == Disordered || d.Status == Routed:
			return d.Status == Routed || d.Gone
		}
		w.retreat(d, atts)
		// With nowhere to go it routed: cavalry may pursue.
		return d.Status == Routed || d.Gone
	case d.Type == SK && d.Status == Disordered:
		// A second Disorder would rout it, and skirmishers routed in
		// shock are destroyed instead (9.3).
		w.say("%s, already Disordered, would rout.", d.ID)
		w.eliminate(d, "skirmishers made to rout are destroyed (9.3)")
		return true
	}
	w.disorder(d, atts[0].Hex, false)
	return d.Status == Routed
}

// moving reports whether an attack is a moving shock: any attacker not
// Engaged (8.3).
func moving(atts []*Unit) bool {
	return slices.ContainsFunc(atts, func(u *Unit) bool { return !u.Engaged })
}

func shockWords(total int) string {
	switch {
	case total >= 10:
		return "the defender routs"
	case total >= 8:
		return "the defender is disordered and retreats"
	case total >= 6:
		return "the defender is disordered"
	case total >= 4:
		return "no effect"
	case total >= 0:
		return "the attacker is disordered"
	}
	return "the attacker routs"
}

// shockMods lists the modifiers of 8.3 for an attack.
func (w *work) shockMods(atts []*Unit, d *Unit) []mod {
	var out []mod
	add := func(why string, v int) { out = append(out, mod{why, v}) }
	// Size, unless elephants or chariots fight others.
	special := func(u *Unit) bool { return u.Type == EL || u.Type == CH }
	all := append(slices.Clone(atts), d)
	if !slices.ContainsFunc(all, special) || !slices.ContainsFunc(all, func(u *Unit) bool { return !special(u) }) {
		a := 0
		for _, u := range atts {
			a += u.Size
		}
		add("size", sizeMod(a, d.Size))
	}
	tq := 0
	for _, u := range atts {
		tq = max(tq, u.TQ)
	}
	add("TQ", max(-3, min(3, tq-d.TQ)))
	flank, rear := false, false
	for _, u := range atts {
		switch engine.HexAspect(d.Hex, d.Facing, u.Hex) {
		case engine.Left, engine.Right:
			flank = true
		case engine.Rear:
			rear = true
		}
	}
	row := d.defenceSystem()
	best, bestWhy := na, ""
	for _, u := range atts {
		sys, _ := u.attackSystem()
		v := matrix[row][sys.column()]
		if v == na {
			continue
		}
		if bracketed(row, sys) && engine.HexAspect(d.Hex, d.Facing, u.Hex) != engine.Front {
			v = 0
		}
		if v > best {
			best, bestWhy = v, fmt.Sprintf("weapons %s on %s", systemNames[sys], systemNames[row])
		}
	}
	if best != na {
		add(bestWhy, best)
	}
	if row == sysPH && moving(atts) && !flank && !rear {
		add("moving on a phalanx's front", -1)
	}
	if d.Cataphract {
		add("cataphracts", -1)
	}
	hits := 0
	for _, u := range atts {
		hits += u.Hits
	}
	add("attackers' missile hits", -hits)
	add("defender's missile hits", d.Hits)
	if flank {
		add("flank", 2)
	}
	if rear {
		add("rear", 3)
	}
	switch w.cell(d.Hex).Ground {
	case Woods, Rocky, Marsh, Abatis:
		add("defender in "+w.cell(d.Hex).Ground.String(), -1)
	}
	low := 99
	worst := 0
	for _, u := range atts {
		low = min(low, w.cell(u.Hex).Level)
		switch w.cell(u.Hex).Ground {
		case River:
			worst = min(worst, -2)
		case Stream, Bank:
			worst = min(worst, -1)
		}
	}
	switch up := w.cell(d.Hex).Level - low; {
	case up >= 2:
		add("defender uphill", -2)
	case up == 1:
		add("defender uphill", -1)
	case up <= -1:
		add("defender downhill", 1)
	}
	add("attacking from the river", worst)
	dis := 0
	for _, u := range atts {
		if u.Status == Disordered {
			dis--
		}
	}
	add("attackers disordered", dis)
	if d.Status == Disordered {
		add("defender disordered", 1)
	}
	if moving(atts) {
		add("moving", 1)
	}
	if slices.ContainsFunc(atts, func(u *Unit) bool { return w.leaderAt(u.Side, u.Hex) != nil }) {
		add("leader with the attack", 1)
	}
	if w.leaderAt(d.Side, d.Hex) != nil {
		add("leader with the defender", -1)
	}
	if slices.ContainsFunc(atts, func(u *Unit) bool { return u.Deep }) {
		add("double-depth phalanx", 1)
	}
	if d.Deep {
		add("double-depth phalanx defending", -1)
	}
	return out
}

// sizeMod is the size ratio modifier: 2 points more is +1, twice as big
// (and 2 points more) +2; the same against.
func sizeMod(a, d int) int {
	switch {
	case a-d >= 2 && a >= 2*d:
		return 2
	case a-d >= 2:
		return 1
	case d-a >= 2 && d >= 2*a:
		return -2
	case d-a >= 2:
		return -1
	}
	return 0
}

func answer(tx *engine.Tx, s *State, c engine.Command) error {
	if _, err := side(s, c); err != nil {
		return err
	}
	if len(s.Flow.Queue) == 0 {
		return engine.Refuse("", "No question waits on an answer.")
	}
	q := s.Flow.Queue[0]
	if s.Armies[q.Side].Player != c.Actor {
		return engine.Refuse("", "The question is for %s.", s.name(q.Side))
	}
	w := begin(tx, s)
	w.Flow.Queue = w.Flow.Queue[1:]
	u, foeU := w.unit(q.Unit), w.unit(q.Foe)
	choice := strings.ToLower(strings.TrimSpace(c.Opt("reply")))
	switch q.Kind {
	case "withdraw":
		switch choice {
		case "withdraw":
			w.withdraw(u, foeU, q.To)
		case "stand":
			w.say("%s stands its ground.", u.ID)
		default:
			return engine.Refuse("6.7", "reply: withdraw or stand.")
		}
	case "face":
		switch choice {
		case "left", "right":
			turn := -1
			if choice == "right" {
				turn = 1
			}
			u.Faced = true
			if u.Type.Cavalry() && foeU.Type.Infantry() {
				u.Facing = u.Facing.Turn(turn)
				w.say("%s, cavalry facing infantry, turns to face %s without a roll (7.16).", u.ID, u.Facing)
				break
			}
			r := w.roll()
			if r <= u.TQ {
				u.Facing = u.Facing.Turn(turn)
				w.say("%s turns to face %s: roll %d, within its TQ %d (7.16).", u.ID, u.Facing, r, u.TQ)
			} else {
				w.say("%s fails to turn: roll %d, above its TQ %d (7.16).", u.ID, r, u.TQ)
				// No shock result: an elephant does not rampage (9.14).
				w.disorder(u, foeU.Hex, true)
			}
		case "stand":
			w.say("%s stands as it is.", u.ID)
		default:
			return engine.Refuse("7.16", "reply: left, right or stand.")
		}
	case "evade":
		switch choice {
		case "evade":
			to := q.To
			if c.Has("to") {
				h, err := parseHexOn(w.State, "to", c.Opt("to"))
				if err != nil {
					return err
				}
				atts := w.liveAttackers()
				if ok := w.evadeTo(u, h, atts); !ok {
					if u.Type.Cavalry() && w.nearElephant(u.Side, h) {
						return engine.Refuse("9.15", "to: %s is next to an enemy elephant, and cavalry may not move next to elephants.", h)
					}
					if w.evadePastElephant(u, h, atts) {
						return engine.Refuse("9.15", "to: every way to %s passes next to an enemy elephant, and cavalry may not move next to elephants, not even in passing.", h)
					}
					return engine.Refuse("8.3", "to: %s is not two hexes away through a clear hex and clear of the attackers.", h)
				}
				to = h
			}
			w.evade(u, to, w.liveAttackers())
		case "stand":
			w.say("%s stands to receive the attack.", u.ID)
		default:
			return engine.Refuse("8.3", "reply: evade or stand.")
		}
	case "fire":
		if choice == "hold" {
			w.say("%s holds its fire.", u.ID)
			break
		}
		t := w.unit(choice)
		if t == nil || !containsID(q.Targets, t.ID) {
			return engine.Refuse("8.2", "reply: one of the attackers (%s), or hold.", strings.Join(q.Targets, ", "))
		}
		u.Reacted = true
		w.say("%s fires in reaction (8.2).", u.ID)
		w.shoot(u, t, engine.HexDistance(u.Hex, t.Hex), false, "looses")
	case "pursue":
		switch choice {
		case "pursue":
			w.pursue(u, foeU, q.To)
		case "hold":
			w.say("%s does not pursue.", u.ID)
		default:
			return engine.Refuse("8.3", "reply: pursue or hold.")
		}
	}
	w.dropLapsed()
	w.askLine()
	w.proceed()
	return w.emit(func(e Effects) engine.Body { return Reacted{e} })
}

// liveAttackers are the units of the attack under way.
func (w *work) liveAttackers() []*Unit {
	if len(w.Flow.Attacks) == 0 {
		return nil
	}
	var out []*Unit
	for _, id := range w.Flow.Attacks[0].By {
		if u := w.unit(id); u.On() {
			out = append(out, u)
		}
	}
	return out
}

// evadeTo reports whether d may retreat before combat to h: two hexes
// off through a hex it may pass, next to no attacker, and for cavalry
// next to no enemy elephant (9.15).
func (w *work) evadeTo(d *Unit, h engine.Hex, atts []*Unit) bool {
	if engine.HexDistance(d.Hex, h) != 2 || !w.canStand(d, h, false) {
		return false
	}
	if d.Type.Cavalry() && w.nearElephant(d.Side, h) {
		return false
	}
	for _, a := range atts {
		if engine.HexDistance(a.Hex, h) < 2 {
			return false
		}
	}
	for _, mid := range d.Hex.Neighbors() {
		if engine.HexDistance(mid, h) == 1 && w.evadeVia(d, mid) {
			return true
		}
	}
	return false
}

// evadePastElephant reports whether d could retreat before combat to h
// but for the elephants: h is two hexes off, free and clear of the
// attackers, and the hexes between that d could pass are all next to an
// enemy elephant.
func (w *work) evadePastElephant(d *Unit, h engine.Hex, atts []*Unit) bool {
	if !d.Type.Cavalry() || engine.HexDistance(d.Hex, h) != 2 || !w.canStand(d, h, false) {
		return false
	}
	for _, a := range atts {
		if engine.HexDistance(a.Hex, h) < 2 {
			return false
		}
	}
	for _, mid := range d.Hex.Neighbors() {
		if engine.HexDistance(mid, h) == 1 && w.canStand(d, mid, true) && w.nearElephant(d.Side, mid) {
			return true
		}
	}
	return false
}

// dropLapsed drops questions that no longer stand: pursuit of a unit
// already gone, questions about units no longer on the map, a turn to
// face a foe no longer next to the unit or by a unit no longer Full, a
// withdrawal by a routed unit or from a foe no longer next to it.
func (w *work) dropLapsed() {
	q := w.Flow.Queue[:0]
	for _, x := range w.Flow.Queue {
		u, f := w.unit(x.Unit), w.unit(x.Foe)
		if !u.On() || (x.Kind == "pursue" && (f.Gone || u.lockedOut())) {
			continue
		}
		near := f.On() && engine.HexDistance(u.Hex, f.Hex) == 1
		if (x.Kind == "face" && (!near || u.Status != Full)) || (x.Kind == "withdraw" && (!near || u.lockedOut() || !w.canStand(u, x.To, false))) {
			continue
		}
		q = append(q, x)
	}
	w.Flow.Queue = q
}

// questionText says what a question asks, and how to answer it.
func (s *State) questionText(q Question) string {
	u := s.unit(q.Unit)
	switch q.Kind {
	case "withdraw":
		return fmt.Sprintf("%s, faster than %s, may withdraw one hex to %s (6.7), then rolls against its TQ (+2 if approached from behind): above it, Disordered. /answer reply:withdraw or stand.", q.Unit, q.Foe, q.To)
	case "face":
		return fmt.Sprintf("%s may try to turn one vertex toward %s (7.16): /answer reply:left (to %s), right (to %s) or stand.", q.Unit, q.Foe, u.Facing.Turn(-1), u.Facing.Turn(1))
	case "evade":
		return fmt.Sprintf("%s, attacked by infantry, may retreat before combat two hexes (8.3): /answer reply:evade (to %s, or give to:) or stand.", q.Unit, q.To)
	case "fire":
		return fmt.Sprintf("%s may fire in reaction at one attacker (8.2): /answer reply:%s or hold.", q.Unit, strings.Join(q.Targets, " or "))
	case "pursue":
		return fmt.Sprintf("%s may pursue the routed %s (8.3): /answer reply:pursue or hold.", q.Unit, q.Foe)
	}
	return q.Kind
}

// ask offers a question's answers as buttons.
func (s *State) ask(q Question) *Ask {
	a := &Ask{Player: s.Armies[q.Side].Player}
	add := func(label, ans string) { a.Choices = append(a.Choices, Choice{Label: label, Answer: ans}) }
	switch q.Kind {
	case "withdraw":
		add("Withdraw to "+q.To.String(), "withdraw")
		add("Stand", "stand")
	case "face":
		u := s.unit(q.Unit)
		add("Turn to "+u.Facing.Turn(-1).String(), "left")
		add("Turn to "+u.Facing.Turn(1).String(), "right")
		add("Stand", "stand")
	case "evade":
		add("Retreat to "+q.To.String(), "evade")
		add("Stand", "stand")
	case "fire":
		for _, t := range q.Targets {
			add("Fire at "+t, t)
		}
		add("Hold fire", "hold")
	case "pursue":
		add("Pursue", "pursue")
		add("Hold", "hold")
	}
	return a
}

// fallback is the answer given for a player who lets the deadline pass:
// stand, stand, fire at the first attacker, pursue.
func (q Question) fallback() string {
	switch q.Kind {
	case "fire":
		return q.Targets[0]
	case "pursue":
		return "pursue"
	}
	return "stand"
}
