package btg

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead an army: the commands it could give when the
// battle waits for it (a sample army to pick while the book musters, its
// deployment, the moves of a card of its colour and its lone leaders on a
// black face, its fire, the answer to a charge on its horse) and, for the
// game master's seat, an answer to each event that asks for one (§6); and
// how good a position is for a side, in the terms the battle is judged in
// (RULINGS.md, btg, "victory"): the share of units lost toward the half
// that breaks an army, and the share of figures lost, with a little for
// morale colours, routs and leaders. By the Gods! hides nothing from a
// player but the order of the cards and the dice to come, which the
// engine draws afresh itself, so it needs no [engine.Concealer].

// botFoes is how many of the nearest enemy units the bot weighs moving
// toward, so that its list stays short; it weighs a charge at every
// enemy in reach and a shot at every one in range.
const botFoes = 2

// hardSearch is the hard level's search: 12 steps deep where the engine's
// default looks 4, on 1,024 playouts. A side gives a command for each unit
// a card moves, and its charges, shots and melees come after the moves,
// so a playout of 4 steps seldom sees what a move leads to. The bot's
// lists are short (a dozen candidates at most, as a rule), so hard weighs
// every candidate either way. At the default depth, hard played no better
// than easy.
var hardSearch = engine.Budget{Playouts: 1024, Depth: 12, Wide: 16, Worlds: 8}

// candidates lists what player could do now, for the side the battle
// awaits him for; empty when it awaits someone else.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	if s.Stage == Over {
		return nil
	}
	switch {
	case s.Stage == Mustering:
		return s.pickCandidates(player)
	case s.Await != nil:
		if t := s.Unit(s.Await.Target); t != nil && s.leads(player, t.Side) {
			return []engine.Command{engine.NewCommand(player, "avoid"), engine.NewCommand(player, "stand")}
		}
		return nil
	case s.Judge != nil:
		if player == s.Master {
			return s.decideCandidates(player)
		}
		return nil
	}
	switch s.Stage {
	case Deploying:
		for side := BlackSide; side <= RedSide; side++ {
			if s.leads(player, side) && !s.Armies[side].Done {
				return s.deployCandidates(player, side)
			}
		}
	case Movement:
		return s.moveCandidates(player)
	case Fire:
		for side := BlackSide; side <= RedSide; side++ {
			if s.leads(player, side) && !s.Armies[side].Done {
				return s.fireCandidates(player, side)
			}
		}
	}
	return nil
}

// deployCandidates deploys side's army: /done, which lays out the units
// and puts each leader not yet placed in command of one, and for each
// minor leader not yet placed, a /place alone at the back of the zone.
func (s *State) deployCandidates(player engine.PlayerID, side Side) []engine.Command {
	out := []engine.Command{engine.NewCommand(player, "done")}
	k := 0
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if l.Side != side || l.Supreme {
			continue
		}
		// Behind the centre of the line, an inch from the edge, a few
		// inches apart, where the units laid out at /done leave room.
		x := s.Options.Width/2 + 3*float64(k)
		k++
		if l.Gone || l.Placed {
			continue
		}
		y := 1.0
		if side == RedSide {
			y = s.Options.Depth - 1
		}
		out = append(out, engine.NewCommand(player, "place", "unit", l.ID, "at", engine.Vec{X: x, Y: y}.String()))
	}
	return out
}

// leads reports whether player leads side's army.
func (s *State) leads(player engine.PlayerID, side Side) bool {
	a := s.army(side)
	return a != nil && a.Player == player
}

// pickCandidates offers each sample army to a player who leads none yet.
func (s *State) pickCandidates(player engine.PlayerID) []engine.Command {
	if len(s.Armies) >= 2 {
		return nil
	}
	for _, a := range s.Armies {
		if a.Player == player {
			return nil
		}
	}
	var out []engine.Command
	for _, k := range sampleKeys() {
		out = append(out, engine.NewCommand(player, "army pick", "list", k))
	}
	return out
}

