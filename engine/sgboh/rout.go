package sgboh

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What follows a shock result (SGBOH 8.3, 9.2-9.5, 10.2-10.27): disorder and
// rout, the rout move toward the army's edge, retreat, pursuit and the
// pursuers' return, and the mandatory rally; a leader keeps with the
// unit he is stacked with.

// disorder gives u a Disorder result (8.3): a second one routs it;
// elephants rampage instead, unless plain (a shock result that also
// retreats them, or a Disorder that is no shock result: 9.14 sets them
// off only on a shock's Disorder without retreat or a missile hit);
// chariots rout, artillery is destroyed (9.5).
func (w *work) disorder(u *Unit, by engine.Hex, plain bool) {
	switch {
	case !u.On() || u.Status == Routed:
		return
	case u.Type == EL && !plain:
		w.rampage(u, by)
		return
	case u.Type == CH:
		w.say("%s, chariots, rout on a Disorder (9.22).", u.ID)
		w.flee(u)
		return
	case u.Type == AR:
		w.eliminate(u, "artillery alone in its hex is destroyed when Disordered (9.5)")
		return
	case u.Status == Disordered:
		w.say("%s, already Disordered, routs.", u.ID)
		w.rout(u)
		return
	}
	u.Status, u.Shaken = Disordered, true
	w.say("%s is Disordered.", u.ID)
}

// shockRout routs a unit by a shock result; skirmishers are destroyed
// instead (9.3), except SK* in their own attack, which are treated as LI
// while they attack (9.3) and so rout as light infantry would.
func (w *work) shockRout(u *Unit, attacking bool) {
	if u.Type == SK && !(attacking && u.Star) {
		w.eliminate(u, "skirmishers made to rout are destroyed (9.3)")
		return
	}
	w.rout(u)
}

// rout routs u and moves it half its MA toward its edge (10.21); a
// chariot made to rout is destroyed instead (9.22), and so is artillery,
// which a mere Disorder destroys (9.5).
func (w *work) rout(u *Unit) {
	switch u.Type {
	case CH:
		w.eliminate(u, "chariots made to rout are destroyed (9.22)")
		return
	case AR:
		w.eliminate(u, "artillery alone in its hex is destroyed when routed, as when Disordered (9.5)")
		return
	}
	w.flee(u)
}

// flee turns u to rout and moves it half its MA toward its edge.
func (w *work) flee(u *Unit) {
	u.Status, u.Engaged, u.Shaken = Routed, false, true
	w.routMove(u)
}

// edgeDist is how many steps take h off the army's edge.
func (s *State) edgeDist(side int, h engine.Hex) int {
	c, r := h.Offset()
	switch s.Armies[side].Edge {
	case "N":
		return r
	case "S":
		return s.Rows - r + 1
	case "W":
		return c
	}
	return s.Cols - c + 1
}

// routDist measures how far h lies from the side's edge, for the rout
// path, in half hexes toward a north or south edge: odd columns stand
// half a hex higher than even ones, so a hex has three neighbours nearer
// the north or south edge (straight on and the two diagonals), as it has
// two nearer the east or west edge. Counting rows alone would leave a
// unit with one way north from an even column and one way south from an
// odd one.
func (s *State) routDist(side int, h engine.Hex) int {
	c, r := h.Offset()
	odd := c & 1
	switch s.Armies[side].Edge {
	case "N":
		return 2*r - odd
	case "S":
		return 2*(s.Rows-r+1) - (1 - odd)
	case "W":
		return c
	}
	return s.Cols - c + 1
}

