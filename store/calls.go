package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// A Call is one player called to act in a game: at the step Seq, at the
// time Called; Acted is when he acted, zero while the game still waits
// for him.
type Call struct {
	Game    GameID
	Guild   string
	Channel string
	Player  engine.PlayerID
	Seq     engine.Seq
	Called  time.Time
	Acted   time.Time
	// Ended says the call was closed (at Acted) without the player
	// acting: the game ended, or, Unseated, his seat was handed to
	// another.
	Ended, Unseated bool
}

// PutSetting records a setting of guild's subject (a player, a book, the
// server), replacing the one it had; a nil value removes it.
func (s *Store) PutSetting(ctx context.Context, guild, subject string, value []byte) error {
	op := fmt.Sprintf("put setting %s of %s", subject, guild)
	var err error
	if value == nil {
		_, err = s.w.ExecContext(ctx, `DELETE FROM settings WHERE guild = ? AND subject = ?`, guild, subject)
	} else {
		_, err = s.w.ExecContext(ctx, `INSERT INTO settings (guild, subject, value) VALUES (?, ?, ?)
			ON CONFLICT (guild, subject) DO UPDATE SET value = excluded.value`, guild, subject, string(value))
	}
	if err != nil {
		return wrap(ctx, op, err)
	}
	return nil
}

