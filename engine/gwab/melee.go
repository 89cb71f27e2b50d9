package gwab

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// The melee of a round (6.1 step 5, 10.1): every pair of antagonist
// elements in contact is a pairing; each draws cards against the other
// (10.1.1) and plays its best card against the other's best (the design's
// fixed ruling). Results apply from the highest winning card down (MMR2),
// and a result can break a later pairing by removing or pushing away one
// of its elements (MMR3).

// Outcome is what a pairing comes to.
type Outcome uint8

const (
	NoEffect Outcome = iota // equal numbers (10.1.2)
	Wound                   // the winner played an ace or a face card
	Impact                  // the winner played a higher number card
)

// Pairing is one contest of a melee.
type Pairing struct {
	A      ElementID     `json:"a"`
	B      ElementID     `json:"b"`
	ACards []engine.Card `json:"a_cards"`
	BCards []engine.Card `json:"b_cards"`
	// Fury is A or B when that side's Hero holds the fury of Ares in this
	// melee: his wound is struck before the cards, each side plays one
	// card, and only a wound by the other side counts (10.1.3 item 2).
	Fury ElementID `json:"fury,omitempty"`
	// FuryBoth is set when the Heroes on both sides hold the fury: both
	// wounds are struck, and with no side left without it the pull of
	// 10.1.3 item 2 has no one to serve, so no cards are drawn (RULINGS.md).
	FuryBoth bool `json:"fury_both,omitempty"`
}

// Judge plays the pairing's best cards against each other.
func (p Pairing) Judge() (winner, loser ElementID, win, lose engine.Card, out Outcome, strides int) {
	a, b := cardOrder.Highest(p.ACards), cardOrder.Highest(p.BCards)
	if p.FuryBoth {
		return "", "", a, b, NoEffect, 0
	}
	if a.Rank().IsNumber() && a.Rank() == b.Rank() || a == engine.NoCard && b == engine.NoCard {
		return "", "", a, b, NoEffect, 0
	}
	winner, loser, win, lose = p.A, p.B, a, b
	if cardOrder.Compare(b, a) > 0 {
		winner, loser, win, lose = p.B, p.A, b, a
	}
	if p.Fury != "" && (winner == p.Fury || win.Rank().IsNumber()) {
		return winner, loser, win, lose, NoEffect, 0 // the fury has struck; only the other's wound counts
	}
	if !win.Rank().IsNumber() {
		return winner, loser, win, lose, Wound, 0
	}
	return winner, loser, win, lose, Impact, int(win.Rank()) - int(lose.Rank())
}

// Fight is a round's melee being resolved: its pairings in the order they
// apply, the next one to apply, and the impact its victor is spending.
type Fight struct {
	Pairings []Pairing `json:"pairings"`
	Next     int       `json:"next"`
	Impact   *Pending  `json:"impact,omitempty"`
}

// Pending is an impact waiting for its victor to spend it (10.1.3).
type Pending struct {
	Victor  ElementID `json:"victor"`
	Target  ElementID `json:"target"`
	Strides int       `json:"strides"`
}

// MeleeDrawn records the cards of every pairing of the round's melee, in
// the order the results will apply, and the jokers clans kept instead of
// playing (11.1).
type MeleeDrawn struct {
	Round    int       `json:"round"`
	Pairings []Pairing `json:"pairings"`
	Labels   []string  `json:"labels"` // each pairing's two elements, for narration
	Kept     []Kept    `json:"kept,omitempty"`
}

// Kept is a joker a clan drew in combat and kept (11.1).
type Kept struct {
	Clan ClanTag     `json:"clan"`
	Card engine.Card `json:"card"`
	Name string      `json:"name"`
	// Player leads the clan; events recorded before it was kept lack it.
	Player engine.PlayerID `json:"player,omitempty"`
}

// PairingVoided records a pairing that no longer applies: one of its
// elements has left the fight or the two are no longer in contact (MMR3),
// or its cards were equal numbers.
type PairingVoided struct {
	Index  int    `json:"index"`
	Reason string `json:"reason"`
}

// ImpactWon records a number card's win, whose strides the victor's
// player now spends with /impact.
type ImpactWon struct {
	Pending
	VictorLabel string          `json:"victor_label"`
	TargetLabel string          `json:"target_label"`
	Player      engine.PlayerID `json:"player"`
	Win         engine.Card     `json:"win"`
	Lose        engine.Card     `json:"lose"`
}

