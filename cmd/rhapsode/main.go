package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// localGuild is the guild the local table plays in.
const localGuild = "local"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

// run is the whole program, with its surroundings passed in.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cmd := ""
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		cmd, args = "help", args[1:]
	}
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' && cmd == "" {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "":
		if getenv("DISCORD_TOKEN") != "" {
			err = gateway(ctx, args, stderr, getenv)
			break
		}
		err = local(ctx, args, stdin, stdout, stderr, logger)
	case "gateway":
		err = gateway(ctx, args, stderr, getenv)
	case "serve":
		err = serve(ctx, args, stderr, getenv)
	case "register":
		err = register(ctx, args, stdout, stderr, getenv)
	case "local":
		err = local(ctx, args, stdin, stdout, stderr, logger)
	case "export":
		err = export(ctx, args, stdout, stderr)
	case "health":
		err = health(ctx, args, stderr)
	case "migrate":
		err = migrateDB(ctx, args, stdout, stderr)
	case "arena":
		err = arena(ctx, args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionText())
		return 0
	case "help":
		usage(ctx, stdout, getenv)
		return 0
	default:
		err = fmt.Errorf("unknown command %q: use local, export, gateway, serve, register, migrate, arena, health or version; rhapsode --help says more", cmd)
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		if !errors.As(err, new(logged)) {
			fmt.Fprintln(stderr, "rhapsode:", err)
		}
		return 1
	}
	return 0
}

// logged is an error that has been written to the log already.
type logged struct{ error }

func (l logged) Unwrap() error { return l.error }

func local(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, logger *slog.Logger) error {
	fs := flag.NewFlagSet("local", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "rhapsode.db", "the SQLite database file, or a postgres:// URL of a PostgreSQL database")
	channel := fs.String("channel", "table", "the channel the local table plays in")
	asJSON := fs.Bool("json", false, "write one JSON object per reply")
	boards := fs.String("boards", "", "write each board picture as a PNG in this folder")
	user := fs.String("user", "player", "who acts until a line names a player with @name")
	demo := fs.Bool("demo", false, "play a short demonstration book and write its pictures (to ./rhapsode-demo unless --boards says)")
	webAddr := fs.String("web", "", "serve the pages published at this table (/saga publish, /book publish) on this address (host:port) while it runs")
	demoRules := fs.String("rules", "gwab", "the rule system whose demonstration --demo plays: "+strings.Join(bot.DemoKeys(), ", "))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("local takes no arguments, only flags: %v", fs.Args())
	}
	if flagSet(fs, "rules") && !*demo {
		return fmt.Errorf("--rules %s chooses whose demonstration --demo plays, and there is no --demo: add it to watch one, or open a book of those rules at the table with /book open rules:%s", *demoRules, *demoRules)
	}
	if *demo {
		// The demonstration plays on a fresh database of its own unless
		// one is named, so that it always plays the same way.
		if !flagSet(fs, "db") {
			dir, err := os.MkdirTemp("", "rhapsode-demo")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			*db = filepath.Join(dir, "demo.db")
		}
		if *boards == "" {
			*boards = "rhapsode-demo"
		}
		script, ok := bot.Demo(*demoRules)
		if !ok {
			return fmt.Errorf("there is no demonstration of the rule system %q; --rules takes one of %s", *demoRules, strings.Join(bot.DemoKeys(), ", "))
		}
		stdin = strings.NewReader(script)
	}
	if *boards != "" {
		if err := os.MkdirAll(*boards, 0o755); err != nil {
			return err
		}
	}
	st, err := openStore(ctx, *db)
	readOnly := false
	if err != nil {
		// A database this process may read but not write still answers
		// the commands that only read.
		ro, rerr := readOnlyFallback(ctx, *db)
		if rerr != nil {
			return err
		}
		st, readOnly = ro, true
		fmt.Fprintf(stderr, "rhapsode: %v.\nThe table reads it as it stands: /status, /log, /board, /help and /measure answer, and nothing is recorded.\n", err)
	}
	defer st.Close()
	cfg := bot.Config{Store: st, Rulesets: systems.All(), Logger: logger, Directives: true, ReadOnly: readOnly}
	if *webAddr != "" {
		cfg.WebURL = "http://" + *webAddr
		if strings.HasPrefix(*webAddr, ":") {
			cfg.WebURL = "http://localhost" + *webAddr
		}
		if err := serveWeb(ctx, *webAddr, st, logger); err != nil {
			return err
		}
	}
	if *boards != "" {
		cfg.Renderer, cfg.ReplayRenderer = boardRenderer(), replayRenderer()
	}
	if *demo {
		// Its seed is the one its transcript test plays with, for the
		// draws its script leaves to chance.
		cfg.Seed = func() uint64 { return bot.DemoSeed }
	}
	router := bot.NewRouter(cfg)
	terminal := isTerminal(stdin)
	table := &bot.Local{
		Router:  router,
		Guild:   localGuild,
		Channel: *channel,
		User:    engine.PlayerID(*user),
		JSON:    *asJSON,
		Echo:    !terminal,
		Prompt:  terminal && !*asJSON,
		Boards:  *boards,
	}
	if terminal && !*asJSON {
		fmt.Fprintln(stdout, "Rhapsode local table. Type /help for the commands, /help COMMAND for one; @name before a command acts as that player. End with Ctrl-D.")
		fmt.Fprintln(stdout, boardsNote(*boards))
	}
	if err := table.Run(ctx, stdin, stdout); err != nil {
		return err
	}
	if first, last := table.Pictures(); *demo && first != "" {
		fmt.Fprintf(stdout, "The pictures of the demonstration are in %s, %s to %s.\n", *boards, filepath.Base(first), filepath.Base(last))
	}
	return nil
}

