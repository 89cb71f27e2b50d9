package bot

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// interloper is the real store with one twist: just before its first
// append it lets another writer act, as a second process might.
type interloper struct {
	Store
	once  sync.Once
	first func()
}

func (s *interloper) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	s.once.Do(s.first)
	return s.Store.Append(ctx, id, expect, recs, end)
}

var practiceSetup = []string{
	"@alice /book open mode:practice",
	"#seed 11",
	"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
	"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling,spear",
	"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
	"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,spear,javelin",
	// Myrmidons first, then Achaeans, Lycians, Trojans.
	"#stack sequence KS 7H 2D QC",
	"@alice /book start",
}

func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// do runs one line on r. Lines in these tests all name their player, or
// follow one that does (lastUser).
func do(t testing.TB, r *Router, line string) []Reply {
	t.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: l.User, Command: l.Command})
}

func doAll(t testing.TB, r *Router, lines []string) {
	t.Helper()
	user := engine.PlayerID("")
	for _, line := range lines {
		l, err := engine.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		if l.User != "" {
			user = l.User
		}
		reps := r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: user, Command: l.Command})
		if len(reps) == 0 || reps[0].Ephemeral {
			t.Fatalf("%s: %+v", line, reps)
		}
	}
}

// twoRouters sets up a practice book and returns two routers on the same
// database, as two processes would have; the second's store lets first
// run just before its first append.
func twoRouters(t *testing.T, first func(a *Router)) (a, b *Router, st *store.Store) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "race.db")
	st = openStore(t, db)
	a = NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(t, a, practiceSetup)
	il := &interloper{Store: openStore(t, db), first: func() { first(a) }}
	b = NewRouter(Config{Store: il, Rulesets: rulesets(), Directives: true})
	return a, b, st
}

