package bot

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	mrand "math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Store is what the router needs of the event store. [store.Store] is the
// implementation; its contract (an append names the sequence it expects
// and fails with store.ErrConflict when another writer got there first)
// is what keeps two writers from both winning.
type Store interface {
	CreateGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record) (store.Game, error)
	ActiveGame(ctx context.Context, guild, channel string) (store.Game, error)
	LatestGame(ctx context.Context, guild, channel string) (store.Game, error)
	Game(ctx context.Context, id store.GameID) (store.Game, error)
	Games(ctx context.Context, guild string) ([]store.Game, error)
	Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error)
	Events(ctx context.Context, id store.GameID, after, upTo engine.Seq) ([]engine.Record, error)
	Recorded(ctx context.Context, id store.GameID, after engine.Seq) ([]time.Time, error)
	PutSnapshot(ctx context.Context, id store.GameID, seq engine.Seq, version string, data []byte) error
	Snapshot(ctx context.Context, id store.GameID, atMost engine.Seq, version string) (engine.Seq, []byte, error)
}

var _ Store = (*store.Store)(nil)

// Renderer draws a board. [render.Renderer] is the implementation.
type Renderer interface {
	PNG(v engine.View) ([]byte, error)
}

// Config sets up a [Router].
type Config struct {
	Store Store
	// Renderer, when set, draws the board after every step of a game
	// whose rule system can be drawn.
	Renderer Renderer
	// ReplayRenderer, when set, draws the frames of /book replay (smaller
	// pictures make a lighter animation); left out, Renderer does.
	ReplayRenderer Renderer
	// Painters bounds how many steps draw their pictures at once,
	// whatever the number of busy channels. (The renderer paints only
	// one picture at a time per four cores, a picture's canvas being the
	// largest thing a step holds; the others lay theirs out meanwhile.)
	// 0 means one per processor.
	Painters int
	// Rulesets are the rule systems games may be played by; the first is
	// the one /book open uses when no rules: option is given.
	Rulesets []engine.Ruleset
	Logger   *slog.Logger
	// Directives lets players give table directives (#seed, #stack,
	// #place…). The local table allows them; Discord does not.
	Directives bool
	// Seed returns the seed of a new game; nil draws one from crypto/rand.
	Seed func() uint64
	// SnapshotEvery is how many events pass between snapshots; 0 means
	// defaultSnapshotEvery.
	SnapshotEvery int
	// GMRole is a guild role whose members hold game-master rights at
	// every table, as members who may manage the server do.
	GMRole string
	// TurnCalls posts a message calling each player a game comes to wait
	// for (turns.go); the local table leaves it off.
	TurnCalls bool
	// WebURL is where the web server of published pages (bot/web) is
	// reached from outside, such as https://rhapsode.example.org; the
	// answer to /saga publish and /book publish gives the pages' address
	// under it.
	WebURL string
	// Token makes the unguessable part of a publication's address; nil,
	// 128 random bits. Tests set it to have the same address every run.
	Token func() string
	// Now is the clock deadlines run by; nil is time.Now.
	Now func() time.Time
	// SeenAfter is how long after a step is recorded its player may first
	// have seen its answer, on this transport: a command that names no
	// piece (and so acts for whatever its player is awaited for), made
	// sooner than that after his own last step, is refused as made before
	// he could see where that step left him: a second press of one
	// command, on a second device or to another instance. 0 counts a step
	// seen once it is recorded (the local table, which answers before it
	// reads the next line). The times compared are the transport's
	// (Request.Made) and the store's clock.
	SeenAfter time.Duration
	// ChannelLink names a channel in a message as the transport links
	// it (Discord: <#ID>, which opens the channel at its last message);
	// nil writes #name.
	ChannelLink func(guild, channel string) string
	// ReadOnly says the store cannot be written: commands that only
	// read (/status, /log, /board, /help, /measure) answer, and any
	// other is refused with a sentence saying why.
	ReadOnly bool
}

