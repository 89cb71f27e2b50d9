package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Store is everything Rhapsode asks of an event store: games and their
// logs, snapshots, turn deadlines and the record of interactions taken.
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
	PutDeadline(ctx context.Context, d store.Deadline) error
	RemoveDeadline(ctx context.Context, game store.GameID) error
	GameDeadline(ctx context.Context, game store.GameID) (store.Deadline, error)
	DueDeadlines(ctx context.Context, now time.Time) ([]store.Deadline, error)
	ClaimDeadline(ctx context.Context, game store.GameID, seq engine.Seq, due bool) (bool, error)
	TakeInteraction(ctx context.Context, id string, now time.Time) (answer []byte, fresh bool, err error)
	AnswerInteraction(ctx context.Context, id string, answer []byte) error
	Publish(ctx context.Context, guild string, game store.GameID, token string, now time.Time) (store.Publication, error)
	Withdraw(ctx context.Context, game store.GameID) (bool, error)
	Published(ctx context.Context, token string) (store.Publication, error)
	PublicationOf(ctx context.Context, game store.GameID) (store.Publication, error)
	AllGames(ctx context.Context) ([]store.Game, error)
	ImportGame(ctx context.Context, c store.GameCopy) error
	PutSetting(ctx context.Context, guild, subject string, value []byte) error
	Setting(ctx context.Context, guild, subject string) ([]byte, error)
	OpenCalls(ctx context.Context, guild string) ([]store.Call, error)
	PlayerCalls(ctx context.Context, guild string, player engine.PlayerID) ([]store.Call, error)
	GameCalls(ctx context.Context, game store.GameID, last int) ([]store.Call, error)
	LastStep(ctx context.Context, id store.GameID, player engine.PlayerID, after engine.Seq) (engine.Seq, time.Time, error)
	ClaimReminder(ctx context.Context, game store.GameID, player engine.PlayerID, seq engine.Seq, rung string) (bool, error)
	Claim(ctx context.Context, name string, now time.Time) (bool, error)
	AppendCalling(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool, calls store.CallChange) (store.Game, error)
	CreateGameCalling(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls store.CallChange) (store.Game, error)
	GameReminders(ctx context.Context, game store.GameID) ([]store.Reminder, error)
	AllSettings(ctx context.Context) ([]store.Setting, error)
	Close() error
}

// Opener opens a store on one database, as one more process (or one more
// instance of the bot) would.
type Opener func(ctx context.Context) (Store, error)

// db is one test's database, and how to make another.
type db struct {
	opener Opener
	fresh  func(tb testing.TB) Opener
}

// open opens a store on the database, closed when the test ends.
func (d db) open(t *testing.T) Store {
	t.Helper()
	s, err := d.opener(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// Run runs the suite. fresh makes a new, empty database for a test and
// returns how to open a store on it; a test opens it once or several
// times, as several processes would.
func Run(t *testing.T, fresh func(tb testing.TB) Opener) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, base db)
	}{
		{"RoundTrip", testRoundTrip},
		{"AppendRefuses", testAppendRefuses},
		{"AppendCanceled", testAppendCanceled},
		{"AppendRace", func(t *testing.T, base db) { s := base.open(t); race(t, s, s) }},
		{"AppendRaceTwoStores", func(t *testing.T, base db) { race(t, base.open(t), base.open(t)) }},
		{"AppendManyWriters", testAppendManyWriters},
		{"OneActiveGamePerChannel", testOneActiveGamePerChannel},
		{"Snapshots", testSnapshots},
		{"Deadlines", testDeadlines},
		{"AppendSeesAnothersDeadline", testAppendSeesAnothersDeadline},
		{"AppendSeesAnothersEnd", testAppendSeesAnothersEnd},
		{"ClaimDeadlineOnce", testClaimDeadlineOnce},
		{"InteractionTakenOnce", testInteractionTakenOnce},
		{"OpenConcurrently", testOpenConcurrently},
		{"CopyGames", testCopyGames},
		{"Publications", testPublications},
		{"Settings", testSettings},
		{"Calls", testCalls},
		{"ClaimReminderOnce", testClaimReminderOnce},
		{"ClaimOnce", testClaimOnce},
		{"AppendCalling", testAppendCalling},
		{"CallAgain", testCallAgain},
		{"LastStep", testLastStep},
		{"CreateGameCalling", testCreateGameCalling},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, db{fresh(t), fresh}) })
	}
}

// rec makes a record whose payload says who wrote it.
func rec(seq engine.Seq, kind string, payload string) engine.Record {
	return engine.Record{Seq: seq, Kind: kind, Actor: "player", Payload: json.RawMessage(payload)}
}