// blend weighs, while the battle musters, the sample armies the bot may
// lead alike: a bot that always led the same army would be a dull
// opponent, so it draws one.
//
// It keeps its minor leaders out of command, which no score of a
// position would teach it: Traitors! (§6) marches a minor leader off the
// table with the unit he commands, and alone he rides off with nothing
// else. In the arena (seeds 50001–50058) the event took a whole phalanx
// from the bot in 7 battles and the bot lost 5 of them, on the share of
// figures lost, against 4 of the other 51. A whole unit at once is what
// turns a battle the bot leads; the die and the morale a minor leader
// adds to one unit, spread over its melees, do not. So in deployment it
// places each minor leader alone, and on a black face card it never
// sends one to command a unit; the general it sends when he is alone.
// Elsewhere it searches as usual.
func blend(s *State, player engine.PlayerID, cands []engine.Command) []float64 {
	switch {
	case s.Stage == Mustering:
		w := make([]float64, len(cands))
		for k, c := range cands {
			if c.Name == "army pick" {
				w[k] = 1
			}
		}
		return w
	case s.Stage == Deploying:
		return s.keepApart(cands, "place")
	case s.Stage == Movement && s.Card != nil && s.Card.Leaders:
		return s.keepApart(cands, "attach")
	}
	return nil
}

// keepApart weighs cands, a deployment's or a black face card's, so that
// no minor leader takes command: the first of name's commands that moves
// a minor leader alone (a /place) or the general into command (an
// /attach), and none that sends a minor leader to a unit. It is nil, for
// the search to choose, when cands hold no command of a minor leader.
func (s *State) keepApart(cands []engine.Command, name string) []float64 {
	minor, pick := false, -1
	for k, c := range cands {
		l := s.Leader(c.Opt("leader"))
		if c.Name == "place" {
			l = s.Leader(c.Opt("unit"))
		}
		if l == nil || c.Name != name {
			continue
		}
		minor = minor || !l.Supreme
		alone := name == "place" && !l.Supreme   // a minor leader placed alone
		general := name == "attach" && l.Supreme // the general into command
		if pick < 0 && (alone || general) {
			pick = k
		}
	}
	if !minor {
		return nil
	}
	if pick < 0 {
		// Only minor leaders could take command: pass the card.
		for k, c := range cands {
			if c.Name == "done" {
				pick = k
			}
		}
	}
	if pick < 0 {
		return nil
	}
	w := make([]float64, len(cands))
	w[pick] = 1
	return w
}

// decideCandidates answers the event the game master must judge (§6):
// for Baptism the water nearest the side's units, for Lost and Found the
// edge nearest the unit that goes, for Rivals each unit that may be the
// rival.
func (s *State) decideCandidates(player engine.PlayerID) []engine.Command {
	j := s.Judge
	var out []engine.Command
	switch j.Event {
	case "Baptism":
		for i := range s.Terrain {
			f := &s.Terrain[i]
			if f.ground() != Water {
				continue
			}
			for _, u := range s.nearest(f.Area.Center, j.Side, 2) {
				p := nearestIn(f.Area, u.Base.Center)
				out = append(out, engine.NewCommand(player, "decide", "at", p.String()))
			}
			out = append(out, engine.NewCommand(player, "decide", "at", f.Area.Center.String()))
		}
	case "Lost and Found":
		if u := s.Unit(j.Unit); u != nil {
			out = append(out, engine.NewCommand(player, "decide", "at", s.edgePoint(u.Base.Center).String()))
		}
	case "Rivals":
		for _, u := range s.inPlay(j.Side) {
			if u.ID != j.Unit {
				out = append(out, engine.NewCommand(player, "decide", "unit", u.ID))
			}
		}
	}
	return out
}

// nearestIn is the point of the rectangle b nearest p (b unturned, as
// terrain areas are laid).
func nearestIn(b engine.Base, p engine.Vec) engine.Vec {
	x := max(b.Center.X-b.Width/2, min(b.Center.X+b.Width/2, p.X))
	y := max(b.Center.Y-b.Depth/2, min(b.Center.Y+b.Depth/2, p.Y))
	return engine.Vec{X: round1(x), Y: round1(y)}
}

