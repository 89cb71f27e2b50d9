package sgboh

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead an army: the commands it could give at each
// point of the sequence of play (SGBOH 3.1-3.2: a leader to activate and
// the line he commands, or a continuity gamble and its pass; its
// activated units' moves, fire, hit and run, rally, the shocks it
// declares and the advances after; and the answers the other side's
// activation asks of it: reaction facing, reaction fire, retreat before
// combat, pursuit), and how good a battle stands for a side, counted as
// the rules count it: rout points against the army's limit (10.4), and
// the shocks each side could make where it stands (8.3).
// Simple GBoH hides nothing but the dice, which the engine draws afresh
// itself, so the package is no engine.Concealer.

// The bot's limits, which keep its list short on a crowded map.
const (
	botMovers  = 2 // activated units whose moves it weighs at one step
	botTargets = 2 // the nearest enemies each mover is weighed against
	botLeaders = 4 // leaders weighed for one activation
)

// hardSearch is the hard level's search: 6 steps deep where the engine's
// default looks 4, on 1,280 playouts (the default's 2,048 at its depth cost
// about as much). The bot's lists here are short (its limits above keep
// them under 16 but in the great battles), so hard weighs every candidate
// either way; what its playouts need is the length to see an activation
// through, its moves, its shocks and their results. At the default depth,
// hard played no better than easy.
var hardSearch = engine.Budget{Playouts: 1280, Depth: 6, Wide: 16, Worlds: 8}

// easySearch is the easy level's search, a beginner's: the 4 candidates
// that look best one step ahead in one drawn world, and 8 playouts of 2
// steps among them. The engine's default easy (30 playouts of 3 steps on the
// best 8 of 2 worlds) weighs the whole of these short lists and played
// about as well as normal and hard: normal beat it in 60% of 40 games on
// the plain, hard in 56% of 16 on the Successors'.
var easySearch = engine.Budget{Playouts: 8, Depth: 2, Wide: 4, Worlds: 1}

// candidates lists what player could do now: the answers to a question
// put to him; in a free activation or at continuity, each of his leaders
// activated with each line he has in range (and alone, to ride first),
// and a leaderless group where no leader reaches; at continuity also the
// three units nearest the enemy as a group, and the pass only when
// routed units make it worth weighing; in an activation, the line to
// command or the contingent commander to pass it to, the leader's ride
// toward his units or clear of the enemy, the moves of the activated
// units nearest the enemy (to contact, toward the enemy, back, to higher
// ground, a turn to face), each shot and hit and run in reach, the
// rallies, the shocks (every one that may be made, or the good ones),
// the advances into emptied hexes, and /done.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	if s.Flow.Stage == SettingUp {
		if take, ok := s.botSide(player); ok {
			return []engine.Command{take}
		}
		return nil
	}
	if len(s.Armies) < 2 || s.Flow.Stage == Over {
		return nil
	}
	if len(s.Flow.Queue) > 0 {
		q := s.Flow.Queue[0]
		if s.Armies[q.Side].Player != player {
			return nil
		}
		return s.answers(player, q)
	}
	if s.Armies[s.Flow.Side].Player != player {
		return nil
	}
	me := s.Flow.Side
	switch s.Flow.Stage {
	case Free:
		return s.activations(player, me)
	case Continuity:
		out := s.activations(player, me)
		if g := s.vanguard(me); len(g) > 0 {
			out = append(out, engine.NewCommand(player, "activate", "units", strings.Join(g, " ")))
		}
		if s.routedOnMap(me) || !s.mayRoll(me) {
			out = append(out, engine.NewCommand(player, "pass"))
		}
		return out
	case Acting:
		return s.actions(player, me)
	}
	return nil
}

// routedOnMap reports whether side has a routed unit on the map: the
// only case in which declining the continuity roll may be worth it. A
// failed roll hands play over just as a pass does (3.2), and a roll of
// 0 or 1 brings pursuers back (8.3); a roll of 8 or 9, though, sends
// every routed unit running again, perhaps off the map (10.22).
func (s *State) routedOnMap(side int) bool {
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.Side == side && u.On() && u.Status == Routed })
}

