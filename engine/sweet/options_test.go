package sweet_test

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// TestEveryOptionPlayed fails on a command, sub-command or option of the
// rules that no script of the repository uses.
func TestEveryOptionPlayed(t *testing.T) {
	for _, u := range enginetest.UnusedOptions(t, sweet.New()) {
		t.Errorf("no script plays /%s", u)
	}
}

// TestEveryOptionExplained fails on a command, option or directive that
// /help would show without its help.
func TestEveryOptionExplained(t *testing.T) {
	for _, u := range enginetest.Unexplained(sweet.New()) {
		t.Errorf("%s has no help", u)
	}
}

// TestMasterOnlyAsHelped fails on a command that /help calls the game
// master's alone but that any player may give, or the other way round.
func TestMasterOnlyAsHelped(t *testing.T) {
	for _, u := range enginetest.MasterOnlyUnsaid(sweet.New()) {
		t.Errorf("%s", u)
	}
}
