package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Sentinel errors. Every error the package returns is wrapped with the
// operation that failed; test for these with [errors.Is].
var (
	// ErrNotFound means there is no such game, or no snapshot that fits.
	ErrNotFound = errors.New("no such game or snapshot")
	// ErrConflict means another writer got there first: the game's head is
	// not where the caller expected, or its channel already has a game that
	// has not ended. Reload and try again.
	ErrConflict = errors.New("another writer got there first")
	// ErrEnded means the caller tried to append to a game that has ended.
	ErrEnded = errors.New("game has ended")
	// ErrBusy means another process held the database's write lock for
	// longer than the busy timeout. Nothing was written; the caller may try
	// again later.
	ErrBusy = errors.New("database stayed locked past the busy timeout")
)

// busyTimeout is how long a connection waits for another process's lock
// before giving up with [ErrBusy].
const busyTimeout = 10 * time.Second

// A Store is a Rhapsode database: games, their event logs and snapshots, in
// one SQLite file. It is safe for concurrent use by many goroutines, and
// many processes may open the same file at once.
type Store struct {
	w *sql.DB // exactly one connection; every write transaction (BEGIN IMMEDIATE)
	r *sql.DB // query_only connections; every read, one statement at a time

	// stmts are the statements of every step (the game's row, its events,
	// an append), prepared once rather than parsed for each use.
	stmts sync.Map // stmtKey → *sql.Stmt

	// commits gathers the appends of many goroutines into shared
	// transactions (commits.go).
	commits commitQueue

	// known keeps what never changes of the games this store has made
	// or read (games.go), so that an append need not read it again.
	known knownGames

	// ckpt checkpoints the write-ahead log off the path of any write
	// (checkpoint.go); nil for a store opened read-only.
	ckpt *checkpointer

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

type stmtKey struct {
	db    *sql.DB
	query string
}

// readRow runs a one-row read, prepared once.
func (s *Store) readRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.prepared(ctx, s.r, query)
	if err != nil {
		return s.r.QueryRowContext(ctx, query, args...) // its Scan reports the error
	}
	return st.QueryRowContext(ctx, args...)
}

// Statements of a write transaction, prepared on the writer when the
// store opens: the writer has one connection, which a transaction holds,
// so they cannot be prepared on it later.
const (
	selectHead = `SELECT ` + gameColumns + ` FROM games WHERE id = ?`
	insertGame = `INSERT INTO games (guild, channel, ruleset, ended, created) VALUES (?, ?, ?, 0, ?)`
	// A step that ends its game sets ended; any other leaves the game's
	// row alone (events.go): setting it, even to the value it has, would
	// rewrite the row and the entry of the partial index
	// games_active_channel, whose condition reads it.
	endGame = `UPDATE games SET ended = 1 WHERE id = ? AND ended = 0`

	savepoint         = `SAVEPOINT append`
	rollbackSavepoint = `ROLLBACK TO append`
	releaseSavepoint  = `RELEASE append`

	selectSnapshotHead = `SELECT ` + headColumn + ` FROM games WHERE id = ?`
	insertSnapshot     = `INSERT OR REPLACE INTO snapshots (game_id, seq, version, data, created) VALUES (?, ?, ?, ?, ?)`
	pruneSnapshots     = `DELETE FROM snapshots WHERE game_id = ?1 AND rowid NOT IN
		(SELECT rowid FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC, rowid DESC LIMIT ?2)`
)

var writerStatements = append(append(insertEvents[1:], insertEventsIf[1:]...), insertGame, selectHead, endGame, savepoint, rollbackSavepoint, releaseSavepoint, selectSnapshotHead, insertSnapshot, pruneSnapshots,
	endCalls, insertCall, unseatCall, answerCall)

// prepareWriter prepares the write transactions' statements.
func (s *Store) prepareWriter(ctx context.Context) error {
	for _, q := range writerStatements {
		if _, err := s.prepared(ctx, s.w, q); err != nil {
			return err
		}
	}
	return nil
}

// inTx returns query for use in tx: the writer's statement prepared when
// the store opened, or else prepared in tx alone.
func (s *Store) inTx(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(stmtKey{s.w, query}); ok {
		return tx.StmtContext(ctx, st.(*sql.Stmt)), nil
	}
	return tx.PrepareContext(ctx, query)
}

// prepared returns query prepared on db, preparing it the first time.
// database/sql prepares it again on each connection of db as needed.
func (s *Store) prepared(ctx context.Context, db *sql.DB, query string) (*sql.Stmt, error) {
	k := stmtKey{db, query}
	if st, ok := s.stmts.Load(k); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if old, loaded := s.stmts.LoadOrStore(k, st); loaded {
		st.Close()
		return old.(*sql.Stmt), nil
	}
	return st, nil
}

// Open opens the database at path, creating the file if it does not exist,
// and applies any schema migrations it lacks. path names a file on a local
// disk (SQLite's WAL mode does not work over a network file system);
// ":memory:" is not supported.
func Open(ctx context.Context, path string) (*Store, error) {
	return open(ctx, path, busyTimeout)
}

