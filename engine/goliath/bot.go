package goliath

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead an army: the commands it could give at each
// stage of either turn sequence (Turn sequence: Method 1's initiative,
// moves and fire; Method 2's written orders, in the vocabulary the bot
// carries out), how good a position is for a side, and the other side's
// sealed orders drawn afresh, since it may not read them.
//
// A position is worth the share of each army's points still on the
// table (the measure the battle ends on when its turns run out, routed
// units counting at a third), less what each side may expect to lose in
// the blows to come: the melees joined, the charges its enemies can make
// and the volleys and spells they have left, each reckoned from the melee
// table, the missile target numbers and a clear line of fire, and
// followed by the morale checks they bring (on being charged, after a
// melee, for heavy losses), whose routs and surrenders cost the rest of
// a unit. A blow weighs by how surely it lands: in full when the enemy
// moves before it no more this turn, less when the next turn's
// initiative must come first; and hits come off at once, so the side
// that shoots first, and the chargers, thin what answers them. While
// orders are written, each unit is taken to be where its order sends it.

// nearFoes is how many of the nearest enemies the bot weighs moving
// toward, charging, shooting at or casting on, so that its list of
// candidates stays short on a crowded table.
const nearFoes = 2

// standOff is how far short of an enemy a plain move stops: contact is
// made by a charge (Morale Check).
const standOff = 1.0

// candidates lists what player could do now: pick a sample army (or raise
// one cut down to the book's points) while the armies muster; lay out his
// army and end his deployment; choose to move first or second; in the
// movement phase, for each unit, charge any enemy in reach, move toward
// the nearest (its whole move, half of it, to missile range, in the air for
// fliers), turn to face them, or move into cover, pause to shoot for
// those who split move and fire, and lift a missile unit's held fire
// (Pass-through Fire); in the missile phase, shoot each missile
// unit at the enemies in reach and cast each wizard's spells and each
// dragon's breath; in a written-orders battle, write each unit one order
// in the vocabulary; and /done.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	if s.Stage == Over {
		return nil
	}
	if s.Stage == Mustering {
		return s.armyCandidates(player)
	}
	side, ok := s.botSide(player)
	if !ok {
		return nil
	}
	done := engine.NewCommand(player, "done")
	switch s.Stage {
	case Deploying:
		for _, u := range s.sideUnits(side) {
			if !u.Placed {
				return []engine.Command{engine.NewCommand(player, "place", "unit", "all")}
			}
		}
		return []engine.Command{done}
	case Initiative:
		return []engine.Command{engine.NewCommand(player, "answer", "reply", "first"), engine.NewCommand(player, "answer", "reply", "second")}
	case Moving:
		return append(s.moveCandidates(player, side), done)
	case Missile:
		return append(s.fireCandidates(player, side), done)
	case Orders:
		return append(s.orderCandidates(player, side), done)
	}
	return nil
}

// botSide is the side player answers for now: the side whose turn it is,
// or, in a stage both sides play, the first of his not yet done.
func (s *State) botSide(player engine.PlayerID) (Side, bool) {
	if len(s.Armies) < 2 {
		return 0, false
	}
	mine := func(side Side) bool { return s.Armies[side].Player == player }
	switch s.Stage {
	case Deploying, Orders:
		for side := South; side <= North; side++ {
			if mine(side) && !s.Armies[side].Done {
				return side, true
			}
		}
	case Initiative:
		return s.Chooser, mine(s.Chooser)
	case Moving, Missile:
		return s.Active, mine(s.Active)
	}
	return 0, false
}

// sideUnits lists a side's units, on the table or not.
func (s *State) sideUnits(side Side) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if s.Units[i].Side == side {
			out = append(out, &s.Units[i])
		}
	}
	return out
}

// armyCandidates are the sample armies player may lead, when he leads
// none yet; in a book with a points limit, each sample that costs more
// is offered cut down to fit (Point Cost).
func (s *State) armyCandidates(player engine.PlayerID) []engine.Command {
	if len(s.Armies) >= 2 {
		return nil
	}
	for _, a := range s.Armies {
		if a.Player == player {
			return nil
		}
	}
	var out []engine.Command
	for _, a := range samples {
		_, _, pts, err := ParseUnits(s.Custom, a.units)
		if err != nil {
			continue
		}
		if s.Options.Points <= 0 || pts <= s.Options.Points+1e-9 {
			out = append(out, engine.NewCommand(player, "army pick", "list", a.key))
			continue
		}
		if list, ok := fitList(s.Custom, a.units, s.Options.Points); ok {
			out = append(out, engine.NewCommand(player, "army raise", "name", a.name, "tag", a.tag, "units", list))
		}
	}
	return out
}

// blend weighs, while the battle musters, the armies the bot may lead
// alike: a bot that always led the same army would be a dull opponent,
// so it draws one. Elsewhere it searches as usual.
func blend(s *State, player engine.PlayerID, cands []engine.Command) []float64 {
	if s.Stage != Mustering {
		return nil
	}
	w := make([]float64, len(cands))
	for k, c := range cands {
		if c.Name == "army pick" || c.Name == "army raise" {
			w[k] = 1
		}
	}
	return w
}

