package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Challenges (10.2). As his clan's action a Hero may call out the Hero of
// an antagonist clan that faces his own across the table or stands beside
// it. The challenged Hero's player accepts or declines. A declined
// challenge costs him honor and gives it to the challenger (10.2.1, the
// design's ruling). An accepted one stops everything else: the Heroes
// throw their javelins once and close (duel_steps.go, 10.2.2), then fight
// exchanges of one card each (10.1.1, 10.1.2) until one falls, or one
// takes advantage of an impact against him to withdraw, stepping back out
// of contact, free of penalty if he is wounded and at the chart's cost if
// not (10.2.3).

// Challenge is a challenge being answered or fought.
type Challenge struct {
	Challenger ElementID `json:"challenger"`
	Challenged ElementID `json:"challenged"`
	Accepted   bool      `json:"accepted,omitempty"`
	// Pushed is the Hero an impact has just gone against, who may now
	// fight on or withdraw.
	Pushed ElementID `json:"pushed,omitempty"`
	// Strides is the impact against Pushed: how far he steps back if he
	// withdraws (10.1.3, 10.2.3).
	Strides int `json:"strides,omitempty"`
}

// Called is a pair of Heroes one of whom has challenged the other.
type Called struct {
	Challenger ElementID `json:"challenger"`
	Challenged ElementID `json:"challenged"`
}

// ChallengeIssued is a Hero calling out another.
type ChallengeIssued struct {
	Clan           ClanTag         `json:"clan"`
	Challenger     ElementID       `json:"challenger"`
	ChallengerName string          `json:"challenger_name"`
	Challenged     ElementID       `json:"challenged"`
	ChallengedName string          `json:"challenged_name"`
	Player         engine.PlayerID `json:"player"`
}

// ChallengeAnswered is the challenged Hero's answer.
type ChallengeAnswered struct {
	Name   string `json:"name"`
	Accept bool   `json:"accept"`
	// Free is set when a declining Hero loses nothing, because the
	// challenger is blessed by the gods (note to the chart of 4).
	Free bool `json:"free,omitempty"`
}

// DuelExchange is one exchange of a duel: each Hero's card.
type DuelExchange struct {
	Challenger     ElementID   `json:"challenger"`
	ChallengerCard engine.Card `json:"challenger_card,omitempty"` // none while he holds armor (10.3.4)
	Challenged     ElementID   `json:"challenged"`
	ChallengedCard engine.Card `json:"challenged_card,omitempty"`
	Names          [2]string   `json:"names"`
	Kept           []Kept      `json:"kept,omitempty"`
	// Fury is the Hero whose fury of Ares struck just before this
	// exchange: only a wound by the other counts in it (10.1.3 item 2).
	Fury ElementID `json:"fury,omitempty"`
	// Pushed is the loser of an impact, who may withdraw.
	Pushed  ElementID `json:"pushed,omitempty"`
	Strides int       `json:"strides,omitempty"`
}

// ChallengeEnded closes a challenge.
type ChallengeEnded struct {
	Clan ClanTag `json:"clan"` // the challenger's clan, whose action it was
	How  string  `json:"how"`
}

func (ChallengeIssued) Kind() string   { return "gwab.challenge-issued" }
func (ChallengeAnswered) Kind() string { return "gwab.challenge-answered" }
func (DuelExchange) Kind() string      { return "gwab.duel-exchange" }
func (ChallengeEnded) Kind() string    { return "gwab.challenge-ended" }

var challengeBodies = engine.BodyTypes{
	ChallengeIssued{}.Kind():   engine.Decoder[ChallengeIssued](),
	ChallengeAnswered{}.Kind(): engine.Decoder[ChallengeAnswered](),
	DuelExchange{}.Kind():      engine.Decoder[DuelExchange](),
	ChallengeEnded{}.Kind():    engine.Decoder[ChallengeEnded](),
}

var challengeCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "challenge", Help: "Your Hero challenges an antagonist Hero to single combat (10.2).", Example: "/challenge hero:TRO-H", Options: []engine.OptionSpec{
		{Name: "hero", Help: "the Hero you call out", Kind: engine.OptElement, Required: true},
	}}, Run: challenge},
	{CommandSpec: engine.CommandSpec{Name: "answer", Help: "Answer a challenge (accept, decline), or after an impact in a duel (fight, withdraw) (10.2).", Options: []engine.OptionSpec{
		{Name: "reply", Help: "accept, decline, fight or withdraw", Required: true, Choices: []string{"accept", "decline", "fight", "withdraw"}},
	}}, Run: answer},
}

func (b ChallengeIssued) Apply(s *State) error {
	if _, err := s.mustElement(b.Challenger); err != nil {
		return err
	}
	if _, err := s.mustElement(b.Challenged); err != nil {
		return err
	}
	s.Challenge = &Challenge{Challenger: b.Challenger, Challenged: b.Challenged}
	s.Called = append(s.Called, Called{Challenger: b.Challenger, Challenged: b.Challenged})
	return nil
}

func (b ChallengeAnswered) Apply(s *State) error {
	if s.Challenge == nil {
		return fmt.Errorf("gwab: no challenge to answer")
	}
	s.Challenge.Accepted = b.Accept
	return nil
}

func (b DuelExchange) Apply(s *State) error {
	if s.Challenge == nil {
		return fmt.Errorf("gwab: no duel")
	}
	if err := s.keep(b.Kept); err != nil {
		return err
	}
	s.Challenge.Pushed, s.Challenge.Strides = b.Pushed, b.Strides
	return nil
}

func (b ChallengeEnded) Apply(s *State) error {
	s.Challenge = nil
	return s.acted(b.Clan)
}

func (b ChallengeIssued) Text() string {
	return fmt.Sprintf("%s challenges %s to single combat! %s: /answer reply:accept or reply:decline.", b.ChallengerName, b.ChallengedName, b.Player)
}

func (b ChallengeAnswered) Text() string {
	switch {
	case b.Accept:
		return fmt.Sprintf("%s accepts. All else stops while the two Heroes fight.", b.Name)
	case b.Free:
		return fmt.Sprintf("%s declines, and loses no honor: the gods are with his challenger.", b.Name)
	}
	return fmt.Sprintf("%s declines the challenge.", b.Name)
}

func (b DuelExchange) Text() string {
	var line string
	for _, k := range b.Kept {
		line += fmt.Sprintf("The %s draw a Joker and keep it (11.1). ", k.Name)
	}
	play := func(name string, c engine.Card) string {
		if c == engine.NoCard {
			return name + " holds the armor he took and plays no card (10.3.4)"
		}
		return fmt.Sprintf("%s plays %s", name, c)
	}
	line += play(b.Names[0], b.ChallengerCard) + ", " + play(b.Names[1], b.ChallengedCard) + "."
	if b.Fury != "" {
		other := b.Names[0]
		if b.Fury == b.Challenger {
			other = b.Names[1]
		}
		line += fmt.Sprintf(" The fury of Ares has struck: only a wound by %s counts in this exchange (10.1.3).", other)
	}
	if b.Pushed != "" {
		loser := b.Names[0]
		if b.Pushed == b.Challenged {
			loser = b.Names[1]
		}
		line += fmt.Sprintf(" An impact of %s against %s, who may withdraw: /answer reply:withdraw, or reply:fight.", strideText(float64(b.Strides)), loser)
	}
	return line
}

func (b ChallengeEnded) Text() string { return "The challenge is over: " + b.How + "." }