// FightEnded closes the round's melee; the cards played go to the discards.
type FightEnded struct {
	Round int `json:"round"`
}

var meleeBodies = engine.BodyTypes{
	MeleeDrawn{}.Kind():    engine.Decoder[MeleeDrawn](),
	PairingVoided{}.Kind(): engine.Decoder[PairingVoided](),
	ImpactWon{}.Kind():     engine.Decoder[ImpactWon](),
	ImpactSpent{}.Kind():   engine.Decoder[ImpactSpent](),
	FightEnded{}.Kind():    engine.Decoder[FightEnded](),
}

var meleeCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "impact", Help: "Spend an impact you won in melee; alone, it pushes the loser back all the way (10.1.3).", Options: []engine.OptionSpec{
		{Name: "push", Help: "other antagonist stands of the melee to push back one stride each, comma-separated", Kind: engine.OptElement},
		{Name: "forward", Help: "stands of your clan to bring forward one stride each, comma-separated", Kind: engine.OptElement},
	}}, Run: spendImpact},
}

func (MeleeDrawn) Kind() string    { return "gwab.melee-drawn" }
func (PairingVoided) Kind() string { return "gwab.pairing-voided" }
func (ImpactWon) Kind() string     { return "gwab.impact-won" }
func (FightEnded) Kind() string    { return "gwab.fight-ended" }

func (b MeleeDrawn) Apply(s *State) error {
	for _, p := range b.Pairings {
		if _, err := s.mustElement(p.A); err != nil {
			return err
		}
		if _, err := s.mustElement(p.B); err != nil {
			return err
		}
	}
	if err := s.keep(b.Kept); err != nil {
		return err
	}
	s.Fight = &Fight{Pairings: b.Pairings}
	return nil
}

func (b PairingVoided) Apply(s *State) error {
	if s.Fight == nil || b.Index != s.Fight.Next {
		return fmt.Errorf("gwab: pairing %d voided out of turn", b.Index)
	}
	s.Fight.Next++
	return nil
}

func (b ImpactWon) Apply(s *State) error {
	if s.Fight == nil {
		return fmt.Errorf("gwab: impact with no melee")
	}
	p := b.Pending
	s.Fight.Impact = &p
	return nil
}

func (b FightEnded) Apply(s *State) error {
	s.Fight = nil
	for i := range s.Elements {
		s.Elements[i].Extra = false
	}
	return nil
}

// role is how an element counts when cards are drawn (10.1.1).
type role uint8

const (
	roleOther role = iota // warband or charioteer
	roleHero
	roleCompanion
)

func (s *State) roleOf(el *Element) role {
	el = s.fighter(el) // a chariot fights as its rider (10.1.1)
	switch {
	case el.ID == s.Clan(el.Clan).Hero:
		return roleHero
	case el.Kind == Companion || el.Kind == Hero:
		return roleCompanion
	}
	return roleOther
}

// cardsAgainst is how many cards att draws against def (10.1.1).
func (s *State) cardsAgainst(att, def *Element) int {
	if att.Armor != "" {
		return 0 // a holder of armor plays no card (10.3.4)
	}
	a, d := s.roleOf(att), s.roleOf(def)
	switch {
	case a == roleHero && d == roleCompanion, a == roleCompanion && d == roleOther:
		return 2
	case a == roleHero && d == roleOther:
		return 3
	}
	return 1
}

