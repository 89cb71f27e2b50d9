package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// keepInteractions is how long an interaction is remembered: Discord
// gives a token fifteen minutes, an hour covers every redelivery.
const keepInteractions = time.Hour

// TakeInteraction records that the request with the transport's id is in
// hand, for every process on the database. The first taker gets fresh
// true; a later one fresh false and the answer recorded, nil while the
// first has not answered. Entries older than an hour are dropped.
func (s *Store) TakeInteraction(ctx context.Context, id string, now time.Time) (answer []byte, fresh bool, err error) {
	op := fmt.Sprintf("take interaction %q", id)
	if id == "" {
		return nil, false, fmt.Errorf("postgres: %s: an interaction needs an ID", op)
	}
	err = s.retry(ctx, func() error {
		_, err := s.pool.Exec(ctx, `DELETE FROM interactions WHERE taken < $1`, now.Add(-keepInteractions).UnixMilli())
		return err
	})
	if err != nil {
		return nil, false, wrap(op, err)
	}
	var tag pgconn.CommandTag
	err = s.once(ctx, func() (err error) {
		tag, err = s.pool.Exec(ctx, `INSERT INTO interactions (id, taken) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, now.UnixMilli())
		return err
	})
	if err != nil {
		return nil, false, wrap(op, err)
	}
	if tag.RowsAffected() == 1 {
		return nil, true, nil
	}
	err = s.retry(ctx, func() error {
		return s.pool.QueryRow(ctx, `SELECT answer FROM interactions WHERE id = $1`, id).Scan(&answer)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, wrap(op, err)
	}
	return answer, false, nil
}

// AnswerInteraction records the answer given to interaction id, for any
// later delivery of it.
func (s *Store) AnswerInteraction(ctx context.Context, id string, answer []byte) error {
	if answer == nil {
		answer = []byte{}
	}
	err := s.retry(ctx, func() error {
		_, err := s.pool.Exec(ctx, `UPDATE interactions SET answer = $1 WHERE id = $2`, answer, id)
		return err
	})
	if err != nil {
		return wrap(fmt.Sprintf("answer interaction %q", id), err)
	}
	return nil
}
