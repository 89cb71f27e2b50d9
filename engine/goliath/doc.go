// Package goliath runs Goliath, Guidelines for War Games (krusader74,
// version 0.6): mass combat with handfuls of six-sided dice, where the
// referee's judgement stands above every guideline.
//
// The bot resolves everything by the guidelines, so that a table without
// a referee can play, and the book's game master is the referee: /ruling
// overrules any result with a reason that stays in the log. Where the
// text is silent or open, RULINGS.md ("goliath") says what the bot does
// and why; the text has no section numbers, so rulings and refusals cite
// its headings ("Missile Fire", "Morale Check").
//
// A battle is played on an open table measured in inches by units of
// figures of one troop type each, standing in formation (a frontage of
// figures and as many ranks as they fill) with a facing. Armies are
// raised from the 33 troop types of the text, or from types the referee
// defines, and cost points. The book chooses one of the two turn
// sequences when it opens: move/countermove after an initiative roll, or
// written orders carried out at once by both sides. Written orders are
// sealed events (engine.Sealed): nobody sees the other side's orders
// until both are in and they are revealed together.
//
// The bot can lead either army (bot.go): it lists the commands of the
// awaited side at each stage of either turn sequence, written orders
// included, and scores a position by the share of each army's points
// standing less what each side may expect to lose in the blows to come,
// morale checks and all, weighed by who moves next; it draws the other
// side's sealed orders afresh rather than read them.
//
// Every die lives in the event that rolled it, so a battle replays
// exactly; the transcripts in testdata/transcripts stack the dice and
// play each mechanic from the text.
//
// The files follow the map of engine's doc: troops.go the figure
// characteristics and troop types; army.go raising an army from a list;
// terrain.go the kinds of ground; setup.go opening, defining types,
// raising and deploying; scenarios.go the prepared tables; turn.go the
// turn sequence (Method 1), /status, conceding and the end; orders.go
// written orders (Method 2); move.go, fire.go, melee.go and morale.go
// the mechanics; harm.go the dice pools, the melee matrix and how hits
// become figures lost; magic.go spells; ruling.go the referee's rulings;
// measure.go the tape measure (/measure, in inches: moves, charges,
// missile and spell ranges with their arcs, a hero's inspiration);
// await.go whom the battle waits for and who referees it; view.go the
// picture.
package goliath
