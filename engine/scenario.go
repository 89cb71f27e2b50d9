package engine

import (
	"fmt"
	"strings"
)

// Scenarios: a game master lays out a table by commands flagged
// [SetsUp] (terrain, pieces placed before the start), one by one or all
// at once from a scenario, a script of such commands. A rule system
// offers prepared scenarios by name, and writes any game's set-up back as
// a script, so that a club can save a table in one channel and load it in
// another.

// Scenario is a prepared set-up, loaded by name.
type Scenario struct {
	Name   string
	Help   string // one line: what the table looks like
	Script string // set-up commands, as [ParseScript] reads them
}

// ParseScript reads a scenario's commands: lines written as at the local
// table without a player ("/setup terrain kind:rough …"), separated by
// new lines or by semicolons outside quotes, so that a whole scenario
// fits in one chat option. Blank parts and comments are skipped.
func ParseScript(text string) ([]Command, error) {
	var out []Command
	for i, part := range splitScript(text) {
		l, err := ParseLine(part)
		if err != nil {
			return nil, fmt.Errorf("part %d (%s): %w", i+1, clipText(part), err)
		}
		if l.Empty {
			continue
		}
		if l.User != "" || l.Command.Directive {
			return nil, fmt.Errorf("part %d (%s): a scenario holds only set-up commands, written /command with no player", i+1, clipText(part))
		}
		out = append(out, l.Command)
	}
	return out, nil
}

// WriteScript writes commands as one line that [ParseScript] reads back.
func WriteScript(cmds []Command) string {
	parts := make([]string, len(cmds))
	for i, c := range cmds {
		c.Directive = false
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// splitScript splits text at new lines and at semicolons outside double
// quotes.
func splitScript(text string) []string {
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quoted && ch == '\\' && i+1 < len(text):
			cur.WriteByte(ch)
			cur.WriteByte(text[i+1])
			i++
			continue
		case ch == '"':
			quoted = !quoted
		case !quoted && (ch == ';' || ch == '\n'):
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(ch)
	}
	return append(parts, cur.String())
}

func clipText(s string) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// The commands a rulebook with scenarios adds.
const (
	loadScenario = "scenario load"
	saveScenario = "scenario save"
)

// scenarioSpecs describes /scenario load and /scenario save for b.
func (b *Rulebook[S]) scenarioSpecs() []CommandSpec {
	if len(b.Scenarios) == 0 && b.SetUp == nil {
		return nil
	}
	names := make([]string, len(b.Scenarios))
	for i, sc := range b.Scenarios {
		names[i] = sc.Name
	}
	return []CommandSpec{
		{Name: loadScenario, Help: "Lay out the table from a prepared scenario, or from what /scenario save wrote in any channel, before the start. Game master only.",
			Flags: MasterOnly, Example: "/scenario load name:" + first(names), Options: []OptionSpec{
				{Name: "name", Help: "a prepared scenario: " + strings.Join(names, ", "), Choices: names},
				{Name: "script", Help: "the set-up /scenario save wrote, pasted whole"},
			}},
		{Name: saveScenario, Help: "Write this book's set-up (terrain and pieces placed) as one line that /scenario load lays out again, here or in another channel.",
			Flags: Private | Reads},
	}
}

func first(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// decideScenario runs /scenario load or /scenario save; ok is false for
// any other command.
func (b *Rulebook[S]) decideScenario(tx *Tx, s S, c Command) (ok bool, err error) {
	switch c.Name {
	case loadScenario:
		return true, b.load(tx, s, c)
	case saveScenario:
		if b.SetUp == nil {
			return true, Refuse("", "%s cannot write a set-up.", b.Name)
		}
		tx.Say(Message{To: c.Actor, Text: "The set-up of this table; give it to /scenario load script: in any channel before play begins:\n" + WriteScript(b.SetUp(s))})
		return true, nil
	}
	return false, nil
}

// load runs a scenario's commands, all in one step: one refused, none is
// kept.
func (b *Rulebook[S]) load(tx *Tx, s S, c Command) error {
	var script, what string
	switch {
	case c.Has("name") == c.Has("script"):
		return Refuse("", "/scenario load takes either name: (a prepared scenario) or script: (what /scenario save wrote).")
	case c.Has("name"):
		for _, sc := range b.Scenarios {
			if strings.EqualFold(sc.Name, c.Opt("name")) {
				script, what = sc.Script, fmt.Sprintf("the scenario %s: %s", sc.Name, sc.Help)
			}
		}
		if script == "" {
			return Refuse("", "There is no scenario %q; /help scenario load lists them.", c.Opt("name"))
		}
	default:
		script, what = c.Opt("script"), "a saved set-up"
	}
	cmds, err := ParseScript(script)
	if err != nil {
		return Refuse("", "That scenario does not read: %v.", err)
	}
	if len(cmds) == 0 {
		return Refuse("", "That scenario holds no set-up commands.")
	}
	for i, sc := range cmds {
		r, ok := b.rule(sc.Name)
		if !ok || !r.Is(SetsUp) {
			return Refuse("", "Part %d of the scenario, /%s, is not a set-up command.", i+1, sc.Name)
		}
		sc = r.Renew(sc)
		sc.Actor, sc.Roles, sc.Master = c.Actor, c.Roles, c.Master
		if err := r.Check(sc); err != nil {
			return scenarioRefusal(i, sc, err)
		}
		if err := r.Run(tx, s, sc); err != nil {
			return scenarioRefusal(i, sc, err)
		}
	}
	tx.Say(Message{Text: fmt.Sprintf("%s has laid out the table from %s.", c.Actor, what)})
	return nil
}

func scenarioRefusal(i int, c Command, err error) error {
	if ref, ok := IsRefusal(err); ok {
		return Refuse(ref.Rule, "Part %d of the scenario (%s) does not stand, so nothing was laid out: %s", i+1, clipText(c.String()), ref.Text)
	}
	return err
}

func (b *Rulebook[S]) rule(name string) (Rule[S], bool) {
	for _, r := range b.CommandRules {
		if r.Name == name {
			return r, true
		}
	}
	return Rule[S]{}, false
}
