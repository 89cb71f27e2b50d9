package gwab

import (
	"fmt"
	"math"

	"github.com/rhapsode/rhapsode/engine"
)

// Missile fire (9). One element of the acting clan shoots at one
// antagonist element: a card from the combat deck decides. At short range
// an ace, king, queen or jack hits; at long range only an ace or a king
// (9.3). A hit is a wound.

// Short ranges in strides (9.3). Beyond them is long range, with no outer
// limit but the table's edge, for javelins as for slings and bows.
const (
	footShort    = 9.0
	chariotShort = 3.0
)

// Fired is one missile shot (9).
type Fired struct {
	Clan        ClanTag     `json:"clan"`
	Firer       ElementID   `json:"firer"`
	FirerLabel  string      `json:"firer_label"`
	Target      ElementID   `json:"target"`
	TargetLabel string      `json:"target_label"`
	Distance    float64     `json:"distance"`
	Long        bool        `json:"long,omitempty"`
	Card        engine.Card `json:"card"`
	Hit         bool        `json:"hit"`
	Kept        []Kept      `json:"kept,omitempty"`
}

func (Fired) Kind() string { return "gwab.fired" }

var fireBodies = engine.BodyTypes{Fired{}.Kind(): engine.Decoder[Fired]()}

var fireCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "fire", Help: "Shoot a missile from one element of your clan at an antagonist element (9).", Example: "/fire element:ACH-W3 target:TRO-W1", Options: []engine.OptionSpec{
		{Name: "element", Help: "who shoots: javelinmen, slingers or bowmen", Kind: engine.OptElement, Required: true},
		{Name: "target", Help: "the antagonist element shot at", Kind: engine.OptElement, Required: true},
		{Name: "aim", Help: "when shooting at a chariot: its rider (the default) or its driver (9.5)", Choices: []string{"rider", "driver"}},
	}}, Run: fire},
}

func (b Fired) Apply(s *State) error {
	if err := s.keep(b.Kept); err != nil {
		return err
	}
	if _, err := s.mustElement(b.Target); err != nil {
		return err
	}
	return s.acted(b.Clan)
}

// missile returns the weapon el shoots with, and its short range, or an
// error saying why it cannot shoot (9.1, 9.2).
func (s *State) missile(el *Element) (Weapon, float64, error) {
	switch el.Kind {
	case Warband:
		if !el.Weapon.Missile() {
			return 0, 0, engine.Refuse("9.1", "%s carry no missiles: only javelinmen, slingers and bowmen shoot.", el.Label())
		}
		return el.Weapon, footShort, nil
	case Chariot:
		return 0, 0, engine.Refuse("9.2", "The driver cannot shoot; a Hero or Companion riding the chariot throws its javelin as it is driven (/drive … javelin:).")
	case Hero, Companion:
		if el.Aboard != "" {
			return 0, 0, engine.Refuse("9.2", "%s rides a chariot and throws from it as it is driven (/drive … javelin:).", el.Label())
		}
		if el.Weapon == Javelin {
			return Javelin, footShort, nil
		}
	}
	return 0, 0, engine.Refuse("9.1", "%s carries no javelin on foot (a clan names who does with armed: at /clan raise); Heroes and Companions also throw javelins from a chariot (9.2).", el.Label())
}

