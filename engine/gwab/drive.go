package gwab

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The geometry of a chariot's drive (8.4, 8.5): the path it takes across
// the table, what it runs down or is stopped by on the way (8.6, 13.1),
// and whether its driver's budget of strides covers it.

// drivePath is a chariot's way across the table (8.4): a wheel about a
// front corner, a straight run (backwards when negative, 8.5), and a last
// wheel. A wheel is measured by the arc of the outer front corner.
type drivePath struct {
	start engine.Base
	wheel float64 // degrees, positive to the right
	run   float64 // strides
	turn  float64 // degrees, positive to the right
}

func (p drivePath) arc1() float64           { return p.start.WheelDistance(p.wheel) }
func (p drivePath) arc2() float64           { return p.start.WheelDistance(p.turn) }
func (p drivePath) length() float64         { return p.arc1() + math.Abs(p.run) + p.arc2() }
func (p drivePath) afterWheel() engine.Base { return p.start.Wheel(p.wheel) }

func (p drivePath) afterRun() engine.Base {
	b := p.afterWheel()
	return b.WithCenter(b.Center.Add(b.Facing.Vec().Scale(p.run)))
}

func (p drivePath) end() engine.Base { return p.afterRun().Wheel(p.turn) }

// at is the chariot's base when it has gone d strides along the path.
func (p drivePath) at(d float64) engine.Base {
	if a := p.arc1(); d < a {
		return p.start.Wheel(p.wheel * d / a)
	} else {
		d -= a
	}
	b := p.afterWheel()
	if r := math.Abs(p.run); d < r {
		return b.WithCenter(b.Center.Add(b.Facing.Vec().Scale(math.Copysign(d, p.run))))
	} else {
		d -= r
	}
	b = p.afterRun()
	a := p.arc2()
	if a == 0 {
		return b
	}
	return b.Wheel(p.turn * math.Min(d/a, 1))
}

// wheelToward finds the wheel after which point p lies straight ahead of
// the chariot's front centre, the cheaper if there are two, and the run
// that then reaches p. It reports false when no wheel does.
func wheelToward(b engine.Base, p engine.Vec) (deg, run float64, ok bool) {
	if b.FrontCenter().Dist(p) < 1e-9 {
		return 0, 0, true
	}
	off := func(deg float64) (float64, bool) {
		w := b.Wheel(deg)
		fc := w.FrontCenter()
		return w.Facing.Diff(engine.HeadingTo(fc, p)), p.Sub(fc).Dot(w.Facing.Vec()) > 0
	}
	best := math.Inf(1)
	consider := func(d float64) {
		w := b.Wheel(d)
		r := w.FrontCenter().Dist(p)
		if cost := b.WheelDistance(d) + r; cost < best-1e-9 {
			best, deg, run, ok = cost, d, r, true
		}
	}
	// Wheels of more than a half turn are allowed: a point close behind
	// the chariot is reached no other way.
	const step, most = 0.5, 360.0
	prevD := -most
	prevV, prevAhead := off(prevD)
	for d := -most + step; d <= most+1e-9; d += step {
		v, ahead := off(d)
		switch {
		case ahead && v == 0:
			consider(d)
		case ahead && prevAhead && prevV*v < 0 && math.Abs(prevV-v) < 90:
			lo, hi := prevD, d
			for i := 0; i < 60; i++ {
				mid := (lo + hi) / 2
				if mv, _ := off(mid); (mv < 0) == (prevV < 0) {
					lo = mid
				} else {
					hi = mid
				}
			}
			consider((lo + hi) / 2)
		}
		prevD, prevV, prevAhead = d, v, ahead
	}
	if ok && math.Abs(deg) < 1e-6 {
		deg, run = 0, b.FrontCenter().Dist(p)
	}
	return deg, run, ok
}

