package sweet

import (
	"math/rand/v2"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead an army: the commands it could give in each
// stage, how good a position is for a side (points standing, Morale 4),
// and the other side's sealed melee choices drawn afresh, since it may
// not read them (Melee Procedure).

// candidates lists what player could do now: pick an army while the
// book musters; lay out the rest of his army in deployment; shoot each
// unit at each enemy in reach; move each unit toward its nearest enemy
// (as far as it goes, half way, into its square to charge) or a square
// back; support each melee beside a unit; choose each indicator for each
// melee waiting on him; and /done, which ends his part of a stage.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	if s.Stage == Over {
		return nil
	}
	cmd := func(name string, opts ...string) engine.Command {
		c := engine.Command{Actor: player, Name: name, Options: map[string]string{}}
		for i := 0; i+1 < len(opts); i += 2 {
			c.Options[opts[i]] = opts[i+1]
		}
		return c
	}
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
	done := cmd("done")
	var out []engine.Command
	switch s.Stage {
	case Deploying:
		out = append(out, cmd("place", "unit", "all"))
	case Catapults, Missiles:
		for i := range s.Units {
			u := &s.Units[i]
			r := u.Type.spec().Range
			if u.Side != side || !u.OnBoard() || u.Fired || r == 0 {
				continue
			}
			for j := range s.Units {
				e := &s.Units[j]
				if e.Side == side.Other() && e.OnBoard() && float64(engine.Chebyshev(u.At, e.At)) <= r {
					out = append(out, cmd("fire", "unit", string(u.ID), "at", e.At.String()))
				}
			}
		}
	case Movement:
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side != side || !u.OnBoard() || u.Moved {
				continue
			}
			for _, to := range s.moveTargets(u) {
				out = append(out, cmd("move", "unit", string(u.ID), "to", to.String()))
			}
		}
	case Supports:
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side != side || !u.OnBoard() {
				continue
			}
			for _, m := range s.Melees {
				if !m.Resolved && engine.Chebyshev(u.At, m.At) == 1 {
					out = append(out, cmd("support", "unit", string(u.ID), "melee", m.At.String()))
				}
			}
		}
	case Melees:
		for _, at := range s.waitingMelees(side) {
			for _, m := range mdiChoices() {
				out = append(out, cmd("mdi", "choice", m, "melee", at))
			}
		}
		return out
	}
	return append(out, done)
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
// won, lost or drawn on them; a running one is the share of the points
// standing that is player's, from -1 to 1, with a touch for closing on
// the enemy, so that a bot with nothing to shoot advances.
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.Armies) < 2 {
		return 0
	}
	side, ok := s.sideOf(player, s.Attacker)
	if !ok {
		return 0
	}
	mine, theirs := float64(s.standing(side)), float64(s.standing(side.Other()))
	if s.Stage == Over {
		switch {
		case strings.Contains(s.Result, s.armyName(side)+" conceding"):
			return -1
		case strings.Contains(s.Result, s.armyName(side.Other())+" conceding"):
			return 1
		case mine > theirs:
			return 1
		case mine < theirs:
			return -1
		}
		return 0
	}
	if mine+theirs == 0 {
		return 0
	}
	share := (mine - theirs) / (mine + theirs)
	return 0.9*share + 0.1*s.closing(side)
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
