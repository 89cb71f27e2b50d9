//go:build unix

package goliath

import (
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// cpuPerOp reports, when the function it returns is called, the
// processor time the benchmark spent per operation: on a machine other
// processes share, wall time says little about the bot's speed on one
// core (run with -cpu 1).
func cpuPerOp(b *testing.B) func() {
	start := enginetest.CPUTime(b)
	return func() {
		b.ReportMetric(float64((enginetest.CPUTime(b)-start).Milliseconds())/float64(max(1, b.N)), "cpu-ms/op")
	}
}

// BenchmarkBotMove is one decision of the normal bot in the movement
// phase of the second turn, on the arena's armies: go test -bench
// BotMove -cpu 1 gives its time on one core.
func BenchmarkBotMove(b *testing.B) {
	p := botGame(b, "", "move", 7, "6", false)
	advance(b, p, func(s *State) bool { return s.Turn == 2 && s.Stage == Moving })
	who := p.Game.State.(*State).Armies[p.Game.State.(*State).Active].Player
	defer cpuPerOp(b)()
	for b.Loop() {
		if _, err := engine.Think(p.Game, who, engine.Normal); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBotOrders is the normal bot writing a whole side's orders for
// the second turn of a written-orders battle, through its /done.
func BenchmarkBotOrders(b *testing.B) {
	p := botGame(b, "", "orders", 7, "6", false)
	advance(b, p, func(s *State) bool { return s.Turn == 2 && s.Stage == Orders })
	who := p.Game.State.(*State).Armies[South].Player
	start := p.Game.Clone()
	defer cpuPerOp(b)()
	for b.Loop() {
		g := start.Clone()
		for !g.State.(*State).Armies[South].Done {
			d, err := engine.Think(g, who, engine.Normal)
			if err != nil {
				b.Fatal(err)
			}
			res, err := g.Decide(d.Command)
			if err != nil {
				b.Fatal(err)
			}
			g = res.After
		}
	}
}

// BenchmarkBotGame plays whole battles between two normal bots, by
// either turn sequence, on the arena's armies, and reports the processor
// time of a decision (median, p95, most) and, by written orders, of a
// whole side's orders for a turn: go test -bench BotGame -cpu 1.
func BenchmarkBotGame(b *testing.B) {
	for _, method := range []string{"move", "orders"} {
		b.Run(method, func(b *testing.B) {
			var each, sides []time.Duration
			seed := uint64(0)
			for b.Loop() {
				seed++
				p := enginetest.NewPlayer(b, New(), "ref", seed)
				const units = "12 heavy infantry, 12 medium infantry, 8 longbowmen, 6 heavy cavalry"
				p.Must(b, "ref|book open|turns:6|method:"+method,
					"bot#a|army raise|name:the Kingdom|tag:KIN|units:"+units,
					"bot#b|army raise|name:the March|tag:MAR|units:"+units)
				aw := New()
				var side time.Duration
				for steps := 0; steps < 3000 && !p.Game.State.Over(); steps++ {
					s := p.Game.State.(*State)
					who := aw.Awaited(s)[0].Player
					t0 := enginetest.CPUTime(b)
					d, err := engine.Think(p.Game, who, engine.Normal)
					spent := enginetest.CPUTime(b) - t0
					if err != nil {
						b.Fatal(err)
					}
					each = append(each, spent)
					if s.Stage == Orders {
						side += spent
						if d.Command.Name == "done" {
							sides, side = append(sides, side), 0
						}
					}
					if _, err := p.Do(b, d.Command); err != nil {
						b.Fatalf("%s: %v", d.Command, err)
					}
				}
			}
			enginetest.ReportTimes(b, each, "decision")
			enginetest.ReportTimes(b, sides, "side-orders")
			b.ReportMetric(float64(len(each)), "decisions")
		})
	}
}
