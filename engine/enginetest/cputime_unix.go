//go:build unix

package enginetest

import (
	"slices"
	"syscall"
	"testing"
	"time"
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
