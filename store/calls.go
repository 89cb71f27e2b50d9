package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
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
// guild is empty, oldest first: those of games not ended. (A game's end
// closes its calls; a plain Append that ends a game does not, and the
// calls it left open are not reckoned open.)
func (s *Store) OpenCalls(ctx context.Context, guild string) ([]Call, error) {
	return s.calls(ctx, "open calls", openCallsQuery(guild), openCallsArgs(guild)...)
}

// openCallsQuery is OpenCalls's query. A player's open call in a game is
// his last (migration 0011): for each game not ended, the players who have
// calls in it are found one by one along the calls table's key, and each
// one's last call by one look, however many calls the game has had.
func openCallsQuery(guild string) string {
	games := `SELECT id FROM games WHERE ended = 0 AND guild = ?`
	if guild == "" {
		games = `SELECT id FROM games WHERE ended = 0`
	}
	return `WITH RECURSIVE p (game_id, player) AS (
			SELECT g.id, (SELECT min(c.player) FROM calls c WHERE c.game_id = g.id) FROM (` + games + `) g
			UNION ALL
			SELECT p.game_id, (SELECT min(c.player) FROM calls c WHERE c.game_id = p.game_id AND c.player > p.player) FROM p
			WHERE p.player IS NOT NULL)
		SELECT ` + qualified("calls", callColumns) + ` FROM p JOIN calls ON calls.game_id = p.game_id AND calls.player = p.player
			AND calls.seq = (SELECT max(l.seq) FROM calls l WHERE l.game_id = p.game_id AND l.player = p.player)
		WHERE calls.acted = 0 ORDER BY calls.called, calls.game_id, calls.player`
}

func openCallsArgs(guild string) []any {
	if guild == "" {
		return nil
	}
	return []any{guild}
}

// qualified prefixes each of the comma-separated columns with table.
func qualified(table, columns string) string {
	cols := strings.Split(columns, ", ")
	for i, c := range cols {
		cols[i] = table + "." + c
	}
	return strings.Join(cols, ", ")
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
// commit however many players it calls. A player has at most one open
// call in a game: calling one who has one closes it, as answered at the
// step.
func (s *Store) AppendCalling(ctx context.Context, id GameID, expect engine.Seq, recs []engine.Record, end bool, calls CallChange) (Game, error) {
	return s.appendWith(ctx, id, expect, recs, end, &calls)
}

// Statements of a step's calls, prepared on the writer with the step's
// own (store.go). A player's open call in a game is his last (migration
// 0011): those that close one find it by the calls table's key, at the end
// of the player's run of it, and change that row alone. A new call
// closes its player's open call itself (the trigger calls_one_open), so a
// player who acts and is called again costs one statement, the insert.
const (
	lastCall   = `seq = (SELECT max(l.seq) FROM calls l WHERE l.game_id = ?2 AND l.player = ?3)`
	unseatCall = `UPDATE calls SET acted = ?1, ended = 1, unseated = 1 WHERE game_id = ?2 AND player = ?3 AND acted = 0 AND ` + lastCall
	answerCall = `UPDATE calls SET acted = ?1 WHERE game_id = ?2 AND player = ?3 AND acted = 0 AND ` + lastCall
	endCalls   = `UPDATE calls SET acted = ?1, ended = 1 WHERE game_id = ?2 AND acted = 0`
	insertCall = `INSERT INTO calls (game_id, guild, channel, player, seq, called) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id, player, seq) DO NOTHING`
)

// apply records c in tx for game g, whose head the step moved on.
func (c *CallChange) apply(ctx context.Context, s *Store, tx *sql.Tx, g Game) error {
	at := millis(c.At)
	run := func(q string, args ...any) error {
		st, err := s.inTx(ctx, tx, q)
		if err != nil {
			return err
		}
		_, err = st.ExecContext(ctx, args...)
		return err
	}
	for _, p := range c.Unseated {
		if err := run(unseatCall, at, int64(g.ID), string(p)); err != nil {
			return err
		}
	}
	for _, p := range c.Acted {
		if !c.Ended && slices.Contains(c.Called, p) && !slices.Contains(c.Unseated, p) {
			continue // his new call closes this one (calls_one_open)
		}
		if err := run(answerCall, at, int64(g.ID), string(p)); err != nil {
			return err
		}
	}
	if c.Ended {
		// An ended game takes no more steps: no one is called.
		return run(endCalls, at, int64(g.ID))
	}
	for _, p := range c.Called {
		if err := run(insertCall, int64(g.ID), g.Guild, g.Channel, string(p), int64(g.Head), at); err != nil {
			return err
		}
	}
	return nil
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
