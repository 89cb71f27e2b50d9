package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Campaigns. Some rule systems are played as long campaigns: many books in
// one guild, over weeks, with a record that outlives each of them (gwab's
// sagas and their Herald). A campaign is itself a game: it has its own
// rule system, commands, events and state, and it is stored and decided
// exactly like a book. Two things join the two: a newly opened book
// enlists in the running campaign, recording in its own log what it takes
// from it (the Heroes and their honor), and the campaign follows its
// books, recording in its log what their events did (the ledger).
// Neither reads the other's log at replay: each keeps in its own events
// what it learned, so both replay exactly.

// Campaigner is a rule system whose books may belong to a campaign.
type Campaigner interface {
	Ruleset
	// Campaign is the campaign's rule system.
	Campaign() Chronicle
	// Enlist records, in a book just opened, what it takes from the
	// running campaign, whose state is campaign and whose name in the
	// store is ref.
	Enlist(tx *Tx, campaign State, ref string) error
}

// Chronicle is the rule system of a campaign.
type Chronicle interface {
	Ruleset
	// Begin starts a campaign with the player's opening command. previous
	// is the state of the guild's last campaign, or nil when it has none.
	Begin(tx *Tx, c Command, previous State) error
	// Follow records what the events of one of its books did. book is the
	// book's name in the store; events are the book's events after those
	// already followed (see [Following]), in order.
	Follow(tx *Tx, book string, events []Event) error
}

// Following is implemented by the state of a campaign: it says how far
// each of its books has been followed, and which books it has not yet
// seen end.
type Following interface {
	Followed(book string) Seq
	Following() []string
}

// Heralded is implemented by the state of a campaign that announces in a
// channel of its own. The announcements of its books' steps go there.
type Heralded interface {
	HeraldChannel() string
}

// Titled is implemented by the state of a campaign that has a name, by
// which players may ask for it after it has ended.
type Titled interface {
	Title() string
}

// Enlisted is implemented by the state of a book that can belong to a
// campaign. Campaign is the campaign's name in the store, "" when the
// book belongs to none.
type Enlisted interface {
	Campaign() string
}

// Begin decides a campaign's opening command on g, a campaign that holds
// only its Opened event.
func (g *Game) Begin(c Command, previous State) (Result, error) {
	ch, ok := g.Rules.(Chronicle)
	if !ok {
		return Result{}, fmt.Errorf("engine: %s is not a campaign", g.Rules.ID())
	}
	if spec, ok := g.Spec(c.Name); ok {
		if err := spec.Check(c); err != nil {
			return Result{}, err
		}
	}
	return g.transact(c.Actor, func(tx *Tx) error { return ch.Begin(tx, c, previous) })
}

// Enlist records in g, a book just opened, what it takes from campaign.
func (g *Game) Enlist(campaign *Game, ref string) (Result, error) {
	cr, ok := g.Rules.(Campaigner)
	if !ok {
		return Result{}, fmt.Errorf("engine: %s books have no campaigns", g.Rules.ID())
	}
	return g.transact("", func(tx *Tx) error { return cr.Enlist(tx, campaign.State, ref) })
}

// Follow records in g, a campaign, what the book's events did. Most of a
// book's steps change nothing in its campaign: that is found out by a dry
// run on g itself, which stops at the first event it would record, and
// only then is the campaign copied for a transaction. The cost of an
// ordinary step does not grow with the campaign.
func (g *Game) Follow(book string, events []Event) (Result, error) {
	ch, ok := g.Rules.(Chronicle)
	if !ok {
		return Result{}, fmt.Errorf("engine: %s is not a campaign", g.Rules.ID())
	}
	dry := &Tx{game: g, dry: true}
	switch err := ch.Follow(dry, book, events); {
	case err == nil && len(dry.draws) == 0:
		return Result{}, nil
	case err != nil && !errors.Is(err, errWouldEmit):
		return Result{}, err
	}
	return g.transact("", func(tx *Tx) error { return ch.Follow(tx, book, events) })
}

// transact runs decide in a transaction on a copy of g: the events it
// emits and the messages it says, or its refusal, and g unchanged.
func (g *Game) transact(actor PlayerID, decide func(tx *Tx) error) (Result, error) {
	return g.transactWith(actor, false, nil, decide)
}

// transactWith is transact, with the draws from the table when table is
// set, and values entered at the table for the
// command's draws (tabledraws.go). A decision that needs draws the table
// has not entered returns a *drawsNeeded.
func (g *Game) transactWith(actor PlayerID, table bool, entered []Draw, decide func(tx *Tx) error) (Result, error) {
	tx := &Tx{game: g.Clone(), actor: actor, table: table, entered: slices.Clone(entered)}
	tx.rng = tx.game.Table.rand(g.Seq + 1)
	err := tx.decide(decide)
	if len(tx.needs) > 0 {
		return Result{}, &drawsNeeded{needs: tx.needs, secret: tx.sealed}
	}
	if err != nil {
		return Result{}, err
	}
	if len(tx.draws) > 0 || len(tx.discards) > 0 {
		return Result{}, fmt.Errorf("engine: a step of %s drew or discarded cards that no event records", g.Rules.ID())
	}
	if len(tx.events) > 0 {
		tx.game.undo = tx.game.undo.settle(tx.game, g)
	}
	return Result{Events: tx.events, Messages: tx.messages, After: tx.game}, nil
}

// decide runs decide on tx, stopping it when it asks the table for more
// draws than one event may (tabledraws.go).
func (tx *Tx) decide(decide func(tx *Tx) error) (err error) {
	if tx.table {
		defer func() {
			if p := recover(); p != nil {
				if p != errDrawsNeeded {
					panic(p)
				}
				err = errDrawsNeeded
			}
		}()
	}
	return decide(tx)
}
