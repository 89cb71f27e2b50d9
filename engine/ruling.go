package engine

import (
	"fmt"
	"strings"
)

// Rulings. After the cards or dice, a table may agree that a result
// should stand otherwise (a die off the table, a piece set in the wrong
// place). Every rule system's game master overrules it the same way:
// /ruling piece: reason: and what the ruling sets, a command only he
// may give, decided as its own step whose event carries a [Ruling]: who
// ruled, on what, and why. The log, the export and the picture keep it,
// and /undo takes it back like any step.

// RulingOptions are the options every /ruling starts with: the piece it
// is on (help says what a piece is in the rule system) and the reason.
func RulingOptions(help string) []OptionSpec {
	return []OptionSpec{
		{Name: "piece", Help: help, Kind: OptElement, Required: true},
		{Name: "reason", Help: "why, for the log", Required: true},
	}
}

// RulingSpec is a rule system's /ruling: its help and example, the piece
// option's help, then the options naming what the ruling may set.
func RulingSpec(help, example, piece string, sets ...OptionSpec) CommandSpec {
	return CommandSpec{Name: "ruling", Flags: MasterOnly, Help: help, Example: example,
		Options: append(RulingOptions(piece), sets...)}
}

// Ruling is what every ruling's event carries: the game master who ruled,
// the piece as the table knew it then, and his reason.
type Ruling struct {
	By     PlayerID `json:"by"`
	Label  string   `json:"label"`
	Reason string   `json:"reason"`
}

// NewRuling starts c's ruling on the piece the table knows as label; a
// ruling without a reason is refused.
func NewRuling(c Command, label string) (Ruling, error) {
	reason, err := RulingReason(c)
	return Ruling{By: c.Actor, Label: label, Reason: reason}, err
}

// RulingReason returns the reason c gives, or refuses c without one.
func RulingReason(c Command) (string, error) {
	reason := strings.TrimSpace(c.Opt("reason"))
	if reason == "" {
		return "", Refuse("", "A ruling gives its reason, for the log: reason:…")
	}
	return reason, nil
}

// Tell says the ruling to the table: who ruled ("game master",
// "referee"), what it set, and why.
func (r Ruling) Tell(title string, what []string) string {
	return fmt.Sprintf("The %s (%s) rules on %s: %s. Reason: %s.", title, r.By, r.Label, strings.Join(what, "; "), strings.TrimSuffix(r.Reason, "."))
}

// NothingRuled refuses a ruling that sets nothing, naming what it may set.
func NothingRuled(sets ...string) error {
	opts := make([]string, len(sets))
	for i, s := range sets {
		opts[i] = s + ":"
	}
	return Refuse("", "A ruling sets something: %s.", JoinOr(opts))
}