// Setting returns the setting of guild's subject, or [ErrNotFound].
func (s *Store) Setting(ctx context.Context, guild, subject string) ([]byte, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT value FROM settings WHERE guild = ? AND subject = ?`, guild, subject).Scan(&v)
	if err != nil {
		return nil, notFound(ctx, fmt.Sprintf("setting %s of %s", subject, guild), err)
	}
	return []byte(v), nil
}

// OpenCalls returns the calls still open in guild, or in every guild when
// guild is empty, oldest first.
func (s *Store) OpenCalls(ctx context.Context, guild string) ([]Call, error) {
	// Open calls are few (one per player a book awaits): the partial
	// index of them is read whole (migration 0007).
	q, args := `SELECT `+callColumns+` FROM calls INDEXED BY calls_answer WHERE acted = 0 AND guild = ? ORDER BY called, game_id, player`, []any{guild}
	if guild == "" {
		q, args = `SELECT `+callColumns+` FROM calls INDEXED BY calls_answer WHERE acted = 0 ORDER BY called, game_id, player`, nil
	}
	return s.calls(ctx, "open calls", q, args...)
}

// PlayerCalls returns every call of player in guild, oldest first.
func (s *Store) PlayerCalls(ctx context.Context, guild string, player engine.PlayerID) ([]Call, error) {
	// Through the guild's games and each one's calls of the player, in
	// the calls table's own key (migration 0008).
	return s.calls(ctx, fmt.Sprintf("calls of %s", player),
		`SELECT `+callColumns+` FROM calls WHERE game_id IN (SELECT id FROM games WHERE guild = ?1) AND guild = ?1 AND player = ?2
		ORDER BY called, game_id`, guild, string(player))
}

// GameCalls returns the last calls of game, at most last of them (0:
// every one), oldest first.
func (s *Store) GameCalls(ctx context.Context, game GameID, last int) ([]Call, error) {
	calls, err := s.calls(ctx, fmt.Sprintf("calls of game %d", game),
		`SELECT `+callColumns+` FROM calls WHERE game_id = ? ORDER BY seq DESC, called DESC, player DESC LIMIT ?`, int64(game), lastLimit(last))
	slices.Reverse(calls)
	return calls, err
}

// lastLimit is a LIMIT for the last n rows, n 0 meaning all.
func lastLimit(n int) int64 {
	if n <= 0 {
		return -1 // SQLite: no limit
	}
	return int64(n)
}

const callColumns = `game_id, guild, channel, player, seq, called, acted, ended, unseated`

func (s *Store) calls(ctx context.Context, op, q string, args ...any) ([]Call, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var out []Call
	for rows.Next() {
		var c Call
		var player string
		var called, acted int64
		if err := rows.Scan(&c.Game, &c.Guild, &c.Channel, &player, &c.Seq, &called, &acted, &c.Ended, &c.Unseated); err != nil {
			return nil, wrap(ctx, op, err)
		}
		c.Player, c.Called, c.Acted = engine.PlayerID(player), fromMillis(called), fromMillis(acted)
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return out, nil
}

// ClaimReminder takes the reminder rung of player's call at step seq of
// game, so that of several processes sharing the store one alone sends
// it. It reports whether this caller got it.
func (s *Store) ClaimReminder(ctx context.Context, game GameID, player engine.PlayerID, seq engine.Seq, rung string) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO reminders (game_id, player, seq, rung) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		int64(game), string(player), int64(seq), rung)
	op := fmt.Sprintf("claim reminder %s of %s in game %d", rung, player, game)
	if err != nil {
		return false, wrap(ctx, op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, wrap(ctx, op, err)
	}
	return n == 1, nil
}

// Claim takes the work called name (a dead book's report, a week's
// digest), so that of several processes sharing the store one alone
// does it. It reports whether this caller got it; a name is had once.
func (s *Store) Claim(ctx context.Context, name string, now time.Time) (bool, error) {
	res, err := s.w.ExecContext(ctx, `INSERT INTO claims (name, claimed) VALUES (?, ?) ON CONFLICT DO NOTHING`, name, millis(now))
	op := fmt.Sprintf("claim %q", name)
	if err != nil {
		return false, wrap(ctx, op, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, wrap(ctx, op, err)
	}
	return n == 1, nil
}

// CallChange is what a step does to its game's calls, recorded with the
// step itself (AppendCalling): at time At, the players who acted close
// their open calls; those whose seat was handed to another close theirs
// unanswered (Unseated); at the game's end every call still open closes
// (Ended); and the players the step calls are called at its last event.
type CallChange struct {
	At       time.Time
	Acted    []engine.PlayerID
	Unseated []engine.PlayerID
	Ended    bool
	Called   []engine.PlayerID
}

// AppendCalling is [Store.Append] that records, in the same transaction,
// what the step does to the game's calls, so that a step costs one
// commit however many players it calls.
func (s *Store) AppendCalling(ctx context.Context, id GameID, expect engine.Seq, recs []engine.Record, end bool, calls CallChange) (Game, error) {
	return s.appendWith(ctx, id, expect, recs, end, &calls)
}

// Statements of a step's calls, prepared on the writer with the step's
// own (store.go). Those that close calls find them through calls_answer,
// which holds the open calls alone: left to itself, SQLite reads the
// table's key instead, every call the player ever had in the game, and
// each step of a long book would cost more than the one before.
const (
	unseatCalls = `UPDATE calls INDEXED BY calls_answer SET acted = ?, ended = 1, unseated = 1 WHERE game_id = ? AND player = ? AND acted = 0`
	answerCalls = `UPDATE calls INDEXED BY calls_answer SET acted = ? WHERE game_id = ? AND player = ? AND acted = 0`
	endCalls    = `UPDATE calls INDEXED BY calls_answer SET acted = ?, ended = 1 WHERE game_id = ? AND acted = 0`
	insertCall  = `INSERT INTO calls (game_id, guild, channel, player, seq, called) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id, player, seq) DO NOTHING`

	// A call known to be open is closed by its key: the update then
	// changes one row as it finds it, where one that searched
	// calls_answer, an index it changes, would first gather the keys
	// it found in a temporary table, costing a step more than the
	// update itself.
	unseatCall = `UPDATE calls SET acted = ?, ended = 1, unseated = 1 WHERE game_id = ? AND player = ? AND seq = ? AND acted = 0`
	answerCall = `UPDATE calls SET acted = ? WHERE game_id = ? AND player = ? AND seq = ? AND acted = 0`
)

// knownCalls keeps, for each game this store last appended calls to, its
// open calls as that append left them: at the game's head then, and for
// each player listed, the numbers of his open calls (none, for one whose
// calls it closed). The calls of a game change only with an append to it
// (and its events with them), so while the game's head is still that
// head they are still so; once another writer has moved it on, the game
// is no longer known. It holds at most maxKnownGames games.
type knownCalls struct {
	mu sync.Mutex
	m  map[GameID]openCalls
}

// openCalls are a game's open calls as known at its head.
type openCalls struct {
	head engine.Seq
	open map[engine.PlayerID][]engine.Seq
}

// at returns the open calls of game id known at head, if they are; the
// map is the caller's own.
func (k *knownCalls) at(id GameID, head engine.Seq) map[engine.PlayerID][]engine.Seq {
	k.mu.Lock()
	defer k.mu.Unlock()
	oc, ok := k.m[id]
	if !ok || oc.head != head {
		return map[engine.PlayerID][]engine.Seq{}
	}
	return maps.Clone(oc.open)
}

// note keeps oc as game id's open calls, or forgets the game's when oc
// knows none.
func (k *knownCalls) note(id GameID, oc openCalls) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(oc.open) == 0 {
		delete(k.m, id)
		return
	}
	if k.m == nil {
		k.m = map[GameID]openCalls{}
	}
	if _, ok := k.m[id]; !ok && len(k.m) >= maxKnownGames {
		for old := range k.m {
			delete(k.m, old)
			break
		}
	}
	k.m[id] = oc
}

// apply records c in tx for game g, whose head the step moved on from
// expect, and returns the game's open calls as the step leaves them, as
// far as they are known (knownCalls): a player's calls known to be open
// are closed by their keys, any other player's through calls_answer.
func (c *CallChange) apply(ctx context.Context, s *Store, tx *sql.Tx, g Game, expect engine.Seq) (openCalls, error) {
	at := millis(c.At)
	open := s.open.at(g.ID, expect)
	run := func(q string, args ...any) (int64, error) {
		st, err := s.inTx(ctx, tx, q)
		if err != nil {
			return 0, err
		}
		res, err := st.ExecContext(ctx, args...)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	}
	// closeCalls closes p's open calls: by their keys when they are known,
	// else all of them by the search (which also serves should a call
	// known to be open not be).
	closeCalls := func(p engine.PlayerID, byKey, search string) error {
		seqs, known := open[p]
		for _, seq := range seqs {
			n, err := run(byKey, at, int64(g.ID), string(p), int64(seq))
			if err != nil {
				return err
			}
			if n != 1 {
				known = false
			}
		}
		if !known {
			if _, err := run(search, at, int64(g.ID), string(p)); err != nil {
				return err
			}
		}
		open[p] = nil
		return nil
	}
	for _, p := range c.Unseated {
		if err := closeCalls(p, unseatCall, unseatCalls); err != nil {
			return openCalls{}, err
		}
	}
	for _, p := range c.Acted {
		if err := closeCalls(p, answerCall, answerCalls); err != nil {
			return openCalls{}, err
		}
	}
	if c.Ended {
		if _, err := run(endCalls, at, int64(g.ID)); err != nil {
			return openCalls{}, err
		}
		// An ended game takes no more steps.
		return openCalls{}, nil
	}
	for _, p := range c.Called {
		n, err := run(insertCall, int64(g.ID), g.Guild, g.Channel, string(p), int64(g.Head), at)
		if err != nil {
			return openCalls{}, err
		}
		if seqs, known := open[p]; known && n == 1 {
			open[p] = append(slices.Clip(seqs), g.Head)
		} else {
			delete(open, p)
		}
	}
	return openCalls{head: g.Head, open: open}, nil
}

// GameReminders returns the reminders sent for game's calls, for copying.
func (s *Store) GameReminders(ctx context.Context, game GameID) ([]Reminder, error) {
	op := fmt.Sprintf("reminders of game %d", game)
	rows, err := s.r.QueryContext(ctx, `SELECT player, seq, rung FROM reminders WHERE game_id = ? ORDER BY seq, player, rung`, int64(game))
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var out []Reminder
	for rows.Next() {
		var rm Reminder
		var player string
		if err := rows.Scan(&player, &rm.Seq, &rm.Rung); err != nil {
			return nil, wrap(ctx, op, err)
		}
		rm.Player = engine.PlayerID(player)
		out = append(out, rm)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return out, nil
}

// AllSettings returns every setting of every guild, for copying.
func (s *Store) AllSettings(ctx context.Context) ([]Setting, error) {
	op := "every setting"
	rows, err := s.r.QueryContext(ctx, `SELECT guild, subject, value FROM settings ORDER BY guild, subject`)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var out []Setting
	for rows.Next() {
		var st Setting
		var v string
		if err := rows.Scan(&st.Guild, &st.Subject, &v); err != nil {
			return nil, wrap(ctx, op, err)
		}
		st.Value = []byte(v)
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return out, nil
}
