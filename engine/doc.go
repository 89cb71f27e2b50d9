// Package engine is the ruleset-neutral core of Rhapsode.
//
// A game is a fold of events. A player's [Command] is handed to the game's
// [Ruleset], which validates it against the current state inside a [Tx] and
// emits events; nothing changes until those events are applied. Every card
// dealt and every die rolled while deciding is recorded in the [Event] that
// used it, so replaying a log never draws again and always rebuilds the same
// state. New draws come from a per-game source seeded by the table's recorded
// seed and the sequence number of the action, never from a global generator
// or the clock.
//
// The parts:
//
//   - card.go, deck.go, dice.go: playing cards with a per-ruleset [Ranking],
//     decks as draw and discard piles (with stacked draws for scenarios), and dice.
//   - event.go, command.go: what is recorded and what players ask for.
//   - game.go, tx.go: the fold, and the transaction that turns a command into events.
//   - table.go: the state every game has whatever its rules: seed, decks, loaded dice.
//   - geometry (open.go, square.go, hex.go): positions and bases on an open
//     table, and square and hex grids, for all five rule systems.
//   - undo.go: taking the last step back (/undo). A game keeps the step
//     before as a whole copy of its state, or, when the rule system's state
//     is a [Rewinder], as what the step changed.
//   - seats.go: the seats players hold (a clan, an army, a side; [Seater]),
//     and /seat hand, which the engine decides for every rule system: the
//     game master hands a seat to another member, with a reason, as a
//     logged [SeatHanded] step.
//   - tabledraws.go: books whose draws come from the players at the table
//     (dice:table). A command that needs a draw not yet entered records only
//     that it waits ([Asked]); /roll and /draw answers ([Entered]) are
//     checked against what was asked, and the last one decides the command
//     again with the entered values, which its events record as any draw,
//     marked as entered at the table. Rule systems say for whom and why
//     they draw with [Tx.Ask] and [Tx.Why].
//   - secret.go: choices made in secret ([Sealed] bodies) that stay out of
//     what others can read of the log until a later event reveals them.
//   - bot.go: the bot, a player the engine plays itself. A rule system
//     that is a [Strategist] lists the awaited player's candidate commands
//     and scores positions; [Think] searches them (Monte Carlo over
//     determinized copies: what the seat cannot see, the table's future
//     and a [Concealer]'s secrets, drawn afresh; playouts whose players
//     mostly give the best of a few sampled candidates; the budget spent
//     by successive halving), its budget in playouts by [Level], seeded
//     from the table's seed and the step's number. seats.go has the
//     options with which set-up commands give seats to the bot
//     ([BotOpenOptions], [BotSetUpOptions]).
//   - words.go: [Plural] and [Possessive], which every rule system uses
//     to put counts and names into its sentences ("1 stand", "the
//     Persians'", "Mordor's").
//
// Rule systems live in sub-packages (engine/gwab and its siblings), each
// implementing [Ruleset]. This package does no I/O and imports none of the
// bot, render or store packages.
package engine
