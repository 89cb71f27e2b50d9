package sgboh_test

import (
	"os"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/sgboh"
)

// TestClonesShareNothing: a copy of a battle, changed everywhere, leaves
// the original as it was: for a state with every field set, and for the
// battle at the end of every transcript.
func TestClonesShareNothing(t *testing.T) {
	enginetest.CloneIndependent(t, enginetest.Filled(&sgboh.State{}))
	for name, path := range enginetest.Scripts(t, "testdata/transcripts") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		table := enginetest.NewTable(sgboh.New())
		if _, err := table.Play(string(src)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		enginetest.CloneIndependent(t, table.Game().State)
	}
}

// TestAdvanceKeepsPast plays every transcript as the router does, each
// step by Advance with the game after it kept: no step changes the battle
// it was decided on or any before it, the map that every copy of a state
// shares included, and the transcripts read as their goldens.
func TestAdvanceKeepsPast(t *testing.T) {
	enginetest.AdvanceKeepsPast(t, sgboh.New(), "testdata/transcripts")
}
