package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
)

// sagaScript reads the three-book saga of testdata/transcripts/saga.script.
func sagaScript(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("testdata/transcripts/saga.script")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(src), "\n"), "\n")
}

// runLine plays one line of a script at l, keeping the speaker from line
// to line as a whole script run would.
func runLine(t *testing.T, l *Local, line string, out *bytes.Buffer) {
	t.Helper()
	if at, ok := strings.CutPrefix(line, "@"); ok {
		l.User = engine.PlayerID(strings.Fields(at)[0])
	}
	if err := l.Run(context.Background(), strings.NewReader(line), out); err != nil {
		t.Fatal(err)
	}
}

// loadSaga reads the local table's newest saga back from the store.
func loadSaga(t *testing.T, st Store) *gwab.Saga {
	t.Helper()
	return loadGuildSaga(t, st, "local")
}

// loadGuildSaga reads the guild's newest saga back from the store.
func loadGuildSaga(t *testing.T, st Store, guild string) *gwab.Saga {
	t.Helper()
	ctx := context.Background()
	ch := gwab.New().Campaign()
	info, err := st.LatestGame(ctx, guild, campaignKey(ch))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(ctx, st, ch, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	return g.State.(*gwab.Saga)
}

func standingsOf(s *gwab.Saga) map[string]int {
	out := map[string]int{}
	for i, h := range s.Heroes {
		out[h.Name] = s.Points(gwab.HeroID(i + 1))
	}
	return out
}

// TestSagaStandingsFollowTheChart plays the three-book saga and checks
// the standings after each book against the chart of section 4, worked
// out by hand.
func TestSagaStandingsFollowTheChart(t *testing.T) {
	l, closeStore := table(t, filepath.Join(t.TempDir(), "saga.db"))
	defer closeStore()
	want := []map[string]int{
		// Book 1, a raid: Aeneas refuses Achilles' challenge, 1 point of
		// the Raid column for a Class 2 Hero changing hands.
		{"Achilles": 101, "Sarpedon": 100, "Hector": 100, "Ajax": 100, "Aeneas": 99, "Diomedes": 100},
		// Book 2, a battle: the Herald adds 95 to Achilles; Aeneas comes
		// back to 100 (4.3, 7.4); Achilles wounds him three times (3 each,
		// Battle column, Class 2) and kills him (20). Ascanius takes his
		// place with nothing (4.1).
		{"Achilles": 225, "Sarpedon": 100, "Hector": 100, "Ajax": 100, "Aeneas": 100, "Diomedes": 100,
			"Odysseus": 100, "Rhesus": 100, "Ascanius": 0},
		// Book 3, a raid: carol fails to show, and each of her Heroes pays
		// 3 (Raid column); Ascanius cannot go below zero.
		{"Achilles": 225, "Sarpedon": 100, "Hector": 100, "Ajax": 100, "Aeneas": 100, "Diomedes": 97,
			"Odysseus": 100, "Rhesus": 100, "Ascanius": 0},
	}
	var out bytes.Buffer
	book := 0
	for _, line := range sagaScript(t) {
		runLine(t, l, line, &out)
		if !strings.Contains(line, "/book end") {
			continue
		}
		s := loadSaga(t, l.Router.cfg.Store)
		got := standingsOf(s)
		for name, pts := range want[book] {
			if got[name] != pts {
				t.Errorf("after book %d, %s has %d honor; the chart gives %d", book+1, name, got[name], pts)
			}
		}
		if len(got) != len(want[book]) {
			t.Errorf("after book %d the saga has Heroes %v, want %v", book+1, got, want[book])
		}
		book++
	}
	if book != len(want) {
		t.Fatalf("the script closed %d books, want %d", book, len(want))
	}
	s := loadSaga(t, l.Router.cfg.Store)
	if aeneas := s.Heroes[4]; aeneas.Name != "Aeneas" || aeneas.FellIn != 2 {
		t.Errorf("Aeneas: %+v, want fallen in book 2", aeneas)
	}
	// Every rank change is announced once, by the step that caused it
	// (the script's comments, echoed into the transcript, are no
	// announcement).
	said := withoutComments(out.String())
	for _, a := range []string{
		"Aeneas falls to Class 1", "Aeneas rises to Class 2", "Achilles rises to Class 3", "Diomedes falls to Class 1",
	} {
		if n := strings.Count(said, a); n != 1 {
			t.Errorf("%q announced %d times, want once", a, n)
		}
	}
	if n := strings.Count(said, "The Herald proclaims"); n != 4 {
		t.Errorf("%d rank changes announced, want 4", n)
	}
}

// failingCampaign is a store whose appends to campaigns fail while fail
// is set, as if the process died between a book's step and the saga's
// record of it.
type failingCampaign struct {
	*store.Store
	fail atomic.Bool
}

func (f *failingCampaign) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	if f.fail.Load() {
		if g, err := f.Store.Game(ctx, id); err == nil && strings.HasPrefix(g.Channel, "~") {
			return store.Game{}, errors.New("the disk is full")
		}
	}
	return f.Store.Append(ctx, id, expect, recs, end)
}

