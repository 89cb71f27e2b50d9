package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A Publication makes a game's pages public: a saga's, with its books',
// or a single book's. Token is the unguessable part of their address.
type Publication struct {
	Token   string
	Guild   string
	Game    GameID
	Created time.Time // UTC, to the microsecond
}

// Publish makes game's pages public under token, in guild, unless they
// already are: then it returns the publication there is, so that
// publishing twice gives the same address.
func (s *Store) Publish(ctx context.Context, guild string, game GameID, token string, now time.Time) (Publication, error) {
	op := fmt.Sprintf("publish game %d", game)
	if guild == "" || token == "" {
		return Publication{}, fmt.Errorf("store: %s: a publication needs a guild and a token", op)
	}
	now = now.UTC().Truncate(time.Microsecond)
	if _, err := s.w.ExecContext(ctx, `INSERT INTO publications (token, guild, game_id, created) VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO NOTHING`,
		token, guild, int64(game), formatTime(now)); err != nil {
		return Publication{}, wrap(ctx, op, err)
	}
	p, err := s.scanPublication(s.w.QueryRowContext(ctx, `SELECT token, guild, game_id, created FROM publications WHERE game_id = ?`, int64(game)))
	if err != nil {
		return Publication{}, notFound(ctx, op, err)
	}
	if p.Guild != guild {
		return Publication{}, fmt.Errorf("store: %s: it is published by another guild", op)
	}
	return p, nil
}

// Withdraw takes game's pages down. It reports whether they were up.
func (s *Store) Withdraw(ctx context.Context, game GameID) (bool, error) {
	res, err := s.w.ExecContext(ctx, `DELETE FROM publications WHERE game_id = ?`, int64(game))
	if err != nil {
		return false, wrap(ctx, fmt.Sprintf("withdraw game %d", game), err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Published returns the publication under token, or [ErrNotFound].
func (s *Store) Published(ctx context.Context, token string) (Publication, error) {
	p, err := s.scanPublication(s.readRow(ctx, `SELECT token, guild, game_id, created FROM publications WHERE token = ?`, token))
	return p, notFound(ctx, "publication", err)
}

// PublicationOf returns game's publication, or [ErrNotFound].
func (s *Store) PublicationOf(ctx context.Context, game GameID) (Publication, error) {
	p, err := s.scanPublication(s.readRow(ctx, `SELECT token, guild, game_id, created FROM publications WHERE game_id = ?`, int64(game)))
	return p, notFound(ctx, fmt.Sprintf("publication of game %d", game), err)
}

func (s *Store) scanPublication(row *sql.Row) (Publication, error) {
	var p Publication
	var created string
	if err := row.Scan(&p.Token, &p.Guild, &p.Game, &created); err != nil {
		return Publication{}, err
	}
	t, err := parseTime(created)
	if err != nil {
		return Publication{}, errors.Join(fmt.Errorf("publication %d: created", p.Game), err)
	}
	p.Created = t
	return p, nil
}
