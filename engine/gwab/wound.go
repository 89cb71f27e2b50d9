package gwab

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Wounded is a wound on an element, from melee, missile fire or the gods.
// When the wounds reach the element's limit it falls (10.1.3).
type Wounded struct {
	Element ElementID `json:"element"`
	Label   string    `json:"label"`
	By      ElementID `json:"by,omitempty"`
	ByLabel string    `json:"by_label,omitempty"`
	Why     string    `json:"why,omitempty"`
	Wounds  int       `json:"wounds"`
	Limit   int       `json:"limit"`
	// Champion is set when the wound killed a Class 4 Hero in normal
	// combat, which ends the book (6.2.1).
	Champion bool `json:"champion,omitempty"`
	// Weakened is set when no new wound was dealt: the Hero's honor fell
	// to a class whose wound limit the wounds he bears already reach
	// (10.1.3), and he falls with them.
	Weakened bool `json:"weakened,omitempty"`
}

// Falls reports whether the wound removed the element.
func (b Wounded) Falls() bool { return b.Wounds >= b.Limit }

// HeroSucceeded is a Companion taking a fallen Hero's place, as a Class 1
// Hero with no points (10.1.3, 4.3).
type HeroSucceeded struct {
	Clan     ClanTag   `json:"clan"`
	ClanName string    `json:"clan_name"`
	Fallen   ElementID `json:"fallen"`
	Heir     ElementID `json:"heir"`
	Name     string    `json:"name"`
}

// ClanLeft is a clan with no Hero or Companion left leaving the field
// (10.1.3).
type ClanLeft struct {
	Clan ClanTag `json:"clan"`
	Name string  `json:"name"`
	// Retreat is set when the clan left by a Joker's dispensation (11.1)
	// rather than for want of leaders.
	Retreat bool `json:"retreat,omitempty"`
	// Withdraw is set when the clan's stands disengage and withdraw
	// toward their own edge (10.1.3, withdraw.go) rather than leave the
	// table at once, as books logged before did.
	Withdraw bool `json:"withdraw,omitempty"`
}

func (Wounded) Kind() string       { return "gwab.wounded" }
func (HeroSucceeded) Kind() string { return "gwab.hero-succeeded" }
func (ClanLeft) Kind() string      { return "gwab.clan-left" }

func (b Wounded) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	el.Wounds = int16(b.Wounds)
	if !b.Falls() {
		return nil
	}
	if b.Champion {
		s.ChampionFell = el.Name
	}
	el.FellRound, el.WasHero = int16(s.Round), s.isHero(el)
	switch el.Kind {
	case Hero, Companion:
		el.Status = Fallen
	case Chariot:
		el.Driver = false
	default:
		el.Status = Removed
	}
	return nil
}

func (b HeroSucceeded) Apply(s *State) error {
	c, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	heir, err := s.mustElement(b.Heir)
	if err != nil {
		return err
	}
	c.Hero, c.Heir, c.Successors = heir.ID, true, nil
	heir.Kind, heir.Honor, heir.Gained, heir.Class = Hero, 0, 0, 1
	return nil
}

func (b ClanLeft) Apply(s *State) error {
	c, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	c.Gone, c.Retreated = true, b.Retreat
	for i := range s.Elements {
		if el := &s.Elements[i]; el.Clan == b.Clan && el.Status == Standing && (el.Kind != Chariot || el.manned()) {
			el.Status = Removed
			if b.Withdraw && el.Placed && el.Aboard == "" {
				el.Status = Withdrawing
			}
		}
	}
	return nil
}

// woundLimit is how many wounds remove el from play (10.1.3): a Hero's
// grows with his class.
func (s *State) woundLimit(el *Element) int {
	if s.isHero(el) {
		return heroLimit(el.Honor, int(el.Aegis))
	}
	switch el.Kind {
	case Companion, Hero:
		return 3
	case Chariot:
		return 1 // the driver
	}
	switch el.Weapon {
	case Sling, Bow:
		return 1
	case Javelin:
		return 2
	}
	return 3
}

// heroLimit is the wound limit of a Hero with honor points and aegis
// wounds added by the gods (10.1.3, 11.2): 3 at Class 1 up to 6 at Class 4.
func heroLimit(honor, aegis int) int {
	return min(classFor(honor), 4) + 2 + aegis
}

