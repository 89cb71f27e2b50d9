package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
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
	// A snapshot only saves replaying the log, so its transaction does
	// without the fsync a step's append waits for: committed with
	// synchronous NORMAL, it is made durable by the next append's sync of
	// the same WAL, and a power cut before then loses only the snapshot.
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return wrap(ctx, op, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		return wrap(ctx, op, err)
	}
	defer func() {
		// The writer's one connection must sync fully again before any
		// append uses it; one that cannot is thrown away, and database/sql
		// opens a new one with the DSN's synchronous(FULL).
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous = FULL"); rerr != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return wrap(ctx, op, err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var head engine.Seq
	headStmt, err := s.inTx(ctx, tx, selectSnapshotHead)
	if err != nil {
		return wrap(ctx, op, err)
	}
	switch err := headStmt.QueryRowContext(ctx, int64(id)).Scan(&head); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: %s: %w", op, ErrNotFound)
	case err != nil:
		return wrap(ctx, op, err)
	case seq > head:
		return fmt.Errorf("store: %s: past the head, %d", op, head)
	}
	insert, err := s.inTx(ctx, tx, insertSnapshot)
	if err != nil {
		return wrap(ctx, op, err)
	}
	if _, err := insert.ExecContext(ctx, int64(id), int64(seq), version, data, formatTime(time.Now())); err != nil {
		return wrap(ctx, op, err)
	}
	prune, err := s.inTx(ctx, tx, pruneSnapshots)
	if err != nil {
		return wrap(ctx, op, err)
	}
	if _, err := prune.ExecContext(ctx, int64(id), keepSnapshots); err != nil {
		return wrap(ctx, op, err)
	}
	if err := tx.Commit(); err != nil {
		return wrap(ctx, op, err)
	}
	s.committed()
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
