package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// A Store is a Rhapsode database on a PostgreSQL server. It is safe for
// concurrent use by many goroutines, and any number of processes may use
// the same database at once.
type Store struct {
	pool *pgxpool.Pool

	// Now is the clock games are dated and events recorded by
	// ([Store.Recorded]); nil is time.Now. Tests that run the bot on a
	// fake clock set it to the same one, before the store is used.
	Now func() time.Time
}

// clock returns when an event recorded now is recorded.
func (s *Store) clock() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// migrationLock is the advisory lock key held while migrating.
const migrationLock = 0x52687073 // "Rhps"

// Open connects to the database at url (postgres:// or postgresql://)
// and applies the schema migrations it lacks.
func Open(ctx context.Context, url string) (*Store, error) {
	op := "open PostgreSQL database"
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", op, err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %s: %w", op, err)
	}
	s := &Store{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, wrap(op, err)
	}
	return s, nil
}

// Close closes every connection. Operations in flight may fail.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

var migrationName = regexp.MustCompile(`^([0-9]{4})_[a-z0-9_]+\.sql$`)

// migrate applies the numbered migrations the database lacks, in one
// transaction under an advisory lock, so concurrent openers apply each once.
func (s *Store) migrate(ctx context.Context) error {
	ents, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	applied := map[int]string{}
	rows, err := tx.Query(ctx, `SELECT version, name FROM schema_migrations`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var v int
		var name string
		if err := rows.Scan(&v, &name); err != nil {
			return err
		}
		applied[v] = name
	}
	if err := rows.Err(); err != nil {
		return err
	}
	known := 0
	for _, e := range ents {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return fmt.Errorf("migration %s: name is not NNNN_words.sql", e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		if v != known+1 {
			return fmt.Errorf("migration %s: number %d, want %d", e.Name(), v, known+1)
		}
		known = v
		if name, ok := applied[v]; ok {
			if name != e.Name() {
				return fmt.Errorf("migration %d is %s in the database, %s here", v, name, e.Name())
			}
			continue
		}
		b, err := fs.ReadFile(migrationFiles, "migrations/"+e.Name())
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, string(b)); err != nil {
			return fmt.Errorf("migration %s: %w", e.Name(), err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())`, v, e.Name()); err != nil {
			return err
		}
	}
	if len(applied) > known {
		return fmt.Errorf("database has %d migrations, this program knows %d", len(applied), known)
	}
	return tx.Commit(ctx)
}

// wrap annotates err and maps PostgreSQL's codes onto package store's
// sentinels: a unique violation is a conflict; a serialization failure,
// deadlock or lock timeout is busy.
func wrap(op string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505":
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrConflict, err)
		case "40001", "40P01", "55P03":
			return fmt.Errorf("postgres: %s: %w: %w", op, store.ErrBusy, err)
		}
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

// notFound wraps err from a one-row query, turning no rows into
// [store.ErrNotFound].
func notFound(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
	}
	return wrap(op, err)
}

// Connections fail: the server restarts, a proxy or the network drops
// them, an administrator ends them. pgxpool opens a new connection for
// the next statement, but the statement that met the dead one fails.
// What is run again depends on what a second run could do:
//
//   - A read, and a write that ends in the same state however many times
//     it runs (an upsert, a delete), is run again after any failure of the
//     connection (retry).
//   - A transaction is run again when its connection failed before COMMIT
//     was sent: the server then rolls it back whole (inTx). A failure
//     during COMMIT leaves its fate unknown, and is reported.
//   - A write whose second run would answer differently (claiming a
//     deadline, taking an interaction) is run again only when the
//     statement surely never reached the server (once).

// attempts bounds how often a statement or transaction is run.
const attempts = 3

// transient reports whether err is the failure of a connection rather
// than of the statement: the server ended it (class 57P, or a connection
// exception, class 08), or it broke or could not be made.
func transient(err error) bool {
	if pgconn.SafeToRetry(err) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "57P") || strings.HasPrefix(pe.Code, "08")
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "conn closed")
}

// serverEnded reports whether err says the server ended the connection
// (an administrator, a shutdown or a restart): then it has ended every
// other connection of the pool too.
func serverEnded(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "57P")
}

// failed notes a failure: when the server ended the connection, the
// pool's other connections are closed too, rather than each failing the
// statement that meets it next.
func (s *Store) failed(err error) {
	if serverEnded(err) {
		s.pool.Reset()
	}
}

// retry runs f, a read or a write that may run twice, again after a
// failure of its connection.
func (s *Store) retry(ctx context.Context, f func() error) error {
	var err error
	for range attempts {
		if err = f(); err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		s.failed(err)
	}
	return err
}

// once runs f, a write that must not run twice, again only when it surely
// did not reach the server.
func (s *Store) once(ctx context.Context, f func() error) error {
	var err error
	for range attempts {
		err = f()
		if err != nil {
			s.failed(err)
		}
		if err == nil || !pgconn.SafeToRetry(err) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// inTx runs f in a transaction and commits it; on an error it rolls back.
// A transaction that failed before COMMIT was sent wrote nothing, and is
// run again, a few times, when its connection failed or it lost a
// serialization conflict or deadlock. A failed COMMIT is reported.
func (s *Store) inTx(ctx context.Context, f func(pgx.Tx) error) error {
	var err error
	for range attempts {
		var tx pgx.Tx
		tx, err = s.pool.Begin(ctx)
		if err != nil {
			s.failed(err)
			if transient(err) && ctx.Err() == nil {
				continue
			}
			return err
		}
		if err = f(tx); err != nil {
			tx.Rollback(ctx)
			s.failed(err)
			var pe *pgconn.PgError
			again := transient(err) || (errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01"))
			if again && ctx.Err() == nil {
				continue
			}
			return err
		}
		if err = tx.Commit(ctx); err != nil {
			s.failed(err)
		}
		if err != nil && pgconn.SafeToRetry(err) && ctx.Err() == nil {
			continue // COMMIT never left: the transaction is rolled back
		}
		return err
	}
	return err
}

func insertEvents(ctx context.Context, tx pgx.Tx, id store.GameID, rows []store.Row, now time.Time) error {
	if len(rows) == 0 {
		return nil
	}
	var b pgx.Batch
	for _, r := range rows {
		b.Queue(`INSERT INTO events (game_id, seq, kind, actor, step, draws, discards, payload, recorded_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			int64(id), r.Seq, r.Kind, r.Actor, r.Step, r.Draws, r.Discards, r.Payload, now)
	}
	return tx.SendBatch(ctx, &b).Close()
}

// gameColumns are a game's row, and whether it has a turn deadline set
// (store.Game.Deadline), read in the same statement.
const gameColumns = `id, guild, channel, ruleset, head, ended, created,
	EXISTS (SELECT 1 FROM deadlines d WHERE d.game_id = games.id)`

func scanGame(row pgx.Row) (store.Game, error) {
	var g store.Game
	var id, head int64
	if err := row.Scan(&id, &g.Guild, &g.Channel, &g.Ruleset, &head, &g.Ended, &g.Created, &g.Deadline); err != nil {
		return store.Game{}, err
	}
	g.ID, g.Head, g.Created = store.GameID(id), engine.Seq(head), g.Created.UTC()
	return g, nil
}

// CreateGame starts a game of ruleset in a channel with its first records
// (recs[i].Seq must be i+1), in one transaction. If the channel already
// has a game that has not ended it returns [store.ErrConflict].
func (s *Store) CreateGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record) (store.Game, error) {
	return s.createGame(ctx, guild, channel, ruleset, recs, nil)
}

