package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// Row is a record checked and encoded as both stores keep it in their
// events tables: draws and discards as JSON text, nil (NULL) when the
// record has none, and a payload that is valid JSON.
type Row struct {
	Seq             int64
	Kind, Actor     string
	Step            bool
	Draws, Discards *string
	Payload         string
}

// EncodeRows checks that recs are numbered after+1, after+2, ... and
// encodes them. A nil payload is kept as JSON null.
func EncodeRows(recs []engine.Record, after engine.Seq) ([]Row, error) {
	if after < 0 {
		return nil, fmt.Errorf("negative sequence number %d", after)
	}
	rows := make([]Row, len(recs))
	for i, rec := range recs {
		if want := after + 1 + engine.Seq(i); rec.Seq != want {
			return nil, fmt.Errorf("record %d has seq %d, want %d", i, rec.Seq, want)
		}
		if rec.Kind == "" {
			return nil, fmt.Errorf("record %d has no kind", rec.Seq)
		}
		payload := []byte(rec.Payload)
		if len(payload) == 0 {
			payload = []byte("null")
		}
		if !json.Valid(payload) {
			return nil, fmt.Errorf("record %d (%s): payload is not valid JSON", rec.Seq, rec.Kind)
		}
		draws, err := encodeDraws(rec.Draws)
		if err != nil {
			return nil, fmt.Errorf("record %d (%s): draws: %w", rec.Seq, rec.Kind, err)
		}
		discards, err := encodeDraws(rec.Discards)
		if err != nil {
			return nil, fmt.Errorf("record %d (%s): discards: %w", rec.Seq, rec.Kind, err)
		}
		rows[i] = Row{Seq: int64(rec.Seq), Kind: rec.Kind, Actor: string(rec.Actor), Step: rec.Step,
			Draws: draws, Discards: discards, Payload: string(payload)}
	}
	return rows, nil
}

