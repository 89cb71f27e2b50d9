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
			aw := New()
			for b.Loop() {
				seed++
				p := enginetest.NewPlayer(b, New(), "alice", seed)
				a, o := engine.BotPlayer(pair[0])+"#a", engine.BotPlayer(pair[1])+"#b"
				p.Must(b, "alice|book open|scenario:successors",
					string(a)+"|side take|side:1", string(o)+"|side take|side:2", "alice|start")
				for steps := 0; steps < 3000 && !p.Game.State.Over(); steps++ {
					who := aw.Awaited(p.Game.State.(*State))[0].Player
					l, _ := engine.IsBot(who)
					t0 := enginetest.CPUTime(b)
					d, err := engine.Think(p.Game, who, l)
					if l == level {
						each = append(each, enginetest.CPUTime(b)-t0)
					}
					if err != nil {
						b.Fatal(err)
					}
					if _, err := p.Do(b, d.Command); err != nil {
						b.Fatalf("%s: %v", d.Command, err)
					}
				}
			}
			enginetest.ReportTimes(b, each, "decision")
			b.ReportMetric(float64(len(each)), "decisions")
		})
	}
}
