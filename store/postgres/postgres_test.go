package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/storetest"
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
	return withParam(t, base, "search_path", schema)
}

// withParam returns the URL u with its query parameter key set to value.
func withParam(t testing.TB, u, key, value string) string {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	q := pu.Query()
	q.Set(key, value)
	pu.RawQuery = q.Encode()
	return pu.String()
}

func rec(seq engine.Seq, kind, payload string) engine.Record {
	return engine.Record{Seq: seq, Kind: kind, Actor: "player", Payload: json.RawMessage(payload)}
}

// TestSuite holds the PostgreSQL store to the contract every store keeps
// (storetest): each test in a schema of its own, opened by as many stores
// (connection pools) as the test asks for, as several instances of the
// bot would.
func TestSuite(t *testing.T) {
	storetest.Run(t, schema)
}

// schema makes a new schema for a test.
func schema(tb testing.TB) storetest.Opener {
	u := schemaURL(tb)
	return func(ctx context.Context) (storetest.Store, error) { return Open(ctx, u) }
}

// TestMigratedOnce opens one new schema from several stores at once: the
// advisory lock lets one apply the migrations, and each is recorded once.
func TestMigratedOnce(t *testing.T) {
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
	ents, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ents) {
		t.Errorf("schema_migrations has %d rows (%v), want %d", n, err, len(ents))
	}
}

// TestDroppedConnections has the server end every connection of the
// store's pool, as a restart of the server or a network fault would,
// between operations and again in the middle of a transaction: reads are
// retried and succeed, a write on a dropped connection fails with an error
// and writes nothing, and once the server is back the next write lands.
func TestDroppedConnections(t *testing.T) {
	u := schemaURL(t)
	ctx := context.Background()
	// The store's connections carry a name of their own, so that drop ends
	// only them: other packages' tests share the database, and run at the
	// same time under go test ./... (the bot's several instances failed a
	// step when their connections were ended too).
	name := fmt.Sprintf("rhapsode-dropped-%d", os.Getpid())
	s, err := Open(ctx, withParam(t, u, "application_name", name))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	admin, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	// drop ends every connection of the store's, and returns how many it
	// ended.
	drop := func() int {
		t.Helper()
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = $1) k`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	g, err := s.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{rec(1, "open", "{}")})
	if err != nil {
		t.Fatal(err)
	}
	// Warm the pool with several connections, then drop them all.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := s.Events(ctx, g.ID, 0, 0); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := drop(); n == 0 {
		t.Fatal("no connection of the store's to end")
	}
	// Reads change nothing and are tried again on a fresh connection.
	for i := range 3 {
		if _, err := s.ActiveGame(ctx, "guild", "chan"); err != nil {
			t.Fatalf("read %d after the connections were dropped: %v", i, err)
		}
		if recs, err := s.Events(ctx, g.ID, 0, 0); err != nil || len(recs) != 1 {
			t.Fatalf("events %d after the connections were dropped: %d, %v", i, len(recs), err)
		}
	}
	// A write either lands or reports an error; it never lands twice or
	// half. Drop again and append until one lands: each failure must
	// have written nothing.
	drop()
	landed := false
	for i := 0; i < 5 && !landed; i++ {
		_, err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "move", `{"try":1}`)}, false)
		switch {
		case err == nil:
			landed = true
		case errors.Is(err, store.ErrConflict):
			t.Fatalf("append %d: %v: an earlier failed append landed after all", i, err)
		}
		recs, rerr := s.Events(ctx, g.ID, 0, 0)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if want := map[bool]int{true: 2, false: 1}[landed]; len(recs) != want {
			t.Fatalf("after append %d (%v) the log holds %d records, want %d", i, err, len(recs), want)
		}
	}
	if !landed {
		t.Fatal("no append landed once the server took connections again")
	}
	// A transaction whose connection is ended before it commits writes
	// nothing, and says so.
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE games SET head = head WHERE id = $1`, int64(g.ID)); err != nil {
		t.Fatal(err)
	}
	drop()
	if err := tx.Commit(ctx); err == nil {
		t.Error("a commit on an ended connection reported success")
	}
	conn.Release()
	if h, err := s.Game(ctx, g.ID); err != nil || h.Head != 2 {
		t.Errorf("after the lost transaction: %+v, %v; want head 2", h, err)
	}
}
