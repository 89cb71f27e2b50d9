package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The words every rule system puts around the names and counts it drops
// into a sentence, so that none writes "1 games", "the Persians's" or
// "Mordor' movement". The bot's test of every transcript golden looks for
// those shapes.

// Plural writes a count with its noun: "1 figure", "3 figures".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Possessive writes a name as an owner: a name ending in s takes an
// apostrophe alone ("the Persians'", "Achilles'"), any other "'s"
// ("Mordor's", "the Lycian band's").
func Possessive(name string) string {
	if strings.HasSuffix(name, "s") || strings.HasSuffix(name, "S") {
		return name + "'"
	}
	return name + "'s"
}

// Capital writes text with its first letter in upper case: "the
// Persians" opening a sentence is "The Persians".
func Capital(text string) string {
	if text == "" {
		return text
	}
	r, n := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(r)) + text[n:]
}

// JoinOr writes a list of choices for a sentence: "A", "A or B", "A, B
// or C".
func JoinOr(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
