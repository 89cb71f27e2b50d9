package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// benchRecord is store's benchmark record: a move with a card and a die
// and a payload of about 300 bytes, so the two engines' numbers compare.
func benchRecord(seq engine.Seq) engine.Record {
	payload := fmt.Sprintf(`{"element":"clan-2/hero-1","from":{"x":12.5,"y":40},"to":{"x":18,"y":36.25},"order":%d,"note":%q}`,
		seq, strings.Repeat("a", 190))
	return engine.Record{
		Seq: seq, Kind: "gwab.moved", Actor: "123456789012345678",
		Draws:   []engine.Draw{{Deck: "sequence", Card: engine.NewCard(engine.Queen, engine.Hearts)}, {Die: engine.D6, Roll: 3}},
		Payload: json.RawMessage(payload),
	}
}

// reportP99 reports the 99th percentile of ds as p99-µs.
func reportP99(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkAppend appends one record per op to one game, each a committed
// transaction; it reports steps/s and the p99 of one append.
func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", nil)
	if err != nil {
		b.Fatal(err)
	}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		seq := engine.Seq(i)
		t := time.Now()
		if err := s.Append(ctx, g.ID, seq, []engine.Record{benchRecord(seq + 1)}, false); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t))
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "steps/s")
	reportP99(b, ds)
}

// BenchmarkAppendChannels appends to 16 games at once, one writer each, as
// a bot serving many channels does.
func BenchmarkAppendChannels(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	const channels = 16
	var ids []int64
	for c := range channels {
		g, err := s.CreateGame(ctx, "guild", fmt.Sprintf("chan%d", c), "gwab", nil)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, int64(g.ID))
	}
	var next atomic.Int64
	var mu sync.Mutex
	var all []time.Duration
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := range channels {
		wg.Go(func() {
			var ds []time.Duration
			var seq engine.Seq
			for next.Add(1) <= int64(b.N) {
				t := time.Now()
				if err := s.Append(ctx, store.GameID(ids[c]), seq, []engine.Record{benchRecord(seq + 1)}, false); err != nil {
					b.Error(err)
					return
				}
				ds = append(ds, time.Since(t))
				seq++
			}
			mu.Lock()
			all = append(all, ds...)
			mu.Unlock()
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "steps/s")
	reportP99(b, all)
}
