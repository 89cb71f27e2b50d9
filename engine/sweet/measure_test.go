package sweet

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestMeasure counts squares as movement does (Movement 1): a diagonal
// step is one and a half. Before any army is on the board there is
// nothing to measure.
func TestMeasure(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "alice", 5)
	p.Must(t, "alice|book open|size:10x8|turns:3")
	if _, err := New().Measure(p.Game.State, "alice", "A1", "B2"); err == nil {
		t.Error("measured on a board with no unit")
	}
	g := setupGame(t)
	got, err := New().Measure(g.Game.State, "alice", "A1", "C2")
	if err != nil {
		t.Fatal(err)
	}
	if want := "From A1 to C2: 2.5 squares, a diagonal step counting one and a half (Movement 1)."; strings.TrimSpace(got) != want {
		t.Errorf("A1 to C2:\n got %s\nwant %s", got, want)
	}
}
