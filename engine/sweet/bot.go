package sweet

import (
	"math/rand/v2"
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead an army: the commands it could give in each
// stage, how good a position is for a side (points standing, Morale 4),
// and the other side's sealed melee choices drawn afresh, since it may
// not read them (Melee Procedure).

// candidates lists what player could do now: pick an army while the
// book musters; lay out the rest of his army in deployment; shoot each
// unit at each enemy in reach; roll first for each elephant with an enemy
// within a move, as movement begins; move each unit toward its nearest enemy
// (as far as it goes, half way, into its square to charge) or a square
// back; support each melee beside a unit; choose each indicator for each
// melee waiting on him; and /done, which ends his part of a stage.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	if s.Stage == Over {
		return nil
	}
	cmd := func(name string, opts ...string) engine.Command { return engine.NewCommand(player, name, opts...) }
	if s.Stage == Mustering {
		if _, ok := s.sideOf(player, South); ok {
			return nil
		}
		var out []engine.Command
		for _, k := range listKeys() {
			out = append(out, cmd("army pick", "list", k))
		}
		return out
	}
	side, err := s.actingSide(engine.Command{Actor: player})
	if err != nil {
		return nil
	}
	var out []engine.Command
	switch s.Stage {
	case Deploying:
		out = append(out, cmd("place", "unit", "all"))
	case Catapults, Missiles:
		out = s.shots(player, side)
	case Movement:
		if rolls := s.elephantRolls(player, side); len(rolls) > 0 {
			return rolls
		}
		out = s.moves(player, side)
	case Supports:
		out = s.supports(player, side)
	case Melees:
		for _, at := range s.waitingMelees(side) {
			for _, m := range mdiChoices() {
				out = append(out, cmd("mdi", "choice", m, "melee", at))
			}
		}
		return out
	}
	return append(out, cmd("done"))
}

// shots are each of side's units with a range shooting at each enemy in
// reach.
func (s *State) shots(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for i := range s.Units {
		u := &s.Units[i]
		r := u.Type.spec().Range
		if u.Side != side || !u.OnBoard() || u.Fired || r == 0 {
			continue
		}
		for j := range s.Units {
			e := &s.Units[j]
			if e.Side == side.Other() && e.OnBoard() && float64(engine.Chebyshev(u.At, e.At)) <= r {
				out = append(out, engine.NewCommand(player, "fire", "unit", string(u.ID), "at", e.At.String()))
			}
		}
	}
	return out
}

// elephantRolls are the rolls the bot asks for before anything moves, one
// for each of its elephants with an enemy within a move, so that any of
// them may charge (Charging and Melee 6).
func (s *State) elephantRolls(player engine.PlayerID, side Side) []engine.Command {
	var rolls []engine.Command
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == side && u.OnBoard() && !u.Moved && u.Type.Elephant() && !u.Rolled && !s.Ordered && s.enemyWithin(u, float64(u.Type.spec().Move)) {
			rolls = append(rolls, engine.NewCommand(player, "elephant", "unit", string(u.ID)))
		}
	}
	return rolls
}

// moves are each of side's units that has not moved going to each of its
// moveTargets.
func (s *State) moves(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.OnBoard() || u.Moved {
			continue
		}
		for _, to := range s.moveTargets(u) {
			out = append(out, engine.NewCommand(player, "move", "unit", string(u.ID), "to", to.String()))
		}
	}
	return out
}

// supports are each of side's units supporting each melee beside it.
func (s *State) supports(player engine.PlayerID, side Side) []engine.Command {
	var out []engine.Command
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.OnBoard() {
			continue
		}
		for _, m := range s.Melees {
			if !m.Resolved && engine.Chebyshev(u.At, m.At) == 1 {
				out = append(out, engine.NewCommand(player, "support", "unit", string(u.ID), "melee", m.At.String()))
			}
		}
	}
	return out
}

