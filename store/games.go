package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// GameID identifies a game in the store.
type GameID int64

// A Game is one game played in one channel: its rule system, how far its
// event log goes, and whether it is over.
type Game struct {
	ID      GameID
	Guild   string
	Channel string
	Ruleset string     // the rule system's id, such as "gwab"
	Head    engine.Seq // the last event's number; 0 before any
	Ended   bool
	Created time.Time // UTC
	// Deadline reports whether the game has a turn deadline set, so that
	// a step of a game without one needs no second query to know it.
	Deadline bool
}

const (
	hasDeadline = `EXISTS (SELECT 1 FROM deadlines d WHERE d.game_id = games.id)`
	// A game's head is its log's last number (migration 0010), which
	// SQLite finds by one seek to the end of the game's run of the events
	// table's key (migration 0012, eventKey; TestHeadFromLog).
	headColumn = `coalesce((SELECT max(e.key) FROM events e WHERE e.key > games.id * 4294967296 AND e.key < (games.id + 1) * 4294967296)
		- games.id * 4294967296, 0)`
	gameColumns = `id, guild, channel, ruleset, ` + headColumn + `, ended, created, ` + hasDeadline
)

func scanGame(row interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var created string
	if err := row.Scan(&g.ID, &g.Guild, &g.Channel, &g.Ruleset, &g.Head, &g.Ended, &created, &g.Deadline); err != nil {
		return Game{}, err
	}
	t, err := parseTime(created)
	if err != nil {
		return Game{}, fmt.Errorf("game %d: created: %w", g.ID, err)
	}
	g.Created = t
	return g, nil
}

// knownGames keeps the rows of games a store has made or read, for what
// in them never changes (the guild, channel, rule system and creation
// time): games are never deleted, and their numbers never reused once
// committed. It holds at most maxKnownGames; one it dropped is read again.
type knownGames struct {
	mu sync.Mutex
	m  map[GameID]Game
}

const maxKnownGames = 4096

// note keeps g, a row read or committed.
func (k *knownGames) note(g Game) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[GameID]Game{}
	}
	if _, ok := k.m[g.ID]; !ok && len(k.m) >= maxKnownGames {
		for old := range k.m {
			delete(k.m, old)
			break
		}
	}
	k.m[g.ID] = g
}

// row returns game id's row as last noted, if it was: what never changes
// in it is still so.
func (k *knownGames) row(id GameID) (Game, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	g, ok := k.m[id]
	return g, ok
}

// CreateGame starts a game of ruleset in a channel with its first records,
// in one transaction. recs[i].Seq must be i+1; recs may be empty. It returns
// [ErrConflict] if the channel already has a game that has not ended.
func (s *Store) CreateGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record) (_ Game, err error) {
	return s.createGame(ctx, guild, channel, ruleset, recs, nil)
}

// CreateGameCalling is [Store.CreateGame] that records, in the same
// transaction, the calls of the players the new game awaits (calls,
// whose Called alone counts): so a player awaited from a book's first
// step has his call from then, though his next steps leave him awaited
// and write none.
func (s *Store) CreateGameCalling(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls CallChange) (Game, error) {
	calls = CallChange{At: calls.At, Called: calls.Called}
	return s.createGame(ctx, guild, channel, ruleset, recs, &calls)
}

func (s *Store) createGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls *CallChange) (_ Game, err error) {
	op := fmt.Sprintf("create %s game in %s/%s", ruleset, guild, channel)
	if guild == "" || channel == "" || ruleset == "" {
		return Game{}, fmt.Errorf("store: %s: guild, channel and ruleset must not be empty", op)
	}
	rows, err := EncodeRows(recs, 0)
	if err != nil {
		return Game{}, fmt.Errorf("store: %s: %w", op, err)
	}
	// Kept to the microsecond, as PostgreSQL keeps times, so that a game
	// copied from one database to the other reads the same.
	now := s.clock().UTC().Truncate(time.Microsecond)
	g := Game{Guild: guild, Channel: channel, Ruleset: ruleset, Head: engine.Seq(len(recs)), Created: now}

	// The partial unique index games_active_channel turns a second active
	// game in the channel into a constraint violation, which wrap maps to
	// ErrConflict. The new game waits in the commit queue with the
	// appends (commits.go).
	err = s.queued(ctx, opText(op), func(ctx context.Context, tx *sql.Tx) error {
		insert, err := s.inTx(ctx, tx, insertGame)
		if err != nil {
			return wrap(ctx, op, err)
		}
		res, err := insert.ExecContext(ctx, guild, channel, ruleset, formatTime(now))
		if err != nil {
			return wrap(ctx, op, err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return wrap(ctx, op, err)
		}
		g.ID = GameID(id)
		if err := s.insertEvents(ctx, tx, g.ID, rows, now); err != nil {
			return wrap(ctx, op, err)
		}
		if calls != nil {
			if err := calls.apply(ctx, s, tx, g); err != nil {
				return wrap(ctx, op, err)
			}
		}
		return nil
	})
	if err != nil {
		return Game{}, err
	}
	s.known.note(g)
	return g, nil
}

// ActiveGame returns the channel's game that has not ended, or
// [ErrNotFound].
func (s *Store) ActiveGame(ctx context.Context, guild, channel string) (Game, error) {
	g, err := s.readGame(ctx, `SELECT `+gameColumns+` FROM games WHERE guild = ? AND channel = ? AND ended = 0`, guild, channel)
	return g, notFound(ctx, fmt.Sprintf("active game in %s/%s", guild, channel), err)
}

// LatestGame returns the channel's active game if it has one, else the one
// created most recently, or [ErrNotFound] if the channel never had a game.
func (s *Store) LatestGame(ctx context.Context, guild, channel string) (Game, error) {
	g, err := s.readGame(ctx, `SELECT `+gameColumns+` FROM games WHERE guild = ? AND channel = ? ORDER BY ended, id DESC LIMIT 1`, guild, channel)
	return g, notFound(ctx, fmt.Sprintf("latest game in %s/%s", guild, channel), err)
}

// Game returns the game with this id, or [ErrNotFound].
func (s *Store) Game(ctx context.Context, id GameID) (Game, error) {
	g, err := s.readGame(ctx, `SELECT `+gameColumns+` FROM games WHERE id = ?`, int64(id))
	return g, notFound(ctx, fmt.Sprintf("game %d", id), err)
}

// readGame reads the one game a query selects, and notes it.
func (s *Store) readGame(ctx context.Context, query string, args ...any) (Game, error) {
	g, err := scanGame(s.readRow(ctx, query, args...))
	if err == nil {
		s.known.note(g)
	}
	return g, err
}

// Games returns every game of the guild, ended or not, oldest first.
func (s *Store) Games(ctx context.Context, guild string) ([]Game, error) {
	return s.games(ctx, fmt.Sprintf("games of %s", guild), `SELECT `+gameColumns+` FROM games WHERE guild = ? ORDER BY id`, guild)
}

// games reads the games a query selects.
func (s *Store) games(ctx context.Context, op, query string, args ...any) ([]Game, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(ctx, op, err)
	}
	defer rows.Close()
	var gs []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, wrap(ctx, op, err)
		}
		gs = append(gs, g)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(ctx, op, err)
	}
	return gs, nil
}

// notFound wraps err from a single-row query, turning no rows into
// [ErrNotFound]. It returns nil for nil.
func notFound(ctx context.Context, op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: %s: %w", op, ErrNotFound)
	}
	return wrap(ctx, op, err)
}