// mayRoll reports whether side has anything to roll for continuity
// with: a leader who did not just go (an elite one may go twice, 5.5),
// or a unit able to form a leaderless group (3.2).
func (s *State) mayRoll(side int) bool {
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if l.Side == side && l.In() && !s.underWing(l) && (!slices.Contains(s.Flow.Just, l.ID) || l.Elite && !s.Flow.Again) {
			return true
		}
	}
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.Side == side && u.able() })
}

// vanguard is a leaderless group of the three able units of side
// nearest the enemy, wherever its leaders stand (3.2, exception 2): at
// continuity, a gamble when the leaders who could go have just gone.
func (s *State) vanguard(side int) []string {
	var us []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && u.able() {
			us = append(us, u)
		}
	}
	return firstThree(s.nearestFirst(side, us))
}

// answers are the choices a question offers (6.7, 7.16, 8.2, 8.3).
func (s *State) answers(player engine.PlayerID, q Question) []engine.Command {
	var choices []string
	switch q.Kind {
	case "withdraw":
		choices = []string{"withdraw", "stand"}
	case "face":
		choices = []string{"left", "right", "stand"}
	case "evade":
		choices = []string{"evade", "stand"}
	case "fire":
		choices = append(slices.Clone(q.Targets), "hold")
	case "pursue":
		choices = []string{"pursue", "hold"}
	}
	out := make([]engine.Command, len(choices))
	for i, c := range choices {
		out[i] = engine.NewCommand(player, "answer", "reply", c)
	}
	return out
}

// activations are the ways side may start an activation: each leader
// nearest the enemy with each line he has able units of in range, or
// alone (to ride first); and a leaderless group of the units no leader
// reaches nearest the enemy (3.2).
func (s *State) activations(player engine.PlayerID, side int) []engine.Command {
	var out []engine.Command
	var ls []*Leader
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if l.Side == side && l.In() && !s.underWing(l) {
			ls = append(ls, l)
		}
	}
	slices.SortStableFunc(ls, func(a, b *Leader) int { return cmp.Compare(s.enemyDist(side, a.Hex), s.enemyDist(side, b.Hex)) })
	for _, l := range ls[:min(botLeaders, len(ls))] {
		for _, line := range s.linesInRange(l, l.Hex) {
			out = append(out, engine.NewCommand(player, "activate", "leader", l.ID, "line", line))
		}
		out = append(out, engine.NewCommand(player, "activate", "leader", l.ID))
	}
	if g := s.strays(side); len(g) > 0 {
		out = append(out, engine.NewCommand(player, "activate", "units", strings.Join(g, " ")))
	}
	return out
}

// able reports whether u could act if activated.
func (u *Unit) able() bool { return u.On() && !u.lockedOut() }

// linesInRange lists the lines of l's side with an able unit within his
// range of hex h, in the order the units stand in the scenario.
func (s *State) linesInRange(l *Leader, h engine.Hex) []string {
	var out []string
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == l.Side && u.able() && engine.HexDistance(h, u.Hex) <= l.Range && !slices.Contains(out, u.Line) {
			out = append(out, u.Line)
		}
	}
	return out
}

// strays are up to three able units of side that no leader of it has in
// range, nearest the enemy first.
func (s *State) strays(side int) []string {
	var us []*Unit
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.able() {
			continue
		}
		led := false
		for j := range s.Leaders {
			l := &s.Leaders[j]
			led = led || (l.Side == side && l.In() && l.inRange(u.Hex))
		}
		if !led {
			us = append(us, u)
		}
	}
	return firstThree(s.nearestFirst(side, us))
}

// firstThree names the first three of us, a group of three units (3.2,
// exception 2).
func firstThree(us []*Unit) []string {
	var out []string
	for _, u := range us[:min(3, len(us))] {
		out = append(out, u.ID)
	}
	return out
}

// nearestFirst sorts side's units us, those nearest the enemy first.
func (s *State) nearestFirst(side int, us []*Unit) []*Unit {
	dist := make(map[*Unit]int, len(us))
	for _, u := range us {
		dist[u] = s.enemyDist(side, u.Hex)
	}
	slices.SortStableFunc(us, func(a, b *Unit) int { return cmp.Compare(dist[a], dist[b]) })
	return us
}

