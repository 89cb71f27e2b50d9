package sweet_test

import (
	"os"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// TestClonesShareNothing: a copy of a game, changed everywhere,
// leaves the original as it was: for a state with every field set, and
// for the game at the end of every transcript.
func TestClonesShareNothing(t *testing.T) {
	enginetest.CloneIndependent(t, enginetest.Filled(&sweet.State{}))
	for name, path := range enginetest.Scripts(t, "testdata/transcripts") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		table := enginetest.NewTable(sweet.New())
		if _, err := table.Play(string(src)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		enginetest.CloneIndependent(t, table.Game().State)
	}
}