func newGame(t *testing.T, s Store, channel string, recs ...engine.Record) store.Game {
	t.Helper()
	g, err := s.CreateGame(context.Background(), "guild", channel, "gwab", recs)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustEvents(t *testing.T, s Store, id store.GameID, after, upTo engine.Seq) []engine.Record {
	t.Helper()
	recs, err := s.Events(context.Background(), id, after, upTo)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// checkContiguous checks that recs are numbered 1..len(recs).
func checkContiguous(t *testing.T, recs []engine.Record) {
	t.Helper()
	for i, r := range recs {
		if r.Seq != engine.Seq(i+1) {
			t.Fatalf("record %d has seq %d", i, r.Seq)
		}
	}
}

// testRoundTrip: records read back as they were written (kinds, actors,
// steps, cards and dice drawn, payloads to the byte), by range, and the
// game's row follows its log.
func testRoundTrip(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	first := []engine.Record{
		{Seq: 1, Kind: "table.seated", Actor: "ann", Step: true, Payload: json.RawMessage(`{"seed": 42, "players": ["ann", "bob"]}`)},
		{Seq: 2, Kind: "gwab.dealt", Actor: "bob",
			Draws: []engine.Draw{
				{Deck: "combat", Card: engine.NewCard(engine.Ace, engine.Spades)},
				{Deck: "combat", Card: engine.Joker2},
				{Die: engine.D6, Roll: 4},
			},
			Discards: []engine.Draw{{Deck: "sequence", Card: engine.NewCard(7, engine.Hearts)}},
			Payload:  json.RawMessage(`{"to":"bob","cards":3}`)},
	}
	g := newGame(t, s, "chan", first...)
	if g.Head != 2 || g.Ended || g.ID == 0 || g.Ruleset != "gwab" || g.Created.IsZero() {
		t.Fatalf("CreateGame = %+v", g)
	}
	more := []engine.Record{
		{Seq: 3, Kind: "gwab.moved", Actor: "ann", Step: true, Payload: json.RawMessage("{\n  \"b\": 1,\n  \"a\": \"Ἀχιλλεύς \\u00e9\"\n}")},
		{Seq: 4, Kind: "gwab.turn-ended"}, // no actor, no payload
		{Seq: 5, Kind: "gwab.rolled", Actor: "bob", Draws: []engine.Draw{{Die: engine.TwoD6, Roll: 12}, {Die: engine.D0to9, Roll: 0}}, Payload: json.RawMessage(`[1,2.5,null,true]`)},
	}
	// The row an append hands back is the game as the append left it.
	before := time.Now().Add(-time.Millisecond)
	if after, err := s.Append(ctx, g.ID, 2, more, false); err != nil {
		t.Fatal(err)
	} else if now, err := s.Game(ctx, g.ID); err != nil || after != now || after.Head != 5 || after.Deadline {
		t.Fatalf("Append handed back %+v; the store reads %+v, %v", after, now, err)
	}
	// Each event's recording time is kept, as its appender's clock read it.
	if at, err := s.Recorded(ctx, g.ID, 2); err != nil || len(at) != len(more) {
		t.Fatalf("Recorded after 2: %v, %v; want %d times", at, err, len(more))
	} else {
		for i, tm := range at {
			if tm.Before(before) || tm.After(time.Now()) || tm.Location() != time.UTC {
				t.Errorf("event %d recorded at %v, not between %v and now in UTC", 3+i, tm, before)
			}
		}
	}
	if at, err := s.Recorded(ctx, g.ID, 0); err != nil || len(at) != 5 {
		t.Fatalf("Recorded after 0: %v, %v; want 5 times", at, err)
	}
	all := append(append([]engine.Record(nil), first...), more...)
	all[3].Payload = json.RawMessage("null") // a missing payload is stored as JSON null

	got := mustEvents(t, s, g.ID, 0, 0)
	if len(got) != len(all) {
		t.Fatalf("got %d records, want %d", len(got), len(all))
	}
	for i := range all {
		w, g := all[i], got[i]
		if g.Seq != w.Seq || g.Kind != w.Kind || g.Actor != w.Actor || g.Step != w.Step {
			t.Errorf("record %d: got %d %q %q %v, want %d %q %q %v", i, g.Seq, g.Kind, g.Actor, g.Step, w.Seq, w.Kind, w.Actor, w.Step)
		}
		if !reflect.DeepEqual(g.Draws, w.Draws) || !reflect.DeepEqual(g.Discards, w.Discards) {
			t.Errorf("record %d: draws %v / %v, want %v / %v", i, g.Draws, g.Discards, w.Draws, w.Discards)
		}
		if string(g.Payload) != string(w.Payload) {
			t.Errorf("record %d: payload %s, want %s", i, g.Payload, w.Payload)
		}
		// The exported form of a record is the same JSON too.
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("record %d: JSON %s, want %s", i, gj, wj)
		}
	}

	for _, c := range []struct {
		after, upTo engine.Seq
		want        []engine.Seq
	}{
		{0, 0, []engine.Seq{1, 2, 3, 4, 5}},
		{2, 0, []engine.Seq{3, 4, 5}},
		{2, 4, []engine.Seq{3, 4}},
		{0, 1, []engine.Seq{1}},
		{4, 4, nil},
		{5, 0, nil},
		{3, 99, []engine.Seq{4, 5}},
	} {
		var seqs []engine.Seq
		for _, r := range mustEvents(t, s, g.ID, c.after, c.upTo) {
			seqs = append(seqs, r.Seq)
		}
		if !reflect.DeepEqual(seqs, c.want) {
			t.Errorf("Events(%d, %d) = %v, want %v", c.after, c.upTo, seqs, c.want)
		}
	}
	if _, err := s.Events(ctx, g.ID+100, 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Events of a missing game: %v, want ErrNotFound", err)
	}

	g2, err := s.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g2.Head != 5 || !g2.Created.Equal(g.Created) || g2.Guild != "guild" || g2.Channel != "chan" {
		t.Errorf("Game = %+v, want head 5 and the created game's fields %+v", g2, g)
	}
	// Another store on the same database reads the same.
	if got := mustEvents(t, base.open(t), g.ID, 0, 0); len(got) != len(all) {
		t.Errorf("another store reads %d records, want %d", len(got), len(all))
	}
}

// testAppendRefuses: an append names the head it expects, numbers its
// records on from it, and is refused whole otherwise; an ended game takes
// nothing more.
func testAppendRefuses(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	g := newGame(t, s, "chan", rec(1, "k", `1`), rec(2, "k", `2`))

	for _, expect := range []engine.Seq{0, 1, 3, 10} {
		_, err := s.Append(ctx, g.ID, expect, []engine.Record{rec(expect+1, "k", `"late"`)}, false)
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("Append after %d with head 2: %v, want ErrConflict", expect, err)
		}
	}
	for _, recs := range [][]engine.Record{
		{rec(4, "k", `1`)},                   // skips 3
		{rec(3, "k", `1`), rec(3, "k", `1`)}, // repeats
		{rec(3, "", `1`)},                    // no kind
		{rec(3, "k", `{nope`)},               // bad JSON
	} {
		_, err := s.Append(ctx, g.ID, 2, recs, false)
		if err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("Append(%v): %v, want a non-conflict error", recs, err)
		}
	}
	if _, err := s.Append(ctx, g.ID+100, 0, []engine.Record{rec(1, "k", `1`)}, false); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Append to a missing game: %v, want ErrNotFound", err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 2 {
		t.Fatalf("refused appends wrote: %d records", len(got))
	}
	if g2, _ := s.Game(ctx, g.ID); g2.Head != 2 {
		t.Fatalf("head = %d after refused appends, want 2", g2.Head)
	}

	// Ending.
	if after, err := s.Append(ctx, g.ID, 2, []engine.Record{rec(3, "k", `"last"`)}, true); err != nil {
		t.Fatal(err)
	} else if !after.Ended || after.Head != 3 || after.Channel != "chan" {
		t.Fatalf("the ending append handed back %+v", after)
	}
	if g2, _ := s.Game(ctx, g.ID); !g2.Ended || g2.Head != 3 {
		t.Fatalf("after the ending append: %+v", g2)
	}
	if _, err := s.Append(ctx, g.ID, 3, []engine.Record{rec(4, "k", `1`)}, false); !errors.Is(err, store.ErrEnded) {
		t.Errorf("Append to an ended game: %v, want ErrEnded", err)
	}
	// Ended comes first: a writer behind the head learns the game is over.
	if _, err := s.Append(ctx, g.ID, 1, []engine.Record{rec(2, "k", `1`)}, false); !errors.Is(err, store.ErrEnded) {
		t.Errorf("Append to an ended game behind its head: %v, want ErrEnded", err)
	}
	if _, err := s.ActiveGame(ctx, "guild", "chan"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ActiveGame after the end: %v, want ErrNotFound", err)
	}
	// Ending with no new records.
	g3 := newGame(t, s, "chan")
	if _, err := s.Append(ctx, g3.ID, 0, nil, true); err != nil {
		t.Fatal(err)
	}
	if g, _ := s.Game(ctx, g3.ID); !g.Ended || g.Head != 0 {
		t.Errorf("after ending an empty game: %+v", g)
	}
}

// testAppendCanceled: an append whose context is done writes nothing.
func testAppendCanceled(t *testing.T, base db) {
	s := base.open(t)
	g := newGame(t, s, "chan")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a canceled context: %v, want context.Canceled", err)
	}
	if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 0 {
		t.Errorf("canceled append wrote %d records", len(got))
	}
}