// enemyDist is the distance from h to the nearest enemy unit on the map
// that is not routed, or a large number when there is none.
func (s *State) enemyDist(side int, h engine.Hex) int {
	best := 999
	for i := range s.Units {
		e := &s.Units[i]
		if e.Side != side && e.able() {
			best = min(best, engine.HexDistance(h, e.Hex))
		}
	}
	return best
}

// nearestEnemies returns up to n able enemy units nearest h, nearest
// first.
func (s *State) nearestEnemies(side int, h engine.Hex, n int) []*Unit {
	var es []*Unit
	for i := range s.Units {
		if e := &s.Units[i]; e.Side != side && e.able() {
			es = append(es, e)
		}
	}
	slices.SortStableFunc(es, func(a, b *Unit) int {
		return cmp.Compare(engine.HexDistance(h, a.Hex), engine.HexDistance(h, b.Hex))
	})
	return es[:min(n, len(es))]
}

// actions are what the side may do inside its activation.
func (s *State) actions(player engine.PlayerID, side int) []engine.Command {
	var out []engine.Command
	if l := s.leader(s.Flow.Leader); l != nil && s.Flow.Line == "" {
		out = append(out, s.commands(player, l)...)
	}
	out = append(out, s.shocks(player, side)...)
	if !s.Flow.Shocked { // movement and fire come before the attacks (3.1 B)
		for _, u := range s.movers(side) {
			out = append(out, s.moves(player, u)...)
		}
		out = append(out, s.shots(player, side)...)
	}
	for _, v := range s.Flow.Vacated {
		for _, id := range v.By {
			if u := s.unit(id); u != nil && u.able() && !u.Engaged && s.at(v.Hex) == nil && !(u.Type.Cavalry() && s.nearElephant(side, v.Hex)) {
				out = append(out, engine.NewCommand(player, "advance", "unit", u.ID))
			}
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == side && u.able() && u.Status == Full && u.Hits > 0 && !u.Moved && !u.Fired && !u.Fought && !u.Rallied &&
			s.inCommand(u) && len(s.enemiesNext(side, u.Hex)) == 0 {
			out = append(out, engine.NewCommand(player, "rally", "unit", u.ID))
		}
	}
	return append(out, engine.NewCommand(player, "done"))
}

// commands are an activated leader's choices before he commands: each
// line he has in range, a ride that takes more of a line into range,
// and each contingent commander he may pass the activation to (4.2, 5.6).
func (s *State) commands(player engine.PlayerID, l *Leader) []engine.Command {
	var out []engine.Command
	for _, line := range s.linesInRange(l, l.Hex) {
		out = append(out, engine.NewCommand(player, "command", "line", line))
	}
	if l.Wing && s.Flow.Wing == "" {
		for i := range s.Leaders {
			m := &s.Leaders[i]
			if m.Under == l.ID && m.In() && l.inRange(m.Hex) && !slices.Contains(s.Flow.Just, m.ID) {
				out = append(out, engine.NewCommand(player, "delegate", "leader", m.ID))
			}
		}
	}
	if !l.Moved {
		out = append(out, s.rides(player, l)...)
		if to, ok := s.shelter(l); ok {
			out = append(out, engine.NewCommand(player, "move", "unit", l.ID, "to", to.String()))
		}
	}
	return out
}

// shelter is, for a leader next to an enemy unit (one that may shock
// the unit he stands with: a leader in the fight dies on a 0, 8.3, and
// costs his army twice his initiative, 10.4), the hex he may ride to
// next to no enemy that keeps the most of his side's able units in his
// range, the cheapest of those; ok is false when he stands clear of the
// enemy or has nowhere to go.
func (s *State) shelter(l *Leader) (engine.Hex, bool) {
	if len(s.enemiesNext(l.Side, l.Hex)) == 0 {
		return engine.Hex{}, false
	}
	reach := s.rideHexes(l)
	count := func(h engine.Hex) int {
		n := 0
		for i := range s.Units {
			if u := &s.Units[i]; u.Side == l.Side && u.able() && engine.HexDistance(h, u.Hex) <= l.Range {
				n++
			}
		}
		return n
	}
	var best engine.Hex
	bestN, found := -1, false
	for h, c := range reach {
		if len(s.enemiesNext(l.Side, h)) > 0 {
			continue
		}
		n := count(h)
		if !found || n > bestN || n == bestN && (c < reach[best] || c == reach[best] && (h.Q < best.Q || h.Q == best.Q && h.R < best.R)) {
			best, bestN, found = h, n, true
		}
	}
	return best, found
}

// rides are the leader's moves that bring the most able units of one
// line into his range, one for each line whose count they raise.
func (s *State) rides(player engine.PlayerID, l *Leader) []engine.Command {
	reach := s.rideHexes(l)
	hexes := make([]engine.Hex, 0, len(reach))
	for h := range reach {
		hexes = append(hexes, h)
	}
	slices.SortFunc(hexes, func(a, b engine.Hex) int { return cmp.Or(cmp.Compare(a.Q, b.Q), cmp.Compare(a.R, b.R)) })
	count := func(line string, h engine.Hex) int {
		n := 0
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side == l.Side && u.Line == line && u.able() && engine.HexDistance(h, u.Hex) <= l.Range {
				n++
			}
		}
		return n
	}
	var lines []string
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == l.Side && u.able() && !slices.Contains(lines, u.Line) {
			lines = append(lines, u.Line)
		}
	}
	var out []engine.Command
	for _, line := range lines {
		best, bestN := l.Hex, count(line, l.Hex)
		for _, h := range hexes {
			if n := count(line, h); n > bestN || n == bestN && n > 0 && best != l.Hex && reach[h] < reach[best] {
				best, bestN = h, n
			}
		}
		if best != l.Hex {
			out = append(out, engine.NewCommand(player, "move", "unit", l.ID, "to", best.String()))
		}
	}
	return out
}