// wound puts one wound on victim, dealt by by (nil for none: the gods or
// the table), and everything that follows: the honor the wounding Hero earns, the fall,
// a Companion taking a fallen Hero's place, or the clan leaving the field.
func wound(tx *engine.Tx, s *State, victim, by *Element, why string, melee bool) error {
	if melee {
		victim, by = s.fighter(victim), s.fighter(by) // a chariot fights as its rider (10.1.1)
	}
	if victim.Shield {
		return tx.Emit(WoundDeferred{Element: victim.ID, Label: victim.Label()})
	}
	ev := Wounded{Element: victim.ID, Label: woundLabel(victim), Why: why, Wounds: int(victim.Wounds) + 1, Limit: s.woundLimit(victim)}
	if by != nil {
		ev.By, ev.ByLabel = by.ID, by.Label()
	}
	victimClass := s.classOf(victim)
	ev.Champion = by != nil && s.isHero(victim) && victimClass == 4 && ev.Falls()
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if err := crewFell(tx, s, victim, ev); err != nil { // 8.7
		return err
	}
	// Only a Hero who deals the wound earns honor for it (4, MMR4 N.B.).
	if by != nil && s.isHero(by) {
		who := victim.Name
		if victim.Kind == Warband || victim.Kind == Chariot {
			who = woundLabel(victim)
		}
		pts, what := woundPoints[victimClass], "wounding "+who
		if ev.Falls() {
			pts, what = killPoints[victimClass], "killing "+who
		}
		cause := Wounding
		if ev.Falls() {
			cause = Killing
		}
		if err := award(tx, s, by, pts, cause, what); err != nil {
			return err
		}
	}
	if !ev.Falls() {
		return nil
	}
	if victim.Kind != Hero && victim.Kind != Companion {
		return nil
	}
	return succeed(tx, s, victim.Clan)
}

// weakened fells a standing Hero whose wounds reach the limit of his
// class now that his honor has fallen (10.1.3: an element that reaches
// its wound limit is removed; a Hero's limit follows his class). No one
// dealt the wound, so no one earns honor, and it is no death in combat
// (6.2.1).
func weakened(tx *engine.Tx, s *State, hero *Element) error {
	if hero.Status != Standing || hero.Wounds == 0 || !s.isHero(hero) {
		return nil
	}
	limit := s.woundLimit(hero)
	if int(hero.Wounds) < limit {
		return nil
	}
	ev := Wounded{Element: hero.ID, Label: woundLabel(hero), Wounds: int(hero.Wounds), Limit: limit, Weakened: true,
		Why: rankName(classFor(hero.Honor))}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if err := crewFell(tx, s, hero, ev); err != nil { // 8.7
		return err
	}
	return succeed(tx, s, hero.Clan)
}

// succeed settles who leads a clan whose Hero has fallen (10.1.3): the
// one Companion standing takes his place; when more than one stands, the
// clan's player designates which (succession.go); when none is left, the
// clan leaves the field.
func succeed(tx *engine.Tx, s *State, tag ClanTag) error {
	c := s.Clan(tag)
	hero := s.Element(c.Hero)
	if hero.Status == Standing {
		return nil
	}
	standing := s.companionsStanding(tag)
	switch len(standing) {
	case 0:
		return tx.Emit(ClanLeft{Clan: tag, Name: c.Name, Withdraw: true})
	case 1:
		return tx.Emit(HeroSucceeded{Clan: tag, ClanName: c.Name, Fallen: hero.ID, Heir: standing[0].ID, Name: standing[0].Name})
	}
	if s.Fight != nil {
		// A melee's results apply one after another, and a later one may
		// end the book (6.2); the choice is asked once the fight stops
		// (askSuccessors), if the book goes on.
		return nil
	}
	return askSuccessor(tx, s, c, hero, standing)
}

// askSuccessor asks c's player which of the Companions standing takes
// the fallen hero's place, unless the book ends with this fall (6.2: a
// champion fallen, a Hero's 100 honor won): then there is no more battle
// for a Companion to lead, and no one is asked to choose.
func askSuccessor(tx *engine.Tx, s *State, c *Clan, hero *Element, standing []*Element) error {
	if s.endCondition() != "" {
		return nil
	}
	ask := SuccessionAsked{Clan: c.Tag, ClanName: c.Name, Player: c.Player, Fallen: hero.Name}
	for _, el := range standing {
		ask.Companions = append(ask.Companions, el.ID)
		ask.Names = append(ask.Names, el.Label())
	}
	if slices.Equal(ask.Companions, c.Successors) {
		return nil
	}
	return tx.Emit(ask)
}

// askSuccessors asks, once a melee stops (its pairings all applied, or
// one waiting for an impact to be spent), the player of every clan whose
// Hero fell in it which Companion leads now (10.1.3).
func askSuccessors(tx *engine.Tx, s *State) error {
	for i := range s.Clans {
		c := &s.Clans[i]
		hero := s.Element(c.Hero)
		if c.Gone || hero == nil || hero.Status == Standing {
			continue
		}
		standing := s.companionsStanding(c.Tag)
		if len(standing) < 2 {
			continue
		}
		if err := askSuccessor(tx, s, c, hero, standing); err != nil {
			return err
		}
	}
	return nil
}

// companionsStanding lists the clan's Companions still in the fight.
func (s *State) companionsStanding(tag ClanTag) []*Element {
	var out []*Element
	for _, el := range s.ClanElements(tag) {
		if el.Kind == Companion && el.Status == Standing {
			out = append(out, el)
		}
	}
	return out
}