// inChallenge refuses what cannot be done while a challenge is open.
func (s *State) inChallenge() error {
	if s.Challenge == nil {
		return nil
	}
	a, b := s.Element(s.Challenge.Challenger), s.Element(s.Challenge.Challenged)
	if !s.Challenge.Accepted {
		return engine.Refuse("10.2", "%s has challenged %s; all waits for %s answer.", a.Name, b.Name, owner(string(s.Clan(b.Clan).Player)))
	}
	return engine.Refuse("10.2.2", "%s and %s are fighting their challenge; all else stops until it ends.", a.Name, b.Name)
}

func challenge(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	hero := s.Element(cl.Hero)
	foe, err := s.findElement(c.Opt("hero"))
	if err != nil {
		return err
	}
	fc := s.Clan(foe.Clan)
	switch {
	case !s.standing(hero):
		return engine.Refuse("10.2", "The %s have no Hero standing to issue a challenge.", cl.Name)
	case !s.isHero(foe):
		return engine.Refuse("10.2", "%s is not a clan's Hero; only Heroes are challenged.", foe.Label())
	case fc.Player == c.Actor:
		return engine.Refuse("7.3", "%s leads your own other clan; a player's two clans never fight each other.", foe.Name)
	case !s.Antagonists(cl.Tag, fc.Tag):
		return engine.Refuse("10.2", "%s is not an antagonist; challenges are issued across the table.", foe.Name)
	case !s.standing(foe):
		return engine.Refuse("10.2", "%s is not in the fight.", foe.Name)
	case fc.Slot < cl.Slot-1 || fc.Slot > cl.Slot+1:
		return engine.Refuse("10.2", "The %s do not face the %s across the table nor stand beside them; other clans stand between the two Heroes.", fc.Name, cl.Name)
	case hero.Armor != "":
		return engine.Refuse("10.3.4", "%s holds the armor of %s: he must retire with it (10.3.2) and can play no card in a melee until he drops it, so he calls no one out.", hero.Name, s.Element(hero.Armor).Name)
	case slices.Contains(s.Called, Called{Challenger: hero.ID, Challenged: foe.ID}):
		return engine.Refuse("10.2", "%s has already challenged %s in this book; a Hero challenges another only once a book.", hero.Name, foe.Name)
	}
	stand := hero
	if ch := s.chariotOf(hero); ch != nil {
		stand = ch // a Hero riding is in melee if his chariot is
	}
	if other := s.engagedWith(stand); other != nil {
		return engine.Refuse("10.2", "%s is in melee with %s and cannot step out to issue a challenge.", hero.Name, other.Label())
	}
	return tx.Emit(ChallengeIssued{Clan: cl.Tag, Challenger: hero.ID, ChallengerName: hero.Name,
		Challenged: foe.ID, ChallengedName: foe.Name, Player: fc.Player})
}

func answer(tx *engine.Tx, s *State, c engine.Command) error {
	ch := s.Challenge
	if ch == nil {
		return engine.Refuse("10.2", "There is no challenge to answer.")
	}
	a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
	reply := strings.ToLower(c.Opt("reply"))
	if !ch.Accepted {
		if s.Clan(b.Clan).Player != c.Actor {
			return engine.Refuse("10.2", "The challenge is %s to answer.", owner(string(s.Clan(b.Clan).Player)))
		}
		switch reply {
		case "accept":
			if err := tx.Emit(ChallengeAnswered{Name: b.Name, Accept: true}); err != nil {
				return err
			}
			if err := duelBurdens(tx, s); err != nil {
				return err
			}
			if ended, err := duelOpening(tx, s); ended || err != nil {
				return err
			}
			fury, ended, err := duelFury(tx, s)
			if ended || err != nil {
				return err
			}
			return duel(tx, s, fury)
		case "decline":
			return decline(tx, s, a, b)
		}
		return engine.Refuse("10.2", "Answer the challenge with reply:accept or reply:decline.")
	}
	if ch.Pushed == "" {
		return engine.Refuse("10.2.2", "The duel is being fought; there is nothing to answer now.")
	}
	pushed := s.Element(ch.Pushed)
	if s.Clan(pushed.Clan).Player != c.Actor {
		return engine.Refuse("10.2.3", "It is for %s player, %s, to fight on or withdraw.", owner(pushed.Name), s.Clan(pushed.Clan).Player)
	}
	switch reply {
	case "fight":
		return duel(tx, s, "")
	case "withdraw":
		foe := a
		if pushed == a {
			foe = b
		}
		if err := disengage(tx, s, pushed, foe, float64(max(ch.Strides, 1))); err != nil {
			return err
		}
		how := fmt.Sprintf("%s, wounded, withdraws without loss of honor (10.2.3)", pushed.Name)
		switch {
		case pushed.Wounds == 0 && pushed == b && a.Blessed:
			// Refusing a blessed challenger costs nothing (note to the chart of 4).
			how = fmt.Sprintf("%s withdraws unwounded, and loses no honor: the gods are with his challenger", pushed.Name)
		case pushed.Wounds == 0:
			how = fmt.Sprintf("%s withdraws unwounded and pays for it in honor (10.2.3)", pushed.Name)
			if err := award(tx, s, pushed, refusePoints[s.classOf(pushed)], Refusing, "withdrawing from a challenge unwounded"); err != nil {
				return err
			}
		}
		return endChallenge(tx, s, how)
	}
	return engine.Refuse("10.2.3", "After an impact, answer with reply:fight or reply:withdraw.")
}