// Router runs commands against the games of many channels. It is safe for
// concurrent use, and several routers (in several processes) may share one
// store: the store's sequence check decides which of two writers wins.
type Router struct {
	cfg Config
	// rules are the rule systems of books and of campaigns, by ID;
	// chronicles the campaigns' alone.
	rules      map[string]engine.Ruleset
	chronicles []engine.Chronicle
	// tables are the table's own commands; commands, every command of
	// every rule system, merged by name.
	tables   []tableCommand
	commands []engine.CommandSpec

	// names are the players' display names, for the pictures (names.go).
	names names
	// painters holds a token for each picture being drawn (Config.Painters).
	painters chan struct{}

	mu    sync.Mutex
	locks map[channelKey]*sync.Mutex
	cache map[store.GameID]*engine.Game
	// active holds the row of each busy channel's game as this router's
	// last step there left it (handle says how it is used).
	active map[channelKey]store.Game
	// recorded holds, for each game this router last appended to, the
	// number of that append's last event and a time by which the store
	// had recorded it (sawOwnStep says how it is used).
	recorded map[store.GameID]recordedStep
	// whys are the bot's last decisions in each game, oldest first, for
	// /why (chair.go).
	whys map[store.GameID][]botWhy
	// botsDue are the channels whose books wait for the bot after a
	// request played its share of the bot's steps (CheckBots).
	botsDue map[channelKey]bool
}

type channelKey struct{ guild, channel string }

// recordedStep is the last event a router appended to a game, and a time
// by which it was recorded: read off the router's clock once the append
// had returned, so no earlier than the store's own recording time.
type recordedStep struct {
	seq engine.Seq
	by  time.Time
}

// maxCached bounds the games kept in memory between commands.
const maxCached = 256

// defaultSnapshotEvery is how many events pass between snapshots. A
// snapshot makes the next step's sync write the whole state, so rarer
// ones make steps cheaper (BenchmarkStepVsAppend); loading replays at
// most this many events after the newest one (BenchmarkLoad).
const defaultSnapshotEvery = 128

// madeWithin is how long before its arrival a request's Made is believed;
// Discord's interactions can be answered for fifteen minutes.
const madeWithin = 15 * time.Minute

// conflictRetries is how often a command is decided again after another
// writer changed its game first.
const conflictRetries = 16

// errReadOnly refuses a command that would change a game kept on a store
// that cannot be written.
var errReadOnly = engine.Refuse("", "This table's database is read-only, so nothing can be recorded: /status, /log, /board, /help and /measure still answer.")

