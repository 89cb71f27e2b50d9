package sweet

import (
	"encoding/json"
	"strings"
	"testing"
)

// A concession logged before how a game was decided was stored as a fact
// still reads as one, and says so.
func TestOldConcessionReadsAsConceded(t *testing.T) {
	for _, tt := range []struct {
		logged string
		how    Ending
		says   string
	}{
		{`{"reason":"with the Romans conceding","points":[80,120],"names":["Romans","Gauls"],"winner":1}`, Conceded, "The game ends with the Romans conceding; the Gauls win."},
		{`{"reason":"at the end of the agreed turns","points":[80,120],"names":["Romans","Gauls"],"winner":1}`, Counted, "The Gauls win."},
	} {
		var b GameEnded
		if err := json.Unmarshal([]byte(tt.logged), &b); err != nil {
			t.Fatal(err)
		}
		if b.How != tt.how || !strings.Contains(b.Text(), tt.says) {
			t.Errorf("%s read as %d, told %q; want %d, saying %q", tt.logged, b.How, b.Text(), tt.how, tt.says)
		}
	}
}
