// Package gwab runs Gang Warfare in the Age of Bronze (GWAB), the Homeric
// clan skirmish rules that are Rhapsode's flagship.
//
// A game of this package is one book (section 12): a session in which
// every player fields two clans, one on each side (2.2). The book opens,
// clans are raised, the book starts with deployment in huddles (7), and
// then rounds follow (6.1): each clan is dealt a card from the sequence
// deck and acts once, in card order; then every antagonistic contact
// fights (10), and the end of the book is checked (6.2).
//
// The files follow the map of engine's doc: state.go the table (clans,
// elements, the round); events.go the facts a book records; setup.go
// opening, raising, deployment and placement; scenarios.go the prepared
// scenarios and the set-up directives they are written in (terrain,
// placement, honor and wounds); turn.go the round (6.1) and the end of
// the book; move.go movement (8); fire.go missile fire (9); melee.go the
// melee of a round (10.1), with impact.go, wound.go, succession.go,
// withdraw.go and loot.go for what follows from it; challenge.go and
// duel_steps.go challenges (10.2); joker.go and divine.go the Joker and
// the gods (11); honor.go the honor chart (4); chariot.go chariots, their
// crews and their orders (8, 9.2, 13.2), drive.go the geometry of a
// chariot's drive, javelin.go the javelins thrown from it and runaway.go
// a chariot that bolts (8.7); terrain.go terrain (13.1); narrate.go and
// buttons.go how each event reads and what it offers; await.go, seats.go,
// undo.go and rewind.go whom the book waits for, its seats and /undo
// (rewind.go keeps what a step changed rather than a second copy of the
// table); ruling.go, measure.go and view.go /ruling, /measure and the
// picture; bot.go what the bot needs to lead clans (its candidate
// commands, the clans it raises when a book is opened against it, and
// stands, wounds against their limits and honor as its measure of a
// position). The saga (4, 5, 13.3), a rule system of its
// own (SagaRules), is in saga.go and the saga_*.go files, and enlist.go
// ties a book to it. Rulings beyond the fixed ones of the design are
// listed in RULINGS.md at the top of the repository, each with the
// section it settles.
package gwab
