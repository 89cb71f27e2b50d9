package bot

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/postgres"
)

// TestInstancesShareOnePostgres runs several routers, as several bot
// processes, on one PostgreSQL database, and has them play many channels'
// books at once: each line of a transcript script goes to one instance and,
// under the same interaction ID, at the same moment to another, as Discord
// may deliver a request twice. Every channel's log must come out as one
// router alone on a SQLite file writes it for the same lines: no step lost,
// none made twice.
func TestInstancesShareOnePostgres(t *testing.T) {
	base := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if base == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to run the several-instances test")
	}
	const instances, channels = 3, 20
	scripts := []string{"testdata/transcripts/gathering", "../engine/gwab/testdata/transcripts/fire"}
	ctx := context.Background()
	u := freshSchema(t, base)

	lines := map[string][]engine.Line{}
	for _, name := range scripts {
		b, err := os.ReadFile(name + ".script")
		if err != nil {
			t.Fatal(err)
		}
		var user engine.PlayerID = "player"
		for _, text := range strings.Split(string(b), "\n") {
			line, err := engine.ParseLine(text)
			if err != nil || line.Empty {
				continue // a refusal of an unreadable line changes nothing
			}
			if line.User != "" {
				user = line.User
			}
			line.User = user
			lines[name] = append(lines[name], line)
		}
	}
	seed := func() uint64 { return 7 }

	// The reference: one router, one SQLite file, the lines in order.
	ref, err := store.Open(ctx, filepath.Join(t.TempDir(), "ref.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	refRouter := NewRouter(Config{Store: ref, Rulesets: rulesets(), Directives: true, Seed: seed})
	want := map[string][]engine.Record{}
	for _, name := range scripts {
		for _, l := range lines[name] {
			refRouter.Handle(ctx, Request{Guild: "g", Channel: name, User: l.User, Command: l.Command})
		}
		want[name] = channelLog(t, ref, name)
	}

	var routers []*Router
	var stores []*postgres.Store
	for range instances {
		st, err := postgres.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		stores = append(stores, st)
		routers = append(routers, NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: seed}))
	}
	var steps atomic.Int64
	var wg sync.WaitGroup
	for c := range channels {
		wg.Go(func() {
			name := scripts[c%len(scripts)]
			channel := fmt.Sprintf("%s-%d", name, c)
			for i, l := range lines[name] {
				req := Request{Guild: "g", Channel: channel, User: l.User, Command: l.Command,
					Interaction: fmt.Sprintf("%s/%d", channel, i)}
				var twice sync.WaitGroup
				for k := range 2 {
					twice.Go(func() { routers[(c+i+k)%instances].Handle(ctx, req) })
				}
				twice.Wait()
				steps.Add(1)
			}
		})
	}
	wg.Wait()

	var lost, doubled, events int
	for c := range channels {
		name := scripts[c%len(scripts)]
		got := channelLog(t, stores[c%instances], fmt.Sprintf("%s-%d", name, c))
		events += len(got)
		if len(got) < len(want[name]) {
			lost += len(want[name]) - len(got)
		} else {
			doubled += len(got) - len(want[name])
		}
		if !sameLog(got, want[name]) {
			t.Errorf("channel %d (%s): the log differs from one router's alone (%d events, want %d)", c, name, len(got), len(want[name]))
		}
	}
	t.Logf("%d instances, %d channels, %d lines each delivered twice, %d events; %d lost, %d doubled", instances, channels, steps.Load(), events, lost, doubled)
}

// channelLog returns every event of every game of the channel, in order.
func channelLog(t *testing.T, st Store, channel string) []engine.Record {
	t.Helper()
	ctx := context.Background()
	games, err := st.Games(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Record
	for _, g := range games {
		if g.Channel != channel {
			continue
		}
		recs, err := st.Events(ctx, g.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, recs...)
	}
	return out
}

// sameLog compares logs by what they record, not the JSON's spacing.
func sameLog(a, b []engine.Record) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Seq != y.Seq || x.Kind != y.Kind || x.Actor != y.Actor || x.Step != y.Step ||
			!reflect.DeepEqual(x.Draws, y.Draws) || !reflect.DeepEqual(x.Discards, y.Discards) ||
			string(x.Payload) != string(y.Payload) {
			return false
		}
	}
	return true
}

// schemas numbers the schemas a test process makes.
var schemas atomic.Int64

// freshSchema makes an empty schema in the database at base for this test
// and returns a URL whose connections use it; it is dropped at the end.
func freshSchema(t testing.TB, base string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("bot_%d_%d", os.Getpid(), schemas.Add(1))
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE; CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, base)
		if err == nil {
			c.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`)
			c.Close(ctx)
		}
	})
	pu, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := pu.Query()
	q.Set("search_path", schema)
	pu.RawQuery = q.Encode()
	return pu.String()
}

// TestInstancesShareDeadlines has 3 routers on one PostgreSQL database
// check the deadlines of 20 books at once, every one of them due: each
// book's time runs out once, so each gains exactly one step, whichever
// instance took it.
func TestInstancesShareDeadlines(t *testing.T) {
	base := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if base == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to run the several-instances test")
	}
	const instances, channels, checks = 3, 20, 2
	ctx := context.Background()
	u := freshSchema(t, base)
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	var routers []*Router
	var first *postgres.Store
	for range instances {
		st, err := postgres.Open(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.Now = clock
		if first == nil {
			first = st
		}
		routers = append(routers, NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, TurnCalls: true, Now: clock}))
	}
	setup := append([]string{"@alice /book open mode:raid"}, raidClans...)
	setup = append(setup, "@alice /book start", "@alice /book deadline hours:2")
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
			routers[(c+i)%instances].Handle(ctx, Request{Guild: "g", Channel: fmt.Sprintf("dl-%d", c), User: user, Command: l.Command})
		}
	}
	steps := func(c int) int {
		n := 0
		for _, r := range channelLog(t, first, fmt.Sprintf("dl-%d", c)) {
			if r.Step {
				n++
			}
		}
		return n
	}
	before := make([]int, channels)
	for c := range channels {
		if before[c] = steps(c); before[c] == 0 {
			t.Fatalf("channel %d: the book did not start", c)
		}
		if _, err := first.ActiveGame(ctx, "g", fmt.Sprintf("dl-%d", c)); err != nil {
			t.Fatal(err)
		}
	}
	now.Add(int64(2*time.Hour + time.Minute))
	var fired atomic.Int64
	var wg sync.WaitGroup
	for _, r := range routers {
		for range checks {
			wg.Go(func() {
				reps, err := r.CheckDeadlines(ctx)
				if err != nil {
					t.Error(err)
				}
				fired.Add(int64(len(reps)))
			})
		}
	}
	wg.Wait()
	for c := range channels {
		if got := steps(c) - before[c]; got != 1 {
			t.Errorf("channel %d: %d steps when time ran out, want 1", c, got)
		}
	}
	t.Logf("%d instances checked %d books' deadlines at once, twice each; %d replies", instances, channels, fired.Load())
}
