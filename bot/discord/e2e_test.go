package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

func channelMessage(pred func(call) bool) func(call) bool {
	return func(c call) bool {
		return c.Method == http.MethodPost && strings.HasPrefix(c.Path, "/api/v9/channels/"+testChannel+"/messages") && pred(c)
	}
}

// heraldMessage accepts a message posted to the saga's Herald channel
// that begins with prefix.
func heraldMessage(prefix string) func(call) bool {
	return func(c call) bool {
		return c.Method == http.MethodPost && c.Path == "/api/v9/channels/500000000000000002/messages" && strings.HasPrefix(content(c), prefix)
	}
}

// pinged returns the users a call's allowed mentions let it notify.
func pinged(c call) []string {
	am, _ := c.obj()["allowed_mentions"].(map[string]any)
	var out []string
	users, _ := am["users"].([]any)
	for _, u := range users {
		out = append(out, u.(string))
	}
	return out
}

var turnCallRE = regexp.MustCompile(`^<@(\d+)>, the table waits for you to take the (\w+)' turn\.$`)

// TestEndToEnd plays a short book of a saga through the HTTP interactions
// endpoint against a fake Discord on loopback: the Herald's announcements
// in the saga's channel, a step's deferred response edited with a picture, the turn's player pinged, a deadline set by a member
// who manages the server, kept across a restart of the bot, a reminder,
// and the deadline passing on the bot's own scheduler with a fake clock,
// so that the late clan stands aloof and the table is told.
func TestEndToEnd(t *testing.T) {
	e := newEndpoint(t)
	// Carol, of the Herald's role, starts a saga announced in #herald.
	e.send(t, fixture(t, "saga-start"))
	begun := e.fake.waitFor(t, "the Herald's announcement of the saga", heraldMessage("The saga \"Wrath\" begins"))
	if len(pinged(begun)) != 0 {
		t.Errorf("the Herald's announcement may notify %v", pinged(begun))
	}
	for _, name := range []string{"book-open-saga", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
		e.send(t, fixture(t, name))
		e.fake.waitFor(t, name+"'s answer", originalEdit("aW50ZXJhY3Rpb246"+name))
	}
	e.bot.Wait()
	e.fake.take()

	// The book starts: the deferred response is edited with the board,
	// one picture, replacing whatever the response had.
	e.send(t, fixture(t, "book-start"))
	edit := e.fake.waitFor(t, "the start with its board", originalEdit("aW50ZXJhY3Rpb246book-start"))
	if len(edit.Files) != 1 || edit.Files[0] != "files[0]=board.png" {
		t.Errorf("the edit carried files %v, want exactly board.png", edit.Files)
	}
	att, ok := edit.obj()["attachments"].([]any)
	if !ok || len(att) != 1 {
		t.Fatalf("the edit's attachments are %v, want the one new picture alone", edit.obj()["attachments"])
	}
	if a := att[0].(map[string]any); a["id"] != "0" || a["filename"] != "board.png" || len(a) != 2 {
		t.Errorf("the edit keeps attachment %v, want {id 0, board.png}", a)
	}
	if !strings.Contains(content(edit), "Round 1") {
		t.Errorf("the start said %q", content(edit))
	}
	// The Herald announces in its own channel what the book is to the saga.
	e.fake.waitFor(t, "the Herald's word on the book", heraldMessage("Book 1 begins"))

	// The first clan's player is called by a channel message that pings
	// him and no one else.
	tc := e.fake.waitFor(t, "a turn call", channelMessage(func(c call) bool { return turnCallRE.MatchString(content(c)) }))
	m := turnCallRE.FindStringSubmatch(content(tc))
	first, clan := m[1], m[2]
	if got := pinged(tc); !slices.Equal(got, []string{first}) {
		t.Errorf("the turn call may notify %v, want only %s", got, first)
	}
	e.fake.take()

	// Carol, who manages the server, gives each turn two hours.
	e.send(t, fixture(t, "book-deadline"))
	dl := e.fake.waitFor(t, "the deadline set", originalEdit("aW50ZXJhY3Rpb246book-deadline"))
	if !strings.Contains(content(dl), "2 hours") || !strings.Contains(content(dl), "the "+clan) {
		t.Errorf("the deadline was told as %q", content(dl))
	}
	e.bot.Wait()
	e.fake.take()

	// The bot restarts: a new router and bot on the same database file
	// find the deadline there.
	st, err := store.Open(context.Background(), e.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Now = e.clock
	router := bot.NewRouter(bot.Config{Store: st, Rulesets: []engine.Ruleset{gwab.New()}, Renderer: render.New(render.Options{}),
		TurnCalls: true, Now: e.clock})
	b := New(router, e.fake.session(t, "Bot test-token"), nil)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { router.RunDeadlines(ctx, 5*time.Millisecond, b.Post) })
	defer func() { stop(); wg.Wait() }()

	time.Sleep(30 * time.Millisecond)
	if calls := e.fake.peek(); len(calls) != 0 {
		t.Fatalf("the scheduler spoke before its time: %s", describeCall(calls[0]))
	}
	e.advance(95 * time.Minute)
	rem := e.fake.waitFor(t, "a reminder", channelMessage(func(c call) bool { return strings.HasPrefix(content(c), "Reminder") }))
	if got := pinged(rem); !slices.Equal(got, []string{first}) {
		t.Errorf("the reminder may notify %v, want only %s", got, first)
	}
	if !strings.Contains(content(rem), "25 minutes") {
		t.Errorf("the reminder said %q", content(rem))
	}
	time.Sleep(30 * time.Millisecond)
	if n := len(e.fake.take()); n != 1 {
		t.Errorf("%d messages around the reminder, want the reminder alone", n)
	}

	e.advance(30 * time.Minute)
	up := e.fake.waitFor(t, "time running out", channelMessage(func(c call) bool { return strings.HasPrefix(content(c), "Time is up") }))
	if !strings.Contains(content(up), "the "+clan) || !slices.Equal(pinged(up), []string{first}) {
		t.Errorf("time ran out with %q, notifying %v", content(up), pinged(up))
	}
	aloof := e.fake.waitFor(t, "the clan standing aloof", channelMessage(func(c call) bool {
		return strings.Contains(content(c), "The "+clan+" stand aloof this round.")
	}))
	if len(aloof.Files) != 1 {
		t.Errorf("the table was told without the board: files %v", aloof.Files)
	}
	next := e.fake.waitFor(t, "the next turn call", channelMessage(func(c call) bool {
		m := turnCallRE.FindStringSubmatch(content(c))
		return m != nil && m[2] != clan
	}))
	t.Logf("after the deadline: %s", content(next))

	// The stand-in is in the log, as the late player's own step.
	info, err := st.ActiveGame(context.Background(), testGuild, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.Events(context.Background(), info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range recs {
		if r.Kind == "gwab.stood-aloof" && string(r.Actor) == first {
			found = true
		}
	}
	if !found {
		t.Error("no stood-aloof event of the late player in the log")
	}
	// The deadline is set again for the next player.
	d, err := st.GameDeadline(context.Background(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := e.clock().Add(2 * time.Hour); !d.Due.Equal(want) || d.Reminded {
		t.Errorf("the next deadline is %+v, want due %s and no reminder yet", d, want)
	}
}

// TestTwoPlayersAtOnce has alice and bob raise their clans at the same
// moment on one game: both are answered, each with his own step, and the
// log holds the two steps one after the other, each whole.
func TestTwoPlayersAtOnce(t *testing.T) {
	e := newEndpoint(t)
	e.send(t, fixture(t, "book-open"))
	e.fake.waitFor(t, "the opening", originalEdit("aW50ZXJhY3Rpb246book-open"))
	names := []string{"clan-raise-myrmidons", "clan-raise-trojans"}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, n := range names {
		body := fixture(t, n)
		wg.Go(func() {
			<-start
			e.send(t, body)
		})
	}
	close(start)
	wg.Wait()
	for _, n := range names {
		c := e.fake.waitFor(t, n+"'s answer", originalEdit("aW50ZXJhY3Rpb246"+n))
		clan := map[string]string{"clan-raise-myrmidons": "raises the Myrmidons", "clan-raise-trojans": "raises the Trojans"}[n]
		if !strings.Contains(content(c), clan) {
			t.Errorf("%s was answered %q", n, content(c))
		}
	}
	info, err := e.store.ActiveGame(context.Background(), testGuild, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := e.store.Events(context.Background(), info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var steps []engine.Record
	for i, r := range recs {
		if r.Seq != engine.Seq(i+1) {
			t.Fatalf("the log skips from %d to %d", i, r.Seq)
		}
		if r.Step {
			steps = append(steps, r)
		} else if len(steps) > 0 && r.Actor != steps[len(steps)-1].Actor {
			t.Errorf("event %d (%s) of %s lies inside a step of %s", r.Seq, r.Kind, r.Actor, steps[len(steps)-1].Actor)
		}
	}
	var raised []string
	for _, s := range steps {
		if s.Kind == "gwab.clan-raised" {
			var body struct{ Clan struct{ Name string } }
			json.Unmarshal(s.Payload, &body)
			raised = append(raised, string(s.Actor)+":"+body.Clan.Name)
		}
	}
	slices.Sort(raised)
	if want := []string{"100000000000000001:Myrmidons", "100000000000000002:Trojans"}; !slices.Equal(raised, want) {
		t.Errorf("the log raised %v, want %v, one step each", raised, want)
	}
}