// pathFor turns an order into the path it asks for, and reports whether
// the run stops at whatever it meets (toward:) rather than being refused.
func (s *State) pathFor(ch *Element, o order, budget float64) (drivePath, bool, error) {
	p := drivePath{start: ch.Base}
	clamp := false
	switch {
	case o.back:
		p.run = -backStride
	case o.to != nil:
		deg, run, ok := wheelToward(ch.Base, *o.to)
		if !ok {
			return p, false, engine.Refuse("8.4", "No wheel of %s leaves %s straight ahead of it; wheel first with facing:, then drive.", ch.Label(), *o.to)
		}
		p.wheel, p.run = deg, run
	case o.toward != nil:
		deg, _, ok := wheelToward(ch.Base, o.toward.Base.Center)
		if !ok {
			return p, false, engine.Refuse("8.4", "No wheel of %s brings it to face %s; wheel first with facing:.", ch.Label(), o.toward.Label())
		}
		p.wheel, clamp = deg, true
	}
	if o.facing != nil {
		p.turn = p.afterWheel().Facing.Diff(*o.facing)
	}
	if o.toward != nil {
		p.run = o.strides
		if p.run == 0 {
			p.run = math.Max(budget-p.arc1()-p.arc2(), 0)
		}
	}
	return p, clamp, nil
}

// route is a drive as the table allows it.
type route struct {
	path drivePath
	// halt says why the chariot stopped short of, or went on past, where
	// it was sent.
	halt    string
	crushed []crush
}

// crush is a skirmish stand ridden down at distance at along the drive.
type crush struct {
	el *Element
	at float64
}

func (r route) crushedSet() map[ElementID]bool {
	m := map[ElementID]bool{}
	for _, k := range r.crushed {
		m[k.el.ID] = true
	}
	return m
}

// planDrive checks path against the table and works out where the drive
// really ends (8, 13.1): wheels may strike nothing, not even the chariot's
// own stands, nor swing onto terrain; the straight run passes through its
// own clan's stands and halts beyond them (8.3), halts at the bank of a
// stream, or crosses one it stands at and halts on the far bank (13.1.2);
// another clan's stand, ground a chariot may not enter, or the table's
// edge stop it (when clamp is set) or refuse the drive. Other clans'
// skirmishers on the way are ridden down (8.8).
func (s *State) planDrive(ch *Element, p drivePath, budget float64, clamp bool) (route, error) {
	own, solid, prey := s.driveCompany(ch)
	r := route{path: p}
	if p.wheel != 0 {
		if err := s.checkWheel(ch, p.start, p.wheel, append(slices.Clone(solid), own...)); err != nil {
			return r, err
		}
		r.crushWheel(p.start, p.wheel, 0, prey)
	}

	// The straight run.
	run := newStraightRun(p, budget)
	hard := s.hardStop(ch, run, solid)
	end, halt, trigger, err := s.runHalt(ch, p, run, own, budget)
	if err != nil {
		return r, err
	}
	if hard.at < end-1e-6 {
		// A place typed a hair past first contact stops in contact, as
		// a foot move does.
		if hard.rule == "8.8" && halt == "" && end-hard.at <= engine.ContactTolerance {
			clamp = true
		}
		if !clamp || hard.at > trigger {
			return r, engine.Refuse(hard.rule, "%s", hard.refusal)
		}
		end, halt = hard.at, hard.halt
	}
	r.path.run = run.sign * end
	r.halt = halt
	if end > 0 {
		for _, k := range prey {
			if r.crushedSet()[k.ID] {
				continue
			}
			if f, hit := run.b0.Sweep(run.at(end).Center, k.Base); hit >= 0 {
				r.crushed = append(r.crushed, crush{el: k, at: p.arc1() + f*end})
			}
		}
	}

	// The last wheel.
	if r.path.turn != 0 {
		if r.halt != "" {
			return r, engine.Refuse("8.4", "%s %s; it cannot then wheel to face %s.", ch.Label(), strings.TrimSuffix(lowerFirst(strings.TrimPrefix(r.halt, "It ")), "."), r.path.end().Facing)
		}
		if err := s.checkWheel(ch, r.path.afterRun(), r.path.turn, append(slices.Clone(solid), own...)); err != nil {
			return r, err
		}
		r.crushWheel(r.path.afterRun(), r.path.turn, r.path.arc1()+end, prey)
	}

	slices.SortStableFunc(r.crushed, func(a, b crush) int { return cmpFloat(a.at, b.at) })
	return r, s.checkDriveEnd(ch, r)
}

