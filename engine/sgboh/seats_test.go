package sgboh

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// A seat is handed by its army's name: the Persians go to carol and the
// Greeks stay with alice; then the Persians come back to bob.
func TestSeatHandedByArmyName(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "gm", 5)
	p.Must(t,
		"gm|book open",
		"gm|setup map|size:10x8",
		"gm|setup side|name:Greeks|edge:S|withdraw:20",
		"gm|setup side|name:Persians|edge:N|withdraw:20",
		"alice|side take|side:1",
		"bob|side take|side:2",
		"gm|seat hand|seat:Persians|to:carol|reason:bob is called away",
	)
	want := func(greeks, persians engine.PlayerID) {
		t.Helper()
		got := map[string]engine.PlayerID{}
		for _, st := range p.Game.State.(*State).Seats() {
			got[st.ID] = st.Player
		}
		if got["Greeks"] != greeks || got["Persians"] != persians {
			t.Errorf("seats %v; want the Greeks with %s and the Persians with %s", got, greeks, persians)
		}
	}
	want("alice", "carol")
	p.Must(t, "gm|seat hand|seat:Persians|to:bob|reason:bob is back")
	want("alice", "bob")
}
