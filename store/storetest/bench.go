package storetest

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

// Bench measures a store: durable appends one at a time and from many
// channels at once (steps per second, and the 99th percentile of one
// append), and loading a game as the bot does. fresh makes a new, empty
// database, as for Run.
func Bench(b *testing.B, fresh func(tb testing.TB) Opener) {
	open := func(b *testing.B) Store {
		s, err := fresh(b)(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	b.Run("Append", func(b *testing.B) { benchAppend(b, open(b)) })
	b.Run("AppendChannels", func(b *testing.B) { benchAppendChannels(b, open(b)) })
	b.Run("Load", func(b *testing.B) { benchLoad(b, open(b)) })
	b.Run("AppendCallingLongBook", func(b *testing.B) { benchAppendCallingLong(b, open(b)) })
}

// benchRecord is a record like a move in a game: a card drawn, a die
// rolled, and a payload of about 300 bytes.
func benchRecord(seq engine.Seq) engine.Record {
	payload := fmt.Sprintf(`{"element":"clan-2/hero-1","from":{"x":12.5,"y":40},"to":{"x":18,"y":36.25},"order":%d,"note":%q}`,
		seq, strings.Repeat("a", 190))
	return engine.Record{
		Seq: seq, Kind: "gwab.moved", Actor: "123456789012345678",
		Draws:   []engine.Draw{{Deck: "sequence", Card: engine.NewCard(engine.Queen, engine.Hearts)}, {Die: engine.D6, Roll: 3}},
		Payload: json.RawMessage(payload),
	}
}

// reportRate reports steps/s over elapsed and the 99th percentile of ds
// as p99-µs.
func reportRate(b *testing.B, elapsed time.Duration, ds []time.Duration) {
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "steps/s")
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds()), "p99-µs")
}

// benchAppend appends one record per op to one game, each its own
// committed, durable transaction.
func benchAppend(b *testing.B, s Store) {
	ctx := context.Background()
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(benchRecord(1).Payload)))
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		seq := engine.Seq(i)
		t := time.Now()
		if _, err := s.Append(ctx, g.ID, seq, []engine.Record{benchRecord(seq + 1)}, false); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(t))
	}
	reportRate(b, time.Since(start), ds)
}

// benchAppendChannels appends to 16 games at once, one writer each, as a
// bot serving many channels does.
func benchAppendChannels(b *testing.B, s Store) {
	ctx := context.Background()
	const channels = 16
	var ids []store.GameID
	for c := range channels {
		g, err := s.CreateGame(ctx, "guild", fmt.Sprintf("chan%d", c), "gwab", nil)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, g.ID)
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
				if _, err := s.Append(ctx, ids[c], seq, []engine.Record{benchRecord(seq + 1)}, false); err != nil {
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
	reportRate(b, time.Since(start), all)
}

// benchLoad loads a game of 1000 events the way the bot does: the newest
// snapshot, then the events after it (20, or 200).
func benchLoad(b *testing.B, s Store) {
	ctx := context.Background()
	const n = 1000
	recs := make([]engine.Record, n)
	for i := range recs {
		recs[i] = benchRecord(engine.Seq(i + 1))
	}
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", recs)
	if err != nil {
		b.Fatal(err)
	}
	for _, tail := range []int{20, 200} {
		version := fmt.Sprintf("bench-%d", tail)
		if err := s.PutSnapshot(ctx, g.ID, engine.Seq(n-tail), version, make([]byte, 4096)); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tail=%d", tail), func(b *testing.B) {
			for b.Loop() {
				seq, _, err := s.Snapshot(ctx, g.ID, n, version)
				if err != nil {
					b.Fatal(err)
				}
				got, err := s.Events(ctx, g.ID, seq, 0)
				if err != nil {
					b.Fatal(err)
				}
				if len(got) != tail {
					b.Fatalf("%d events after %d, want %d", len(got), seq, tail)
				}
			}
		})
	}
}

// benchAppendCallingLong steps books of two players taking turns, each
// step closing its player's call and calling the other, as the bot
// records calls. One book first takes 4,000 steps unmeasured; then each
// op is a step of that long book and a step of a short one (a new book
// every 50 ops), alternately first, on the same database. A step's
// bookkeeping should not grow with the calls its book has made: it
// reports each one's mean and long/short, which should be about 1.
func benchAppendCallingLong(b *testing.B, s Store) {
	ctx := context.Background()
	players := []engine.PlayerID{"123456789012345678", "876543210987654321"}
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	type book struct {
		id  store.GameID
		seq engine.Seq
	}
	open := func(channel string) *book {
		g, err := s.CreateGame(ctx, "guild", channel, "gwab", nil)
		if err != nil {
			b.Fatal(err)
		}
		return &book{id: g.ID}
	}
	step := func(bk *book) time.Duration {
		actor, next := players[int(bk.seq)%2], players[int(bk.seq+1)%2]
		rec := benchRecord(bk.seq + 1)
		rec.Actor = actor
		t := time.Now()
		if _, err := s.AppendCalling(ctx, bk.id, bk.seq, []engine.Record{rec}, false,
			store.CallChange{At: at.Add(time.Duration(bk.seq) * time.Minute), Acted: []engine.PlayerID{actor}, Called: []engine.PlayerID{next}}); err != nil {
			b.Fatal(err)
		}
		bk.seq++
		return time.Since(t)
	}
	long := open("long")
	for range 4000 {
		step(long)
	}
	var short *book
	var inLong, inShort time.Duration
	n := 0
	for b.Loop() {
		if n%50 == 0 {
			short = open(fmt.Sprintf("short%d", n))
		}
		if n%2 == 0 {
			inLong += step(long)
			inShort += step(short)
		} else {
			inShort += step(short)
			inLong += step(long)
		}
		n++
	}
	b.ReportMetric(float64(inShort.Microseconds())/float64(n), "short-µs")
	b.ReportMetric(float64(inLong.Microseconds())/float64(n), "long-µs")
	b.ReportMetric(float64(inLong)/float64(inShort), "long/short")
}