// moveCandidates lists the moves of the card in play that are player's:
// on a number card, for the units firstToMove names, each charge and
// move the rules would take (charges at every enemy in reach, the moves
// moveTargets finds); on a black face, his lone leaders joining the
// nearest units; and /done, which passes what is left. A move not made
// on its card is lost (1.A), so /done is offered on a number card only
// when no unit has a move to make: holding back is among the moves
// weighed (a step back, half a move).
func (s *State) moveCandidates(player engine.PlayerID) []engine.Command {
	c := s.Card
	if c == nil {
		return nil
	}
	done := engine.NewCommand(player, "done")
	if c.Leaders {
		for side := BlackSide; side <= RedSide; side++ {
			if s.leads(player, side) && !c.Done[side] {
				return append(s.leaderCandidates(player, side), done)
			}
		}
		return nil
	}
	if !s.leads(player, c.Side) {
		return nil
	}
	var out []engine.Command
	movers := 0
	for _, u := range s.firstToMove(c.Side) {
		n := len(out)
		out = append(out, s.chargeCandidates(player, u)...)
		for _, m := range s.moveTargets(u) {
			out = append(out, engine.NewCommand(player, "move", "unit", u.ID, "to", m.to.String(), "facing", m.h.String()))
		}
		if len(out) > n {
			if movers++; movers == botMovers {
				break
			}
		}
	}
	if len(out) == 0 {
		return []engine.Command{done}
	}
	return out
}

// chargeCandidates lists u's charges the rules would take: at each enemy
// in reach, straight over open ground with nothing in the way (1.D).
func (s *State) chargeCandidates(player engine.PlayerID, u *Unit) []engine.Command {
	if !u.Class.CanCharge() {
		return nil
	}
	var out []engine.Command
	reach := 2 * float64(s.civ(u.Side).Move(u.Class, Level))
	for _, e := range s.inPlay(u.Side.Other()) {
		if !u.Base.Near(e.Base, reach) {
			continue
		}
		if _, _, err := s.chargePath(u, e); err == nil {
			out = append(out, engine.NewCommand(player, "charge", "unit", u.ID, "target", e.ID))
		}
	}
	return out
}

// botMovers is how many of the units that may move on a card the bot
// weighs at once: those nearest the enemy, the others waiting for the
// card's next move. A short list leaves the search more playouts for
// each candidate.
const botMovers = 2

// firstToMove lists the units of side that may move, nearest an enemy
// first, less the shooters that would rather stand and shoot: archers
// that have a target now, who may not shoot after moving (2.D).
func (s *State) firstToMove(side Side) []*Unit {
	foes := s.inPlay(side.Other())
	var us []*Unit
	gaps := map[*Unit]float64{}
	for _, u := range s.cardMovers(s.Card) {
		if u.Missile() && !movingShooter(u) && !u.Class.Siege() {
			if t, _ := s.bestShot(u); t != nil {
				continue
			}
		}
		us = append(us, u)
		gaps[u] = gapTo(u, foes, math.Inf(1))
	}
	slices.SortStableFunc(us, func(a, b *Unit) int { return cmp.Compare(gaps[a], gaps[b]) })
	return us
}

// gapTo is roughly the least gap between u and any of foes, or far when
// none is nearer: the distance between their centres less the radii of
// the circles about them. It orders units by nearness and measures the
// army's advance, where an inch either way does not matter, at a small
// part of the cost of measuring base to base.
func gapTo(u *Unit, foes []*Unit, far float64) float64 {
	best := far
	ru := radius(u.Base)
	for _, e := range foes {
		dx, dy := u.Base.Center.X-e.Base.Center.X, u.Base.Center.Y-e.Base.Center.Y
		best = min(best, max(0, math.Sqrt(dx*dx+dy*dy)-ru-radius(e.Base)))
	}
	return best
}

// radius is that of the circle about b.
func radius(b engine.Base) float64 {
	return math.Sqrt(b.Width*b.Width+b.Depth*b.Depth) / 2
}

// leaderCandidates sends each of side's lone leaders that has not moved
// to command the nearest of its units that have none.
func (s *State) leaderCandidates(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for _, l := range s.loneLeaders(side) {
		if l.Moved {
			continue
		}
		var best *Unit
		for _, u := range s.inPlay(side) {
			if u.Class.Siege() || s.leaderOf(u) != nil {
				continue
			}
			if best == nil || u.Base.Gap(l.Base()) < best.Base.Gap(l.Base()) {
				best = u
			}
		}
		if best != nil {
			out = append(out, engine.NewCommand(player, "attach", "leader", l.ID, "unit", best.ID))
		}
	}
	return out
}

// target is a move the bot weighs: where the front centre goes, and the
// facing it takes.
type target struct {
	to engine.Vec
	h  engine.Heading
}

