package systems

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/commands.golden")

// TestCommandReference writes every command of every system as a player
// meets it (its help, an example, who may give it, and each option: what
// it holds, whether it must be given, its choices and its help) and
// compares it with testdata/commands.golden, the reference a club reads
// before a first game. An option that stops being required, a choice
// gone, a help line lost or a command no longer the game master's shows
// there as a change to look at; -update rewrites it.
func TestCommandReference(t *testing.T) {
	var b strings.Builder
	for _, rs := range All() {
		fmt.Fprintf(&b, "# %s (%s)\n", rs.Title(), rs.ID())
		for _, c := range rs.Commands() {
			fmt.Fprintf(&b, "\n/%s%s\n  %s\n", c.Name, flagText(c), c.Help)
			if c.Example != "" {
				fmt.Fprintf(&b, "  e.g. %s\n", c.Example)
			}
			for _, o := range c.Options {
				must := "optional"
				if o.Required {
					must = "required"
				}
				fmt.Fprintf(&b, "  %s: %s, %s: %s", o.Name, o.Kind, must, o.Help)
				if len(o.Choices) > 0 {
					fmt.Fprintf(&b, " [%s]", strings.Join(o.Choices, "|"))
				}
				if o.Formerly != "" {
					fmt.Fprintf(&b, " (formerly %s:)", o.Formerly)
				}
				b.WriteString("\n")
			}
		}
		b.WriteString("\n")
	}
	golden := filepath.Join("testdata", "commands.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./engine/systems -run TestCommandReference -update)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("the command reference differs from %s at line %d:\n got: %s\nwant: %s\n(go test ./engine/systems -run TestCommandReference -update rewrites it; check the change is meant)", golden, i+1, g, w)
			}
		}
	}
}

// flagText names the flags a player notices.
func flagText(c engine.CommandSpec) string {
	var fs []string
	for _, f := range []struct {
		f    engine.Flags
		name string
	}{
		{engine.MasterOnly, "game master only"}, {engine.Private, "answered privately"},
		{engine.Reads, "reads only"}, {engine.SetsUp, "set-up"}, {engine.Opens, "opens a book"},
		{engine.TakesBack, "takes back a step"},
	} {
		if c.Is(f.f) {
			fs = append(fs, f.name)
		}
	}
	if len(fs) == 0 {
		return ""
	}
	return " (" + strings.Join(fs, ", ") + ")"
}
