package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Command is what a player asked for, free of any transport: the slash
// command's name ("clan raise", "fire"), its options by name, and for table
// directives ("#place Hector 10,4") the positional arguments.
type Command struct {
	Actor PlayerID
	// Roles are the actor's roles where he plays (a Discord guild's), as
	// the transport knows them; rule systems that give a role powers (a
	// saga's Herald) read them.
	Roles     []string
	Name      string
	Options   map[string]string
	Args      []string
	Directive bool
	// Master is set when the transport vouches that Actor holds the
	// table's game-master rights by the server's own permissions (a
	// Manage Server member or a configured role), whoever opened the game.
	Master bool `json:"master,omitempty"`
}

// NewCommand is actor's command name with its options given as name,
// value pairs, as a computer player or a rule system builds one.
func NewCommand(actor PlayerID, name string, opts ...string) Command {
	c := Command{Actor: actor, Name: name, Options: make(map[string]string, len(opts)/2)}
	for i := 0; i+1 < len(opts); i += 2 {
		c.Options[opts[i]] = opts[i+1]
	}
	return c
}

// Has reports whether the option name was given.
func (c Command) Has(name string) bool {
	_, ok := c.Options[name]
	return ok
}

// Opt returns the option name, or "" when it was not given.
func (c Command) Opt(name string) string { return c.Options[name] }

// Int returns the option name as a whole number; def when it was not given.
func (c Command) Int(name string, def int) (int, error) {
	v, ok := c.Options[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, Refuse("", "%s:%s is not a whole number.", name, v)
	}
	return n, nil
}

// String writes the command the way the local table reads it.
func (c Command) String() string {
	var b strings.Builder
	if c.Directive {
		b.WriteString("#")
	} else {
		b.WriteString("/")
	}
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteString(" " + quoteIfNeeded(a))
	}
	for _, k := range sortedKeys(c.Options) {
		b.WriteString(" " + k + ":" + quoteIfNeeded(c.Options[k]))
	}
	return b.String()
}

