package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Special Dispensation (11.1). A Joker drawn for a clan is kept by its
// player, who may play it at any time, once, for one of six favours, for
// either of his clans; then it goes to the discards. It cannot be given to
// another player or played for one. The card is recorded with the clan
// that drew it, which says whose it is.

// JokerUse is the favour a Joker is played for.
type JokerUse uint8

const (
	NoUse  JokerUse = iota
	Draw            // an element draws one card more in each of its pairings this round
	Defer           // the next wound an element would take does not land
	Leave           // the clan retreats beyond the field and leaves the book
	Double          // an element's next foot move this round goes twice as far
	Jump            // the clan takes its turn now, out of the sequence
	Escape          // an element steps out of melee
)

var jokerUses = [...]string{"", "draw", "defer", "leave", "double", "jump", "escape"}

func (u JokerUse) String() string { return jokerUses[u] }

func parseJokerUse(s string) (JokerUse, bool) {
	for u := Draw; u <= Escape; u++ {
		if strings.EqualFold(s, u.String()) {
			return u, true
		}
	}
	return NoUse, false
}

// JokerPlayed is a Joker played for a favour.
type JokerPlayed struct {
	// Clan drew and kept the card; For is the player's other clan when
	// the Joker is played for it (11.1), empty when for Clan itself.
	Clan    ClanTag     `json:"clan"`
	Name    string      `json:"name"`
	For     ClanTag     `json:"for,omitempty"`
	ForName string      `json:"for_name,omitempty"`
	Card    engine.Card `json:"card"`
	Use     JokerUse    `json:"use"`
	Element ElementID   `json:"element,omitempty"`
	Label   string      `json:"label,omitempty"`
}

// WoundDeferred is a wound that a Joker turned aside.
type WoundDeferred struct {
	Element ElementID `json:"element"`
	Label   string    `json:"label"`
}

