package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// PutSetting records a setting of guild's subject, replacing the one it
// had; a nil value removes it.
func (s *Store) PutSetting(ctx context.Context, guild, subject string, value []byte) error {
	err := s.retry(ctx, func() error {
		var err error
		if value == nil {
			_, err = s.pool.Exec(ctx, `DELETE FROM settings WHERE guild = $1 AND subject = $2`, guild, subject)
		} else {
			_, err = s.pool.Exec(ctx, `INSERT INTO settings (guild, subject, value) VALUES ($1, $2, $3)
				ON CONFLICT (guild, subject) DO UPDATE SET value = excluded.value`, guild, subject, string(value))
		}
		return err
	})
	if err != nil {
		return wrap(fmt.Sprintf("put setting %s of %s", subject, guild), err)
	}
	return nil
}

// Setting returns the setting of guild's subject, or [store.ErrNotFound].
func (s *Store) Setting(ctx context.Context, guild, subject string) ([]byte, error) {
	var v string
	err := s.retry(ctx, func() error {
		return s.pool.QueryRow(ctx, `SELECT value FROM settings WHERE guild = $1 AND subject = $2`, guild, subject).Scan(&v)
	})
	if err != nil {
		return nil, notFound(fmt.Sprintf("setting %s of %s", subject, guild), err)
	}
	return []byte(v), nil
}

const callColumns = `game_id, guild, channel, player, seq, called, acted, ended, unseated`

// OpenCalls returns the calls still open in guild, or in every guild when
// guild is empty, oldest first: those of games not ended, as the SQLite
// store reads them.
func (s *Store) OpenCalls(ctx context.Context, guild string) ([]store.Call, error) {
	q, args := `SELECT `+callColumns+` FROM calls WHERE acted = 0 AND guild = $1
		AND game_id IN (SELECT id FROM games WHERE NOT ended) ORDER BY called, game_id, player`, []any{guild}
	if guild == "" {
		q, args = `SELECT `+callColumns+` FROM calls WHERE acted = 0
			AND game_id IN (SELECT id FROM games WHERE NOT ended) ORDER BY called, game_id, player`, nil
	}
	return s.calls(ctx, "open calls", q, args...)
}

// PlayerCalls returns every call of player in guild, oldest first.
func (s *Store) PlayerCalls(ctx context.Context, guild string, player engine.PlayerID) ([]store.Call, error) {
	return s.calls(ctx, fmt.Sprintf("calls of %s", player),
		`SELECT `+callColumns+` FROM calls WHERE guild = $1 AND player = $2 ORDER BY called, game_id`, guild, string(player))
}

// GameCalls returns the last calls of game, at most last of them (0:
// every one), oldest first.
func (s *Store) GameCalls(ctx context.Context, game store.GameID, last int) ([]store.Call, error) {
	var limit any // NULL: no limit
	if last > 0 {
		limit = int64(last)
	}
	calls, err := s.calls(ctx, fmt.Sprintf("calls of game %d", game),
		`SELECT `+callColumns+` FROM calls WHERE game_id = $1 ORDER BY seq DESC, called DESC, player DESC LIMIT $2`, int64(game), limit)
	slices.Reverse(calls)
	return calls, err
}