func export(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "rhapsode.db", "the SQLite database file, or a postgres:// URL of a PostgreSQL database")
	channel := fs.String("channel", "table", "the channel whose game to export")
	guild := fs.String("guild", localGuild, "the guild of the channel")
	game := fs.Int64("game", 0, "the game to export, by its number (see --list); default the channel's newest")
	list := fs.Bool("list", false, "list the channel's games, to choose one for --game")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := knownScheme(*db); err != nil {
		return err
	}
	var st bot.Store
	if isPostgres(*db) {
		pg, err := openStore(ctx, *db)
		if err != nil {
			return err
		}
		defer pg.Close()
		st = pg
	} else {
		if _, err := os.Stat(*db); err != nil {
			return fmt.Errorf("no database at %s: name one with --db", *db)
		}
		// An export only reads: it opens the file read-only, so that it
		// works on a copy or a mount this process may not write.
		ro, err := store.OpenReadOnly(ctx, *db)
		if err != nil {
			return dbProblem(*db, err)
		}
		defer ro.Close()
		st = ro
	}
	if *list {
		return bot.ExportList(ctx, st, *guild, *channel, stdout)
	}
	return bot.Export(ctx, st, systems.All(), *guild, *channel, bot.ExportOptions{Game: store.GameID(*game)}, stdout)
}

// boardRenderer draws the board pictures the bot posts: twice the width
// of Discord's preview, with text sized to read in the preview.
func boardRenderer() *render.Renderer {
	return render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})
}

// replayRenderer draws the frames of /book replay at Discord's preview
// width, so that a long book's animation stays small.
func replayRenderer() *render.Renderer {
	return render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})
}

// boardsNote says where the local table's board pictures go.
func boardsNote(dir string) string {
	if dir == "" {
		return "Board pictures are not kept: start with --boards DIR to have each written there as a PNG to open in any image viewer (rhapsode local --demo shows a whole book)."
	}
	return fmt.Sprintf("Each board picture is written to %s as a PNG (board-0001.png, …); open them in any image viewer.", dir)
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
