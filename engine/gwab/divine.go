package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// Divine Intervention (11.2). Once in a book a Hero may, as his clan's
// action, call on the gods: a card from the combat deck is read on the
// Divine Intervention Chart. The text's chart is lost; this one is ours,
// built from the hints of sections 4, 10.1.3, 10.2 and 11 (RULINGS.md):
// a good day makes the Hero deadlier or harder to fell, or wins honor; a
// bad day costs honor or a wound; a Joker is kept for Special
// Dispensation. Over the 54 cards, 22 are good (the Jokers with them), 16
// are silent and 16 are bad, so the call is a fair gamble that costs the
// clan its action.

// Blessing is what a card of the chart brings.
type Blessing uint8

const (
	Silence      Blessing = iota // 9, 8, 7, 6: the gods do not answer
	Fury                         // aces: in his next melee the Hero wounds each foe before the cards are played (10.1.3)
	Aegis                        // kings: the Hero's wound limit rises by one for the book
	Song                         // queens: honor, as a kill of a Class 2 Hero
	Omen                         // jacks: honor, as a wound of a Class 4 Hero
	Healing                      // tens: one of the Hero's wounds is healed
	IllOmen                      // fives and fours: honor lost, as a wound of a Class 4 Hero
	Arrow                        // threes: the Hero takes a wound
	Hubris                       // twos: honor lost, as a kill of a Class 2 Hero
	Dispensation                 // jokers: kept for Special Dispensation (11.1)
)

var blessingNames = [...]string{
	Silence: "the gods are silent", Fury: "the fury of Ares", Aegis: "the aegis of Athena",
	Song: "the Muse sings of him", Omen: "a good omen", Healing: "the touch of Asclepius",
	IllOmen: "an ill omen", Arrow: "the arrow of Apollo", Hubris: "the gods punish his pride",
	Dispensation: "Special Dispensation",
}

func (b Blessing) String() string { return blessingNames[b] }

// Good reports whether the blessing is one of the chart's good days.
func (b Blessing) Good() bool {
	switch b {
	case Fury, Aegis, Song, Omen, Healing, Dispensation:
		return true
	}
	return false
}

// blessingOf reads a card on the chart.
func blessingOf(c engine.Card) Blessing {
	if c.IsJoker() {
		return Dispensation
	}
	switch r := c.Rank(); {
	case r == engine.Ace:
		return Fury
	case r == engine.King:
		return Aegis
	case r == engine.Queen:
		return Song
	case r == engine.Jack:
		return Omen
	case r == 10:
		return Healing
	case r >= 6:
		return Silence
	case r >= 4:
		return IllOmen
	case r == 3:
		return Arrow
	}
	return Hubris
}

// The honor the chart gives and takes, by the columns of section 4.
var (
	songPoints    = killPoints[2]
	omenPoints    = woundPoints[4]
	illOmenPoints = column{-omenPoints[0], -omenPoints[1]}
	hubrisPoints  = column{-songPoints[0], -songPoints[1]}
)

// Invoked is a Hero's call on the gods and its answer.
type Invoked struct {
	Clan     ClanTag     `json:"clan"`
	Hero     ElementID   `json:"hero"`
	Name     string      `json:"name"`
	Card     engine.Card `json:"card"`
	Blessing Blessing    `json:"blessing"`
	// Healed is set when the touch of Asclepius found a wound to heal.
	Healed bool `json:"healed,omitempty"`
}

// FuryUsed records the fury of Ares spent in a melee.
type FuryUsed struct {
	Hero ElementID `json:"hero"`
}

func (Invoked) Kind() string  { return "gwab.invoked" }
func (FuryUsed) Kind() string { return "gwab.fury-used" }

var divineBodies = engine.BodyTypes{
	Invoked{}.Kind():  engine.Decoder[Invoked](),
	FuryUsed{}.Kind(): engine.Decoder[FuryUsed](),
}

var divineCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "invoke", Help: "Your Hero calls on the gods, once a book: a card is read on the Divine Intervention Chart (11.2)."}, Run: invoke},
}

