package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// PutDeadline records d, replacing the game's earlier deadline. It must
// allow at least a minute a turn.
func (s *Store) PutDeadline(ctx context.Context, d store.Deadline) error {
	op := fmt.Sprintf("put deadline of game %d", d.Game)
	mins := int64(d.Per / time.Minute)
	if mins <= 0 {
		return fmt.Errorf("postgres: %s: a deadline must allow at least a minute, not %s", op, d.Per)
	}
	err := s.retry(ctx, func() error {
		_, err := s.pool.Exec(ctx, `INSERT INTO deadlines (game_id, guild, channel, minutes, seq, due, remind, reminded)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (game_id) DO UPDATE SET guild = excluded.guild, channel = excluded.channel, minutes = excluded.minutes,
				seq = excluded.seq, due = excluded.due, remind = excluded.remind, reminded = excluded.reminded`,
			int64(d.Game), d.Guild, d.Channel, mins, int64(d.Seq), millis(d.Due), millis(d.Remind), d.Reminded)
		return err
	})
	if err != nil {
		return wrap(op, err)
	}
	return nil
}

// RemoveDeadline drops the game's deadline, if it has one.
func (s *Store) RemoveDeadline(ctx context.Context, game store.GameID) error {
	err := s.retry(ctx, func() error {
		_, err := s.pool.Exec(ctx, `DELETE FROM deadlines WHERE game_id = $1`, int64(game))
		return err
	})
	if err != nil {
		return wrap(fmt.Sprintf("remove deadline of game %d", game), err)
	}
	return nil
}

const deadlineColumns = `game_id, guild, channel, minutes, seq, due, remind, reminded`

func scanDeadline(row pgx.Row) (store.Deadline, error) {
	var d store.Deadline
	var game, mins, seq, due, remind int64
	if err := row.Scan(&game, &d.Guild, &d.Channel, &mins, &seq, &due, &remind, &d.Reminded); err != nil {
		return store.Deadline{}, err
	}
	d.Game, d.Seq = store.GameID(game), engine.Seq(seq)
	d.Per = time.Duration(mins) * time.Minute
	d.Due, d.Remind = fromMillis(due), fromMillis(remind)
	return d, nil
}

// GameDeadline returns the game's deadline, or [store.ErrNotFound].
func (s *Store) GameDeadline(ctx context.Context, game store.GameID) (d store.Deadline, err error) {
	err = s.retry(ctx, func() (err error) {
		d, err = scanDeadline(s.pool.QueryRow(ctx, `SELECT `+deadlineColumns+` FROM deadlines WHERE game_id = $1`, int64(game)))
		return err
	})
	return d, notFound(fmt.Sprintf("deadline of game %d", game), err)
}

// DueDeadlines returns the deadlines with something to do at now: a
// reminder whose time has come and not yet sent, or time run out.
func (s *Store) DueDeadlines(ctx context.Context, now time.Time) ([]store.Deadline, error) {
	ms := now.UnixMilli()
	var out []store.Deadline
	err := s.retry(ctx, func() error {
		out = nil
		rows, err := s.pool.Query(ctx, `SELECT `+deadlineColumns+` FROM deadlines
			WHERE due > 0 AND (due <= $1 OR (NOT reminded AND remind > 0 AND remind <= $1)) ORDER BY due, game_id`, ms)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			d, err := scanDeadline(rows)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap("due deadlines", err)
	}
	return out, nil
}

// ClaimDeadline takes what is due of the game's deadline for step seq, so
// that of every process on the database one alone acts on it: the
// reminder (due false), marking it sent, or the time run out (due true),
// stopping the clock. One UPDATE whose WHERE names the state it leaves
// makes the claim: PostgreSQL re-checks the row after a concurrent update,
// so a second claimer finds nothing to change. It reports whether this
// caller got it.
func (s *Store) ClaimDeadline(ctx context.Context, game store.GameID, seq engine.Seq, due bool) (bool, error) {
	q := `UPDATE deadlines SET reminded = true WHERE game_id = $1 AND seq = $2 AND due > 0 AND NOT reminded`
	if due {
		q = `UPDATE deadlines SET due = 0, remind = 0 WHERE game_id = $1 AND seq = $2 AND due > 0`
	}
	var tag pgconn.CommandTag
	err := s.once(ctx, func() (err error) {
		tag, err = s.pool.Exec(ctx, q, int64(game), int64(seq))
		return err
	})
	if err != nil {
		return false, wrap(fmt.Sprintf("claim deadline of game %d", game), err)
	}
	return tag.RowsAffected() == 1, nil
}
