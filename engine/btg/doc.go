// Package btg holds the tables and army-list vocabulary of By the Gods!
// (rule text: btg-by-the-gods.txt), an ancients game driven by a deck of
// cards, D6 pools, morale colours, random events, sieges and civilizations.
//
// This first part is tables and pure functions that read dice and cards
// against them: the movement table by terrain (§1), the activation and event
// cards (§1.A, §6), missile ranges and hit bands with their modifiers and
// casualties less armor (§2.F-J), base morale by 2D6 and its colour and the
// morale check with its modifiers (§3), the melee chart by weapon with bonus
// dice and elephants' triple damage (§5, §8b), the siege damage table (§7),
// the 18 civilizations (§8a), and the parser that turns a one-line unit list
// into validated units. It is not yet a rule system: it does not implement
// engine.Rulebook and is not registered with the bot. RULINGS.md, section
// "btg: By the Gods!", records the gaps settled here and what is not yet
// implemented.
package btg
