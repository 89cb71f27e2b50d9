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
// The parts: state.go holds the table (clans, elements, the round);
// events.go the facts that are recorded; setup.go opening, raising,
// deployment and placement; round.go the sequence of play; move.go
// movement (8); chariot.go chariots, their crews, javelins and runaways
// (8, 9.2, 13.2); terrain.go terrain (13.1); narrate.go how each event
// reads to the table; rewind.go what a step changed, kept so that /undo
// can take it back without a second copy of the whole table; bot.go
// what the bot needs to lead clans (its candidate commands, the clans it
// raises when a book is opened against it, and stands, wounds and honor
// as its measure of a position). Rulings
// beyond the fixed ones of the design are listed in RULINGS.md at the
// top of the repository, each with the section it settles.
package gwab