// moveTargets are the squares the bot tries for u: toward the nearest
// enemy unit its full move and half of it, into that enemy's square (a
// charge), and one square back toward its own edge.
func (s *State) moveTargets(u *Unit) []engine.Square {
	var foe *Unit
	for i := range s.Units {
		e := &s.Units[i]
		if e.Side == u.Side.Other() && e.OnBoard() && (foe == nil || engine.Chebyshev(u.At, e.At) < engine.Chebyshev(u.At, foe.At)) {
			foe = e
		}
	}
	out := []engine.Square{}
	if back := u.At.Step(u.Side.Back()); s.onBoard(back) {
		out = append(out, back)
	}
	if foe == nil {
		return out
	}
	line := engine.SquareLine(u.At, foe.At)
	move := u.Type.spec().Move
	for _, k := range []int{move / 2, move} {
		if k > 0 && k < len(line)-1 {
			out = append(out, line[k])
		}
	}
	if len(line)-1 <= move {
		out = append(out, foe.At)
		if len(line) > 2 {
			out = append(out, line[len(line)-2])
		}
	}
	return out
}

// evaluate scores the points standing (Morale 4): a finished game is
// won, lost or drawn as its end said (State.Winner); a running one is
// the share of the points standing that is player's, from -1 to 1, with a touch for closing on
// the enemy, so that a bot with nothing to shoot advances.
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.Armies) < 2 {
		return 0
	}
	side, ok := s.sideOf(player, s.Attacker)
	if !ok {
		return 0
	}
	if s.Stage == Over {
		switch s.Winner {
		case side:
			return 1
		case side.Other():
			return -1
		}
		return 0
	}
	mine, theirs := float64(s.standing(side)), float64(s.standing(side.Other()))
	// The melees waiting to be fought are counted as already fought, at
	// the losses each side may expect from them, so that a charge into a
	// square the enemy can support three to one is seen for what it is
	// before a look-ahead reaches its end.
	stake := s.meleeStakes()
	mine, theirs = max(0, mine-stake[side]), max(0, theirs-stake[side.Other()])
	if mine+theirs == 0 {
		return 0
	}
	share := (mine - theirs) / (mine + theirs)
	return 0.9*share + 0.1*s.closing(side)
}

// meleeStakes returns the points standing each side may expect to lose
// in the melees not yet fought (Melee Procedure): each side's strength
// in a melee is its units there and the supports it has declared, and
// while it may still declare them, the units that could support it, each
// counted in one melee only (see allot); an indicator already laid
// counts as laid, one still to come as any of the six alike. A side
// destroyed loses all it fights with; one that loses part of its
// strength loses that share of its units' points.
func (s *State) meleeStakes() [2]float64 {
	var stake [2]float64
	var open []*Melee
	for i := range s.Melees {
		if m := &s.Melees[i]; !m.Resolved {
			open = append(open, m)
		}
	}
	memo := map[UnitID]bool{}
	forces := s.allot(open, memo)
	for k, m := range open {
		var choices [2][]MDI
		for side := South; side <= North; side++ {
			choices[side] = MDIs
			if m.Choice[side] != NoMDI {
				choices[side] = []MDI{m.Choice[side]}
			}
		}
		st := s.meleeStake(m, forces[k], choices, memo)
		stake[South] += st[South]
		stake[North] += st[North]
	}
	return stake
}

// allot gives each open melee the units each side fights it with: its
// fighters (those in the contact square and the supports declared) and,
// while the side may still declare supports, the units that could
// support it. No unit fights in two melees a turn (Charging and Melee
// 2), so a unit beside several open melees is counted in one: the one
// where it most improves what its side may expect, given the units
// shared out before it, the attacker's first since he declares first
// (Turn Sequence 3, 4). Counted in each, a commander beside three
// charges would be worth three supports.
func (s *State) allot(open []*Melee, memo map[UnitID]bool) [][2][]*Unit {
	forces := make([][2][]*Unit, len(open))
	for k, m := range open {
		forces[k] = [2][]*Unit{s.fighters(m, South), s.fighters(m, North)}
	}
	all := [2][]MDI{MDIs, MDIs}
	gain := func(k int, side Side) float64 {
		st := s.meleeStake(open[k], forces[k], all, memo)
		return st[side.Other()] - st[side]
	}
	for _, side := range []Side{s.Attacker, s.Attacker.Other()} {
		var many []*Unit
		var where [][]int
		for j := range s.Units {
			u := &s.Units[j]
			if u.Side != side || !u.OnBoard() {
				continue
			}
			var ks []int
			for k, m := range open {
				if s.maySupport(m, side) && engine.Chebyshev(u.At, m.At) == 1 && !slices.Contains(forces[k][side], u) && s.canSupport(u, m) == nil {
					ks = append(ks, k)
				}
			}
			switch len(ks) {
			case 0:
			case 1:
				forces[ks[0]][side] = append(forces[ks[0]][side], u)
			default:
				many, where = append(many, u), append(where, ks)
			}
		}
		for i, u := range many {
			best, bestGain := -1, 0.0
			for _, k := range where[i] {
				before := gain(k, side)
				forces[k][side] = append(forces[k][side], u)
				if d := gain(k, side) - before; best < 0 || d > bestGain {
					best, bestGain = k, d
				}
				forces[k][side] = forces[k][side][:len(forces[k][side])-1]
			}
			forces[best][side] = append(forces[best][side], u)
		}
	}
	return forces
}

