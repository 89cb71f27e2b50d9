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
//   - ruleset.go: what a rule system is ([Ruleset], [State]).
//   - rulebook.go: [Rulebook], the skeleton every rule system declares as
//     one literal: its decks, events, commands and directives, and typed
//     hooks on its state: who referees ([Rulebook.Referee]), whom the game
//     waits for ([Rulebook.Waits]; the engine writes each timeout's actor,
//     and [Rulebook.Caption] is a picture's default caption), what a
//     command after the end is told, completions, and /undo, which the
//     engine lists with help in the system's words. A system's picture is
//     a [Drawing] embedded beside its rulebook (view.go).
//   - ruling.go: the ruling kit: /ruling piece: reason: ([RulingSpec]),
//     the required reason, and the [Ruling] every ruling's event carries.
//   - read.go: one reader of a facing and of a place on an open table,
//     each with one refusal, and [Decimal], how every system writes a
//     measure.
//   - ending.go: /concede and /book end, whose shape and words are the
//     same in every rule system.
//   - card.go, deck.go, dice.go: playing cards with a per-ruleset [Ranking],
//     decks as draw and discard piles (with stacked draws for scenarios), and dice.
//   - event.go, command.go: what is recorded and what players ask for.
//   - game.go, tx.go: the fold, and the transaction that turns a command into
//     events. [Game.Decide] leaves the game as it was; [Game.Advance] is the
//     same for a caller that keeps the game after the step instead (the
//     router), which spares a copy of the state before it.
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
//   - ledger.go: a campaign whose record is a ledger of its heroes'
//     points ([Ledgered], which GWAB's sagas are): its standings, books and
//     lines, read by the published pages without knowing the rule system.
//   - secret.go: choices made in secret ([Sealed] bodies) that stay out of
//     what others can read of the log until a later event reveals them.
//   - bot.go: the bot, a player the engine plays itself. A rule system
//     that is a [Strategist] (through a [Strategy] typed on its state,
//     embedded beside its rulebook) lists the awaited player's candidate
//     commands and scores positions; [Think] searches them (Monte Carlo over
//     determinized copies: what the seat cannot see, the table's future
//     and a [Concealer]'s secrets, drawn afresh; playouts whose players
//     mostly give the best of a few sampled candidates; the budget spent
//     by successive halving on a shortlist of the candidates that look
//     best one step ahead, or on every candidate at the hard level), its
//     budget in playouts, depth and shortlist by [Level], seeded
//     from the table's seed and the step's number. A [Mixer] has the bot
//     draw a choice made in secret from a mix rather than search it; a
//     [Strider] has it look further ahead in a system of many small
//     steps, and a [Divider] share one decision's budget among the
//     commands of an answer given a piece at a time. seats.go has the
//     options with which set-up commands give seats to the bot
//     ([BotOpenOptions], [BotSetUpOptions]).
//   - scenario.go: prepared set-ups ([Scenario]) as scripts of set-up
//     commands, and /scenario load and save ([ParseScript], [WriteScript]).
//   - turns.go: whom a game waits for ([Await], [Awaiter]), who referees
//     it ([Mastered]), and what a player may ask of it ([Game.Permit]).
//   - campaign.go: campaigns of many books ([Campaigner], [Chronicle]).
//   - view.go: what a picture of the board shows ([View]), which render
//     draws without knowing the rules.
//   - line.go: a line typed at the local table ([ParseLine]).
//   - clone.go: deep copies of a state ([Copy]), for undo and the bot.
//   - words.go: [Plural], [Possessive], [Capital] and [JoinOr], which every
//     rule system uses to put counts and names into its sentences ("1
//     stand", "the Persians'", "Mordor's").
//
// Rule systems live in sub-packages, one each: gwab, sweet, btg, goliath
// and sgboh; engine/systems is the one list of them. Each is a
// [Rulebook] literal in its rules.go, and each lays its files out on one
// map, so that the same part has the same name in every system (a system
// without a part has no such file):
//
//   - doc.go: what the game is, and where its own files depart from
//     this map.
//   - rules.go: the Rulebook literal, New and Rules.
//   - state.go: the state folded from the events: the table and its pieces.
//   - troops.go: troop types or classes and what each can do; army.go:
//     raising an army (sample lists, lists typed in one line, points).
//   - terrain.go: kinds of ground and what they do.
//   - setup.go: opening a book, raising the armies and deploying them.
//   - scenarios.go: the prepared scenarios, the set-up commands they are
//     written in, and the set-up written back by /scenario save.
//   - turn.go: the sequence of play, /status, conceding and the end.
//   - move.go, fire.go, melee.go, morale.go: the mechanics, each with its
//     commands and events (melee.go holds the rules of melee; its number
//     tables may stand in tables.go).
//   - tables.go: number tables as the text prints them, kept apart where
//     several mechanics read them (tables_test.go types them in again
//     from the text, cell by cell).
//   - events.go: the event bodies, where a system declares them together
//     rather than beside each mechanic (gwab's book facts, sgboh's step
//     effects); nothing else.
//   - await.go: whom the game waits for, and completions of typed names.
//   - seats.go: the seats players hold; undo.go (with rewind.go where a
//     step keeps only what it changed): /undo.
//   - ruling.go: the game master's /ruling; measure.go: /measure, the
//     function of its [Tape].
//   - narrate.go: how each event reads to the table; view.go: the
//     picture of the board and /status.
//   - bot.go: what the bot needs to play a seat: the functions of its
//     [Strategy] (candidates, evaluate and, where the state hides
//     something, conceal; where a choice is sealed while the other side
//     makes its own, blend).
//
// A mechanic of one game alone keeps a file named for it: gwab's
// chariot.go, drive.go, javelin.go and runaway.go, honor.go and the saga files; sweet's mdi.go;
// btg's cards.go, civ.go and random.go (the random events of its §6);
// goliath's orders.go, magic.go and harm.go; sgboh's shock.go and
// rout.go.
//
// This package does no I/O and imports none of the bot, render or store
// packages.
package engine