// fitList cuts every item of a unit list by the same share, dropping
// those that come to no figure, until the list costs at most points.
func fitList(custom []Type, list string, points float64) (string, bool) {
	items := strings.Split(list, ",")
	_, _, total, err := ParseUnits(custom, list)
	if err != nil || total <= 0 {
		return "", false
	}
	for share := points / total; share > 0.01; share *= 0.9 {
		var kept []string
		for _, it := range items {
			var n int
			var rest string
			if _, err := fmt.Sscanf(strings.TrimSpace(it), "%d", &n); err != nil {
				return "", false
			}
			_, rest, _ = strings.Cut(strings.TrimSpace(it), " ")
			if m := int(math.Floor(float64(n) * share)); m > 0 {
				kept = append(kept, fmt.Sprintf("%d %s", m, rest))
			}
		}
		if len(kept) == 0 {
			return "", false
		}
		out := strings.Join(kept, ", ")
		if _, _, pts, err := ParseUnits(custom, out); err == nil && pts <= points+1e-9 {
			return out, true
		}
	}
	return "", false
}

// foes returns the enemies of u on the table that it can see, nearest
// first, at most nearFoes of them.
func (s *State) foes(u *Unit) []*Unit {
	var out []*Unit
	for _, e := range s.inPlay(u.Side.Other()) {
		if s.hidden(u, e) == "" {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b *Unit) int { return cmp.Compare(u.Base.Gap(a.Base), u.Base.Gap(b.Base)) })
	return out[:min(nearFoes, len(out))]
}

// inReach reports whether e's nearest edge lies ahead of u within its
// charge move, as the crow flies (a charge, Morale Check).
func (s *State) inReach(u, e *Unit) bool {
	if u.Profile.ChargeMove() <= 0 {
		return false
	}
	from := u.Base.FrontCenter()
	contact, _, _ := contactEdge(e.Base, from)
	return from.Dist(contact) <= u.ChargeReach(s.Turn)+1e-6 && math.Abs(u.Base.Facing.Diff(engine.HeadingTo(from, contact))) <= 90
}

// at writes a point for a command's option.
func at(p engine.Vec) string { return p.String() }

// approach is where u's front centre goes moving dist inches straight
// toward e, stopping short of contact; failing that, as far straight
// ahead. A move that would leave the table is none.
func (s *State) approach(u, e *Unit, dist float64) (engine.Vec, bool) {
	from := u.Base.FrontCenter()
	d := math.Min(dist, u.Base.Gap(e.Base)-standOff)
	if d < 0.5 {
		return engine.Vec{}, false
	}
	for _, h := range []engine.Heading{engine.HeadingTo(from, e.Base.Center), u.Base.Facing} {
		p := from.Add(h.Vec().Scale(d))
		if s.onTable(u.Base.WithFrontCenter(p)) {
			return p, true
		}
	}
	return engine.Vec{}, false
}

// ahead reports whether p lies within 45° of u's facing, where a move
// may go (Facing and Formation).
func ahead(u *Unit, p engine.Vec) bool {
	return math.Abs(u.Base.Facing.Diff(engine.HeadingTo(u.Base.FrontCenter(), p))) <= 45
}

// moveCandidates are the movement phase's commands for side's units.
func (s *State) moveCandidates(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for _, u := range s.inPlay(side) {
		if u.HoldFire {
			out = append(out, engine.NewCommand(player, "hold", "unit", u.ID, "fire", "no"))
		}
		if s.canMove(u) != nil || s.engaged(u) {
			continue
		}
		out = append(out, s.unitMoves(player, u)...)
	}
	return out
}

// unitMoves are the moves the bot weighs for one unit that may move.
func (s *State) unitMoves(player engine.PlayerID, u *Unit) []engine.Command {
	var out []engine.Command
	left := u.Allowance(s.Turn, false) - u.Moved
	if u.Flew {
		left = 0
	}
	half := u.Allowance(s.Turn, false) / 2
	// A charge at any enemy in reach, not only the nearest: the one worth
	// charging (missile troops, the shaken) is often further off.
	for _, e := range s.inPlay(u.Side.Other()) {
		if u.Moved == 0 && s.hidden(u, e) == "" && s.inReach(u, e) {
			out = append(out, engine.NewCommand(player, "charge", "unit", u.ID, "target", e.ID))
		}
	}
	for _, e := range s.foes(u) {
		if u.Profile.SplitsMove() && u.Moved > 0 && u.Moved <= half+1e-6 && !u.Paused {
			out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "target", e.ID))
		}
		if !ahead(u, e.Base.Center) {
			h := engine.HeadingTo(u.Base.Center, e.Base.Center)
			out = append(out, engine.NewCommand(player, "face", "unit", u.ID, "facing", fmt.Sprintf("%.0f", math.Round(float64(h)/45)*45)))
			continue
		}
		dists := []float64{left, left / 2}
		if u.Profile.Shoots() {
			// Into missile range, and no nearer.
			dists = append(dists, u.Base.Gap(e.Base)-u.Profile.Mss+1)
		}
		for _, d := range dists {
			if d <= 0.5 || left <= 0.5 {
				continue
			}
			if p, ok := s.approach(u, e, d); ok {
				out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", at(p)))
			}
		}
		if fly := u.Allowance(s.Turn, true); u.Profile.Fly > 0 && u.Moved == 0 {
			if p, ok := s.approach(u, e, fly); ok {
				out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", at(p), "air", "yes"))
			}
		}
	}
	if p, ok := s.cover(u, left); ok {
		out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", at(p)))
	}
	return append(out, s.freeing(player, u, left)...)
}

