package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	for _, p := range append(common, pragma{"query_only", "0"}, pragma{"wal_autocheckpoint", "4000"}) {
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
	want := "file:///tmp/a%20b%3Fc%23d%25e.db?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(4000)&_txlock=immediate"
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

// TestAppendOverTakenNumbers: a conflict leaves nothing half-written when
// the store knows the game (so that the insert itself checks the head) and
// the records' numbers are already taken in the log, or would leave a gap
// in it (the shared suite, storetest, holds the rest of Append's
// contract).
func TestAppendOverTakenNumbers(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := newGame(t, s, "chan", rec(1, "k", `1`), rec(2, "k", `2`))
	if _, err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "k", `"dup"`), rec(3, "k", `"three"`)}, false); !errors.Is(err, ErrConflict) {
		t.Errorf("Append over an existing record: %v, want ErrConflict", err)
	}
	if _, err := s.Append(ctx, g.ID, 3, []engine.Record{rec(4, "k", `"gap"`)}, false); !errors.Is(err, ErrConflict) {
		t.Errorf("Append past the log's end: %v, want ErrConflict", err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 2 || string(got[1].Payload) != "2" {
		t.Errorf("the log after the refused append: %v", got)
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
	_, err = b.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false)
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
	if _, err := b.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false); err != nil {
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

// TestSnapshotLeavesAppendsDurable: a snapshot commits without a sync of
// its own, and the writer must sync every append fully again after it,
// whether the snapshot was stored or refused.
func TestSnapshotLeavesAppendsDurable(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	g, err := s.CreateGame(ctx, "g", "c", "gwab", []engine.Record{rec(1, "k", `1`)})
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		var got string
		if err := s.w.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != "2" {
			t.Errorf("after %s the writer syncs at level %s, want 2 (FULL)", when, got)
		}
	}
	if err := s.PutSnapshot(ctx, g.ID, 1, "v1", []byte("state")); err != nil {
		t.Fatal(err)
	}
	check("a snapshot")
	if err := s.PutSnapshot(ctx, g.ID, 9, "v1", []byte("state")); err == nil {
		t.Fatal("a snapshot past the head was stored")
	}
	check("a refused snapshot")
	if seq, data, err := s.Snapshot(ctx, g.ID, 1, "v1"); err != nil || seq != 1 || string(data) != "state" {
		t.Fatalf("the snapshot reads back as %d %q %v", seq, data, err)
	}
}

// TestMigrationKeyedLogs migrates a file written under migration 0006
// to the events and calls tables kept in their keys' own trees (0007),
// without the indexes of open calls by guild and of calls by player
// (0007, 0008): every event and call reads back as it was, a player's
// calls are found, and the game moves on.
func TestMigrationKeyedLogs(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", dsn(path, busyTimeout, true))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, w, migs[:6]); err != nil {
		t.Fatal(err)
	}
	called := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`INSERT INTO games (id, guild, channel, ruleset, head, ended, created) VALUES (7, 'guild', 'chan', 'gwab', 2, 0, '2026-03-01T12:00:00Z')`,
		`INSERT INTO events (game_id, seq, kind, actor, draws, discards, payload, recorded_at, step) VALUES
			(7, 1, 'opened', 'alice', NULL, NULL, '{"a":1}', '2026-03-01T12:00:00Z', 1),
			(7, 2, 'dealt', 'bob', '[{"deck":"combat","cards":["AS"]}]', NULL, 'null', '2026-03-01T12:00:01.5Z', 0)`,
		fmt.Sprintf(`INSERT INTO calls (game_id, guild, channel, player, seq, called, acted, ended, unseated) VALUES
			(7, 'guild', 'chan', 'alice', 1, %d, %d, 0, 0),
			(7, 'guild', 'chan', 'bob', 2, %d, 0, 0, 0)`, millis(called), millis(called.Add(time.Minute)), millis(called)),
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	s := openAt(t, path)
	recs := mustEvents(t, s, 7, 0, 0)
	if len(recs) != 2 || recs[0].Kind != "opened" || recs[0].Actor != "alice" || !recs[0].Step || string(recs[0].Payload) != `{"a":1}` ||
		recs[1].Kind != "dealt" || recs[1].Step || len(recs[1].Draws) != 1 || string(recs[1].Payload) != "null" {
		t.Errorf("events after migrating: %+v", recs)
	}
	if at, err := s.Recorded(ctx, 7, 0); err != nil || len(at) != 2 || !at[1].Equal(called.Add(1500*time.Millisecond)) {
		t.Errorf("recording times after migrating: %v, %v", at, err)
	}
	open, err := s.OpenCalls(ctx, "guild")
	if err != nil || len(open) != 1 || open[0].Player != "bob" || !open[0].Called.Equal(called) {
		t.Errorf("open calls after migrating: %+v, %v", open, err)
	}
	if all, err := s.OpenCalls(ctx, ""); err != nil || len(all) != 1 {
		t.Errorf("open calls of every guild after migrating: %+v, %v", all, err)
	}
	if mine, err := s.PlayerCalls(ctx, "guild", "alice"); err != nil || len(mine) != 1 || !mine[0].Acted.Equal(called.Add(time.Minute)) {
		t.Errorf("alice's calls after migrating: %+v, %v", mine, err)
	}
	if _, err := s.AppendCalling(ctx, 7, 2, []engine.Record{rec(3, "k", `3`)}, false,
		CallChange{At: called.Add(time.Hour), Acted: []engine.PlayerID{"bob"}, Called: []engine.PlayerID{"alice"}}); err != nil {
		t.Fatal(err)
	}
	if calls, err := s.GameCalls(ctx, 7, 0); err != nil || len(calls) != 3 || calls[1].Acted.IsZero() || calls[2].Player != "alice" || !calls[2].Acted.IsZero() {
		t.Errorf("the game's calls after a step: %+v, %v", calls, err)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name IN ('calls_open', 'calls_player')`).Scan(&n); err != nil || n != 0 {
		t.Errorf("calls_open or calls_player is still there (%v)", err)
	}
}

// TestEventJSONCheckedOnce: an event whose payload is not JSON is
// refused before its step's transaction, and nothing of the step is
// written; the events table does not parse every payload again
// (migration 0009).
func TestEventJSONCheckedOnce(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	g := newGame(t, s, "chan", rec(1, "opened", `1`))
	bad := []engine.Record{rec(2, "k", `2`), rec(3, "k", `{"unclosed": `)}
	if _, err := s.Append(ctx, g.ID, 1, bad, false); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("appending a payload that is not JSON: %v", err)
	}
	if recs := mustEvents(t, s, g.ID, 0, 0); len(recs) != 1 {
		t.Errorf("after the refused append the log holds %d events, want 1", len(recs))
	}
	if _, err := s.Append(ctx, g.ID, 1, bad[:1], false); err != nil {
		t.Errorf("the next append after a refused one: %v", err)
	}
	var schema string
	if err := s.r.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE name = 'events'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(schema, "json_valid") {
		t.Errorf("the events table checks JSON again:\n%s", schema)
	}
}

// TestStepCallsFoundByKey: the statements that close a step's calls find
// the player's open call by the calls table's key, at the end of his run
// of it, and not by reading every call he ever had in the game (a long
// book's step would cost more with each turn), nor gather what they find
// in a temporary table first; and the open calls are found without
// reading the whole calls table (migration 0011).
func TestStepCallsFoundByKey(t *testing.T) {
	s := openAt(t, testPath(t))
	ctx := context.Background()
	// explain returns column col of what SQLite says of q, asked as
	// how: a plan's detail is its fourth column, a program's opcode its
	// second.
	explain := func(how, q string, col int, args ...any) []string {
		t.Helper()
		rows, err := s.r.QueryContext(ctx, how+" "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals[col]))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, q := range []string{answerCall, unseatCall} {
		plan := explain("EXPLAIN QUERY PLAN", q, 3, 1, 2, "p")
		if len(plan) == 0 || !strings.Contains(plan[0], "USING PRIMARY KEY (game_id=? AND player=? AND seq=?)") {
			t.Errorf("%s\nis planned as %q, want a search of the calls table's key", q, plan)
		}
		for _, p := range plan {
			if strings.Contains(p, "SCAN") {
				t.Errorf("%s\nscans: %q", q, plan)
			}
		}
		if ops := explain("EXPLAIN", q, 1, 1, 2, "p"); slices.Contains(ops, "OpenEphemeral") {
			t.Errorf("%s\nfills a temporary table: %q", q, ops)
		}
	}
	for _, guild := range []string{"guild", ""} {
		// The query OpenCalls runs, as the log of statements would show
		// it: asked of the plan, not run.
		plan := explain("EXPLAIN QUERY PLAN", openCallsQuery(guild), 3, openCallsArgs(guild)...)
		for _, p := range plan {
			if strings.Contains(p, "SCAN calls") || strings.Contains(p, "SCAN c ") || p == "SCAN c" || strings.Contains(p, "SCAN l") {
				t.Errorf("open calls of %q read the calls table whole: %q", guild, plan)
			}
		}
	}
}

// TestOneOpenCall: a player has at most one open call in a game, his
// last. Calling him again, from this store or another on the same file,
// closes the one he had as answered at the new call, whether or not the
// step says he acted; a call that closes is closed once, with the time of
// the step that closed it; and the open calls read back are each player's
// last.
func TestOneOpenCall(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s1, s2 := openAt(t, path), openAt(t, path)
	g := newGame(t, s1, "chan", rec(1, "opened", `1`))
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(seq engine.Seq) time.Time { return t0.Add(time.Duration(seq) * time.Minute) }
	step := func(s *Store, seq engine.Seq, c CallChange) {
		t.Helper()
		c.At = at(seq)
		if _, err := s.AppendCalling(ctx, g.ID, seq-1, []engine.Record{rec(seq, "k", fmt.Sprint(seq))}, false, c); err != nil {
			t.Fatal(err)
		}
	}
	alice, bob := []engine.PlayerID{"alice"}, []engine.PlayerID{"bob"}
	step(s1, 2, CallChange{Called: []engine.PlayerID{"alice", "bob"}})
	step(s1, 3, CallChange{Acted: alice, Called: alice})
	step(s1, 4, CallChange{Acted: alice, Called: alice})
	// Another instance calls alice again without her acting.
	step(s2, 5, CallChange{Called: alice})
	// bob, still awaited, is called again; alice acts and is done.
	step(s1, 6, CallChange{Acted: alice, Called: bob})
	calls, err := s1.GameCalls(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		state := "open"
		if !c.Acted.IsZero() {
			state = fmt.Sprintf("acted@%d", int(c.Acted.Sub(t0)/time.Minute))
		}
		got = append(got, fmt.Sprintf("%s@%d:%s", c.Player, c.Seq, state))
	}
	want := []string{"alice@2:acted@3", "bob@2:acted@6", "alice@3:acted@4", "alice@4:acted@5", "alice@5:acted@6", "bob@6:open"}
	if !slices.Equal(got, want) {
		t.Errorf("the game's calls:\n got %v\nwant %v", got, want)
	}
	open, err := s2.OpenCalls(ctx, "guild")
	if err != nil || len(open) != 1 || open[0].Player != "bob" || open[0].Seq != 6 || !open[0].Called.Equal(at(6)) {
		t.Errorf("open calls: %+v, %v; want bob's at 6", open, err)
	}
	if all, err := s2.OpenCalls(ctx, ""); err != nil || len(all) != 1 {
		t.Errorf("open calls of every guild: %+v, %v", all, err)
	}
	// The game's end closes every call still open.
	if _, err := s2.AppendCalling(ctx, g.ID, 6, []engine.Record{rec(7, "k", `7`)}, true, CallChange{At: at(7), Acted: bob, Ended: true}); err != nil {
		t.Fatal(err)
	}
	if open, err := s1.OpenCalls(ctx, ""); err != nil || len(open) != 0 {
		t.Errorf("open calls after the game's end: %+v, %v", open, err)
	}
}

// TestHeadFromLog migrates a file written under migration 0009, whose
// games kept their heads in their rows, to heads read from the log
// (0010): each game's head is its last event's number, a step moves it
// without writing the game's row, and the look-up of a head reads one
// entry of the log's key, not the whole log.
func TestHeadFromLog(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", dsn(path, busyTimeout, true))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, w, migs[:9]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO games (id, guild, channel, ruleset, head, ended, created) VALUES
			(7, 'guild', 'chan', 'gwab', 3, 0, '2026-03-01T12:00:00Z'),
			(8, 'guild', 'old', 'gwab', 1, 1, '2026-03-01T12:00:00Z'),
			(9, 'guild', 'new', 'gwab', 0, 0, '2026-03-01T12:00:00Z')`,
		`INSERT INTO events (game_id, seq, kind, actor, draws, discards, payload, recorded_at, step) VALUES
			(7, 1, 'opened', 'alice', NULL, NULL, '1', '2026-03-01T12:00:00Z', 1),
			(7, 2, 'moved', 'alice', NULL, NULL, '2', '2026-03-01T12:00:01Z', 1),
			(7, 3, 'moved', 'bob', NULL, NULL, '3', '2026-03-01T12:00:02Z', 1),
			(8, 1, 'opened', 'alice', NULL, NULL, '1', '2026-03-01T12:00:00Z', 1)`,
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	s := openAt(t, path)
	games, err := s.Games(ctx, "guild")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range games {
		got = append(got, fmt.Sprintf("%d:%d:%v", g.ID, g.Head, g.Ended))
	}
	if want := []string{"7:3:false", "8:1:true", "9:0:false"}; !slices.Equal(got, want) {
		t.Errorf("games after migrating (id:head:ended): %v, want %v", got, want)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('games') WHERE name = 'head'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the games table still has a head column (%v)", err)
	}
	if _, err := s.Append(ctx, 7, 2, []engine.Record{rec(3, "k", `"late"`)}, false); !errors.Is(err, ErrConflict) {
		t.Errorf("an append after a head the game has left: %v, want ErrConflict", err)
	}
	if _, err := s.Append(ctx, 8, 1, []engine.Record{rec(2, "k", `2`)}, false); !errors.Is(err, ErrEnded) {
		t.Errorf("an append to an ended game: %v, want ErrEnded", err)
	}
	// The game's row, once known, is not written by a step: the
	// games table's pages stay as they were.
	if _, err := s.Append(ctx, 7, 3, []engine.Record{rec(4, "k", `4`)}, false); err != nil {
		t.Fatal(err)
	}
	pages := func() string {
		t.Helper()
		var sum string
		if err := s.w.QueryRowContext(ctx, `SELECT group_concat(hex(data), '') FROM sqlite_dbpage WHERE pgno IN
			(SELECT pageno FROM dbstat WHERE name = 'games')`).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		return sum
	}
	before := pages()
	if g, err := s.Append(ctx, 7, 4, []engine.Record{rec(5, "k", `5`), rec(6, "k", `6`)}, false); err != nil || g.Head != 6 {
		t.Fatalf("a step of a known game: head %d, %v", g.Head, err)
	}
	if pages() != before {
		t.Error("a step that does not end its game wrote the games table")
	}
	if g, err := s.Game(ctx, 7); err != nil || g.Head != 6 {
		t.Errorf("game 7 after two steps: head %d (%v), want 6", g.Head, err)
	}
	// The head is found by one seek to the end of the game's run of the
	// events table's key: the program seeks backward, and never steps on
	// to a next event.
	rows, err := s.r.QueryContext(ctx, `EXPLAIN `+selectHead, 7)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ops []string
	for rows.Next() {
		var addr, p1, p2, p3 int
		var op string
		var p4, p5, comment any
		if err := rows.Scan(&addr, &op, &p1, &p2, &p3, &p4, &p5, &comment); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, op)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ops, "SeekLE") && !slices.Contains(ops, "SeekLT") || slices.Contains(ops, "Next") {
		t.Errorf("the head's look-up does not seek to the log's end alone: %v", ops)
	}
}

// TestMigrationOneOpenCall migrates a file written under migration 0010
// in which a player had two open calls in one game to one open call per
// player (0011): the earlier is closed, as answered when the later was
// made, and the later is the one open call read back.
func TestMigrationOneOpenCall(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", dsn(path, busyTimeout, true))
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, w, migs[:10]); err != nil {
		t.Fatal(err)
	}
	called := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`INSERT INTO games (id, guild, channel, ruleset, ended, created) VALUES (7, 'guild', 'chan', 'gwab', 0, '2026-03-01T12:00:00Z')`,
		`INSERT INTO events (game_id, seq, kind, actor, draws, discards, payload, recorded_at, step) VALUES
			(7, 1, 'opened', 'alice', NULL, NULL, '1', '2026-03-01T12:00:00Z', 1),
			(7, 2, 'moved', 'alice', NULL, NULL, '2', '2026-03-01T12:01:00Z', 1)`,
		fmt.Sprintf(`INSERT INTO calls (game_id, guild, channel, player, seq, called, acted, ended, unseated) VALUES
			(7, 'guild', 'chan', 'bob', 1, %d, 0, 0, 0),
			(7, 'guild', 'chan', 'bob', 2, %d, 0, 0, 0),
			(7, 'guild', 'chan', 'alice', 1, %d, 0, 0, 0)`, millis(called), millis(called.Add(time.Minute)), millis(called)),
	} {
		if _, err := w.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	s := openAt(t, path)
	calls, err := s.GameCalls(ctx, 7, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		state := "open"
		if !c.Acted.IsZero() {
			state = c.Acted.Sub(called).String()
		}
		got = append(got, fmt.Sprintf("%s@%d:%s", c.Player, c.Seq, state))
	}
	if want := []string{"alice@1:open", "bob@1:1m0s", "bob@2:open"}; !slices.Equal(got, want) {
		t.Errorf("the game's calls after migrating: %v, want %v", got, want)
	}
	open, err := s.OpenCalls(ctx, "guild")
	if err != nil || len(open) != 2 || open[0].Player != "alice" || open[1].Player != "bob" || open[1].Seq != 2 {
		t.Errorf("open calls after migrating: %+v, %v; want alice's at 1 and bob's at 2", open, err)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'calls_answer'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("calls_answer is still there (%v)", err)
	}
}