// moveTargets are the moves the bot tries for u that the rules would
// take: toward each near enemy as far as it goes and to an inch short of
// it (turned to face it), and half as far toward the nearest; for shooters, to the edge of
// their long range; straight ahead at full move; a step back, but none
// that leaves a fall back or a rout room to run off the table; into the
// nearest cover or high ground it can reach; and beside a friend in
// melee, or one that may charge, where it supports him (5.C).
func (s *State) moveTargets(u *Unit) []target {
	fc := u.Base.FrontCenter()
	full := s.fullMove(u)
	keep := u.Base.Facing
	var out []target
	add := func(p engine.Vec, h engine.Heading) {
		t := target{to: engine.Vec{X: round1(p.X), Y: round1(p.Y)}, h: h}
		if t.to.Dist(fc) < 0.5 && t.h == keep {
			return // no move at all, which would spend the unit's move
		}
		// A unit that falls back or routs goes a full move toward its
		// own edge, and off the table it is out of the battle (§3): no
		// step toward that edge that ends within a full move of it.
		if d := s.edgeDistance(u.Side, t.to); d < full && d < s.edgeDistance(u.Side, fc) {
			return
		}
		for _, o := range out {
			if o == t {
				return
			}
		}
		if _, _, err := s.planMove(u, t.to, t.h, u.Ranks); err == nil {
			out = append(out, t)
		}
	}
	for i, e := range s.nearest(u.Base.Center, u.Side.Other(), botFoes) {
		h := engine.Heading(math.Round(float64(engine.HeadingTo(fc, e.Base.Center))))
		room := full - turnCost(u.Base.Width, u.Base.Facing, h)
		gap := fc.Dist(e.Base.Center) - max(e.Base.Width, e.Base.Depth)/2 - 1
		if room <= 0 || gap <= 0 {
			continue
		}
		half := room / 2
		if i > 0 {
			half = 0 // half a move toward the nearest enemy only
		}
		for _, k := range []float64{room, half, gap} {
			if k = min(k, gap); k > 0.5 {
				add(fc.Add(h.Vec().Scale(k)), h)
			}
		}
		if u.Missile() {
			// Into long range of the enemy and no nearer.
			if _, long := s.civ(u.Side).Range(u.Weapon); long > 0 {
				if k := fc.Dist(e.Base.Center) - float64(long) + 1; k > 0.5 && k < room {
					add(fc.Add(h.Vec().Scale(k)), h)
				}
			}
		}
	}
	add(fc.Add(keep.Vec().Scale(full)), keep)
	if s.threatened(u) {
		add(fc.Add(keep.Vec().Scale(-full/2)), keep)
	}
	if f := s.nearestCover(u, full); f != nil {
		add(f.Area.Center, keep)
	}
	for _, p := range s.supportSpots(u, full) {
		add(p.to, p.h)
	}
	return out
}

// threatened reports whether an enemy that may charge stands within
// its charge's reach of u, and a step back might keep u out of it (1.D).
func (s *State) threatened(u *Unit) bool {
	for _, e := range s.inPlay(u.Side.Other()) {
		if e.Status == Steady && e.Class.CanCharge() && e.Base.Near(u.Base, 2*float64(s.civ(e.Side).Move(e.Class, Level))+s.fullMove(u)) {
			return true
		}
	}
	return false
}

// supportSpots are the places beside a friend of u's, on either flank
// and facing as he does, half an inch off, from which u would support
// him in melee (5.C): beside each friend in melee within reach of u's
// move, and, for a unit that may not charge itself, beside the nearest
// friend that may, to meet the enemy's charge beside him.
func (s *State) supportSpots(u *Unit, reach float64) []target {
	var out []target
	beside := func(f *Unit) {
		fc := f.Base.FrontCenter()
		right := (f.Base.Facing + 90).Vec()
		off := f.Base.Width/2 + u.Base.Width/2 + 0.5
		for _, k := range []float64{off, -off} {
			out = append(out, target{to: fc.Add(right.Scale(k)), h: f.Base.Facing})
		}
	}
	var line *Unit
	for _, f := range s.inPlay(u.Side) {
		if f == u || f.Status != Steady || f.Class.Siege() || !u.Base.Near(f.Base, reach+u.Base.Width+1) {
			continue
		}
		switch {
		case s.engaged(f):
			beside(f)
		case f.Class.CanCharge() && !u.Class.CanCharge():
			if line == nil || u.Base.Center.Dist(f.Base.Center) < u.Base.Center.Dist(line.Base.Center) {
				line = f
			}
		}
	}
	if line != nil {
		beside(line)
	}
	return out
}

