package bot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// weeks is a server whose books run over weeks, on a clock the test
// moves: a router (started again at will, as after a restart) on one
// SQLite database.
type weeks struct {
	t   *testing.T
	cfg Config
	r   *Router
	now time.Time
	mu  sync.Mutex
}

func newWeeks(t *testing.T) *weeks {
	w := &weeks{t: t, now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	st := openStore(t, filepath.Join(t.TempDir(), "weeks.db"))
	// The store dates steps by the same clock: the double-press check
	// compares a command's time with when its player's last step was
	// recorded.
	st.Now = w.clock
	w.cfg = Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Directives: true, TurnCalls: true,
		Now: w.clock, Logger: testLogger(t)}
	w.r = NewRouter(w.cfg)
	return w
}

func (w *weeks) clock() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

func (w *weeks) advance(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.now = w.now.Add(d)
}

// restart starts the router afresh on the same database.
func (w *weeks) restart() { w.r = NewRouter(w.cfg) }

// in runs line in channel as its @user (admin: one who may manage the
// server).
func (w *weeks) in(channel, line string, admin bool) []Reply {
	w.t.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.r.Handle(context.Background(), Request{Guild: "g", Channel: channel, User: l.User, Command: l.Command, Admin: admin})
}

// setup plays lines in channel, each of which must be taken.
func (w *weeks) setup(channel string, lines []string) {
	w.t.Helper()
	user := ""
	for _, line := range lines {
		if strings.HasPrefix(line, "@") {
			user = strings.Fields(line)[0]
		} else {
			line = user + " " + line
		}
		if reps := w.in(channel, line, false); len(reps) == 0 || reps[0].Ephemeral {
			w.w(line, reps)
		}
	}
}

func (w *weeks) w(line string, reps []Reply) {
	w.t.Helper()
	w.t.Fatalf("%s: %+v", line, reps)
}

// private runs line and returns its one private answer.
func (w *weeks) private(channel, line string, admin bool) string {
	w.t.Helper()
	reps := w.in(channel, line, admin)
	if len(reps) != 1 || !reps[0].Ephemeral {
		w.t.Fatalf("%s: want one private answer, got %+v", line, reps)
	}
	return reps[0].Text
}