// freeing are the moves that bring u, a freer, up behind its side's
// units with figures held by a paralyzing touch, to free them by its
// own (SA 7a): into touch when it is in reach, else as far toward it as
// u may go.
func (s *State) freeing(player engine.PlayerID, u *Unit, left float64) []engine.Command {
	if !u.frees() || left <= 0.5 {
		return nil
	}
	var out []engine.Command
	from := u.Base.FrontCenter()
	for _, f := range s.inPlay(u.Side) {
		if f == u || !f.held() || f.Base.Touches(u.Base) {
			continue
		}
		rear := f.Base.Center.Add(f.Base.Facing.Vec().Scale(-f.Base.Depth / 2))
		if !ahead(u, rear) {
			continue
		}
		to := rear
		if d := from.Dist(rear); d > left {
			to = from.Add(engine.HeadingTo(from, rear).Vec().Scale(left))
		}
		out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", at(to)))
	}
	return out
}

// cover is a move into the nearest wood or village ahead of u within its
// move left, where missiles do half their harm (Missile Fire: cover).
func (s *State) cover(u *Unit, left float64) (engine.Vec, bool) {
	if left <= 0.5 || u.Profile.Cavalry() || s.covered(u.Base) {
		return engine.Vec{}, false
	}
	from := u.Base.FrontCenter()
	best, bestD := engine.Vec{}, math.Inf(1)
	for _, f := range s.Terrain {
		if !f.Ground.Covers() {
			continue
		}
		c := f.Area.Center
		// Far enough in for the whole unit to stand in it.
		p := from.Add(engine.HeadingTo(from, c).Vec().Scale(from.Dist(c) + u.Base.Depth/2))
		if d := from.Dist(p); d <= left && d < bestD && ahead(u, c) {
			best, bestD = p, d
		}
	}
	return best, !math.IsInf(bestD, 1)
}

// fireCandidates are the missile phase's volleys and castings for side.
func (s *State) fireCandidates(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for _, u := range s.inPlay(side) {
		if !u.Able() || u.Figures == 0 || u.Rallying || s.engaged(u) {
			continue
		}
		p := &u.Profile
		switch {
		case p.Wizard:
			out = append(out, s.spellCandidates(player, u)...)
		case p.Breath:
			for _, e := range s.foes(u) {
				out = append(out, engine.NewCommand(player, "cast", "unit", u.ID, "spell", string(Breath), "target", e.ID))
			}
		case p.Shoots():
			for _, e := range s.foes(u) {
				if u.Base.Gap(e.Base) > p.Mss+0.01 {
					continue
				}
				out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "target", e.ID))
				if p.Weapon.Archers() {
					out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "target", e.ID, "indirect", "yes"))
				}
			}
		}
	}
	return out
}

// spellCandidates are a wizard's castings: bolt, fireball, fear and slow
// at the nearest enemies, light on an invisible enemy, darkness over an
// enemy missile unit that cannot see in it, and haste on the friend
// nearest the enemy (Spells).
func (s *State) spellCandidates(player engine.PlayerID, u *Unit) []engine.Command {
	if u.Cast || u.Moved > 0 || u.Spells >= castLimit(&u.Profile) {
		return nil
	}
	var out []engine.Command
	for _, e := range s.foes(u) {
		for _, sp := range []Spell{Fireball, Bolt, Fear, Slow} {
			out = append(out, engine.NewCommand(player, "cast", "unit", u.ID, "spell", string(sp), "target", e.ID))
		}
		if e.Profile.Shoots() && !e.Profile.Has(DarkSight) {
			out = append(out, engine.NewCommand(player, "cast", "unit", u.ID, "spell", string(Darkness), "target", e.ID))
		}
	}
	for _, e := range s.inPlay(u.Side.Other()) {
		if s.hidden(u, e) != "" && u.Base.Gap(e.Base) <= wizardRange {
			out = append(out, engine.NewCommand(player, "cast", "unit", u.ID, "spell", string(Lamp), "target", e.ID))
			break
		}
	}
	var friend *Unit
	near := math.Inf(1)
	for _, f := range s.inPlay(u.Side) {
		if f == u || !f.Able() {
			continue
		}
		for _, e := range s.inPlay(u.Side.Other()) {
			if d := f.Base.Gap(e.Base); d < near {
				friend, near = f, d
			}
		}
	}
	if friend != nil {
		out = append(out, engine.NewCommand(player, "cast", "unit", u.ID, "spell", string(Haste), "target", friend.ID))
	}
	return out
}

