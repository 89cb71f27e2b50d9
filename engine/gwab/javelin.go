package gwab

import (
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// Javelins thrown from a chariot (8.6, 9.2, 9.3, 9.5, 9.6, 13.2): where
// on its drive the rider throws from, what may block the throw, and where
// the chariot takes on a fresh load behind its clan's warbands.

// planThrow checks a javelin thrown by the rider of ch during route r at
// target (8.6, 9.2, 9.3, 9.5, 9.6, 13.2). The throw is made from the point
// of the drive nearest the target at which the chariot touches no enemy. It
// returns the event (without its card), the thrower and who the javelin
// would wound. refill is where the drive first passes behind the clan's
// warbands and takes on a fresh load (-1 for nowhere).
func (s *State) planThrow(ch *Element, r route, target *Element, at string, refill float64) (JavelinThrown, *Element, *Element, error) {
	fail := func(rule, format string, args ...any) (JavelinThrown, *Element, *Element, error) {
		return JavelinThrown{}, nil, nil, engine.Refuse(rule, format, args...)
	}
	thrower := s.Element(ch.Rider)
	switch {
	case thrower == nil:
		return fail("9.2", "No Hero or Companion rides %s, and its driver cannot throw.", ch.Label())
	case !ch.Driver:
		return fail("9.2", "%s drives %s alone, with no charioteer, and so cannot throw.", thrower.Label(), ch.Label())
	}
	shotAt, victim, err := s.aim(target, at)
	if err != nil {
		return JavelinThrown{}, nil, nil, err
	}
	gone := r.crushedSet()
	switch {
	case shotAt.ID == ch.ID:
		return fail("9", "No one throws at his own chariot.")
	case gone[shotAt.ID]:
		return fail("8.8", "%s rides %s down on the way; there is nothing left to throw at.", ch.Label(), shotAt.Label())
	case !shotAt.inPlay():
		return fail("9", "%s is not in the fight.", shotAt.Label())
	case !s.Antagonists(ch.Clan, shotAt.Clan):
		if s.Clan(ch.Clan).Player == s.Clan(shotAt.Clan).Player {
			return fail("7.3", "%s belongs to your own other clan; a player's two clans never fight each other.", shotAt.Label())
		}
		return fail("9", "%s is not an enemy: missiles are thrown only at antagonist clans.", shotAt.Label())
	}
	if foe := s.engagedWith(shotAt); foe != nil {
		return fail("9.6", "%s is in melee with %s; no one throws into a melee.", shotAt.Label(), foe.Label())
	}
	total := r.path.length()
	// The point of the drive nearest the target at which the chariot does
	// not touch it. A chariot in contact with another enemy may still
	// throw: 9.6 forbids throwing into a melee, not out of one.
	best, bestGap := -1.0, math.Inf(1)
	var from engine.Base
	for d := 0.0; ; d = math.Min(d+pathStep, total) {
		b := r.path.at(d)
		if g := b.Gap(shotAt.Base); g > engine.ContactTolerance && g < bestGap-1e-9 {
			best, bestGap, from = d, g, b
		}
		if d >= total {
			break
		}
	}
	switch {
	case best < 0:
		return fail("9.6", "%s is in contact with %s all the way; no javelin is thrown into a melee.", ch.Label(), shotAt.Label())
	}
	if b := s.throwBlocker(ch, from, shotAt, gone); b != nil {
		return fail("9.1", "%s blocks the throw at %s.", b.Label(), shotAt.Label())
	}
	ev := JavelinThrown{Clan: ch.Clan, Chariot: ch.ID, ChariotLabel: ch.Label(), Thrower: thrower.ID, ThrowerLabel: thrower.Label(),
		Target: shotAt.ID, TargetLabel: shotAt.Label(), At: from.FrontCenter(), Distance: round1(bestGap), Long: bestGap > chariotShort}
	if load := s.Options.Javelins; load > 0 {
		thrown := int(ch.Thrown)
		if refill >= 0 && refill <= best {
			thrown = 0
		}
		if thrown >= load {
			return fail("13.2", "%s has thrown all %d of its javelins; it takes on more by passing behind its own warbands.", ch.Label(), load)
		}
		thrown++
		if refill > best {
			thrown = 0
		}
		ev.Thrown, ev.Load = thrown, load
	}
	return ev, thrower, victim, nil
}

// throwBlocker returns a stand in the way of a javelin from the chariot
// standing at from, or nil (9.1.1, 9.1.2): any stand of its own clan
// across the line, as for javelinmen, and any other nearer the target
// than the chariot.
func (s *State) throwBlocker(ch *Element, from engine.Base, target *Element, gone map[ElementID]bool) *Element {
	fc, tc := from.FrontCenter(), target.Base.Center
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.ID == ch.Rider || o.ID == target.ID || gone[o.ID] || o.Status != Standing || !o.Placed || !o.Base.BlocksLine(fc, tc) {
			continue
		}
		if o.Clan == ch.Clan || o.Base.Gap(target.Base) < o.Base.Gap(from) {
			return o
		}
	}
	return nil
}

// behindLine reports whether chariot ch standing at b is behind the line
// of its clan's warbands (13.2): across from one of its standing warbands
// along the table's edge, and wholly on its own side of it.
func (s *State) behindLine(ch *Element, b engine.Base) bool {
	cl := s.Clan(ch.Clan)
	if cl == nil {
		return false
	}
	bx0, bx1, by0, by1 := extent(b)
	for _, w := range s.ClanElements(ch.Clan) {
		if w.Kind != Warband || w.Status != Standing || !w.Placed {
			continue
		}
		wx0, wx1, wy0, wy1 := extent(w.Base)
		if math.Min(bx1, wx1)-math.Max(bx0, wx0) <= 1e-6 {
			continue
		}
		if cl.Side == Protagonist && by1 <= wy0+1e-6 || cl.Side == Antagonist && by0 >= wy1-1e-6 {
			return true
		}
	}
	return false
}

// extent is the box a base covers: its least and greatest x and y.
func extent(b engine.Base) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, c := range b.Corners() {
		x0, x1 = math.Min(x0, c.X), math.Max(x1, c.X)
		y0, y1 = math.Min(y0, c.Y), math.Max(y1, c.Y)
	}
	return
}

// refillAt is the first point of path at which the chariot is behind
// its warbands' line and takes on a fresh load (13.2), or -1.
func (s *State) refillAt(ch *Element, p drivePath) float64 {
	total := p.length()
	for d := 0.0; ; d = math.Min(d+pathStep, total) {
		if s.behindLine(ch, p.at(d)) {
			return d
		}
		if d >= total {
			return -1
		}
	}
}
