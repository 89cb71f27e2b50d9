package store

import (
	"context"
	"fmt"
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

// PutCall records that c.Player is called to act in c.Game at step
// c.Seq, unless that call is recorded already (another process made the
// same step's calls).
func (s *Store) PutCall(ctx context.Context, c Call) error {
	if _, err := s.w.ExecContext(ctx, `INSERT INTO calls (game_id, guild, channel, player, seq, called, acted)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player, seq) DO NOTHING`,
		int64(c.Game), c.Guild, c.Channel, string(c.Player), int64(c.Seq), millis(c.Called), millis(c.Acted)); err != nil {
		return wrap(ctx, fmt.Sprintf("put call of %s in game %d", c.Player, c.Game), err)
	}
	return nil
}

// CloseCalls closes every call of player in game still open, at time
// at: he acted, or, with ended, his seat was handed to another (the call
// is Ended and Unseated). An empty player closes everyone's: the game
// ended (the calls are Ended).
func (s *Store) CloseCalls(ctx context.Context, game GameID, player engine.PlayerID, at time.Time, ended bool) error {
	q, args := `UPDATE calls SET acted = ?, ended = ?, unseated = ? WHERE game_id = ? AND player = ? AND acted = 0`, []any{millis(at), ended, ended, int64(game), string(player)}
	if player == "" {
		q, args = `UPDATE calls SET acted = ?, ended = ? WHERE game_id = ? AND acted = 0`, []any{millis(at), ended, int64(game)}
	}
	if _, err := s.w.ExecContext(ctx, q, args...); err != nil {
		return wrap(ctx, fmt.Sprintf("close calls of %q in game %d", player, game), err)
	}
	return nil
}

// OpenCalls returns the calls still open in guild, or in every guild when
// guild is empty, oldest first.
func (s *Store) OpenCalls(ctx context.Context, guild string) ([]Call, error) {
	q, args := `SELECT `+callColumns+` FROM calls WHERE acted = 0 AND guild = ? ORDER BY called, game_id, player`, []any{guild}
	if guild == "" {
		q, args = `SELECT `+callColumns+` FROM calls WHERE acted = 0 ORDER BY called, game_id, player`, nil
	}
	return s.calls(ctx, "open calls", q, args...)
}

// PlayerCalls returns every call of player in guild, oldest first.
func (s *Store) PlayerCalls(ctx context.Context, guild string, player engine.PlayerID) ([]Call, error) {
	return s.calls(ctx, fmt.Sprintf("calls of %s", player),
		`SELECT `+callColumns+` FROM calls WHERE guild = ? AND player = ? ORDER BY called, game_id`, guild, string(player))
}

// GameCalls returns every call of game, oldest first.
func (s *Store) GameCalls(ctx context.Context, game GameID) ([]Call, error) {
	return s.calls(ctx, fmt.Sprintf("calls of game %d", game),
		`SELECT `+callColumns+` FROM calls WHERE game_id = ? ORDER BY called, seq, player`, int64(game))
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
