package gwab

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestMeasure reads the tape measure (8.1, 9.3) between two stands 7
// strides apart front to front, facing each other: the gap between their
// bases, which missiles are measured by, is the same 7 strides; from a
// stand to a place it measures from the stand's front.
func TestMeasure(t *testing.T) {
	place := func(id, at, facing string) engine.Command {
		return engine.Command{Actor: "alice", Name: "place", Directive: true, Args: []string{id, at, facing}}
	}
	g, _ := play(t,
		opt("alice", "book open", "mode", "practice"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
		opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
		place("MYR-W1", "20,15", "N"),
		place("TRO-W1", "20,22", "S"),
	)
	for _, c := range []struct{ from, to, want string }{
		{"MYR-W1", "TRO-W1", "MYR-W1 (spearmen) to TRO-W1 (spearmen): 7 strides between the bases (as missiles are measured, 9.3); 7 strides from front to front."},
		{"MYR-W1", "20,18", "From the front of MYR-W1 (spearmen) (20,15) to 20,18: 3 strides."},
		{"20,18", "TRO-W1", "From 20,18 to the front of TRO-W1 (spearmen) (20,22): 4 strides."},
	} {
		got, err := New().Measure(g.State, "alice", c.from, c.to)
		if err != nil {
			t.Fatalf("from %s to %s: %v", c.from, c.to, err)
		}
		if strings.TrimSpace(got) != c.want {
			t.Errorf("from %s to %s:\n got %s\nwant %s", c.from, c.to, got, c.want)
		}
	}
}
