//go:build unix

package goliath

import (
	"syscall"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// cpuPerOp reports, when the function it returns is called, the
// processor time the benchmark spent per operation: on a machine other
// processes share, wall time says little about the bot's speed on one
// core (run with -cpu 1).
func cpuPerOp(b *testing.B) func() {
	used := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := used()
	return func() {
		b.ReportMetric(float64((used()-start).Milliseconds())/float64(max(1, b.N)), "cpu-ms/op")
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