// rideHexes returns every hex the leader may ride to now with its
// cost, as moveLeader would find it (paying as cavalry, passing no enemy
// unit, ending on none).
func (s *State) rideHexes(l *Leader) map[engine.Hex]int {
	frontier := []engine.Hex{l.Hex}
	seen := map[engine.Hex]int{l.Hex: 0}
	for len(frontier) > 0 {
		var next []engine.Hex
		for _, a := range frontier {
			for _, b := range a.Neighbors() {
				if !s.onMap(b) {
					continue
				}
				if e := s.at(b); e != nil && e.Side != l.Side {
					continue
				}
				c, ok := s.enterCost(HC, a, b)
				if !ok {
					continue
				}
				c += seen[a]
				if old, ok := seen[b]; c > l.MA || ok && old <= c {
					continue
				}
				seen[b] = c
				next = append(next, b)
			}
		}
		frontier = next
	}
	delete(seen, l.Hex)
	return seen
}

// movers are the activated units of side still free to move, nearest
// the enemy first, at most botMovers of them.
func (s *State) movers(side int) []*Unit {
	var us []*Unit
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == side && u.Act && u.able() && !u.Moved && !u.Engaged && !u.Fought && !u.Rallied && !u.Fired {
			us = append(us, u)
		}
	}
	return s.nearestFirst(side, us)[:min(botMovers, len(us))]
}

