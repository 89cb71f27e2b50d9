package gwab

import (
	"fmt"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// The steps of a duel before its first exchange (10.2.2): after the
// defaults of divine intervention (held blessings apply as in any melee),
// missile fire, once and only once, then movement, then the exchanges of
// 10.1.2, repeated without the missile step until the duel ends.
//
// Missile fire: each Hero who carries javelins on foot (armed: at /clan
// raise, 9.1) throws one at the other, the challenger first, if no stand
// blocks the throw (9.1) and the other is in no melee (9.6); the card
// decides it as any missile (9.3). A Hero riding his chariot beside its
// driver throws from it where it stands, as a chariot's javelin (9.2,
// 9.3, 13.2); one who drives alone throws nothing (9.2). A Hero who rides
// is aimed at through his chariot (9.5).
//
// Movement: the challenger steps up to the challenged Hero and faces him,
// front to front, unless another stand is in the way or either Hero rides
// a chariot; then they fight where they stand.

// DuelThrow is a Hero's javelin thrown before the duel's first exchange:
// a shot like any (Fired), but no clan's action.
type DuelThrow Fired

// DuelClosed is the challenger stepping up to the challenged Hero.
type DuelClosed struct {
	Hero  ElementID   `json:"hero"`
	Label string      `json:"label"`
	Foe   string      `json:"foe"`
	From  engine.Base `json:"from"`
	To    engine.Base `json:"to"`
	// Blocked names what kept him from closing; the Heroes then fight
	// where they stand.
	Blocked string `json:"blocked,omitempty"`
}

func (DuelThrow) Kind() string  { return "gwab.duel-throw" }
func (DuelClosed) Kind() string { return "gwab.duel-closed" }

var duelStepBodies = engine.BodyTypes{
	DuelThrow{}.Kind():  engine.Decoder[DuelThrow](),
	DuelClosed{}.Kind(): engine.Decoder[DuelClosed](),
}

func (b DuelThrow) Apply(s *State) error {
	if _, err := s.mustElement(b.Target); err != nil {
		return err
	}
	return s.keep(b.Kept)
}

func (b DuelClosed) Apply(s *State) error {
	el, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	if b.Blocked == "" {
		el.Base = b.To
	}
	return nil
}

func (b DuelThrow) Text() string {
	result := "misses"
	if b.Hit {
		result = "hits"
	}
	return fmt.Sprintf("Before they close, %s throws a javelin at %s, %.1f strides away at %s range: %s %s (10.2.2, 9.3).",
		b.FirerLabel, b.TargetLabel, b.Distance, rangeName(b.Long), b.Card, result)
}

func (b DuelClosed) Text() string {
	if b.Blocked != "" {
		return fmt.Sprintf("%s cannot step up to %s past %s; they fight where they stand (10.2.2).", b.Label, b.Foe, b.Blocked)
	}
	return fmt.Sprintf("%s steps up to %s and faces him at %s (10.2.2).", b.Label, b.Foe, b.To.FrontCenter())
}

// duelOpening plays the missile and movement steps of an accepted
// challenge; ended is set when a javelin settled it.
func duelOpening(tx *engine.Tx, s *State) (ended bool, err error) {
	ch := s.Challenge
	a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
	for _, pair := range [][2]*Element{{a, b}, {b, a}} {
		thrower, target := pair[0], pair[1]
		if !s.standing(thrower) || !s.standing(target) {
			break
		}
		done, err := duelThrow(tx, s, thrower, target)
		if err != nil || done {
			return done, err
		}
	}
	if !s.standing(a) || !s.standing(b) {
		return true, nil
	}
	return false, closeDuel(tx, s, a, b)
}

// duelThrow throws thrower's javelin at target, if he carries one on foot
// and nothing blocks it; done is set when target falls.
func duelThrow(tx *engine.Tx, s *State, thrower, target *Element) (done bool, err error) {
	shotAt, _, err := s.aim(target, "") // a Hero who rides is shot at through his chariot (9.5)
	if err != nil {
		return false, nil
	}
	if ch := s.chariotOf(thrower); ch != nil {
		return duelChariotThrow(tx, s, ch, target, shotAt)
	}
	if thrower.Weapon != Javelin || s.blocking(thrower, Javelin, shotAt) != nil || s.engagedWith(shotAt) != nil {
		return false, nil
	}
	dist := thrower.Base.Gap(shotAt.Base)
	ev := DuelThrow{Clan: thrower.Clan, Firer: thrower.ID, FirerLabel: thrower.Label(), Target: target.ID, TargetLabel: target.Label(),
		Distance: math.Round(dist*10) / 10, Long: dist > footShort}
	cards, err := drawCards(tx, s, thrower.Clan, 1, &ev.Kept)
	if err != nil {
		return false, err
	}
	ev.Card = cards[0]
	ev.Hit = hits(ev.Card, ev.Long)
	tx.Discard(CombatDeck, ev.Card)
	if err := tx.Emit(ev); err != nil {
		return false, err
	}
	if !ev.Hit {
		return false, nil
	}
	if err := wound(tx, s, target, thrower, fmt.Sprintf("%s at %s range", ev.Card, rangeName(ev.Long)), false); err != nil {
		return false, err
	}
	if target.Status != Standing {
		return true, endChallenge(tx, s, fmt.Sprintf("%s has fallen to a javelin of %s", target.Name, thrower.Name))
	}
	return false, nil
}

// duelChariotThrow throws the javelin of a Hero riding chariot ch at
// target, shot at as shotAt, from where the chariot stands (9.2), if it
// may throw at all: a driver beside him, a javelin left (13.2), nothing in
// the way (9.1), the target in no other melee (9.6).
func duelChariotThrow(tx *engine.Tx, s *State, ch, target, shotAt *Element) (done bool, err error) {
	crew := *ch
	t, thrower, victim, err := s.planThrow(&crew, route{path: drivePath{start: ch.Base}}, shotAt, "", -1)
	if err != nil || victim != target {
		return false, nil
	}
	if err := throwJavelin(tx, s, s.Clan(ch.Clan), &chariotPlan{throw: &t, thrower: thrower, victim: victim}); err != nil {
		return false, err
	}
	if target.Status != Standing {
		return true, endChallenge(tx, s, fmt.Sprintf("%s has fallen to a javelin of %s", target.Name, thrower.Name))
	}
	return false, nil
}

// closeDuel steps the challenger up to the challenged Hero, front to
// front, unless that is blocked.
func closeDuel(tx *engine.Tx, s *State, a, b *Element) error {
	if a.Aboard != "" || b.Aboard != "" || a.Base.Touches(b.Base) {
		return nil
	}
	to := a.Base
	to.Facing = b.Base.Facing + 180
	if to.Facing >= 360 {
		to.Facing -= 360
	}
	to = to.WithFrontCenter(b.Base.FrontCenter())
	ev := DuelClosed{Hero: a.ID, Label: a.Label(), Foe: b.Label(), From: a.Base, To: to}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o == a || o == b || o.Status != Standing || !o.Placed || o.Aboard != "" {
			continue
		}
		if to.Clashes(o.Base) {
			ev.Blocked = o.Label()
			break
		}
	}
	if ev.Blocked == "" && !s.Board.holds(to) {
		ev.Blocked = "the table's edge"
	}
	return tx.Emit(ev)
}