// driveCompany sorts the stands a drive of ch may meet: its own clan's,
// which it may pass through (8.3); the skirmishers it rides down (8.6);
// and the solid ones that stop it (8.8).
func (s *State) driveCompany(ch *Element) (own, solid, prey []*Element) {
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.ID == ch.Rider || o.Status != Standing || !o.Placed {
			continue
		}
		switch {
		case o.Clan == ch.Clan:
			own = append(own, o)
		case o.Kind == Warband && o.Weapon.Skirmisher():
			prey = append(prey, o)
		default:
			solid = append(solid, o)
		}
	}
	return own, solid, prey
}

// straightRun is the straight part of a drive: from b0, after the first
// wheel, want strides forward (sign 1) or back (sign -1), and as far as
// reach when the run may be carried on to clear a stand or a stream.
type straightRun struct {
	b0          engine.Base
	sign        float64
	want, reach float64
	dir         engine.Vec
}

func newStraightRun(p drivePath, budget float64) straightRun {
	b0 := p.afterWheel()
	sign := 1.0
	if p.run < 0 {
		sign = -1
	}
	want := math.Abs(p.run)
	reach := want
	if p.run > 0 {
		reach = math.Max(want, budget-p.arc1())
	}
	return straightRun{b0: b0, sign: sign, want: want, reach: reach, dir: b0.Facing.Vec().Scale(sign)}
}

// at is where the chariot stands d strides along the run.
func (r straightRun) at(d float64) engine.Base {
	return r.b0.WithCenter(r.b0.Center.Add(r.dir.Scale(d)))
}

// driveStop is a point of the run the chariot may not pass: the refusal
// for a drive ordered past it, and what is said when the drive halts
// there instead.
type driveStop struct {
	at            float64
	refusal, rule string
	halt          string
}

// hardStop is the first point of the run that stops the chariot: a solid
// stand (8.8), ground it may not cross (13.1.1), or the table's edge.
func (s *State) hardStop(ch *Element, run straightRun, solid []*Element) driveStop {
	hard := driveStop{at: math.Inf(1)}
	if run.reach <= 0 {
		return hard
	}
	reach, runAt := run.reach, run.at
	if f, hit := run.b0.Sweep(runAt(reach).Center, bases(solid)...); hit >= 0 {
		hard = driveStop{at: f * reach, rule: "8.8",
			refusal: fmt.Sprintf("%s would run into %s; a chariot rides down only skirmishers.", ch.Label(), solid[hit].Label())}
	}
	if before, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return s.barring(b) != nil }); found && before < hard.at {
		f := s.barring(runAt(after))
		verb := "enter"
		if f.Kind == Obstacle {
			verb = "cross"
		}
		hard = driveStop{at: before, rule: "13.1.1", refusal: fmt.Sprintf("Chariots may not %s %s.", verb, f.Name()),
			halt: fmt.Sprintf("It halts at the edge of %s (13.1.1).", f.Name())}
	}
	if before, _, found := scan(0, reach, runAt, func(b engine.Base) bool { return !s.Board.holds(b) }); found && before < hard.at {
		hard = driveStop{at: before, rule: "8", refusal: fmt.Sprintf("That would take %s off the table.", ch.Label()),
			halt: "It halts at the table's edge."}
	}
	return hard
}

