package systems

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestEverySystem checks what the bot asks of every rule system on the
// list: an id of its own that ByID finds again, a title, its commands,
// and a tape measure (/measure, which /help lists at every table).
func TestEverySystem(t *testing.T) {
	seen := map[string]bool{}
	for _, rs := range All() {
		id := rs.ID()
		if id == "" || seen[id] {
			t.Errorf("rule system %q: empty or listed twice", id)
		}
		seen[id] = true
		if got, ok := ByID(id); !ok || got.ID() != id {
			t.Errorf("ByID(%q) = %v, %v", id, got, ok)
		}
		if rs.Title() == "" || len(rs.Commands()) == 0 {
			t.Errorf("%s: no title or no commands", id)
		}
		if _, ok := rs.(engine.Measurer); !ok {
			t.Errorf("%s has no tape measure (engine.Measurer)", id)
		}
	}
	if ids := IDs(); len(ids) != len(seen) || ids[0] != "gwab" {
		t.Errorf("IDs() = %v; want every system once, gwab first", ids)
	}
	if _, ok := ByID("chess"); ok {
		t.Error("ByID found a system that is not on the list")
	}
}

// TestOptionsMeanOneThing checks that an option holds the same kind of
// thing wherever players meet it. Discord registers one /fire for every
// table, so its unit: is a piece in every system that has it or the bot
// refuses to start; and the names players type most (unit:, piece:,
// target:, at:, to:) hold one kind of thing in every command, so that
// Discord offers the same completions for them everywhere.
func TestOptionsMeanOneThing(t *testing.T) {
	everywhere := map[string]engine.OptionKind{
		"unit": engine.OptElement, "piece": engine.OptElement, "target": engine.OptElement,
		"at": engine.OptPoint, "to": engine.OptPoint,
	}
	byCommand := map[string]engine.OptionKind{}
	for _, rs := range All() {
		for _, c := range rs.Commands() {
			for _, o := range c.Options {
				key := c.Name + " " + o.Name
				if had, ok := byCommand[key]; ok && had != o.Kind {
					t.Errorf("/%s: is %s in one system and %s in %s", key, had, o.Kind, rs.ID())
				}
				byCommand[key] = o.Kind
				if want, ok := everywhere[o.Name]; ok && o.Kind != want {
					t.Errorf("%s /%s %s: is %s; everywhere else it is %s", rs.ID(), c.Name, o.Name, o.Kind, want)
				}
			}
		}
	}
}