// race has two writers append the next record with the same expectation,
// 50 times, and checks that exactly one wins each time.
func race(t *testing.T, a, b Store) {
	ctx := context.Background()
	g := newGame(t, a, "chan")
	stores := [2]Store{a, b}
	for head := engine.Seq(0); head < 50; head++ {
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for w := range 2 {
			wg.Go(func() {
				<-start
				_, errs[w] = stores[w].Append(ctx, g.ID, head, []engine.Record{rec(head+1, "k", fmt.Sprintf(`{"writer":%d}`, w))}, false)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for w, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("round %d: both writers won", head)
				}
				winner = w
			case !errors.Is(err, store.ErrConflict):
				t.Fatalf("round %d: writer %d: %v, want nil or ErrConflict", head, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: neither writer won: %v", head, errs)
		}
		got := mustEvents(t, b, g.ID, head, 0)
		if len(got) != 1 || string(got[0].Payload) != fmt.Sprintf(`{"writer":%d}`, winner) {
			t.Fatalf("round %d: log after it holds %v, want writer %d's record", head, got, winner)
		}
	}
	checkContiguous(t, mustEvents(t, a, g.ID, 0, 0))
}

// appendWithRetry appends one record made by mk for the next free number,
// reloading the head and retrying on conflict.
func appendWithRetry(ctx context.Context, s Store, id store.GameID, mk func(seq engine.Seq) []engine.Record) (conflicts int, err error) {
	for {
		g, err := s.Game(ctx, id)
		if err != nil {
			return conflicts, err
		}
		_, err = s.Append(ctx, id, g.Head, mk(g.Head+1), false)
		if !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrBusy) {
			return conflicts, err
		}
		conflicts++
	}
}

// testAppendManyWriters has eight writers on two stores (two processes)
// extend one log in batches, each retrying on conflict: every batch lands
// once, whole and in one piece, numbered without gaps.
func testAppendManyWriters(t *testing.T, base db) {
	ctx := context.Background()
	stores := []Store{base.open(t), base.open(t)}
	g := newGame(t, stores[0], "chan")
	const writers, each = 8, 25

	type mark struct{ Writer, I, Part int }
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	var mu sync.Mutex
	conflicts := 0
	for w := range writers {
		s := stores[w%len(stores)]
		wg.Go(func() {
			for i := range each {
				parts := 1 + (w+i)%3 // batches of 1 to 3 records
				n, err := appendWithRetry(ctx, s, g.ID, func(seq engine.Seq) []engine.Record {
					var recs []engine.Record
					for p := range parts {
						b, _ := json.Marshal(mark{w, i, p})
						recs = append(recs, rec(seq+engine.Seq(p), "k", string(b)))
					}
					return recs
				})
				mu.Lock()
				conflicts += n
				mu.Unlock()
				if err != nil {
					errs <- fmt.Errorf("writer %d append %d: %w", w, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	recs := mustEvents(t, stores[1], g.ID, 0, 0)
	checkContiguous(t, recs)
	seen := make(map[mark]bool)
	for i := 0; i < len(recs); {
		var m mark
		if err := json.Unmarshal(recs[i].Payload, &m); err != nil {
			t.Fatal(err)
		}
		if seen[m] {
			t.Fatalf("record %d duplicates %+v", recs[i].Seq, m)
		}
		// A batch's records are together in the log.
		parts := 1 + (m.Writer+m.I)%3
		for p := range parts {
			var mp mark
			if err := json.Unmarshal(recs[i+p].Payload, &mp); err != nil {
				t.Fatal(err)
			}
			if mp != (mark{m.Writer, m.I, p}) {
				t.Fatalf("record %d is %+v, want part %d of %+v", recs[i+p].Seq, mp, p, m)
			}
			seen[mp] = true
		}
		i += parts
	}
	want := 0
	for w := range writers {
		for i := range each {
			want += 1 + (w+i)%3
		}
	}
	if len(recs) != want || len(seen) != want {
		t.Fatalf("log has %d records (%d distinct), want %d", len(recs), len(seen), want)
	}
	if g2, _ := stores[0].Game(ctx, g.ID); g2.Head != engine.Seq(want) {
		t.Errorf("head = %d, want %d", g2.Head, want)
	}
	t.Logf("%d records by %d writers in 2 stores, %d conflicts retried", want, writers, conflicts)
}

// testOneActiveGamePerChannel: a channel has at most one game that has
// not ended, whoever races to open one; ended games stay listed.
func testOneActiveGamePerChannel(t *testing.T, base db) {
	ctx := context.Background()
	s, s2 := base.open(t), base.open(t)

	if _, err := s.ActiveGame(ctx, "guild", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ActiveGame of an empty channel: %v, want ErrNotFound", err)
	}
	if _, err := s.LatestGame(ctx, "guild", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LatestGame of an empty channel: %v, want ErrNotFound", err)
	}
	if _, err := s.Game(ctx, 1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game of a missing id: %v, want ErrNotFound", err)
	}

	a1 := newGame(t, s, "a", rec(1, "k", `1`))
	if _, err := s2.CreateGame(ctx, "guild", "a", "sweet", nil); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second game in a channel: %v, want ErrConflict", err)
	}
	b1 := newGame(t, s2, "b")
	other, err := s.CreateGame(ctx, "other guild", "a", "gwab", nil)
	if err != nil {
		t.Fatalf("same channel name in another guild: %v", err)
	}
	if g, err := s.ActiveGame(ctx, "guild", "a"); err != nil || g.ID != a1.ID {
		t.Errorf("ActiveGame(a) = %+v, %v; want game %d", g, err, a1.ID)
	}

	// Many creators race for one channel: one wins.
	var wg sync.WaitGroup
	wins := make(chan store.Game, 8)
	for i := range 8 {
		st := []Store{s, s2}[i%2]
		wg.Go(func() {
			g, err := st.CreateGame(ctx, "guild", "c", "gwab", []engine.Record{rec(1, "k", fmt.Sprint(i))})
			switch {
			case err == nil:
				wins <- g
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("creator %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	close(wins)
	if n := len(wins); n != 1 {
		t.Fatalf("%d creators won channel c, want 1", n)
	}
	c1 := <-wins
	if recs := mustEvents(t, s, c1.ID, 0, 0); len(recs) != 1 {
		t.Errorf("the winner's game has %d records, want 1", len(recs))
	}

	// Once the game ends, the channel takes a new one.
	if _, err := s.Append(ctx, a1.ID, 1, nil, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ActiveGame(ctx, "guild", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("ActiveGame after the end: %v, want ErrNotFound", err)
	}
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a1.ID || !g.Ended {
		t.Errorf("LatestGame after the end = %+v, %v; want ended game %d", g, err, a1.ID)
	}
	a2 := newGame(t, s2, "a")
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a2.ID {
		t.Errorf("LatestGame = %+v, %v; want the new game %d", g, err, a2.ID)
	}
	if _, err := s.Append(ctx, a2.ID, 0, nil, true); err != nil {
		t.Fatal(err)
	}
	if g, err := s.LatestGame(ctx, "guild", "a"); err != nil || g.ID != a2.ID {
		t.Errorf("LatestGame with every game ended = %+v, %v; want the newest, %d", g, err, a2.ID)
	}

	gs, err := s.Games(ctx, "guild")
	if err != nil {
		t.Fatal(err)
	}
	var ids []store.GameID
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	if want := []store.GameID{a1.ID, b1.ID, c1.ID, a2.ID}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Games = %v, want %v", ids, want)
	}
	if gs, err := s.Games(ctx, "other guild"); err != nil || len(gs) != 1 || gs[0].ID != other.ID {
		t.Errorf("Games(other guild) = %v, %v", gs, err)
	}
	if gs, err := s.Games(ctx, "nobody"); err != nil || len(gs) != 0 {
		t.Errorf("Games(nobody) = %v, %v", gs, err)
	}
}

// testSnapshots: a snapshot is found by the newest sequence at or before
// the one asked, of the version asked; a game keeps its three newest.
func testSnapshots(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	var recs []engine.Record
	for i := range 20 {
		recs = append(recs, rec(engine.Seq(i+1), "k", fmt.Sprint(i)))
	}
	g := newGame(t, s, "chan", recs...)
	other := newGame(t, s, "other", recs[:10]...)

	if _, _, err := s.Snapshot(ctx, g.ID, 20, "v1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Snapshot with none stored: %v, want ErrNotFound", err)
	}
	put := func(id store.GameID, seq engine.Seq, version string) {
		t.Helper()
		if err := s.PutSnapshot(ctx, id, seq, version, fmt.Appendf(nil, "%s@%d", version, seq)); err != nil {
			t.Fatal(err)
		}
	}
	put(g.ID, 5, "v1")
	put(g.ID, 10, "v1")
	put(g.ID, 12, "v2")
	put(other.ID, 8, "v1")
	check := func(atMost engine.Seq, version string, want engine.Seq) {
		t.Helper()
		seq, data, err := s.Snapshot(ctx, g.ID, atMost, version)
		if want < 0 {
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("Snapshot(%d, %s) = %d, %q, %v; want ErrNotFound", atMost, version, seq, data, err)
			}
			return
		}
		if err != nil || seq != want || string(data) != fmt.Sprintf("%s@%d", version, want) {
			t.Errorf("Snapshot(%d, %s) = %d, %q, %v; want %d", atMost, version, seq, data, err, want)
		}
	}
	check(20, "v1", 10)
	check(10, "v1", 10)
	check(9, "v1", 5)
	check(4, "v1", -1)
	check(20, "v2", 12)
	check(11, "v2", -1)
	check(20, "v3", -1)

	// Only the three with the highest seq stay, whatever their version.
	put(g.ID, 15, "v2")
	check(9, "v1", -1)
	check(20, "v1", 10)
	// Putting the same seq and version again replaces it.
	if err := s.PutSnapshot(ctx, g.ID, 15, "v2", []byte("again")); err != nil {
		t.Fatal(err)
	}
	if _, data, _ := s.Snapshot(ctx, g.ID, 20, "v2"); string(data) != "again" {
		t.Errorf("replaced snapshot reads %q", data)
	}
	put(g.ID, 20, "v2")
	check(20, "v1", -1)
	// Other games keep theirs.
	if seq, _, err := s.Snapshot(ctx, other.ID, 10, "v1"); err != nil || seq != 8 {
		t.Errorf("other game's snapshot: %d, %v", seq, err)
	}

	if err := s.PutSnapshot(ctx, g.ID, 21, "v1", []byte("x")); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Errorf("snapshot past the head: %v, want an error", err)
	}
	if err := s.PutSnapshot(ctx, g.ID+100, 0, "v1", []byte("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("snapshot of a missing game: %v, want ErrNotFound", err)
	}
	if err := s.PutSnapshot(ctx, g.ID, 20, "", []byte("x")); err == nil {
		t.Error("snapshot without a version: no error")
	}
	// Empty data reads back empty.
	if err := s.PutSnapshot(ctx, other.ID, 10, "empty", nil); err != nil {
		t.Fatal(err)
	}
	if seq, data, err := s.Snapshot(ctx, other.ID, 10, "empty"); err != nil || seq != 10 || data == nil || len(data) != 0 {
		t.Errorf("empty snapshot: %d, %v, %v", seq, data, err)
	}
}

// testDeadlines: a turn deadline is kept as set, read by another store,
// listed when its reminder or its time is due, claimed once each, and
// removed.
func testDeadlines(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	g, err := s.CreateGame(ctx, "g", "c", "gwab", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameDeadline(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deadline before one is set: %v, want ErrNotFound", err)
	}
	if info, err := s.ActiveGame(ctx, "g", "c"); err != nil || info.Deadline {
		t.Fatalf("before a deadline is set the game reads %+v, %v", info, err)
	}
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	d := store.Deadline{Game: g.ID, Guild: "g", Channel: "c", Per: 2 * time.Hour, Seq: 7,
		Due: t0.Add(2 * time.Hour), Remind: t0.Add(90 * time.Minute)}
	if err := s.PutDeadline(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDeadline(ctx, store.Deadline{Game: g.ID, Per: time.Second}); err == nil {
		t.Fatal("a deadline shorter than a minute was stored")
	}
	s = base.open(t) // as another process, or the same after a restart
	got, err := s.GameDeadline(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got != d {
		t.Fatalf("read back: %+v, want %+v", got, d)
	}
	// The game's row says it has a deadline, so a step need not ask.
	if info, err := s.ActiveGame(ctx, "g", "c"); err != nil || !info.Deadline {
		t.Fatalf("the game with a deadline reads %+v, %v", info, err)
	}
	// So does the row an append hands back, read under its write lock.
	if info, err := s.Append(ctx, g.ID, 0, []engine.Record{rec(1, "k", `1`)}, false); err != nil || !info.Deadline || info.Head != 1 {
		t.Fatalf("an append to the game with a deadline hands back %+v, %v", info, err)
	}
	if info, err := s.Game(ctx, g.ID); err != nil || !info.Deadline {
		t.Fatalf("the game with a deadline reads %+v, %v", info, err)
	}
	for _, c := range []struct {
		at   time.Time
		want int
	}{{t0, 0}, {t0.Add(90 * time.Minute), 1}, {t0.Add(3 * time.Hour), 1}} {
		due, err := s.DueDeadlines(ctx, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != c.want {
			t.Errorf("due at %s: %d deadlines, want %d", c.at, len(due), c.want)
		}
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 6, false); err != nil || ok {
		t.Fatalf("a reminder for another step was claimed: %v, %v", ok, err)
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 7, false); err != nil || !ok {
		t.Fatalf("the reminder was not claimed: %v, %v", ok, err)
	}
	if ok, _ := s.ClaimDeadline(ctx, g.ID, 7, false); ok {
		t.Fatal("the reminder was claimed twice")
	}
	if due, _ := s.DueDeadlines(ctx, t0.Add(100*time.Minute)); len(due) != 0 {
		t.Errorf("a reminded deadline is due again before its time: %+v", due)
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 7, true); err != nil || !ok {
		t.Fatalf("the time run out was not claimed: %v, %v", ok, err)
	}
	if ok, _ := s.ClaimDeadline(ctx, g.ID, 7, true); ok {
		t.Fatal("the time run out was claimed twice")
	}
	if due, _ := s.DueDeadlines(ctx, t0.Add(5*time.Hour)); len(due) != 0 {
		t.Errorf("a claimed deadline is still due: %+v", due)
	}
	if err := s.RemoveDeadline(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameDeadline(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removed deadline: %v, want ErrNotFound", err)
	}
	if info, err := s.Game(ctx, g.ID); err != nil || info.Deadline {
		t.Errorf("the game with its deadline removed reads %+v, %v", info, err)
	}
}

// testAppendSeesAnothersDeadline: one instance steps a game while
// another sets its deadline and lifts it again; each row the first
// instance's append hands back says whether the game has a deadline as
// the store has it then, however the instance last saw it.
func testAppendSeesAnothersDeadline(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	g, err := a.CreateGame(ctx, "g", "c", "gwab", []engine.Record{rec(1, "k", `1`)})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := a.Append(ctx, g.ID, 1, []engine.Record{rec(2, "k", `2`)}, false); err != nil || info.Deadline {
		t.Fatalf("an append before any deadline hands back %+v, %v", info, err)
	}
	d := store.Deadline{Game: g.ID, Guild: "g", Channel: "c", Per: time.Hour, Seq: 2}
	if err := b.PutDeadline(ctx, d); err != nil {
		t.Fatal(err)
	}
	info, err := a.Append(ctx, g.ID, 2, []engine.Record{rec(3, "k", `3`)}, false)
	if err != nil || !info.Deadline || info.Head != 3 || info.Ended {
		t.Fatalf("an append after another instance set a deadline hands back %+v, %v", info, err)
	}
	if err := b.RemoveDeadline(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	info, err = a.Append(ctx, g.ID, 3, []engine.Record{rec(4, "k", `4`), rec(5, "k", `5`)}, true)
	if err != nil || info.Deadline || info.Head != 5 || !info.Ended {
		t.Fatalf("an append after another instance lifted the deadline hands back %+v, %v", info, err)
	}
	if now, err := b.Game(ctx, g.ID); err != nil || now != info {
		t.Fatalf("the other instance reads %+v, %v; the append handed back %+v", now, err, info)
	}
	// A deadline set again after the game ended does not let an append in.
	if err := b.PutDeadline(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, g.ID, 5, []engine.Record{rec(6, "k", `6`)}, false); !errors.Is(err, store.ErrEnded) {
		t.Fatalf("an append to the ended game: %v, want ErrEnded", err)
	}
}

// testAppendSeesAnothersEnd has one instance append to a game it has
// seen, after another moved it on or ended it: the first append is a
// conflict, the second learns that the game is over, and neither writes
// anything. A long step (more records than one statement takes) of a
// game seen at its head lands whole.
func testAppendSeesAnothersEnd(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	g, err := a.CreateGame(ctx, "g", "c", "gwab", []engine.Record{rec(1, "k", `1`)})
	if err != nil {
		t.Fatal(err)
	}
	long := make([]engine.Record, 19)
	for i := range long {
		long[i] = rec(engine.Seq(3+i), "k", fmt.Sprint(3+i))
	}
	if info, err := a.Append(ctx, g.ID, 1, []engine.Record{rec(2, "k", `2`)}, false); err != nil || info.Head != 2 {
		t.Fatalf("an append to a new game hands back %+v, %v", info, err)
	}
	if info, err := a.Append(ctx, g.ID, 2, long, false); err != nil || info.Head != 21 {
		t.Fatalf("a long append hands back %+v, %v", info, err)
	}
	if _, err := b.Append(ctx, g.ID, 21, []engine.Record{rec(22, "b", `22`)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, g.ID, 21, []engine.Record{rec(22, "a", `22`), rec(23, "a", `23`)}, false); !errors.Is(err, store.ErrConflict) {
		t.Errorf("an append after another instance moved the game on: %v, want ErrConflict", err)
	}
	if _, err := b.Append(ctx, g.ID, 22, []engine.Record{rec(23, "b", `23`)}, true); err != nil {
		t.Fatal(err)
	}
	for _, expect := range []engine.Seq{21, 23} {
		if _, err := a.Append(ctx, g.ID, expect, []engine.Record{rec(expect+1, "a", `0`)}, false); !errors.Is(err, store.ErrEnded) {
			t.Errorf("an append after %d once another instance ended the game: %v, want ErrEnded", expect, err)
		}
	}
	recs := mustEvents(t, b, g.ID, 0, 0)
	checkContiguous(t, recs)
	if len(recs) != 23 || recs[21].Kind != "b" || recs[22].Kind != "b" {
		t.Errorf("the log after both instances: %d records, the last two %v", len(recs), recs[max(0, len(recs)-2):])
	}
}

// testClaimDeadlineOnce has four claimants on two stores (two instances
// of the bot) claim the same due deadline at once, many times: each time
// exactly one gets it.
func testClaimDeadlineOnce(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	g, err := a.CreateGame(ctx, "guild", "chan", "gwab", []engine.Record{rec(1, "open", "{}")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.UnixMilli(time.Now().UnixMilli()).UTC()
	d := store.Deadline{Game: g.ID, Guild: "guild", Channel: "chan", Per: time.Hour, Seq: 1, Due: now.Add(-time.Second), Remind: now.Add(-2 * time.Second)}
	for round := range 20 {
		if err := a.PutDeadline(ctx, d); err != nil {
			t.Fatal(err)
		}
		if due, err := b.DueDeadlines(ctx, now); err != nil || len(due) != 1 {
			t.Fatalf("due = %+v, %v; want the one deadline", due, err)
		}
		for _, isDue := range []bool{false, true} {
			var won atomic.Int64
			var wg sync.WaitGroup
			for _, s := range []Store{a, b, a, b} {
				wg.Go(func() {
					ok, err := s.ClaimDeadline(ctx, g.ID, 1, isDue)
					if err != nil && !errors.Is(err, store.ErrBusy) {
						t.Error(err)
					}
					if ok {
						won.Add(1)
					}
				})
			}
			wg.Wait()
			if won.Load() != 1 {
				t.Fatalf("round %d, due %v: %d claims won, want 1", round, isDue, won.Load())
			}
		}
		if ok, _ := a.ClaimDeadline(ctx, g.ID, 2, true); ok {
			t.Fatal("a claim for another step won")
		}
		if due, _ := b.DueDeadlines(ctx, now); len(due) != 0 {
			t.Fatalf("due after the claims = %+v, want none", due)
		}
	}
}

// testInteractionTakenOnce: the first taker of an interaction is told it
// is fresh; every other, on the same store or another on the same
// database, is not, and reads the answer once recorded; two hours on, it
// is forgotten.
func testInteractionTakenOnce(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	if _, fresh, err := a.TakeInteraction(ctx, "800", now); err != nil || !fresh {
		t.Fatalf("first take: fresh %v, %v", fresh, err)
	}
	if ans, fresh, err := b.TakeInteraction(ctx, "800", now); err != nil || fresh || ans != nil {
		t.Fatalf("second take while in hand: %q, fresh %v, %v", ans, fresh, err)
	}
	if err := a.AnswerInteraction(ctx, "800", []byte("done")); err != nil {
		t.Fatal(err)
	}
	if ans, fresh, err := base.open(t).TakeInteraction(ctx, "800", now.Add(time.Minute)); err != nil || fresh || !bytes.Equal(ans, []byte("done")) {
		t.Fatalf("take on a third store: %q, fresh %v, %v", ans, fresh, err)
	}
	if _, fresh, err := b.TakeInteraction(ctx, "800", now.Add(2*time.Hour)); err != nil || !fresh {
		t.Fatalf("take two hours on: fresh %v, %v", fresh, err)
	}
	if _, _, err := a.TakeInteraction(ctx, "", now); err == nil {
		t.Error("an empty ID was taken")
	}
}

// testOpenConcurrently opens one new database from six stores at once:
// each applies what migrations it finds missing, once between them, and
// all work.
func testOpenConcurrently(t *testing.T, base db) {
	stores := make([]Store, 6)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = base.opener(context.Background()) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("opener %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	g := newGame(t, stores[5], "chan", rec(1, "k", `1`))
	for i, s := range stores {
		if got := mustEvents(t, s, g.ID, 0, 0); len(got) != 1 {
			t.Errorf("store %d reads %d records, want 1", i, len(got))
		}
	}
}

// testCopyGames copies every game of one database into another, as
// rhapsode migrate does: IDs, rows, logs and deadlines read back the
// same; a game copied twice is refused; new games are numbered after the
// copied ones.
func testCopyGames(t *testing.T, base db) {
	ctx := context.Background()
	src := base.open(t)
	c := seedCopies(t, src)
	a, empty, dl, pub := c.a, c.empty, c.dl, c.pub
	games, err := src.AllGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 3 {
		t.Fatalf("AllGames = %d games, want 3", len(games))
	}

	dst := db{opener: base.fresh(t)}.open(t)
	if gs, err := dst.AllGames(ctx); err != nil || len(gs) != 0 {
		t.Fatalf("a new database holds %v, %v", gs, err)
	}
	copyGames(t, src, dst, games)
	checkCopiedGames(t, src, dst, games)
	if d, err := dst.GameDeadline(ctx, a.ID); err != nil || d != dl {
		t.Errorf("copied deadline %+v, %v; want %+v", d, err, dl)
	}
	if want, got := must(src.GameCalls(ctx, a.ID, 0)), must(dst.GameCalls(ctx, a.ID, 0)); len(got) != 1 || !reflect.DeepEqual(got, want) {
		t.Errorf("copied calls %+v, want %+v", got, want)
	}
	if ok, err := dst.ClaimReminder(ctx, a.ID, "alice", 3, "before-4h"); ok || err != nil {
		t.Errorf("a reminder sent before the copy was claimed again after it: %v, %v", ok, err)
	}
	sets, err := src.AllSettings(ctx)
	if err != nil || len(sets) != 1 || sets[0].Subject != "player:alice" || string(sets[0].Value) != `{"zone":"UTC+1"}` {
		t.Errorf("AllSettings = %+v, %v", sets, err)
	}
	if _, err := dst.ActiveGame(ctx, "guild", "c"); err != nil {
		t.Errorf("the copied open game of channel c: %v", err)
	}
	if p, err := dst.Published(ctx, pub.Token); err != nil || p != pub {
		t.Errorf("the copied publication %+v, %v; want %+v", p, err, pub)
	}
	// The channel whose game ended takes a new one, numbered after all.
	next, err := dst.CreateGame(ctx, "guild", "b", "gwab", nil)
	if err != nil {
		t.Fatal(err)
	}
	if next.ID <= empty.ID {
		t.Errorf("a new game after the copy is numbered %d, not after %d", next.ID, empty.ID)
	}
	bad := store.GameCopy{Game: store.Game{ID: 99, Guild: "g", Channel: "x", Ruleset: "gwab", Head: 2}, Events: []engine.Record{rec(1, "k", `1`)}}
	if err := dst.ImportGame(ctx, bad); err == nil {
		t.Error("a copy with a log shorter than its head was imported")
	}
}

// copySource is what testCopyGames copies: a game with a deadline, calls
// and a reminder sent; an ended, published game; an empty one.
type copySource struct {
	a, empty store.Game
	dl       store.Deadline
	pub      store.Publication
}

// seedCopies fills src with the games testCopyGames copies.
func seedCopies(t *testing.T, src Store) copySource {
	t.Helper()
	ctx := context.Background()
	a := newGame(t, src, "a", rec(1, "k", `1`), rec(2, "k", `{"b":[2]}`))
	ended := newGame(t, src, "b", rec(1, "k", `1`))
	if _, err := src.Append(ctx, ended.ID, 1, []engine.Record{{Seq: 2, Kind: "k", Step: true, Draws: []engine.Draw{{Die: engine.D6, Roll: 5}}, Payload: json.RawMessage(`"end"`)}}, true); err != nil {
		t.Fatal(err)
	}
	empty := newGame(t, src, "c")
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	dl := store.Deadline{Game: a.ID, Guild: "guild", Channel: "a", Per: 3 * time.Hour, Seq: 2, Due: t0.Add(3 * time.Hour), Remind: t0.Add(150 * time.Minute)}
	if err := src.PutDeadline(ctx, dl); err != nil {
		t.Fatal(err)
	}
	pub, err := src.Publish(ctx, "guild", ended.ID, "copied-token-0123456789", t0)
	if err != nil {
		t.Fatal(err)
	}
	// Game a calls alice, and a reminder of hers is sent.
	if a, err = src.AppendCalling(ctx, a.ID, 2, []engine.Record{rec(3, "k", `3`)}, false, store.CallChange{At: t0, Called: []engine.PlayerID{"alice"}}); err != nil {
		t.Fatal(err)
	}
	if ok, err := src.ClaimReminder(ctx, a.ID, "alice", 3, "before-4h"); !ok || err != nil {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	if err := src.PutSetting(ctx, "guild", "player:alice", []byte(`{"zone":"UTC+1"}`)); err != nil {
		t.Fatal(err)
	}
	return copySource{a: a, empty: empty, dl: dl, pub: pub}
}

// copyGames copies games from src into dst, each once, and checks that
// a second import of each is refused.
func copyGames(t *testing.T, src, dst Store, games []store.Game) {
	t.Helper()
	ctx := context.Background()
	for _, g := range games {
		c, err := store.Copy(ctx, src, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := dst.ImportGame(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := dst.ImportGame(ctx, c); !errors.Is(err, store.ErrConflict) {
			t.Errorf("game %d imported twice: %v, want ErrConflict", g.ID, err)
		}
	}
}

// checkCopiedGames checks that dst holds games as src does, with their
// logs.
func checkCopiedGames(t *testing.T, src, dst Store, games []store.Game) {
	t.Helper()
	ctx := context.Background()
	got, err := dst.AllGames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(games) {
		t.Fatalf("copied %d games, want %d", len(got), len(games))
	}
	for i, g := range games {
		h := got[i]
		if h.ID != g.ID || h.Guild != g.Guild || h.Channel != g.Channel || h.Ruleset != g.Ruleset || h.Head != g.Head ||
			h.Ended != g.Ended || !h.Created.Equal(g.Created) || h.Deadline != g.Deadline {
			t.Errorf("copied game %+v, want %+v", h, g)
		}
		want, got := mustEvents(t, src, g.ID, 0, 0), mustEvents(t, dst, g.ID, 0, 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("game %d's copied log %v, want %v", g.ID, got, want)
		}
	}
}

// testPublications: a game is published once, under the first token, for
// its guild; found by token from another store; withdrawn, it is gone.
func testPublications(t *testing.T, base db) {
	ctx := context.Background()
	s, other := base.open(t), base.open(t)
	g := newGame(t, s, "chan")
	h := newGame(t, s, "other")
	now := time.Date(2026, 11, 24, 12, 0, 0, 123456789, time.UTC)
	if _, err := s.Published(ctx, "tok-a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unpublished token: %v, want ErrNotFound", err)
	}
	p, err := s.Publish(ctx, "guild", g.ID, "tok-a", now)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Publication{Token: "tok-a", Guild: "guild", Game: g.ID, Created: now.Truncate(time.Microsecond)}
	if p != want {
		t.Errorf("Publish = %+v, want %+v", p, want)
	}
	if again, err := other.Publish(ctx, "guild", g.ID, "tok-b", now.Add(time.Hour)); err != nil || again != want {
		t.Errorf("publishing again = %+v, %v; want the first publication", again, err)
	}
	if _, err := s.Published(ctx, "tok-b"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the second token of a game published twice: %v, want ErrNotFound", err)
	}
	if got, err := other.Published(ctx, "tok-a"); err != nil || got != want {
		t.Errorf("Published from another store = %+v, %v", got, err)
	}
	if got, err := other.PublicationOf(ctx, g.ID); err != nil || got != want {
		t.Errorf("PublicationOf = %+v, %v", got, err)
	}
	if _, err := s.Publish(ctx, "another guild", g.ID, "tok-c", now); err == nil {
		t.Error("another guild published this guild's game")
	}
	if _, err := s.Publish(ctx, "guild", h.ID, "tok-a", now); err == nil {
		t.Error("a second game took a token in use")
	}
	if ok, err := other.Withdraw(ctx, g.ID); err != nil || !ok {
		t.Fatalf("Withdraw = %v, %v", ok, err)
	}
	if _, err := s.Published(ctx, "tok-a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a withdrawn token: %v, want ErrNotFound", err)
	}
	if ok, err := s.Withdraw(ctx, g.ID); err != nil || ok {
		t.Errorf("withdrawing again = %v, %v; want false", ok, err)
	}
}

// testSettings: a setting reads back as put, on another store of the same
// database; put again it is replaced; put nil it is gone; guilds and
// subjects are apart.
func testSettings(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	if _, err := b.Setting(ctx, "guild", "player:alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unset setting: %v, want ErrNotFound", err)
	}
	for _, v := range []string{`{"zone":"Europe/Paris"}`, `{"zone":"UTC"}`} {
		if err := a.PutSetting(ctx, "guild", "player:alice", []byte(v)); err != nil {
			t.Fatal(err)
		}
		if got, err := b.Setting(ctx, "guild", "player:alice"); err != nil || string(got) != v {
			t.Fatalf("setting = %q, %v; want %q", got, err, v)
		}
	}
	if _, err := b.Setting(ctx, "other", "player:alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another guild's setting: %v, want ErrNotFound", err)
	}
	if _, err := b.Setting(ctx, "guild", "server"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("another subject's setting: %v, want ErrNotFound", err)
	}
	if err := a.PutSetting(ctx, "guild", "player:alice", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Setting(ctx, "guild", "player:alice"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a removed setting: %v, want ErrNotFound", err)
	}
}

// testCalls: the open calls read back per guild (or every guild) and
// oldest first, a player's calls in a guild, a game's calls, from another
// store of the same database.
func testCalls(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	g1 := newGame(t, a, "one", rec(1, "open", "{}"))
	g2 := newGame(t, a, "two", rec(1, "open", "{}"))
	g3, err := a.CreateGame(ctx, "elsewhere", "three", "gwab", []engine.Record{rec(1, "open", "{}")})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.UnixMilli(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMilli()).UTC()
	step := func(g store.Game, expect engine.Seq, c store.CallChange) {
		t.Helper()
		if _, err := a.AppendCalling(ctx, g.ID, expect, []engine.Record{rec(expect+1, "step", "{}")}, false, c); err != nil {
			t.Fatal(err)
		}
	}
	step(g1, 1, store.CallChange{At: t0, Called: []engine.PlayerID{"alice"}})
	step(g1, 2, store.CallChange{At: t0.Add(time.Minute), Called: []engine.PlayerID{"bob"}})
	step(g2, 1, store.CallChange{At: t0.Add(2 * time.Minute), Called: []engine.PlayerID{"alice"}})
	step(g3, 1, store.CallChange{At: t0, Called: []engine.PlayerID{"carol"}})
	open, err := b.OpenCalls(ctx, "guild")
	want := store.Call{Game: g1.ID, Guild: "guild", Channel: "one", Player: "alice", Seq: 2, Called: t0}
	if err != nil || len(open) != 3 || open[0] != want {
		t.Fatalf("open calls = %+v, %v; want three, %+v first", open, err, want)
	}
	if all, err := b.OpenCalls(ctx, ""); err != nil || len(all) != 4 {
		t.Fatalf("open calls everywhere = %+v, %v; want four", all, err)
	}
	step(g1, 3, store.CallChange{At: t0.Add(time.Hour), Acted: []engine.PlayerID{"alice"}})
	mine, err := b.PlayerCalls(ctx, "guild", "alice")
	if err != nil || len(mine) != 2 || !mine[0].Acted.Equal(t0.Add(time.Hour)) || mine[0].Ended || !mine[1].Acted.IsZero() {
		t.Fatalf("alice's calls = %+v, %v; want the first answered at %v, the second open", mine, err, t0.Add(time.Hour))
	}
	if its, err := b.GameCalls(ctx, g1.ID, 0); err != nil || len(its) != 2 || its[0].Player != "alice" || its[1].Player != "bob" {
		t.Fatalf("game one's calls = %+v, %v; want alice's then bob's", its, err)
	}
	if its, err := b.GameCalls(ctx, g1.ID, 1); err != nil || len(its) != 1 || its[0].Player != "bob" {
		t.Fatalf("game one's last call = %+v, %v; want bob's", its, err)
	}
	if theirs, err := b.PlayerCalls(ctx, "guild", "carol"); err != nil || len(theirs) != 0 {
		t.Fatalf("carol's calls in guild = %+v, %v; want none (hers are elsewhere)", theirs, err)
	}
}

// testClaimReminderOnce: of four claimants on two stores of one
// database, one alone gets each rung of a call; another rung, player or
// step is another reminder.
func testClaimReminderOnce(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	g := newGame(t, a, "chan", rec(1, "open", "{}"))
	for _, k := range []struct {
		player engine.PlayerID
		seq    engine.Seq
		rung   string
	}{{"alice", 1, "before-24h"}, {"alice", 1, "before-4h"}, {"bob", 1, "before-4h"}, {"alice", 2, "before-4h"}} {
		var won atomic.Int64
		var wg sync.WaitGroup
		for _, s := range []Store{a, b, a, b} {
			wg.Go(func() {
				ok, err := s.ClaimReminder(ctx, g.ID, k.player, k.seq, k.rung)
				if err != nil && !errors.Is(err, store.ErrBusy) {
					t.Error(err)
				}
				if ok {
					won.Add(1)
				}
			})
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%+v: %d claims won, want 1", k, won.Load())
		}
	}
}

// testClaimOnce: of four claimants of one name on two stores of one
// database, one alone gets it; later claims of it fail; another name is
// another claim.
func testClaimOnce(t *testing.T, base db) {
	ctx := context.Background()
	a, b := base.open(t), base.open(t)
	now := time.Now()
	for _, name := range []string{"digest:guild:1", "digest:guild:2", "dead:7:41"} {
		var won atomic.Int64
		var wg sync.WaitGroup
		for _, s := range []Store{a, b, a, b} {
			wg.Go(func() {
				ok, err := s.Claim(ctx, name, now)
				if err != nil && !errors.Is(err, store.ErrBusy) {
					t.Error(err)
				}
				if ok {
					won.Add(1)
				}
			})
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Fatalf("%s: %d claims won, want 1", name, won.Load())
		}
		if ok, err := a.Claim(ctx, name, now.Add(time.Hour)); ok || err != nil {
			t.Fatalf("%s claimed again an hour on: %v, %v", name, ok, err)
		}
	}
}

// testAppendCalling: a step appended with its calls records them in its
// own transaction: players called at its last event, calls answered,
// left unanswered by a seat handed on, or ended with the game; a refused
// append records none.
func testAppendCalling(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	g := newGame(t, s, "chan", rec(1, "open", "{}"))
	t0 := time.UnixMilli(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMilli()).UTC()
	step := func(expect engine.Seq, c store.CallChange, end bool) error {
		_, err := s.AppendCalling(ctx, g.ID, expect, []engine.Record{rec(expect+1, "step", "{}")}, end, c)
		return err
	}
	open := func() []string {
		t.Helper()
		calls, err := s.OpenCalls(ctx, "guild")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range calls {
			out = append(out, fmt.Sprintf("%s@%d", c.Player, c.Seq))
		}
		return out
	}
	if err := step(1, store.CallChange{At: t0, Called: []engine.PlayerID{"alice", "bob"}}, false); err != nil {
		t.Fatal(err)
	}
	if got := open(); !reflect.DeepEqual(got, []string{"alice@2", "bob@2"}) {
		t.Fatalf("open calls after the first step: %v", got)
	}
	if err := step(1, store.CallChange{At: t0, Acted: []engine.PlayerID{"alice"}, Called: []engine.PlayerID{"carol"}}, false); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("an append behind the head: %v, want ErrConflict", err)
	}
	if got := open(); !reflect.DeepEqual(got, []string{"alice@2", "bob@2"}) {
		t.Fatalf("a refused append changed the calls: %v", got)
	}
	if err := step(2, store.CallChange{At: t0.Add(time.Hour), Acted: []engine.PlayerID{"alice"}, Unseated: []engine.PlayerID{"bob"}, Called: []engine.PlayerID{"alice", "dave"}}, false); err != nil {
		t.Fatal(err)
	}
	if got := open(); !reflect.DeepEqual(got, []string{"alice@3", "dave@3"}) {
		t.Fatalf("open calls after the second step: %v", got)
	}
	if err := step(3, store.CallChange{At: t0.Add(2 * time.Hour), Acted: []engine.PlayerID{"alice"}, Ended: true}, true); err != nil {
		t.Fatal(err)
	}
	if got := open(); len(got) != 0 {
		t.Fatalf("open calls after the game ended: %v", got)
	}
	calls, err := s.GameCalls(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, fmt.Sprintf("%s@%d %s ended=%v unseated=%v", c.Player, c.Seq, c.Acted.Sub(t0), c.Ended, c.Unseated))
	}
	want := []string{"alice@2 1h0m0s ended=false unseated=false", "bob@2 1h0m0s ended=true unseated=true",
		"alice@3 2h0m0s ended=false unseated=false", "dave@3 2h0m0s ended=true unseated=false"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the game's calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// testCallAgain: a player has at most one open call in a game. Calling
// one again who still has one, whether or not the step says he acted,
// closes it as answered at that step, and his new call is his one open
// call; in a game that has ended no call is open.
func testCallAgain(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	g := newGame(t, s, "chan", rec(1, "open", "{}"))
	t0 := time.UnixMilli(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMilli()).UTC()
	step := func(expect engine.Seq, c store.CallChange) {
		t.Helper()
		c.At = t0.Add(time.Duration(expect) * time.Minute)
		if _, err := s.AppendCalling(ctx, g.ID, expect, []engine.Record{rec(expect+1, "step", "{}")}, false, c); err != nil {
			t.Fatal(err)
		}
	}
	alice, bob := []engine.PlayerID{"alice"}, []engine.PlayerID{"bob"}
	step(1, store.CallChange{Called: []engine.PlayerID{"alice", "bob"}})
	step(2, store.CallChange{Acted: alice, Called: alice})
	step(3, store.CallChange{Called: bob})
	calls, err := s.GameCalls(ctx, g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		state := "open"
		if !c.Acted.IsZero() {
			state = c.Acted.Sub(t0).String()
		}
		got = append(got, fmt.Sprintf("%s@%d %s", c.Player, c.Seq, state))
	}
	if want := []string{"alice@2 2m0s", "bob@2 3m0s", "alice@3 open", "bob@4 open"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the game's calls: %v, want %v", got, want)
	}
	open, err := s.OpenCalls(ctx, "")
	if err != nil || len(open) != 2 || open[0].Player != "alice" || open[0].Seq != 3 || open[1].Player != "bob" || open[1].Seq != 4 {
		t.Fatalf("open calls: %+v, %v; want alice's at 3 and bob's at 4", open, err)
	}
	// A plain append that ends the game leaves its calls as they are,
	// but none is open any more.
	if _, err := s.Append(ctx, g.ID, 4, []engine.Record{rec(5, "end", "{}")}, true); err != nil {
		t.Fatal(err)
	}
	if open, err := s.OpenCalls(ctx, "guild"); err != nil || len(open) != 0 {
		t.Fatalf("open calls of an ended game: %+v, %v", open, err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// testLastStep: a player's last step in a game after a number is the
// last record after it that begins a command of his, with the time it was
// recorded; the records of his step after its first, other players'
// steps, his steps at or before the number and other games do not count.
func testLastStep(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	by := func(seq engine.Seq, actor engine.PlayerID, step bool) engine.Record {
		return engine.Record{Seq: seq, Kind: "step", Actor: actor, Step: step, Payload: json.RawMessage("{}")}
	}
	g := newGame(t, s, "chan", by(1, "alice", true))
	other := newGame(t, s, "other", by(1, "alice", true))
	if _, err := s.Append(ctx, g.ID, 1, []engine.Record{by(2, "bob", true), by(3, "alice", false)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, g.ID, 3, []engine.Record{by(4, "alice", true), by(5, "alice", false)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, g.ID, 5, []engine.Record{by(6, "bob", true)}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, other.ID, 1, []engine.Record{by(2, "alice", true)}, false); err != nil {
		t.Fatal(err)
	}
	at, err := s.Recorded(ctx, g.ID, 0)
	if err != nil || len(at) != 6 {
		t.Fatalf("Recorded: %v, %v", at, err)
	}
	for _, c := range []struct {
		player engine.PlayerID
		after  engine.Seq
		want   engine.Seq
	}{
		{"alice", 0, 4}, {"alice", 3, 4}, {"alice", 4, 0}, {"bob", 0, 6}, {"bob", 5, 6}, {"bob", 6, 0}, {"carol", 0, 0},
	} {
		seq, when, err := s.LastStep(ctx, g.ID, c.player, c.after)
		if err != nil {
			t.Fatalf("%s after %d: %v", c.player, c.after, err)
		}
		var want time.Time
		if c.want > 0 {
			want = at[c.want-1]
		}
		if seq != c.want || !when.Equal(want) {
			t.Errorf("last step of %s after %d: %d at %v, want %d at %v", c.player, c.after, seq, when, c.want, want)
		}
	}
}

// testCreateGameCalling: a new game records the calls of the players it
// awaits with its first events, at its head and time; a second game in
// the same channel, refused, records none.
func testCreateGameCalling(t *testing.T, base db) {
	ctx := context.Background()
	s := base.open(t)
	t0 := time.UnixMilli(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC).UnixMilli()).UTC()
	recs := []engine.Record{rec(1, "open", "{}"), rec(2, "setup", "{}")}
	g, err := s.CreateGameCalling(ctx, "guild", "chan", "gwab", recs, store.CallChange{At: t0, Called: []engine.PlayerID{"alice", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGameCalling(ctx, "guild", "chan", "gwab", recs, store.CallChange{At: t0, Called: []engine.PlayerID{"carol"}}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second game in the channel: %v, want ErrConflict", err)
	}
	calls, err := s.OpenCalls(ctx, "guild")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		got = append(got, fmt.Sprintf("%s in %d@%d at %s", c.Player, c.Game, c.Seq, c.Called.Sub(t0)))
	}
	want := []string{fmt.Sprintf("alice in %d@2 at 0s", g.ID), fmt.Sprintf("bob in %d@2 at 0s", g.ID)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("open calls of the new game: %v, want %v", got, want)
	}
}