// disengage steps a Hero leaving a duel straight back from foe, the
// other Hero, up to dist strides, out of contact with him (10.2.3: he
// disengages; 10.1.3: an impact moves him back its strides), so that the
// two do not fight again in the round's melee. Heroes who fought apart
// need not move. A Hero hemmed in cannot disengage.
func disengage(tx *engine.Tx, s *State, el, foe *Element, dist float64) error {
	if !el.Base.Touches(foe.Base) {
		return nil
	}
	away := el.Base.Center.Sub(foe.Base.Center)
	if away.Len() < 1e-9 {
		away = el.Base.Facing.Vec().Scale(-1)
	}
	to, _ := s.slide(el, el.Base, away.Unit().Scale(dist), nil)
	if to.Center == el.Base.Center || to.Touches(foe.Base) {
		return engine.Refuse("10.2.3", "%s is hemmed in and cannot step back out of contact with %s; he must fight on.", el.Label(), foe.Name)
	}
	return tx.Emit(Escaped{Element: el.ID, Label: el.Label(), From: el.Base, To: to})
}

// decline settles a declined challenge (10.2.1).
func decline(tx *engine.Tx, s *State, challenger, challenged *Element) error {
	free := challenger.Blessed
	if err := tx.Emit(ChallengeAnswered{Name: challenged.Name, Free: free}); err != nil {
		return err
	}
	if !free {
		pts := refusePoints[s.classOf(challenged)]
		if err := award(tx, s, challenged, pts, Refusing, "refusing "+owner(challenger.Name)+" challenge"); err != nil {
			return err
		}
		if err := award(tx, s, challenger, column{-pts[0], -pts[1]}, Refused, challenged.Name+" refusing his challenge"); err != nil {
			return err
		}
	}
	return endChallenge(tx, s, challenged.Name+" would not fight")
}

