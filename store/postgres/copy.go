package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rhapsode/rhapsode/store"
)

// AllGames returns every game of every guild, oldest first.
func (s *Store) AllGames(ctx context.Context) ([]store.Game, error) {
	return s.games(ctx, "every game", `SELECT `+gameColumns+` FROM games ORDER BY id`)
}

// ImportGame writes a game copied from another database, under its own
// ID, with its creation time, log and deadline, in one transaction, and
// moves the numbering of new games past it. A game with that ID already
// here is [store.ErrConflict].
func (s *Store) ImportGame(ctx context.Context, c store.GameCopy) error {
	op := fmt.Sprintf("import game %d", c.Game.ID)
	if err := c.Validate(); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	rows, err := store.EncodeRows(c.Events, 0)
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", op, err)
	}
	if d := c.Deadline; d != nil && d.Per < time.Minute {
		return fmt.Errorf("postgres: %s: a deadline must allow at least a minute, not %s", op, d.Per)
	}
	g := c.Game
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO games (id, guild, channel, ruleset, head, ended, created)
			OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			int64(g.ID), g.Guild, g.Channel, g.Ruleset, int64(g.Head), g.Ended, g.Created.UTC().Truncate(time.Microsecond)); err != nil {
			return err
		}
		if err := insertEvents(ctx, tx, g.ID, rows, time.Now().UTC()); err != nil {
			return err
		}
		if d := c.Deadline; d != nil {
			if _, err := tx.Exec(ctx, `INSERT INTO deadlines (game_id, guild, channel, minutes, seq, due, remind, reminded)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				int64(g.ID), d.Guild, d.Channel, int64(d.Per/time.Minute), int64(d.Seq), millis(d.Due), millis(d.Remind), d.Reminded); err != nil {
				return err
			}
		}
		if p := c.Publication; p != nil {
			if _, err := tx.Exec(ctx, `INSERT INTO publications (token, guild, game_id, created) VALUES ($1, $2, $3, $4)`,
				p.Token, p.Guild, int64(g.ID), p.Created.UTC().Truncate(time.Microsecond)); err != nil {
				return err
			}
		}
		for _, cl := range c.Calls {
			if _, err := tx.Exec(ctx, `INSERT INTO calls (game_id, guild, channel, player, seq, called, acted, ended, unseated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				int64(g.ID), cl.Guild, cl.Channel, string(cl.Player), int64(cl.Seq), millis(cl.Called), millis(cl.Acted), cl.Ended, cl.Unseated); err != nil {
				return err
			}
		}
		for _, rm := range c.Reminders {
			if _, err := tx.Exec(ctx, `INSERT INTO reminders (game_id, player, seq, rung) VALUES ($1, $2, $3, $4)`,
				int64(g.ID), string(rm.Player), int64(rm.Seq), rm.Rung); err != nil {
				return err
			}
		}
		// New games are numbered after every game copied in.
		_, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games))`)
		return err
	})
	if err != nil {
		return wrap(op, err)
	}
	return nil
}