func (w *weeks) reminders() []Reply {
	w.t.Helper()
	out, err := w.r.CheckReminders(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

func (w *weeks) deadlines() []Reply {
	w.t.Helper()
	out, err := w.r.CheckDeadlines(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return out
}

func mustContain(t *testing.T, what, text string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Fatalf("%s does not say %q:\n%s", what, p, text)
		}
	}
}

// TestGames: /games tells each player where he is awaited and where he
// plays, with since when and the deadline; /games server:yes shows a game
// master every book with who holds it up and how long it has been idle,
// and is refused to a player who is no game master.
func TestGames(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", practiceSetup)
	w.advance(time.Hour)
	w.setup("plain", practiceSetup)
	w.setup("plain", []string{"@alice /aloof"}) // the plain now waits for bob
	w.setup("troy", []string{"@alice /book deadline hours:24"})
	w.advance(2 * time.Hour)

	alice := w.private("elsewhere", "@alice /games", false)
	mustContain(t, "alice's /games", alice,
		"Your books in this server (2):",
		"- #troy, Gang Warfare in the Age of Bronze: waits for you to take the Myrmidons' turn, for 3 hours; deadline in 22 hours (Tue 24 Nov 13:00 UTC).",
		"- #plain, Gang Warfare in the Age of Bronze: you play; it waits for bob (for 2 hours).")
	if strings.Index(alice, "#troy") > strings.Index(alice, "#plain") {
		t.Errorf("the book awaiting alice is not listed first:\n%s", alice)
	}
	bob := w.private("troy", "@bob /games", false)
	mustContain(t, "bob's /games", bob, "#plain, Gang Warfare in the Age of Bronze: waits for you to take the Achaeans' turn, for 2 hours", "#troy, Gang Warfare in the Age of Bronze: you play; it waits for alice (for 3 hours)")
	if got := w.private("troy", "@carol /games", false); got != "You are in no open book of this server." {
		t.Errorf("carol's /games: %q", got)
	}
	if got := w.private("troy", "@carol /games server:yes", false); !strings.HasPrefix(got, "/games server:yes is for game masters") {
		t.Errorf("carol's /games server:yes without rights: %q", got)
	}
	server := w.private("troy", "@carol /games server:yes", true)
	mustContain(t, "the server's /games", server,
		"Every open book of the server (2):",
		"- #troy, Gang Warfare in the Age of Bronze, game master alice: held up by alice (for 3 hours); idle for 3 hours; deadline in 22 hours",
		"- #plain, Gang Warfare in the Age of Bronze, game master alice: held up by bob (for 2 hours); idle for 2 hours.")
	if got := w.private("troy", "@alice /games server:yes", false); !strings.HasPrefix(got, "Every open book") {
		t.Errorf("a book's game master was refused /games server:yes: %q", got)
	}
	if got := w.private("troy", "@alice /games server:maybe", false); !strings.Contains(got, "server: answer yes or no") {
		t.Errorf("/games server:maybe: %q", got)
	}
	w.setup("troy", []string{"@alice /book end"})
	if got := w.private("troy", "@alice /games", false); strings.Contains(got, "#troy") {
		t.Errorf("an ended book is still listed:\n%s", got)
	}
}

// TestReminderLadder: a book's ladder of 24 and 4 hours before a
// two-day deadline reminds the awaited player once per rung, across a
// restart of the bot half way; none reaches him in his quiet hours (the
// rung waits for their end), and a player who asked for direct messages
// gets his there.
func TestReminderLadder(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", practiceSetup) // 12:00: the Myrmidons (alice) are awaited
	w.setup("troy", []string{"@alice /book deadline hours:48"})
	if got := w.in("troy", `@bob /book reminders ladder:"24h 4h"`, false); !refused(got) || !strings.Contains(got[0].Text, "Only the book's game master") {
		t.Fatalf("a player set the book's reminders: %+v", got)
	}
	if got := w.in("troy", `@alice /book reminders ladder:"soon"`, false); !refused(got) || !strings.Contains(got[0].Text, "ladder: give the times") {
		t.Fatalf("a ladder that does not read: %+v", got)
	}
	got := w.in("troy", `@alice /book reminders ladder:"4h 24h"`, false)
	if len(got) != 1 || got[0].Ephemeral || got[0].Text != "The game master sets this book's reminders: a reminder 24 hours and 4 hours before the deadline (24h 4h). Each goes once to the players awaited, never in their quiet hours nor while they are away." {
		t.Fatalf("/book reminders: %+v", got)
	}
	w.private("troy", "@alice /me set zone:UTC+1 quiet:8-10", false)

	w.advance(23 * time.Hour)
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("a reminder before its time: %+v", out)
	}
	w.advance(time.Hour + 2*time.Minute) // 24h before the deadline has passed
	out := w.reminders()
	if len(out) != 1 || out[0].Channel != "troy" || out[0].Ephemeral || !slices.Equal(out[0].Mentions, []engine.PlayerID{"alice"}) ||
		out[0].Text != "Reminder: alice, the book in #troy has waited for you for 24 hours. Your time runs out in 24 hours." {
		t.Fatalf("the first rung: %+v", out)
	}
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("the first rung came twice: %+v", out)
	}
	w.restart()
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("after a restart the first rung came again: %+v", out)
	}
	// The 4-hour rung is due at 08:00 UTC, 09:00 in alice's zone: in her
	// quiet hours, which end at 10:00 there.
	w.advance(20 * time.Hour)
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("a reminder in alice's quiet hours: %+v", out)
	}
	w.advance(time.Hour)
	out = w.reminders()
	if len(out) != 1 || !strings.HasPrefix(out[0].Text, "Reminder: alice") || !strings.HasSuffix(out[0].Text, "Your time runs out in 3 hours.") {
		t.Fatalf("the second rung, after the quiet hours: %+v", out)
	}
	w.restart()
	w.advance(time.Hour)
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("the second rung came again: %+v", out)
	}

	// bob is called by direct message, and reminded there, every 2 hours
	// of a book without a deadline (the server's ladder).
	w.private("troy", "@bob /me set dm:yes", false)
	w.setup("troy", []string{"@alice /book deadline hours:0"})
	if got := w.in("troy", `@alice /book reminders ladder:"every 2h" default:yes`, false); !refused(got) {
		t.Fatalf("a book's game master set the server's ladder: %+v", got)
	}
	if got := w.in("troy", `@carol /book reminders ladder:"every 2h" default:yes`, true); len(got) != 1 || got[0].Ephemeral {
		t.Fatalf("the server's ladder: %+v", got)
	}
	w.setup("troy", []string{`@alice /book reminders ladder:off`})
	reps := w.in("troy", "@alice /aloof", false)
	var calls []Reply
	for _, rep := range reps {
		if rep.Channel != "" {
			calls = append(calls, rep)
		}
	}
	if len(calls) != 2 || len(calls[0].Mentions) != 0 || !strings.HasPrefix(calls[0].Text, "bob, the table waits for you") ||
		!calls[1].Ephemeral || calls[1].User != "bob" || calls[1].Text != "The book in #troy waits for you to take the Achaeans' turn." {
		t.Fatalf("bob's turn call, by direct message: %+v", calls)
	}
	w.advance(2*time.Hour + time.Minute)
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("the book's ladder is off, yet: %+v", out)
	}
	w.setup("troy", []string{`@alice /book reminders ladder:"every 2h"`})
	out = w.reminders()
	if len(out) != 1 || !out[0].Ephemeral || out[0].User != "bob" || len(out[0].Mentions) != 0 || !strings.HasPrefix(out[0].Text, "Reminder: bob, the book in #troy has waited for you for 2 hours.") {
		t.Fatalf("bob's reminder by direct message: %+v", out)
	}
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("bob's reminder came twice: %+v", out)
	}
	w.advance(2 * time.Hour)
	if out := w.reminders(); len(out) != 1 {
		t.Fatalf("two hours on, bob's second reminder: %+v", out)
	}
}