// Escaped is an element stepping out of melee by a Joker.
type Escaped struct {
	Element ElementID   `json:"element"`
	Label   string      `json:"label"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
}

func (JokerPlayed) Kind() string   { return "gwab.joker-played" }
func (WoundDeferred) Kind() string { return "gwab.wound-deferred" }
func (Escaped) Kind() string       { return "gwab.escaped" }

var jokerBodies = engine.BodyTypes{
	JokerPlayed{}.Kind():   engine.Decoder[JokerPlayed](),
	WoundDeferred{}.Kind(): engine.Decoder[WoundDeferred](),
	Escaped{}.Kind():       engine.Decoder[Escaped](),
}

var jokerCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "joker", Help: "Play a Joker your clan keeps, at any time (11.1).", Options: []engine.OptionSpec{
		{Name: "use", Help: "draw, defer, leave, double, jump or escape", Required: true, Choices: []string{"draw", "defer", "leave", "double", "jump", "escape"}},
		{Name: "element", Help: "the element it favours (draw, defer, double, escape)", Kind: engine.OptElement},
		{Name: "clan", Help: "which of your clans it favours (leave, jump), when you have two in the fight"},
	}}, Run: playJoker},
}

func (b JokerPlayed) Apply(s *State) error {
	c, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	i := slices.Index(c.Jokers, b.Card)
	if i < 0 {
		return fmt.Errorf("gwab: the %s keep no %s", c.Name, b.Card)
	}
	c.Jokers = slices.Delete(c.Jokers, i, i+1)
	var el *Element
	if b.Element != "" {
		if el, err = s.mustElement(b.Element); err != nil {
			return err
		}
	}
	switch b.Use {
	case Draw:
		el.Extra = true
	case Defer:
		el.Shield = true
	case Double:
		el.Doubled = true
	case Jump:
		from := slices.IndexFunc(s.Order, func(d Dealt) bool { return d.Clan == b.favoured() })
		if from < s.Turn {
			return fmt.Errorf("gwab: the %s have already acted this round", b.favoured())
		}
		d := s.Order[from]
		s.Order = slices.Insert(slices.Delete(s.Order, from, from+1), s.Turn, d)
	}
	return nil
}

func (b WoundDeferred) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	el.Shield = false
	return nil
}

func (b Escaped) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	el.Base = b.To
	return nil
}

// favoured is the clan the Joker is played for.
func (b JokerPlayed) favoured() ClanTag {
	if b.For != "" {
		return b.For
	}
	return b.Clan
}

func (b JokerPlayed) Text() string {
	line := fmt.Sprintf("The %s play a Joker for Special Dispensation: ", b.Name)
	if b.For != "" {
		line = fmt.Sprintf("The Joker kept by the %s is played for the %s, its player's other clan, for Special Dispensation: ", b.Name, b.ForName)
	}
	switch b.Use {
	case Draw:
		return line + fmt.Sprintf("%s draws one card more in each pairing of this round's melee.", b.Label)
	case Defer:
		return line + fmt.Sprintf("the next wound %s would take is turned aside.", b.Label)
	case Leave:
		return line + "they retreat beyond the field of battle."
	case Double:
		return line + fmt.Sprintf("%s may move twice as far this round.", b.Label)
	case Jump:
		return line + "they act now, out of the sequence."
	case Escape:
		return line + fmt.Sprintf("%s steps out of the melee.", b.Label)
	}
	return line
}

func (b WoundDeferred) Text() string {
	return fmt.Sprintf("The wound meant for %s is turned aside by the gods (11.1).", b.Label)
}

func (b Escaped) Text() string {
	return fmt.Sprintf("%s withdraws %s out of contact.", b.Label, strideText(b.From.Center.Dist(b.To.Center)))
}

// playJoker plays one of the actor's Jokers for the favour c names (11.1).
func playJoker(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Phase != Playing {
		return engine.Refuse("11.1", "Jokers are played while the book is being fought.")
	}
	use, ok := parseJokerUse(c.Opt("use"))
	if !ok {
		return engine.Refuse("11.1", "use:%s is not a favour; choose draw, defer, leave, double, jump or escape.", c.Opt("use"))
	}
	var el *Element
	if c.Has("element") {
		var err error
		if el, err = s.findElement(c.Opt("element")); err != nil {
			return err
		}
	}
	switch use {
	case Draw, Defer, Double, Escape:
		if el == nil {
			return engine.Refuse("11.1", "Say which element the Joker favours with element:.")
		}
	}
	clan, holder, err := s.jokerClans(c, el)
	if err != nil {
		return err
	}
	ev := JokerPlayed{Clan: holder.Tag, Name: holder.Name, Card: holder.Jokers[0], Use: use}
	if holder != clan {
		ev.For, ev.ForName = clan.Tag, clan.Name
	}
	if el != nil {
		if !el.inPlay() {
			return engine.Refuse("11.1", "A Joker favours only elements still in the fight; %s is not.", el.Label())
		}
		switch use {
		case Draw, Defer, Double, Escape:
			ev.Element, ev.Label = el.ID, el.Label()
		}
	}
	if err := s.jokerBars(use, el, clan); err != nil {
		return err
	}
	tx.Discard(CombatDeck, ev.Card)
	if err := tx.Emit(ev); err != nil {
		return err
	}
	return jokerFavour(tx, s, use, clan, el)
}

// jokerBars refuses a Joker's use that the moment does not allow: the
// favour of drawing once the melee's cards are out, doubling a chariot's
// drive, jumping out of turn or during a challenge, escaping with no
// melee to escape from (11.1).
func (s *State) jokerBars(use JokerUse, el *Element, clan *Clan) error {
	switch use {
	case Draw:
		if s.Fight != nil {
			return engine.Refuse("11.1", "The cards of this round's melee are already drawn.")
		}
	case Double:
		if el.Kind == Chariot {
			return engine.Refuse("11.1", "Only foot movement is doubled.")
		}
	case Jump:
		i := slices.IndexFunc(s.Order, func(d Dealt) bool { return d.Clan == clan.Tag })
		switch {
		case s.Challenge != nil:
			return s.inChallenge() // all else waits on a challenge (10.2.2)
		case s.Fight != nil:
			return engine.Refuse("11.1", "The round's actions are over; the melee is being fought.")
		case i < s.Turn:
			return engine.Refuse("11.1", "The %s have already acted this round.", clan.Name)
		case s.Current() == clan:
			return engine.Refuse("11.1", "It is already %s turn.", possessive(clan.Name))
		}
	case Escape:
		if s.inDuel(el) {
			break
		}
		if s.engagedWith(el) == nil {
			return engine.Refuse("11.1", "%s is not in melee.", el.Label())
		}
		if s.Fight != nil && s.Fight.Impact != nil {
			return engine.Refuse("11.1", "Wait until the impact is spent.")
		}
	}
	return nil
}

// jokerFavour carries out the favour of a Joker once it is played: the
// clan leaves the field, the element escapes its melee or duel, or the
// clan acts next (11.1).
func jokerFavour(tx *engine.Tx, s *State, use JokerUse, clan *Clan, el *Element) error {
	switch use {
	case Leave:
		if err := tx.Emit(ClanLeft{Clan: clan.Tag, Name: clan.Name, Retreat: true}); err != nil {
			return err
		}
		if ch := s.Challenge; ch != nil {
			// A Hero whose clan leaves the field leaves his challenge with
			// it, as freely as by the favour of escape (11.1).
			for _, id := range []ElementID{ch.Challenger, ch.Challenged} {
				if h := s.Element(id); h.Clan == clan.Tag {
					return endChallenge(tx, s, fmt.Sprintf("%s leaves the field with the %s by the gods' favour, without loss of honor (11.1)", h.Name, clan.Name))
				}
			}
		}
		if ended, err := checkEnd(tx, s); ended || err != nil {
			return err
		}
		if s.Current() == nil && s.Fight == nil && len(s.Order) > 0 {
			return afterAction(tx)
		}
		sayNext(tx, s)
	case Escape:
		if s.inDuel(el) {
			foe := s.Element(s.Challenge.Challenger)
			if foe == el {
				foe = s.Element(s.Challenge.Challenged)
			}
			if err := disengage(tx, s, el, foe, footMove); err != nil {
				return err
			}
			return endChallenge(tx, s, fmt.Sprintf("%s leaves the duel by the gods' favour, without loss of honor (11.1)", el.Name))
		}
		if err := escape(tx, s, el); err != nil {
			return err
		}
	case Jump:
		sayNext(tx, s)
	}
	return nil
}

// jokerClans finds the clan of the actor's that a Joker is played for,
// and the clan of his that keeps the card played: the favoured clan's own
// when it keeps one, else his other clan's (11.1).
func (s *State) jokerClans(c engine.Command, el *Element) (favoured, holder *Clan, err error) {
	mine := s.PlayerClans(c.Actor)
	var holders []*Clan
	for _, cl := range mine {
		if len(cl.Jokers) > 0 {
			holders = append(holders, cl)
		}
	}
	if len(holders) == 0 {
		return nil, nil, engine.Refuse("11.1", "None of your clans keeps a Joker.")
	}
	switch {
	case el != nil:
		if s.Clan(el.Clan).Player != c.Actor {
			return nil, nil, engine.Refuse("11.1", "%s is not of your clans; a Joker is played only for its own player's clans.", el.Label())
		}
		favoured = s.Clan(el.Clan)
	case c.Has("clan"):
		for _, cl := range mine {
			if strings.EqualFold(string(cl.Tag), c.Opt("clan")) || strings.EqualFold(cl.Name, c.Opt("clan")) {
				favoured = cl
			}
		}
		if favoured == nil {
			return nil, nil, engine.Refuse("11.1", "None of your clans is called %q; a Joker is played only for its own player's clans.", c.Opt("clan"))
		}
	case len(holders) == 1:
		favoured = holders[0] // the clan that drew it, unless told otherwise
	default:
		var standing []*Clan
		for _, cl := range mine {
			if !cl.Gone {
				standing = append(standing, cl)
			}
		}
		if len(standing) != 1 {
			return nil, nil, engine.Refuse("11.1", "Say which of your clans the Joker favours with clan:.")
		}
		favoured = standing[0]
	}
	if favoured.Gone {
		return nil, nil, engine.Refuse("11.1", "The %s have left the field; a Joker no longer helps them.", favoured.Name)
	}
	holder = holders[0]
	if i := slices.Index(holders, favoured); i >= 0 {
		holder = holders[i]
	}
	return favoured, holder, nil
}

// escape takes el straight away from the enemies it touches, up to a
// foot move, out of contact (11.1).
func escape(tx *engine.Tx, s *State, el *Element) error {
	if el.Kind == Chariot {
		return chariotEscape(tx, s, el)
	}
	to, ok := s.stepOut(el, footMove)
	if !ok {
		return engine.Refuse("11.1", "%s is hemmed in and cannot step out of the melee.", el.Label())
	}
	return tx.Emit(Escaped{Element: el.ID, Label: el.Label(), From: el.Base, To: to})
}

// chariotEscape backs chariot ch out of its melee. A chariot turns only
// by wheeling (8.4), and a play of divine intervention lets it back a
// single stride (8.5 points to 11.1): so a Joker takes it one stride
// straight behind, and only when that stride clears every enemy.
func chariotEscape(tx *engine.Tx, s *State, ch *Element) error {
	to, short := s.slide(ch, ch.Base, ch.Base.Facing.Vec().Scale(-backStride), nil)
	switch {
	case short:
		return engine.Refuse("8.5", "%s leaves a melee only by backing one stride straight behind, and something stands in the way of that stride.", ch.Label())
	case s.barring(to) != nil:
		return engine.Refuse("13.1.1", "%s leaves a melee only by backing one stride straight behind (8.5), and %s lies there.", ch.Label(), s.barring(to).Name())
	case s.touchesEnemy(ch, to, nil):
		return engine.Refuse("8.5", "%s leaves a melee only by backing one stride straight behind, and one stride back it would still touch the enemy.", ch.Label())
	}
	return tx.Emit(Escaped{Element: ch.ID, Label: ch.Label(), From: ch.Base, To: to})
}

// stepOut is where el ends stepping straight away from the enemies it
// touches, up to dist strides; ok is false when it cannot get out of
// contact.
func (s *State) stepOut(el *Element, dist float64) (to engine.Base, ok bool) {
	var away engine.Vec
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.inPlay() && s.Antagonists(el.Clan, o.Clan) && el.Base.Touches(o.Base) {
			away = away.Add(el.Base.Center.Sub(o.Base.Center).Unit())
		}
	}
	if away.Len() < 1e-9 {
		away = el.Base.Facing.Vec().Scale(-1)
	}
	to, _ = s.slide(el, el.Base, away.Unit().Scale(dist), nil)
	return to, to.Center != el.Base.Center && !s.touchesEnemy(el, to, nil)
}

// inDuel reports whether el is fighting an accepted challenge.
func (s *State) inDuel(el *Element) bool {
	ch := s.Challenge
	return ch != nil && ch.Accepted && (ch.Challenger == el.ID || ch.Challenged == el.ID)
}