// nearestCover is the nearest wood, hill, rough ground or building u
// could reach this move, or nil.
func (s *State) nearestCover(u *Unit, reach float64) *Feature {
	var best *Feature
	for i := range s.Terrain {
		f := &s.Terrain[i]
		g := f.ground()
		if !(g.Cover() || g == Hill) || f.Area.Overlaps(u.Base) {
			continue
		}
		if d := u.Base.Center.Dist(f.Area.Center); d <= reach && (best == nil || d < u.Base.Center.Dist(best.Area.Center)) {
			best = f
		}
	}
	return best
}

// nearest lists side's units on the table nearest p, at most n of them,
// nearest first.
func (s *State) nearest(p engine.Vec, side Side, n int) []*Unit {
	us := s.inPlay(side)
	slices.SortStableFunc(us, func(a, b *Unit) int {
		return cmp.Compare(a.Base.Center.Dist(p), b.Base.Center.Dist(p))
	})
	return us[:min(n, len(us))]
}

// fireCandidates lists the shots of the first of side's units that may
// still shoot: at each enemy it can aim at, and for a siege engine at
// each enemy structure; and /done, which ends the side's fire, only when
// no shot is listed or the shooter is a siege engine, which must reload
// after a shot (§7). Any other volley costs its shooters nothing, and a
// shot not taken now is lost for the turn (§2), while a score of the
// position after the phase counts the same shot again as the next turn's.
func (s *State) fireCandidates(player engine.PlayerID, side Side) []engine.Command {
	done := engine.NewCommand(player, "done")
	// Shooting costs nothing, and the shots of a side land as if at once
	// (RULINGS.md, btg, "fire"): the bot weighs one shooter's targets at a
	// time, in the order of its units.
	for _, u := range s.shooters(side) {
		var out []engine.Command
		_, long := s.civ(side).Range(u.Weapon)
		for _, t := range s.inPlay(side.Other()) {
			if !u.Base.Near(t.Base, float64(long)) {
				continue // out of range: aim would refuse it
			}
			if _, err := s.aim(u, t); err == nil && !t.Effects.Immune {
				out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "target", t.ID))
			}
		}
		if u.Class.Siege() {
			for _, f := range s.Terrain {
				if f.ground().Structure() && f.DV > 0 && (f.Side == nil || *f.Side != side) {
					out = append(out, engine.NewCommand(player, "fire", "unit", u.ID, "structure", f.Name))
				}
			}
			if len(out) > 0 {
				return append(out, done)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []engine.Command{done}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// evaluate scores s for player's army from -1 to 1. A battle over is won,
// lost or drawn as it was judged; one under way weighs how near each
// army is to breaking (half its units lost), the share of its figures
// still standing (what decides the battle after the last turn) less
// those the melees, shots and charges at hand promise to cost it
// (expectedLosses), the morale colours of its units in good order,
// routed units as half lost, and its leaders; with a touch for closing
// on the enemy, so that an army with nothing to shoot advances. The game
// master, who leads no army, scores every position 0.
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.Armies) < 2 {
		return 0
	}
	side, ok := s.sideOf(player, BlackSide)
	if !ok {
		return 0
	}
	if s.Stage == Over {
		return s.outcome(side)
	}
	x := s.expectedLosses()
	us, them := s.standing(side, x.figures[side], x.routs[side]+2*x.wiped[side]), s.standing(side.Other(), x.figures[side.Other()], x.routs[side.Other()]+2*x.wiped[side.Other()])
	return 0.95*math.Tanh(2*(us-them)) + 0.05*s.closing(side)
}

// outcome is the end of the battle for side: 1 won, -1 lost, 0 drawn, as
// verdict and onPoints judged it, or a concession.
func (s *State) outcome(side Side) float64 {
	switch {
	case strings.Contains(s.Result, "the "+s.armyName(side)+" concede"):
		return -1
	case strings.Contains(s.Result, "the "+s.armyName(side.Other())+" concede"):
		return 1
	}
	broken := func(sd Side) bool {
		lost, all := s.lost(sd)
		return all > 0 && 2*lost >= all
	}
	us, them := broken(side), broken(side.Other())
	switch {
	case us && !them:
		return -1
	case them && !us:
		return 1
	case us && them:
		return 0
	}
	a, b := s.figuresLost(side), s.figuresLost(side.Other())
	switch {
	case a < b:
		return 1
	case b < a:
		return -1
	}
	return 0
}

