package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Spending an impact (10.1.3). The loser of a number-card pairing is
// pushed back at least one stride, away from the victor and toward the
// nearest free stand of its own side beyond it when there is one; the
// victor's player spends the rest: more strides on the loser, one stride
// each pushing other antagonist stands of the melee away, or one stride
// each bringing his own clan's stands forward. A stand that cannot be
// pushed the whole way goes as far as it can and takes a wound instead.

// Shift is one stand moved by an impact.
type Shift struct {
	Element ElementID   `json:"element"`
	Label   string      `json:"label"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
	Strides int         `json:"strides"`
	Forward bool        `json:"forward,omitempty"`
	// Blocked is set when the stand could not go the whole way.
	Blocked bool `json:"blocked,omitempty"`
}

// ImpactSpent records how the victor spent an impact.
type ImpactSpent struct {
	Victor ElementID `json:"victor"`
	Shifts []Shift   `json:"shifts"`
}

func (ImpactSpent) Kind() string { return "gwab.impact-spent" }

func (b ImpactSpent) Apply(s *State) error {
	if s.Fight == nil || s.Fight.Impact == nil {
		return fmt.Errorf("gwab: no impact to spend")
	}
	for _, sh := range b.Shifts {
		el, err := s.mustElement(sh.Element)
		if err != nil {
			return err
		}
		el.Base = sh.To
	}
	s.Fight.Impact = nil
	s.Fight.Next++
	return nil
}

func spendImpact(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Fight == nil || s.Fight.Impact == nil {
		return engine.Refuse("10.1.3", "There is no impact to spend.")
	}
	imp := *s.Fight.Impact
	victor, target := s.Element(imp.Victor), s.Element(imp.Target)
	victorClan := s.Clan(victor.Clan)
	if victorClan.Player != c.Actor {
		return engine.Refuse("10.1.3", "The impact is %s to spend: %s won it.", owner(string(victorClan.Player)), victor.Label())
	}
	involved := map[ElementID]bool{}
	for _, p := range s.Fight.Pairings {
		involved[p.A], involved[p.B] = true, true
	}
	push, err := s.elementList(c.Opt("push"))
	if err != nil {
		return err
	}
	forward, err := s.elementList(c.Opt("forward"))
	if err != nil {
		return err
	}
	onTarget := imp.Strides - len(push) - len(forward)
	if onTarget < 1 {
		return engine.Refuse("10.1.3", "The impact is %d strides and the first must push %s back; that leaves %d for other stands, not %d.",
			imp.Strides, target.Label(), imp.Strides-1, len(push)+len(forward))
	}
	seen := map[ElementID]bool{target.ID: true}
	for _, el := range append(slices.Clone(push), forward...) {
		if seen[el.ID] {
			return engine.Refuse("10.1.3", "%s is named twice: each other stand takes at most one stride of an impact.", el.Label())
		}
		seen[el.ID] = true
	}
	for _, el := range push {
		switch {
		case !el.inPlay():
			return engine.Refuse("10.1.3", "%s is not in the fight.", el.Label())
		case !s.Antagonists(victor.Clan, el.Clan):
			return engine.Refuse("10.1.3", "Only antagonist stands are pushed back; %s is not %s enemy.", el.Label(), possessive(victorClan.Name))
		case !involved[el.ID]:
			return engine.Refuse("10.1.3", "%s took no part in this melee and cannot be pushed.", el.Label())
		}
	}
	for _, el := range forward {
		if !el.inPlay() || el.Clan != victor.Clan {
			return engine.Refuse("10.1.3", "Only stands of the %s come forward with this impact; %s is not one.", victorClan.Name, el.Label())
		}
	}

	ev := ImpactSpent{Victor: victor.ID}
	var wounded []*Element
	moved := map[ElementID]engine.Base{}
	where := func(el *Element) engine.Base {
		if b, ok := moved[el.ID]; ok {
			return b
		}
		return el.Base
	}
	shove := func(el *Element, strides int) {
		from := where(el)
		away := from.Center.Sub(victor.Base.Center).Unit()
		to, blocked := s.slide(el, from, away.Scale(float64(strides)), moved)
		// Away from the victor, and if it can be done, toward the
		// loser's own clan or its allies (10.1.3).
		if dir, ok := s.towardFriends(el, from, away, moved); ok {
			if t, b := s.slide(el, from, dir.Scale(float64(strides)), moved); !b || blocked {
				to, blocked = t, b
			}
		}
		moved[el.ID] = to
		ev.Shifts = append(ev.Shifts, Shift{Element: el.ID, Label: el.Label(), From: from, To: to, Strides: strides, Blocked: blocked})
		if blocked {
			wounded = append(wounded, el)
		}
	}
	shove(target, onTarget)
	for _, el := range push {
		shove(el, 1)
	}
	for _, el := range forward {
		from := where(el)
		// A stand that fought comes forward toward the nearest enemy it
		// fought, to keep the melee going; any other straight ahead.
		dir := from.Facing.Vec()
		if foe := s.nearestFoughtFoe(el, from, moved); foe != nil {
			dir = where(foe).Center.Sub(from.Center).Unit()
		}
		to, blocked := s.slideUntilContact(el, from, dir, moved)
		if el.ID != victor.ID && !involved[el.ID] && s.touchesEnemy(el, to, moved) {
			return engine.Refuse("10.1.3", "%s took no part in this melee and may not be brought into contact by an impact.", el.Label())
		}
		// A driver alone fights only to defend himself (3.5): an impact
		// no more brings his chariot to an enemy than a drive does.
		if el.Kind == Chariot && el.Driver && el.Rider == "" {
			if foe := s.newFoe(el, from, to, moved); foe != nil {
				return engine.Refuse("3.5", "%s carries only its driver, who fights only to defend himself: an impact may not bring it forward into contact with %s.", el.Label(), foe.Label())
			}
		}
		moved[el.ID] = to
		ev.Shifts = append(ev.Shifts, Shift{Element: el.ID, Label: el.Label(), From: from, To: to, Strides: 1, Forward: true, Blocked: blocked})
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	for _, el := range wounded {
		if el.Status != Standing {
			continue
		}
		if err := wound(tx, s, el, victor, "pushed back, it could go no further", true); err != nil {
			return err
		}
	}
	return afterFightStep(tx)
}

// pushCone is the cosine of the widest angle from straight away from the
// victor at which an impact may push a stand toward its friends: 60
// degrees, so that the push still carries it well away (RULINGS.md).
const pushCone = 0.5

// towardFriends returns the direction from a stand at from to the nearest
// stand of its own clan or an allied clan (one of its side), not itself in
// contact with an enemy, that lies beyond it as seen from the victor
// (within 60 degrees of away); false when none does.
func (s *State) towardFriends(el *Element, from engine.Base, away engine.Vec, moved map[ElementID]engine.Base) (engine.Vec, bool) {
	side := s.Clan(el.Clan).Side
	best, bestDist := engine.Vec{}, 0.0
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == el.ID || !o.inPlay() || s.Clan(o.Clan).Side != side || s.engagedWith(o) != nil {
			continue
		}
		at := o.Base
		if b, ok := moved[o.ID]; ok {
			at = b
		}
		d := at.Center.Sub(from.Center)
		if dist := d.Len(); dist > 1e-9 && d.Unit().Dot(away) >= pushCone && (bestDist == 0 || dist < bestDist) {
			best, bestDist = d.Unit(), dist
		}
	}
	return best, bestDist > 0
}

// elementList reads a comma-separated list of elements.
func (s *State) elementList(v string) ([]*Element, error) {
	var out []*Element
	for _, name := range strings.Split(v, ",") {
		if strings.TrimSpace(name) == "" {
			continue
		}
		el, err := s.findElement(name)
		if err != nil {
			return nil, err
		}
		out = append(out, el)
	}
	return out, nil
}

// slide moves el's base by delta as far as it can go: through friendly
// stands (8.3) but not onto them, through no other stand, and not
// off the table. It reports whether the base stopped short.
func (s *State) slide(el *Element, from engine.Base, delta engine.Vec, moved map[ElementID]engine.Base) (engine.Base, bool) {
	to, short, _ := s.sweepAlong(el, from, delta, moved)
	return to, short
}

// slideUntilContact moves el one stride along dir, through friendly
// stands (8.3) and stopping at the first other stand it meets. It
// reports whether the stand stopped short or met another.
func (s *State) slideUntilContact(el *Element, from engine.Base, dir engine.Vec, moved map[ElementID]engine.Base) (engine.Base, bool) {
	to, short, met := s.sweepAlong(el, from, dir, moved)
	return to, short || met
}

// sweepAlong moves el's base by delta as far as it can go, with the other
// standing stands where moved puts them: through friendly stands (8.3)
// but not onto them, through no other stand, and not off the table. It
// reports whether the base stopped short and whether its sweep met a
// stand it may not pass through.
func (s *State) sweepAlong(el *Element, from engine.Base, delta engine.Vec, moved map[ElementID]engine.Base) (to engine.Base, short, met bool) {
	var blockers, all []engine.Base
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == el.ID || o.Status != Standing || !o.Placed {
			continue
		}
		b := o.Base
		if m, ok := moved[o.ID]; ok {
			b = m
		}
		all = append(all, b)
		if !s.passesThrough(el, o) {
			blockers = append(blockers, b)
		}
	}
	frac, hit := from.Sweep(from.Center.Add(delta), blockers...)
	// Step back along the path until the stand neither sits on another
	// stand nor hangs off the table.
	for ; frac > 0; frac -= 0.05 {
		to := from.WithCenter(from.Center.Add(delta.Scale(frac)))
		if s.Board.holds(to) && !overlapsAny(to, all) {
			return to, frac < 1, hit >= 0
		}
	}
	return from, true, hit >= 0
}

// nearestFoughtFoe is the nearest standing enemy el was paired with in
// this round's melee, or nil.
func (s *State) nearestFoughtFoe(el *Element, at engine.Base, moved map[ElementID]engine.Base) *Element {
	var best *Element
	bestD := 0.0
	for _, p := range s.Fight.Pairings {
		var other ElementID
		switch el.ID {
		case p.A:
			other = p.B
		case p.B:
			other = p.A
		default:
			continue
		}
		o := s.Element(other)
		if !o.inPlay() {
			continue
		}
		ob := o.Base
		if m, ok := moved[o.ID]; ok {
			ob = m
		}
		if d := at.Gap(ob); best == nil || d < bestD {
			best, bestD = o, d
		}
	}
	return best
}

func overlapsAny(b engine.Base, others []engine.Base) bool {
	for _, o := range others {
		if b.Clashes(o) {
			return true
		}
	}
	return false
}

// newFoe returns an enemy that el, moved from from to to, touches at to
// but did not touch at from, or nil.
func (s *State) newFoe(el *Element, from, to engine.Base, moved map[ElementID]engine.Base) *Element {
	return s.foeAt(el, to, moved, func(ob engine.Base) bool { return !from.Touches(ob) })
}

// touchesEnemy reports whether el standing at b would touch an enemy.
func (s *State) touchesEnemy(el *Element, b engine.Base, moved map[ElementID]engine.Base) bool {
	return s.foeAt(el, b, moved, nil) != nil
}

// foeAt returns an enemy in play that el standing at b would touch, and
// that fresh (if not nil) accepts by its base, or nil. Elements in moved
// stand at their base there.
func (s *State) foeAt(el *Element, b engine.Base, moved map[ElementID]engine.Base, fresh func(engine.Base) bool) *Element {
	for i := range s.Elements {
		o := &s.Elements[i]
		if !o.inPlay() || !s.Antagonists(el.Clan, o.Clan) {
			continue
		}
		ob := o.Base
		if m, ok := moved[o.ID]; ok {
			ob = m
		}
		if b.Touches(ob) && (fresh == nil || fresh(ob)) {
			return o
		}
	}
	return nil
}

func describeImpact(b ImpactSpent) string {
	var parts []string
	for _, sh := range b.Shifts {
		dist := sh.From.Center.Dist(sh.To.Center)
		switch {
		case sh.Forward:
			parts = append(parts, fmt.Sprintf("%s comes forward %s", sh.Label, strideText(dist)))
		case sh.Blocked:
			parts = append(parts, fmt.Sprintf("%s is pushed back %s of %d and can go no further", sh.Label, strideText(dist), sh.Strides))
		default:
			parts = append(parts, fmt.Sprintf("%s is pushed back %s", sh.Label, strideText(dist)))
		}
	}
	return "Impact: " + strings.Join(parts, "; ") + "."
}

func strideText(d float64) string {
	switch r := float64(int(d*10+0.5)) / 10; r {
	case 1:
		return "1 stride"
	default:
		return fmt.Sprintf("%g strides", r)
	}
}
