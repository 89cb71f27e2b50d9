package goliath

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestOnePlayerDeploysBothArmies hands the north army's seat to the
// south army's player before deployment: his /place unit:all sets the
// south army first, and once it is done the north army.
func TestOnePlayerDeploysBothArmies(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "ref", 5)
	p.Must(t,
		"ref|book open|size:48x36",
		"alice|army raise|name:Men|units:12 heavy infantry",
		"bob|army raise|name:Dead|units:12 orcs",
		"ref|seat hand|seat:DEA|to:alice|reason:bob has gone home",
		"alice|place|unit:all",
	)
	s := p.Game.State.(*State)
	placed := func(side Side) bool {
		for _, u := range s.inPlay(side) {
			if u.Base.Width == 0 {
				return false
			}
		}
		return len(s.inPlay(side)) > 0
	}
	if !placed(South) || placed(North) {
		t.Fatalf("after alice's first /place unit:all: the south army placed %v, the north %v; want the south only", placed(South), placed(North))
	}
	p.Must(t, "alice|done", "alice|place|unit:all")
	if !placed(North) {
		t.Fatal("once the south army is done, alice's /place unit:all did not set the north army")
	}
}
