package bot

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rhapsode/rhapsode/engine"
)

// Hostile input stays small. Every option a player types is capped where
// the router takes it, before any rule system reads or stores it: names
// of clans, Heroes, companions, sagas and armies, and the pieces on the
// table, at MaxName characters; any other text (reasons, schedules,
// lists) at MaxText. Names lose control and bidirectional-formatting
// characters, which would let one name rewrite how others read.

const (
	// MaxName is the most characters a name may have.
	MaxName = 40
	// MaxText is the most characters any other option may have.
	MaxText = 200
	// MaxScript is the most characters of a scenario's set-up pasted
	// whole (/scenario load script:), Discord's longest option.
	MaxScript = 6000
	// quoteLen is the most characters of what was typed a refusal quotes.
	quoteLen = 24
)

// nameOptions are the options that hold a name.
var nameOptions = map[string]bool{"name": true, "hero": true, "companion": true, "saga": true, "army": true,
	"clan": true, "element": true, "unit": true, "target": true, "piece": true}

// OptionLimit returns the most characters the option called name may hold.
// Transports declare it too (Discord's max_length).
func OptionLimit(name string) int {
	switch {
	case nameOptions[name]:
		return MaxName
	case name == "companions":
		// Two names and a comma.
		return 2*MaxName + 1
	case name == "script":
		return MaxScript
	}
	return MaxText
}

// Quote writes s for a refusal: at most a few dozen characters of it,
// quoted.
func Quote(s string) string {
	if utf8.RuneCountInString(s) > quoteLen {
		r := []rune(s)
		return fmt.Sprintf("%q…", string(r[:quoteLen]))
	}
	return fmt.Sprintf("%q", s)
}

// cleanName drops control and bidirectional-formatting characters from a
// name.
func cleanName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
}

// checkInput cleans the names of c and refuses it when an option is
// longer than its limit.
func checkInput(c *engine.Command) error {
	for k, v := range c.Options {
		if nameOptions[k] || k == "companions" {
			v = strings.TrimSpace(cleanName(v))
			c.Options[k] = v
		}
		if n, most := utf8.RuneCountInString(v), OptionLimit(k); n > most {
			return engine.Refuse("", "The %s you gave is %d characters long; it may have at most %d (it began %s).", k, n, most, Quote(v))
		}
	}
	return nil
}