// TestSagaCatchesUpWithItsBooks plays the saga with the saga's record
// failing during the second book: the book goes on, and the saga's next
// command records everything it missed, announcing each rank change once.
// The ledger ends as it does when nothing fails.
func TestSagaCatchesUpWithItsBooks(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "saga.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fs := &failingCampaign{Store: st}
	r := NewRouter(Config{Store: fs, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 }})
	l := &Local{Router: r, Guild: "local", Channel: "table", User: "player", Echo: true}
	var out bytes.Buffer
	for _, line := range sagaScript(t) {
		switch {
		case strings.Contains(line, "#seed 8"): // book 2 has just opened
			fs.fail.Store(true)
		case strings.Contains(line, "/saga schedule when:Saturday"):
			fs.fail.Store(false)
		}
		runLine(t, l, line, &out)
	}
	if n := strings.Count(out.String(), "Achilles rises to Class 3"); n != 1 {
		t.Errorf("Achilles' rise announced %d times, want once", n)
	}
	before, after, ok := strings.Cut(out.String(), "/saga schedule when:Saturday")
	if !ok || strings.Contains(before, "Achilles rises to Class 3") || !strings.Contains(after, "Achilles rises to Class 3") {
		t.Errorf("Achilles' rise should be announced when the saga catches up, at /saga schedule:\n%s", out.String())
	}

	clean, closeClean := table(t, filepath.Join(t.TempDir(), "clean.db"))
	defer closeClean()
	if err := clean.Run(ctx, strings.NewReader(strings.Join(sagaScript(t), "\n")), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	got, want := loadSaga(t, fs), loadSaga(t, clean.Router.cfg.Store)
	if len(got.Ledger) != len(want.Ledger) {
		t.Fatalf("the ledger has %d lines, want %d", len(got.Ledger), len(want.Ledger))
	}
	for i := range got.Ledger {
		if got.Ledger[i] != want.Ledger[i] {
			t.Errorf("ledger line %d: %+v, want %+v", i, got.Ledger[i], want.Ledger[i])
		}
	}
}

// BenchmarkBookStep is one step of a book through the router, durably
// recorded and answered, in a book alone and in a book a saga follows,
// the saga holding 1 book (this one) or 100. A step that changes nothing
// in the saga costs the same whatever the saga holds.
func BenchmarkBookStep(b *testing.B) {
	for _, books := range []int{0, 1, 100} {
		b.Run(fmt.Sprintf("saga-books=%d", books), func(b *testing.B) {
			st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "step.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
			saga := books > 0
			if saga {
				do(b, r, "@alice /saga start name:Wrath quorum:3")
				for range books - 1 {
					doAll(b, r, append(append([]string{"@alice /book open"}, raidClans...), "@alice /book end reason:done"))
				}
			}
			open := "@alice /book open"
			if !saga {
				open += " mode:raid"
			}
			doAll(b, r, append([]string{open}, raidClans...))
			next := nextPlayer(b, do(b, r, "@alice /book start"))
			b.ReportAllocs()
			for b.Loop() {
				next = nextPlayer(b, do(b, r, "@"+next+" /aloof"))
			}
		})
	}
}