// TestAway: /away marks a player away everywhere: the turn call and
// /games say so and ping him not, no reminder reaches him, and the
// deadline of a book that waits for him stops, the time he had left
// running again from /back.
func TestAway(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", practiceSetup) // 12:00: alice is awaited
	w.setup("troy", []string{"@alice /book deadline hours:4", `@alice /book reminders ladder:"1h"`})
	w.advance(time.Hour)
	for _, bad := range []string{"@alice /away until:someday", "@alice /away until:2020-01-01", "@alice /away until:90d"} {
		if got := w.private("troy", bad, false); !strings.HasPrefix(got, "until:") {
			t.Errorf("%s: %q", bad, got)
		}
	}
	if got := w.private("troy", "@alice /back", false); got != "You are not away: /away until: says you are." {
		t.Errorf("/back before /away: %q", got)
	}
	got := w.private("troy", `@alice /away until:2d note:"at sea"`, false)
	if got != "You are away until Wed 25 Nov 13:00 UTC (at sea). No reminder will reach you, and the deadlines of 1 book waiting for you pause until then; /back ends it sooner." {
		t.Fatalf("/away: %q", got)
	}
	mustContain(t, "bob's /games", w.private("troy", "@bob /games", false), "it waits for alice (for 1 hour; away until Wed 25 Nov 13:00 UTC (at sea))")
	w.advance(5 * time.Hour)
	if out := w.deadlines(); len(out) != 0 {
		t.Fatalf("the deadline ran while alice was away: %+v", out)
	}
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("a reminder reached alice while away: %+v", out)
	}
	w.advance(12 * time.Hour) // 06:00 on the 24th
	if got := w.private("troy", "@alice /back", false); got != "Welcome back: reminders reach you again, and the deadlines of 1 book waiting for you run again from now." {
		t.Fatalf("/back: %q", got)
	}
	w.advance(2*time.Hour + 1*time.Minute) // an hour before her 3 hours left run out
	if out := w.reminders(); len(out) != 1 || !strings.HasSuffix(out[0].Text, "Your time runs out in 59 minutes.") {
		t.Fatalf("the reminder after /back: %+v", out)
	}
	// bob goes away for a day; when alice's time runs out, his turn
	// comes: the table says he is away, pings him not, and his clock
	// starts when he is back.
	if got := w.private("troy", "@bob /away until:1d", false); got != "You are away until Wed 25 Nov 08:01 UTC. No reminder will reach you; /back ends it sooner." {
		t.Fatalf("bob's /away: %q", got)
	}
	w.advance(time.Hour)
	out := w.deadlines()
	if len(out) < 2 || !strings.HasPrefix(out[0].Text, "Time is up for the Myrmidons (alice)") {
		t.Fatalf("the deadline after /back: %+v", out)
	}
	var call *Reply
	for i, rep := range out {
		if strings.HasPrefix(rep.Text, "bob, the table waits") {
			call = &out[i]
		}
	}
	if call == nil || len(call.Mentions) != 0 || call.Text != "bob, the table waits for you to take the Achaeans' turn. bob is away until Wed 25 Nov 08:01 UTC; the deadline, if any, waits for his return." {
		t.Fatalf("bob's turn call while away: %+v", out)
	}
	w.restart()
	mustContain(t, "carol's view", w.private("troy", "@carol /games server:yes", true),
		"held up by bob (for less than a minute; away until Wed 25 Nov 08:01 UTC); idle for less than a minute; deadline in 27 hours (Wed 25 Nov 12:01 UTC).")
	w.advance(20 * time.Hour)
	if out := w.deadlines(); len(out) != 0 {
		t.Fatalf("bob's clock ran while he was away: %+v", out)
	}
	w.advance(6*time.Hour + time.Minute)
	if out := w.deadlines(); len(out) == 0 || !strings.HasPrefix(out[0].Text, "Reminder: ") {
		t.Fatalf("bob's deadline reminder, three hours after his return: %+v", out)
	}
}

