package store

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// TestCheckpointsKeepTheLogShort: a store appending as a bot does, a step
// at a time with pauses between, copies its write-ahead log into the
// database in the background, so that the log starts again from its
// beginning long before it reaches walBackstop pages, where a commit
// would copy it while every append queued behind waited. The steps write
// more pages in all than walBackstop, so without the background
// checkpoints the log would grow past it.
func TestCheckpointsKeepTheLogShort(t *testing.T) {
	s := openTest(t)
	path := testPathOf(t, s)
	ctx := context.Background()
	g := newGame(t, s, "c", rec(1, "opened", `{}`))
	// A payload of three pages or so: with its row and the commit, some
	// 1,500 steps write about 6,000 pages.
	payload := fmt.Sprintf(`{"text":%q}`, strings.Repeat("x", 10000))
	const steps = 1500
	head := engine.Seq(1)
	for i := range steps {
		if _, err := s.Append(ctx, g.ID, head, []engine.Record{rec(head+1, "step", payload)}, false); err != nil {
			t.Fatal(err)
		}
		head++
		// The pause between two steps, in which a checkpoint asked for
		// after this one runs.
		if err := s.ckpt.settle(); err != nil {
			t.Fatalf("checkpoint after step %d: %v", i+1, err)
		}
	}
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	if err := s.r.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	// The file keeps the length its longest run reached.
	if pages := fi.Size() / pageSize; pages > walBackstop/8 {
		t.Errorf("the write-ahead log grew to %d pages over %d steps; checkpoints every %d commits should keep it under %d",
			pages, steps, checkpointEvery, walBackstop/8)
	}
	if got := mustEvents(t, s, g.ID, steps, 0); len(got) != 1 || got[0].Seq != steps+1 {
		t.Errorf("after the checkpoints the log ends %v, want step %d", got, steps+1)
	}
}

// TestCheckpointerStopsWithTheStore: closing the store ends the background
// checkpoints, with one asked for and not yet run.
func TestCheckpointerStopsWithTheStore(t *testing.T) {
	s, err := Open(context.Background(), testPath(t))
	if err != nil {
		t.Fatal(err)
	}
	c := s.ckpt
	for range checkpointEvery {
		c.committed()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.done:
	default:
		t.Fatal("the checkpointer runs on after Close")
	}
}

// BenchmarkCheckpoints appends steps to two stores by turns, with a pause
// after each pair as between a bot's steps: one store checkpoints in the
// background (checkpoint.go), the other as SQLite does by itself, inside
// the commit that finds the log past 1,000 pages. Both see the same disk
// at the same moments. Each step is three events of about 2 KB, some four
// pages of the log. It reports, for each, the median, 99th and 99.9th
// percentiles and the longest of an append's time: what a player whose
// step lands on a checkpoint waits, with every step queued behind it.
//
//	go test -run '^$' -bench Checkpoints -benchtime 3000x ./store
func BenchmarkCheckpoints(b *testing.B) {
	ctx := context.Background()
	background := openTest(b)
	own := openTest(b)
	sqliteCheckpoints(b, own)
	payload := fmt.Sprintf(`{"text":%q}`, strings.Repeat("x", 2000))
	type side struct {
		s     *Store
		id    GameID
		head  engine.Seq
		times []time.Duration
	}
	sides := []*side{{s: background}, {s: own}}
	for _, sd := range sides {
		sd.id = newGame(b, sd.s, "c", rec(1, "opened", `{}`)).ID
		sd.head = 1
	}
	appendStep := func(sd *side) {
		recs := make([]engine.Record, 3)
		for i := range recs {
			recs[i] = rec(sd.head+engine.Seq(i)+1, "step", payload)
		}
		t0 := time.Now()
		if _, err := sd.s.Append(ctx, sd.id, sd.head, recs, false); err != nil {
			b.Fatal(err)
		}
		sd.times = append(sd.times, time.Since(t0))
		sd.head += engine.Seq(len(recs))
	}
	n := 0
	for b.Loop() {
		// Each goes first every other time.
		appendStep(sides[n%2])
		appendStep(sides[1-n%2])
		n++
		time.Sleep(2 * time.Millisecond)
	}
	for i, name := range []string{"background", "sqlite"} {
		ts := sides[i].times
		slices.Sort(ts)
		at := func(q float64) float64 { return float64(ts[int(q*float64(len(ts)-1))].Microseconds()) }
		b.ReportMetric(at(0.5), name+"-p50-µs")
		b.ReportMetric(at(0.99), name+"-p99-µs")
		b.ReportMetric(at(0.999), name+"-p99.9-µs")
		b.ReportMetric(float64(ts[len(ts)-1].Microseconds())/1000, name+"-max-ms")
	}
}

// sqliteCheckpoints turns s back to SQLite's own checkpoints: none in the
// background, and the writer's commit checkpointing at 1,000 pages.
func sqliteCheckpoints(tb testing.TB, s *Store) {
	tb.Helper()
	if err := s.ckpt.close(); err != nil {
		tb.Fatal(err)
	}
	s.ckpt = nil
	if _, err := s.w.ExecContext(context.Background(), "PRAGMA wal_autocheckpoint = 1000"); err != nil {
		tb.Fatal(err)
	}
}