// moves are the moves the bot weighs for u: for each of its nearest
// enemies, the cheapest place that has it in u's front (its flank or
// rear first), and the nearest place short of contact facing it; a step
// back facing the nearest; the highest ground nearest the enemy; and a
// turn in place to face the nearest.
func (s *State) moves(player engine.PlayerID, u *Unit) []engine.Command {
	foes := s.nearestEnemies(u.Side, u.Hex, botTargets)
	if len(foes) == 0 {
		return nil
	}
	ps := s.paths(u)
	nodes := make([]node, 0, len(ps.nodes))
	for _, n := range ps.nodes {
		if r, _ := ps.at(n); !r.via && n != (node{u.Hex, u.Facing}) {
			nodes = append(nodes, n)
		}
	}
	// first orders nodes the same way whatever order the search reached
	// them in: the cheapest, then by place and facing.
	cost := func(n node) int { r, _ := ps.at(n); return r.cost }
	first := func(a, b node) bool {
		return cmp.Or(cmp.Compare(cost(a), cost(b)), cmp.Compare(a.H.Q, b.H.Q), cmp.Compare(a.H.R, b.H.R), cmp.Compare(a.F, b.F)) < 0
	}
	var picks []node
	// pick keeps the node better likes best among those keep allows.
	pick := func(keep func(n node) bool, better func(n, best node) bool) {
		var best *node
		for i := range nodes {
			n := nodes[i]
			if !keep(n) {
				continue
			}
			if best == nil || better(n, *best) || !better(*best, n) && first(n, *best) {
				best = &nodes[i]
			}
		}
		if best != nil && !slices.Contains(picks, *best) {
			picks = append(picks, *best)
		}
	}
	facing := func(n node, e *Unit) bool { return slices.Contains(engine.FrontHexes(n.H, n.F), e.Hex) }
	for _, e := range foes {
		pick(func(n node) bool { return facing(n, e) }, func(n, best node) bool { return aspectRank(e, n.H) > aspectRank(e, best.H) })
		toward := func(n, best node) bool {
			dn, db := engine.HexDistance(n.H, e.Hex), engine.HexDistance(best.H, e.Hex)
			if (dn < 2) != (db < 2) {
				return db < 2
			}
			if dn != db {
				return dn < db
			}
			return inArcOf(n, e.Hex) && !inArcOf(best, e.Hex)
		}
		pick(func(node) bool { return true }, toward)
	}
	e := foes[0]
	d0 := engine.HexDistance(u.Hex, e.Hex)
	pick(func(n node) bool { return engine.HexDistance(n.H, e.Hex) > d0 }, func(n, best node) bool {
		dn, db := engine.HexDistance(n.H, e.Hex), engine.HexDistance(best.H, e.Hex)
		fn, fb := inArcOf(n, e.Hex), inArcOf(best, e.Hex)
		if fn != fb {
			return fn
		}
		return dn > db
	})
	lv := s.cell(u.Hex).Level
	pick(func(n node) bool { return s.cell(n.H).Level > lv }, func(n, best node) bool {
		ln, lb := s.cell(n.H).Level, s.cell(best.H).Level
		if ln != lb {
			return ln > lb
		}
		dn, db := engine.HexDistance(n.H, e.Hex), engine.HexDistance(best.H, e.Hex)
		return dn < db || dn == db && inArcOf(n, e.Hex) && !inArcOf(best, e.Hex)
	})
	if !inArcOf(node{u.Hex, u.Facing}, e.Hex) {
		for _, f := range engine.HexFacings {
			if n := (node{u.Hex, f}); inArcOf(n, e.Hex) {
				if _, ok := ps.at(n); ok {
					picks = append(picks, n)
					break
				}
			}
		}
	}
	out := make([]engine.Command, 0, len(picks))
	for _, n := range picks {
		out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", n.H.String(), "facing", n.F.String()))
	}
	return out
}

// aspectRank ranks a hex next to e by how it takes e: front 0, flank 1,
// rear 2.
func aspectRank(e *Unit, h engine.Hex) int {
	switch engine.HexAspect(e.Hex, e.Facing, h) {
	case engine.Rear:
		return 2
	case engine.Left, engine.Right:
		return 1
	}
	return 0
}

// inArcOf reports whether h lies within 60° of the facing of a unit at n.
func inArcOf(n node, h engine.Hex) bool {
	return inArc(&Unit{Hex: n.H, Facing: n.F}, h)
}

// shots are each activated missile unit's fire at each enemy it may hit
// now, and each skirmisher's hit and run at its nearest enemies (8.1,
// 9.3).
func (s *State) shots(player engine.PlayerID, side int) []engine.Command {
	var out []engine.Command
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.Act || u.Fired || u.Fought || u.Rallied || s.canFire(u) != nil {
			continue
		}
		for j := range s.Units {
			t := &s.Units[j]
			d := engine.HexDistance(u.Hex, t.Hex)
			if t.Side == side || !t.On() || d > u.Missile.reach() || !inArc(u, t.Hex) || !s.clearShot(u.Hex, t.Hex) {
				continue
			}
			out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "target", t.ID))
		}
		if (u.Type == SK || u.Type == LI || u.Type == LC) && !u.Moved {
			for _, t := range s.nearestEnemies(side, u.Hex, botTargets) {
				if d := engine.HexDistance(u.Hex, t.Hex); d > 1 && d <= 5 {
					out = append(out, engine.NewCommand(player, "hitrun", "unit", u.ID, "target", t.ID))
				}
			}
		}
	}
	return out
}