func encodeDraws(ds []engine.Draw) (*string, error) {
	if len(ds) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(ds)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// DecodeDraws reads draws or discards as a Row keeps them.
func DecodeDraws(s *string) ([]engine.Draw, error) {
	if s == nil {
		return nil, nil
	}
	var ds []engine.Draw
	if err := json.Unmarshal([]byte(*s), &ds); err != nil {
		return nil, err
	}
	return ds, nil
}

// maxInsert is the most events one INSERT statement writes; a step of
// more (rare: most write one to four) takes several.
const maxInsert = 8

// eventColumns are the columns an insert of events gives, in the order
// of its arguments (insertEvents).
const eventColumns = `key, game_id, seq, kind, actor, step, draws, discards, payload, recorded_at`

// insertEvents[n] inserts n events in one statement.
var insertEvents = func() []string {
	qs := make([]string, maxInsert+1)
	for n := 1; n <= maxInsert; n++ {
		qs[n] = `INSERT INTO events (` + eventColumns + `) VALUES ` +
			strings.Repeat(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?), `, n-1) + `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	}
	return qs
}()

// insertEventsIf[n] inserts n events in one statement, as insertEvents[n]
// does, if and only if their game's row is as the appender last knew it:
// not ended, and with a deadline when the argument after the events' says
// so (1) or without one (0). Otherwise it inserts nothing, and says so by
// the rows it reports changed. It is a step's check of its game's row and
// its insert in one statement (Store.appendIn).
var insertEventsIf = func() []string {
	qs := make([]string, maxInsert+1)
	for n := 1; n <= maxInsert; n++ {
		game, deadline := 10*n+1, 10*n+2
		qs[n] = `INSERT INTO events (` + eventColumns + `) SELECT * FROM (VALUES ` +
			strings.Repeat(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?), `, n-1) + `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?))` +
			fmt.Sprintf(` WHERE EXISTS (SELECT 1 FROM games WHERE id = ?%d AND ended = 0 AND %s = ?%d)`, game, hasDeadline, deadline)
	}
	return qs
}()

// eventKey is the key of game id's record seq in the events table
// (migration 0012): the game's run of keys is [eventKey(id, 0),
// eventKey(id+1, 0)).
func eventKey(id GameID, seq int64) int64 { return int64(id)<<32 + seq }

// insertEvents writes rows to game id's log inside tx, a statement for
// each maxInsert of them. A row whose seq is already taken fails the
// events table's primary key.
func (s *Store) insertEvents(ctx context.Context, tx *sql.Tx, id GameID, rows []Row, now time.Time) error {
	_, err := s.insertEventsChecked(ctx, tx, id, rows, now, nil)
	return err
}

// insertEventsChecked is insertEvents that, given deadline, first checks
// that game id's row is not ended and has a deadline or none as
// *deadline says, in the statement of the first events (insertEventsIf).
// If the row is not so, it writes nothing and returns false.
func (s *Store) insertEventsChecked(ctx context.Context, tx *sql.Tx, id GameID, rows []Row, now time.Time, deadline *bool) (bool, error) {
	at := formatTime(now)
	var args [maxInsert*10 + 2]any
	for len(rows) > 0 {
		n := min(len(rows), maxInsert)
		query := insertEvents[n]
		if deadline != nil {
			query = insertEventsIf[n]
		}
		stmt, err := s.inTx(ctx, tx, query)
		if err != nil {
			return false, err
		}
		for i, r := range rows[:n] {
			a := args[10*i:]
			a[0], a[1], a[2], a[3], a[4] = eventKey(id, r.Seq), int64(id), r.Seq, r.Kind, r.Actor
			a[5], a[6], a[7], a[8], a[9] = boolInt(r.Step), r.Draws, r.Discards, r.Payload, at
		}
		given := args[:10*n]
		if deadline != nil {
			args[10*n], args[10*n+1] = int64(id), boolInt(*deadline)
			given = args[:10*n+2]
		}
		res, err := stmt.ExecContext(ctx, given...)
		if err != nil {
			return false, fmt.Errorf("events %d to %d: %w", rows[0].Seq, rows[n-1].Seq, err)
		}
		if deadline != nil {
			if got, err := res.RowsAffected(); err != nil {
				return false, err
			} else if got != int64(n) {
				return false, nil
			}
			deadline = nil // checked once: the write lock keeps it so
		}
		rows = rows[n:]
	}
	return true, nil
}

// Append adds recs to game id's log after the event numbered expect, in one
// transaction; recs[i].Seq must be expect+1+i. If the game's head is not
// expect, or a record with one of those numbers exists, it returns
// [ErrConflict] and writes nothing: of several writers that read the same
// head, exactly one succeeds, whichever processes they run in. If end is
// true the game is marked ended in the same transaction. Appending to an
// ended game returns [ErrEnded], whatever expect is; to a missing one,
// [ErrNotFound]. When
// Append returns without error the records are on disk, and the game it
// returns is the row as the append left it, checked under the write lock: a
// caller may keep it instead of reading the game again before its next
// append, which checks the head anyway.
func (s *Store) Append(ctx context.Context, id GameID, expect engine.Seq, recs []engine.Record, end bool) (_ Game, err error) {
	return s.appendWith(ctx, id, expect, recs, end, nil)
}

// appendOp names an append in its errors. It is formatted only when one
// fails: most steps fail nothing.
type appendOp struct {
	id     GameID
	expect engine.Seq
}

func (o appendOp) String() string {
	return fmt.Sprintf("append to game %d after event %d", o.id, o.expect)
}

// appendWith is Append, running also, in its transaction, what calls
// asks (calls.go). The append waits in the store's commit queue
// (commits.go), which commits it together with the appends of other
// games that came while the one before was being made durable.
func (s *Store) appendWith(ctx context.Context, id GameID, expect engine.Seq, recs []engine.Record, end bool, calls *CallChange) (_ Game, err error) {
	op := appendOp{id, expect}
	rows, err := EncodeRows(recs, expect)
	if err != nil {
		return Game{}, fmt.Errorf("store: %s: %w", op, err)
	}
	now := s.clock().UTC()
	var g Game
	err = s.queued(ctx, op, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		g, err = s.appendIn(ctx, tx, op, id, expect, rows, end, calls, now)
		return err
	})
	if err != nil {
		return Game{}, err
	}
	s.known.note(g)
	return g, nil
}

// appendIn runs an append's statements in tx, which holds the database's
// write lock (BEGIN IMMEDIATE), so no other connection, in this process
// or another, can move the head between the check and the commit.
//
// A game's head is its log's last number (migration 0010), and it only
// grows. So when the store has seen the game at a head no lower than
// expect (knownGames), the records cannot land past the head, and the
// events table's key refuses them should the head have moved on: a step
// of such a game checks only that the row is as last known, not ended
// and with a deadline or without, in the statement that inserts its
// first records (insertEventsIf), which inserts nothing when the row is
// not. Otherwise, or should the row have changed, or for a step that
// ends its game, the row is read
// to check the head and to say why, or to learn that another process set
// or lifted the game's deadline meanwhile. With calls, it records them
// too.
func (s *Store) appendIn(ctx context.Context, tx *sql.Tx, op appendOp, id GameID, expect engine.Seq, rows []Row, end bool, calls *CallChange, now time.Time) (Game, error) {
	head := expect + engine.Seq(len(rows))
	g, known := s.known.row(id)
	short := known && expect <= g.Head && !end && len(rows) > 0
	if short {
		var err error
		short, err = s.insertEventsChecked(ctx, tx, id, rows, now, &g.Deadline)
		if err != nil {
			return Game{}, wrap(ctx, op.String(), err)
		}
	}
	if !short {
		var err error
		g, err = s.rowIn(ctx, tx, id)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return Game{}, fmt.Errorf("store: %s: %w", op, ErrNotFound)
		case err != nil:
			return Game{}, wrap(ctx, op.String(), err)
		case g.Ended:
			return Game{}, fmt.Errorf("store: %s: %w", op, ErrEnded)
		case g.Head != expect:
			return Game{}, fmt.Errorf("store: %s: %w (head is %d)", op, ErrConflict, g.Head)
		}
		// The row just read under the write lock fits: nothing can
		// change it before the commit.
		if end {
			st, err := s.inTx(ctx, tx, endGame)
			if err != nil {
				return Game{}, wrap(ctx, op.String(), err)
			}
			if _, err := st.ExecContext(ctx, int64(id)); err != nil {
				return Game{}, wrap(ctx, op.String(), err)
			}
		}
		if err := s.insertEvents(ctx, tx, id, rows, now); err != nil {
			return Game{}, wrap(ctx, op.String(), err)
		}
	}
	g.Head, g.Ended = head, end
	if calls != nil {
		if err := calls.apply(ctx, s, tx, g); err != nil {
			return Game{}, wrap(ctx, op.String(), err)
		}
	}
	return g, nil
}

// rowIn reads game id's row inside tx.
func (s *Store) rowIn(ctx context.Context, tx *sql.Tx, id GameID) (Game, error) {
	st, err := s.inTx(ctx, tx, selectHead)
	if err != nil {
		return Game{}, err
	}
	return scanGame(st.QueryRowContext(ctx, int64(id)))
}

// Events returns game id's records numbered after `after` up to and
// including upTo, in order; upTo 0 means up to the head. It reads one
// consistent state of the log. It returns [ErrNotFound] if there is no such
// game, and no records (not an error) if the game has none in that range.
func (s *Store) Events(ctx context.Context, id GameID, after, upTo engine.Seq) ([]engine.Record, error) {
	op := fmt.Sprintf("events of game %d after %d", id, after)
	last := min(int64(upTo), math.MaxUint32)
	if upTo == 0 {
		last = math.MaxUint32
	}
	q, err := s.prepared(ctx, s.r, `SELECT seq, kind, actor, step, draws, discards, payload FROM events
		WHERE key > ? AND key <= ? ORDER BY key`)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	rows, err := q.QueryContext(ctx, eventKey(id, int64(after)), eventKey(id, last))
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var recs []engine.Record
	if upTo > after {
		recs = make([]engine.Record, 0, min(upTo-after, 1024))
	}
	for rows.Next() {
		var rec engine.Record
		var actor string
		var draws, discards *string
		var payload []byte
		if err := rows.Scan(&rec.Seq, &rec.Kind, &actor, &rec.Step, &draws, &discards, &payload); err != nil {
			return nil, wrap(ctx, op, err)
		}
		rec.Actor = engine.PlayerID(actor)
		rec.Payload = payload
		if rec.Draws, err = DecodeDraws(draws); err != nil {
			return nil, fmt.Errorf("store: %s: event %d: draws: %w", op, rec.Seq, err)
		}
		if rec.Discards, err = DecodeDraws(discards); err != nil {
			return nil, fmt.Errorf("store: %s: event %d: discards: %w", op, rec.Seq, err)
		}
		recs = append(recs, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	if len(recs) == 0 {
		// Games are never deleted, so this later look-up cannot disagree
		// with the query above about whether the game exists.
		if _, err := s.Game(ctx, id); errors.Is(err, ErrNotFound) {
			return nil, fmt.Errorf("store: %s: %w", op, ErrNotFound)
		} else if err != nil {
			return nil, err
		}
	}
	return recs, nil
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Recorded returns when each of game id's events after `after` was
// recorded, in order, by the clock of the process that appended it.
func (s *Store) Recorded(ctx context.Context, id GameID, after engine.Seq) ([]time.Time, error) {
	op := fmt.Sprintf("recording times of game %d after %d", id, after)
	q, err := s.prepared(ctx, s.r, `SELECT recorded_at FROM events WHERE key > ? AND key < ? ORDER BY key`)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	rows, err := q.QueryContext(ctx, eventKey(id, int64(after)), eventKey(id+1, 0))
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var at []time.Time
	for rows.Next() {
		var text string
		if err := rows.Scan(&text); err != nil {
			return nil, wrap(ctx, op, err)
		}
		t, err := parseTime(text)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", op, err)
		}
		at = append(at, t)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return at, nil
}

// LastStep returns the number of player's last step in game id after the
// event numbered after, and when it was recorded: the last record after
// it that begins a command (Step) of his. Without one it returns 0 and the
// zero time. The reminders read it (rarely, at reminder time) to count a
// player's wait from his last step when he has acted since he was called
// and is still awaited, which writes no new call.
func (s *Store) LastStep(ctx context.Context, id GameID, player engine.PlayerID, after engine.Seq) (engine.Seq, time.Time, error) {
	op := fmt.Sprintf("last step of %s in game %d after %d", player, id, after)
	// Back from the end of the game's run of keys: a player still
	// awaited who acted lately is found in a few rows.
	q, err := s.prepared(ctx, s.r, `SELECT seq, recorded_at FROM events WHERE key > ? AND key < ? AND actor = ? AND step = 1 ORDER BY key DESC LIMIT 1`)
	if err != nil {
		return 0, time.Time{}, wrap(ctx, op, err)
	}
	var seq int64
	var text string
	err = q.QueryRowContext(ctx, eventKey(id, int64(max(after, 0))), eventKey(id+1, 0), string(player)).Scan(&seq, &text)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, time.Time{}, nil
	}
	if err != nil {
		return 0, time.Time{}, wrap(ctx, op, err)
	}
	t, err := parseTime(text)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("store: %s: %w", op, err)
	}
	return engine.Seq(seq), t, nil
}