// orderParts is how many orders player writes this turn while he writes
// them: one for each unit of his side that takes an order (orderCandidates),
// those written already among them. The bot spends one decision's budget
// on them all (engine.Divider), so that a side's orders cost about what one
// decision does, however many units it has.
func orderParts(s *State, player engine.PlayerID) int {
	if s.Stage != Orders {
		return 1
	}
	side, ok := s.botSide(player)
	if !ok {
		return 1
	}
	n := 0
	for _, u := range s.inPlay(side) {
		if takesOrders(u) {
			n++
		}
	}
	return n
}

// takesOrders reports whether the bot writes u an order: a unit in good
// order, not rallying, with figures left.
func takesOrders(u *Unit) bool { return u.Status == Steady && !u.Rallying && u.Figures > 0 }

// orderCandidates are the written orders the bot weighs for each unit of
// side that has none yet this turn: hold; charge the nearest enemies;
// charge if one comes within reach, else advance; move toward them (on
// foot or in the air) or turn to face them; shoot, standing or after half
// a move; cast a bolt or fireball, or breathe fire. Each order is in the
// vocabulary the bot carries out, so none waits for the referee.
func (s *State) orderCandidates(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for _, u := range s.inPlay(side) {
		if s.order(u.ID) != nil || !takesOrders(u) {
			continue
		}
		for _, text := range s.orderTexts(u) {
			out = append(out, engine.NewCommand(player, "orders", "unit", u.ID, "order", text))
		}
	}
	return out
}

// orderTexts are the orders the bot weighs for u.
func (s *State) orderTexts(u *Unit) []string {
	out := []string{"hold"}
	p := &u.Profile
	mv := u.Allowance(s.Turn, false)
	for _, e := range s.foes(u) {
		reach := u.ChargeReach(s.Turn)
		if s.inReach(u, e) {
			out = append(out, "charge "+e.ID)
		}
		if !ahead(u, e.Base.Center) {
			h := engine.HeadingTo(u.Base.Center, e.Base.Center)
			out = append(out, fmt.Sprintf("face %.0f", math.Round(float64(h)/45)*45))
			continue
		}
		full, okFull := s.approach(u, e, mv)
		if okFull {
			out = append(out, "move to "+at(full))
			if p.ChargeMove() > 0 && !s.inReach(u, e) {
				out = append(out, fmt.Sprintf("if enemy within %s: charge %s else move to %s", engine.Decimal(math.Floor(reach)), e.ID, at(full)))
			}
		}
		if p.Fly > 0 {
			if air, ok := s.approach(u, e, u.Allowance(s.Turn, true)); ok {
				out = append(out, "fly to "+at(air))
			}
		}
		out = append(out, s.orderShots(u, e)...)
	}
	return out
}

// orderShots are the orders that shoot or cast at e: standing, or, for
// missile troops, after half a move toward it. Each is written only where
// the arc and the line of fire allow it as the table stands (the target
// and whoever is in the way may move before the orders are carried out):
// an order they forbid would only be reported and dropped. Bows and
// longbows blocked by troops more than 3" away are ordered to shoot
// overhead (Missile Fire: Indirect Fire).
func (s *State) orderShots(u, e *Unit) []string {
	p := &u.Profile
	gap := u.Base.Gap(e.Base)
	var out []string
	switch {
	case p.Wizard:
		if gap <= wizardRange && s.inSight(u, e, e.Base, false) == nil {
			out = append(out, "cast fireball at "+e.ID, "cast bolt at "+e.ID)
		}
	case p.Breath:
		if gap <= breathRange+p.MV {
			out = append(out, "breathe at "+e.ID)
		}
	case p.Shoots():
		if o := s.fireOrder(u, u.Base, e); o != "" {
			out = append(out, o)
		}
		if half, ok := s.approach(u, e, u.Allowance(s.Turn, false)/2); ok {
			if o := s.fireOrder(u, u.Base.WithFrontCenter(half), e); o != "" {
				out = append(out, "move to "+at(half)+" then "+o)
			}
		}
	}
	return out
}

// fireOrder is the order for u, standing at from, to shoot at e: "fire
// at" it, or overhead when only that reaches it, or none when neither
// range, arc nor line of fire allows it.
func (s *State) fireOrder(u *Unit, from engine.Base, e *Unit) string {
	rng, gap := u.Profile.Mss, from.Gap(e.Base)
	if s.dark(u, e.Base) {
		rng = min(rng, darkRange)
	}
	switch {
	case gap <= rng && s.sightFrom(u, from, e, e.Base, false) == nil:
		return "fire at " + e.ID
	case u.Profile.Weapon.Archers() && gap <= min(rng, u.Profile.Mss*2/3) && s.sightFrom(u, from, e, e.Base, true) == nil:
		return "fire at " + e.ID + " indirect"
	}
	return ""
}

