package engine

import "strings"

// Ending a game early. A player gives up with /concede, and the game
// master ends the book by consent with /book end and the reason; what
// each counts then (points, losses, the honor of a book) is the rule
// system's, the commands' shape and words are the same everywhere.

// ConcedeSpec is /concede, with help in the rule system's words.
func ConcedeSpec(help string) CommandSpec { return CommandSpec{Name: "concede", Help: help} }

// BookEndSpec is /book end, with help in the rule system's words; what
// names what ends ("battle", "book", "game") in its reason's help.
func BookEndSpec(help, what string) CommandSpec {
	return CommandSpec{Name: "book end", Help: help, Flags: MasterOnly, Options: []OptionSpec{
		{Name: "reason", Help: "why the " + what + " ends"},
	}}
}

// EndReason is why c ends the book early: its reason:, or def when it
// gives none.
func EndReason(c Command, def string) string {
	if why := strings.TrimSpace(c.Opt("reason")); why != "" {
		return why
	}
	return def
}

// NotConceding refuses /concede from a player who leads no army in a
// battle under way.
func NotConceding() error {
	return Refuse("", "Only a player leading an army in a battle under way can concede.")
}