// NewRouter returns a router over cfg.
func NewRouter(cfg Config) *Router {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.SnapshotEvery <= 0 {
		cfg.SnapshotEvery = defaultSnapshotEvery
	}
	if cfg.Seed == nil {
		cfg.Seed = randomSeed
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Painters <= 0 {
		cfg.Painters = runtime.GOMAXPROCS(0)
	}
	r := &Router{
		cfg:   cfg,
		rules: map[string]engine.Ruleset{},
		locks: map[channelKey]*sync.Mutex{},
		cache: map[store.GameID]*engine.Game{},

		active:   map[channelKey]store.Game{},
		recorded: map[store.GameID]recordedStep{},

		painters: make(chan struct{}, cfg.Painters),
	}
	for _, rs := range cfg.Rulesets {
		r.rules[rs.ID()] = rs
		if cr, ok := rs.(engine.Campaigner); ok {
			r.rules[cr.Campaign().ID()] = cr.Campaign()
			r.chronicles = append(r.chronicles, cr.Campaign())
		}
	}
	r.tables = r.table()
	all, err := r.allCommands()
	if err != nil {
		// The rule systems are compiled in: two that disagree are a bug
		// to fix before the bot starts, not a state to run in.
		panic(err)
	}
	r.commands = all
	return r
}

// opensBook reports whether the command name opens a book: one of the
// book rule systems describes it so.
func (r *Router) opensBook(name string) bool {
	for _, rs := range r.cfg.Rulesets {
		for _, s := range rs.Commands() {
			if s.Name == name && s.Is(engine.Opens) {
				return true
			}
		}
	}
	return false
}

// Spec returns the command name as the table describes it, merged over
// every rule system here, for transports that treat commands by their
// flags (a private answer, say).
func (r *Router) Spec(name string) (engine.CommandSpec, bool) {
	for _, s := range r.Commands() {
		if s.Name == name {
			return s, true
		}
	}
	return engine.CommandSpec{}, false
}

func randomSeed() uint64 {
	var b [8]byte
	crand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Handle runs one request and returns what to say. It never returns an
// error: problems become private replies in game terms, and a refused
// command changes nothing.
func (r *Router) Handle(ctx context.Context, req Request) []Reply {
	if req.arrived.IsZero() {
		req.arrived = r.cfg.Now()
	}
	if req.Made.IsZero() || req.Made.After(req.arrived) || req.arrived.Sub(req.Made) > madeWithin {
		// Made in the future, or long ago, by the transport's account:
		// a clock that disagrees with ours (or an ID made up in a test).
		req.Made = req.arrived
	}
	if req.Name != "" {
		r.names.note(req.User, req.Name)
	}
	if ix, ok := r.cfg.Store.(Interactions); ok && req.Interaction != "" {
		return r.once(ctx, ix, req)
	}
	return r.handleNow(ctx, req)
}

// handleNow handles req, however many times it has been delivered.
func (r *Router) handleNow(ctx context.Context, req Request) []Reply {
	key := channelKey{req.Guild, req.Channel}
	lock := r.channelLock(key)
	lock.Lock()
	defer lock.Unlock()

	req.Command.Actor, req.Command.Roles = req.User, req.Roles
	req.Command.Master = r.serverMaster(req)
	req.Command.Options = maps.Clone(req.Command.Options)
	err := checkInput(&req.Command)
	var replies []Reply
	if err == nil {
		replies, err = r.safely(ctx, key, req)
	}
	if err != nil {
		if ref, ok := engine.IsRefusal(err); ok {
			return []Reply{{User: req.User, Ephemeral: true, Text: ref.Error(), refused: true}}
		}
		r.cfg.Logger.ErrorContext(ctx, "command failed", "guild", req.Guild, "channel", req.Channel,
			"user", req.User, "command", req.Command.String(), "err", err)
		return []Reply{{User: req.User, Ephemeral: true,
			Text: "Something went wrong on the bot's side, and nothing was recorded. Please try again."}}
	}
	return replies
}

// safely runs handle, turning a panic in the rules into an error: a bug
// in one command must not take down the table, and nothing is recorded
// for a command that panicked.
func (r *Router) safely(ctx context.Context, key channelKey, req Request) (replies []Reply, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.forgetChannel(ctx, key)
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return r.handle(ctx, key, req)
}

// forgetChannel drops the cached game of a channel, which a panic may have
// left half-changed.
func (r *Router) forgetChannel(ctx context.Context, key channelKey) {
	if info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel); err == nil {
		r.forget(info.ID)
	}
	r.forgetActive(store.Game{Guild: key.guild, Channel: key.channel})
}

func (r *Router) channelLock(k channelKey) *sync.Mutex {
	r.mu.Lock()
	defer r.mu.Unlock()
	l, ok := r.locks[k]
	if !ok {
		l = &sync.Mutex{}
		r.locks[k] = l
	}
	return l
}

func (r *Router) handle(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	bareAnswer(&req.Command)
	c := req.Command
	if c.Directive && !r.cfg.Directives {
		return nil, engine.Refuse("", "Table directives are for the local table only.")
	}
	if tc, ok := r.tableCommand(c); ok {
		return tc.answer(ctx, key, req)
	}
	if !c.Directive && r.opensBook(c.Name) {
		return r.open(ctx, key, req)
	}
	if !c.Directive {
		if err := r.unknown(ctx, key, c); err != nil {
			return nil, err
		}
	}
	if ch, ok := r.chronicleFor(c.Name); ok && !c.Directive {
		return r.campaign(ctx, key.guild, ch, req)
	}
	// The game row remembered from this channel's last step saves a read
	// per step. It may be stale, when another instance moved the game on:
	// a step decided on it is checked by the append itself, and anything
	// else it answers by one read of the row (run says how).
	if info, ok := r.activeGame(key); ok {
		replies, err := r.run(ctx, info, req, true)
		if err == nil {
			return replies, nil
		}
		if _, ok := engine.IsRefusal(err); ok {
			return nil, err
		}
		r.forgetActive(info)
		if !errors.Is(err, errStale) {
			return nil, err
		}
	}
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book is open in this channel. Open one with /book open.")
	}
	if err != nil {
		return nil, err
	}
	r.keepActive(info)
	return r.run(ctx, info, req, false)
}

