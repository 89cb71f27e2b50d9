// Package sgboh runs Simple Great Battles of History (the Berg-Herman
// simplification of GMT's Great Battles of Alexander): a hex map with no
// turns, where a player activates one leader at a time and keeps the
// initiative by continuity rolls against the leaders' initiative, and
// every shock is settled by one roll of a ten-sided die read 0 to 9.
//
// The text leans on the published game's standard rules and counters,
// which Rhapsode does not have and does not copy. What play needs beyond
// the text (unit types with troop quality, size and movement allowance,
// leaders' ratings, the missile table, movement costs, stacking, retreat
// and rout paths, army withdrawal) is the bot's own reconstruction,
// written down in RULINGS.md ("sgboh") with the reason for each choice,
// and the scenarios are orders of battle of our own making from the
// general histories of Alexander's battles.
//
// A battle is laid out by set-up commands (/setup map, /setup terrain,
// /setup side, /setup leader, /setup unit), which are also the scenario
// file format: a club writes its own battle as such a script, and
// /scenario save writes any battle back as one. The prepared scenarios
// open with /book open rules:sgboh scenario:NAME.
//
// Decisions are made on a working copy of the state; each event carries
// the dice it rolled and the units, leaders and sequence of play as they
// stand after it, so a battle replays exactly without rolling again. The
// other player's choices inside an activation (orderly withdrawal,
// reaction facing, reaction fire, retreat before combat) and the active
// player's pursuit are questions the game waits on, with buttons and a
// default at the deadline.
//
// The map, laid while the battle is set up, never changes while it is
// fought: copies of the state share it, and laying ground gives the
// state a new one (terrain.go), so a step copies only the pieces and the
// sequence of play.
//
// The files follow the map of engine's doc: troops.go the unit types and
// the number tables read by type (shock, pursuit, rally); terrain.go the
// ground of a hex, its costs and the map; state.go the pieces, armies
// and sequence of play; setup.go the set-up commands; scenarios.go the
// scenario format and the prepared battles; turn.go the sequence of play
// (activation, continuity, passing, conceding); move.go movement;
// fire.go missile fire; shock.go shock combat and the questions it asks;
// rout.go disorder, rout, retreat, pursuit and rally; events.go the step
// effects every event carries and the event kinds; await.go whom the
// battle waits for; measure.go the tape measure (/measure, in hexes);
// view.go the picture.
//
// The bot leads an army (bot.go): it lists the commands its seat could
// give (leaders to activate with a line, continuity gambles, and the pass
// only while it has routed units a roll of 8 or 9 would send running;
// an exposed leader's ride clear of the enemy; the activated units' moves
// toward, into contact with and away from the nearest enemies, shots,
// shocks, advances, rallies, and every answer to a question) and scores a
// battle by rout points against each army's limit (10.4), with the shocks
// each side could make where it stands, the leaders they put at risk
// included, counted at their worth over the die. The battle hides nothing
// from a player but the dice, which the engine's search draws afresh
// itself.
package sgboh
