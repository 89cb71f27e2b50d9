package gwab

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// battle12 is a battle of six players and twelve clans (96 elements),
// started, at the first turn of its first round.
func battle12(b testing.TB) *enginetest.Player {
	p := enginetest.NewPlayer(b, New(), "p1", 12)
	p.Must(b, "p1|book open|mode:battle")
	for i := 1; i <= 6; i++ {
		pl := fmt.Sprintf("p%d", i)
		p.Must(b,
			fmt.Sprintf("%s|clan raise|name:Pro%d|hero:Hero%dP|side:protagonist|warbands:spear,spear,bow,javelin|tag:P%d", pl, i, i, i),
			fmt.Sprintf("%s|clan raise|name:Ant%d|hero:Hero%dA|side:antagonist|warbands:spear,sword,sling,javelin|tag:A%d", pl, i, i, i),
		)
	}
	p.Must(b, "p1|book start")
	return p
}

// BenchmarkRoundSteps compares an ordinary step (the first clan standing
// aloof) with the step that ends a round (the last clan standing aloof,
// after which every contact on the table is found and fought) in a
// twelve-clan battle: deciding only, no store.
func BenchmarkRoundSteps(b *testing.B) {
	p := battle12(b)
	s := p.Game.State.(*State)
	aloof := func() engine.Command {
		return engine.Command{Actor: s.Current().Player, Name: "aloof"}
	}
	first := aloof()
	b.Run("ordinary", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.Game.Decide(first); err != nil {
				b.Fatal(err)
			}
		}
	})
	for len(s.Order)-s.Turn > 1 {
		p.Must(b, string(s.Current().Player)+"|aloof")
		s = p.Game.State.(*State)
	}
	last := aloof()
	b.Run("round-end", func(b *testing.B) {
		for b.Loop() {
			if _, err := p.Game.Decide(last); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCachedGame reports what a twelve-clan battle in mid-round
// holds in memory, as the router caches it (its state, its table, and the
// game as it stood before its last step, for /undo): bytes per game,
// measured over many copies.
func BenchmarkCachedGame(b *testing.B) {
	p := battle12(b)
	s := p.Game.State.(*State)
	p.Must(b, string(s.Current().Player)+"|aloof")
	const n = 200
	snap, err := p.Game.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	keep := make([]*engine.Game, n)
	var before, after runtime.MemStats
	for b.Loop() {
		clear(keep)
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range keep {
			// Each its own game, undo included, as a restored game is.
			if keep[i], err = engine.Restore(New(), snap); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "bytes/game")
	runtime.KeepAlive(keep)
}
