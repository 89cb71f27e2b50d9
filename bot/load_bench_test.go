package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
)

// bookOf writes a practice book of about n events to a new database, with
// snapshots where the router would take them, and returns its store and
// game.
func bookOf(b *testing.B, n int) (*store.Store, store.GameID) {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("book%d.db", n)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	g := engine.NewGame(gwab.New())
	var events []engine.Event
	apply := func(e engine.Event) {
		if err := g.Apply(e); err != nil {
			b.Fatal(err)
		}
		events = append(events, e)
	}
	apply(g.Open("alice", 1))
	user := engine.PlayerID("")
	var lines []string
	lines = append(lines, practiceSetup...)
	for len(events) < n {
		if len(lines) == 0 {
			cur := g.State.(*gwab.State).Current()
			lines = []string{fmt.Sprintf("@%s /aloof", cur.Player)}
		}
		l, err := engine.ParseLine(lines[0])
		lines = lines[1:]
		if err != nil {
			b.Fatal(err)
		}
		if l.User != "" {
			user = l.User
		}
		l.Command.Actor = user
		res, err := g.Decide(l.Command)
		if err != nil {
			b.Fatalf("%s: %v", l.Command, err)
		}
		for _, e := range res.Events {
			apply(e)
		}
	}
	recs := make([]engine.Record, len(events))
	for i, e := range events {
		if recs[i], err = e.Record(); err != nil {
			b.Fatal(err)
		}
	}
	info, err := st.CreateGame(ctx, "g", "c", "gwab", recs[:1])
	if err != nil {
		b.Fatal(err)
	}
	for i := 1; i < len(recs); i += 1000 {
		end := min(i+1000, len(recs))
		if _, err := st.Append(ctx, info.ID, engine.Seq(i), recs[i:end], false); err != nil {
			b.Fatal(err)
		}
	}
	// Snapshot where the router would.
	replay := engine.NewGame(gwab.New())
	for _, e := range events {
		if err := replay.Apply(e); err != nil {
			b.Fatal(err)
		}
		if replay.Seq%defaultSnapshotEvery == 0 {
			data, err := replay.Snapshot()
			if err != nil {
				b.Fatal(err)
			}
			if err := st.PutSnapshot(ctx, info.ID, replay.Seq, snapshotVersion(gwab.New()), data); err != nil {
				b.Fatal(err)
			}
		}
	}
	return st, info.ID
}

// BenchmarkLoad loads a book as a fresh router does (newest snapshot and
// the events after it) at 100 and at 10,000 events. The two should cost
// about the same.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{100, 10000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			st, id := bookOf(b, n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				g, err := Load(ctx, st, gwab.New(), id)
				if err != nil {
					b.Fatal(err)
				}
				if g.Seq < engine.Seq(n) {
					b.Fatalf("loaded to %d of %d", g.Seq, n)
				}
			}
		})
	}
}

// BenchmarkCommand is one command through the router, durably appended
// and answered, on a warm game.
func BenchmarkCommand(b *testing.B) {
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "cmd.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(b, r, practiceSetup)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		reps := do(b, r, fmt.Sprintf("@p #stack combat %s", engine.NewCard(engine.Rank(2+i%13), engine.Suit(1+i%4))))
		if len(reps) != 1 || reps[0].Ephemeral {
			b.Fatalf("%+v", reps)
		}
		i++
	}
}

// BenchmarkStepVsAppend sets one step of a book through the router
// (decided, durably appended, answered; no picture) beside a bare
// durable append of the same records to a store of its own, one after
// the other in each iteration, so that both see the same disk and the
// same load. It reports each one's mean and what the router adds to the
// disk's cost as a ratio, step/append (the goal is at most 1.2).
func BenchmarkStepVsAppend(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "step.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(b, r, append([]string{"@alice /book open mode:raid"}, raidClans...))
	next := nextPlayer(b, do(b, r, "@alice /book start"))
	info, err := st.ActiveGame(ctx, "g", "c")
	if err != nil {
		b.Fatal(err)
	}
	// The records of a few steps, for the bare appends to write.
	var stepRecs [][]engine.Record
	for range 16 {
		before, err := st.Game(ctx, info.ID)
		if err != nil {
			b.Fatal(err)
		}
		next = nextPlayer(b, do(b, r, "@"+next+" /aloof"))
		recs, err := st.Events(ctx, info.ID, before.Head, 0)
		if err != nil {
			b.Fatal(err)
		}
		stepRecs = append(stepRecs, recs)
	}
	bare, err := store.Open(ctx, filepath.Join(b.TempDir(), "bare.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer bare.Close()
	g, err := bare.CreateGame(ctx, "g", "c", "gwab", nil)
	if err != nil {
		b.Fatal(err)
	}
	head, i := engine.Seq(0), 0
	var stepping, appending time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		next = nextPlayer(b, do(b, r, "@"+next+" /aloof"))
		t1 := time.Now()
		recs := slices.Clone(stepRecs[i%len(stepRecs)])
		for j := range recs {
			recs[j].Seq = head + engine.Seq(j+1)
		}
		if _, err := bare.Append(ctx, g.ID, head, recs, false); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		head += engine.Seq(len(recs))
		i++
		stepping += t1.Sub(t0)
		appending += t2.Sub(t1)
	}
	b.ReportMetric(float64(stepping.Microseconds())/float64(b.N), "step-µs")
	b.ReportMetric(float64(appending.Microseconds())/float64(b.N), "append-µs")
	b.ReportMetric(float64(stepping)/float64(appending), "step/append")
}
