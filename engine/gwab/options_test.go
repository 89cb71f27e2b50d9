package gwab_test

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestEveryOptionPlayed fails on a command, sub-command or option of the
// rules that no script of the repository uses.
func TestEveryOptionPlayed(t *testing.T) {
	for _, u := range enginetest.UnusedOptions(t, gwab.New()) {
		t.Errorf("no script plays /%s", u)
	}
}