// meleeStake is what each side may expect to lose in melee m, fought by
// units, each side choosing any of its choices alike (see meleeStakes);
// memo keeps which units have no way back (see noWayBack).
// A unit with no way back (enemies or impassable ground behind it) is
// lost whole if its side must retreat. A catapult in the contact square
// does not fight, but a side destroyed there leaves it to the other, who
// takes it if any of its own survive (Melee Procedure): then what one
// side loses the other gains, and the captor's stake falls by as much.
func (s *State) meleeStake(m *Melee, units [2][]*Unit, choices [2][]MDI, memo map[UnitID]bool) [2]float64 {
	var pts, worth, trapped, engines, stake [2]float64
	for side := South; side <= North; side++ {
		stands := map[UnitID]int{}
		for _, u := range units[side] {
			stands[u.ID] = u.Stands
			w := float64(u.Stands * u.Type.spec().Points)
			worth[side] += w
			if s.noWayBack(u, memo) {
				trapped[side] += w
			}
		}
		pts[side] = s.points(m, side, units[side], stands)
	}
	for _, u := range s.At(m.At) {
		if u.Type.IsCatapult() && u.Side != Nobody {
			engines[u.Side] += float64(u.Stands * u.Type.spec().Points)
		}
	}
	n := float64(len(choices[South]) * len(choices[North]))
	for _, a := range choices[South] {
		for _, b := range choices[North] {
			v := Judge(a, b)
			l := Losses(v, pts)
			after := [2]float64{pts[South] - l[South], pts[North] - l[North]}
			retreat, destroyed := Outcome(v, pts, after)
			for side := South; side <= North; side++ {
				if destroyed[side] {
					stake[side] += (worth[side] + engines[side]) / n
					if !destroyed[side.Other()] {
						stake[side.Other()] -= engines[side] / n
					}
					continue
				}
				lost := 0.0
				if pts[side] > 0 {
					lost = l[side] / pts[side]
				}
				stake[side] += worth[side] * lost / n
				if retreat[side] {
					stake[side] += trapped[side] * (1 - lost) / n
				}
			}
		}
	}
	return stake
}

// noWayBack reports whether u, retreating from a melee now, would be
// stopped by enemies or impassable ground (Melee Procedure), remembering
// the answer in memo: a score asks it of the same units many times.
func (s *State) noWayBack(u *Unit, memo map[UnitID]bool) bool {
	v, ok := memo[u.ID]
	if !ok {
		_, _, v = s.fallBack(u, 2, true, nil)
		memo[u.ID] = v
	}
	return v
}

