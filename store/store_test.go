package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

func testPath(t testing.TB) string { return filepath.Join(t.TempDir(), "rhapsode.db") }

func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func openTest(t testing.TB) *Store { return openAt(t, testPath(t)) }

// rec makes a record whose payload says who wrote it.
func rec(seq engine.Seq, kind string, payload string) engine.Record {
	return engine.Record{Seq: seq, Kind: kind, Actor: "player", Payload: json.RawMessage(payload)}
}

func newGame(t testing.TB, s *Store, channel string, recs ...engine.Record) Game {
	t.Helper()
	g, err := s.CreateGame(context.Background(), "guild", channel, "gwab", recs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustEvents(t testing.TB, s *Store, id GameID, after, upTo engine.Seq) []engine.Record {
	t.Helper()
	recs, err := s.Events(context.Background(), id, after, upTo)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkContiguous checks that recs are numbered 1..len(recs).
func checkContiguous(t *testing.T, recs []engine.Record) {
	t.Helper()
	for i, r := range recs {
		if r.Seq != engine.Seq(i+1) {
			t.Fatalf("record %d has seq %d", i, r.Seq)
		}
	}
}

func TestPragmas(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	type pragma struct{ name, want string }
	common := []pragma{{"journal_mode", "wal"}, {"synchronous", "2"}, {"foreign_keys", "1"}, {"busy_timeout", "10000"}}
	for _, p := range append(common, pragma{"query_only", "0"}) {
		var got string
		if err := s.w.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != p.want {
			t.Errorf("writer: PRAGMA %s = %s, want %s", p.name, got, p.want)
		}
	}
	for _, p := range append(common, pragma{"query_only", "1"}) {
		var got string
		if err := s.r.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != p.want {
			t.Errorf("reader: PRAGMA %s = %s, want %s", p.name, got, p.want)
		}
	}
}

// testPathOf returns the file s has open.
func testPathOf(t *testing.T, s *Store) string {
	t.Helper()
	var seq int
	var name, file string
	if err := s.r.QueryRowContext(context.Background(), "PRAGMA database_list").Scan(&seq, &name, &file); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestDSN(t *testing.T) {
	got := dsn("/tmp/a b?c#d%e.db", 10*time.Second, true)
	want := "file:///tmp/a%20b%3Fc%23d%25e.db?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_pragma=journal_mode(WAL)&_txlock=immediate"
	if got != want {
		t.Errorf("dsn =\n%s\nwant\n%s", got, want)
	}
	// A path with URI metacharacters opens the file it names.
	path := filepath.Join(t.TempDir(), "odd ?#% name.db")
	s := openAt(t, path)
	if got := testPathOf(t, s); got != path {
		t.Errorf("opened %q, want %q", got, path)
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	first := []engine.Record{
		{Seq: 1, Kind: "table.seated", Actor: "ann", Step: true, Payload: json.RawMessage(`{"seed": 42, "players": ["ann", "bob"]}`)},
		{Seq: 2, Kind: "gwab.dealt", Actor: "bob",
			Draws: []engine.Draw{
				{Deck: "combat", Card: engine.NewCard(engine.Ace, engine.Spades)},
				{Deck: "combat", Card: engine.Joker2},
				{Die: engine.D6, Roll: 4},
			},
			Discards: []engine.Draw{{Deck: "sequence", Card: engine.NewCard(7, engine.Hearts)}},
			Payload:  json.RawMessage(`{"to":"bob","cards":3}`)},
	}
	g := newGame(t, s, "chan", first...)
	if g.Head != 2 || g.Ended || g.ID == 0 || g.Ruleset != "gwab" || g.Created.IsZero() {
		t.Fatalf("CreateGame = %+v", g)
	}
	more := []engine.Record{
		{Seq: 3, Kind: "gwab.moved", Actor: "ann", Step: true, Payload: json.RawMessage("{\n  \"b\": 1,\n  \"a\": \"Ἀχιλλεύς \\u00e9\"\n}")},
		{Seq: 4, Kind: "gwab.turn-ended"}, // no actor, no payload
		{Seq: 5, Kind: "gwab.rolled", Actor: "bob", Draws: []engine.Draw{{Die: engine.TwoD6, Roll: 12}, {Die: engine.D0to9, Roll: 0}}, Payload: json.RawMessage(`[1,2.5,null,true]`)},
	}
	if err := s.Append(ctx, g.ID, 2, more, false); err != nil {
		t.Fatal(err)
	}
	all := append(append([]engine.Record(nil), first...), more...)
	all[3].Payload = json.RawMessage("null") // a missing payload is stored as JSON null

	got := mustEvents(t, s, g.ID, 0, 0)
	if len(got) != len(all) {
		t.Fatalf("got %d records, want %d", len(got), len(all))
	}
	for i := range all {
		w, g := all[i], got[i]
		if g.Seq != w.Seq || g.Kind != w.Kind || g.Actor != w.Actor {
			t.Errorf("record %d: got %d %q %q, want %d %q %q", i, g.Seq, g.Kind, g.Actor, w.Seq, w.Kind, w.Actor)
		}
		if !reflect.DeepEqual(g.Draws, w.Draws) || !reflect.DeepEqual(g.Discards, w.Discards) {
			t.Errorf("record %d: draws %v / %v, want %v / %v", i, g.Draws, g.Discards, w.Draws, w.Discards)
		}
		if string(g.Payload) != string(w.Payload) {
			t.Errorf("record %d: payload %s, want %s", i, g.Payload, w.Payload)
		}
		// The exported form of a record is the same JSON too.
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("record %d: JSON %s, want %s", i, gj, wj)
		}
	}

	for _, c := range []struct {
		after, upTo engine.Seq
		want        []engine.Seq
	}{
		{0, 0, []engine.Seq{1, 2, 3, 4, 5}},
		{2, 0, []engine.Seq{3, 4, 5}},
		{2, 4, []engine.Seq{3, 4}},
		{0, 1, []engine.Seq{1}},
		{4, 4, nil},
		{5, 0, nil},
		{3, 99, []engine.Seq{4, 5}},
	} {
		var seqs []engine.Seq
		for _, r := range mustEvents(t, s, g.ID, c.after, c.upTo) {
			seqs = append(seqs, r.Seq)
		}
		if !reflect.DeepEqual(seqs, c.want) {
			t.Errorf("Events(%d, %d) = %v, want %v", c.after, c.upTo, seqs, c.want)
		}
	}
	if _, err := s.Events(ctx, g.ID+100, 0, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("Events of a missing game: %v, want ErrNotFound", err)
	}

	g2, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g2.Head != 5 || !g2.Created.Equal(g.Created) || g2.Guild != "guild" || g2.Channel != "chan" {
		t.Errorf("Game = %+v, want head 5 and the created game's fields %+v", g2, g)
	}
}

func TestAppendRefuses(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := newGame(t, s, "chan", rec(1, "k", `1`), rec(2, "k", `2`))

	for _, expect := range []engine.Seq{0, 1, 3, 10} {
		err := s.Append(ctx, g.ID, expect, []engine.Record{rec(expect+1, "k", `"late"`)}, false)
		if !errors.Is(err, ErrConflict) {
			t.Errorf("Append after %d with head 2: %v, want ErrConflict", expect, err)
		}
	}
	for _, recs := range [][]engine.Record{
		{rec(4, "k", `1`)},                   // skips 3
		{rec(3, "k", `1`), rec(3, "k", `1`)}, // repeats
		{rec(3, "", `1`)},                    // no kind
		{rec(3, "k", `{nope`)},               // bad JSON
	} {
		err := s.Append(ctx, g.ID, 2, recs, false)
		if err == nil || errors.Is(err, ErrConflict) {
			t.Errorf("Append(%v): %v, want a non-conflict error", recs, err)
		}
	}
	if err := s.Append(ctx, g.ID+100, 0, []engine.Record{rec(1, "k", `1`)}, false); !errors.Is(err, ErrNotFound) {
		t.Errorf("Append to a missing game: %v, want ErrNotFound", err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 2 {
		t.Fatalf("refused appends wrote: %d records", len(got))
	}
	if g2, _ := s.Game(ctx, g.ID); g2.Head != 2 {
		t.Fatalf("head = %d after refused appends, want 2", g2.Head)
	}

	// A conflict leaves nothing half-written even when the records' numbers
	// are already taken in the log but the head was not moved.
	if _, err := s.w.ExecContext(ctx, `UPDATE games SET head = 1 WHERE id = ?`, g.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "k", `"dup"`)}, false); !errors.Is(err, ErrConflict) {
		t.Errorf("Append over an existing record: %v, want ErrConflict", err)
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE games SET head = 2 WHERE id = ?`, g.ID); err != nil {
		t.Fatal(err)
	}

	// Ending.
	if err := s.Append(ctx, g.ID, 2, []engine.Record{rec(3, "k", `"last"`)}, true); err != nil {
		t.Fatal(err)
	}
	if g2, _ := s.Game(ctx, g.ID); !g2.Ended || g2.Head != 3 {
		t.Fatalf("after the ending append: %+v", g2)
	}
	if err := s.Append(ctx, g.ID, 3, []engine.Record{rec(4, "k", `1`)}, false); !errors.Is(err, ErrEnded) {
		t.Errorf("Append to an ended game: %v, want ErrEnded", err)
	}
	// Ending with no new records.
	g3 := newGame(t, s, "chan")
	if err := s.Append(ctx, g3.ID, 0, nil, true); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Game(ctx, g3.ID); !g.Ended || g.Head != 0 {
		t.Errorf("after ending an empty game: %+v", g)
	}
}

func TestAppendCanceled(t *testing.T) {
	s := openTest(t)
	g := newGame(t, s, "chan")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a canceled context: %v, want context.Canceled", err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 0 {
		t.Errorf("canceled append wrote %d records", len(got))
	}
}

// race has two writers append the next record with the same expectation,
// 50 times, and checks that exactly one wins each time.
func race(t *testing.T, a, b *Store) {
	ctx := context.Background()
	g := newGame(t, a, "chan")
	stores := [2]*Store{a, b}
	for head := engine.Seq(0); head < 50; head++ {
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range 2 {
			wg.Go(func() {
				<-start
				errs[w] = stores[w].Append(ctx, g.ID, head, []engine.Record{rec(head+1, "k", fmt.Sprintf(`{"writer":%d}`, w))}, false)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("round %d: both writers won", head)
				}
				winner = w
			case !errors.Is(err, ErrConflict):
				t.Fatalf("round %d: writer %d: %v, want nil or ErrConflict", head, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: neither writer won: %v", head, errs)
		}
		got := mustEvents(t, b, g.ID, head, 0)
		if len(got) != 1 || string(got[0].Payload) != fmt.Sprintf(`{"writer":%d}`, winner) {
			t.Fatalf("round %d: log after it holds %v, want writer %d's record", head, got, winner)
		}
	}
	checkContiguous(t, mustEvents(t, a, g.ID, 0, 0))
}

func TestAppendRace(t *testing.T) {
	s := openTest(t)
	race(t, s, s)
}

func TestAppendRaceTwoStores(t *testing.T) {
	path := testPath(t)
	race(t, openAt(t, path), openAt(t, path)) // as two processes would
}

// appendWithRetry appends one record made by mk for the next free number,
// reloading the head and retrying on conflict.
func appendWithRetry(ctx context.Context, s *Store, id GameID, mk func(seq engine.Seq) []engine.Record) (conflicts int, err error) {
	for {
		g, err := s.Game(ctx, id)
		if err != nil {
			return conflicts, err
		}
		err = s.Append(ctx, id, g.Head, mk(g.Head+1), false)
		if !errors.Is(err, ErrConflict) {
			return conflicts, err
		}
		conflicts++
	}
}

func TestAppendManyWriters(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	stores := []*Store{openAt(t, path), openAt(t, path)}
	g := newGame(t, stores[0], "chan")
	const writers, each = 8, 25

	type mark struct{ Writer, I, Part int }
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	var mu sync.Mutex
	conflicts := 0
	for w := range writers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for i := range each {
				parts := 1 + (w+i)%3 // batches of 1 to 3 records
				n, err := appendWithRetry(ctx, s, g.ID, func(seq engine.Seq) []engine.Record {
					var recs []engine.Record
					for p := range parts {
						b, _ := json.Marshal(mark{w, i, p})
						recs = append(recs, rec(seq+engine.Seq(p), "k", string(b)))
					}
					return recs
				})
				mu.Lock()
				conflicts += n
				mu.Unlock()
				if err != nil {
					errs <- fmt.Errorf("writer %d append %d: %w", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	recs := mustEvents(t, stores[1], g.ID, 0, 0)
	checkContiguous(t, recs)
	seen := make(map[mark]bool)
	for i := 0; i < len(recs); {
		var m mark
		if err := json.Unmarshal(recs[i].Payload, &m); err != nil {
			t.Fatal(err)
		}
		if seen[m] {
			t.Fatalf("record %d duplicates %+v", recs[i].Seq, m)
		}
		// A batch's records are together in the log.
		parts := 1 + (m.Writer+m.I)%3
		for p := range parts {
			var mp mark
			if err := json.Unmarshal(recs[i+p].Payload, &mp); err != nil {
				t.Fatal(err)
			}
			if mp != (mark{m.Writer, m.I, p}) {
				t.Fatalf("record %d is %+v, want part %d of %+v", recs[i+p].Seq, mp, p, m)
			}
			seen[mp] = true
		}
		i += parts
	}
	want := 0
	for w := range writers {
		for i := range each {
			want += 1 + (w+i)%3
		}
	}
	if len(recs) != want || len(seen) != want {
		t.Fatalf("log has %d records (%d distinct), want %d", len(recs), len(seen), want)
	}
	if g2, _ := stores[0].Game(ctx, g.ID); g2.Head != engine.Seq(want) {
		t.Errorf("head = %d, want %d", g2.Head, want)
	}
	t.Logf("%d records by %d writers in 2 stores, %d conflicts retried", want, writers, conflicts)
}

func TestOneActiveGamePerChannel(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s, s2 := openAt(t, path), openAt(t, path)

	if _, err := s.ActiveGame(ctx, "guild", "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ActiveGame of an empty channel: %v, want ErrNotFound", err)
	}
	if _, err := s.LatestGame(ctx, "guild", "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestGame of an empty channel: %v, want ErrNotFound", err)
	}
	if _, err := s.Game(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Game of a missing id: %v, want ErrNotFound", err)
	}

	a1 := newGame(t, s, "a", rec(1, "k", `1`))
	if _, err := s2.CreateGame(ctx, "guild", "a", "sweet", nil); !errors.Is(err, ErrConflict) {
		t.Errorf("second game in a channel: %v, want ErrConflict", err)
	}
	b1 := newGame(t, s2, "b")
	other, err := s.CreateGame(ctx, "other guild", "a", "gwab", nil)
	if err != nil {
		t.Fatalf("same channel name in another guild: %v", err)
	}
	if g, err := s.ActiveGame(ctx, "guild", "a"); err != nil || g.ID != a1.ID {
		t.Errorf("ActiveGame(a) = %+v, %v; want game %d", g, err, a1.ID)
	}

	// Many creators race for one channel: one wins.
	var wg sync.WaitGroup
	wins := make(chan Game, 8)
	for i := range 8 {
		st := []*Store{s, s2}[i%2]
		wg.Go(func() {
			g, err := st.CreateGame(ctx, "guild", "c", "gwab", []engine.Record{rec(1, "k", fmt.Sprint(i))})
			switch {
			case err == nil:
				wins <- g
			case !errors.Is(err, ErrConflict):
				t.Errorf("creator %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	close(wins)
	if n := len(wins); n != 1 {
		t.Fatalf("%d creators won channel c, want 1", n)
	}
	c1 := <-wins
	if recs := mustEvents(t, s, c1.ID, 0, 0); len(recs) != 1 {
		t.Errorf("the winner's game has %d records, want 1", len(recs))
	}

	// Once the game ends, the channel takes a new one.
	if err := s.Append(ctx, a1.ID, 1, nil, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ActiveGame(ctx, "guild", "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ActiveGame after the end: %v, want ErrNotFound", err)
	}
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a1.ID || !g.Ended {
		t.Errorf("LatestGame after the end = %+v, %v; want ended game %d", g, err, a1.ID)
	}
	a2 := newGame(t, s2, "a")
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a2.ID {
		t.Errorf("LatestGame = %+v, %v; want the new game %d", g, err, a2.ID)
	}
	if err := s.Append(ctx, a2.ID, 0, nil, true); err != nil {
		t.Fatal(err)
	}
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a2.ID {
		t.Errorf("LatestGame with every game ended = %+v, %v; want the newest, %d", g, err, a2.ID)
	}

	gs, err := s.Games(ctx, "guild")
	if err != nil {
		t.Fatal(err)
	}
	var ids []GameID
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	if want := []GameID{a1.ID, b1.ID, c1.ID, a2.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Games = %v, want %v", ids, want)
	}
	if gs, err := s.Games(ctx, "other guild"); err != nil || len(gs) != 1 || gs[0].ID != other.ID {
		t.Errorf("Games(other guild) = %v, %v", gs, err)
	}
	if gs, err := s.Games(ctx, "nobody"); err != nil || len(gs) != 0 {
		t.Errorf("Games(nobody) = %v, %v", gs, err)
	}
}

func TestSnapshots(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	var recs []engine.Record
	for i := range 20 {
		recs = append(recs, rec(engine.Seq(i+1), "k", fmt.Sprint(i)))
	}
	g := newGame(t, s, "chan", recs...)
	other := newGame(t, s, "other", recs[:10]...)

	if _, _, err := s.Snapshot(ctx, g.ID, 20, "v1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Snapshot with none stored: %v, want ErrNotFound", err)
	}
	put := func(id GameID, seq engine.Seq, version string) {
		t.Helper()
		if err := s.PutSnapshot(ctx, id, seq, version, fmt.Appendf(nil, "%s@%d", version, seq)); err != nil {
			t.Fatal(err)
		}
	}
	put(g.ID, 5, "v1")
	put(g.ID, 10, "v1")
	put(g.ID, 12, "v2")
	put(other.ID, 8, "v1")
	check := func(atMost engine.Seq, version string, want engine.Seq) {
		t.Helper()
		seq, data, err := s.Snapshot(ctx, g.ID, atMost, version)
		if want < 0 {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("Snapshot(%d, %s) = %d, %q, %v; want ErrNotFound", atMost, version, seq, data, err)
			}
			return
		}
		if err != nil || seq != want || string(data) != fmt.Sprintf("%s@%d", version, want) {
			t.Errorf("Snapshot(%d, %s) = %d, %q, %v; want %d", atMost, version, seq, data, err, want)
		}
	}
	check(20, "v1", 10)
	check(10, "v1", 10)
	check(9, "v1", 5)
	check(4, "v1", -1)
	check(20, "v2", 12)
	check(11, "v2", -1)
	check(20, "v3", -1)

	// Only the three with the highest seq stay, whatever their version.
	put(g.ID, 15, "v2")
	check(9, "v1", -1)
	check(20, "v1", 10)
	// Putting the same seq and version again replaces it.
	if err := s.PutSnapshot(ctx, g.ID, 15, "v2", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if _, data, _ := s.Snapshot(ctx, g.ID, 20, "v2"); string(data) != "again" {
		t.Errorf("replaced snapshot reads %q", data)
	}
	put(g.ID, 20, "v2")
	check(20, "v1", -1)
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM snapshots WHERE game_id = ?`, g.ID).Scan(&n); err != nil || n != keepSnapshots {
		t.Errorf("game keeps %d snapshots (%v), want %d", n, err, keepSnapshots)
	}
	// Other games keep theirs.
	if seq, _, err := s.Snapshot(ctx, other.ID, 10, "v1"); err != nil || seq != 8 {
		t.Errorf("other game's snapshot: %d, %v", seq, err)
	}

	if err := s.PutSnapshot(ctx, g.ID, 21, "v1", []byte("x")); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("snapshot past the head: %v, want an error", err)
	}
	if err := s.PutSnapshot(ctx, g.ID+100, 0, "v1", []byte("x")); !errors.Is(err, ErrNotFound) {
		t.Errorf("snapshot of a missing game: %v, want ErrNotFound", err)
	}
	if err := s.PutSnapshot(ctx, g.ID, 20, "", []byte("x")); err == nil {
		t.Error("snapshot without a version: no error")
	}
	// Empty data reads back empty.
	if err := s.PutSnapshot(ctx, other.ID, 10, "empty", nil); err != nil {
		t.Fatal(err)
	}
	if seq, data, err := s.Snapshot(ctx, other.ID, 10, "empty"); err != nil || seq != 10 || data == nil || len(data) != 0 {
		t.Errorf("empty snapshot: %d, %v, %v", seq, data, err)
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, s, "chan", rec(1, "k", `1`))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openAt(t, path)
	if g2, err := s.Game(ctx, g.ID); err != nil || g2.Head != 1 {
		t.Fatalf("after reopening: %+v, %v", g2, err)
	}
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	var n, top int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*), max(version) FROM schema_migrations`).Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if n != len(migs) || top != len(migs) {
		t.Errorf("schema_migrations has %d rows up to %d, want %d", n, top, len(migs))
	}
	// Migrating again changes nothing.
	if err := migrate(ctx, s.w, migs); err != nil {
		t.Fatal(err)
	}

	// A later migration is applied once, on top.
	next := append(migs[:len(migs):len(migs)], migration{
		version: len(migs) + 1, name: fmt.Sprintf("%04d_notes.sql", len(migs)+1),
		sql: "CREATE TABLE notes (x TEXT);\nINSERT INTO notes VALUES ('a');\nINSERT INTO notes VALUES ('b');",
	})
	for range 2 {
		if err := migrate(ctx, s.w, next); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM notes`).Scan(&n); err != nil || n != 2 {
		t.Errorf("notes has %d rows (%v), want 2: every statement of the file, once", n, err)
	}
	// A migration that fails leaves no trace.
	bad := append(next[:len(next):len(next)], migration{
		version: len(next) + 1, name: fmt.Sprintf("%04d_bad.sql", len(next)+1),
		sql: "CREATE TABLE half (x TEXT); SELECT nonsense FROM nowhere;",
	})
	if err := migrate(ctx, s.w, bad); err == nil {
		t.Error("a failing migration: no error")
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'half'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("a failed migration left table half (%v)", err)
	}
	// This program does not know migration len(migs)+1: it refuses the file.
	if _, err := Open(ctx, path); err == nil {
		t.Error("Open of a file with a newer schema: no error")
	}
	// A renamed migration is refused too.
	renamed := append([]migration(nil), next...)
	renamed[0].name = "0001_other.sql"
	if err := migrate(ctx, s.w, renamed); err == nil {
		t.Error("migrate with a renamed migration: no error")
	}
}

func TestOpenConcurrently(t *testing.T) {
	path := testPath(t)
	var wg sync.WaitGroup
	stores := make([]*Store, 6)
	errs := make([]error, len(stores))
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = Open(context.Background(), path) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("opener %d: %v", i, err)
			continue
		}
		defer stores[i].Close()
	}
	if t.Failed() {
		return
	}
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := stores[0].r.QueryRowContext(context.Background(), `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(migs) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(migs))
	}
	newGame(t, stores[5], "chan")
}

func TestLoadMigrations(t *testing.T) {
	file := func(names ...string) fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, n := range names {
			fsys["m/"+n] = &fstest.MapFile{Data: []byte("SELECT 1;")}
		}
		return fsys
	}
	if migs, err := loadMigrations(file("0002_b.sql", "0001_a.sql", "README"), "m"); err != nil || len(migs) != 2 || migs[1].name != "0002_b.sql" {
		t.Errorf("good names: %v, %v", migs, err)
	}
	for _, names := range [][]string{
		{"0001_a.sql", "0003_c.sql"}, // gap
		{"0002_b.sql"},               // not from 1
		{"0001_a.sql", "0001_b.sql"}, // repeated
		{"1_a.sql"},                  // short number
		{"0001-a.sql"},               // bad separator
		{"0001_A.sql"},               // capitals
		{},                           // none
	} {
		if _, err := loadMigrations(file(names...), "m"); err == nil {
			t.Errorf("loadMigrations(%v): no error", names)
		}
	}
}

func TestBusy(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	g := newGame(t, a, "chan")
	b, err := open(ctx, path, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	// a's transaction is IMMEDIATE, so it holds the write lock from BEGIN,
	// as another process mid-append would.
	tx, err := a.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = b.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false)
	if !errors.Is(err, ErrBusy) || errors.Is(err, ErrConflict) {
		t.Errorf("Append while the lock is held: %v, want ErrBusy", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("gave up after %v, before the busy timeout", d)
	}
	// Reads go on meanwhile.
	if _, err := b.Game(ctx, g.ID); err != nil {
		t.Errorf("read while the lock is held: %v", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false); err != nil {
		t.Errorf("Append once the lock is free: %v", err)
	}
}

// TestOpenReadOnly reads a closed database through a read-only opening:
// its games and events are all there, and a write fails without touching
// the file.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, s, "c", rec(1, "test.opened", `{"seed":1}`), rec(2, "test.moved", `{}`))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got := mustEvents(t, ro, g.ID, 0, 0); len(got) != 2 {
		t.Fatalf("read %d events, want 2", len(got))
	}
	if _, err := ro.CreateGame(ctx, "guild", "d", "gwab", []engine.Record{rec(1, "test.opened", `{}`)}); err == nil {
		t.Fatal("a write through a read-only store succeeded")
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the read-only store changed the file")
	}
}