func (b Invoked) Apply(s *State) error {
	hero, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	clan, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	hero.Invoked = true
	switch b.Blessing {
	case Fury:
		hero.Fury, hero.Blessed = true, true
	case Aegis:
		hero.Aegis++
		hero.Blessed = true
	case Healing:
		hero.Wounds = max(hero.Wounds-1, 0)
	case Dispensation:
		clan.Jokers = append(clan.Jokers, b.Card)
	}
	return s.acted(b.Clan)
}

func (b FuryUsed) Apply(s *State) error {
	hero, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	hero.Fury = false
	return nil
}

func (b Invoked) Text() string {
	line := fmt.Sprintf("%s calls on the gods and draws %s: %s.", b.Name, b.Card, b.Blessing)
	switch b.Blessing {
	case Fury:
		line += " In his next melee he wounds every foe he touches before the cards are played."
	case Aegis:
		line += " His wound limit rises by one for this book."
	case Healing:
		if b.Healed {
			line += " One of his wounds is healed."
		} else {
			line += " He bears no wound to heal."
		}
	case Dispensation:
		line += " The Joker is kept for Special Dispensation (11.1)."
	}
	return line
}

func (b FuryUsed) Text() string { return "" }

func invoke(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	hero := s.Element(cl.Hero)
	switch {
	case !s.standing(hero):
		return engine.Refuse("11.2", "The %s have no Hero standing to call on the gods.", cl.Name)
	case hero.Invoked:
		return engine.Refuse("11.2", "%s has already called on the gods in this book; a Hero may do so once.", hero.Name)
	}
	tx.Ask(cl.Player, cl.Name+" calling on the gods")
	card, err := tx.Draw(CombatDeck)
	if err != nil {
		return err
	}
	b := blessingOf(card)
	if !card.IsJoker() {
		tx.Discard(CombatDeck, card)
	}
	if err := tx.Emit(Invoked{Clan: cl.Tag, Hero: hero.ID, Name: hero.Name, Card: card, Blessing: b, Healed: b == Healing && hero.Wounds > 0}); err != nil {
		return err
	}
	switch b {
	case Song:
		err = award(tx, s, hero, songPoints, Divine, "the Muse's song (divine intervention)")
	case Omen:
		err = award(tx, s, hero, omenPoints, Divine, "a good omen (divine intervention)")
	case IllOmen:
		err = award(tx, s, hero, illOmenPoints, Divine, "an ill omen (divine intervention)")
	case Hubris:
		err = award(tx, s, hero, hubrisPoints, Divine, "his pride (divine intervention)")
	case Arrow:
		err = wound(tx, s, hero, nil, "the arrow of Apollo", false)
	}
	if err != nil {
		return err
	}
	return afterAction(tx)
}

// furyWounds spends the fury of Ares of every Hero in the melee: each foe
// he is paired with takes a wound before the cards are played (10.1.3).
// Those wounds are struck together, so a blessed Hero felled by another's
// fury still strikes with his own (RULINGS.md).
func furyWounds(tx *engine.Tx, s *State) error {
	var strikers []*Element
	for i := range s.Elements {
		if hero := &s.Elements[i]; hero.Fury && s.standing(hero) {
			strikers = append(strikers, hero)
		}
	}
	for _, hero := range strikers {
		fought := false
		for _, p := range s.Fight.Pairings {
			// A Hero riding a chariot fights as the chariot (10.1.1).
			a, b := s.Element(p.A), s.Element(p.B)
			var foe *Element
			switch hero.ID {
			case s.fighter(a).ID:
				foe = b
			case s.fighter(b).ID:
				foe = a
			default:
				continue
			}
			fought = true
			if foe.inPlay() {
				if err := wound(tx, s, s.fighter(foe), hero, "the fury of Ares", true); err != nil {
					return err
				}
			}
		}
		if fought {
			if err := tx.Emit(FuryUsed{Hero: hero.ID}); err != nil {
				return err
			}
		}
	}
	return nil
}