// routMove moves a routed unit half its MA, rounded up, toward its own
// edge (10.21): each step to the neighbouring hex nearest the edge that
// no enemy holds, the cheapest and furthest from the enemy first; a
// friend passed through costs one MP more (6.92). Off
// the map it is destroyed; a unit that cannot move at all is destroyed;
// one that would end on a friend goes one hex further, or is destroyed
// (6.92).
func (w *work) routMove(u *Unit) {
	mp := (u.MA + 1) / 2
	from := u.Hex
	steps := 0
	for {
		here := w.edgeDist(u.Side, u.Hex)
		if here == 1 && mp >= 1 {
			w.carryLeaders(u.Side, from, u.Hex)
			w.mark(Mark{Kind: engine.MoveMark, From: from, To: u.Hex, Side: u.Side})
			w.eliminate(u, "it routs off the map")
			return
		}
		near := w.routDist(u.Side, u.Hex)
		next, cost, ok := w.routStep(u, mp, func(n engine.Hex) bool { return w.routDist(u.Side, n) < near })
		if !ok {
			break
		}
		u.Hex, mp, steps = next, mp-cost, steps+1
	}
	if w.stacked(u) {
		next, _, ok := w.routStep(u, 99, func(n engine.Hex) bool { return w.at(n) == nil })
		if !ok {
			w.carryLeaders(u.Side, from, u.Hex)
			w.eliminate(u, "it ends its rout on a friend with nowhere further to go (6.92)")
			return
		}
		u.Hex = next
		steps++
	}
	if steps == 0 {
		w.eliminate(u, "it has nowhere to rout")
		return
	}
	w.carryLeaders(u.Side, from, u.Hex)
	u.Facing = w.edgeFacing(u.Side)
	w.say("%s routs from %s to %s.", u.ID, from, u.Hex)
	w.mark(Mark{Kind: engine.MoveMark, From: from, To: u.Hex, Side: u.Side})
}

// stacked reports whether another combat unit shares u's hex.
func (s *State) stacked(u *Unit) bool {
	for i := range s.Units {
		o := &s.Units[i]
		if o != u && o.On() && o.Hex == u.Hex {
			return true
		}
	}
	return false
}

// routStep picks the next hex of a rout among those ok allows; cavalry
// never step next to an enemy elephant, since a rout is a move and no
// cavalry moves there (9.15).
func (w *work) routStep(u *Unit, mp int, ok func(engine.Hex) bool) (engine.Hex, int, bool) {
	var best engine.Hex
	bestCost, found := 0, false
	key := func(h engine.Hex, cost int) [4]int {
		enemies := len(w.enemiesNext(u.Side, h))
		friend := 0
		if w.at(h) != nil {
			friend = 1
		}
		return [4]int{w.routDist(u.Side, h), friend, cost, enemies}
	}
	var bestKey [4]int
	for _, n := range u.Hex.Neighbors() {
		if !w.onMap(n) || !ok(n) || u.Type.Cavalry() && w.nearElephant(u.Side, n) {
			continue
		}
		cost, can := w.enterCost(u.Type, u.Hex, n)
		if o := w.at(n); o != nil {
			if o.Side != u.Side {
				continue
			}
			cost++ // passing a friend costs the mover one more (6.92)
		}
		if !can || cost > mp {
			continue
		}
		k := key(n, cost)
		if !found || less(k, bestKey) {
			best, bestCost, bestKey, found = n, cost, k, true
		}
	}
	return best, bestCost, found
}

func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// edgeFacing is the facing toward a side's own edge.
func (s *State) edgeFacing(side int) engine.HexFacing {
	switch s.Armies[side].Edge {
	case "N":
		return engine.FacingNNE
	case "S":
		return engine.FacingSSW
	case "E":
		return engine.FacingE
	}
	return engine.FacingW
}

