package bot

import (
	"embed"
	"path"
	"slices"
	"strings"
)

// demos holds the demonstrations `rhapsode local --demo` plays, one per
// rule system that has one, named by its key: gwab's is a short practice
// book with missile fire, a melee, a challenge and a fallen Companion.
// Each has its cards stacked and its dice loaded, every draw it makes, so
// that it plays the same way whatever seed its book is opened with (the
// command line's is drawn from crypto/rand; TestDemosIgnoreTheSeed plays
// each under many), and each is played as a transcript test.
//
//go:embed demos/*.script
var demos embed.FS

// DemoSeed is the seed every demonstration's game is played with: the
// draws its stacked cards and loaded dice leave to chance then fall as in
// its transcript.
const DemoSeed = 1

// Demo returns the demonstration script of the rule system key, and
// whether there is one.
func Demo(key string) (string, bool) {
	b, err := demos.ReadFile(path.Join("demos", key+".script"))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// DemoKeys lists the rule systems that have a demonstration, in order.
func DemoKeys() []string {
	entries, _ := demos.ReadDir("demos")
	var keys []string
	for _, e := range entries {
		keys = append(keys, strings.TrimSuffix(e.Name(), ".script"))
	}
	slices.Sort(keys)
	return keys
}