// shocks are the attacks the bot weighs declaring (8.3): every activated
// unit on the enemy in its front it fares best against, attackers of one
// defender together; and only the attacks that look good on the roll's
// modifiers, with those Engaged units must make (7.3).
func (s *State) shocks(player engine.PlayerID, side int) []engine.Command {
	if s.Flow.Shocked {
		return nil
	}
	w := &work{State: s}
	byTarget := map[string][]*Unit{}
	var order []string
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.Act || !u.able() || u.Fought {
			continue
		}
		var best *Unit
		bestV := math.MinInt
		for _, d := range s.inFront(u) {
			if w.mayAttack(u, d) != nil {
				continue
			}
			if v := modSum(w.shockMods([]*Unit{u}, d)); v > bestV {
				best, bestV = d, v
			}
		}
		if best == nil {
			continue
		}
		if _, ok := byTarget[best.ID]; !ok {
			order = append(order, best.ID)
		}
		byTarget[best.ID] = append(byTarget[best.ID], u)
	}
	if len(order) == 0 {
		return nil
	}
	var all, good []string
	for _, id := range order {
		atts := byTarget[id]
		part := strings.Join(ids(atts), " ") + ">" + id
		all = append(all, part)
		if modSum(w.shockMods(atts, s.unit(id))) >= 1 || slices.ContainsFunc(atts, func(u *Unit) bool { return u.Engaged }) {
			good = append(good, part)
		}
	}
	out := []engine.Command{engine.NewCommand(player, "shock", "attacks", strings.Join(all, ", "))}
	if len(good) > 0 && len(good) < len(all) {
		out = append(out, engine.NewCommand(player, "shock", "attacks", strings.Join(good, ", ")))
	}
	return out
}

func modSum(ms []mod) int {
	n := 0
	for _, m := range ms {
		n += m.v
	}
	return n
}

// evaluate counts the battle as 10.4 does: each side's rout points
// against the limit at which its army withdraws, with a routed unit
// counted as half lost, a Disordered one, missile hits and cavalry
// pursuing off the map as a little, and a touch for closing on the enemy
// so that an army with nothing better to do advances. A finished battle
// is won or lost by who withdrew. From -1 to 1.
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.Armies) < 2 {
		return 0
	}
	me := s.armyOf(player)
	if me < 0 {
		return 0
	}
	if s.Over() {
		return s.outcome(me)
	}
	v := s.strain(foe(me)) + s.threat(me) - s.strain(me) - s.threat(foe(me))
	return 0.95*max(-1, min(1, v)) + 0.05*s.closing(me)
}

// threat is what side's army stands to win, in the points strain counts,
// from the shocks it could make where it stands (8.3): for each enemy
// unit in the front of one of its units, the best such attacker's
// moving shock on it alone, averaged over the die, less what that
// attacker risks on a low roll; a routed enemy in its front is simply
// destroyed. Only attacks worth making count. A threat is worth more to
// the side that acts now, and most to its units free to attack in the
// activation under way; the other side must first win the initiative
// back (3.2). Over the army's limit, like strain.
func (s *State) threat(side int) float64 {
	w := &work{State: s}
	sum := 0.0
	for i := range s.Units {
		d := &s.Units[i]
		if d.Side == side || !d.On() {
			continue
		}
		best := 0.0
		for _, h := range d.Hex.Neighbors() {
			a := s.at(h)
			if a == nil || a.Side != side || !a.able() || w.mayAttack(&Unit{Type: a.Type, Star: a.Star, Hex: a.Hex, Facing: a.Facing}, d) != nil {
				continue
			}
			best = max(best, s.weight(a)*w.shockGain(a, d))
		}
		sum += best
	}
	return sum / float64(max(1, s.Armies[side].Withdraw))
}

