package goliath_test

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/goliath"
)

// TestAdvanceKeepsPast plays every transcript as the router does, each
// step by Advance with the game after it kept: no step changes the game
// it was decided on or any before it, and the transcripts read as their
// goldens.
func TestAdvanceKeepsPast(t *testing.T) {
	enginetest.AdvanceKeepsPast(t, goliath.New(), "testdata/transcripts")
}
