package goliath_test

import (
	"os"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/goliath"
)

// TestClonesShareNothing: a copy of a battle, changed everywhere, leaves
// the original as it was: for a state with every field set, and for the
// battle at the end of every transcript.
func TestClonesShareNothing(t *testing.T) {
	enginetest.CloneIndependent(t, enginetest.Filled(&goliath.State{}))
	for name, path := range enginetest.Scripts(t, "testdata/transcripts") {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		table := enginetest.NewTable(goliath.New())
		if _, err := table.Play(string(src)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		enginetest.CloneIndependent(t, table.Game().State)
	}
}