// weight is how soon a's threats may come to blows: at once for a unit
// free to attack in its side's activation under way, soon for a side
// about to activate, later for the side that must wait.
func (s *State) weight(a *Unit) float64 {
	f := s.Flow
	switch {
	case f.Stage == Acting && f.Side == a.Side && a.Act && !a.Fought && !f.Shocked:
		return 0.7
	case (f.Stage == Acting || f.Stage == Free) && f.Side == a.Side:
		return 0.45
	case f.Stage == Continuity:
		return 0.4
	}
	return 0.3
}

// shockGain is what a moving shock of a alone on d is worth to a's side
// on average over the die (8.3's table), in strain's points: the
// defender's disorder, retreat or rout against the attacker's own on a
// low roll, and the leaders in the fight put at risk.
func (w *work) shockGain(a, d *Unit) float64 {
	if d.Status == Routed {
		return 0.5 * float64(d.TQ)
	}
	m := modSum(w.shockMods([]*Unit{a}, d))
	// A leader in the fight dies on a roll of 0, and his army counts
	// twice his initiative (8.3, our ruling on 10.4).
	sum := 0.0
	for _, l := range w.leadersAt(d.Side, d.Hex) {
		sum += 2 * float64(l.Initiative)
	}
	for _, l := range w.leadersAt(a.Side, a.Hex) {
		sum -= 2 * float64(l.Initiative)
	}
	for r := range 10 {
		switch t := r + m; {
		case t >= 10:
			sum += routCost(d)
		case t >= 8 && d.Type == SK:
			sum += routCost(d)
		case t >= 6:
			sum += disorderCost(d)
		case t >= 4:
		case t >= 0:
			sum -= disorderCost(a)
		default:
			sum -= routCost(a)
		}
	}
	return max(0, sum/10)
}

// disorderCost is what a Disorder result adds to strain's count of u: a
// second one routs it (8.3), and chariots rout, artillery and elephants
// are lost (9.14, 9.22, 9.5).
func disorderCost(u *Unit) float64 {
	switch {
	case u.Status == Disordered || u.Type == CH:
		return routCost(u)
	case u.Type == AR || u.Type == EL:
		return float64(u.TQ)
	}
	return 0.15 * float64(u.TQ)
}

// routCost is what a Rout result adds to strain's count of u:
// skirmishers, chariots and artillery are lost outright (9.3, 9.22; 9.5
// as we read it).
func routCost(u *Unit) float64 {
	tq := float64(u.TQ)
	was := 0.0
	if u.Status == Disordered {
		was = 0.15 * tq
	}
	if u.Type == SK || u.Type == CH || u.Type == AR {
		return tq - was
	}
	return 0.5*tq - was
}

// outcome is 1 if side won the finished battle, -1 if it lost, 0 for a
// draw.
func (s *State) outcome(side int) float64 {
	for i := range 2 {
		if strings.HasPrefix(s.Result, s.name(i)+" withdraw, conceding") {
			if i == side {
				return -1
			}
			return 1
		}
	}
	past := func(i int) int { return s.losses(i) - s.Armies[i].Withdraw }
	a, b := past(side), past(foe(side))
	switch {
	case a >= 0 && (b < 0 || a > b):
		return -1
	case b >= 0 && (a < 0 || b > a):
		return 1
	}
	return 0
}

// strain is how near side's army is to withdrawing: its rout points, and
// a share of them for units routed, Disordered, hit or off the map, over
// its limit.
func (s *State) strain(side int) float64 {
	lost := float64(s.losses(side))
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || u.Gone {
			continue
		}
		tq := float64(u.TQ)
		switch {
		case u.OffMap:
			lost += 0.3 * tq
		case u.Status == Routed:
			lost += 0.5 * tq
		case u.Status == Disordered:
			lost += 0.15 * tq
		}
		lost += 0.3 * float64(u.Hits) * tq / (tq + 1)
	}
	return lost / float64(max(1, s.Armies[side].Withdraw))
}

// closing is 1 when every able unit of side stands next to an enemy,
// falling toward 0 as they stand ten hexes away or more.
func (s *State) closing(side int) float64 {
	sum, n := 0.0, 0
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.able() {
			continue
		}
		d := min(10, s.enemyDist(side, u.Hex))
		sum += 1 - float64(d-1)/9
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