// CreateGameCalling is [Store.CreateGame] that records, in the same
// transaction, the calls of the players the new game awaits (calls,
// whose Called alone counts; store.Store.CreateGameCalling).
func (s *Store) CreateGameCalling(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls store.CallChange) (store.Game, error) {
	calls = store.CallChange{At: calls.At, Called: calls.Called}
	return s.createGame(ctx, guild, channel, ruleset, recs, &calls)
}

func (s *Store) createGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls *store.CallChange) (store.Game, error) {
	op := fmt.Sprintf("create %s game in %s/%s", ruleset, guild, channel)
	if guild == "" || channel == "" || ruleset == "" {
		return store.Game{}, fmt.Errorf("postgres: %s: guild, channel and ruleset must not be empty", op)
	}
	rows, err := store.EncodeRows(recs, 0)
	if err != nil {
		return store.Game{}, fmt.Errorf("postgres: %s: %w", op, err)
	}
	// Microseconds are what PostgreSQL keeps.
	now := s.clock().UTC().Truncate(time.Microsecond)
	g := store.Game{Guild: guild, Channel: channel, Ruleset: ruleset, Head: engine.Seq(len(recs)), Created: now}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		var id int64
		if err := tx.QueryRow(ctx, `INSERT INTO games (guild, channel, ruleset, head, ended, created)
			VALUES ($1, $2, $3, $4, false, $5) RETURNING id`, guild, channel, ruleset, int64(g.Head), now).Scan(&id); err != nil {
			return err
		}
		g.ID = store.GameID(id)
		if err := insertEvents(ctx, tx, g.ID, rows, now); err != nil {
			return err
		}
		if calls != nil {
			return applyCalls(ctx, tx, g, calls)
		}
		return nil
	})
	if err != nil {
		return store.Game{}, wrap(op, err)
	}
	return g, nil
}