// TestStats: /me stats gives the median and 90th percentile of a
// player's time from being called to acting, and how his books ended.
func TestStats(t *testing.T) {
	w := newWeeks(t)
	if got := w.private("troy", "@alice /me stats", false); got != "You have answered no call here yet." {
		t.Fatalf("stats before any book: %q", got)
	}
	w.setup("troy", practiceSetup)             // alice called for the Myrmidons
	w.advance(time.Hour)                       //
	w.setup("troy", []string{"@alice /aloof"}) // answered in 1 hour; bob called
	w.advance(3 * time.Hour)
	w.setup("troy", []string{"@bob /aloof"}) // alice called for the Lycians
	w.advance(30 * time.Minute)
	w.setup("troy", []string{"@alice /aloof"}) // answered in 30 minutes; bob called
	w.advance(10 * time.Hour)
	w.setup("troy", []string{"@bob /aloof"}) // bob answered in 10 hours
	got := w.private("troy", "@alice /me stats", false)
	if got != "You answered 2 calls: half within 30 minutes, nine in ten within 1 hour. Books ended: 0 finished, 0 abandoned." {
		t.Fatalf("alice's stats: %q", got)
	}
	w.setup("troy", []string{"@alice /book end"})
	if got := w.private("troy", "@bob /me stats", false); got != "You answered 2 calls: half within 3 hours, nine in ten within 10 hours. Books ended: 1 finished, 0 abandoned." {
		t.Fatalf("bob's stats: %q", got)
	}
}

// TestMeSet: /me set reads back what it set, and refuses what does not
// read, changing nothing.
func TestMeSet(t *testing.T) {
	w := newWeeks(t)
	if got := w.private("c", "@alice /me set", false); got != "Your time zone is UTC (it is Mon 12:00 there). You have no quiet hours. You are called by a ping in the book's channel." {
		t.Fatalf("/me set with nothing set: %q", got)
	}
	if got := w.private("c", "@alice /me set zone:Europe/Paris quiet:22-7 dm:yes before:yes", false); got != "Your time zone is Europe/Paris (it is Mon 13:00 there). No reminder reaches you from 22:00 to 7:00. You are called by direct message. You hear when the player before you starts." {
		t.Fatalf("/me set: %q", got)
	}
	for _, bad := range []struct{ line, says string }{
		{"@alice /me set zone:Mars/Olympus", `zone: "Mars/Olympus" is no time zone I know`},
		{"@alice /me set quiet:25-3", "quiet: give two hours"},
		{"@alice /me set quiet:7-7", "quiet: give two hours"},
		{"@alice /me set dm:perhaps", "dm:perhaps is not allowed"},
		{"@alice /me set zone:UTC quiet:nightly", "quiet: give two hours"},
	} {
		if got := w.private("c", bad.line, false); !strings.Contains(got, bad.says) {
			t.Errorf("%s: %q", bad.line, got)
		}
	}
	if got := w.private("c", "@alice /me set", false); !strings.HasPrefix(got, "Your time zone is Europe/Paris") || !strings.Contains(got, "22:00 to 7:00") {
		t.Fatalf("a refused /me set changed the settings: %q", got)
	}
	if got := w.private("c", "@bob /me set", false); !strings.HasPrefix(got, "Your time zone is UTC") {
		t.Fatalf("alice's settings reached bob: %q", got)
	}
}