// standing is how far side stands from defeat, roughly from 0 (broken)
// to 1 (untouched): half for the units it may still lose before it
// breaks (a unit expected to rout counting half), four tenths for its
// figures less those it is expected to lose to the shots and melees at
// hand, and a tenth for the morale of its units in good order and its
// leaders.
func (s *State) standing(side Side, losing, routing float64) float64 {
	var all, lost, figs, start, morale, steady float64
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side {
			continue
		}
		all++
		start += float64(u.Start)
		switch {
		case u.Status == Gone && u.Return == 0:
			lost++
		case u.Status == Gone:
			lost += 0.5
		case u.Status == Routed || u.Status == Rampaging:
			lost += 0.5
			figs += float64(u.Figures) / 2
		default:
			figs += float64(u.Figures)
			morale += float64(u.Morale) / float64(Gold)
			steady++
		}
	}
	if all == 0 || start == 0 {
		return 0
	}
	breaking := max(0, 1-2*(lost+routing/2)/all)
	leaders, had := 0.0, 0.0
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side {
			had++
			if !l.Gone {
				leaders += 1 - float64(l.Hits)/2
			}
		}
	}
	spirit := 0.0
	if steady > 0 {
		spirit = morale / steady
	}
	if had > 0 {
		spirit = (spirit + leaders/had) / 2
	}
	return 0.5*breaking + 0.4*max(0, figs-losing)/start + 0.1*spirit
}

// expectation is what the fights and shots at hand promise each side:
// the figures it may expect to lose, the share of a unit it may expect
// to see routed by a lost melee, and the share of one it may expect to
// see cut down to the last figure in one, out of the battle as a unit
// lost, where a routed one counts half (standing).
type expectation struct {
	figures [2]float64
	routs   [2]float64
	wiped   [2]float64
}

// expectedLosses is what each side may expect to lose to the melees
// under way, paired and supported as the melee phase will pair them
// (5.C, 5.E: a die per two figures, hitting on the weapon's band, bonus
// dice on 5 or 6, supports' dice, less the armor), to the morale check
// of the side that loses a melee (3.D: a 1 or 2 routs it), and, before
// its enemy has shot this turn, to each enemy shooter's best shot (§2)
// and the morale check its losses call for (3.A), as to the checks owed
// already for losses taken this phase.
// A routed unit in contact is as good as captured (§3). The rolls are
// averaged, not drawn: the bot weighs what a position promises.
func (s *State) expectedLosses() expectation {
	var x expectation
	engaged := s.engagedSet()
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() {
			continue
		}
		if u.Shaken != "" && u.Status == Steady {
			// A check owed to losses already taken, played when the
			// phase ends (3.A, 3.G).
			x.routs[u.Side] += routChance(u, s.leaderOf(u) != nil, float64(u.Figures))
		}
		if engaged[u] {
			if u.Status == Routed {
				x.figures[u.Side] += float64(u.Figures)
			}
			continue
		}
		// In the movement phase every shooter will have its turn; in
		// the fire phase those of a side that has not finished.
		shoots := s.Stage == Movement || s.Stage == Fire && !s.Armies[u.Side].Done
		if shoots && s.canShoot(u) == nil && !u.Class.Siege() {
			if t, v := s.bestShot(u); t != nil {
				x.figures[t.Side] += v.figures
				x.routs[t.Side] += v.routs
			}
		}
	}
	// What each unit may lose and kill in the melee, as odds: a unit
	// fought by two enemies loses to both, and its supports' dice count
	// as its own (5.C).
	lost, dealt := map[*Unit]odds{}, map[*Unit]odds{}
	var fights []fight
	if len(engaged) > 0 || s.rampaging() {
		fights = s.fights()
	}
	for _, f := range fights {
		o := none().roll(f.dice, float64(meleeWeapon(f.u).MeleeHit())/6).roll(f.bonus, 1.0/3)
		if meleeWeapon(f.u) == Tusks {
			o = o.tusks()
		}
		// A supporter's dice hit as its own melee weapon, and supporting
		// elephants triple their own hits (5.C, 8b).
		for _, sp := range f.supports {
			w := meleeWeapon(sp)
			so := none().roll(Dice(sp.Figures), float64(w.MeleeHit())/6)
			if w == Tusks {
				so = so.tusks()
			}
			o = o.and(so)
		}
		// Bloodthirsty kills are figures slain past the armor (§6).
		k := killed(f.opp, o, s.armor(f.opp, false)).plus(f.kills).upTo(f.opp.Figures)
		x.figures[f.opp.Side] += k.mean()
		lost[f.opp] = lost[f.opp].and(k)
		dealt[f.u] = dealt[f.u].and(k)
	}
	s.threats(&x, engaged)
	for i := range s.Units {
		u := &s.Units[i]
		l, ok := lost[u]
		if !ok || u.Status != Steady {
			continue
		}
		// A unit the melee may cut down to the last figure is a unit
		// lost toward the half that breaks its army, not only its
		// figures: counting only these, a unit of one or two figures
		// looked all but free to throw at a fresh enemy, and the bot
		// threw its spent cavalry at the enemy's again and again
		// (arena, seed 50020). What is left of it may still rout: a
		// unit that loses more figures than it kills has lost the melee
		// and checks morale (3.D).
		wiped := l.from(u.Figures)
		x.wiped[u.Side] += wiped
		losing := l.over(dealt[u])
		x.routs[u.Side] += (1 - wiped) * losing * routChance(u, s.leaderOf(u) != nil, float64(u.Figures)-l.mean())
	}
	return x
}