// conceal returns a copy of s in which the other side's orders for this
// turn, sealed until both sides are done, are drawn afresh: each of its
// units on the table is given one of the orders the bot would weigh for
// it, or none. The bot knows that orders were written, not which.
func conceal(s *State, player engine.PlayerID, r *rand.Rand) *State {
	if s.Stage != Orders || len(s.Armies) < 2 {
		return s
	}
	c := engine.Copy(s)
	for side := South; side <= North; side++ {
		if c.Armies[side].Player == player {
			continue
		}
		c.Orders = slices.DeleteFunc(c.Orders, func(o Order) bool { return o.Side == side })
		for _, u := range c.inPlay(side) {
			texts := c.orderTexts(u)
			k := r.IntN(len(texts) + 1)
			if k == len(texts) {
				continue
			}
			if o, err := c.parseOrder(u, texts[k]); err == nil {
				c.Orders = append(c.Orders, o)
			}
		}
	}
	return c
}

// evaluate scores s for player from -1 to 1: a finished battle is won,
// lost or drawn as its result says; a running one weighs the share of
// his army's points still standing against the enemy's (routed units
// counting less), each less what it may expect to lose in the blows to
// come (exposure).
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.Armies) < 2 {
		return 0
	}
	side, ok := s.sideOf(player, South)
	if !ok {
		return 0
	}
	if s.Stage == Over {
		switch {
		case strings.Contains(s.Result, s.armyName(side)+" win"):
			return 1
		case strings.Contains(s.Result, s.armyName(side.Other())+" win"):
			return -1
		}
		return 0
	}
	mine, theirs := s.standing(side), s.standing(side.Other())
	_, allMine := s.points(side)
	_, allTheirs := s.points(side.Other())
	if allMine == 0 || allTheirs == 0 {
		return 0
	}
	p := s
	if s.Stage == Orders && len(s.Orders) > 0 {
		p = s.projected()
	}
	loss := p.exposure()
	mine -= loss[side] / allMine
	theirs -= loss[side.Other()] / allTheirs
	v := 0.9*(mine-theirs) + 0.05*p.closing(side)
	return max(-1, min(1, v))
}