// TestInstancesShareReminders has 3 routers on one PostgreSQL database
// check the reminders of 12 books at once, each with a rung due: each
// reminder goes out once, whichever instance sends it.
func TestInstancesShareReminders(t *testing.T) {
	base := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if base == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to run the several-instances test")
	}
	const instances, channels = 3, 12
	ctx := context.Background()
	u := freshSchema(t, base)
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	var routers []*Router
	for range instances {
		st, err := postgres.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.Now = clock
		routers = append(routers, NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, TurnCalls: true, Now: clock, Logger: testLogger(t)}))
	}
	setup := append([]string{"@alice /book open mode:raid"}, raidClans...)
	setup = append(setup, "@alice /book start", "@alice /book deadline hours:8", `@alice /book reminders ladder:"6h 2h"`)
	for c := range channels {
		var user engine.PlayerID
		for i, text := range setup {
			l, err := engine.ParseLine(text)
			if err != nil {
				t.Fatal(err)
			}
			if l.User != "" {
				user = l.User
			}
			reps := routers[(c+i)%instances].Handle(ctx, Request{Guild: "g", Channel: fmt.Sprintf("rm-%d", c), User: user, Command: l.Command})
			if len(reps) == 0 || reps[0].Ephemeral {
				t.Fatalf("%s: %+v", text, reps)
			}
		}
	}
	for rung, step := range []time.Duration{2*time.Hour + time.Minute, 4 * time.Hour} {
		now.Add(int64(step))
		var sent atomic.Int64
		var wg sync.WaitGroup
		for _, r := range routers {
			for range 2 {
				wg.Go(func() {
					reps, err := r.CheckReminders(ctx)
					if err != nil {
						t.Error(err)
					}
					for _, rep := range reps {
						if !strings.HasPrefix(rep.Text, "Reminder: ") {
							t.Errorf("not a reminder: %+v", rep)
						}
					}
					sent.Add(int64(len(reps)))
				})
			}
		}
		wg.Wait()
		if sent.Load() != channels {
			t.Errorf("rung %d: %d reminders sent for %d books, want one each", rung, sent.Load(), channels)
		}
	}
}

// TestHeadsUp: a player who asked to hear when the player before him
// starts is told, privately, when that player is called; one who did not
// ask hears nothing more than his turn calls.
func TestHeadsUp(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", practiceSetup) // the Myrmidons (alice), then the Achaeans (bob)
	w.private("troy", "@bob /me set before:yes", false)
	w.setup("troy", []string{"@alice /aloof"}) // bob is called after alice
	heads := func(reps []Reply) []Reply {
		var out []Reply
		for _, rep := range reps {
			if strings.Contains(rep.Text, "has started their turn") {
				out = append(out, rep)
			}
		}
		return out
	}
	got := heads(w.in("troy", "@bob /aloof", false)) // alice is called for the Lycians
	if len(got) != 1 || got[0].User != "bob" || !got[0].Ephemeral || got[0].Channel != "troy" ||
		got[0].Text != "alice has started their turn in #troy; yours is likely next." {
		t.Fatalf("bob's heads-up: %+v", got)
	}
	if got := heads(w.in("troy", "@alice /aloof", false)); len(got) != 0 {
		t.Fatalf("alice, who did not ask, was told: %+v", got)
	}
}