func fire(tx *engine.Tx, s *State, c engine.Command) error {
	cl, firer, err := actingElement(s, c, "element")
	if err != nil {
		return err
	}
	if ch := s.chariotOf(firer); ch != nil && firer.Status == Standing {
		return fireFromChariot(tx, s, c, cl, ch) // 9.2
	}
	if !firer.inPlay() {
		return engine.Refuse("9", "%s is no longer in the fight.", firer.Label())
	}
	weapon, short, err := s.missile(firer)
	if err != nil {
		return err
	}
	target, err := s.findElement(c.Opt("target"))
	if err != nil {
		return err
	}
	target, victim, err := s.aim(target, c.Opt("aim")) // 9.5
	if err != nil {
		return err
	}
	if err := s.canShoot(firer, weapon, short, target); err != nil {
		return err
	}
	dist := firer.Base.Gap(target.Base)
	ev := Fired{Clan: cl.Tag, Firer: firer.ID, FirerLabel: firer.Label(), Target: target.ID, TargetLabel: target.Label(),
		Distance: math.Round(dist*10) / 10, Long: dist > short}
	cards, err := drawCards(tx, s, cl.Tag, 1, &ev.Kept)
	if err != nil {
		return err
	}
	ev.Card = cards[0]
	ev.Hit = hits(ev.Card, ev.Long)
	tx.Discard(CombatDeck, ev.Card)
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if ev.Hit {
		if err := wound(tx, s, victim, firer, fmt.Sprintf("%s at %s range", ev.Card, rangeName(ev.Long)), false); err != nil {
			return err
		}
	}
	return afterAction(tx)
}

// hits reports whether card strikes at the range (9.3).
func hits(card engine.Card, long bool) bool {
	if long {
		return card.Rank() >= engine.King
	}
	return card.Rank() >= engine.Jack
}

func rangeName(long bool) string {
	if long {
		return "long"
	}
	return "short"
}

// canShoot checks a shot from firer at target (9, 9.1, 9.3, 9.6).
func (s *State) canShoot(firer *Element, weapon Weapon, short float64, target *Element) error {
	switch {
	case target == firer:
		return engine.Refuse("9", "An element cannot shoot at itself.")
	case !target.inPlay():
		return engine.Refuse("9", "%s is not in the fight.", target.Label())
	case !s.Antagonists(firer.Clan, target.Clan):
		if s.Clan(firer.Clan).Player == s.Clan(target.Clan).Player {
			return engine.Refuse("7.3", "%s belongs to your own other clan; a player's two clans never fight each other.", target.Label())
		}
		return engine.Refuse("9", "%s is not an enemy: missiles are shot only at antagonist clans.", target.Label())
	}
	if foe := s.engagedWith(target); foe != nil {
		return engine.Refuse("9.6", "%s is in melee with %s; no one may shoot into a melee.", target.Label(), foe.Label())
	}
	// 9.3 sets no outer limit: anything beyond short range is long range,
	// for every missile weapon; the table's edge is the limit.
	if b := s.blocking(firer, weapon, target); b != nil {
		return engine.Refuse("9.1", "%s blocks the shot at %s.", b.Label(), target.Label())
	}
	return nil
}

// blocking returns a stand in the way of a shot, or nil (9.1.1, 9.1.2).
// The line runs from the centre of the firer's front to the target's
// centre. A stand across it blocks when it is nearer the target than the
// firer. Javelinmen may have no stand of their own clan across the line
// at all; slingers and bowmen shoot over stands of their clan that they
// stand right behind.
func (s *State) blocking(firer *Element, weapon Weapon, target *Element) *Element {
	from, to := firer.Base.FrontCenter(), target.Base.Center
	for i := range s.Elements {
		o := &s.Elements[i]
		if o == firer || o == target || o.Status != Standing || !o.Placed || !o.Base.BlocksLine(from, to) {
			continue
		}
		own := o.Clan == firer.Clan
		switch {
		case own && weapon == Javelin:
			return o
		case own && weapon.Skirmisher() && o.Base.Touches(firer.Base):
			continue
		}
		if o.Base.Gap(target.Base) < o.Base.Gap(firer.Base) {
			return o
		}
	}
	return nil
}

func describeFire(b Fired) string {
	result := "misses"
	if b.Hit {
		result = "hits"
	}
	line := ""
	for _, k := range b.Kept {
		line += fmt.Sprintf("The %s draw a Joker and keep it (11.1). ", k.Name)
	}
	return line + fmt.Sprintf("%s shoots at %s, %.1f strides away at %s range: %s %s.", b.FirerLabel, b.TargetLabel, b.Distance, rangeName(b.Long), b.Card, result)
}
