// Package sweet runs the ancient wargame that Gerard de Gre wrote and
// Charles and David Sweet revised (rules/sweet-de-gre-ancient-grid.txt): whole
// armies on a square grid, with melee decided by choices each side makes
// in secret.
//
// A game opens with /book open rules:sweet. Each side then takes one of
// the seven sample armies or builds one from the unit table to the
// game's points total; the first army takes the south edge and the second
// the north. Both deploy in the three rows at their edge, and a roll-off
// decides who attacks first. Each turn follows the turn sequence:
// catapults shoot, then other missile troops (both sides in each stage,
// as if at once), the attacker moves, the attacker and then the defender
// declare supports, and every melee is fought out; then the defender
// becomes the attacker.
//
// In each melee both sides choose a melee deployment indicator with /mdi.
// The choice is recorded in the log, so that a replay rebuilds the game,
// but it is sealed (engine.Sealed): its narration, the board and exports
// of the log show it face down until both choices are in and the melee is
// resolved, whose event reveals them (engine.Revealer).
//
// The files follow the map of engine's doc: troops.go is the unit table;
// army.go the sample armies and armies built to points; state.go the
// game; setup.go opening, mustering and deployment; scenarios.go the
// prepared scenarios and the set-up commands they are written in;
// turn.go the turn sequence and the end of the game; fire.go catapult
// fire (the clay shell as a die roll) and missile fire; move.go
// movement, charges, elephants, running down, catapults taken, and
// falling back; detach.go light troops splitting and reforming; mdi.go the indicators and the superiority table;
// melee.go supports, the secret choices and the melee procedure;
// narrate.go how each event reads; view.go the board picture and
// /status; ruling.go and measure.go /ruling and /measure; bot.go what
// the bot needs to lead an army (the candidate commands of each stage,
// the points standing, less what the melees to come may cost, as its
// measure, each unit counted in one melee, a catapult in a contact
// square and a unit with no way back at stake too, and a finished game
// scored as its end was told; the other side's sealed indicators drawn
// afresh, since it may not read them; and the mix its own indicators and its army are drawn
// from; a book opened against the bot awaits it, while the book musters,
// to pick its army). Every gap of the
// text this package settles is listed in RULINGS.md, under the rules'
// own section names (the text numbers its paragraphs within each
// section: "Movement 4" is the fourth paragraph of MOVEMENT).
package sweet