// quoteIfNeeded quotes s the way the local table reads quoted values:
// inside double quotes, only a quote and a backslash are escaped. A
// semicolon is quoted too, since a scenario's commands are separated by
// them (scenario.go).
func quoteIfNeeded(s string) string {
	if s != "" && !strings.ContainsAny(s, "\"\\;") && strings.IndexFunc(s, unicode.IsSpace) < 0 {
		return s
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// OptionKind says what an option holds, so that a transport can type it
// (Discord's option types) and offer completions.
type OptionKind uint8

const (
	OptText    OptionKind = iota // free text
	OptInt                       // a whole number
	OptElement                   // a piece on the table, by its short name
	OptPoint                     // a position, as the board's ruler writes it
	OptPlayer                    // another player
	OptHero                      // a Hero of the saga
	OptChannel                   // a channel where the game is played
	OptRole                      // a role of the guild
	OptFeature                   // a named thing on the table that is no piece: terrain
)

// String names the kind in a sentence: "free text", "a piece".
func (k OptionKind) String() string {
	switch k {
	case OptText:
		return "free text"
	case OptInt:
		return "a whole number"
	case OptElement:
		return "a piece"
	case OptPoint:
		return "a position"
	case OptPlayer:
		return "a player"
	case OptHero:
		return "a Hero"
	case OptChannel:
		return "a channel"
	case OptRole:
		return "a role"
	case OptFeature:
		return "a feature of the table"
	}
	return fmt.Sprintf("OptionKind(%d)", uint8(k))
}

// OptionSpec describes one option of a command.
type OptionSpec struct {
	Name     string
	Help     string
	Kind     OptionKind
	Required bool
	Choices  []string // the only values allowed, when set
	// Formerly is the option's older name, which set-ups saved before it
	// was renamed still use: /scenario load reads it as this option.
	Formerly string
}

// CommandSpec describes one command a rule system understands. Name may
// have a group and a sub-command ("clan raise").
type CommandSpec struct {
	Name    string
	Help    string // one line for /help
	Options []OptionSpec
	// Example is one use of the command as a player would type it, for
	// /help COMMAND; left empty, /help writes one from the options.
	Example string
	// Flags say how the table and its transports treat the command.
	Flags Flags
}

// Flags say how the table treats a command, whatever its rule system:
// the router and the transports read them, never the command's name.
type Flags uint8

const (
	// Private commands answer the asker alone; a transport that shows
	// that it is working does so privately.
	Private Flags = 1 << iota
	// MasterOnly commands are for the table's game master alone: the
	// table refuses anyone else before the rules see the command.
	MasterOnly
	// Opens marks the command that begins a book (or a campaign) where
	// none is running; the table, not the game, handles it first.
	Opens
	// TakesBack marks the command that takes back the last step: the
	// engine runs it, and a rule system that lists one lets its steps be
	// taken back.
	TakesBack
	// Reads marks a command that only reads the game: it is answered
	// after the game has ended and changes nothing.
	Reads
	// SetsUp marks a game master's command that lays out the table
	// before play (terrain, pieces placed); a scenario is a script of
	// such commands (scenario.go).
	SetsUp
)

// Is reports whether s has every flag of f.
func (s CommandSpec) Is(f Flags) bool { return s.Flags&f == f }

// RequiredFirst returns the options in the order a transport lists them:
// the required ones first, each group in the order given.
func (s CommandSpec) RequiredFirst() []OptionSpec {
	out := slices.Clone(s.Options)
	slices.SortStableFunc(out, func(a, b OptionSpec) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	return out
}

// Option returns the spec of the option name.
func (s CommandSpec) Option(name string) (OptionSpec, bool) {
	for _, o := range s.Options {
		if o.Name == name {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// Renew returns c with every option given by its former name (see
// [OptionSpec.Formerly]) under its name now, unless both are given.
func (s CommandSpec) Renew(c Command) Command {
	for _, o := range s.Options {
		if o.Formerly == "" || !c.Has(o.Formerly) || c.Has(o.Name) {
			continue
		}
		opts := maps.Clone(c.Options)
		opts[o.Name] = opts[o.Formerly]
		delete(opts, o.Formerly)
		c.Options = opts
	}
	return c
}

// Check reports the first problem with c's options against s: an unknown
// option, a missing required one, or a value outside the choices.
func (s CommandSpec) Check(c Command) error {
	for _, k := range sortedKeys(c.Options) {
		o, ok := s.Option(k)
		if !ok {
			names := make([]string, len(s.Options))
			for i, o := range s.Options {
				names[i] = o.Name
			}
			if len(names) == 0 {
				return Refuse("", "/%s takes no options.", s.Name)
			}
			return Refuse("", "/%s has no option %q; it takes %s.", s.Name, k, strings.Join(names, ", "))
		}
		if len(o.Choices) > 0 && !containsFold(o.Choices, c.Options[k]) {
			return Refuse("", "%s:%s is not allowed; choose one of %s.", k, c.Options[k], strings.Join(o.Choices, ", "))
		}
	}
	for _, o := range s.Options {
		if o.Required && !c.Has(o.Name) {
			if len(o.Choices) > 0 && !mentionsAll(o.Help, o.Choices) {
				return Refuse("", "/%s needs %s: (%s), one of %s.", s.Name, o.Name, o.Help, strings.Join(o.Choices, ", "))
			}
			return Refuse("", "/%s needs %s: (%s).", s.Name, o.Name, o.Help)
		}
	}
	return nil
}

// mentionsAll reports whether help already names every choice.
func mentionsAll(help string, choices []string) bool {
	for _, c := range choices {
		if !strings.Contains(strings.ToLower(help), strings.ToLower(c)) {
			return false
		}
	}
	return true
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}

// Refusal is a command the rules do not allow, told to the player who gave
// it in game terms. Rule cites the section of the rules that forbids it.
type Refusal struct {
	Rule string
	Text string
}

func (r *Refusal) Error() string {
	if r.Rule == "" {
		return r.Text
	}
	return r.Text + " (" + r.Rule + ")"
}

// Refuse returns a [Refusal] citing rule ("" for none) with a formatted text.
func Refuse(rule, format string, args ...any) error {
	return &Refusal{Rule: rule, Text: fmt.Sprintf(format, args...)}
}

// IsRefusal reports whether err is a refusal, and returns it.
func IsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// ArmyTag reads the tag an army's pieces are named by ("ROM" in ROM-3):
// the tag given, or the first three letters of the army's name; either
// way 2 to 4 letters A to Z, or a refusal that says so.
func ArmyTag(given, name string) (string, error) {
	tag := strings.ToUpper(strings.TrimSpace(given))
	if tag == "" {
		for _, r := range strings.ToUpper(name) {
			if r >= 'A' && r <= 'Z' && len(tag) < 3 {
				tag += string(r)
			}
		}
	}
	if len(tag) < 2 || len(tag) > 4 || strings.Trim(tag, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return "", Refuse("", "tag: must be 2 to 4 letters.")
	}
	return tag, nil
}
