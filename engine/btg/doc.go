// Package btg is By the Gods! (rule text: btg-by-the-gods.txt), an
// ancients game on an open table driven by a deck of cards, D6 pools,
// morale colours, random events, sieges and civilizations.
//
// A battle opens with /book open rules:btg; each side raises an army (a
// sample one, or a unit list typed in one line with its civilization,
// §8a) and deploys it. Each turn draws movement cards (§1.A): number
// cards move half their number of their colour's units, black faces move
// lone leaders, red faces draw one of the 28 events (§6). Units move by
// the movement table, stop at obstacles (1.E) and charge (1.D, 3.B, 5.A);
// then both sides shoot (§2), and the bot plays morale from fire, melee
// (§5, §8b), morale from melee and the rally/rout phase (§3). Siege
// engines shoot at structures with damage values (§7). Every die and card
// is drawn through the engine's transaction and kept in the event that
// used it, so a battle replays exactly.
//
// The files follow the map of engine's doc: troops.go, civ.go, army.go
// and terrain.go the classes, weapons, civilizations, army lists and
// ground; tables.go the melee hit and leader-hit readings of §5;
// cards.go what a card means (activation, §1.A, and the event category
// and number, §6); setup.go opening, raising and deploying; turn.go the
// sequence of play, /status, conceding and the end; move.go movement and
// charges; fire.go shooting and siege fire; melee.go the phases no
// player acts in: morale from fire, melee, morale from melee, rout,
// rally and rampage; morale.go the morale check and its modifiers;
// random.go the random events (§6); ruling.go the game master's rulings
// and decisions; view.go the picture; measure.go the tape measure
// (/measure, in inches); await.go whom the battle waits for; bot.go what the bot weighs when
// it leads an army or answers for the game master (engine.Strategist):
// its candidate commands, only those the rules would take (every charge
// in reach, advances, a step back when threatened, places beside a
// friend to support him, and every shot it has, passing the fire phase
// only with none left), and a position scored by how near each army
// is to breaking, its figures, morale and leaders, and the melees and
// shots at hand, paired and supported as the melee phase pairs them,
// with the loser's chance to rout; botodds.go the odds of a roll of dice
// against armor, and the morale checks the losses call for, by which the
// bot weighs a volley or a melee. The bot sees nothing a player could
// not: the battle hides only the cards and dice to come, which the
// engine draws afresh for it.
// RULINGS.md,
// "btg: By the Gods!", records every ruling made where the text is
// silent or contradicts itself.
package btg
