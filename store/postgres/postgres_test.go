package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// schemaURL makes a schema of its own for the test in the database named
// by RHAPSODE_TEST_POSTGRES and returns a URL whose connections use it,
// dropping the schema when the test ends. Without the variable the test
// is skipped.
func schemaURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if base == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to run the PostgreSQL store's tests")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, `SELECT nextval('rhapsode_test_schemas')`).Scan(&n); err != nil {
		if _, err := conn.Exec(ctx, `CREATE SEQUENCE IF NOT EXISTS rhapsode_test_schemas`); err != nil {
			t.Fatal(err)
		}
		if err := conn.QueryRow(ctx, `SELECT nextval('rhapsode_test_schemas')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	schema := fmt.Sprintf("t%d_%d", os.Getpid(), n)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func openTest(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), schemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func rec(seq engine.Seq, kind, payload string) engine.Record {
	return engine.Record{Seq: seq, Kind: kind, Actor: "player", Payload: json.RawMessage(payload)}
}

func TestRoundTrip(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	first := rec(1, "open", `{"a":1}`)
	first.Step = true
	first.Draws = []engine.Draw{{Die: engine.D6, Roll: 4}}
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{first})
	if err != nil {
		t.Fatal(err)
	}
	second := rec(2, "move", `{"b":2}`)
	second.Discards = []engine.Draw{{Die: engine.D6, Roll: 1}}
	if err := s.Append(ctx, g.ID, 1, []engine.Record{second, rec(3, "note", "")}, false); err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, g.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	third := rec(3, "note", "null")
	want := []engine.Record{first, second, third}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("events:\n got %+v\nwant %+v", got, want)
	}
	if got, _ := s.Events(ctx, g.ID, 1, 2); len(got) != 1 || got[0].Seq != 2 {
		t.Errorf("events (1, 2] = %+v, want event 2 alone", got)
	}
	for name, f := range map[string]func() (store.Game, error){
		"Game":       func() (store.Game, error) { return s.Game(ctx, g.ID) },
		"ActiveGame": func() (store.Game, error) { return s.ActiveGame(ctx, "guild", "chan") },
		"LatestGame": func() (store.Game, error) { return s.LatestGame(ctx, "guild", "chan") },
	} {
		h, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if h.ID != g.ID || h.Head != 3 || h.Ended || !h.Created.Equal(g.Created) {
			t.Errorf("%s = %+v, want game %d at head 3 created %v", name, h, g.ID, g.Created)
		}
	}
	if _, err := s.Events(ctx, g.ID+99, 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("events of a missing game: %v, want ErrNotFound", err)
	}
	if _, err := s.Game(ctx, g.ID+99); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing game: %v, want ErrNotFound", err)
	}
}

func TestAppendRefuses(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{rec(1, "open", "{}")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, 0, []engine.Record{rec(1, "x", "{}")}, false); !errors.Is(err, store.ErrConflict) {
		t.Errorf("append behind the head: %v, want ErrConflict", err)
	}
	if err := s.Append(ctx, g.ID, 1, []engine.Record{rec(3, "x", "{}")}, false); err == nil {
		t.Error("append with a gap in the numbers succeeded")
	}
	if err := s.Append(ctx, g.ID+99, 0, []engine.Record{rec(1, "x", "{}")}, false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("append to a missing game: %v, want ErrNotFound", err)
	}
	if err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "end", "{}")}, true); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, 2, []engine.Record{rec(3, "x", "{}")}, false); !errors.Is(err, store.ErrEnded) {
		t.Errorf("append to an ended game: %v, want ErrEnded", err)
	}
	if _, err := s.ActiveGame(ctx, "guild", "chan"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("active game after the end: %v, want ErrNotFound", err)
	}
	if recs, _ := s.Events(ctx, g.ID, 0, 0); len(recs) != 2 {
		t.Errorf("log has %d events after refusals, want 2", len(recs))
	}
}

// TestAppendManyWriters has writers on two stores (two processes' pools)
// race to extend one log; each retries on ErrConflict. Every append lands
// once, numbered without gaps.
func TestAppendManyWriters(t *testing.T) {
	u := schemaURL(t)
	ctx := context.Background()
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	g, err := stores[0].CreateGame(ctx, "guild", "chan", "gwab", nil)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 8, 15
	var conflicts atomic.Int64
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			s := stores[w%2]
			for i := range each {
				for {
					h, err := s.Game(ctx, g.ID)
					if err != nil {
						t.Error(err)
						return
					}
					err = s.Append(ctx, g.ID, h.Head, []engine.Record{rec(h.Head+1, "w", fmt.Sprintf(`{"w":%d,"i":%d}`, w, i))}, false)
					if errors.Is(err, store.ErrConflict) {
						conflicts.Add(1)
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	recs, err := stores[1].Events(ctx, g.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, r := range recs {
		if r.Seq != engine.Seq(i+1) {
			t.Fatalf("event %d has seq %d", i+1, r.Seq)
		}
		if seen[string(r.Payload)] {
			t.Errorf("append %s landed twice", r.Payload)
		}
		seen[string(r.Payload)] = true
	}
	if len(recs) != writers*each {
		t.Errorf("log has %d events, want %d", len(recs), writers*each)
	}
	t.Logf("%d conflicts retried", conflicts.Load())
}

func TestOneActiveGamePerChannel(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	const n = 8
	var won atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := s.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{rec(1, "open", "{}")})
			switch {
			case err == nil:
				won.Add(1)
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("losing create: %v, want ErrConflict", err)
			}
		})
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Fatalf("%d creates won, want 1", won.Load())
	}
	g, err := s.ActiveGame(ctx, "guild", "chan")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "end", "{}")}, true); err != nil {
		t.Fatal(err)
	}
	h, err := s.CreateGame(ctx, "guild", "chan", "sweet", nil)
	if err != nil {
		t.Fatalf("new game after the end: %v", err)
	}
	if l, err := s.LatestGame(ctx, "guild", "chan"); err != nil || l.ID != h.ID {
		t.Errorf("latest = %+v, %v; want game %d", l, err, h.ID)
	}
	if gs, err := s.Games(ctx, "guild"); err != nil || len(gs) != 2 || gs[0].ID != g.ID || !gs[0].Ended {
		t.Errorf("games = %+v, %v; want the ended game then the new one", gs, err)
	}
}

func TestSnapshots(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	var recs []engine.Record
	for i := 1; i <= 6; i++ {
		recs = append(recs, rec(engine.Seq(i), "x", "{}"))
	}
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Snapshot(ctx, g.ID, 6, "v1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("no snapshot yet: %v, want ErrNotFound", err)
	}
	if err := s.PutSnapshot(ctx, g.ID, 7, "v1", []byte("x")); err == nil {
		t.Error("a snapshot past the head was kept")
	}
	for i := 1; i <= 5; i++ {
		if err := s.PutSnapshot(ctx, g.ID, engine.Seq(i), "v1", fmt.Appendf(nil, "s%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.PutSnapshot(ctx, g.ID, 5, "v1", []byte("s5b")); err != nil {
		t.Fatal(err)
	}
	seq, data, err := s.Snapshot(ctx, g.ID, 6, "v1")
	if err != nil || seq != 5 || string(data) != "s5b" {
		t.Errorf("newest = %d %q %v, want 5 \"s5b\"", seq, data, err)
	}
	seq, data, err = s.Snapshot(ctx, g.ID, 3, "v1")
	if err != nil || seq != 3 || string(data) != "s3" {
		t.Errorf("at or before 3 = %d %q %v, want 3 \"s3\"", seq, data, err)
	}
	if _, _, err := s.Snapshot(ctx, g.ID, 2, "v1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("snapshot 2 should have been dropped (3 kept): %v", err)
	}
	if _, _, err := s.Snapshot(ctx, g.ID, 6, "v2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another version: %v, want ErrNotFound", err)
	}
}

// TestClaimDeadline has two stores claim the same due deadline at once,
// many times: each time exactly one gets it.
func TestClaimDeadline(t *testing.T) {
	u := schemaURL(t)
	ctx := context.Background()
	a, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	g, err := a.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{rec(1, "open", "{}")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(time.Now().UnixMilli()).UTC()
	d := store.Deadline{Game: g.ID, Guild: "guild", Channel: "chan", Per: time.Hour, Seq: 1, Due: now.Add(-time.Second), Remind: now.Add(-2 * time.Second)}
	if err := a.PutDeadline(ctx, store.Deadline{Game: g.ID, Per: time.Second}); err == nil {
		t.Error("a deadline of a second was kept")
	}
	if info, err := b.ActiveGame(ctx, "guild", "chan"); err != nil || info.Deadline {
		t.Fatalf("before a deadline is set the game reads %+v, %v", info, err)
	}
	for round := range 20 {
		if err := a.PutDeadline(ctx, d); err != nil {
			t.Fatal(err)
		}
		if info, err := b.ActiveGame(ctx, "guild", "chan"); err != nil || !info.Deadline {
			t.Fatalf("with a deadline set the game reads %+v, %v", info, err)
		}
		if got, err := b.GameDeadline(ctx, g.ID); err != nil || !reflect.DeepEqual(got, d) {
			t.Fatalf("deadline = %+v, %v; want %+v", got, err, d)
		}
		if due, err := b.DueDeadlines(ctx, now); err != nil || len(due) != 1 {
			t.Fatalf("due = %+v, %v; want the one deadline", due, err)
		}
		for _, isDue := range []bool{false, true} {
			var got atomic.Int64
			var wg sync.WaitGroup
			for _, s := range []*Store{a, b, a, b} {
				wg.Go(func() {
					ok, err := s.ClaimDeadline(ctx, g.ID, 1, isDue)
					if err != nil {
						t.Error(err)
					}
					if ok {
						got.Add(1)
					}
				})
			}
			wg.Wait()
			if got.Load() != 1 {
				t.Fatalf("round %d, due %v: %d claims won, want 1", round, isDue, got.Load())
			}
		}
		if ok, _ := a.ClaimDeadline(ctx, g.ID, 2, true); ok {
			t.Fatal("a claim for another step won")
		}
		if due, _ := b.DueDeadlines(ctx, now); len(due) != 0 {
			t.Fatalf("due after the claims = %+v, want none", due)
		}
	}
	if err := a.RemoveDeadline(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.GameDeadline(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removed deadline: %v, want ErrNotFound", err)
	}
}

func TestInteractions(t *testing.T) {
	u := schemaURL(t)
	ctx := context.Background()
	a, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Now()
	if _, fresh, err := a.TakeInteraction(ctx, "i1", now); err != nil || !fresh {
		t.Fatalf("first take: fresh %v, %v", fresh, err)
	}
	if ans, fresh, err := b.TakeInteraction(ctx, "i1", now); err != nil || fresh || ans != nil {
		t.Fatalf("second take before the answer: %q fresh %v, %v; want nil, false", ans, fresh, err)
	}
	if err := a.AnswerInteraction(ctx, "i1", []byte("done")); err != nil {
		t.Fatal(err)
	}
	if ans, fresh, err := b.TakeInteraction(ctx, "i1", now); err != nil || fresh || string(ans) != "done" {
		t.Fatalf("take after the answer: %q fresh %v, %v; want \"done\"", ans, fresh, err)
	}
	if _, fresh, _ := b.TakeInteraction(ctx, "i1", now.Add(2*time.Hour)); !fresh {
		t.Error("an interaction two hours old was still remembered")
	}
	if _, _, err := a.TakeInteraction(ctx, "", now); err == nil {
		t.Error("an empty ID was taken")
	}
}

// TestOpenConcurrently opens one new schema from several stores at once:
// the advisory lock lets one apply the migrations, and all open.
func TestOpenConcurrently(t *testing.T) {
	u := schemaURL(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			s, err := Open(ctx, u)
			if err != nil {
				t.Error(err)
				return
			}
			s.Close()
		})
	}
	wg.Wait()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != 1 {
		t.Errorf("schema_migrations has %d rows (%v), want 1", n, err)
	}
}
