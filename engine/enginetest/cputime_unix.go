//go:build unix

package enginetest

import (
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// CPUTime is the processor time the process has used so far, user and
// system: a bot's decision timed by it is not inflated by the other
// processes of a busy machine (run the benchmark with -cpu 1).
func CPUTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportTimes reports the median, p95 and longest of times as the
// benchmark's metrics what-median-cpu-ms, what-p95-cpu-ms and
// what-max-cpu-ms; nothing when there are none.
func ReportTimes(b *testing.B, times []time.Duration, what string) {
	if len(times) == 0 {
		return
	}
	d := slices.Sorted(slices.Values(times))
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	b.ReportMetric(ms(d[len(d)/2]), what+"-median-cpu-ms")
	b.ReportMetric(ms(d[len(d)*95/100]), what+"-p95-cpu-ms")
	b.ReportMetric(ms(d[len(d)-1]), what+"-max-cpu-ms")
}

// TimeBots plays p's game to its end (or 3,000 steps) with the bot in
// every seat it awaits, each at the level its name gives ([engine.IsBot];
// "bot#gm" is the normal bot), and returns the processor time of each
// decision made at level.
func TimeBots(b *testing.B, p *Player, level engine.Level) []time.Duration {
	aw, ok := p.Game.Rules.(engine.Awaiter)
	if !ok {
		b.Fatalf("%s says whom it awaits through no Awaiter", p.Game.Rules.ID())
	}
	var each []time.Duration
	for steps := 0; steps < 3000 && !p.Game.State.Over(); steps++ {
		who := aw.Awaited(p.Game.State)[0].Player
		l, _ := engine.IsBot(who)
		t0 := CPUTime(b)
		d, err := engine.Think(p.Game, who, l)
		if l == level {
			each = append(each, CPUTime(b)-t0)
		}
		if err != nil {
			b.Fatal(err)
		}
		if _, err := p.Do(b, d.Command); err != nil {
			b.Fatalf("%s: %v", d.Command, err)
		}
	}
	return each
}
