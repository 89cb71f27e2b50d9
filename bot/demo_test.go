package bot

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/store"
)

// demoSeeds are the seeds TestDemosIgnoreTheSeed plays each demonstration
// under: `rhapsode local --demo` opens its book with a seed drawn from
// crypto/rand, so a demonstration that leaves any card or die to chance
// plays differently from one run to the next.
var demoSeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0x9E3779B97F4A7C15, 1 << 63, 1<<64 - 1, 20260101}

// TestDemosIgnoreTheSeed plays every demonstration under many seeds and
// requires the same transcript from each: its stacked cards and loaded
// dice must cover every draw it makes.
func TestDemosIgnoreTheSeed(t *testing.T) {
	for _, key := range DemoKeys() {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			script, _ := Demo(key)
			seeds := demoSeeds
			if raceDetector {
				// Under the race detector a few seeds do: the point
				// there is the race, not the dice.
				seeds = seeds[:4]
			}
			var first string
			for i, seed := range seeds {
				got := playDemo(t, script, seed)
				if i == 0 {
					first = got
					continue
				}
				if got != first {
					t.Fatalf("the %s demonstration plays differently under seed %d than under seed %d:\n%s", key, seed, seeds[0], enginetest.FirstDiff(first, got))
				}
			}
		})
	}
}

// playDemo plays script at a fresh table whose games are opened with seed.
func playDemo(t *testing.T, script string, seed uint64) string {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return seed }})
	l := &Local{Router: r, Guild: "local", Channel: "table", User: "player", Echo: true}
	var out bytes.Buffer
	if err := l.Run(context.Background(), strings.NewReader(script), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