var raidClans = []string{
	"@alice /clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
	"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling",
	"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
	"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin",
	"@carol /clan raise name:Dardanians hero:Aeneas side:antagonist warbands:spear,sword,bow",
	"/clan raise name:Argives hero:Diomedes side:protagonist warbands:spear,spear,javelin",
}

// nextPlayer reads whose turn it is from a step's replies: the clan
// named after "Next: the", or first in a new round's sequence.
func nextPlayer(b *testing.B, reps []Reply) string {
	b.Helper()
	players := map[string]string{"Myrmidons": "alice", "Lycians": "alice", "Trojans": "bob", "Achaeans": "bob", "Dardanians": "carol", "Argives": "carol"}
	for _, rep := range reps {
		for _, marker := range []string{"Next: the ", "Sequence: "} {
			if _, after, ok := strings.Cut(rep.Text, marker); ok {
				return players[strings.Fields(after)[0]]
			}
		}
	}
	b.Fatalf("no turn in %+v", reps)
	return ""
}

// TestSagaFollowsBooksPlayedAtOnce plays two books of one saga in two
// channels at the same moment, each through its own router on one
// database, as two processes would: the saga records every line of both,
// once.
func TestSagaFollowsBooksPlayedAtOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "saga.db")
	routers := make([]*Router, 2)
	for i := range routers {
		st, err := store.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		routers[i] = NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 }})
	}
	say := func(r *Router, channel, line string, user *engine.PlayerID) []Reply {
		l, err := engine.ParseLine(line)
		if err != nil {
			t.Error(err)
			return nil
		}
		if l.User != "" {
			*user = l.User
		}
		return r.Handle(ctx, Request{Guild: "g", Channel: channel, User: *user, Command: l.Command})
	}
	var herald engine.PlayerID
	say(routers[0], "hall", "@alice /saga start name:Wrath quorum:4", &herald)
	book := func(r *Router, channel, tag string) {
		user := engine.PlayerID("")
		lines := []string{"@alice /book open"}
		for _, p := range []string{"alice", "bob", "carol"} {
			lines = append(lines,
				fmt.Sprintf("@%s /clan raise name:%s%sP hero:%s%sP side:protagonist warbands:spear,spear,bow", p, p, tag, p, tag),
				fmt.Sprintf("@%s /clan raise name:%s%sA hero:%s%sA side:antagonist warbands:spear,spear,bow", p, p, tag, p, tag))
		}
		lines = append(lines, "#stack sequence KS 2S 3S 4S 5S 6S", "@alice /book start")
		for _, line := range lines {
			for _, rep := range say(r, channel, line, &user) {
				if rep.Ephemeral {
					t.Errorf("%s: %s", line, rep.Text)
				}
			}
		}
		// alice's protagonists face carol's antagonists, who refuse: a
		// line for each Hero in the Raid column.
		for _, line := range []string{fmt.Sprintf("@alice /challenge hero:carol%sA", tag), "@carol /answer reply:decline", "@alice /book end"} {
			for _, rep := range say(r, channel, line, &user) {
				if rep.Ephemeral {
					t.Errorf("%s: %s", line, rep.Text)
				}
			}
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); book(routers[1], "east", "E") }()
	book(routers[0], "west", "W")
	<-done

	s := loadGuildSaga(t, routers[0].cfg.Store, "g")
	if len(s.Books) != 2 || !s.Books[0].Closed || !s.Books[1].Closed {
		t.Fatalf("the saga has books %+v, want two closed", s.Books)
	}
	refusals := map[int]int{}
	for _, l := range s.Ledger {
		if l.Cause == gwab.Refusing || l.Cause == gwab.Refused {
			refusals[l.Book]++
		}
	}
	if refusals[1] != 2 || refusals[2] != 2 {
		t.Errorf("refusal lines by book: %v, want 2 in each", refusals)
	}
	if len(s.Heroes) != 12 {
		t.Errorf("%d Heroes entered the saga, want 12", len(s.Heroes))
	}
}

// withoutComments drops a transcript's comment lines, which echo the
// script's.
func withoutComments(transcript string) string {
	var keep []string
	for _, l := range strings.Split(transcript, "\n") {
		if l != "#" && !strings.HasPrefix(l, "# ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
