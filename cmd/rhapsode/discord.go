package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/bot/discord"
	"github.com/rhapsode/rhapsode/bot/guard"
	"github.com/rhapsode/rhapsode/engine/systems"
)

// The Discord side of the program: the gateway (the default when
// DISCORD_TOKEN is set), the HTTP interactions endpoint (serve), and the
// registration of the slash commands (register).

// deadlineEvery is how often the deadlines are checked.
const deadlineEvery = 30 * time.Second

// shutdownWithin bounds how long a stopping bot waits for the steps in hand.
const shutdownWithin = 30 * time.Second

func discordLogger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// open opens the store, and returns a router for Discord over it and a
// session with DISCORD_TOKEN (which may be empty). The caller closes the
// store.
func open(ctx context.Context, db string, getenv func(string) string, logger *slog.Logger) (*bot.Router, database, *discordgo.Session, error) {
	s, err := newSession(getenv("DISCORD_TOKEN"), getenv("RHAPSODE_DISCORD_REST"))
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := openStore(ctx, db)
	if err != nil {
		return nil, nil, nil, err
	}
	return bot.NewRouter(bot.Config{
		Store:          st,
		Renderer:       boardRenderer(),
		ReplayRenderer: replayRenderer(),
		Rulesets:       systems.All(),
		Logger:         logger,
		GMRole:         getenv("RHAPSODE_GM_ROLE"),
		WebURL:         getenv("RHAPSODE_WEB_URL"),
		TurnCalls:      true,
		SeenAfter:      discord.SeenAfter,
		ChannelLink:    discord.ChannelLink,
	}), st, s, nil
}

// newSession makes the session Discord's REST calls go through: to
// discord.com, or with rest set (http://host:port) to that address, a
// REST proxy that several instances share, or a test's stand-in.
func newSession(token, rest string) (*discordgo.Session, error) {
	if token != "" && !strings.HasPrefix(token, "Bot ") {
		token = "Bot " + token
	}
	// Without a token the session still edits responses and sends
	// follow-ups, which each interaction's own token authorizes.
	s, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("discord session: %w", err)
	}
	if rest != "" {
		u, err := url.Parse(rest)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("RHAPSODE_DISCORD_REST: %q is not an http:// or https:// address", rest)
		}
		s.Client = &http.Client{Timeout: 20 * time.Second, Transport: restProxy{to: u}}
	}
	return s, nil
}

// restProxy sends every request to another host, keeping its path and
// query.
type restProxy struct{ to *url.URL }

func (p restProxy) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host, req.Host = p.to.Scheme, p.to.Host, p.to.Host
	return http.DefaultTransport.RoundTrip(req)
}

// runDeadlines checks deadlines in the background until ctx ends, and
// returns a function that waits for the check in hand to finish.
func runDeadlines(ctx context.Context, router *bot.Router, b *discord.Bot) (wait func()) {
	var wg sync.WaitGroup
	wg.Go(func() { router.RunDeadlines(ctx, deadlineEvery, b.Post) })
	return wg.Wait
}

// serveHealth serves /healthz on addr with health until ctx ends; ""
// serves nothing.
func serveHealth(ctx context.Context, addr string, health http.HandlerFunc, logger *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("health endpoint: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", health)
	srv := guard.Server(mux, guard.Defaults)
	go guard.Serve(srv, ln, 16)
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	logger.Info("health endpoint", "addr", ln.Addr().String())
	return nil
}

// gateway connects to Discord with DISCORD_TOKEN, registers the slash
// commands (in DISCORD_GUILD when it is set) and plays until stopped, or
// until the gateway cannot go on: then it says why in the log and fails.
func gateway(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "rhapsode.db", "the SQLite database file, or a postgres:// URL of a PostgreSQL database")
	health := fs.String("health", getenv("RHAPSODE_HEALTH"), "serve GET /healthz on this address (host:port); empty, none (default $RHAPSODE_HEALTH, which the Docker image sets to :8081)")
	noRegister := fs.Bool("no-register", false, "do not register the slash commands at start")
	shardID := fs.Int("shard", 0, "the shard of the gateway this process holds, from 0 (with --shards)")
	shards := fs.String("shards", "1", "how many processes share the gateway: a number, or auto for the number Discord recommends")
	webAddr := fs.String("web", "", "serve the published pages (/saga publish, /book publish) on this address (host:port); empty, none")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if getenv("DISCORD_TOKEN") == "" {
		return errors.New("gateway needs DISCORD_TOKEN, the bot's token (without it, rhapsode local plays at a table in this terminal)")
	}
	logger := discordLogger(stderr)
	err := playGateway(ctx, gatewayFlags{*db, *health, *webAddr, *shards, *shardID, *noRegister}, getenv, logger)
	if err != nil && !errors.As(err, new(logged)) {
		logger.Error(err.Error())
		return logged{err}
	}
	return err
}

// gatewayFlags are the gateway command's flags.
type gatewayFlags struct {
	db, health, web, shards string
	shard                   int
	noRegister              bool
}

