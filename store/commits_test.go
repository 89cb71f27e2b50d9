package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestGroupCommitDurable appends from many goroutines at once, each to a
// game of its own, and checks after reopening the file that every
// acknowledged append is there, in order, and that appends shared
// transactions.
func TestGroupCommitDurable(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const games, each = 24, 20
	ids := make([]GameID, games)
	for i := range ids {
		ids[i] = newGame(t, s, fmt.Sprint("chan", i)).ID
	}
	before := s.commits.batches.Load()
	var wg sync.WaitGroup
	errs := make([]error, games)
	for i, id := range ids {
		wg.Go(func() {
			for n := range engine.Seq(each) {
				g, err := s.Append(ctx, id, n, []engine.Record{rec(n+1, "k", fmt.Sprintf(`{"game":%d,"n":%d}`, i, n))}, n == each-1)
				if err != nil {
					errs[i] = err
					return
				}
				if g.Head != n+1 || g.ID != id || g.Ended != (n == each-1) {
					errs[i] = fmt.Errorf("append %d returned %+v", n, g)
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
	}
	batches := s.commits.batches.Load() - before
	if batches >= games*each {
		t.Errorf("%d appends took %d transactions: none were gathered", games*each, batches)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openAt(t, path)
	for i, id := range ids {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Head != each || !g.Ended {
			t.Errorf("game %d after reopening: head %d, ended %v; want %d, ended", i, g.Head, g.Ended, each)
		}
		recs := mustEvents(t, s, id, 0, 0)
		checkContiguous(t, recs)
		for n, r := range recs {
			if want := fmt.Sprintf(`{"game":%d,"n":%d}`, i, n); string(r.Payload) != want {
				t.Errorf("game %d record %d: %s, want %s", i, r.Seq, r.Payload, want)
			}
		}
	}
}

// holdLead makes s's commit queue look busy, as if a leader were
// committing, so that appends wait in it until the test runs the batch.
func holdLead(s *Store) {
	s.commits.mu.Lock()
	s.commits.leading = true
	s.commits.mu.Unlock()
}

// waitPending waits until n appends wait in s's queue.
func waitPending(s *Store, n int) {
	for {
		s.commits.mu.Lock()
		got := len(s.commits.pending)
		s.commits.mu.Unlock()
		if got == n {
			return
		}
		runtime.Gosched()
	}
}

// TestGroupCommitConflict runs one batch in which two appends take the
// same number of one game, another comes after a head its game has left,
// one finds its number taken by its game's log, one numbers its event past
// the log's end (after a head its game has not reached), and others are
// sound: the batch commits the sound ones and the first of the pair, and
// fails the others alone with ErrConflict.
func TestGroupCommitConflict(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	a := newGame(t, s, "a")
	b := newGame(t, s, "b", rec(1, "k", `"b1"`))
	c := newGame(t, s, "c")
	d := newGame(t, s, "d", rec(1, "k", `"d1"`), rec(2, "k", `"d2"`))
	type call struct {
		id     GameID
		expect engine.Seq
		text   string
	}
	calls := []call{
		{a.ID, 0, `"a1"`},
		{b.ID, 0, `"b1 again"`}, // b's head is 1
		{a.ID, 0, `"a1 again"`}, // the append before took 1
		{c.ID, 0, `"c1"`},
		{c.ID, 3, `"c4"`},       // c's log ends at 1
		{d.ID, 1, `"d2 again"`}, // d's log holds a 2 already
		{a.ID, 1, `"a2"`},
	}
	holdLead(s)
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, cl := range calls {
		waitPending(s, i) // queue them in this order
		wg.Go(func() {
			_, errs[i] = s.Append(ctx, cl.id, cl.expect, []engine.Record{rec(cl.expect+1, "k", cl.text)}, false)
		})
	}
	waitPending(s, len(calls))
	s.commits.run(s) // as the leader it stands in for would
	wg.Wait()
	for i, want := range []error{nil, ErrConflict, ErrConflict, nil, ErrConflict, ErrConflict, nil} {
		if want == nil && errs[i] != nil || want != nil && !errors.Is(errs[i], want) {
			t.Errorf("append %d (%s): %v, want %v", i, calls[i].text, errs[i], want)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openAt(t, path)
	for _, w := range []struct {
		id   GameID
		logs []string
	}{{a.ID, []string{`"a1"`, `"a2"`}}, {b.ID, []string{`"b1"`}}, {c.ID, []string{`"c1"`}}, {d.ID, []string{`"d1"`, `"d2"`}}} {
		recs := mustEvents(t, s, w.id, 0, engine.Seq(len(w.logs)))
		var got []string
		for _, r := range recs {
			got = append(got, string(r.Payload))
		}
		if fmt.Sprint(got) != fmt.Sprint(w.logs) {
			t.Errorf("game %d after reopening: %v, want %v", w.id, got, w.logs)
		}
		if g, err := s.Game(ctx, w.id); err != nil || g.Head != engine.Seq(len(w.logs)) {
			t.Errorf("game %d after reopening: head %d (%v), want %d", w.id, g.Head, err, len(w.logs))
		}
	}
}

// TestGroupCommitCanceled leaves the queue for an append whose context
// ends while it waits: it fails with the context's error, and the batch
// after it commits the rest without it.
func TestGroupCommitCanceled(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a := newGame(t, s, "a")
	b := newGame(t, s, "b")
	holdLead(s)
	gone, cancel := context.WithCancel(ctx)
	var errA, errB error
	var wg sync.WaitGroup
	wg.Go(func() { _, errA = s.Append(gone, a.ID, 0, []engine.Record{rec(1, "k", `"a1"`)}, false) })
	waitPending(s, 1)
	wg.Go(func() { _, errB = s.Append(ctx, b.ID, 0, []engine.Record{rec(1, "k", `"b1"`)}, false) })
	waitPending(s, 2)
	cancel()
	waitPending(s, 1)
	s.commits.run(s)
	wg.Wait()
	if !errors.Is(errA, context.Canceled) {
		t.Errorf("the canceled append: %v, want context.Canceled", errA)
	}
	if errB != nil {
		t.Errorf("the other append: %v", errB)
	}
	if got := mustEvents(t, s, a.ID, 0, 0); len(got) != 0 {
		t.Errorf("the canceled append wrote %v", got)
	}
	if got := mustEvents(t, s, b.ID, 0, 0); len(got) != 1 {
		t.Errorf("the other append wrote %v", got)
	}
	if s.commits.leading || len(s.commits.pending) != 0 {
		t.Errorf("the queue after its last batch: leading %v, %d waiting", s.commits.leading, len(s.commits.pending))
	}
}

// TestGroupCommitNewGames opens two games in one channel in one batch,
// beside an append: one game opens, the other fails alone with
// ErrConflict (a channel has one game that has not ended).
func TestGroupCommitNewGames(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a := newGame(t, s, "a")
	holdLead(s)
	var errs [3]error
	var wg sync.WaitGroup
	wg.Go(func() {
		_, errs[0] = s.CreateGame(ctx, "guild", "new", "gwab", []engine.Record{rec(1, "k", `"first"`)})
	})
	waitPending(s, 1)
	wg.Go(func() { _, errs[1] = s.Append(ctx, a.ID, 0, []engine.Record{rec(1, "k", `"a1"`)}, false) })
	waitPending(s, 2)
	wg.Go(func() {
		_, errs[2] = s.CreateGame(ctx, "guild", "new", "gwab", []engine.Record{rec(1, "k", `"second"`)})
	})
	waitPending(s, 3)
	s.commits.run(s)
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], ErrConflict) {
		t.Fatalf("first game, append, second game: %v; want nil, nil, ErrConflict", errs)
	}
	g, err := s.ActiveGame(ctx, "guild", "new")
	if err != nil {
		t.Fatal(err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 1 || string(got[0].Payload) != `"first"` {
		t.Errorf("the channel's game holds %v, want the first", got)
	}
	if gs, err := s.Games(ctx, "guild"); err != nil || len(gs) != 2 {
		t.Errorf("the guild has %d games (%v), want 2", len(gs), err)
	}
}

// TestGroupCommitBatchFails breaks a batch's transaction in the middle
// (a write that ends it): every write of the batch fails, the one that
// had already run included, nothing lands, and the queue goes on.
func TestGroupCommitBatchFails(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a := newGame(t, s, "a")
	c := newGame(t, s, "c")
	holdLead(s)
	var errs [3]error
	var wg sync.WaitGroup
	wg.Go(func() { _, errs[0] = s.Append(ctx, a.ID, 0, []engine.Record{rec(1, "k", `"a1"`)}, false) })
	waitPending(s, 1)
	wg.Go(func() {
		errs[1] = s.queued(ctx, opText("end the transaction"), func(ctx context.Context, tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `ROLLBACK`)
			return err
		})
	})
	waitPending(s, 2)
	wg.Go(func() { _, errs[2] = s.Append(ctx, c.ID, 0, []engine.Record{rec(1, "k", `"c1"`)}, false) })
	waitPending(s, 3)
	s.commits.run(s)
	wg.Wait()
	for i, err := range errs {
		if err == nil {
			t.Errorf("write %d of the broken batch: no error", i)
		}
	}
	for _, id := range []GameID{a.ID, c.ID} {
		if got := mustEvents(t, s, id, 0, 0); len(got) != 0 {
			t.Errorf("game %d after the broken batch: %v", id, got)
		}
	}
	if _, err := s.Append(ctx, a.ID, 0, []engine.Record{rec(1, "k", `"a1"`)}, false); err != nil {
		t.Errorf("an append after the broken batch: %v", err)
	}
}