func kinds(t *testing.T, st *store.Store) []string {
	t.Helper()
	info, err := st.LatestGame(context.Background(), "g", "c")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.Events(context.Background(), info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, r := range recs {
		if r.Seq != engine.Seq(i+1) {
			t.Fatalf("event %d has sequence number %d", i+1, r.Seq)
		}
		out = append(out, r.Kind)
	}
	return out
}

// TestLoserIsToldTheBoardChanged: alice presses two buttons at once in two
// places. One step wins; the other, decided again on the new position,
// is no longer her turn, and she is told so, privately. Nothing is lost
// or doubled.
func TestLoserIsToldTheBoardChanged(t *testing.T) {
	var won []Reply
	_, b, st := twoRouters(t, func(a *Router) { won = do(t, a, "@alice /aloof") })
	before := len(kinds(t, st))
	lost := do(t, b, "@alice /move element:MYR-W1 to:13,11")
	if len(won) == 0 || won[0].Ephemeral || !strings.Contains(won[0].Text, "Myrmidons stand aloof") {
		t.Fatalf("the first press was not applied: %+v", won)
	}
	if len(lost) != 1 || !lost[0].Ephemeral || lost[0].User != "alice" ||
		!strings.Contains(lost[0].Text, "The table changed before your command arrived") ||
		!strings.Contains(lost[0].Text, "turn") {
		t.Fatalf("the loser was not told the board changed: %+v", lost)
	}
	got := kinds(t, st)[before:]
	if len(got) != 1 || got[0] != "gwab.stood-aloof" {
		t.Fatalf("the log gained %v, want only the aloof", got)
	}
}

// TestLoserStillValidIsApplied: when the losing command still stands on
// the new position, it is applied after the winner, in order.
func TestLoserStillValidIsApplied(t *testing.T) {
	_, b, st := twoRouters(t, func(a *Router) { do(t, a, "@alice /aloof") })
	before := len(kinds(t, st))
	reps := do(t, b, "@bob #stack combat KS")
	if len(reps) == 0 || reps[0].Ephemeral || !strings.Contains(reps[0].Text, "stacked: KS") {
		t.Fatalf("the still-valid command was not applied: %+v", reps)
	}
	got := kinds(t, st)[before:]
	if len(got) != 2 || got[0] != "gwab.stood-aloof" || got[1] != "table.stacked" {
		t.Fatalf("the log gained %v, want the aloof then the stack", got)
	}
}

// TestManyWritersOneLog: two routers on one database, each driven by two
// goroutines at once. Every command is answered and recorded exactly
// once, and the log stays contiguous.
func TestManyWritersOneLog(t *testing.T) {
	db := filepath.Join(t.TempDir(), "many.db")
	routers := []*Router{
		NewRouter(Config{Store: openStore(t, db), Rulesets: rulesets(), Directives: true, Logger: testLogger(t)}),
		NewRouter(Config{Store: openStore(t, db), Rulesets: rulesets(), Directives: true, Logger: testLogger(t)}),
	}
	doAll(t, routers[0], practiceSetup[:2])
	before := len(kinds(t, openStore(t, db)))
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan string, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := routers[w%2]
			for i := range each {
				// Each writer stacks a card no other writer uses, so
				// every step can be found in the log.
				card := engine.NewCard(engine.Rank(2+i%13), engine.Suit(1+w))
				reps := do(t, r, fmt.Sprintf("@p%d #stack combat %s", w, card))
				if len(reps) != 1 || reps[0].Ephemeral {
					errs <- fmt.Sprintf("writer %d step %d: %+v", w, i, reps)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	got := kinds(t, openStore(t, db))[before:]
	if len(got) != writers*each {
		t.Fatalf("the log gained %d events for %d answered commands", len(got), writers*each)
	}
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}

// TestTwoWritersOneTurnEach: the player whose turn it is sends /aloof
// from two places at once, again and again, to two routers on one
// database. Both commands arrive for the same turn; one stands the clan
// aloof and the other is refused, never carried over to the player's
// next clan when he has the turn after too.
func TestTwoWritersOneTurnEach(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "two.db")
	// Both commands of a run arrive before either is recorded: each
	// writer's append waits, up to a second, for the other's.
	ga, gb := &gate{Store: openStore(t, db)}, &gate{Store: openStore(t, db)}
	both := &meeting{}
	ga.at, gb.at = both, both
	a := NewRouter(Config{Store: ga, Rulesets: rulesets(), Directives: true})
	b := NewRouter(Config{Store: gb, Rulesets: rulesets(), Directives: true})
	doAll(t, a, practiceSetup)
	const runs = 200
	twice, steps := 0, 0
	for run := range runs {
		info, err := a.cfg.Store.ActiveGame(ctx, "g", "c")
		if err != nil {
			t.Fatal(err)
		}
		g, err := a.load(ctx, info)
		if err != nil {
			t.Fatal(err)
		}
		aw := awaited(g)
		if len(aw) == 0 {
			t.Logf("the book waits for no one after %d runs", run)
			break
		}
		line := fmt.Sprintf("@%s /aloof", aw[0].Player)
		both.reset(2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		acks := make([]bool, 2)
		for w, r := range []*Router{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				reps := do(t, r, line)
				acks[w] = len(reps) > 0 && !reps[0].Ephemeral
			}()
		}
		close(start)
		wg.Wait()
		switch {
		case acks[0] && acks[1]:
			twice++
			steps += 2
		case acks[0] || acks[1]:
			steps++
		default:
			t.Fatalf("run %d: neither %s was taken", run, line)
		}
	}
	both.reset(0)
	t.Logf("%d runs of two writers: %d steps, %d turns acknowledged twice", runs, steps, twice)
	if twice > 0 {
		t.Errorf("%d turns were acknowledged twice", twice)
	}
}

// TestButtonAfterOwnStepIsRefused: a button offered before its player
// made a step is refused, rather than acting for his next clan; other
// players' steps since do not stale it.
func TestButtonAfterOwnStepIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "seen.db")
	r := NewRouter(Config{Store: openStore(t, db), Rulesets: rulesets(), Directives: true})
	doAll(t, r, practiceSetup)
	offered := do(t, r, "@alice #stack combat 2C")[0].Seq
	press := func(line string) []Reply {
		l, err := engine.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		return r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: l.User, Command: l.Command, Seen: offered})
	}
	// The Myrmidons (alice's) stand aloof; then the Achaeans' (bob's)
	// press, offered before, still acts.
	if reps := press("@alice /aloof"); len(reps) == 0 || reps[0].Ephemeral {
		t.Fatalf("alice's first press: %+v", reps)
	}
	if reps := press("@bob /aloof"); len(reps) == 0 || reps[0].Ephemeral {
		t.Fatalf("bob's press after alice's step: %+v", reps)
	}
	// It is the Lycians' turn, alice's again; her old press is refused.
	reps := press("@alice /aloof")
	if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "acted since") {
		t.Fatalf("alice's second press: %+v", reps)
	}
}

