package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// BenchmarkChannels plays steps in 50 channels at once, each its own
// raid book, through one router and one database, without pictures, with
// a board picture per step at the renderer's default size (1280 pixels
// wide), and with one at the size the bot draws for Discord (1040 wide,
// text to read at 520). Each op is one step somewhere; the benchmark
// reports steps per second, the 99th percentile of a step's latency and
// the peak of the heap while they ran.
func BenchmarkChannels(b *testing.B) {
	for _, c := range []struct {
		name     string
		pictures *render.Options
	}{
		{"pictures=false", nil},
		{"pictures=true", &render.Options{}},
		{"pictures=bot", &render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth}},
	} {
		b.Run(c.name, func(b *testing.B) {
			const channels = 50
			ctx := context.Background()
			st, err := store.Open(ctx, filepath.Join(b.TempDir(), "channels.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			cfg := Config{Store: st, Rulesets: rulesets(), Directives: true}
			if c.pictures != nil {
				cfg.Renderer = render.New(*c.pictures)
			}
			r := NewRouter(cfg)
			next := make([]string, channels)
			for c := range channels {
				ch := fmt.Sprint("c", c)
				user := ""
				for _, line := range append([]string{"@alice /book open mode:raid"}, raidClans...) {
					if l, _ := engine.ParseLine(line); l.User != "" {
						user = string(l.User)
					} else {
						line = "@" + user + " " + line
					}
					doIn(b, r, ch, line)
				}
				next[c] = nextPlayer(b, doIn(b, r, ch, "@alice /book start"))
			}
			var (
				mu        sync.Mutex
				latencies []time.Duration
				peak      uint64
			)
			stop := make(chan struct{})
			sampled := make(chan struct{})
			go func() {
				defer close(sampled)
				var m runtime.MemStats
				for {
					runtime.ReadMemStats(&m)
					mu.Lock()
					peak = max(peak, m.HeapInuse)
					mu.Unlock()
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for c := range channels {
				n := b.N / channels
				if c < b.N%channels {
					n++
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					ch := fmt.Sprint("c", c)
					for range n {
						t0 := time.Now()
						reps := doIn(b, r, ch, "@"+next[c]+" /aloof")
						d := time.Since(t0)
						next[c] = nextPlayer(b, reps)
						mu.Lock()
						latencies = append(latencies, d)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			close(stop)
			<-sampled
			slices.Sort(latencies)
			p99 := latencies[len(latencies)*99/100]
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "steps/s")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// doIn runs one line in channel ch of guild g.
func doIn(b testing.TB, r *Router, ch, line string) []Reply {
	b.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		b.Fatal(err)
	}
	reps := r.Handle(context.Background(), Request{Guild: "g", Channel: ch, User: l.User, Command: l.Command})
	for _, rep := range reps {
		if rep.Ephemeral && rep.User == l.User {
			b.Fatalf("%s in %s: %s", line, ch, rep.Text)
		}
	}
	return reps
}
