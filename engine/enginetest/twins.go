package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TableTwin plays the script NAME.script of dir twice: as written, with
// its stacked decks and loaded dice, and as its twin at a table whose
// players roll and draw for themselves. The twin opens its book with
// dice:table, leaves out the #stack and #load lines, and answers each
// draw the bot asks for with /roll or /draw, entering what the first game
// drew at that point. The twin's script and transcript are compared with
// NAME.table.script and NAME.table.golden (written with update), and the
// test fails unless the twin's transcript, without its prompts and
// answers, says word for word what the original says without its
// directives for the draws: the same outcomes.
func TableTwin(t *testing.T, rules engine.Ruleset, dir, name string, update bool) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, name+".script"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")

	orig := NewTable(rules)
	twin := NewTable(rules)
	var script []string
	// user is who acts in the original; said who the twin's last line
	// named, so that a left-out line's @name is carried to the next.
	var user, said engine.PlayerID = orig.User, orig.User
	for _, text := range lines {
		before := len(orig.drawn)
		if _, err := orig.Play(text); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		drawn := append([]engine.Draw(nil), orig.drawn[before:]...)
		line, err := engine.ParseLine(text)
		if err != nil || line.Empty {
			script = append(script, text)
			twin.Play(text)
			continue
		}
		if line.User != "" {
			user = line.User
		}
		c := line.Command
		if c.Directive && (c.Name == "stack" || c.Name == "load") {
			continue
		}
		out := strings.TrimSpace(text)
		if line.User == "" && user != said {
			out = "@" + string(user) + " " + out
		}
		said = user
		if spec, ok := twin.spec(c.Name); ok && !c.Directive && spec.Is(engine.Opens) {
			out += " dice:table"
		}
		script = append(script, out)
		if _, err := twin.Play(out); err != nil {
			t.Fatalf("twin %s: %v", out, err)
		}
		for g := twin.Game(); g != nil && g.Table.Asked != nil; g = twin.Game() {
			answer, who, rest, err := answerFrom(g.Table.Asked, drawn)
			if err != nil {
				t.Fatalf("twin %s: %v", out, err)
			}
			if who != "" && who != said {
				answer = "@" + string(who) + " " + answer
				said = who
			}
			drawn = rest
			script = append(script, answer)
			seq := g.Seq
			if _, err := twin.Play(answer); err != nil {
				t.Fatalf("twin %s: %v", answer, err)
			}
			if twin.Game().Seq == seq {
				o := twin.out.String()
				t.Fatalf("twin: %s was not taken:\n%s", answer, o[max(0, len(o)-600):])
			}
		}
		if len(drawn) > 0 {
			t.Fatalf("twin %s: the original drew %v, which the twin never asked for", out, drawn)
		}
	}
	Golden(t, filepath.Join(dir, name+".table.script"), strings.Join(script, "\n")+"\n", update)
	got := twin.out.String()
	Golden(t, filepath.Join(dir, name+".table.golden"), got, update)
	if a, b := outcomes(orig.out.String(), false), outcomes(got, true); a != b {
		t.Fatalf("the twin's outcomes differ from the original's:\n%s", FirstDiff(a, b))
	}
}

// answerFrom answers the first open need of a with the first draws of its
// kind in drawn, and returns the draws left.
func answerFrom(a *engine.Asked, drawn []engine.Draw) (string, engine.PlayerID, []engine.Draw, error) {
	for _, n := range a.Needs {
		if !n.Open() {
			continue
		}
		var vals []string
		var rest []engine.Draw
		for _, d := range drawn {
			if len(vals) < n.Count && d.Deck == n.Deck && d.Die == n.Die {
				if d.Die != engine.NoDie {
					vals = append(vals, strconv.Itoa(d.Roll))
				} else {
					vals = append(vals, d.Card.String())
				}
				continue
			}
			rest = append(rest, d)
		}
		if len(vals) < n.Count {
			return "", "", nil, fmt.Errorf("the twin asks to %s, but the original drew only %v", n.What(), drawn)
		}
		if n.Die != engine.NoDie {
			return "/roll dice:" + quote(vals), n.For, rest, nil
		}
		return "/draw cards:" + quote(vals) + " deck:" + string(n.Deck), n.For, rest, nil
	}
	return "", "", nil, fmt.Errorf("nothing is open in %+v", a)
}

func quote(vals []string) string {
	if len(vals) == 1 {
		return vals[0]
	}
	return `"` + strings.Join(vals, " ") + `"`
}

var (
	// stackLines are the original's lines about its stacked draws.
	stackLines = regexp.MustCompile(`^(» (@\S+ )?#(stack|load)\b|The next .* (is|are) (stacked|loaded): |The .* is no longer (stacked|loaded)\.)`)
	// tableLines are the twin's prompts, answers and switch.
	tableLines = regexp.MustCompile(`^(» (@\S+ )?/(roll|draw) |Waiting for the table: |Entered at the table: |From now on the players roll )`)
	atName     = regexp.MustCompile(`^» @\S+ `)
)

// outcomes is a transcript without what a twin adds or leaves out.
func outcomes(transcript string, twin bool) string {
	var keep []string
	for _, l := range strings.Split(transcript, "\n") {
		if twin {
			if tableLines.MatchString(l) {
				continue
			}
			l = strings.Replace(l, " dice:table", "", 1)
		} else if stackLines.MatchString(l) {
			continue
		}
		// A directive line left out may have named the player, whom
		// the twin's next line names instead.
		keep = append(keep, atName.ReplaceAllString(l, "» "))
	}
	return strings.Join(keep, "\n")
}