// playGateway is the gateway command once its flags are read: everything
// it started stops when it returns.
func playGateway(ctx context.Context, f gatewayFlags, getenv func(string) string, logger *slog.Logger) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	router, st, s, err := open(ctx, f.db, getenv, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	shard, err := discord.ParseShard(s, f.shard, f.shards)
	if err != nil {
		return err
	}
	logger = logger.With("shard", shard.ID, "shards", shard.Count)
	// Shard 0 alone declares the commands: they are the same for all.
	if !f.noRegister && shard.ID == 0 {
		appID := getenv("DISCORD_APP_ID")
		if appID == "" {
			if appID, err = discord.ApplicationID(s); err != nil {
				return err
			}
		}
		cmds, err := discord.Register(ctx, s, appID, getenv("DISCORD_GUILD"), router.Commands())
		if err != nil {
			return err
		}
		logger.Info("commands registered", "count", len(cmds), "guild", getenv("DISCORD_GUILD"))
	}
	b := discord.New(router, s, logger)
	b.Shard = shard
	gw := &discord.Gateway{Bot: b}
	if err := serveHealth(ctx, f.health, gw.Health, logger); err != nil {
		return err
	}
	if err := serveWeb(ctx, f.web, st, logger); err != nil {
		return err
	}
	waitDeadlines := runDeadlines(ctx, router, b)
	err = gw.Run(ctx, context.WithoutCancel(ctx))
	// A gateway that had to stop stops the deadlines too, at once.
	stop()
	waitDeadlines()
	if err != nil {
		attrs := []any{}
		if ce := (*discord.CloseError)(nil); errors.As(err, &ce) {
			attrs = append(attrs, "close_code", ce.Code)
		}
		logger.Error(err.Error(), attrs...)
		return logged{err}
	}
	logger.Info("stopped")
	return nil
}

// serve runs the HTTP interactions endpoint. It reaches Discord only to
// edit responses and send follow-ups (with each interaction's own token)
// and, when DISCORD_TOKEN is set, to post channel messages.
func serve(ctx context.Context, args []string, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", "rhapsode.db", "the SQLite database file, or a postgres:// URL of a PostgreSQL database")
	addr := fs.String("interactions", "", "serve POST /interactions and GET /healthz on this address (host:port)")
	webAddr := fs.String("web", "", "serve the published pages (/saga publish, /book publish) on this address (host:port); empty, none")
	health := fs.String("health", getenv("RHAPSODE_HEALTH"), "serve GET /healthz on this address too (host:port), beside --interactions; empty, none (default $RHAPSODE_HEALTH, which the Docker image sets to :8081)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *addr == "" {
		return errors.New("serve needs --interactions ADDR")
	}
	key, err := publicKey(getenv("DISCORD_PUBLIC_KEY"))
	if err != nil {
		return err
	}
	logger := discordLogger(stderr)
	router, st, s, err := open(ctx, *db, getenv, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := serveWeb(ctx, *webAddr, st, logger); err != nil {
		return err
	}
	// The interactions address answers /healthz itself; a second address
	// is for a health check that asks a fixed port (the Docker image's).
	if *health != *addr {
		if err := serveHealth(ctx, *health, discord.Health, logger); err != nil {
			return err
		}
	}
	b := discord.New(router, s, logger)
	work := context.WithoutCancel(ctx)
	ep := &discord.Endpoint{Bot: b, Key: key, Work: work}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := ep.Server()
	var waitDeadlines func()
	if getenv("DISCORD_TOKEN") != "" {
		waitDeadlines = runDeadlines(ctx, router, b)
	} else {
		logger.Warn("no DISCORD_TOKEN: turn calls and deadlines cannot be posted to channels")
	}
	logger.Info("serving interactions", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- guard.Serve(srv, ln, guard.Defaults.MaxConns) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(work, shutdownWithin)
	defer cancel()
	err = srv.Shutdown(stop)
	b.Close()
	if waitDeadlines != nil {
		waitDeadlines()
	}
	logger.Info("stopped")
	return err
}

func publicKey(h string) (ed25519.PublicKey, error) {
	if h == "" {
		return nil, errors.New("serve needs DISCORD_PUBLIC_KEY, the application's public key in hex")
	}
	k, err := hex.DecodeString(strings.TrimSpace(h))
	if err != nil || len(k) != ed25519.PublicKeySize {
		return nil, errors.New("DISCORD_PUBLIC_KEY is not a 32-byte public key in hex")
	}
	return ed25519.PublicKey(k), nil
}

// register declares the slash commands and exits.
func register(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("register", flag.ContinueOnError)
	fs.SetOutput(stderr)
	guild := fs.String("guild", getenv("DISCORD_GUILD"), "register in this guild only (default $DISCORD_GUILD); empty, globally")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if getenv("DISCORD_TOKEN") == "" {
		return errors.New("register needs DISCORD_TOKEN")
	}
	s, err := newSession(getenv("DISCORD_TOKEN"), getenv("RHAPSODE_DISCORD_REST"))
	if err != nil {
		return err
	}
	appID := getenv("DISCORD_APP_ID")
	if appID == "" {
		if appID, err = discord.ApplicationID(s); err != nil {
			return err
		}
	}
	router := bot.NewRouter(bot.Config{Rulesets: systems.All()})
	cmds, err := discord.Register(ctx, s, appID, *guild, router.Commands())
	if err != nil {
		return err
	}
	where := "globally (they may take up to an hour to appear)"
	if *guild != "" {
		where = "in guild " + *guild
	}
	fmt.Fprintf(stdout, "Registered %d commands %s.\n", len(cmds), where)
	return nil
}
