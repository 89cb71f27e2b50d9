package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// copyable is a database whose games can be copied out and in.
type copyable interface {
	database
	AllGames(ctx context.Context) ([]store.Game, error)
	ImportGame(ctx context.Context, c store.GameCopy) error
	AllSettings(ctx context.Context) ([]store.Setting, error)
	PutSetting(ctx context.Context, guild, subject string, value []byte) error
}

var (
	_ copyable = (*store.Store)(nil)
	_ copyable = (*postgres.Store)(nil)
)

// migrateDB copies every game of one database into another, empty one:
// a club's SQLite file into PostgreSQL when its bot outgrows one machine,
// or back. Each game keeps its number, log, turn deadline, calls to act
// and reminders sent, and the servers' and players' settings (zones,
// ladders, absences, the digest) come along; then each game is
// replayed from each database's log and the two must come to the same
// state, and the copy is given a snapshot of it. Interactions (kept an
// hour against Discord delivering one twice) are not copied: stop the bot
// before migrating.
func migrateDB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the database to copy: a SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the empty database to copy it into: a SQLite file (made if missing) or a postgres:// URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("migrate takes no arguments, only --from and --to: %v", fs.Args())
	}
	if *from == "" || *to == "" {
		return errors.New("migrate needs both --from (the database to copy) and --to (an empty database to copy it into)")
	}
	if *from == *to {
		return errors.New("--from and --to name the same database")
	}
	if !isPostgres(*from) {
		if _, err := os.Stat(*from); err != nil {
			return fmt.Errorf("there is no database to copy at --from %s: %w", *from, err)
		}
	}
	src, err := openCopyable(ctx, *from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openCopyable(ctx, *to)
	if err != nil {
		return err
	}
	defer dst.Close()

	games, err := src.AllGames(ctx)
	if err != nil {
		return err
	}
	if there, err := dst.AllGames(ctx); err != nil {
		return err
	} else if len(there) > 0 {
		return fmt.Errorf("%s already holds %d games: migrate copies into an empty database only, so that no game is mixed with another's", describeDB(*to), len(there))
	}
	rules := map[string]engine.Ruleset{}
	for _, rs := range systems.All() {
		rules[rs.ID()] = rs
	}
	var events, deadlines int
	for _, g := range games {
		rs, ok := rules[g.Ruleset]
		if !ok {
			return fmt.Errorf("game %d is played by %q, which this rhapsode does not know; nothing after game %d was copied", g.ID, g.Ruleset, g.ID)
		}
		c, err := store.Copy(ctx, src, g.ID)
		if err != nil {
			return err
		}
		if err := dst.ImportGame(ctx, c); err != nil {
			return err
		}
		events += len(c.Events)
		if c.Deadline != nil {
			deadlines++
		}
		if err := sameOnBoth(ctx, src, dst, rs, g.ID); err != nil {
			return err
		}
	}
	settings, err := src.AllSettings(ctx)
	if err != nil {
		return err
	}
	for _, st := range settings {
		if err := dst.PutSetting(ctx, st.Guild, st.Subject, st.Value); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "Copied %s (%s, %s) and %s from %s to %s; each game replays to the same state on both.\n",
		engine.Plural(len(games), "game", "games"), engine.Plural(events, "event", "events"), engine.Plural(deadlines, "turn deadline", "turn deadlines"),
		engine.Plural(len(settings), "setting", "settings"), describeDB(*from), describeDB(*to))
	return nil
}

// sameOnBoth replays game id from each database and checks that the two
// come to the same state, then keeps that state as the copy's snapshot.
func sameOnBoth(ctx context.Context, src, dst copyable, rs engine.Ruleset, id store.GameID) error {
	a, err := bot.Load(ctx, src, rs, id)
	if err != nil {
		return fmt.Errorf("game %d does not replay from %s: %w", id, "the source", err)
	}
	b, err := bot.Load(ctx, dst, rs, id)
	if err != nil {
		return fmt.Errorf("game %d does not replay from its copy: %w", id, err)
	}
	sa, err := a.Snapshot()
	if err != nil {
		return err
	}
	sb, err := b.Snapshot()
	if err != nil {
		return err
	}
	if a.Seq != b.Seq || !bytes.Equal(sa, sb) {
		return fmt.Errorf("game %d replays differently from its copy (at event %d and %d): the copy is left as it is for a look, and should not be used", id, a.Seq, b.Seq)
	}
	if b.Seq > 0 {
		return bot.SaveSnapshot(ctx, dst, id, b)
	}
	return nil
}

func openCopyable(ctx context.Context, path string) (copyable, error) {
	db, err := openStore(ctx, path)
	if err != nil {
		return nil, err
	}
	c, ok := db.(copyable)
	if !ok {
		db.Close()
		return nil, fmt.Errorf("%s cannot be copied", describeDB(path))
	}
	return c, nil
}

// describeDB names a database for a message, without a URL's password.
func describeDB(path string) string {
	if isPostgres(path) {
		if u, err := url.Parse(path); err == nil {
			return "the PostgreSQL database " + u.Redacted()
		}
		return "the PostgreSQL database"
	}
	return path
}