// ActiveGame returns the channel's game that has not ended, or
// [store.ErrNotFound].
func (s *Store) ActiveGame(ctx context.Context, guild, channel string) (g store.Game, err error) {
	err = s.retry(ctx, func() (err error) {
		g, err = scanGame(s.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE guild = $1 AND channel = $2 AND NOT ended`, guild, channel))
		return err
	})
	return g, notFound(fmt.Sprintf("active game in %s/%s", guild, channel), err)
}

// LatestGame returns the channel's active game if it has one, else its
// newest, or [store.ErrNotFound] if it never had one.
func (s *Store) LatestGame(ctx context.Context, guild, channel string) (g store.Game, err error) {
	err = s.retry(ctx, func() (err error) {
		g, err = scanGame(s.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE guild = $1 AND channel = $2
			ORDER BY ended, id DESC LIMIT 1`, guild, channel))
		return err
	})
	return g, notFound(fmt.Sprintf("latest game in %s/%s", guild, channel), err)
}

// Game returns the game with this id, or [store.ErrNotFound].
func (s *Store) Game(ctx context.Context, id store.GameID) (g store.Game, err error) {
	err = s.retry(ctx, func() (err error) {
		g, err = scanGame(s.pool.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1`, int64(id)))
		return err
	})
	return g, notFound(fmt.Sprintf("game %d", id), err)
}

// Games returns every game of the guild, oldest first.
func (s *Store) Games(ctx context.Context, guild string) ([]store.Game, error) {
	return s.games(ctx, fmt.Sprintf("games of %s", guild), `SELECT `+gameColumns+` FROM games WHERE guild = $1 ORDER BY id`, guild)
}

// games reads the games a query selects.
func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]store.Game, error) {
	var gs []store.Game
	err := s.retry(ctx, func() error {
		gs = nil
		rows, err := s.pool.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			g, err := scanGame(rows)
			if err != nil {
				return err
			}
			gs = append(gs, g)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return gs, nil
}

// Append adds recs to game id's log after event expect (recs[i].Seq must
// be expect+1+i), in one transaction that first locks the game's row. If
// the head is not expect it returns [store.ErrConflict] and writes
// nothing: of several writers in any processes that read the same head,
// one succeeds. end marks the game ended in the same transaction. An ended
// game gives [store.ErrEnded], whatever expect is; a missing one,
// [store.ErrNotFound]. Without
// an error the records are committed, and the game returned is its row as
// the append left it, read under the row lock.
func (s *Store) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	return s.appendWith(ctx, id, expect, recs, end, nil)
}

// appendWith is Append, running also, in its transaction, what calls
// asks (calls.go).
func (s *Store) appendWith(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool, calls *store.CallChange) (store.Game, error) {
	op := fmt.Sprintf("append to game %d after event %d", id, expect)
	rows, err := store.EncodeRows(recs, expect)
	if err != nil {
		return store.Game{}, fmt.Errorf("postgres: %s: %w", op, err)
	}
	now := s.clock().UTC()
	var sentinel error
	var g store.Game
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		sentinel = nil
		var err error
		g, err = scanGame(tx.QueryRow(ctx, `SELECT `+gameColumns+` FROM games WHERE id = $1 FOR UPDATE`, int64(id)))
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			sentinel = store.ErrNotFound
		case err != nil:
			return err
		case g.Ended:
			sentinel = store.ErrEnded
		case g.Head != expect:
			sentinel = fmt.Errorf("%w (head is %d)", store.ErrConflict, g.Head)
		}
		if sentinel != nil {
			return sentinel
		}
		if err := insertEvents(ctx, tx, id, rows, now); err != nil {
			return err
		}
		g.Head, g.Ended = expect+engine.Seq(len(recs)), end
		if _, err = tx.Exec(ctx, `UPDATE games SET head = $1, ended = $2 WHERE id = $3`, int64(g.Head), end, int64(id)); err != nil {
			return err
		}
		if calls != nil {
			return applyCalls(ctx, tx, g, calls)
		}
		return nil
	})
	if sentinel != nil {
		return store.Game{}, fmt.Errorf("postgres: %s: %w", op, sentinel)
	}
	if err != nil {
		return store.Game{}, wrap(op, err)
	}
	return g, nil
}

// Events returns game id's records after `after` up to and including
// upTo (0: the head), in order, from one consistent state of the log;
// [store.ErrNotFound] if there is no such game.
func (s *Store) Events(ctx context.Context, id store.GameID, after, upTo engine.Seq) ([]engine.Record, error) {
	op := fmt.Sprintf("events of game %d after %d", id, after)
	last := int64(upTo)
	if upTo == 0 {
		last = math.MaxInt64
	}
	var recs []engine.Record
	err := s.retry(ctx, func() error {
		recs = nil
		rows, err := s.pool.Query(ctx, `SELECT seq, kind, actor, step, draws, discards, payload FROM events
			WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`, int64(id), int64(after), last)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var rec engine.Record
			var seq int64
			var actor, payload string
			var draws, discards *string
			if err := rows.Scan(&seq, &rec.Kind, &actor, &rec.Step, &draws, &discards, &payload); err != nil {
				return err
			}
			rec.Seq, rec.Actor, rec.Payload = engine.Seq(seq), engine.PlayerID(actor), []byte(payload)
			if rec.Draws, err = store.DecodeDraws(draws); err != nil {
				return fmt.Errorf("event %d: draws: %w", seq, err)
			}
			if rec.Discards, err = store.DecodeDraws(discards); err != nil {
				return fmt.Errorf("event %d: discards: %w", seq, err)
			}
			recs = append(recs, rec)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	if len(recs) == 0 {
		if _, err := s.Game(ctx, id); errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("postgres: %s: %w", op, store.ErrNotFound)
		} else if err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// Recorded returns when each of game id's events after `after` was
// recorded, in order, by the clock of the process that appended it.
func (s *Store) Recorded(ctx context.Context, id store.GameID, after engine.Seq) ([]time.Time, error) {
	op := fmt.Sprintf("recording times of game %d after %d", id, after)
	var at []time.Time
	err := s.retry(ctx, func() error {
		at = nil
		rows, err := s.pool.Query(ctx, `SELECT recorded_at FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq`, int64(id), int64(after))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t time.Time
			if err := rows.Scan(&t); err != nil {
				return err
			}
			at = append(at, t.UTC())
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return at, nil
}

// LastStep returns the number of player's last step in game id after the
// event numbered after, and when it was recorded; 0 and the zero time
// without one (store.Store.LastStep).
func (s *Store) LastStep(ctx context.Context, id store.GameID, player engine.PlayerID, after engine.Seq) (engine.Seq, time.Time, error) {
	op := fmt.Sprintf("last step of %s in game %d after %d", player, id, after)
	var seq int64
	var at time.Time
	err := s.retry(ctx, func() error {
		seq, at = 0, time.Time{}
		err := s.pool.QueryRow(ctx, `SELECT seq, recorded_at FROM events WHERE game_id = $1 AND seq > $2 AND actor = $3 AND step
			ORDER BY seq DESC LIMIT 1`, int64(id), int64(max(after, 0)), string(player)).Scan(&seq, &at)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil {
		return 0, time.Time{}, wrap(op, err)
	}
	if seq == 0 {
		return 0, time.Time{}, nil
	}
	return engine.Seq(seq), at.UTC(), nil
}

// keepSnapshots is how many snapshots PutSnapshot keeps per game.
const keepSnapshots = 3

// PutSnapshot stores data as game id's state after event seq in the given
// format version, replacing one with the same seq and version; seq must
// not pass the head. The game keeps its 3 snapshots of highest seq.
func (s *Store) PutSnapshot(ctx context.Context, id store.GameID, seq engine.Seq, version string, data []byte) error {
	op := fmt.Sprintf("put snapshot %s of game %d at event %d", version, id, seq)
	if version == "" {
		return fmt.Errorf("postgres: %s: empty version", op)
	}
	if seq < 0 {
		return fmt.Errorf("postgres: %s: negative sequence number", op)
	}
	if data == nil {
		data = []byte{}
	}
	var sentinel error
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		sentinel = nil
		var head int64
		err := tx.QueryRow(ctx, `SELECT head FROM games WHERE id = $1 FOR UPDATE`, int64(id)).Scan(&head)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			sentinel = store.ErrNotFound
			return sentinel
		case err != nil:
			return err
		case int64(seq) > head:
			sentinel = fmt.Errorf("past the head, %d", head)
			return sentinel
		}
		if _, err := tx.Exec(ctx, `INSERT INTO snapshots (game_id, seq, version, data, created) VALUES ($1, $2, $3, $4, now())
			ON CONFLICT (game_id, seq, version) DO UPDATE SET data = excluded.data, created = excluded.created`,
			int64(id), int64(seq), version, data); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM snapshots WHERE game_id = $1 AND (seq, version) NOT IN
			(SELECT seq, version FROM snapshots WHERE game_id = $1 ORDER BY seq DESC, created DESC LIMIT $2)`,
			int64(id), keepSnapshots)
		return err
	})
	if sentinel != nil {
		return fmt.Errorf("postgres: %s: %w", op, sentinel)
	}
	if err != nil {
		return wrap(op, err)
	}
	return nil
}

// Snapshot returns game id's newest snapshot of this version taken at or
// before event atMost, and its seq; [store.ErrNotFound] if none.
func (s *Store) Snapshot(ctx context.Context, id store.GameID, atMost engine.Seq, version string) (engine.Seq, []byte, error) {
	op := fmt.Sprintf("snapshot %s of game %d at or before event %d", version, id, atMost)
	var seq int64
	var data []byte
	err := s.retry(ctx, func() error {
		return s.pool.QueryRow(ctx, `SELECT seq, data FROM snapshots WHERE game_id = $1 AND version = $2 AND seq <= $3
			ORDER BY seq DESC LIMIT 1`, int64(id), version, int64(atMost)).Scan(&seq, &data)
	})
	if err != nil {
		return 0, nil, notFound(op, err)
	}
	if data == nil {
		data = []byte{}
	}
	return engine.Seq(seq), data, nil
}
