package gwab

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// FuzzGWABTurns plays any commands of alice's and bob's after a practice
// book has started: no command panics, a command fails only by refusal,
// and the records of what was played replay to the same book.
func FuzzGWABTurns(f *testing.F) {
	for _, seed := range []string{
		"alice|aloof\nbob|aloof\nalice|aloof\nbob|aloof",
		"alice|move|element:MYR-W1|to:13,12\nalice|done\nbob|aloof",
		"alice|fire|element:MYR-W3|target:TRO-W1\nbob|charge|element:ACH-W1|target:LYC-W1",
		"alice|challenge|hero:TRO-H|by:MYR-H\nbob|answer|reply:accept\nalice|impact",
		"alice|joker|use:jump|clan:MYR\nbob|invoke|hero:ACH-H\nalice|undo",
		"alice|book end|reason:enough\nbob|aloof",
	} {
		f.Add(seed)
	}
	p := enginetest.NewPlayer(f, New(), "alice", 3)
	p.Must(f,
		"alice|book open|mode:practice|terrain:on|javelins:3",
		"alice|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,spear,bow",
		"alice|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:sword,javelin,sling",
		"bob|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow",
		"bob|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,spear,javelin",
		"alice|book start",
	)
	started := enginetest.Prepare(f, p)
	f.Fuzz(func(t *testing.T, script string) {
		enginetest.Fuzz(t, started.Player(), script, nil)
	})
}

// TestFarTooLongElementName: a name of 100,000 characters is refused
// without a search for near names, quoting only its start.
func TestFarTooLongElementName(t *testing.T) {
	g, _ := aPracticeBook(t)
	_, err := g.State.(*State).findElement(strings.Repeat("MYR-W1", 100000/6))
	ref, ok := engine.IsRefusal(err)
	if !ok || len(ref.Text) > 100 {
		t.Fatalf("refused with %.200v", err)
	}
}