// errStale says that a game row remembered from an earlier request is no
// longer the store's, and the command must be decided on a fresh one.
var errStale = errors.New("the remembered game row is stale")

// run decides req against its game and records the result, deciding again
// on the new position when another writer wins the race. remembered says
// info was not read for this request but kept from an earlier one: a step
// decided on it is checked by the append, as any is; but should a
// refusal or an answer that records nothing come from a row the store has
// moved on from, run returns errStale instead, for the caller to decide
// the command afresh.
func (r *Router) run(ctx context.Context, info store.Game, req Request, remembered bool) ([]Reply, error) {
	raced := false
	var saw []engine.Await
	for attempt := 0; ; attempt++ {
		// An answer other than a recorded step, given on a remembered row,
		// stands only if the row is still the store's.
		unsure := remembered && attempt == 0
		answer := func(replies []Reply, err error) ([]Reply, error) {
			if unsure {
				if now, serr := r.cfg.Store.Game(ctx, info.ID); serr != nil {
					return nil, serr
				} else if now.Head != info.Head || now.Ended {
					return nil, errStale
				}
			}
			return replies, err
		}
		g, err := r.load(ctx, info)
		if err != nil {
			return nil, err
		}
		if err := r.permit(g, req); err != nil {
			return answer(nil, err)
		}
		if req.AtSeq != 0 && g.Seq != req.AtSeq && !answersTable(g, req.Command) {
			return answer(nil, engine.Refuse("", "The table has moved on since that was offered; nothing was done. Look at the table and give the command again if it still stands."))
		}
		if req.Seen != 0 && g.Seq > req.Seen {
			acted, err := r.actedSince(ctx, info.ID, req.Seen, g.Seq, req.User)
			if err != nil {
				return nil, err
			}
			if acted {
				return answer(nil, engine.Refuse("", "You have acted since that was offered; nothing was done. Look at the table and give the command again if it still stands."))
			}
		}
		// A command acts for what its player was awaited for when it
		// arrived: after a race, if that has passed, it is refused rather
		// than decided again for his next clan or turn.
		waits := awaited(g)
		now := awaitsOf(waits, req.User)
		if attempt == 0 {
			saw = now
		} else if !req.Command.Directive && !slices.EqualFunc(saw, now, engine.Await.Same) {
			return nil, engine.Refuse("", "The table changed before your command arrived: the turn it was meant for has passed, and nothing was done. Look at the table and give it again if it still stands.")
		}
		// Once the step is recorded, res.After takes g's place and g is
		// changed no more: so Advance, which keeps g's state as the state
		// before the step rather than a copy of it. (Should the step not
		// be recorded, g is as it was, and res is dropped.)
		res, err := g.Advance(req.Command)
		if err != nil {
			if ref, ok := engine.IsRefusal(err); ok && raced {
				return nil, engine.Refuse(ref.Rule, "The table changed before your command arrived, and it no longer stands: %s", ref.Text)
			}
			return answer(nil, err)
		}
		if len(res.Events) == 0 {
			return answer(r.replies(ctx, req, g, res), nil)
		}
		if req.Seen == 0 && req.AtSeq == 0 && !req.Command.Directive && len(now) > 0 && !namesPiece(g, req.Command) {
			if err := r.sawOwnStep(ctx, info.ID, g, req); err != nil {
				return answer(nil, err)
			}
		}
		t := turn{was: waits, now: awaited(res.After)}
		next, row, err := r.commit(ctx, info, g, res, t)
		if errors.Is(err, store.ErrEnded) {
			if unsure {
				// The remembered book has ended since: the command is
				// for whatever book the channel has now.
				return nil, errStale
			}
			return nil, engine.Refuse("", "The book ended before your command arrived; nothing was done.")
		}
		if errors.Is(err, store.ErrConflict) {
			if attempt == conflictRetries {
				return nil, engine.Refuse("", "The table was too busy to take your command; nothing was recorded. Please try again.")
			}
			raced = true
			if unsure {
				// The row was remembered, so the steps it missed may have
				// come before the command did: it stands for what its
				// player was awaited for when it arrived, and only steps
				// recorded after that are a race.
				if saw, raced, err = r.awaitedOnArrival(ctx, info.ID, g, req); err != nil {
					return nil, err
				}
			}
			info.Head = 0 // another writer moved it: catch up from the store
			if !raced {
				continue
			}
			if err := backoff(ctx, attempt); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		out := append(r.replies(ctx, req, next, res), r.afterStep(ctx, row, req, next, t)...)
		out = append(out, r.follow(ctx, row, next, req.Channel)...)
		return append(out, r.playBots(ctx, row, next, t.now, req.Channel)...), nil
	}
}

// awaitedOnArrival brings g, which a conflict showed to be behind the
// store, up to the last step recorded before req arrived, and returns what
// req's player was awaited for then, and whether steps were recorded
// after it arrived. Recording times come from the clocks of the processes
// that made them, so instances' clocks are taken to agree: a skew between
// them only blurs which of two steps that close together came first.
func (r *Router) awaitedOnArrival(ctx context.Context, id store.GameID, g *engine.Game, req Request) ([]engine.Await, bool, error) {
	at, err := r.cfg.Store.Recorded(ctx, id, g.Seq)
	if err != nil {
		return nil, false, err
	}
	before := 0
	for before < len(at) && !at[before].After(req.arrived) {
		before++
	}
	if before > 0 {
		if err := catchUpTo(ctx, r.cfg.Store, id, g, g.Seq+engine.Seq(before)); err != nil {
			r.forget(id) // g may be half caught up
			return nil, false, err
		}
	}
	return awaitedBy(g, req.User), before < len(at), nil
}

// lookBack is how many of a game's last events are searched for a
// player's step he may not have seen yet: a step's answer takes seconds
// to be seen, and a game records far fewer events than that in seconds.
const lookBack = 256

// namesPiece reports whether c names a piece on the table, which says what
// it is meant for whatever the table did since; a command that names none
// (aloof, done, pass, an answer) acts for whatever its player is awaited
// for.
func namesPiece(g *engine.Game, c engine.Command) bool {
	spec, ok := g.Spec(c.Name)
	if !ok {
		return true // not a command of the rules: nothing to act for
	}
	for _, o := range spec.Options {
		if o.Kind == engine.OptElement && c.Has(o.Name) {
			return true
		}
	}
	return false
}

// sawOwnStep refuses req, a command that names no piece given by a player
// the game awaits (so that it acts for whatever he is awaited for), when he
// made a step of game id (up to g) that was recorded too late for him to
// have seen its answer when he gave req (Config.SeenAfter): req was
// given for the turn that step took, not for the one it left him.
func (r *Router) sawOwnStep(ctx context.Context, id store.GameID, g *engine.Game, req Request) error {
	seen := req.Made.Add(-r.cfg.SeenAfter)
	// Most often the game's last event is older than that, and so is
	// every step before it. When this router appended that event, the
	// time it noted then says so without a read; else one row does.
	if by, ok := r.recordedBy(id, g.Seq); ok && !by.After(seen) {
		return nil
	}
	last, err := r.cfg.Store.Recorded(ctx, id, max(0, g.Seq-1))
	if err != nil {
		return err
	}
	if len(last) == 0 || !last[0].After(seen) {
		return nil
	}
	from := max(0, g.Seq-lookBack)
	at, err := r.cfg.Store.Recorded(ctx, id, from)
	if err != nil {
		return err
	}
	at = at[:min(len(at), int(g.Seq-from))]
	first := slices.IndexFunc(at, func(t time.Time) bool { return t.After(seen) })
	if first < 0 {
		return nil
	}
	recs, err := r.cfg.Store.Events(ctx, id, from+engine.Seq(first), g.Seq)
	if err != nil {
		return err
	}
	step := -1
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Step && recs[i].Actor == req.User {
			step = i
			break
		}
	}
	if step < 0 {
		return nil
	}
	return engine.Refuse("", "Your earlier command already played: %s This /%s came before you could have seen that, so nothing was done; look at the table and give it again if it still stands.",
		told(g.Rules, recs[step:], req.User), req.Command.Name)
}

