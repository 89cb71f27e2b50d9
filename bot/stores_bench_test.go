package bot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// BenchmarkStores plays steps of raid books through one router (decided,
// durably appended, answered; no pictures) on the embedded SQLite store
// and on PostgreSQL, side by side: in one channel at a time, and in 16
// channels at once. It reports steps per second and the 99th percentile
// of a step. The PostgreSQL half needs RHAPSODE_TEST_POSTGRES; note that
// the server .ci/postgres starts runs without fsync.
func BenchmarkStores(b *testing.B) {
	kinds := []struct {
		name string
		open func(b *testing.B) Store
	}{
		{"sqlite", func(b *testing.B) Store {
			st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "stores.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		}},
		{"postgres", func(b *testing.B) Store {
			base := os.Getenv("RHAPSODE_TEST_POSTGRES")
			if base == "" {
				b.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL (.ci/postgres starts a throwaway server and prints one) to measure the PostgreSQL store beside SQLite")
			}
			st, err := postgres.Open(context.Background(), freshSchema(b, base))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		}},
	}
	for _, k := range kinds {
		for _, channels := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/channels=%d", k.name, channels), func(b *testing.B) {
				r := NewRouter(Config{Store: k.open(b), Rulesets: rulesets(), Directives: true})
				next := make([]string, channels)
				for c := range channels {
					ch := fmt.Sprint("c", c)
					doIn(b, r, ch, "@alice /book open mode:raid")
					user := "alice"
					for _, line := range raidClans {
						if at, _, _ := strings.Cut(line, " "); strings.HasPrefix(at, "@") {
							user = at[1:]
						} else {
							line = "@" + user + " " + line
						}
						doIn(b, r, ch, line)
					}
					next[c] = nextPlayer(b, doIn(b, r, ch, "@alice /book start"))
				}
				var mu sync.Mutex
				var ds []time.Duration
				b.ResetTimer()
				start := time.Now()
				var wg sync.WaitGroup
				for c := range channels {
					n := b.N / channels
					if c < b.N%channels {
						n++
					}
					wg.Go(func() {
						ch := fmt.Sprint("c", c)
						mine := make([]time.Duration, 0, n)
						for range n {
							t0 := time.Now()
							reps := doIn(b, r, ch, "@"+next[c]+" /aloof")
							mine = append(mine, time.Since(t0))
							next[c] = nextPlayer(b, reps)
						}
						mu.Lock()
						ds = append(ds, mine...)
						mu.Unlock()
					})
				}
				wg.Wait()
				elapsed := time.Since(start)
				b.StopTimer()
				slices.Sort(ds)
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "steps/s")
				b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
			})
		}
	}
}