// runHalt finds what makes the chariot halt on its run: the first of a
// stream's bank (13.1.2), a stream it is crossing, and its own stands
// (8.3). It returns where the run ends, what is said of the halt, and
// where the halt was set off (infinite when nothing halts it).
func (s *State) runHalt(ch *Element, p drivePath, run straightRun, own []*Element, budget float64) (end float64, halt string, trigger float64, err error) {
	want, reach, runAt, b0 := run.want, run.reach, run.at, run.b0
	end, trigger = want, math.Inf(1)
	var streams, crossing []*Feature
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.Kind == Stream {
			if f.touches(p.start) && f.touches(b0) {
				crossing = append(crossing, f)
			} else {
				streams = append(streams, f)
			}
		}
	}
	if reach <= 0 {
		return end, halt, trigger, nil
	}
	if before, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return onAny(b, streams) != nil }); found && before < want-1e-6 && before < trigger {
		f := onAny(runAt(after), streams)
		end, trigger, halt = before, before, fmt.Sprintf("It halts at the bank of %s, to cross on its next drive (13.1.2).", f.Name())
	}
	if _, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return onAny(b, crossing) != nil }); found && after < want-1e-6 && after < trigger {
		f := onAny(runAt(after), crossing)
		_, out, clear := scan(after, reach, runAt, func(b engine.Base) bool { return !f.on(b) })
		if !clear {
			return end, halt, trigger, engine.Refuse("13.1.2", "%s cannot get across %s within its %s.", ch.Label(), f.Name(), strideText(budget))
		}
		end, trigger, halt = out, after, fmt.Sprintf("It crosses %s and halts on the far bank (13.1.2).", f.Name())
	}
	if f, hit := b0.Sweep(runAt(reach).Center, bases(own)...); hit >= 0 && f*reach < want-1e-6 && f*reach < trigger {
		in := f * reach
		ownBases := bases(own)
		_, out, clear := scan(in+1e-4, reach, runAt, func(b engine.Base) bool { return !overlapsExactly(b, ownBases) })
		if !clear {
			return end, halt, trigger, engine.Refuse("8.3", "%s cannot clear %s within its %s; a chariot that drives through its own stands halts beyond them.", ch.Label(), own[hit].Label(), strideText(budget))
		}
		var names []string
		for _, o := range own {
			if _, h := b0.Sweep(runAt(out).Center, o.Base); h >= 0 {
				names = append(names, o.Label())
			}
		}
		if len(names) > 0 {
			end, trigger, halt = out, in, fmt.Sprintf("It passes through %s and halts beyond (8.3).", engine.JoinAnd(names))
		}
	}
	return end, halt, trigger, nil
}

// checkDriveEnd refuses a drive that would end on another stand, on
// ground a chariot may not stand on, in a stream, or off the table.
func (s *State) checkDriveEnd(ch *Element, r route) error {
	fin := r.path.end()
	gone := r.crushedSet()
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID != ch.ID && o.ID != ch.Rider && o.Status == Standing && o.Placed && !gone[o.ID] && fin.Clashes(o.Base) {
			return engine.Refuse("8.3", "%s cannot end its drive on top of %s.", ch.Label(), o.Label())
		}
	}
	if f := s.barring(fin); f != nil {
		return engine.Refuse("13.1.1", "Chariots may not stand on %s.", f.Name())
	}
	if f := onAny(fin, s.streams()); f != nil {
		return engine.Refuse("13.1.2", "%s cannot end its drive in %s.", ch.Label(), f.Name())
	}
	if !s.Board.holds(fin) {
		return engine.Refuse("8", "That would take %s off the table.", ch.Label())
	}
	return nil
}

// checkWheel refuses a wheel of deg from base from that would strike one
// of others, swing onto terrain, or swing off the table (8.4, 13.1).
func (s *State) checkWheel(ch *Element, from engine.Base, deg float64, others []*Element) error {
	if _, hit := from.SweepWheel(deg, bases(others)...); hit >= 0 {
		return engine.Refuse("8.4", "Wheeling %s, %s would strike %s.", angleText(deg), ch.Label(), others[hit].Label())
	}
	arc := from.WheelDistance(deg)
	at := func(d float64) engine.Base { return from.Wheel(deg * d / arc) }
	if _, after, found := scan(0, arc, at, func(b engine.Base) bool { return s.terrainUnder(b) != nil }); found {
		return engine.Refuse("13.1", "Wheeling %s, %s would swing onto %s.", angleText(deg), ch.Label(), s.terrainUnder(at(after)).Name())
	}
	if _, _, found := scan(0, arc, at, func(b engine.Base) bool { return !s.Board.holds(b) }); found {
		return engine.Refuse("8", "Wheeling %s, %s would swing off the table.", angleText(deg), ch.Label())
	}
	return nil
}