// told says what the step whose records begin recs did, as its player was
// told it: the first line of its narration.
func told(rs engine.Ruleset, recs []engine.Record, user engine.PlayerID) string {
	for i, rec := range recs {
		if i > 0 && rec.Step {
			break
		}
		e, err := engine.DecodeRecord(rs, rec)
		if err != nil {
			break
		}
		for _, m := range rs.Narrate(e) {
			if m.Text != "" && (!m.Private() || m.To == user) {
				line, _, _ := strings.Cut(m.Text, "\n")
				return strings.TrimSuffix(line, ".") + "."
			}
		}
	}
	return "a step of yours."
}

// actedSince reports whether player made a step of game id after event
// seen, up to event upTo.
func (r *Router) actedSince(ctx context.Context, id store.GameID, seen, upTo engine.Seq, player engine.PlayerID) (bool, error) {
	recs, err := r.cfg.Store.Events(ctx, id, seen, upTo)
	if err != nil {
		return false, err
	}
	for _, rec := range recs {
		if rec.Step && rec.Actor == player {
			return true, nil
		}
	}
	return false, nil
}

// backoff waits a little before deciding again after a conflict, longer
// each time and by a random amount, so that two writers stop colliding.
func backoff(ctx context.Context, attempt int) error {
	d := time.Duration(1+mrand.IntN(1<<min(attempt, 5))) * time.Millisecond
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// commit appends res's events, a step of turn t (what the step's calls
// are made from; a campaign's steps call no one), after g's last event
// and, once they are durable, returns the game they make (res.After, the
// decision's working copy).
func (r *Router) commit(ctx context.Context, info store.Game, g *engine.Game, res engine.Result, t turn) (*engine.Game, store.Game, error) {
	events := res.Events
	if r.cfg.ReadOnly {
		return nil, store.Game{}, errReadOnly
	}
	recs := make([]engine.Record, len(events))
	for i, e := range events {
		rec, err := e.Record()
		if err != nil {
			return nil, store.Game{}, err
		}
		recs[i] = rec
	}
	before := g.Seq
	next := res.After
	if next == nil || next.Seq != before+engine.Seq(len(events)) {
		return nil, store.Game{}, fmt.Errorf("a decision on game %d at %d came with no game after it", info.ID, before)
	}
	row, err := r.append(ctx, info, recs, g, next, t) // games.go
	if err != nil {
		r.forgetActive(info)
		if !errors.Is(err, store.ErrConflict) {
			// The append may or may not have landed; load afresh.
			r.forget(info.ID)
		}
		return nil, store.Game{}, err
	}
	r.noteRecorded(info.ID, next.Seq)
	r.remember(info.ID, next)
	r.keepActive(row)
	r.maybeSnapshot(ctx, info.ID, before, next)
	return next, row, nil
}

func (r *Router) maybeSnapshot(ctx context.Context, id store.GameID, before engine.Seq, g *engine.Game) {
	every := engine.Seq(r.cfg.SnapshotEvery)
	if g.Seq/every == before/every {
		return
	}
	if err := SaveSnapshot(ctx, r.cfg.Store, id, g); err != nil {
		// A snapshot only saves time; the log is the truth.
		r.cfg.Logger.WarnContext(ctx, "snapshot not saved", "game", id, "seq", g.Seq, "err", err)
	}
}

// SaveSnapshot keeps game id as g has it as the store's snapshot at g's
// last event, so that loading it starts there rather than at the first.
func SaveSnapshot(ctx context.Context, st Store, id store.GameID, g *engine.Game) error {
	data, err := g.Snapshot()
	if err != nil {
		return err
	}
	return st.PutSnapshot(ctx, id, g.Seq, snapshotVersion(g.Rules), data)
}

func snapshotVersion(rs engine.Ruleset) string {
	return fmt.Sprintf("%s/%d", rs.ID(), rs.StateVersion())
}

// load returns the game as the store has it now: the cached copy or the
// newest snapshot, brought up to date with the events after it. The
// returned game belongs to the caller until it is remembered again.
func (r *Router) load(ctx context.Context, info store.Game) (*engine.Game, error) {
	rs, ok := r.rules[info.Ruleset]
	if !ok {
		return nil, fmt.Errorf("game %d is played by %q, which this bot does not know", info.ID, info.Ruleset)
	}
	g := r.cached(info.ID)
	if g == nil {
		var err error
		g, err = restore(ctx, r.cfg.Store, rs, info.ID)
		if err != nil {
			return nil, err
		}
	}
	// info was read in this request: a cached game at its head is up to
	// date, and needs no query for events after it.
	if g.Seq != info.Head || info.Head == 0 {
		if err := catchUp(ctx, r.cfg.Store, info.ID, g); err != nil {
			return nil, err
		}
	}
	r.remember(info.ID, g)
	return g, nil
}

// restore builds a game from its newest usable snapshot, or from nothing.
func restore(ctx context.Context, st Store, rs engine.Ruleset, id store.GameID) (*engine.Game, error) {
	_, data, err := st.Snapshot(ctx, id, engine.Seq(1<<62), snapshotVersion(rs))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return engine.NewGame(rs), nil
	case err != nil:
		return nil, err
	}
	g, err := engine.Restore(rs, data)
	if err != nil {
		// A snapshot that does not read is no reason to lose the game:
		// the log still has every event.
		return engine.NewGame(rs), nil
	}
	return g, nil
}