// contacts lists the round's pairings: every two standing antagonist
// elements that touch, in the order the elements were raised.
func (s *State) contacts() [][2]*Element {
	// The exact test runs only for pairs whose centres lie within the sum
	// of the radii of the circles around them: a few, of thousands. To
	// find those without looking at every pair, the pieces are swept
	// from left to right by their circles' left edges; the pairs found
	// are then put back in the order of the elements.
	type piece struct {
		el     *Element
		i      int // in s.Elements
		r      float64
		side   Side
		player engine.PlayerID
	}
	type edge struct {
		left float64
		k    int // in in
	}
	in := make([]piece, 0, len(s.Elements))
	byLeft := make([]edge, 0, len(s.Elements))
	find := clanFinder{clans: s.Clans}
	for i := range s.Elements {
		el := &s.Elements[i]
		if !el.inPlay() {
			continue
		}
		c := find.index(el.Clan)
		if c < 0 {
			continue
		}
		b := el.Base
		r := math.Sqrt(b.Width*b.Width+b.Depth*b.Depth)/2 + engine.ContactTolerance/2
		byLeft = append(byLeft, edge{b.Center.X - r, len(in)})
		in = append(in, piece{el: el, i: i, r: r, side: s.Clans[c].Side, player: s.Clans[c].Player})
	}
	slices.SortFunc(byLeft, func(a, b edge) int { return cmp.Compare(a.left, b.left) })
	type pair struct{ a, b piece }
	var found []pair
	for j, pe := range byLeft {
		p := in[pe.k]
		right := p.el.Base.Center.X + p.r
		for _, qe := range byLeft[j+1:] {
			if qe.left > right {
				break // and so are all after it
			}
			q := in[qe.k]
			dx, dy, r := p.el.Base.Center.X-q.el.Base.Center.X, p.el.Base.Center.Y-q.el.Base.Center.Y, p.r+q.r
			if dx*dx+dy*dy > r*r || p.side == q.side || p.player == q.player {
				continue
			}
			if p.el.Base.Touches(q.el.Base) {
				a, b := p, q
				if b.i < a.i {
					a, b = b, a
				}
				found = append(found, pair{a, b})
			}
		}
	}
	slices.SortFunc(found, func(x, y pair) int {
		if c := cmp.Compare(x.a.i, y.a.i); c != 0 {
			return c
		}
		return cmp.Compare(x.b.i, y.b.i)
	})
	out := make([][2]*Element, len(found))
	for k, f := range found {
		out[k] = [2]*Element{f.a.el, f.b.el}
	}
	return out
}

// standing reports whether el is still in the fight as a figure: standing
// on the table, or riding a chariot (which has no base of its own).
func (s *State) standing(el *Element) bool {
	return el.Status == Standing && (el.Placed || el.Aboard != "")
}

// inPlay reports whether e can fight: standing on the table, and for a
// chariot, manned.
func (e *Element) inPlay() bool {
	return e.Status == Standing && e.Placed && (e.Kind != Chariot || e.manned())
}

// keep gives each clan the Jokers it drew and kept (11.1).
func (s *State) keep(kept []Kept) error {
	for _, k := range kept {
		c, err := s.mustClan(k.Clan)
		if err != nil {
			return err
		}
		c.Jokers = append(c.Jokers, k.Card)
	}
	return nil
}

// drawCards deals n combat cards for clan, keeping any joker and drawing
// again in its place (11.1).
func drawCards(tx *engine.Tx, s *State, clan ClanTag, n int, kept *[]Kept) ([]engine.Card, error) {
	var cards []engine.Card
	if cl := s.Clan(clan); cl != nil {
		tx.Ask(cl.Player, cl.Name)
	}
	for len(cards) < n {
		c, err := tx.Draw(CombatDeck)
		if err != nil {
			return nil, err
		}
		if c.IsJoker() {
			*kept = append(*kept, Kept{Clan: clan, Card: c, Name: s.Clan(clan).Name, Player: s.Clan(clan).Player})
			continue
		}
		cards = append(cards, c)
	}
	return cards, nil
}

// startMelee draws the cards of every pairing in contact. It reports
// false when no antagonists touch.
func startMelee(tx *engine.Tx, s *State) (bool, error) {
	if err := beforeMelee(tx, s); err != nil {
		return false, err
	}
	contacts := s.contacts()
	if len(contacts) == 0 {
		return false, nil
	}
	ev := MeleeDrawn{Round: s.Round}
	for _, c := range contacts {
		a, b := c[0], c[1]
		fury, both := s.furyIn(a, b)
		an, bn := s.cardsAgainst(a, b), s.cardsAgainst(b, a)
		if fury != "" { // one card each (10.1.3 item 2)
			an, bn = min(an, 1), min(bn, 1)
		}
		an, bn = an+b2i(a.Extra), bn+b2i(b.Extra)
		if both { // no side is without the fury: no pull (RULINGS.md, 10.1.3)
			an, bn = 0, 0
		}
		ac, err := drawCards(tx, s, a.Clan, an, &ev.Kept)
		if err != nil {
			return false, err
		}
		bc, err := drawCards(tx, s, b.Clan, bn, &ev.Kept)
		if err != nil {
			return false, err
		}
		ev.Pairings = append(ev.Pairings, Pairing{A: a.ID, B: b.ID, ACards: ac, BCards: bc, Fury: fury, FuryBoth: both})
	}
	// The highest winning card applies first; pairings of equal numbers
	// come last, in the order they were drawn.
	slices.SortStableFunc(ev.Pairings, func(x, y Pairing) int {
		_, _, wx, _, ox, _ := x.Judge()
		_, _, wy, _, oy, _ := y.Judge()
		if (ox == NoEffect) != (oy == NoEffect) {
			return cmp.Compare(b2i(ox == NoEffect), b2i(oy == NoEffect))
		}
		if ox == NoEffect {
			return 0
		}
		return cardOrder.Compare(wy, wx)
	})
	for _, p := range ev.Pairings {
		ev.Labels = append(ev.Labels, s.Element(p.A).Label(), s.Element(p.B).Label())
	}
	if err := tx.Emit(ev); err != nil {
		return false, err
	}
	return true, furyWounds(tx, s)
}