// crushWheel adds the skirmishers a wheel of deg from base from passes
// over, the wheel beginning at distance d0 of the drive.
func (r *route) crushWheel(from engine.Base, deg, d0 float64, prey []*Element) {
	gone := r.crushedSet()
	for _, k := range prey {
		if gone[k.ID] {
			continue
		}
		if f, hit := from.SweepWheel(deg, k.Base); hit >= 0 {
			r.crushed = append(r.crushed, crush{el: k, at: d0 + f*from.WheelDistance(deg)})
		}
	}
}

// terrainUnder returns the first feature base b stands on, or nil.
func (s *State) terrainUnder(b engine.Base) *Feature {
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.on(b) {
			return f
		}
	}
	return nil
}

func (s *State) streams() []*Feature {
	var out []*Feature
	for i := range s.Terrain {
		if s.Terrain[i].Kind == Stream {
			out = append(out, &s.Terrain[i])
		}
	}
	return out
}

// onAny returns the first of fs that base b stands on, or nil.
func onAny(b engine.Base, fs []*Feature) *Feature {
	for _, f := range fs {
		if f.on(b) {
			return f
		}
	}
	return nil
}

// scan walks d from lo to hi in steps of pathStep and finds where pred
// first holds of at(d), then narrows it by halving: before is the last
// distance seen where pred does not hold, after the first where it does.
func scan(lo, hi float64, at func(float64) engine.Base, pred func(engine.Base) bool) (before, after float64, found bool) {
	if pred(at(lo)) {
		return lo, lo, true
	}
	if !(hi > lo) {
		return hi, hi, false
	}
	prev := lo
	for d := lo; d < hi; {
		d = math.Min(d+pathStep, hi)
		if pred(at(d)) {
			a, b := prev, d
			for b-a > 1e-7 {
				m := (a + b) / 2
				if pred(at(m)) {
					b = m
				} else {
					a = m
				}
			}
			return a, b, true
		}
		prev = d
	}
	return hi, hi, false
}

// overlapsExactly reports whether b overlaps any of others at all.
func overlapsExactly(b engine.Base, others []engine.Base) bool {
	for _, o := range others {
		if b.Overlaps(o) {
			return true
		}
	}
	return false
}

func bases(els []*Element) []engine.Base {
	out := make([]engine.Base, len(els))
	for i, e := range els {
		out[i] = e.Base
	}
	return out
}

func overBudget(ch *Element, r route, budget float64, mounted *Mounted) error {
	var parts []string
	p := r.path
	if p.wheel != 0 {
		parts = append(parts, fmt.Sprintf("wheeling %s costs %s", angleText(p.wheel), strideText(p.arc1())))
	}
	if p.run != 0 {
		parts = append(parts, fmt.Sprintf("the run %s", strideText(math.Abs(p.run))))
	}
	if p.turn != 0 {
		parts = append(parts, fmt.Sprintf("the last wheel of %s %s", angleText(p.turn), strideText(p.arc2())))
	}
	has := fmt.Sprintf("%s has %s", ch.Label(), strideText(budget))
	rule := "8.4"
	if mounted != nil {
		has += fmt.Sprintf(" left once %s has mounted", mounted.FigureLabel)
		rule = "8.2.1"
	}
	why := ""
	if r.halt != "" {
		why = " " + r.halt
	}
	return engine.Refuse(rule, "%s; %s: %s in all.%s", has, engine.JoinAnd(parts), strideText(p.length()), why)
}
