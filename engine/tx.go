package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Tx is the working copy a rule system decides a command in. Cards drawn
// and dice rolled through it are recorded in the next event emitted, and
// each event is applied to the working copy as it is emitted, so later
// checks see its effect. Nothing reaches the real game until the caller
// applies the events the transaction produced.
type Tx struct {
	game     *Game
	actor    PlayerID
	rng      *rand.Rand
	draws    []Draw
	discards []Draw
	events   []Event
	messages []Message
	// dry is set for a trial run on the real game, which must not
	// change: the first Emit stops it with errWouldEmit.
	dry bool

	// Draws from the table (tabledraws.go): table is set when they do;
	// entered are the values the
	// table entered, still to be used; needs what the next event needs
	// that it has not entered; why what the next draws are for; sealed
	// whether a secret was laid down.
	table   bool
	entered []Draw
	needs   []Need
	asked   int // how many draws needs holds
	why     string
	whose   PlayerID
	sealed  bool
}

// errWouldEmit stops a dry run at the first event it would record.
var errWouldEmit = errors.New("engine: a dry run would record an event")

// State returns the working state. Rule systems read it and change it only
// by emitting events.
func (tx *Tx) State() State { return tx.game.State }

// Table returns the working table, for reading.
func (tx *Tx) Table() *Table { return &tx.game.Table }

// Actor returns the player whose command this is.
func (tx *Tx) Actor() PlayerID { return tx.actor }

// Draw deals the next card of deck: the next stacked card if a scenario
// stacked one, otherwise a random card of the draw pile, reshuffling the
// discards when the draw pile is empty.
func (tx *Tx) Draw(deck DeckName) (Card, error) {
	if tx.dry {
		return NoCard, errWouldEmit
	}
	d := tx.game.Table.Deck(deck)
	if d == nil {
		return NoCard, fmt.Errorf("engine: no %q deck on this table", deck)
	}
	if tx.table {
		if e, ok := tx.fromTable(Draw{Deck: deck}); ok {
			d.take(e.Card)
			tx.draws = append(tx.draws, e)
			return e.Card, nil
		}
		// Not entered yet: ask for it, and go on to the end of the event
		// with a stand-in card, so that every draw of the event is asked
		// at once. The trial is thrown away.
		// The stand-in is no joker, which the rules may draw again for,
		// asking for a card the table need not draw.
		tx.need(Draw{Deck: deck})
		d.Stacked = nil
		pick := *d
		pick.Draw = pick.Draw.Without(Joker).Without(Joker2)
		pick.Discard = pick.Discard.Without(Joker).Without(Joker2)
		if pick.Draw == 0 && pick.Discard == 0 {
			pick = *d
		}
		c, err := pick.choose(tx.rng, tx.spec(deck).Shuffled)
		if err != nil {
			return NoCard, err
		}
		d.take(c)
		return c, nil
	}
	c, err := d.choose(tx.rng, tx.spec(deck).Shuffled)
	if err != nil {
		return NoCard, err
	}
	d.take(c)
	tx.draws = append(tx.draws, Draw{Deck: deck, Card: c})
	return c, nil
}

// Roll throws die: the next loaded result if a scenario loaded one,
// otherwise a fair roll.
func (tx *Tx) Roll(die Die) int {
	if tx.dry {
		// A dry run leaves the table alone; the roll marks it as one to
		// run again for real.
		tx.draws = append(tx.draws, Draw{Die: die, Roll: 1})
		return 1
	}
	if tx.table {
		if e, ok := tx.fromTable(Draw{Die: die}); ok {
			tx.draws = append(tx.draws, e)
			return e.Roll
		}
		// Not entered yet: asked, with a stand-in roll (see Draw) that
		// goes round the faces, so that a rule that rolls again until
		// the dice differ ends.
		tx.need(Draw{Die: die})
		lo, hi := die.Range()
		return lo + tx.asked%(hi-lo+1)
	}
	var v int
	if l := tx.game.Table.Loaded[die]; len(l) > 0 {
		v = l[0]
	} else {
		v = die.roll(tx.rng)
	}
	draw := Draw{Die: die, Roll: v}
	tx.game.Table.applyDraws([]Draw{draw})
	tx.draws = append(tx.draws, draw)
	return v
}

