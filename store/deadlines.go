package store

import (
	"context"
	"fmt"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// Deadline is how long a game gives each player it awaits, and where the
// clock now stands.
type Deadline struct {
	Game    GameID
	Guild   string
	Channel string
	// Per is the time allowed each turn.
	Per time.Duration
	// Seq is the game's last event when the clock was set; Due is when
	// time runs out for the players awaited then, and Remind when they
	// are reminded. Both are zero while no one is awaited.
	Seq      engine.Seq
	Due      time.Time
	Remind   time.Time
	Reminded bool
}

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

// PutDeadline records d, replacing the game's earlier deadline.
func (s *Store) PutDeadline(ctx context.Context, d Deadline) error {
	op := fmt.Sprintf("put deadline of game %d", d.Game)
	mins := int64(d.Per / time.Minute)
	if mins <= 0 {
		return fmt.Errorf("store: %s: a deadline must allow at least a minute, not %s", op, d.Per)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO deadlines (game_id, guild, channel, minutes, seq, due, remind, reminded)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET guild = excluded.guild, channel = excluded.channel, minutes = excluded.minutes,
			seq = excluded.seq, due = excluded.due, remind = excluded.remind, reminded = excluded.reminded`,
		int64(d.Game), d.Guild, d.Channel, mins, int64(d.Seq), millis(d.Due), millis(d.Remind), d.Reminded)
	if err != nil {
		return wrap(ctx, op, err)
	}
	return nil
}

// RemoveDeadline drops the game's deadline, if it has one.
func (s *Store) RemoveDeadline(ctx context.Context, game GameID) error {
	if _, err := s.w.ExecContext(ctx, `DELETE FROM deadlines WHERE game_id = ?`, int64(game)); err != nil {
		return wrap(ctx, fmt.Sprintf("remove deadline of game %d", game), err)
	}
	return nil
}

const deadlineColumns = `game_id, guild, channel, minutes, seq, due, remind, reminded`

func scanDeadline(row interface{ Scan(...any) error }) (Deadline, error) {
	var d Deadline
	var mins, due, remind int64
	if err := row.Scan(&d.Game, &d.Guild, &d.Channel, &mins, &d.Seq, &due, &remind, &d.Reminded); err != nil {
		return Deadline{}, err
	}
	d.Per = time.Duration(mins) * time.Minute
	d.Due, d.Remind = fromMillis(due), fromMillis(remind)
	return d, nil
}

// GameDeadline returns the game's deadline, or [ErrNotFound].
func (s *Store) GameDeadline(ctx context.Context, game GameID) (Deadline, error) {
	d, err := scanDeadline(s.r.QueryRowContext(ctx, `SELECT `+deadlineColumns+` FROM deadlines WHERE game_id = ?`, int64(game)))
	return d, notFound(ctx, fmt.Sprintf("deadline of game %d", game), err)
}

// DueDeadlines returns the deadlines with something to do at now: a
// reminder not yet sent whose time has come, or time run out.
func (s *Store) DueDeadlines(ctx context.Context, now time.Time) ([]Deadline, error) {
	op := "due deadlines"
	ms := now.UnixMilli()
	rows, err := s.r.QueryContext(ctx, `SELECT `+deadlineColumns+` FROM deadlines
		WHERE due > 0 AND (due <= ? OR (reminded = 0 AND remind > 0 AND remind <= ?)) ORDER BY due, game_id`, ms, ms)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var out []Deadline
	for rows.Next() {
		d, err := scanDeadline(rows)
		if err != nil {
			return nil, wrap(ctx, op, err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return out, nil
}

// ClaimDeadline takes what is due of the game's deadline for the step
// seq, so that of several processes sharing the store one alone acts on
// it: the reminder (due false), marking it sent, or the time run out (due
// true), stopping the clock. It reports whether this caller got it; a
// deadline set again for another step, or already claimed, is not had.
func (s *Store) ClaimDeadline(ctx context.Context, game GameID, seq engine.Seq, due bool) (bool, error) {
	q := `UPDATE deadlines SET reminded = 1 WHERE game_id = ? AND seq = ? AND due > 0 AND reminded = 0`
	if due {
		q = `UPDATE deadlines SET due = 0, remind = 0 WHERE game_id = ? AND seq = ? AND due > 0`
	}
	res, err := s.w.ExecContext(ctx, q, int64(game), int64(seq))
	if err != nil {
		return false, wrap(ctx, fmt.Sprintf("claim deadline of game %d", game), err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, wrap(ctx, fmt.Sprintf("claim deadline of game %d", game), err)
	}
	return n == 1, nil
}
