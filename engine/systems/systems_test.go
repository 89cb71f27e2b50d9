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