// catchUp applies the events recorded after g's last one.
func catchUp(ctx context.Context, st Store, id store.GameID, g *engine.Game) error {
	return catchUpTo(ctx, st, id, g, 0)
}

// catchUpTo applies the events recorded after g's last one up to event
// upTo, which ends a step (0: up to the last).
func catchUpTo(ctx context.Context, st Store, id store.GameID, g *engine.Game, upTo engine.Seq) error {
	recs, err := st.Events(ctx, id, g.Seq, upTo)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		e, err := engine.DecodeRecord(g.Rules, rec)
		if err != nil {
			return err
		}
		if err := g.Apply(e); err != nil {
			return err
		}
	}
	if len(recs) > 0 {
		// The store holds whole steps, so the last applied ends one:
		// keep the step before it as compactly as the rules allow.
		g.Compact()
	}
	return nil
}

// Load rebuilds game id as the router does: from its newest usable
// snapshot and the events after it.
func Load(ctx context.Context, st Store, rs engine.Ruleset, id store.GameID) (*engine.Game, error) {
	g, err := restore(ctx, st, rs, id)
	if err != nil {
		return nil, err
	}
	return g, catchUp(ctx, st, id, g)
}

// Replay rebuilds game id from its whole log, ignoring snapshots. Tests
// and the crash check compare it with what [Load] gives.
func Replay(ctx context.Context, st Store, rs engine.Ruleset, id store.GameID) (*engine.Game, error) {
	g := engine.NewGame(rs)
	return g, catchUp(ctx, st, id, g)
}