// meeting holds appends until n have come, or a second has passed.
type meeting struct {
	mu      sync.Mutex
	n       int
	release chan struct{}
}

func (m *meeting) reset(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n, m.release = n, make(chan struct{})
	if n <= 0 {
		close(m.release)
	}
}

func (m *meeting) arrive() {
	m.mu.Lock()
	if m.release == nil {
		m.mu.Unlock()
		return
	}
	m.n--
	ch := m.release
	if m.n == 0 {
		close(ch)
	}
	m.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(time.Second):
	}
}

// gate is the real store whose appends meet at a meeting first.
type gate struct {
	Store
	at *meeting
}

func (g *gate) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	g.at.arrive()
	return g.Store.Append(ctx, id, expect, recs, end)
}

// TestInstancesTakeTurnsOnOneChannel: the players of one book are served
// by two routers on one database in turn, so that each decides on a game
// row it remembered from its own last step while the other has moved
// the game on since. Every command is taken once, for the turn it was
// given in: the steps a remembered row missed came before the command,
// so they are no race, whether the rules award the turn to another
// player or to the same one again; and a reading command answers from
// the game as the store has it.
func TestInstancesTakeTurnsOnOneChannel(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "turns.db")
	st := openStore(t, db)
	a := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	b := NewRouter(Config{Store: openStore(t, db), Rulesets: rulesets(), Directives: true})
	fresh := func() *Router { return NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true}) }
	doAll(t, a, practiceSetup)
	routers := []*Router{a, b}
	steps := 0
	for turn := range 40 {
		info, err := st.ActiveGame(ctx, "g", "c")
		if err != nil {
			t.Fatal(err)
		}
		g, err := Load(ctx, st, rulesets()[0], info.ID)
		if err != nil {
			t.Fatal(err)
		}
		aw := awaited(g)
		if len(aw) == 0 {
			break
		}
		r := routers[turn%2]
		line := fmt.Sprintf("@%s /aloof", aw[0].Player)
		reps := do(t, r, line)
		if len(reps) == 0 || reps[0].Ephemeral {
			t.Fatalf("turn %d: %s was not taken: %+v", turn, line, reps)
		}
		steps++
		after, err := st.ActiveGame(ctx, "g", "c")
		if err != nil {
			t.Fatal(err)
		}
		if after.Head <= info.Head {
			t.Fatalf("turn %d: %s was answered but nothing was recorded", turn, line)
		}
		// Now and then the other router, whose row is behind, is asked
		// to read the game: it answers as the store has it, as a router
		// with no row remembered does. (A read brings its row up to
		// date, so it is not asked every turn.)
		if turn%5 == 4 {
			want := do(t, fresh(), "/status")
			got := do(t, routers[1-turn%2], "/status")
			if len(got) != 1 || len(want) != 1 || got[0].Text != want[0].Text {
				t.Fatalf("turn %d: /status on the router behind reads\n%+v\nwhere the store's game reads\n%+v", turn, got, want)
			}
		}
	}
	if steps < 20 {
		t.Fatalf("only %d steps were played", steps)
	}
	// A step of a clan, each taken once: the log has one aloof per step.
	n := 0
	for _, k := range kinds(t, st) {
		if strings.HasSuffix(k, "aloof") {
			n++
		}
	}
	if n != steps {
		t.Errorf("the log has %d aloof steps for %d commands taken", n, steps)
	}
	t.Logf("%d steps over two routers", steps)
}

