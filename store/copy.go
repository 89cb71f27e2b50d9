package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// A GameCopy is a game as one database holds it, to be written into
// another (rhapsode migrate): its row, its whole log, its turn deadline
// and its publication if it has them, its calls to act and the reminders
// sent for them.
type GameCopy struct {
	Game        Game
	Events      []engine.Record
	Deadline    *Deadline
	Publication *Publication
	Calls       []Call
	Reminders   []Reminder
}

// A Reminder is a rung of a reminder ladder sent for a player's call at
// step Seq of a game (ClaimReminder).
type Reminder struct {
	Player engine.PlayerID
	Seq    engine.Seq
	Rung   string
}

// A Setting is a setting of a guild's subject (PutSetting), for copying.
type Setting struct {
	Guild, Subject string
	Value          []byte
}

// Validate checks that c can be written: a game with an ID, a log
// numbered 1 to its head, a deadline of this game.
func (c GameCopy) Validate() error {
	if c.Game.ID <= 0 || c.Game.Guild == "" || c.Game.Channel == "" || c.Game.Ruleset == "" {
		return fmt.Errorf("game %d: a copied game needs its ID, guild, channel and rule system", c.Game.ID)
	}
	if engine.Seq(len(c.Events)) != c.Game.Head {
		return fmt.Errorf("game %d: %d events for a head of %d", c.Game.ID, len(c.Events), c.Game.Head)
	}
	if c.Deadline != nil && c.Deadline.Game != c.Game.ID {
		return fmt.Errorf("game %d: the deadline of game %d", c.Game.ID, c.Deadline.Game)
	}
	if p := c.Publication; p != nil && (p.Game != c.Game.ID || p.Guild != c.Game.Guild || p.Token == "") {
		return fmt.Errorf("game %d: the publication of game %d of %s", c.Game.ID, p.Game, p.Guild)
	}
	for _, cl := range c.Calls {
		if cl.Game != c.Game.ID {
			return fmt.Errorf("game %d: a call of game %d", c.Game.ID, cl.Game)
		}
	}
	return nil
}

// AllGames returns every game of every guild, oldest first.
func (s *Store) AllGames(ctx context.Context) ([]Game, error) {
	return s.games(ctx, "every game", `SELECT `+gameColumns+` FROM games ORDER BY id`)
}

// ImportGame writes a game copied from another database, under its own
// ID, with its creation time, log and deadline, in one transaction. A
// game with that ID already here is [ErrConflict].
func (s *Store) ImportGame(ctx context.Context, c GameCopy) (err error) {
	op := fmt.Sprintf("import game %d", c.Game.ID)
	if err := c.Validate(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	rows, err := EncodeRows(c.Events, 0)
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
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
	g := c.Game
	if _, err = tx.ExecContext(ctx, `INSERT INTO games (id, guild, channel, ruleset, ended, created) VALUES (?, ?, ?, ?, ?, ?)`,
		int64(g.ID), g.Guild, g.Channel, g.Ruleset, boolInt(g.Ended), formatTime(g.Created)); err != nil {
		return wrap(ctx, op, err)
	}
	if err = s.insertEvents(ctx, tx, g.ID, rows, time.Now().UTC()); err != nil {
		return wrap(ctx, op, err)
	}
	if d := c.Deadline; d != nil {
		if d.Per < time.Minute {
			return fmt.Errorf("store: %s: a deadline must allow at least a minute, not %s", op, d.Per)
		}
		if _, err = tx.ExecContext(ctx, `INSERT INTO deadlines (game_id, guild, channel, minutes, seq, due, remind, reminded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			int64(g.ID), d.Guild, d.Channel, int64(d.Per/time.Minute), int64(d.Seq), millis(d.Due), millis(d.Remind), boolInt(d.Reminded)); err != nil {
			return wrap(ctx, op, err)
		}
	}
	if p := c.Publication; p != nil {
		if _, err = tx.ExecContext(ctx, `INSERT INTO publications (token, guild, game_id, created) VALUES (?, ?, ?, ?)`,
			p.Token, p.Guild, int64(g.ID), formatTime(p.Created)); err != nil {
			return wrap(ctx, op, err)
		}
	}
	for _, cl := range c.Calls {
		if _, err = tx.ExecContext(ctx, `INSERT INTO calls (game_id, guild, channel, player, seq, called, acted, ended, unseated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			int64(g.ID), cl.Guild, cl.Channel, string(cl.Player), int64(cl.Seq), millis(cl.Called), millis(cl.Acted), boolInt(cl.Ended), boolInt(cl.Unseated)); err != nil {
			return wrap(ctx, op, err)
		}
	}
	for _, rm := range c.Reminders {
		if _, err = tx.ExecContext(ctx, `INSERT INTO reminders (game_id, player, seq, rung) VALUES (?, ?, ?, ?)`,
			int64(g.ID), string(rm.Player), int64(rm.Seq), rm.Rung); err != nil {
			return wrap(ctx, op, err)
		}
	}
	if err = tx.Commit(); err != nil {
		return wrap(ctx, op, err)
	}
	return nil
}

// Copy reads game id whole from st, for ImportGame on another database.
func Copy(ctx context.Context, st interface {
	Game(ctx context.Context, id GameID) (Game, error)
	Events(ctx context.Context, id GameID, after, upTo engine.Seq) ([]engine.Record, error)
	GameDeadline(ctx context.Context, game GameID) (Deadline, error)
}, id GameID) (GameCopy, error) {
	g, err := st.Game(ctx, id)
	if err != nil {
		return GameCopy{}, err
	}
	recs, err := st.Events(ctx, id, 0, g.Head)
	if err != nil {
		return GameCopy{}, err
	}
	c := GameCopy{Game: g, Events: recs}
	switch d, err := st.GameDeadline(ctx, id); {
	case err == nil:
		c.Deadline = &d
	case !errors.Is(err, ErrNotFound):
		return GameCopy{}, err
	}
	c.Game.Deadline = c.Deadline != nil
	if cs, ok := st.(interface {
		GameCalls(ctx context.Context, game GameID, last int) ([]Call, error)
		GameReminders(ctx context.Context, game GameID) ([]Reminder, error)
	}); ok {
		if c.Calls, err = cs.GameCalls(ctx, id, 0); err != nil {
			return GameCopy{}, err
		}
		if c.Reminders, err = cs.GameReminders(ctx, id); err != nil {
			return GameCopy{}, err
		}
	}
	if ps, ok := st.(interface {
		PublicationOf(ctx context.Context, game GameID) (Publication, error)
	}); ok {
		switch p, err := ps.PublicationOf(ctx, id); {
		case err == nil:
			c.Publication = &p
		case !errors.Is(err, ErrNotFound):
			return GameCopy{}, err
		}
	}
	return c, nil
}