// closing is 1 when each of side's units stands where it fights best
// (missile troops at four fifths of their range from the nearest enemy,
// the rest beside it), falling toward 0 as they stand a table away: it
// has the bot advance when nothing else is at stake.
func (s *State) closing(side Side) float64 {
	far := math.Hypot(s.Options.Width, s.Options.Depth)
	if far == 0 {
		return 0
	}
	foes := s.inPlay(side.Other())
	sum, n := 0.0, 0
	for _, u := range s.inPlay(side) {
		if !u.Able() {
			continue
		}
		near := far
		for _, e := range foes {
			near = min(near, u.Base.Gap(e.Base))
		}
		want := 0.0
		switch {
		case u.Profile.Wizard:
			want = 0.8 * wizardRange
		case u.Profile.Shoots():
			want = 0.8 * u.Profile.Mss
		}
		sum += 1 - math.Abs(near-want)/far
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// standing is the share of side's points on the table, a routed unit's
// counting at a third, each unit's figures as [State.counted] counts
// them.
func (s *State) standing(side Side) float64 {
	var left, all float64
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side {
			continue
		}
		all += u.Profile.Pts * float64(u.Start)
		if !u.In() {
			continue
		}
		w := u.Profile.Pts * s.counted(u)
		if u.Status == Routed {
			w /= 3
		}
		left += w
	}
	if all == 0 {
		return 0
	}
	return left / all
}

// counted is how many of u's figures the bot counts as standing: those
// free to fight; those a numbing touch holds, which wear off by
// themselves (SA 7b); and of those held until a freer touches them (SA
// 7a) half while their side has a freer on the table, none when it has
// not. The battle's points count the held as lost when it ends
// (RULINGS.md, goliath, "7a, 7b, paralysis"), and only a freer's touch gives them
// back, so a bot that counted them whole would never go to free them.
func (s *State) counted(u *Unit) float64 {
	n := float64(u.Figures + u.Numb)
	if held := u.Paralyzed - u.Numb; held > 0 && s.hasFreer(u.Side) {
		n += float64(held) / 2
	}
	return n
}

// hasFreer reports whether side has a unit on the table that can free
// the paralyzed by touch (SA 7a).
func (s *State) hasFreer(side Side) bool {
	for _, f := range s.inPlay(side) {
		if f.frees() {
			return true
		}
	}
	return false
}

// projected returns a copy of s, shallow but for its units, with each
// unit where its written order takes it: a move's end (as far as its move
// goes), a charge's contact with its target when in reach.
func (s *State) projected() *State {
	c := *s
	c.Units = slices.Clone(s.Units)
	for _, o := range c.Orders {
		u := c.Unit(o.Unit)
		if u == nil || !u.Able() {
			continue
		}
		steps := o.Steps
		if o.Within > 0 {
			steps = o.Else
			for _, e := range c.inPlay(u.Side.Other()) {
				if e.Base.Gap(u.Base) <= o.Within {
					steps = o.Steps
				}
			}
		}
		for _, st := range steps {
			c.project(u, st)
		}
	}
	return &c
}

// project moves u as one step of its order would, roughly: no other unit
// is in the way.
func (s *State) project(u *Unit, st Step) {
	switch st.Kind {
	case MoveStep:
		from := u.Base.FrontCenter()
		allow := u.Allowance(s.Turn, st.Air)
		to := *st.To
		if d := from.Dist(to); d > allow && d > 0 {
			to = from.Lerp(to, allow/d)
		}
		u.Base = u.Base.WithFrontCenter(to)
		u.Moved = allow
	case ChargeStep:
		t := s.Unit(st.Target)
		if t == nil || !t.In() {
			return
		}
		contact, facing, _ := contactEdge(t.Base, u.Base.FrontCenter())
		if u.Base.FrontCenter().Dist(contact) <= u.ChargeReach(s.Turn) {
			u.Base = u.Base.WithFacing(facing).WithFrontCenter(contact)
			u.Charged = true
		}
	case FaceStep:
		u.Base = u.Base.WithFacing(*st.Facing)
	}
}

// exposure is what each side may expect to lose, in points of its
// standing, in the blows to come: the melees joined, the charges each
// side's units can make (Morale Check: the charged unit checks, and
// every unit that fought checks after the melee, heavy losses folded
// in), and the volleys its missile troops have left (Rate of Fire). A
// blow the striker is sure to get, because the enemy moves before it
// no more this turn, weighs nearly whole; one that waits for the next
// turn, whose order of moving is not yet rolled, weighs less.
func (s *State) exposure() [2]float64 {
	hurt := make([]harmDue, len(s.Units))
	index := func(e *Unit) int {
		for i := range s.Units {
			if &s.Units[i] == e {
				return i
			}
		}
		return -1
	}
	// In Method 1 hits come off at once (Turn sequence): the side that
	// shoots first thins the other's volleys, and in melee the chargers
	// strike first, then the side that moved first, then the other
	// (Melee). A unit strikes with the share of its figures the blows
	// before it leave.
	left := func(i int) float64 {
		u := &s.Units[i]
		if s.Options.Method == WrittenOrders || u.Figures == 0 {
			return 1
		}
		return max(0, 1-hurt[i].kills/float64(u.Figures))
	}
	rank := func(u *Unit, melee bool) int {
		switch {
		case melee && u.Charged:
			return 0
		case u.Side == s.First:
			return 1
		}
		return 2
	}
	var ready []int
	engaged := make([]bool, len(s.Units))
	for i := range s.Units {
		if u := &s.Units[i]; u.Able() && u.Figures > 0 && !u.Rallying {
			ready = append(ready, i)
			engaged[i] = s.engaged(u)
		}
	}
	byRank := func(melee bool) []int {
		out := slices.Clone(ready)
		slices.SortStableFunc(out, func(a, b int) int {
			return cmp.Compare(rank(&s.Units[a], melee), rank(&s.Units[b], melee))
		})
		return out
	}
	for _, i := range byRank(false) {
		u := &s.Units[i]
		if engaged[i] {
			continue
		}
		if w, volleys := s.volleysLeft(u); w > 0 {
			if e, kills := s.bestVolley(u, volleys); e != nil {
				hurt[index(e)].add(w, kills*left(i), 0, false)
			}
		}
	}
	for _, i := range byRank(true) {
		if !engaged[i] {
			continue
		}
		u := &s.Units[i]
		e := s.foe(u)
		if e == nil {
			continue
		}
		steps := 0
		if side := e.Base.ContactSide(u.Base); side != engine.Front {
			steps = 1 // a flank or rear attack fights at AR+1
		}
		kills := meleeKills(u, e, meleeFigures(u, e, u.Figures), steps) * left(i)
		hurt[index(e)].add(1, kills, 0, true)
		hurt[i].tested = 1
	}
	for _, i := range ready {
		u := &s.Units[i]
		if engaged[i] {
			continue
		}
		if w := s.chargeWeight(u); w > 0 {
			if e, kills := s.bestCharge(u); e != nil {
				hurt[index(e)].add(w, kills, 1, true)
			}
		}
	}
	var out [2]float64
	for i := range s.Units {
		if u := &s.Units[i]; u.In() {
			out[u.Side] += s.harmValue(u, hurt[i])
		}
	}
	return out
}

// harmDue is what a unit may expect to suffer: figures lost (each
// weighed by how surely the blow lands), and how surely it checks
// morale on being charged or after a melee.
type harmDue struct {
	kills   float64
	charged float64 // chance weight of a check on being charged
	tested  float64 // chance weight of a check after the melee
}

// add is one blow of weight w killing kills figures; charged is the
// chance it comes as a charge (the target checks first), melee whether
// it ends in a check after the melee.
func (h *harmDue) add(w, kills, charged float64, melee bool) {
	h.kills += w * kills
	h.charged = max(h.charged, w*charged)
	if melee {
		h.tested = max(h.tested, w)
	}
}

// harmValue is the points u may expect to lose to h: the figures slain,
// and, of what is left, two thirds of it when the unit routs (standing
// counts a routed unit at a third) and all of it when it surrenders,
// by the morale table (2D6 + MR: 6 holds, 3-5 falls back, 0-2 routs,
// less surrenders), with the heavy losses penalty once its losses reach
// its armour's share (Heavy Losses).
func (s *State) harmValue(u *Unit, h harmDue) float64 {
	if h.kills == 0 && h.charged == 0 && h.tested == 0 {
		return 0
	}
	// Blows fall on the figures free to fight, and a unit left with none
	// is destroyed with its paralyzed (SA 7a): each free figure slain
	// takes its share of the held with it.
	free := float64(u.Figures)
	if free == 0 {
		return 0
	}
	figs := s.counted(u)
	kills := min(h.kills, free)
	pts := u.Profile.Pts
	slain := kills * figs / free
	if u.Status == Routed {
		return slain * pts / 3
	}
	lost := slain * pts
	left := (figs - slain) * pts
	mod := 0
	if s.inspirer(u) != "" {
		mod++
	}
	// On being charged: a rout or a surrender before the blows land.
	if h.charged > 0 {
		_, rout, gone := moraleOdds(u, mod)
		lost += h.charged * (rout*2/3 + gone) * left
	}
	check := h.tested
	at := max(u.TurnFigs, u.Total())
	percent, pen := heavyLoss(u.Profile.Armor())
	heavy := kills > 0 && kills*100 >= float64(percent*at)-1e-9
	if heavy {
		check = 1
		mod += pen
	}
	if check > 0 {
		_, rout, gone := moraleOdds(u, mod)
		lost += check * (rout*2/3 + gone) * left
	}
	return min(lost, figs*pts)
}

// moraleOdds are the chances that u, checking morale with mod, falls
// back, routs or surrenders (Morale Check); none for those who never
// check (MR +4).
func moraleOdds(u *Unit, mod int) (back, rout, gone float64) {
	if u.Profile.Steadfast() {
		return 0, 0, 0
	}
	base := u.moraleRating() + mod
	// Scores of 6 or more hold, 3-5 fall back, 0-2 rout, less surrenders.
	gone = atMost2D6(-1 - base)
	rout = atMost2D6(2-base) - gone
	back = atMost2D6(5-base) - gone - rout
	return back, rout, gone
}

// atMost2D6 is the chance that 2D6 come to n or less.
func atMost2D6(n int) float64 {
	switch {
	case n < 2:
		return 0
	case n >= 12:
		return 1
	case n <= 7:
		return float64((n-1)*n/2) / 36
	}
	return 1 - float64((12-n)*(13-n)/2)/36
}

// stillMoves reports whether side has its movement yet to come this
// turn (Method 1: it is moving now, or moves second and the first side
// is moving).
func (s *State) stillMoves(side Side) bool {
	return s.Stage == Moving && (s.Active == side || s.Active == s.First && side != s.First)
}

// chargeWeight is how surely u gets to charge before its targets can
// answer: nearly so when its side moves after the enemy this turn and
// it has not yet moved, less when the enemy moves after it and may
// step away or strike first, and least when its next charge waits for
// the next turn's initiative roll.
func (s *State) chargeWeight(u *Unit) float64 {
	if u.Profile.ChargeMove() <= 0 {
		return 0
	}
	switch {
	case s.Stage == Orders:
		return 0.5
	case !s.stillMoves(u.Side) || u.Moved > 0 || u.Charged:
		return 0.3
	case s.Active == u.Side && s.First == u.Side:
		return 0.5
	case s.Active == u.Side:
		return 0.7
	}
	// The enemy is moving now, and u's side moves after it.
	return 0.8
}

// bestCharge is the enemy ahead of u within its charge reach that u's
// charge would cost most, and what u would kill of it in the first
// round.
func (s *State) bestCharge(u *Unit) (*Unit, float64) {
	var best *Unit
	bestV, bestK := 0.0, 0.0
	for _, e := range s.inPlay(u.Side.Other()) {
		if u.Base.Gap(e.Base) > u.ChargeReach(s.Turn) || !u.Base.InArc(e.Base, 90, 90) {
			continue
		}
		k := meleeKills(u, e, min(u.Figures, u.Frontage), chargeSteps(u, e))
		if v := s.harmValue(e, harmDue{kills: k, charged: 1, tested: 1}); v > bestV {
			best, bestV, bestK = e, v, k
		}
	}
	return best, bestK
}

// volleysLeft is how surely u's missiles fly and how many volleys: those
// its Rate of Fire leaves it this turn while its side has yet to shoot
// (one that moved over half its move shoots only by winning a roll-off,
// 15 in 36), else one next turn, weighed less.
func (s *State) volleysLeft(u *Unit) (float64, float64) {
	p := &u.Profile
	if !p.Shoots() && !p.Breath || (p.Wizard || p.Breath) && u.Spells >= castLimit(p) {
		return 0, 0
	}
	if p.Wizard || p.Breath {
		if s.firesYet(u.Side) && !u.Cast && u.Moved == 0 {
			return 0.9, 1
		}
		return 0.4, 1
	}
	if !s.firesYet(u.Side) {
		return 0.4, 1
	}
	n, rollOff, _ := s.shotsAllowed(u)
	left := float64(n - u.Shots)
	if left <= 0 {
		return 0.4, 1
	}
	if rollOff {
		left *= 15.0 / 36
	}
	return 0.9, left
}

// firesYet reports whether side has its missile fire yet to come this
// turn (Method 1), or writes orders for it (Method 2).
func (s *State) firesYet(side Side) bool {
	switch s.Stage {
	case Moving, Orders:
		return true
	case Missile:
		return s.Active == side || s.Active == s.First && side != s.First
	}
	return false
}

// bestVolley is the enemy in range and arc of u's missiles or spells
// whose loss to volleys of them would cost most, and the figures it
// would lose.
func (s *State) bestVolley(u *Unit, volleys float64) (*Unit, float64) {
	p := &u.Profile
	var best *Unit
	bestV, bestK := 0.0, 0.0
	for _, e := range s.inPlay(u.Side.Other()) {
		gap := u.Base.Gap(e.Base)
		k := 0.0
		switch {
		case p.Wizard || p.Breath:
			rng := float64(wizardRange)
			if p.Breath {
				rng = breathRange
			}
			// A wizard's bolts keep the arc and line of missiles, and cover
			// halves them (RULINGS.md, goliath, "bolts and fireballs").
			if p.Wizard && s.inSight(u, e, e.Base, false) != nil {
				continue
			}
			if gap <= rng {
				k = float64(min(ballFigures, e.Total())) * 0.6 / float64(max(1, e.Profile.HT))
			}
			if p.Wizard && s.covered(e.Base) {
				k /= 2
			}
		default:
			if gap > p.Mss || !u.Base.InArc(e.Base, 45, 45) && !p.Cavalry() {
				continue
			}
			direct, overhead := s.lineOfFire(u, e)
			over := !direct && overhead && gap <= p.Mss*2/3
			if !direct && !over {
				continue
			}
			figs := min(u.Figures, 2*u.Frontage)
			eff := missileNeed(e.Profile.Armor())
			if p.Weapon == HeavyCrossbow {
				eff--
			}
			if over {
				eff++
			}
			k = float64(figs*max(1, p.HT)) * hitChance(eff) / float64(max(1, e.Profile.HT))
			if s.covered(e.Base) {
				k /= 2
			}
		}
		k *= volleys
		if k <= 0 {
			continue
		}
		if v := s.harmValue(e, harmDue{kills: k}); v > bestV {
			best, bestV, bestK = e, v, k
		}
	}
	return best, bestK
}

// lineOfFire reports whether u's missiles reach e straight, with no
// unit nor screening ground between, and, if not, whether bows could
// shoot overhead: nothing in the way within 3" of the archers (Missile
// Fire: indirect fire).
func (s *State) lineOfFire(u, e *Unit) (direct, overhead bool) {
	from, to := u.Base.FrontCenter(), e.Base.Center
	direct, overhead = true, u.Profile.Weapon.Archers()
	bases, units := s.others(u)
	for i, o := range bases {
		if units[i] == e || !o.BlocksLine(from, to) {
			continue
		}
		direct = false
		if o.Gap(u.Base) <= 3 {
			overhead = false
		}
	}
	if direct && s.screened(from, to) != "" {
		direct = false
	}
	return direct, overhead
}

// hitChance is the chance one missile die hits needing eff, a needed 7
// or more asking a six and then a confirming roll (Missile Fire).
func hitChance(eff int) float64 {
	if eff <= 6 {
		return float64(7-max(2, eff)) / 6
	}
	return float64(7-min(6, eff-3)) / 36
}

// chargeSteps is the AR+1 a charge at e's flank or rear gets (Melee:
// flanking, rear attacks).
func chargeSteps(u, e *Unit) int {
	if _, _, side := contactEdge(e.Base, u.Base.FrontCenter()); side != engine.Front {
		return 1
	}
	return 0
}

// meleeKills is the figures a's figs attacking figures may expect to
// kill of d in one round, arSteps up the ladder (the melee table,
// Figures item 3).
func meleeKills(a, d *Unit, figs, arSteps int) float64 {
	if figs <= 0 {
		return 0
	}
	if d.Profile.Has(Charmed) && !a.Profile.Slayer {
		return 0
	}
	drSteps := 0
	if a.Tired {
		arSteps--
	}
	if d.Tired {
		drSteps--
	}
	n, need, mod := meleeDice(a.Profile.AR, d.Profile.DR, arSteps, drSteps, figs*max(1, a.Profile.HT))
	chance := float64(7-max(2, min(6, need-mod))) / 6
	kills := float64(n) * chance / float64(max(1, d.Profile.HT))
	return min(kills, float64(d.Total()))
}