// rampaging reports whether elephants rampage on the table, who fight
// friends as well as foes (§3).
func (s *State) rampaging() bool {
	for i := range s.Units {
		if u := &s.Units[i]; u.In() && u.Status == Rampaging {
			return true
		}
	}
	return false
}

// engagedSet marks the units on the table that touch an enemy, locked
// in melee (5.A).
func (s *State) engagedSet() map[*Unit]bool {
	out := map[*Unit]bool{}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() {
			continue
		}
		for j := i + 1; j < len(s.Units); j++ {
			o := &s.Units[j]
			if o.Side != u.Side && o.In() && u.Base.Touches(o.Base) {
				out[u], out[o] = true, true
			}
		}
	}
	return out
}

// threatShare is how much of what a free charger threatens the bot
// counts as lost already: its card may come first, or the target's.
const threatShare = 0.5

// threats adds to x what each free charger threatens (1.D, 5.D): of the
// enemies within twice its move, the one its charge would cost most
// (the figures, and the rout of the melee's loser, 3.D),
// reckoned as the melee phase would fight it (its dice and bonus dice,
// a flank or rear bonus by the side of the target that faces it, less
// the target's armor), less what the target strikes back when the
// charge meets its front, it is free to answer, with friends within an
// inch supporting it (5.C). A routed target is captured (§3). So a unit
// left with its flank to an enemy's charge, or out of its line's
// support, counts as in danger before the blow falls.
func (s *State) threats(x *expectation, engaged map[*Unit]bool) {
	for i := range s.Units {
		e := &s.Units[i]
		if !e.In() || e.Status != Steady || !e.Class.CanCharge() || e.Effects.Still || engaged[e] {
			continue
		}
		reach := 2 * float64(s.civ(e.Side).Move(e.Class, Level))
		var target *Unit
		worst, worstRout, top := 0.0, 0.0, 0.0
		for _, u := range s.inPlay(e.Side.Other()) {
			if !e.Base.Near(u.Base, reach) {
				continue
			}
			side := u.Base.SideFacing(e.Base.Center)
			loss, rout := float64(u.Figures), 0.0
			if u.Status == Steady {
				hits := none().roll(Dice(e.Figures), float64(meleeWeapon(e).MeleeHit())/6).roll(s.chargeBonus(e, u, side), 1.0/3)
				k := killed(u, hits, s.armor(u, false))
				var struck odds
				if side == engine.Front && !engaged[u] {
					back := none().roll(Dice(u.Figures), float64(meleeWeapon(u).MeleeHit())/6).roll(s.chargeBonus(u, e, engine.Front), 1.0/3)
					for _, f := range s.inPlay(u.Side) {
						if f != u && f.Status == Steady && !f.Class.Siege() && f.Base.Near(u.Base, 1) && !engaged[f] {
							back = back.roll(Dice(f.Figures), float64(f.Weapon.MeleeHit())/6)
						}
					}
					struck = killed(e, back, s.armor(e, false))
				}
				loss = k.mean() - struck.mean()
				// The target that loses more than it kills checks
				// morale as the melee's loser (3.D).
				rout = k.over(struck) * routChance(u, s.leaderOf(u) != nil, float64(u.Figures)-k.mean())
			}
			// A routed unit counts half lost, as standing counts it.
			if w := loss + rout*float64(u.Figures)/2; w > top {
				target, worst, worstRout, top = u, loss, rout, w
			}
		}
		if target != nil {
			x.figures[target.Side] += threatShare * worst
			x.routs[target.Side] += threatShare * worstRout
		}
	}
}