// held is the real store whose first call of the kind named waits until
// the test lets it on: a second table that has taken a command but not
// yet read the game (hold "read") or not yet recorded its step (hold
// "append") while another table records one.
type held struct {
	Store
	hold  string
	wait  chan struct{}
	begun chan struct{}
	once  sync.Once
}

func (h *held) stop(kind string) {
	if kind == h.hold {
		h.once.Do(func() {
			close(h.begun)
			<-h.wait
		})
	}
}

func (h *held) ActiveGame(ctx context.Context, guild, channel string) (store.Game, error) {
	h.stop("read")
	return h.Store.ActiveGame(ctx, guild, channel)
}

func (h *held) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	h.stop("append")
	return h.Store.Append(ctx, id, expect, recs, end)
}

// TestTwoTablesOneBookNoNextClan: two local tables play one book, and the
// Myrmidons and then the Lycians, both alice's, are next. She gives
// /aloof at both tables at once. Whichever way the second table's
// command meets the first's step (it reads the game after the step is
// recorded, or decides before and records after), it was given before
// that step was recorded, and it is refused: nothing is played for the
// Lycians. Given at the second table after the step, it plays.
func TestTwoTablesOneBookNoNextClan(t *testing.T) {
	for _, hold := range []string{"read", "append", ""} {
		t.Run("held at "+hold, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "tables.db")
			// A fake clock that moves on a millisecond each time it is read,
			// shared by both tables and their stores.
			var ticks atomic.Int64
			clock := func() time.Time {
				return time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC).Add(time.Duration(ticks.Add(1)) * time.Millisecond)
			}
			sta, stb := openStore(t, db), openStore(t, db)
			sta.Now, stb.Now = clock, clock
			h := &held{Store: stb, hold: hold, wait: make(chan struct{}), begun: make(chan struct{})}
			a := NewRouter(Config{Store: sta, Rulesets: rulesets(), Directives: true, Now: clock})
			b := NewRouter(Config{Store: h, Rulesets: rulesets(), Directives: true, Now: clock})
			setup := slices.Clone(practiceSetup)
			setup[len(setup)-2] = "#stack sequence KS QS 10S 9S" // Myrmidons, Lycians, Trojans, Achaeans
			doAll(t, a, setup)
			table := func(r *Router) *Local {
				return &Local{Router: r, Guild: "g", Channel: "c"}
			}
			var second strings.Builder
			done := make(chan error)
			if hold != "" {
				go func() { done <- table(b).Run(context.Background(), strings.NewReader("@alice /aloof\n"), &second) }()
				<-h.begun
			}
			var first strings.Builder
			if err := table(a).Run(context.Background(), strings.NewReader("@alice /aloof\n"), &first); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(first.String(), "The Myrmidons stand aloof") {
				t.Fatalf("the first table answered %q", first.String())
			}
			if hold != "" {
				close(h.wait)
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			} else if err := table(b).Run(context.Background(), strings.NewReader("@alice /aloof\n"), &second); err != nil {
				t.Fatal(err)
			}
			lycians := strings.Count(strings.Join(kinds(t, sta), " "), "stood-aloof") - 1
			if hold == "" {
				if lycians != 1 || !strings.Contains(second.String(), "The Lycians stand aloof") {
					t.Errorf("given after the first table's step, the second table answered %q", second.String())
				}
				return
			}
			want := map[string]string{"read": "(to alice only) Your earlier command already played: The Myrmidons stand aloof",
				"append": "(to alice only) The table changed before your command arrived"}[hold]
			if lycians != 0 || !strings.Contains(second.String(), want) {
				t.Errorf("the second table answered %q, and %d steps were played for the Lycians", second.String(), lycians)
			}
		})
	}
}