func open(ctx context.Context, path string, busy time.Duration) (_ *Store, err error) {
	op := fmt.Sprintf("open %s", path)
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("store: %s: need the path of a database file", op)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	migs, err := loadMigrations(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}

	w, err := sql.Open("sqlite", dsn(abs, busy, true))
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	defer func() {
		if err != nil {
			w.Close()
		}
	}()
	// One writer connection: writers in this process queue in database/sql's
	// pool (honouring their contexts) instead of polling SQLite's lock.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)

	if err := prepare(ctx, w, migs, busy); err != nil {
		return nil, wrap(ctx, op, err)
	}

	r, err := sql.Open("sqlite", dsn(abs, busy, false))
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	if err := r.PingContext(ctx); err != nil {
		r.Close()
		return nil, wrap(ctx, op, err)
	}
	c, err := sql.Open("sqlite", dsn(abs, busy, true))
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	s := &Store{w: w, r: r, ckpt: startCheckpointer(c)}
	if err := s.prepareWriter(ctx); err != nil {
		s.Close()
		return nil, wrap(ctx, op, err)
	}
	return s, nil
}

// prepare checks the file is in WAL mode and migrates it. When several
// processes open a new file at once, turning it to WAL can fail busy at
// once, without SQLite's busy handler waiting (the handler is not called
// for every lock a mode change takes), so prepare tries again until the
// busy timeout has passed.
func prepare(ctx context.Context, w *sql.DB, migs []migration, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		err := prepareOnce(ctx, w, migs)
		if err == nil || !errors.Is(wrap(ctx, "", err), ErrBusy) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
	}
}

func prepareOnce(ctx context.Context, w *sql.DB, migs []migration) error {
	// PRAGMA journal_mode reports the mode the connection ended up in; a
	// file system that cannot hold the shared-memory index leaves the old
	// mode.
	var mode string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal", mode)
	}
	return migrate(ctx, w, migs)
}

// dsn returns the modernc.org/sqlite data source name for the database file
// at the absolute path abs. The writer's connections put the file in WAL mode
// and begin every transaction with BEGIN IMMEDIATE; the readers' are
// query_only. Both wait busy for locks and sync fully. The writer's commits
// checkpoint the log only past walBackstop pages (checkpoint.go).
func dsn(abs string, busy time.Duration, write bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows volume: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p} // escapes '?', '#' and '%' in the path
	q := []string{
		"_pragma=busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")",
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(FULL)",
	}
	if write {
		q = append(q, "_pragma=journal_mode(WAL)", "_pragma=wal_autocheckpoint("+strconv.Itoa(walBackstop)+")", "_txlock=immediate")
	} else {
		q = append(q, "_pragma=query_only(1)")
	}
	return u.String() + "?" + strings.Join(q, "&")
}

// OpenReadOnly opens the database at path for reading only, without
// migrating it or writing anything beside it: for reading a file this
// process may not write (a backup, a read-only mount). Every write fails.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	op := fmt.Sprintf("open %s read-only", path)
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", op, err)
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p}
	db, err := openRO(ctx, u.String()+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		// A folder this process may not write cannot hold the lock and
		// shared-memory files SQLite keeps beside a file it reads. With
		// no write-ahead log waiting beside it, the file holds every
		// step, and is read as it stands.
		if fi, werr := os.Stat(abs + "-wal"); werr == nil && fi.Size() > 0 {
			return nil, wrap(ctx, op, err)
		}
		if db, err = openRO(ctx, u.String()+"?mode=ro&immutable=1&_pragma=query_only(1)"); err != nil {
			return nil, wrap(ctx, op, err)
		}
	}
	return &Store{w: db, r: db}, nil
}

// openRO opens a read-only connection and reads the games table through it.
func openRO(ctx context.Context, dsn string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM games").Scan(&n); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the database. Operations in flight may fail.
func (s *Store) Close() error {
	s.stmts.Range(func(k, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	if s.r == s.w {
		return s.r.Close()
	}
	var cerr error
	if s.ckpt != nil {
		cerr = s.ckpt.close()
	}
	return errors.Join(cerr, s.r.Close(), s.w.Close())
}

// wrap annotates err with the operation and maps SQLite's result codes onto
// the package's sentinels: a unique-constraint violation is [ErrConflict], a
// lock that outlived the busy timeout is [ErrBusy], and an interrupted
// statement reports why ctx ended. The driver's error stays in the chain.
func wrap(ctx context.Context, op string, err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch code := se.Code(); {
		case code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY, code == sqlite3.SQLITE_CONSTRAINT_UNIQUE:
			return fmt.Errorf("store: %s: %w: %w", op, ErrConflict, err)
		case code&0xff == sqlite3.SQLITE_BUSY:
			return fmt.Errorf("store: %s: %w: %w", op, ErrBusy, err)
		case code&0xff == sqlite3.SQLITE_INTERRUPT && ctx.Err() != nil:
			return fmt.Errorf("store: %s: %w: %w", op, ctx.Err(), err)
		}
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// timeFormat is how times are written: UTC, RFC 3339, nanoseconds.
const timeFormat = time.RFC3339Nano

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) (time.Time, error) { return time.Parse(timeFormat, s) }
