package bot

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// wordShapes are the shapes of broken English that a name or a count
// dropped into a sentence makes when the sentence does not fit it, each
// with what it is. The plural and possessive helpers of engine
// (engine.Plural, engine.Possessive) write them right.
var wordShapes = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\b[A-Z][a-z]*[a-z]s's\b`), `"s's" after a plural name: the Persians' , not the Persians's`},
	{regexp.MustCompile(`\b[A-Z][a-z]*[bcdfghjklmnpqrtvwxz]' [a-z]`), `"' " after a name not ending in s: Mordor's, not Mordor'`},
	{regexp.MustCompile(`(?i)\b([a-z]{2,}) ([a-z]{2,})(?:[^\w-]|$)`), "a word doubled"},
	{regexp.MustCompile(`(?i)(?:^|\b([a-z]+)[ (\[]|[\s(\[,:;])1 (?:([a-z]+) )?([a-z]+s)\b`), "1 with a plural"},
	{regexp.MustCompile(`[^\s]  +[^\s]`), "a double space inside a sentence"},
}

// ordinal are the words after which a 1 names a thing rather than counts
// them: "Turn 1 begins", "each 1 kills a stand".
var ordinal = map[string]bool{"turn": true, "book": true, "card": true, "side": true, "each": true, "double": true, "level": true, "round": true, "phase": true, "wing": true, "rank": true, "line": true, "player": true, "army": true, "game": true, "step": true, "sa": true, "ht": true, "a": true}

// linking are the words between a 1 and a plural that make the plural
// another number's: "1 of his 3 strides".
var linking = map[string]bool{"of": true, "in": true, "to": true, "and": true, "or": true, "at": true, "on": true, "by": true, "for": true, "from": true, "with": true}

// singularS are words that end in s and yet follow "1" rightly.
var singularS = map[string]bool{"is": true, "was": true, "has": true, "its": true, "as": true, "this": true, "plus": true, "minus": true, "less": true, "always": true, "class": true, "pass": true, "loss": true, "bonus": true, "status": true, "yes": true, "us": true}

// TestTranscriptWords scans every transcript golden of the repository
// (the rule systems', the bot's, the Discord replays') for the shapes of
// wordShapes and fails on each one found, naming the file and the line.
func TestTranscriptWords(t *testing.T) {
	root := ".."
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".golden") && strings.Contains(filepath.ToSlash(p), "/testdata/") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d goldens under %s", len(files), root)
	}
	unescape := strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\u003c`, "<", `\u003e`, ">", `\u0026`, "&")
	bad := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(unescape.Replace(string(src)), "\n") {
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "» ") {
				continue // the script's own comments and commands, as typed
			}
			for _, w := range brokenWords(line) {
				bad++
				if bad <= 200 {
					t.Errorf("%s:%d: %s in %q", p, i+1, w, line)
				}
			}
		}
	}
}

// brokenWords lists the shapes of wordShapes in one line of a transcript,
// each as what it is and the words that show it.
func brokenWords(line string) []string {
	var out []string
	line = strings.TrimLeft(line, " ")
	for _, sh := range wordShapes {
		for _, m := range sh.re.FindAllStringSubmatch(line, -1) {
			switch sh.what {
			case "a word doubled":
				if m[1] != m[2] {
					continue
				}
			case "1 with a plural":
				// "Turn 1 begins", "each 1 kills": a 1 that names or is
				// read, not one that counts; "1 of his 3 strides": the
				// plural is not the 1's.
				if ordinal[strings.ToLower(m[1])] || linking[strings.ToLower(m[2])] || singularS[m[3]] || strings.HasSuffix(m[3], "ss") || strings.HasSuffix(m[3], "us") {
					continue
				}
			}
			out = append(out, fmt.Sprintf("%s: %q", sh.what, m[0]))
		}
	}
	return out
}

// TestBrokenWords holds the scan to the shapes players met, and to
// sentences that are right.
func TestBrokenWords(t *testing.T) {
	for _, bad := range []string{
		"None of the Persians's units can move.",
		"It is Mordor' movement; wait for their /done.",
		"The next cards cards are stacked: 2C.",
		"Copied 1 games (3 events, 0 turn deadlines).",
		"Shock, moving: P1 on E1. Roll 7  = 7: no effect.",
		"The book, steps 1 to 4, in 1 pictures.",
		"8 turns, 1 movement cards a turn.",
	} {
		if len(brokenWords(bad)) == 0 {
			t.Errorf("brokenWords(%q) found nothing", bad)
		}
	}
	for _, good := range []string{
		"None of the Persians' units can move.",
		"It is Mordor's movement; wait for their /done.",
		"Turn 1 begins.",
		"Card 1 of 1: the 2 of Clubs.",
		"ROM-1 moves 6\" to 20,14, facing N (1\" left).",
		"/mount — spending 1 of his 3 strides (8.2).",
		"ORC-1 (Light Infantry, 8/12) strikes RNG-1: 1 figure as LI against HC, 1 die needing 6 [6 6 6]: 1 hit.",
		"    - EGY-1 (heavy infantry, spear, 8/8), green morale",
		"SUB sub-commander",
	} {
		if got := brokenWords(good); len(got) > 0 {
			t.Errorf("brokenWords(%q) = %v, want nothing", good, got)
		}
	}
}