// chargeBonus is u's bonus dice against opp when a charge brings them
// together with opp's side toward u (5.D): rear 2, flank 1, a spear on
// impact, a leader, horse against foot, phalanx, Templars or elephants,
// camels against horse, and the civilization's and events' dice.
func (s *State) chargeBonus(u, opp *Unit, side engine.Side) int {
	n := u.Effects.Bonus + s.civ(u.Side).ExtraBonusDice(u.Class, u.Weapon)
	switch side {
	case engine.Rear:
		n += 2
	case engine.Left, engine.Right:
		n++
	}
	if u.Weapon == Spear {
		n++
	}
	if s.leaderOf(u) != nil {
		n++
	}
	if u.Class.Mounted() && u.Class != Camelry && !opp.Class.Mounted() {
		n++
	}
	if u.Class == Templar || u.Class == Phalanx || u.Class == Elephant {
		n++
	}
	if u.Class == Camelry && (opp.Class == Cavalry || opp.Class == LightCavalry) {
		n++
	}
	return n
}

// routChance is the chance that u routs on a morale check (§3: a total of
// 2 or less on a D6 with its base morale, +1 with a leader, −2 below half
// strength, +1 for Templars) with figs figures left.
func routChance(u *Unit, leader bool, figs float64) float64 {
	m := MoraleMod{Leader: leader, UnderHalf: 2*figs < float64(u.Start), Class: u.Class}
	n := 0
	for d := 1; d <= 6; d++ {
		if MoraleCheck(d, u.Morale, m) == Rout {
			n++
		}
	}
	return float64(n) / 6
}

// volley is what a shot promises: the figures the target may expect to
// lose, and the share of a unit it may expect to see routed by the
// morale check the losses call for (3.A).
type volley struct {
	figures, routs float64
}

// bestShot is the enemy u may hurt most with its shot now, and what the
// shot promises: the dice of each rank at its chance to hit (2.F, 2.H;
// the rear rank at a further +1, 2.B), less a hit the target's leader
// takes on a 6 (2.I) and its armor (2.J), and the rout the losses may
// bring on a unit in good order (3.A), counted at half the figures it
// has left, as standing counts a routed unit.
func (s *State) bestShot(u *Unit) (*Unit, volley) {
	var best *Unit
	var most volley
	top := 0.0
	_, long := s.civ(u.Side).Range(u.Weapon)
	for _, t := range s.inPlay(u.Side.Other()) {
		if !u.Base.Near(t.Base, float64(long)) {
			continue // out of range: aim would refuse it
		}
		sh, err := s.aim(u, t)
		if err != nil || t.Effects.Immune {
			continue
		}
		m := sh.mod.Sum()
		o := none().roll(sh.front, fireChance(sh.band, m)).roll(sh.back, fireChance(sh.band, m+1))
		armor := s.armor(t, true)
		leader := s.leaderOf(t) != nil
		l, hurt := lossTo(t, o, armor)
		if leader {
			// A 6 on the leader's die takes one hit on him (2.I).
			l2, hurt2 := lossTo(t, o, armor+1)
			l, hurt = l*5/6+l2/6, hurt*5/6+hurt2/6
		}
		v := volley{figures: l}
		if t.Status == Steady {
			v.routs = hurt * routChance(t, leader, float64(t.Figures)-l)
		}
		if worth := v.figures + v.routs*float64(t.Figures)/2; worth > top {
			best, most, top = t, v, worth
		}
	}
	return best, most
}

// closing is 1 when side's units in good order each stand at an enemy,
// falling toward 0 as they stand the table's depth away.
func (s *State) closing(side Side) float64 {
	depth := max(s.Options.Depth, 1)
	foes := s.inPlay(side.Other())
	if len(foes) == 0 {
		return 0
	}
	sum, n := 0.0, 0
	for _, u := range s.inPlay(side) {
		if u.Status != Steady || u.Class.Siege() {
			continue
		}
		sum += 1 - gapTo(u, foes, depth)/depth
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
