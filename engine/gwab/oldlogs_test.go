package gwab

import (
	"encoding/json"
	"strings"
	"testing"
)

// Events logged before a fact was stored as such still read as that
// fact: an old book replays and narrates as it did.

func TestOldRunawayHaltsReadAsStops(t *testing.T) {
	for _, tt := range []struct {
		logged  string
		stop    RunStop
		against string
		text    string
	}{
		{`{"chariot":"MYR-CH","label":"MYR-CH (chariot)","strides":4,"halt":"strikes TRO-W1 (spearmen)"}`, StruckStand, "TRO-W1 (spearmen)", "and strikes TRO-W1 (spearmen); it stands there"},
		{`{"chariot":"MYR-CH","label":"MYR-CH (chariot)","strides":2,"halt":"halts at the edge of the Simois"}`, HaltedAtEdge, "the Simois", "and halts at the edge of the Simois; it stands there"},
		{`{"chariot":"MYR-CH","label":"MYR-CH (chariot)","strides":9}`, RanFree, "", "runs 9 strides to"},
	} {
		var b RanAway
		if err := json.Unmarshal([]byte(tt.logged), &b); err != nil {
			t.Fatal(err)
		}
		if b.Stop != tt.stop || b.Against != tt.against {
			t.Errorf("%s read as stop %d against %q", tt.logged, b.Stop, tt.against)
		}
		if !strings.Contains(b.Text(), tt.text) {
			t.Errorf("%s narrates %q, want it to say %q", tt.logged, b.Text(), tt.text)
		}
		s := &State{Elements: []Element{{ID: "MYR-CH", Kind: Chariot, Runaway: true, Status: Standing}}}
		if err := b.Apply(s); err != nil {
			t.Fatal(err)
		}
		if still := s.Elements[0].Runaway; still != (tt.stop == RanFree) {
			t.Errorf("%s leaves the chariot running away: %v", tt.logged, still)
		}
	}
}

func TestOldChariotCaptureCountsAsDeed(t *testing.T) {
	for _, tt := range []struct {
		logged   string
		captured bool
	}{
		{`{"hero":"MYR-H","points":5,"cause":"chariot","reason":"taking the Trojans' chariot"}`, true},
		{`{"hero":"MYR-H","points":5,"cause":"chariot","reason":"saving the Lycians' chariot"}`, false},
		{`{"hero":"MYR-H","points":-5,"cause":"chariot","reason":"the loss of his chariot"}`, false},
	} {
		var b HonorChanged
		if err := json.Unmarshal([]byte(tt.logged), &b); err != nil {
			t.Fatal(err)
		}
		if b.Captured != tt.captured {
			t.Errorf("%s read as captured %v", tt.logged, b.Captured)
		}
	}
}