func (r *Router) cached(id store.GameID) *engine.Game {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.cache[id]
	delete(r.cache, id)
	return g
}

func (r *Router) remember(id store.GameID, g *engine.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	putBounded(r.cache, id, g)
}

// putBounded sets m[k] to v, first dropping some other entry if m holds
// maxCached already.
func putBounded[K comparable, V any](m map[K]V, k K, v V) {
	if _, ok := m[k]; !ok && len(m) >= maxCached {
		for old := range m {
			delete(m, old)
			break
		}
	}
	m[k] = v
}

func (r *Router) forget(id store.GameID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.cache, id)
}

// activeGame returns the row of the channel's active game as the last
// step this router recorded there left it, if it has one.
func (r *Router) activeGame(key channelKey) (store.Game, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.active[key]
	return g, ok
}

// keepActive remembers g as its channel's active game, or forgets the
// channel's row once g has ended.
func (r *Router) keepActive(g store.Game) {
	key := channelKey{g.Guild, g.Channel}
	r.mu.Lock()
	defer r.mu.Unlock()
	if g.Ended {
		delete(r.active, key)
		return
	}
	putBounded(r.active, key, g)
}

// noteRecorded notes that this router's append to game id, ending at
// event seq, has returned: the store recorded it by now. (The router's
// clock and the store's are one clock: time.Now, or a test's fake clock
// set on both.)
func (r *Router) noteRecorded(id store.GameID, seq engine.Seq) {
	by := r.cfg.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	putBounded(r.recorded, id, recordedStep{seq: seq, by: by})
}