// duelFury spends the fury of Ares a dueling Hero holds: a challenge is
// fought as a melee (10.2.2 item 4), so before the first exchange's cards
// he wounds the other Hero, and both still play their cards (10.1.3 item
// 2). fury is the Hero whose fury struck; ended is set when the wound
// fells the other Hero. When both Heroes hold it, both wounds are struck
// together and no exchange follows for the fury: with neither without it,
// the pull of 10.1.3 item 2 has no one to serve, and the duel goes on
// with its ordinary exchanges (RULINGS.md).
func duelFury(tx *engine.Tx, s *State) (fury ElementID, ended bool, err error) {
	ch := s.Challenge
	a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
	var struck [][2]*Element
	for _, pair := range [][2]*Element{{a, b}, {b, a}} {
		if hero, foe := pair[0], pair[1]; hero.Fury && s.standing(hero) && s.standing(foe) {
			struck = append(struck, pair)
		}
	}
	var fell []string
	for _, pair := range struck {
		hero, foe := pair[0], pair[1]
		if err := wound(tx, s, foe, hero, "the fury of Ares", true); err != nil {
			return "", false, err
		}
		if err := tx.Emit(FuryUsed{Hero: hero.ID}); err != nil {
			return "", false, err
		}
		fury = hero.ID
		if foe.Status != Standing {
			fell = append(fell, fmt.Sprintf("%s has fallen to the fury of %s", foe.Name, hero.Name))
		}
	}
	if len(fell) > 0 {
		return fury, true, endChallenge(tx, s, strings.Join(fell, ", and "))
	}
	if len(struck) == 2 {
		fury = ""
	}
	return fury, false, nil
}

// duelCards is how many cards a Hero plays in an exchange of a duel: one
// (10.1.1, Hero against Hero), none while he holds a fallen Hero's armor
// (10.3.4).
func duelCards(hero *Element) int {
	if hero.Armor != "" {
		return 0
	}
	return 1
}

// duelBurdens sets down the body a dueling Hero carries, who must now
// defend himself (8.9), and breaks off his looting, which the duel
// interrupts (10.3.2), as the round's melee does (beforeMelee).
func duelBurdens(tx *engine.Tx, s *State) error {
	for _, id := range []ElementID{s.Challenge.Challenger, s.Challenge.Challenged} {
		el := s.Element(id)
		if err := setDownBurdens(tx, s, el); err != nil {
			return err
		}
	}
	return nil
}

// maxExchanges bounds one run of exchanges; a duel that reaches it without
// a wound or an impact ends with the Heroes parting.
const maxExchanges = 40

// duel fights exchanges until a Hero falls or an impact lets one withdraw.
// fury is the Hero whose fury of Ares struck before the first exchange,
// in which only a wound by the other then counts (10.1.3 item 2).
func duel(tx *engine.Tx, s *State, fury ElementID) error {
	ch := s.Challenge
	a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
	for range maxExchanges {
		ev := DuelExchange{Challenger: a.ID, Challenged: b.ID, Names: [2]string{a.Name, b.Name}, Fury: fury}
		fury = ""
		ac, err := drawCards(tx, s, a.Clan, duelCards(a), &ev.Kept)
		if err != nil {
			return err
		}
		bc, err := drawCards(tx, s, b.Clan, duelCards(b), &ev.Kept)
		if err != nil {
			return err
		}
		ev.ChallengerCard, ev.ChallengedCard = cardOrder.Highest(ac), cardOrder.Highest(bc)
		winner, loser, win, lose, out, strides := Pairing{A: a.ID, B: b.ID, ACards: ac, BCards: bc, Fury: ev.Fury}.Judge()
		if out == Impact {
			ev.Pushed, ev.Strides = loser, strides
		}
		tx.Discard(CombatDeck, ac...)
		tx.Discard(CombatDeck, bc...)
		if err := tx.Emit(ev); err != nil {
			return err
		}
		switch out {
		case Wound:
			w, l := s.Element(winner), s.Element(loser)
			if err := wound(tx, s, l, w, fmt.Sprintf("%s beats %s", win, lose), true); err != nil {
				return err
			}
			if l.Status != Standing {
				return endChallenge(tx, s, fmt.Sprintf("%s has fallen to %s", l.Name, w.Name))
			}
		case Impact:
			return nil // the pushed Hero chooses
		}
	}
	return endChallenge(tx, s, "the Heroes part with neither yielding")
}

func endChallenge(tx *engine.Tx, s *State, how string) error {
	clan := s.Element(s.Challenge.Challenger).Clan
	if err := tx.Emit(ChallengeEnded{Clan: clan, How: how}); err != nil {
		return err
	}
	return afterAction(tx)
}
