package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// keepInteractions is how long an interaction is remembered. Discord
// gives an interaction's token fifteen minutes; an hour covers every
// delivery of it again.
const keepInteractions = time.Hour

// TakeInteraction records that the request with the transport's id is in
// hand. fresh is true for the first taker; every later one gets fresh
// false and the answer recorded for it, nil while the first taker has not
// answered (or never will, having stopped). Entries older than an hour are
// dropped on the way.
func (s *Store) TakeInteraction(ctx context.Context, id string, now time.Time) (answer []byte, fresh bool, err error) {
	op := fmt.Sprintf("take interaction %q", id)
	if id == "" {
		return nil, false, fmt.Errorf("store: %s: an interaction needs an ID", op)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM interactions WHERE taken < ?`, now.Add(-keepInteractions).UnixMilli()); err != nil {
		return nil, false, wrap(ctx, op, err)
	}
	res, err := s.w.ExecContext(ctx, `INSERT INTO interactions (id, taken) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`, id, now.UnixMilli())
	if err != nil {
		return nil, false, wrap(ctx, op, err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 1 {
		return nil, true, nil
	}
	err = s.w.QueryRowContext(ctx, `SELECT answer FROM interactions WHERE id = ?`, id).Scan(&answer)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, wrap(ctx, op, err)
	}
	return answer, false, nil
}

// AnswerInteraction records the answer given to the interaction id, for
// any later delivery of it.
func (s *Store) AnswerInteraction(ctx context.Context, id string, answer []byte) error {
	if answer == nil {
		answer = []byte{}
	}
	if _, err := s.w.ExecContext(ctx, `UPDATE interactions SET answer = ? WHERE id = ?`, answer, id); err != nil {
		return wrap(ctx, fmt.Sprintf("answer interaction %q", id), err)
	}
	return nil
}