// resolveFight applies the fight's pairings in order until one waits for
// an impact to be spent, or all are done.
func resolveFight(tx *engine.Tx, s *State) error {
	for s.Fight != nil && s.Fight.Impact == nil && s.Fight.Next < len(s.Fight.Pairings) {
		i := s.Fight.Next
		p := s.Fight.Pairings[i]
		winner, loser, win, lose, out, strides := p.Judge()
		if out == NoEffect {
			reason := fmt.Sprintf("%s plays %s and %s plays %s: equal numbers, no effect", s.Element(p.A).Label(), win, s.Element(p.B).Label(), lose)
			switch {
			case p.FuryBoth:
				reason = fmt.Sprintf("%s and %s both held the fury of Ares and both struck; with neither side without it, no cards are pulled (10.1.3)",
					s.Element(p.A).Label(), s.Element(p.B).Label())
			case p.Fury != "" && winner != "":
				reason = fmt.Sprintf("%s plays %s against %s: the fury of Ares has struck, and only a wound by %s counts besides (10.1.3)",
					s.Element(winner).Label(), win, lose, s.Element(p.other(p.Fury)).Label())
			}
			if err := tx.Emit(PairingVoided{Index: i, Reason: reason}); err != nil {
				return err
			}
			continue
		}
		w, l := s.Element(winner), s.Element(loser)
		if !w.inPlay() || !l.inPlay() || !w.Base.Touches(l.Base) {
			reason := fmt.Sprintf("%s's %s against %s no longer counts: they are no longer in contact", w.Label(), win, l.Label())
			if err := tx.Emit(PairingVoided{Index: i, Reason: reason}); err != nil {
				return err
			}
			continue
		}
		if out == Wound {
			if err := wound(tx, s, l, w, fmt.Sprintf("%s beats %s", win, lose), true); err != nil {
				return err
			}
			if err := tx.Emit(PairingVoided{Index: i}); err != nil {
				return err
			}
			continue
		}
		victor := s.Clan(w.Clan)
		if err := tx.Emit(ImpactWon{
			Pending:     Pending{Victor: winner, Target: loser, Strides: strides},
			VictorLabel: w.Label(), TargetLabel: l.Label(), Player: victor.Player, Win: win, Lose: lose,
		}); err != nil {
			return err
		}
		tx.Say(engine.Message{Text: fmt.Sprintf("%s: spend the %s with /impact (the default, /impact alone, pushes %s back all the way).",
			victor.Player, strideText(float64(strides)), l.Label())})
		return nil
	}
	if s.Fight != nil && s.Fight.Impact == nil {
		for _, p := range s.Fight.Pairings {
			tx.Discard(CombatDeck, p.ACards...)
			tx.Discard(CombatDeck, p.BCards...)
		}
		return tx.Emit(FightEnded{Round: s.Round})
	}
	return nil
}

// other is the element of the pairing that is not id.
func (p Pairing) other(id ElementID) ElementID {
	if p.A == id {
		return p.B
	}
	return p.A
}

// furyIn is a or b when its Hero holds the fury of Ares, to be struck in
// this melee (furyWounds), or ""; both is set when the Heroes of both
// hold it.
func (s *State) furyIn(a, b *Element) (fury ElementID, both bool) {
	n := 0
	for _, el := range []*Element{a, b} {
		if f := s.fighter(el); f.Fury && s.standing(f) {
			if fury == "" {
				fury = el.ID
			}
			n++
		}
	}
	return fury, n == 2
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
