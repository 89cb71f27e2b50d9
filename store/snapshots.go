package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// keepSnapshots is how many snapshots PutSnapshot keeps per game.
const keepSnapshots = 3

// PutSnapshot stores data as game id's state after event seq, encoded by
// the given version of the state's format, replacing any snapshot with the
// same seq and version. seq must not be past the game's head. It keeps the
// game's 3 snapshots with the highest seq, whatever their versions, and
// deletes the rest.
func (s *Store) PutSnapshot(ctx context.Context, id GameID, seq engine.Seq, version string, data []byte) (err error) {
	op := fmt.Sprintf("put snapshot %s of game %d at event %d", version, id, seq)
	if version == "" {
		return fmt.Errorf("store: %s: empty version", op)
	}
	if seq < 0 {
		return fmt.Errorf("store: %s: negative sequence number", op)
	}
	if data == nil {
		data = []byte{}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(ctx, op, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var head engine.Seq
	switch err := tx.QueryRowContext(ctx, `SELECT head FROM games WHERE id = ?`, int64(id)).Scan(&head); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: %s: %w", op, ErrNotFound)
	case err != nil:
		return wrap(ctx, op, err)
	case seq > head:
		return fmt.Errorf("store: %s: past the head, %d", op, head)
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO snapshots (game_id, seq, version, data, created) VALUES (?, ?, ?, ?, ?)`,
		int64(id), int64(seq), version, data, formatTime(time.Now())); err != nil {
		return wrap(ctx, op, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM snapshots WHERE game_id = ?1 AND rowid NOT IN
		(SELECT rowid FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC, rowid DESC LIMIT ?2)`,
		int64(id), keepSnapshots); err != nil {
		return wrap(ctx, op, err)
	}
	if err := tx.Commit(); err != nil {
		return wrap(ctx, op, err)
	}
	return nil
}

// Snapshot returns the newest snapshot of game id taken at or before event
// atMost with this version, and the seq it was taken at; [ErrNotFound] if
// there is none. The state it holds is the game's after event seq: replay
// Events(ctx, id, seq, 0) on it to reach the head.
func (s *Store) Snapshot(ctx context.Context, id GameID, atMost engine.Seq, version string) (engine.Seq, []byte, error) {
	op := fmt.Sprintf("snapshot %s of game %d at or before event %d", version, id, atMost)
	var seq engine.Seq
	var data []byte
	err := s.r.QueryRowContext(ctx, `SELECT seq, data FROM snapshots
		WHERE game_id = ? AND version = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`,
		int64(id), version, int64(atMost)).Scan(&seq, &data)
	if err != nil {
		return 0, nil, notFound(ctx, op, err)
	}
	if data == nil {
		data = []byte{}
	}
	return seq, data, nil
}