// retreat moves u one hex back from its attackers (8.3), keeping its
// facing; cavalry never into a hex next to an enemy elephant, as no
// cavalry moves there (9.15); a unit with nowhere to go routs instead.
func (w *work) retreat(u *Unit, atts []*Unit) {
	var best engine.Hex
	score := -1
	for _, n := range u.Hex.Neighbors() {
		if !w.canStand(u, n, false) || w.at(n) != nil {
			continue
		}
		if u.Type.Cavalry() && w.nearElephant(u.Side, n) {
			continue
		}
		sum, near := 0, false
		for _, a := range atts {
			d := engine.HexDistance(a.Hex, n)
			near = near || d < 2
			sum += d
		}
		if near {
			continue
		}
		sum = sum*100 - w.edgeDist(u.Side, n)
		if sum > score {
			best, score = n, sum
		}
	}
	if score < 0 {
		w.say("%s has nowhere to retreat and routs.", u.ID)
		w.rout(u)
		return
	}
	w.say("%s retreats from %s to %s.", u.ID, u.Hex, best)
	w.mark(Mark{Kind: engine.MoveMark, From: u.Hex, To: best, Side: u.Side})
	w.carryLeaders(u.Side, u.Hex, best)
	u.Hex = best
	u.Engaged = false
}

// routAll moves every routed unit of a side, on a continuity roll of 8
// or 9 (10.22).
func (w *work) routAll(side int) {
	any := false
	for i := range w.Units {
		u := &w.Units[i]
		if u.Side == side && u.On() && u.Status == Routed {
			if !any {
				w.say("A roll of 8 or 9: the routed units of %s run (10.22).", w.name(side))
				any = true
			}
			w.routMove(u)
		}
	}
}

// returnPursuers brings a side's cavalry back from pursuit on a
// continuity roll of 0 or 1 (8.3): each to the nearest free hex in the
// command range of a leader other than the one the roll was for.
func (w *work) returnPursuers(side int, rolledFor *Leader) {
	var back []*Unit
	for i := range w.Units {
		if u := &w.Units[i]; u.Side == side && u.OffMap && !u.Gone {
			back = append(back, u)
		}
	}
	if len(back) == 0 {
		return
	}
	var host *Leader
	for i := range w.Leaders {
		l := &w.Leaders[i]
		if l.Side != side || !l.In() || (rolledFor != nil && l.ID == rolledFor.ID) {
			continue
		}
		if host == nil || l.Range > host.Range {
			host = l
		}
	}
	if host == nil {
		w.say("A roll of 0 or 1, but %s have no other leader to return their pursuing cavalry to.", w.name(side))
		return
	}
	for _, u := range back {
		placed := false
		for _, h := range engine.HexesWithin(host.Hex, host.Range) {
			if w.canStand(u, h, false) && len(w.enemiesNext(side, h)) == 0 {
				u.Hex, u.OffMap, u.Facing = h, false, w.edgeFacing(side).Opposite()
				w.say("A roll of 0 or 1: %s returns from pursuit to %s, by %s (8.3).", u.ID, h, host.Name)
				placed = true
				break
			}
		}
		if !placed {
			w.say("%s finds no free hex near %s and stays off the map.", u.ID, host.Name)
		}
	}
}

// mandatoryRally rallies every Disordered or routed unit of the side in
// the command range that neither moved nor fought nor was shaken in this
// activation (10.27).
func (w *work) mandatoryRally(side int) {
	for i := range w.Units {
		u := &w.Units[i]
		if u.Side != side || !u.On() || u.Status == Full || u.Moved || u.Fired || u.Fought || u.Shaken || !w.inCommand(u) {
			continue
		}
		tq := u.quality()
		var mods []string
		r := w.roll()
		total := r
		if u.Status != Routed {
			total -= 2
			mods = append(mods, "-2 only disordered")
		}
		if w.leaderAt(side, u.Hex) != nil {
			total--
			mods = append(mods, "-1 leader")
		}
		m := ""
		if len(mods) > 0 {
			m = " " + strings.Join(mods, " ")
		}
		res := rallyOn(tq, total)
		line := fmt.Sprintf("%s rallies (TQ %d): roll %d%s = %d", u.ID, tq, r, m, total)
		if res != rallyRout && u.Status == Routed {
			// Rallied from rout, it faces the enemy again (our ruling).
			u.Facing = w.edgeFacing(side).Opposite()
		}
		switch res {
		case rallyFull:
			u.Status = Full
			w.say("%s: back to full status.", line)
		case rallyDisorder:
			u.Status = Disordered
			w.say("%s: Disordered.", line)
		default:
			if u.Status == Routed {
				w.say("%s: it fails.", line)
				w.eliminate(u, "a routed unit that fails to rally is lost (10.27)")
			} else {
				w.say("%s: it routs.", line)
				w.rout(u)
			}
		}
	}
}