// TestSeatHandEverySystem: in a book of every rule system, half way
// through its demonstration, the game master hands one of bob's seats to
// carol: the table is told who handed what to whom and why, the step is
// in /log, the seat is carol's, and bob's calls there end unanswered.
func TestSeatHandEverySystem(t *testing.T) {
	for _, key := range DemoKeys() {
		t.Run(key, func(t *testing.T) {
			script, _ := Demo(key)
			lines := strings.Split(strings.TrimRight(script, "\n"), "\n")
			st := openStore(t, filepath.Join(t.TempDir(), "seat.db"))
			r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 }, Logger: testLogger(t)})
			l := &Local{Router: r, Guild: "g", Channel: "c", User: "player"}
			var out strings.Builder
			if err := l.Run(context.Background(), strings.NewReader(strings.Join(lines[:len(lines)/2], "\n")), &out); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			info, err := st.ActiveGame(ctx, "g", "c")
			if err != nil {
				t.Fatalf("no open book half way through the demonstration: %v", err)
			}
			g, err := Load(ctx, st, r.rules[info.Ruleset], info.ID)
			if err != nil {
				t.Fatal(err)
			}
			seater, ok := g.State.(engine.Seater)
			if !ok {
				t.Fatalf("%s's state has no seats", key)
			}
			var seat engine.Seat
			for _, s := range seater.Seats() {
				if s.Player == "bob" {
					seat = s
					break
				}
			}
			if seat.ID == "" {
				t.Fatalf("bob holds no seat: %+v", seater.Seats())
			}
			// The one who opened the book is its game master.
			master := engine.PlayerID("alice")
			if recs, err := st.Events(ctx, info.ID, 0, 1); err == nil && len(recs) == 1 {
				master = recs[0].Actor
			}
			reps := r.Handle(ctx, Request{Guild: "g", Channel: "c", User: master, Command: engine.Command{Name: "seat hand",
				Options: map[string]string{"seat": seat.ID, "to": "carol", "reason": "bob has moved away"}}})
			want := fmt.Sprintf("The game master hands %s from bob to carol: bob has moved away.", seat.Name)
			if len(reps) == 0 || reps[0].Ephemeral || !strings.HasPrefix(reps[0].Text, want) {
				t.Fatalf("the handover was answered %+v; want %q", reps, want)
			}
			if got := r.Handle(ctx, Request{Guild: "g", Channel: "c", User: master, Command: engine.Command{Name: "log", Options: map[string]string{"last": "1"}}}); len(got) != 1 || !strings.Contains(got[0].Text, want) {
				t.Fatalf("/log does not keep the handover: %+v", got)
			}
			g, err = Load(ctx, st, r.rules[info.Ruleset], info.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range g.State.(engine.Seater).Seats() {
				if s.ID == seat.ID && s.Player != "carol" {
					t.Fatalf("after the handover %s is held by %s", s.ID, s.Player)
				}
			}
			calls, err := st.PlayerCalls(ctx, "g", "bob")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range calls {
				if c.Acted.IsZero() && !slices.ContainsFunc(g.State.(engine.Seater).Seats(), func(s engine.Seat) bool { return s.Player == "bob" }) {
					t.Errorf("bob, who holds no seat now, still has an open call: %+v", c)
				}
			}
		})
	}
}

