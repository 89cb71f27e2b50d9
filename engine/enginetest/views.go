package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// ViewLog returns what the table kept of the board's pictures with Views
// set: for each step, its line and the lines of the view that came and
// went ("+" and "-"), each a caption, a piece, a token, a zone, a piece
// of terrain, a mark of the step, or a button its messages offer.
func (t *Table) ViewLog() string { return t.views.out.String() }

// ViewGoldens plays each named script of dir at a table that keeps its
// views, and compares them with NAME.views beside the script; with update
// it writes them. A picture test that only decodes a picture sees none of
// this: the captions, pips, labels and marks the rule system chose.
func ViewGoldens(t *testing.T, rules engine.Ruleset, dir string, names []string, update bool) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, name+".script"))
			if err != nil {
				t.Fatal(err)
			}
			table := NewTable(rules)
			table.Views = true
			if _, err := table.Play(string(src)); err != nil {
				t.Fatal(err)
			}
			Golden(t, filepath.Join(dir, name+".views"), table.ViewLog(), update)
		})
	}
}

// viewLog writes the views of a game's steps as what changed.
type viewLog struct {
	out  strings.Builder
	last []string
}

func (l *viewLog) step(line string, g *engine.Game, last []engine.Event, buttons []engine.Button) {
	viewer, ok := g.Rules.(engine.Viewer)
	if !ok {
		return
	}
	now := viewLines(viewer.View(g, last))
	for _, b := range buttons {
		now = append(now, fmt.Sprintf("button %q for %q: %s", b.Label, b.For, b.Command))
	}
	fmt.Fprintf(&l.out, "» %s\n", strings.TrimSpace(line))
	for _, s := range l.last {
		if !slices.Contains(now, s) {
			fmt.Fprintf(&l.out, "  - %s\n", s)
		}
	}
	for _, s := range now {
		if !slices.Contains(l.last, s) {
			fmt.Fprintf(&l.out, "  + %s\n", s)
		}
	}
	l.last = now
}

// longFloat is a number with more decimals than a picture can show.
var longFloat = regexp.MustCompile(`-?\d+\.\d{3,}`)

// viewLines writes a view one thing to a line, its numbers to two
// decimals (so that the last bits of floating point, which may differ
// between machines, do not show).
func viewLines(v engine.View) []string {
	out := viewFields(v)
	for i, s := range out {
		out[i] = longFloat.ReplaceAllStringFunc(s, func(f string) string {
			x, _ := strconv.ParseFloat(f, 64)
			return strconv.FormatFloat(x, 'f', 2, 64)
		})
	}
	return out
}

func viewFields(v engine.View) []string {
	out := []string{
		fmt.Sprintf("board %d %gx%g %s", v.Kind, v.Width, v.Depth, v.Unit),
		"title " + v.Title,
		"caption " + v.Caption,
		"pips " + v.Pips,
	}
	for i, g := range v.Groups {
		out = append(out, fmt.Sprintf("group %d %+v", i, g))
	}
	for _, z := range v.Zones {
		out = append(out, fmt.Sprintf("zone %+v", z))
	}
	for _, tr := range v.Terrain {
		out = append(out, fmt.Sprintf("terrain %+v", tr))
	}
	for _, p := range v.Pieces {
		out = append(out, fmt.Sprintf("piece %+v", p))
	}
	for _, tk := range v.Tokens {
		out = append(out, fmt.Sprintf("token %+v", tk))
	}
	for _, m := range v.Marks {
		out = append(out, fmt.Sprintf("mark %+v", m))
	}
	for _, f := range v.Focus {
		out = append(out, fmt.Sprintf("focus %+v", f))
	}
	return out
}

// DeadlineGoldens plays each named script of dir, then lets up to steps
// deadlines pass one after the other (see [Table.Deadline]), and compares
// what they said with NAME.deadlines beside the script; with update it
// writes them. It shows whom each stage of the game waits for, and that
// the command standing for a late player is accepted and moves the game;
// a game not begun, or over, awaits no one.
func DeadlineGoldens(t *testing.T, rules engine.Ruleset, dir string, names []string, steps int, update bool) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, name+".script"))
			if err != nil {
				t.Fatal(err)
			}
			table := NewTable(rules)
			played, err := table.Play(string(src))
			if err != nil {
				t.Fatal(err)
			}
			for range steps {
				more, err := table.Deadline()
				if err != nil {
					t.Fatal(err)
				}
				if !more {
					break
				}
			}
			if a, ok := rules.(engine.Awaiter); ok {
				if w := a.Awaited(rules.NewState()); len(w) > 0 {
					t.Errorf("a game before its first step awaits %+v", w)
				}
				if g := table.Game(); g != nil && g.State.Over() {
					if w := a.Awaited(g.State); len(w) > 0 {
						t.Errorf("the game is over, yet it awaits %+v", w)
					}
				}
			}
			Golden(t, filepath.Join(dir, name+".deadlines"), strings.TrimPrefix(table.Transcript(), played), update)
		})
	}
}