// pursue rolls for a cavalry unit's pursuit of the unit it routed (8.3).
func (w *work) pursue(u, d *Unit, vacated engine.Hex) {
	r := w.roll()
	total := r
	lead := ""
	if w.leaderAt(u.Side, u.Hex) != nil {
		total++
		lead = " +1 leader"
	}
	need := u.pursuesOn()
	if total > need {
		w.say("%s pursuit roll %d%s = %d, above %d: it does not pursue.", u.ID, r, lead, total, need)
		return
	}
	w.say("%s pursuit roll %d%s = %d, within 0-%d: it pursues.", u.ID, r, lead, total, need)
	w.eliminate(d, "ridden down in pursuit")
	from := u.Hex
	// It takes the hex its foe left, unless that hex is taken or next to
	// an enemy elephant, where cavalry may not move (9.15).
	if w.at(vacated) == nil && !w.nearElephant(u.Side, vacated) {
		u.Hex = vacated
		w.carryLeaders(u.Side, from, vacated)
		w.mark(Mark{Kind: engine.MoveMark, From: from, To: vacated, Side: u.Side})
	}
	w.Flow.Vacated = slices.DeleteFunc(w.Flow.Vacated, func(a Advance) bool { return a.Hex == vacated })
	r2 := w.roll()
	if r2 > u.TQ {
		// A leader with it stays on the map, in the hex it was placed
		// in (our ruling): the text sends only the cavalry off.
		u.OffMap, u.Engaged = true, false
		w.say("Second roll %d, above its TQ %d: %s rides off the map after the fugitives; it returns on a continuity roll of 0 or 1.", r2, u.TQ, u.ID)
		w.mark(Mark{Kind: engine.MoveMark, From: u.Hex, To: w.nearestEdge(u.Hex), Side: u.Side})
		return
	}
	if u.Status == Full {
		u.Status = Disordered
		w.say("Second roll %d, within its TQ %d: %s stays, Disordered by the chase.", r2, u.TQ, u.ID)
	} else {
		w.say("Second roll %d, within its TQ %d: %s stays, already Disordered.", r2, u.TQ, u.ID)
	}
}

// nearestEdge returns the hex just off the map nearest h, for the
// picture of cavalry riding off.
func (s *State) nearestEdge(h engine.Hex) engine.Hex {
	c, r := h.Offset()
	d := map[string]int{"N": r, "S": s.Rows - r + 1, "W": c, "E": s.Cols - c + 1}
	best := "N"
	for _, e := range []string{"S", "W", "E"} {
		if d[e] < d[best] {
			best = e
		}
	}
	switch best {
	case "N":
		return engine.HexFromOffset(c, 0)
	case "S":
		return engine.HexFromOffset(c, s.Rows+1)
	case "W":
		return engine.HexFromOffset(0, r)
	}
	return engine.HexFromOffset(s.Cols+1, r)
}

// carryLeaders moves the side's leaders in hex from with the unit they
// are stacked with, when it retreats, routs, pursues or advances (our
// ruling: a leader keeps with his unit).
func (w *work) carryLeaders(side int, from, to engine.Hex) {
	for i := range w.Leaders {
		if l := &w.Leaders[i]; l.In() && l.Side == side && l.Hex == from {
			l.Hex = to
		}
	}
}
