package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/rhapsode/rhapsode/store"
)

// Publish makes game's pages public under token, in guild, unless they
// already are: then it returns the publication there is.
func (s *Store) Publish(ctx context.Context, guild string, game store.GameID, token string, now time.Time) (store.Publication, error) {
	op := fmt.Sprintf("publish game %d", game)
	if guild == "" || token == "" {
		return store.Publication{}, fmt.Errorf("postgres: %s: a publication needs a guild and a token", op)
	}
	now = now.UTC().Truncate(time.Microsecond)
	err := s.retry(ctx, func() error {
		_, err := s.pool.Exec(ctx, `INSERT INTO publications (token, guild, game_id, created) VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO NOTHING`,
			token, guild, int64(game), now)
		return err
	})
	if err != nil {
		return store.Publication{}, wrap(op, err)
	}
	p, err := s.publication(ctx, `WHERE game_id = $1`, int64(game))
	if err != nil {
		return store.Publication{}, notFound(op, err)
	}
	if p.Guild != guild {
		return store.Publication{}, fmt.Errorf("postgres: %s: it is published by another guild", op)
	}
	return p, nil
}

// Withdraw takes game's pages down. It reports whether they were up.
func (s *Store) Withdraw(ctx context.Context, game store.GameID) (bool, error) {
	var n int64
	err := s.retry(ctx, func() error {
		tag, err := s.pool.Exec(ctx, `DELETE FROM publications WHERE game_id = $1`, int64(game))
		n += tag.RowsAffected()
		return err
	})
	if err != nil {
		return false, wrap(fmt.Sprintf("withdraw game %d", game), err)
	}
	return n > 0, nil
}

// Published returns the publication under token, or [store.ErrNotFound].
func (s *Store) Published(ctx context.Context, token string) (store.Publication, error) {
	p, err := s.publication(ctx, `WHERE token = $1`, token)
	return p, notFound("publication", err)
}

// PublicationOf returns game's publication, or [store.ErrNotFound].
func (s *Store) PublicationOf(ctx context.Context, game store.GameID) (store.Publication, error) {
	p, err := s.publication(ctx, `WHERE game_id = $1`, int64(game))
	return p, notFound(fmt.Sprintf("publication of game %d", game), err)
}

func (s *Store) publication(ctx context.Context, where string, arg any) (p store.Publication, err error) {
	err = s.retry(ctx, func() error {
		var id int64
		if err := s.pool.QueryRow(ctx, `SELECT token, guild, game_id, created FROM publications `+where, arg).Scan(&p.Token, &p.Guild, &id, &p.Created); err != nil {
			return err
		}
		p.Game, p.Created = store.GameID(id), p.Created.UTC()
		return nil
	})
	return p, err
}
