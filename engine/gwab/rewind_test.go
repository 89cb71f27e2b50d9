package gwab

import (
	"encoding/json"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestUndoFromACachedGame takes a step back in a twelve-clan battle kept
// as the router keeps it (the game a decision hands back, or one restored
// from a snapshot), where the step before is kept as the elements it
// changed: the game comes back exactly as it stood.
func TestUndoFromACachedGame(t *testing.T) {
	p := battle12(t)
	s := p.Game.State.(*State)
	before := stateJSON(t, p.Game)
	moved := s.ClanElements("A3")[4]
	res, err := p.Game.Decide(enginetest.Line("p1|ruling|piece:" + string(moved.ID) + "|at:20,20|facing:S|wounds:1|reason:knocked over"))
	if err != nil {
		t.Fatal(err)
	}
	if got := res.After.State.(*State).Element(moved.ID); got.Wounds != 1 || got.Base == moved.Base {
		t.Fatalf("the ruling left %s with %d wounds at %v, want 1 and moved", moved.ID, got.Wounds, got.Base.Center)
	}
	snap, err := res.After.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := engine.Restore(New(), snap)
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*engine.Game{"decided": res.After, "restored": restored} {
		back, err := g.Decide(enginetest.Line("p1|undo"))
		if err != nil {
			t.Fatalf("%s: /undo: %v", name, err)
		}
		if got := stateJSON(t, back.After); got != before {
			t.Errorf("%s: after /undo the book is\n%s\nwant it as before the ruling\n%s", name, got, before)
		}
	}
}

func stateJSON(t *testing.T, g *engine.Game) string {
	t.Helper()
	b, err := json.Marshal(g.State)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