// TestDeadBooks: a book idle past the server's limit is reported once to
// its game master in its channel, with buttons to remind the players, to
// read how to hand seats over, and to end it; ended, it keeps its log.
func TestDeadBooks(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", practiceSetup)
	if got := w.private("troy", "@bob /server set dead:3", false); !strings.HasPrefix(got, "Only a member who may manage the server") {
		t.Fatalf("a player changed the server's settings: %q", got)
	}
	if got := w.private("troy", "@carol /server set dead:120", true); !strings.HasPrefix(got, "dead: give a number of days") {
		t.Fatalf("/server set dead:120: %q", got)
	}
	if got := w.private("troy", "@carol /server set dead:3", true); got != "A book with no step for 3 days is reported to its game master. There is no weekly digest. Reminders by default: no reminders." {
		t.Fatalf("/server set dead:3: %q", got)
	}
	check := func() []Reply {
		t.Helper()
		out, err := w.r.CheckDeadBooks(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	w.advance(2 * 24 * time.Hour)
	if out := check(); len(out) != 0 {
		t.Fatalf("reported before its time: %+v", out)
	}
	w.advance(24*time.Hour + time.Minute)
	out := check()
	if len(out) != 1 || out[0].Channel != "troy" || !slices.Equal(out[0].Mentions, []engine.PlayerID{"alice"}) ||
		out[0].Text != "alice, this book has had no step for 3 days; it waits for the Myrmidons (alice). Its game master may remind the players, hand their seats to others with /seat hand, or end it; an ended book keeps its log and its pages." {
		t.Fatalf("the report: %+v", out)
	}
	var labels []string
	for _, b := range out[0].Buttons {
		labels = append(labels, b.Label+" → "+b.Command.String())
		if b.For != "alice" {
			t.Errorf("button %q is not for the game master alone", b.Label)
		}
	}
	if want := []string{"Remind them → /book nudge", `Hand seats over → /help command:"seat hand"`, `End the book → /book end reason:"no step for 3 days"`}; !slices.Equal(labels, want) {
		t.Fatalf("the buttons are %q, want %q", labels, want)
	}
	if out := check(); len(out) != 0 {
		t.Fatalf("reported twice: %+v", out)
	}
	w.restart()
	if out := check(); len(out) != 0 {
		t.Fatalf("reported again after a restart: %+v", out)
	}
	press := func(user engine.PlayerID, b engine.Button) []Reply {
		return w.r.Handle(context.Background(), Request{Guild: "g", Channel: "troy", User: user, Command: b.Command})
	}
	if got := press("bob", out[0].Buttons[0]); !refused(got) {
		t.Fatalf("bob pressed the game master's reminder: %+v", got)
	}
	got := press("alice", out[0].Buttons[0])
	if len(got) != 2 || got[0].Text != "The game master reminds the Myrmidons (alice)." ||
		got[1].Channel != "troy" || got[1].Text != "alice, the game master reminds you: the book in #troy waits for you to take the Myrmidons' turn." {
		t.Fatalf("the reminder button: %+v", got)
	}
	if got := press("alice", out[0].Buttons[1]); len(got) != 1 || !got[0].Ephemeral || !strings.HasPrefix(got[0].Text, "/seat hand: Hand a player's seat") {
		t.Fatalf("the hand-over button: %+v", got)
	}
	if got := press("alice", out[0].Buttons[2]); len(got) == 0 || got[0].Ephemeral || !strings.HasPrefix(got[0].Text, "The book ends: no step for 3 days.") {
		t.Fatalf("the end button: %+v", got)
	}
	if got := w.private("troy", "@alice /log last:1", false); !strings.Contains(got, "The book ends: no step for 3 days.") {
		t.Fatalf("the ended book's log: %q", got)
	}
	w.advance(10 * 24 * time.Hour)
	if out := check(); len(out) != 0 {
		t.Fatalf("an ended book reported: %+v", out)
	}
}

// TestDigest: the weekly digest goes to the server's channel seven days
// after it was set and every seven days after, once: the week's ended
// books with how they ended, who is awaited where with the deadlines, and
// the picture of the step that drew the most.
func TestDigest(t *testing.T) {
	w := newWeeks(t)
	w.cfg.Renderer = render.New(render.Options{})
	w.restart()
	w.setup("troy", practiceSetup)
	w.setup("plain", practiceSetup)
	if got := w.private("troy", "@carol /server set digest:#news", true); got != "Idle books are not reported. The weekly digest goes to #news; the next on Mon 30 Nov 12:00 UTC. Reminders by default: no reminders." {
		t.Fatalf("/server set digest: %q", got)
	}
	// In the troy a round ends and the next is dealt: the week's only
	// step that draws.
	w.setup("troy", []string{"@alice /aloof", "@bob /aloof", "@alice /aloof", "#stack sequence KS 7H 2D QC", "@bob /aloof", "@alice /book deadline hours:48"})
	w.setup("plain", []string{`@alice /book end reason:"the rain came"`})
	check := func() []Reply {
		t.Helper()
		out, err := w.r.CheckDigests(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	w.advance(6 * 24 * time.Hour)
	if out := check(); len(out) != 0 {
		t.Fatalf("a digest before the week was out: %+v", out)
	}
	w.advance(24 * time.Hour)
	out := check()
	if len(out) != 1 || out[0].Channel != "news" || out[0].Image == nil {
		t.Fatalf("the digest: %+v", out)
	}
	want := "The week's news, to Mon 30 Nov.\n" +
		"Books ended:\n" +
		"- #plain, Gang Warfare in the Age of Bronze: The book ends: the rain came.\n" +
		"Awaited:\n" +
		"- #troy, Gang Warfare in the Age of Bronze: waits for alice (for 7 days); deadline passed.\n" +
		"The picture: the step of the week that drew the most cards and dice, in #troy"
	if !strings.HasPrefix(out[0].Text, want) {
		t.Fatalf("the digest says:\n%s\nwant it to begin:\n%s", out[0].Text, want)
	}
	if out := check(); len(out) != 0 {
		t.Fatalf("the digest came twice: %+v", out)
	}
	w.restart()
	w.advance(7 * 24 * time.Hour)
	out = check()
	if len(out) != 1 || !strings.HasPrefix(out[0].Text, "The week's news, to Mon 7 Dec.\nNo book ended this week.\n") || out[0].Image != nil {
		t.Fatalf("the second week's digest: %+v", out)
	}
}

// FuzzLadder: any text either reads as a ladder, which writes back as a
// text that reads as the same ladder, or is refused in game terms; the
// time-zone, quiet-hours and absence parsers take any text without
// panicking.
func FuzzLadder(f *testing.F) {
	for _, s := range []string{"24h 4h every 12h", "2d every 1d", "off", "every", "4h 4h", "every 2h every 3h", "0h", "-3h", "99999999999999h", "1d 28d 29d", "", "zone"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		l, err := parseLadder(s)
		if err != nil {
			if _, ok := engine.IsRefusal(err); !ok {
				t.Fatalf("%q: %v is not a refusal", s, err)
			}
		} else {
			again, err := parseLadder(l.String())
			if err != nil || again.String() != l.String() || !slices.Equal(again.Before, l.Before) || again.Every != l.Every {
				t.Fatalf("%q reads as %q, which reads back as %+v, %v", s, l.String(), again, err)
			}
			for _, b := range l.Before {
				if b <= 0 || b > maxRung {
					t.Fatalf("%q has a rung of %v", s, b)
				}
			}
		}
		parseZone(s)
		parseQuiet(s)
		if until, err := parseUntil(s, now, time.UTC); err == nil && until.IsZero() {
			t.Fatalf("%q reads as no time at all", s)
		}
	})
}

// TestDigestRanks: the digest tells the Herald's rank changes of the
// week.
func TestDigestRanks(t *testing.T) {
	w := newWeeks(t)
	w.setup("troy", []string{
		"@alice /saga start name:Wrath quorum:4 herald:herald",
		"@alice /book open",
		"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
		"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling",
		"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
		"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin",
		"@carol /clan raise name:Dardanians hero:Aeneas side:antagonist warbands:spear,sword,bow",
		"/clan raise name:Argives hero:Diomedes side:protagonist warbands:spear,spear,javelin",
		"@alice /book start",
	})
	w.private("troy", "@carol /server set digest:news", true)
	w.setup("troy", []string{`@alice /saga adjust hero:Achilles points:150 reason:"the sack of Lyrnessus"`})
	w.advance(digestEvery)
	out, err := w.r.CheckDigests(context.Background())
	if err != nil || len(out) != 1 {
		t.Fatalf("the digest: %+v, %v", out, err)
	}
	mustContain(t, "the digest", out[0].Text, "No book ended this week.\nRanks:\n- The Herald proclaims: Achilles rises to Class 3 Hero, Esquire, with 250 honor.")
}

// TestWaitCountsFromLastStep: a step after which its player is still
// awaited writes no call, so his call spans all his steps while the book
// awaits him. The reminders and /games count his wait from his last step
// when he has taken one since his call: a player who is acting is not
// told he has kept the book waiting since it called him. /me stats counts
// one call, from when the book called him to when it stopped awaiting
// him.
func TestWaitCountsFromLastStep(t *testing.T) {
	w := newWeeks(t)
	// alice's two clans go one after the other: Myrmidons, Lycians,
	// then bob's Achaeans and Trojans.
	setup := slices.Clone(practiceSetup)
	setup[slices.Index(setup, "#stack sequence KS 7H 2D QC")] = "#stack sequence KS QC 2D 7H"
	w.setup("troy", setup) // 12:00: alice is called for the Myrmidons
	w.setup("troy", []string{`@alice /book reminders ladder:"every 2h"`})
	w.advance(90 * time.Minute)
	reps := w.in("troy", "@alice /aloof", false) // 13:30: the Lycians' turn, alice's still
	if len(reps) == 0 || reps[0].Ephemeral || !strings.Contains(reps[0].Text, "Lycians") {
		t.Fatalf("the Myrmidons' /aloof: %+v", reps)
	}
	w.advance(time.Hour) // 14:30: 2h30 since her call, 1 hour since her step
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("a reminder an hour after alice's last step: %+v", out)
	}
	mustContain(t, "bob's /games", w.private("troy", "@bob /games", false), "it waits for alice (for 1 hour)")
	w.advance(time.Hour) // 15:30: 2 hours since her step
	out := w.reminders()
	if len(out) != 1 || out[0].Text != "Reminder: alice, the book in #troy has waited for you for 2 hours." {
		t.Fatalf("two hours after alice's last step: %+v", out)
	}
	if out := w.reminders(); len(out) != 0 {
		t.Fatalf("the reminder came twice: %+v", out)
	}
	if got := w.private("troy", "@alice /me stats", false); got != "You have answered no call here yet." {
		t.Fatalf("alice's stats while the book still awaits her: %q", got)
	}
	w.advance(30 * time.Minute)
	w.setup("troy", []string{"@alice /aloof"}) // 16:00: the Achaeans', bob's
	if got := w.private("troy", "@alice /me stats", false); got != "You answered 1 call: half within 4 hours, nine in ten within 4 hours. Books ended: 0 finished, 0 abandoned." {
		t.Fatalf("alice's stats after her two clans: %q", got)
	}
	// bob is called now, and reminded two hours on, from his call.
	w.advance(2*time.Hour + time.Minute)
	if out := w.reminders(); len(out) != 1 || !strings.HasPrefix(out[0].Text, "Reminder: bob, the book in #troy has waited for you for 2 hours.") {
		t.Fatalf("bob's reminder, two hours after his call: %+v", out)
	}
}