// blend weighs the bot's indicators for a melee (Melee Procedure): the
// two sides lay them at once, so the bot plays the mix that no answer
// beats, found by regret matching on what each pair of indicators is
// expected to cost each side, whatever the other side laid. It weighs the
// first melee the candidates name; the others wait for their own turn.
//
// While the book musters it weighs the sample lists alike: each is worth
// the same points (Sample Army Compositions), and a bot that always led
// the same army would be a dull opponent, so it draws one.
func blend(s *State, player engine.PlayerID, cands []engine.Command) []float64 {
	if s.Stage == Mustering {
		w := make([]float64, len(cands))
		for k, c := range cands {
			if c.Name == "army pick" {
				w[k] = 1
			}
		}
		return w
	}
	if s.Stage != Melees || len(cands) == 0 || cands[0].Name != "mdi" {
		return nil
	}
	side, ok := s.sideOf(player, s.Attacker)
	if !ok {
		return nil
	}
	at := cands[0].Options["melee"]
	i := slices.IndexFunc(s.Melees, func(m Melee) bool { return !m.Resolved && m.At.String() == at })
	if i < 0 {
		return nil
	}
	m := &s.Melees[i]
	memo := map[UnitID]bool{}
	units := s.allot([]*Melee{m}, memo)[0]
	// pay[a][b] is what side gains when it lays MDIs[a] and the other
	// side MDIs[b].
	var pay [6][6]float64
	for a, x := range MDIs {
		for b, y := range MDIs {
			var ch [2][]MDI
			ch[side], ch[side.Other()] = []MDI{x}, []MDI{y}
			st := s.meleeStake(m, units, ch, memo)
			pay[a][b] = st[side.Other()] - st[side]
		}
	}
	mix := equilibrium(pay)
	w := make([]float64, len(cands))
	for k, c := range cands {
		if c.Name != "mdi" || c.Options["melee"] != at {
			continue
		}
		if x, ok := parseMDI(c.Options["choice"]); ok {
			w[k] = mix[slices.Index(MDIs, x)]
		}
	}
	return w
}

// equilibrium returns the row player's mix in the zero-sum game pay (the
// row's gain), by regret matching for both players over a fixed number of
// rounds: the average of the mixes played comes near the equilibrium.
func equilibrium(pay [6][6]float64) [6]float64 {
	var regret, avg [2][6]float64
	mix := func(r [6]float64) [6]float64 {
		var p [6]float64
		sum := 0.0
		for i, v := range r {
			p[i] = max(v, 0)
			sum += p[i]
		}
		for i := range p {
			if sum > 0 {
				p[i] /= sum
			} else {
				p[i] = 1.0 / 6
			}
		}
		return p
	}
	for range 2000 {
		row, col := mix(regret[0]), mix(regret[1])
		var ur, uc [6]float64
		vr := 0.0
		for a := range 6 {
			for b := range 6 {
				ur[a] += pay[a][b] * col[b]
				uc[b] -= pay[a][b] * row[a]
			}
			vr += row[a] * ur[a]
		}
		for k := range 6 {
			regret[0][k] = max(0, regret[0][k]+ur[k]-vr)
			regret[1][k] = max(0, regret[1][k]+uc[k]+vr)
			avg[0][k] += row[k]
		}
	}
	return mix(avg[0])
}

// maySupport reports whether side may still declare supports for m: in
// movement both sides may, in the supports stage the side declaring and
// the defender after the attacker (Turn Sequence 3, 4).
func (s *State) maySupport(m *Melee, side Side) bool {
	switch s.Stage {
	case Movement:
		return true
	case Supports:
		return side == s.Supporting || s.Supporting == s.Attacker
	}
	return false
}

// closing is 1 when every unit of side on the board stands beside an
// enemy, falling toward 0 as they stand a board's width away.
func (s *State) closing(side Side) float64 {
	width := float64(max(s.Options.Cols, s.Options.Rows, 1))
	sum, n := 0.0, 0
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side || !u.OnBoard() {
			continue
		}
		near := width
		for j := range s.Units {
			e := &s.Units[j]
			if e.Side == side.Other() && e.OnBoard() {
				near = min(near, float64(engine.Chebyshev(u.At, e.At)))
			}
		}
		sum += 1 - near/width
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// conceal returns a copy of st in which every indicator the other side
// has laid face down for a melee not yet resolved is drawn afresh: the
// bot knows that one was laid, not which.
func conceal(s *State, player engine.PlayerID, r *rand.Rand) *State {
	c := engine.Copy(s)
	for i := range c.Melees {
		m := &c.Melees[i]
		if m.Resolved {
			continue
		}
		for side := South; side <= North; side++ {
			if a := c.army(side); a != nil && a.Player != player && m.Choice[side] != NoMDI {
				m.Choice[side] = MDIs[r.IntN(len(MDIs))]
			}
		}
	}
	return c
}