// Discard returns cards to deck's discard pile when the next event is
// emitted.
func (tx *Tx) Discard(deck DeckName, cards ...Card) {
	for _, c := range cards {
		tx.discards = append(tx.discards, Draw{Deck: deck, Card: c})
	}
}

// Emit records b as the next event, with the draws and discards made since
// the last one, and applies it to the working copy.
func (tx *Tx) Emit(b Body) error {
	if tx.dry {
		return errWouldEmit
	}
	if _, ok := b.(Sealed); ok {
		tx.sealed = true
	}
	if len(tx.needs) > 0 {
		return errDrawsNeeded
	}
	tx.why, tx.whose = "", ""
	e := Event{Seq: tx.game.Seq + 1, Actor: tx.actor, Step: len(tx.events) == 0, Draws: tx.draws, Discards: tx.discards, Body: b}
	// The draws are already taken from the working table; apply the rest.
	tx.game.mark(e, true)
	if err := tx.game.fold(e); err != nil {
		return err
	}
	tx.events = append(tx.events, e)
	tx.draws, tx.discards = nil, nil
	return nil
}

// Emitted is how many events the transaction has emitted so far.
func (tx *Tx) Emitted() int { return len(tx.events) }

// Say adds a message to the command's reply. It is not recorded: use it
// for answers to questions and for what only one player may know.
func (tx *Tx) Say(m Message) { tx.messages = append(tx.messages, m) }

func isTableDirective(name string) bool {
	switch name {
	case "seed", "stack", "load":
		return true
	}
	return false
}

// tableDirective handles the scenario directives every table understands:
// #seed N, #stack DECK CARD..., #load DIE N....
func (tx *Tx) tableDirective(c Command) error {
	switch c.Name {
	case "seed":
		if len(c.Args) != 1 {
			return Refuse("", "#seed takes one number.")
		}
		n, err := strconv.ParseUint(c.Args[0], 10, 64)
		if err != nil {
			return Refuse("", "#seed takes a whole number, not %q.", c.Args[0])
		}
		return tx.Emit(Seeded{Seed: n})
	case "stack":
		if len(c.Args) < 1 {
			return Refuse("", "#stack takes a deck and the cards to come, like #stack combat KS 7H.")
		}
		name := DeckName(strings.ToLower(c.Args[0]))
		if tx.game.Table.Deck(name) == nil {
			return Refuse("", "There is no %q deck here; the decks are %s.", c.Args[0], tx.deckNames())
		}
		st := Stacked{Deck: name}
		spec := tx.spec(name)
		for _, a := range c.Args[1:] {
			card, err := ParseCard(a)
			if err != nil {
				return Refuse("", "%s", err)
			}
			if card.IsJoker() && !spec.Jokers {
				return Refuse("", "The %s deck has no jokers.", name)
			}
			st.Cards = append(st.Cards, card)
		}
		return tx.Emit(st)
	case "load":
		if len(c.Args) < 1 {
			return Refuse("", "#load takes a die and its next results, like #load d6 6 1.")
		}
		die, err := ParseDie(c.Args[0])
		if err != nil {
			return Refuse("", "%s", err)
		}
		lo, hi := die.Range()
		l := Loaded{Die: die}
		for _, a := range c.Args[1:] {
			n, err := strconv.Atoi(a)
			if err != nil || n < lo || n > hi {
				return Refuse("", "A %s shows %d to %d, not %q.", die, lo, hi, a)
			}
			l.Rolls = append(l.Rolls, n)
		}
		return tx.Emit(l)
	}
	return Refuse("", "Unknown directive #%s.", c.Name)
}

func (tx *Tx) spec(name DeckName) DeckSpec {
	for _, s := range tx.game.Rules.Decks() {
		if s.Name == name {
			return s
		}
	}
	return DeckSpec{}
}

func (tx *Tx) deckNames() string {
	var names []string
	for _, d := range tx.game.Table.Decks {
		names = append(names, string(d.Name))
	}
	return strings.Join(names, ", ")
}
