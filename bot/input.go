package bot

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/rhapsode/rhapsode/engine"
)

// Hostile input stays small. Every option a player types is capped where
// the router takes it, before any rule system reads or stores it: names
// of clans, Heroes, companions, sagas and armies, and the pieces on the
// table, at MaxName characters; any other text (reasons, schedules,
// lists) at MaxText, a written order at MaxOrder. Every option must be UTF-8; it is normalised (NFC,
// so that one name typed on two keyboards is one name) and loses the
// characters Unicode says are invisible by default (zero-width spaces and
// joiners, variation selectors…), which would let one clan's name look
// like another's. Names lose control and bidirectional-formatting
// characters too, which would let one name rewrite how others read.

const (
	// MaxName is the most characters a name may have.
	MaxName = 40
	// MaxText is the most characters any other option may have.
	MaxText = 200
	// MaxOrder is the most characters of a written order (Goliath's
	// /orders order:), which may chain steps with "then" and a condition.
	MaxOrder = 300
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
	case name == "order":
		return MaxOrder
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

// defaultIgnorable reports whether r is a Default_Ignorable_Code_Point
// of Unicode's derived core properties: the other default-ignorables,
// variation selectors and format characters, less the format characters
// that show (prepended concatenation marks, interlinear annotation and
// Egyptian format controls).
func defaultIgnorable(r rune) bool {
	switch {
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case !unicode.Is(unicode.Cf, r), unicode.Is(unicode.Prepended_Concatenation_Mark, r):
		return false
	case r >= 0xFFF9 && r <= 0xFFFB, r >= 0x13430 && r <= 0x1345F:
		return false
	}
	return true
}

// cleanText reads s as a player typed it: it must be UTF-8, and it is
// normalised to NFC without its default-ignorable characters.
func cleanText(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	if strings.IndexFunc(s, defaultIgnorable) >= 0 {
		s = strings.Map(func(r rune) rune {
			if defaultIgnorable(r) {
				return -1
			}
			return r
		}, s)
	}
	return norm.NFC.String(s), true
}

// checkInput cleans the options of c and refuses it when one is not text,
// is only invisible characters, or is longer than its limit.
func checkInput(c *engine.Command) error {
	for k, v := range c.Options {
		clean, ok := cleanText(v)
		if !ok {
			return engine.Refuse("", "The %s you gave did not come through as readable text; nothing was done. Type it again.", k)
		}
		if clean == "" && v != "" {
			return engine.Refuse("", "The %s you gave holds only invisible characters; nothing was done.", k)
		}
		v = clean
		c.Options[k] = v
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
