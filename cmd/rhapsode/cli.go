package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// version is the release, set at build time with
// -ldflags "-X main.version=v1.2.3"; left empty, the module's build
// information says what it can.
var version = ""

// versionText is what `rhapsode version` prints.
func versionText() string {
	v, rev, dirty := version, "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if v == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "development build"
	}
	if rev != "" {
		v += " (commit " + rev[:min(12, len(rev))]
		if dirty {
			v += ", modified"
		}
		v += ")"
	}
	return "rhapsode " + v
}

// commandHelp is one line for each subcommand, in the order `rhapsode
// --help` lists them.
var commandHelp = []struct{ name, what string }{
	{"local", "play at a table in this terminal, one command a line (the default without DISCORD_TOKEN)"},
	{"export", "write a channel's game, every step of it, as JSON"},
	{"gateway", "connect to Discord with DISCORD_TOKEN and play (the default with it)"},
	{"serve", "answer Discord's HTTP interactions endpoint"},
	{"register", "register the slash commands with Discord"},
	{"migrate", "copy every game of one database into another, empty one (SQLite to PostgreSQL, or back)"},
	{"arena", "play games between two programs (the bot at a level, random, greedy) and print the score and the bot's decision times"},
	{"health", "ask a running bot's /healthz (for a container's HEALTHCHECK)"},
	{"version", "print the version"},
}

// usage writes `rhapsode --help`: every subcommand with its flags, each
// subcommand asked for its own with -h.
func usage(ctx context.Context, w io.Writer, getenv func(string) string) {
	fmt.Fprintln(w, "usage: rhapsode [COMMAND] [flags]")
	fmt.Fprintln(w, "With no COMMAND, rhapsode connects to Discord when DISCORD_TOKEN is set and opens the local table when it is not.")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commandHelp {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.what)
		var flags bytes.Buffer
		help := []string{"-h"}
		switch c.name {
		case "local":
			local(ctx, help, strings.NewReader(""), io.Discard, &flags, nil)
		case "export":
			export(ctx, help, io.Discard, &flags)
		case "gateway":
			gateway(ctx, help, &flags, getenv)
		case "serve":
			serve(ctx, help, &flags, getenv)
		case "register":
			register(ctx, help, io.Discard, &flags, getenv)
		case "migrate":
			migrateDB(ctx, help, io.Discard, &flags)
		case "arena":
			arena(ctx, help, io.Discard, &flags)
		case "health":
			health(ctx, help, &flags)
		}
		for _, line := range strings.Split(strings.TrimRight(flags.String(), "\n"), "\n") {
			if line != "" && !strings.HasPrefix(line, "usage:") {
				fmt.Fprintf(w, "      %s\n", line)
			}
		}
	}
	fmt.Fprintln(w, "\nrhapsode COMMAND -h lists one command's flags.")
}

// parseFlags parses args into fs. Asked for help, it writes the flags to
// fs's output; a flag it does not know is reported once, as the error it
// returns.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: rhapsode %s [flags]\n", fs.Name())
		fs.PrintDefaults()
	}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
		return err
	case err != nil:
		return fmt.Errorf("%w; rhapsode %s -h lists its flags", err, fs.Name())
	}
	return nil
}

// health asks a bot's health endpoint whether it is serving: the exit
// status of a container's HEALTHCHECK.
func health(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("health", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "http://127.0.0.1:8081/healthz", "the health endpoint to ask")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, *url, nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s", *url, resp.Status)
	}
	return nil
}

// A database is what the commands keep games in: the SQLite store
// ([store.Store]) or the PostgreSQL one ([postgres.Store]).
type database interface {
	bot.Store
	bot.DeadlineStore
	bot.Interactions
	Close() error
}

var (
	_ database = (*store.Store)(nil)
	_ database = (*postgres.Store)(nil)
)

// isPostgres reports whether --db names a PostgreSQL server by URL rather
// than a SQLite file.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// knownScheme refuses a database named by a URL of a kind Rhapsode does
// not keep games in (mysql://, sqlite://…), rather than taking it for a
// file name; the message names only the scheme, never a password.
func knownScheme(db string) error {
	scheme, _, ok := strings.Cut(db, "://")
	if !ok || isPostgres(db) || strings.ContainsAny(scheme, `/\`) {
		return nil
	}
	return fmt.Errorf("%s:// is not a database Rhapsode can use: it keeps its games in a SQLite file (name its path, like --db rhapsode.db) or in PostgreSQL (a postgres:// or postgresql:// URL)", scheme)
}

// openStore opens the database at path, a SQLite file or a postgres://
// URL; when it cannot, the error says in a sentence what is wrong with the
// file or its folder (or the server) and what to do.
func openStore(ctx context.Context, path string) (database, error) {
	if err := knownScheme(path); err != nil {
		return nil, err
	}
	if isPostgres(path) {
		st, err := postgres.Open(ctx, path)
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("the PostgreSQL database named by --db would not open (is the server running, and the URL's user, password and database right?): %w", err)
		}
		return st, err
	}
	st, err := store.Open(ctx, path)
	if err == nil {
		return st, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	return nil, dbProblem(path, err)
}

// readOnlyFallback opens path read-only when it exists but this process
// may not write it or its folder; otherwise it fails.
func readOnlyFallback(ctx context.Context, path string) (database, error) {
	if isPostgres(path) {
		return nil, errors.New("not a database file")
	}
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || (writable(path) && writable(filepath.Dir(path))) {
		return nil, errors.New("not a read-only database")
	}
	return store.OpenReadOnly(ctx, path)
}

// dbProblem explains why the database at path would not open.
func dbProblem(path string, err error) error {
	dir := filepath.Dir(path)
	msg := err.Error()
	fi, statErr := os.Stat(path)
	switch {
	case statErr == nil && fi.IsDir():
		return fmt.Errorf("--db %s is a folder, not a database file: name a file in it, like --db %s", path, filepath.Join(path, "rhapsode.db"))
	case strings.Contains(msg, "not a database") || strings.Contains(msg, "malformed"):
		return fmt.Errorf("--db %s is not a Rhapsode database (SQLite could not read it): name another file, or move this one away to start afresh", path)
	case errors.Is(statErr, os.ErrNotExist):
		if _, derr := os.Stat(dir); errors.Is(derr, os.ErrNotExist) {
			return fmt.Errorf("the folder %s of --db %s does not exist: create it, or name a file in a folder that does", dir, path)
		}
		if !writable(dir) {
			return fmt.Errorf("cannot create the database %s: this process (user %d) may not write in the folder %s. Give it write access (with Docker, mount a volume at /data that user %d can write), or name a file elsewhere with --db", path, os.Getuid(), dir, os.Getuid())
		}
	case statErr == nil && (!writable(path) || !writable(dir)):
		return fmt.Errorf("the database %s cannot be written by this process (user %d): the file and its folder must be writable, for its journal. Give it write access, or copy the file somewhere writable; `rhapsode export --db %s` reads it as it is", path, os.Getuid(), path)
	}
	return fmt.Errorf("cannot open the database %s: %w", path, err)
}

// writable reports whether this process can write path (a file or a
// folder), by the permission bits it would be checked against.
func writable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		f, err := os.CreateTemp(path, ".rhapsode-probe-*")
		if err != nil {
			return false
		}
		f.Close()
		os.Remove(f.Name())
		return true
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