// TestEventsByNumber: a game's records are read by a range of the events
// table's own integer key (migration 0012), and a long record stays in its
// page rather than spilling into pages of its own, as it did when the
// table was kept in an index's tree.
func TestEventsByNumber(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	long := `"` + strings.Repeat("a", 3000) + `"`
	g := newGame(t, s, "chan", rec(1, "opened", `1`), rec(2, "long", long))
	other := newGame(t, s, "other", rec(1, "opened", `"other"`))
	if _, err := s.Append(ctx, g.ID, 2, []engine.Record{rec(3, "k", `3`)}, false); err != nil {
		t.Fatal(err)
	}
	recs := mustEvents(t, s, g.ID, 1, 0)
	if len(recs) != 2 || string(recs[0].Payload) != long || string(recs[1].Payload) != "3" {
		t.Errorf("game %d's records after 1: %d of them", g.ID, len(recs))
	}
	if recs := mustEvents(t, s, other.ID, 0, 0); len(recs) != 1 || string(recs[0].Payload) != `"other"` {
		t.Errorf("the other game's records: %+v", recs)
	}
	var plan string
	if err := s.r.QueryRowContext(ctx, `EXPLAIN QUERY PLAN SELECT seq FROM events WHERE key > ? AND key <= ? ORDER BY key`, 1, 2).Scan(new(int), new(int), new(int), &plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "INTEGER PRIMARY KEY (rowid>? AND rowid<?)") {
		t.Errorf("a game's records are read by %q, want a range of the table's key", plan)
	}
	var overflow int
	if err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM dbstat WHERE name = 'events' AND pagetype = 'overflow'`).Scan(&overflow); err != nil {
		t.Fatal(err)
	}
	if overflow != 0 {
		t.Errorf("the events table spills %d pages of overflow for a record of %d bytes", overflow, len(long))
	}
}
