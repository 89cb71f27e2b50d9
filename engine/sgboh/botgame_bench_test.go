//go:build unix

package sgboh

import (
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// BenchmarkBotGame plays whole battles of the Successors, the arena's
// fair fight, one per iteration: two normal bots, and the hard bot against
// the easy one, as the arena pairs them. It reports the processor time of
// the level's decisions (median, p95, most): go test -run XXX -bench
// BotGame -benchtime 3x -cpu 1, with -cpuprofile to see where a decision
// goes.
func BenchmarkBotGame(b *testing.B) {
	for _, pair := range [][2]engine.Level{{engine.Normal, engine.Normal}, {engine.Hard, engine.Easy}} {
		level := pair[0]
		b.Run(level.String(), func(b *testing.B) {
			var each []time.Duration
			seed := uint64(61000)
			for b.Loop() {
				seed++
				p := enginetest.NewPlayer(b, New(), "alice", seed)
				a, o := engine.BotPlayer(pair[0])+"#a", engine.BotPlayer(pair[1])+"#b"
				p.Must(b, "alice|book open|scenario:successors",
					string(a)+"|side take|side:1", string(o)+"|side take|side:2", "alice|start")
				each = append(each, enginetest.TimeBots(b, p, level)...)
			}
			enginetest.ReportTimes(b, each, "decision")
			b.ReportMetric(float64(len(each)), "decisions")
		})
	}
}