// recordedBy returns a time by which game id's event seq was recorded,
// if it is the last this router appended there.
func (r *Router) recordedBy(id store.GameID, seq engine.Seq) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rs, ok := r.recorded[id]
	if !ok || rs.seq != seq {
		return time.Time{}, false
	}
	return rs.by, true
}

// forgetActive drops the remembered row of g's channel.
func (r *Router) forgetActive(g store.Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.active, channelKey{g.Guild, g.Channel})
}

// replies turns a decided command into messages: the narration of its
// events and what the rule system said, public lines in one reply and
// private lines in one reply per player. When the step changed the game
// and a renderer is set, the public reply carries the board as it now is.
func (r *Router) replies(ctx context.Context, req Request, g *engine.Game, res engine.Result) []Reply {
	var msgs []engine.Message
	for _, e := range res.Events {
		msgs = append(msgs, g.Rules.Narrate(e)...)
	}
	msgs = append(msgs, res.Messages...)
	out := group(req.User, msgs)
	for i := range out {
		out[i].Seq = g.Seq
	}
	if len(res.Events) > 0 && !nothingToDraw(res.Events) {
		if pic := r.picture(ctx, g, res.Events); pic != nil {
			if len(out) == 0 || out[0].Ephemeral {
				out = append([]Reply{{User: req.User}}, out...)
			}
			out[0].Image = pic
		}
	}
	return out
}

// nothingToDraw reports whether events only set the table's random
// source (#seed, #stack, #load), seal a player's secret choice (a
// written order, a melee deployment indicator, a command waiting for the
// table's draws) or take a draw entered at the table: nothing on the
// board changed, and a picture would repeat the last one.
func nothingToDraw(events []engine.Event) bool {
	for _, e := range events {
		switch e.Body.(type) {
		case engine.Seeded, engine.Stacked, engine.Loaded, engine.Sealed, engine.Entered, engine.DiceFrom:
		default:
			return false
		}
	}
	return true
}

// picture draws g's board with the last step on it, or returns nil when
// there is no renderer, the rules have no board, or the board is not set
// out yet. A picture that fails to draw is logged and left out: the step
// itself is already recorded.
func (r *Router) picture(ctx context.Context, g *engine.Game, last []engine.Event) []byte {
	viewer, ok := g.Rules.(engine.Viewer)
	if r.cfg.Renderer == nil || !ok {
		return nil
	}
	v := viewer.View(g, last)
	if v.Width <= 0 || v.Depth <= 0 {
		return nil
	}
	r.names.view(&v)
	select {
	case r.painters <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	pic, err := r.cfg.Renderer.PNG(v)
	<-r.painters
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "board not drawn", "rules", g.Rules.ID(), "seq", g.Seq, "err", err)
		return nil
	}
	return pic
}

func group(user engine.PlayerID, msgs []engine.Message) []Reply {
	var public []string
	var buttons []engine.Button
	private := map[engine.PlayerID][]string{}
	var order []engine.PlayerID
	for _, m := range msgs {
		if m.Text == "" {
			continue
		}
		if !m.Private() {
			public = append(public, m.Text)
			for _, b := range m.Buttons {
				// A question put to the bot is answered by it at once:
				// no one else may press its buttons.
				if _, bot := engine.IsBot(b.For); !bot {
					buttons = append(buttons, b)
				}
			}
			continue
		}
		if _, ok := private[m.To]; !ok {
			order = append(order, m.To)
		}
		private[m.To] = append(private[m.To], m.Text)
	}
	var out []Reply
	if len(public) > 0 {
		out = append(out, Reply{User: user, Text: strings.Join(public, "\n"), Buttons: buttons})
	}
	for _, p := range order {
		out = append(out, Reply{User: p, Ephemeral: true, Text: strings.Join(private[p], "\n")})
	}
	return out
}