func (s *Store) calls(ctx context.Context, op, q string, args ...any) ([]store.Call, error) {
	var out []store.Call
	err := s.retry(ctx, func() error {
		out = nil
		rows, err := s.pool.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		var game, seq, called, acted int64
		var c store.Call
		var player string
		_, err = pgx.ForEachRow(rows, []any{&game, &c.Guild, &c.Channel, &player, &seq, &called, &acted, &c.Ended, &c.Unseated}, func() error {
			c.Game, c.Player, c.Seq = store.GameID(game), engine.PlayerID(player), engine.Seq(seq)
			c.Called, c.Acted = fromMillis(called), fromMillis(acted)
			out = append(out, c)
			return nil
		})
		return err
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return out, nil
}

// ClaimReminder takes the reminder rung of player's call at step seq of
// game, so that of several processes sharing the store one alone sends
// it. It reports whether this caller got it.
func (s *Store) ClaimReminder(ctx context.Context, game store.GameID, player engine.PlayerID, seq engine.Seq, rung string) (bool, error) {
	var n int64
	err := s.once(ctx, func() error {
		tag, err := s.pool.Exec(ctx, `INSERT INTO reminders (game_id, player, seq, rung) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
			int64(game), string(player), int64(seq), rung)
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return false, wrap(fmt.Sprintf("claim reminder %s of %s in game %d", rung, player, game), err)
	}
	return n == 1, nil
}

// Claim takes the work called name, so that of several processes sharing
// the store one alone does it. It reports whether this caller got it.
func (s *Store) Claim(ctx context.Context, name string, now time.Time) (bool, error) {
	var n int64
	err := s.once(ctx, func() error {
		tag, err := s.pool.Exec(ctx, `INSERT INTO claims (name, claimed) VALUES ($1, $2) ON CONFLICT DO NOTHING`, name, millis(now))
		n = tag.RowsAffected()
		return err
	})
	if err != nil {
		return false, wrap(fmt.Sprintf("claim %q", name), err)
	}
	return n == 1, nil
}

// AppendCalling is [Store.Append] that records, in the same transaction,
// what the step does to the game's calls (store.CallChange).
func (s *Store) AppendCalling(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool, calls store.CallChange) (store.Game, error) {
	return s.appendWith(ctx, id, expect, recs, end, &calls)
}

func applyCalls(ctx context.Context, tx pgx.Tx, g store.Game, c *store.CallChange) error {
	at := millis(c.At)
	for _, p := range c.Unseated {
		if _, err := tx.Exec(ctx, `UPDATE calls SET acted = $1, ended = true, unseated = true WHERE game_id = $2 AND player = $3 AND acted = 0`, at, int64(g.ID), string(p)); err != nil {
			return err
		}
	}
	for _, p := range c.Acted {
		if _, err := tx.Exec(ctx, `UPDATE calls SET acted = $1 WHERE game_id = $2 AND player = $3 AND acted = 0`, at, int64(g.ID), string(p)); err != nil {
			return err
		}
	}
	if c.Ended {
		if _, err := tx.Exec(ctx, `UPDATE calls SET acted = $1, ended = true WHERE game_id = $2 AND acted = 0`, at, int64(g.ID)); err != nil {
			return err
		}
	}
	for _, p := range c.Called {
		// A player has at most one open call in a game: calling him
		// again closes the one he has, as answered now.
		if !slices.Contains(c.Acted, p) && !slices.Contains(c.Unseated, p) {
			if _, err := tx.Exec(ctx, `UPDATE calls SET acted = $1 WHERE game_id = $2 AND player = $3 AND acted = 0`, at, int64(g.ID), string(p)); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO calls (game_id, guild, channel, player, seq, called) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (game_id, player, seq) DO NOTHING`, int64(g.ID), g.Guild, g.Channel, string(p), int64(g.Head), at); err != nil {
			return err
		}
	}
	return nil
}

// GameReminders returns the reminders sent for game's calls, for copying.
func (s *Store) GameReminders(ctx context.Context, game store.GameID) ([]store.Reminder, error) {
	var out []store.Reminder
	err := s.retry(ctx, func() error {
		out = nil
		rows, err := s.pool.Query(ctx, `SELECT player, seq, rung FROM reminders WHERE game_id = $1 ORDER BY seq, player, rung`, int64(game))
		if err != nil {
			return err
		}
		var player, rung string
		var seq int64
		_, err = pgx.ForEachRow(rows, []any{&player, &seq, &rung}, func() error {
			out = append(out, store.Reminder{Player: engine.PlayerID(player), Seq: engine.Seq(seq), Rung: rung})
			return nil
		})
		return err
	})
	if err != nil {
		return nil, wrap(fmt.Sprintf("reminders of game %d", game), err)
	}
	return out, nil
}

// AllSettings returns every setting of every guild, for copying.
func (s *Store) AllSettings(ctx context.Context) ([]store.Setting, error) {
	var out []store.Setting
	err := s.retry(ctx, func() error {
		out = nil
		rows, err := s.pool.Query(ctx, `SELECT guild, subject, value FROM settings ORDER BY guild, subject`)
		if err != nil {
			return err
		}
		var guild, subject, value string
		_, err = pgx.ForEachRow(rows, []any{&guild, &subject, &value}, func() error {
			out = append(out, store.Setting{Guild: guild, Subject: subject, Value: []byte(value)})
			return nil
		})
		return err
	})
	if err != nil {
		return nil, wrap("every setting", err)
	}
	return out, nil
}
