package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// readCounter is a store that counts the reads a step may save: of a
// channel's game, and of when a game's events were recorded.
type readCounter struct {
	*store.Store
	active, recorded int
}

func (c *readCounter) ActiveGame(ctx context.Context, guild, channel string) (store.Game, error) {
	c.active++
	return c.Store.ActiveGame(ctx, guild, channel)
}

func (c *readCounter) Recorded(ctx context.Context, id store.GameID, after engine.Seq) ([]time.Time, error) {
	c.recorded++
	return c.Store.Recorded(ctx, id, after)
}

// TestStepAfterOpenReadsNothing plays each system's battle and counts,
// from the step after its book opens, the reads of the channel's game
// and of recording times: there are none, since each step starts from
// the row the step before it left, the opening included.
func TestStepAfterOpenReadsNothing(t *testing.T) {
	for _, key := range DemoKeys() {
		t.Run(key, func(t *testing.T) {
			st := &readCounter{Store: openStore(t, filepath.Join(t.TempDir(), "reads.db"))}
			r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
			p := &player{lines: demoLines(t, key), name: "c"}
			opened := false
			for range p.lines {
				req := p.next()
				step(t, r, req)
				if req.Command.Name == "book open" {
					opened = true
					st.active, st.recorded = 0, 0
				}
			}
			if !opened {
				t.Fatal("the battle opens no book")
			}
			if st.active != 0 || st.recorded != 0 {
				t.Errorf("the steps after the book opened read the channel's game %d times and recording times %d times, want none", st.active, st.recorded)
			}
		})
	}
}
