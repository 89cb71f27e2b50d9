package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// fakeGateway is Discord's gateway as its documentation describes it, on
// loopback: Hello with a heartbeat interval, Identify answered by READY
// (with a resume_gateway_url of its own, /resume), Resume answered by the
// events missed since the sequence given and RESUMED, heartbeats
// acknowledged, and the session's events kept so that a resume can replay
// them. A client that closes with 1000 or 1001 ends its session, as
// Discord does. A test makes the faults: a dropped connection, op 7,
// op 9, a close code, a connection that goes silent.
type fakeGateway struct {
	// interval is the heartbeat interval Hello gives, in milliseconds.
	interval int
	// refuse, when set, is the close code the next Identify is answered
	// with.
	refuse int
	// busy is how many Identifies are answered with op 9 (d false), as
	// Discord answers one it cannot take yet.
	busy int
	// replayExtra makes a resume replay that many events before the
	// sequence the client gave, as if Discord delivered them again.
	replayExtra int

	mu sync.Mutex
	// conn holds the session and receives its events; nil during an
	// outage, when the events wait for a resume.
	conn *websocket.Conn
	// zombie: conn neither acknowledges heartbeats nor receives events.
	zombie bool
	// zombieBeats counts the heartbeats a zombie connection received.
	zombieBeats int
	current     *fakeSession
	sessions    map[string]*fakeSession
	identify    map[string]any
	// log is what happened, in order, in words a test checks.
	log     []string
	changed chan struct{}
}

// fakeSession is a session: its sequence and the events it sent.
type fakeSession struct {
	id     string
	seq    int64
	events []map[string]any
	ended  bool
}

func newFakeGateway(interval int) *fakeGateway {
	return &fakeGateway{interval: interval, sessions: map[string]*fakeSession{}, changed: make(chan struct{}, 1)}
}

// note records what happened; g.mu is held.
func (g *fakeGateway) note(format string, args ...any) {
	g.log = append(g.log, fmt.Sprintf(format, args...))
	select {
	case g.changed <- struct{}{}:
	default:
	}
}

func (g *fakeGateway) serve(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	g.mu.Lock()
	g.note("connect %s", r.URL.Path)
	if q := r.URL.Query(); q.Get("v") != discordgo.APIVersion || q.Get("encoding") != "json" {
		g.note("a connection asking for %q", r.URL.RawQuery)
	}
	err = c.WriteJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": g.interval}})
	g.mu.Unlock()
	if err != nil {
		return
	}
	var first struct {
		Op int             `json:"op"`
		D  json.RawMessage `json:"d"`
	}
	if err := c.ReadJSON(&first); err != nil {
		return
	}
	var sess *fakeSession
	g.mu.Lock()
	switch first.Op {
	case 2:
		sess = g.identified(c, r, first.D)
	case 6:
		sess = g.resumed(c, first.D)
	default:
		g.note("a connection beginning with op %d", first.Op)
	}
	g.mu.Unlock()
	for {
		var m struct {
			Op int `json:"op"`
		}
		err := c.ReadJSON(&m)
		g.mu.Lock()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				g.note("the bot closed with %d", ce.Code)
				if sess != nil && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
					sess.ended = true
				}
			}
			if g.conn == c {
				g.conn = nil
			}
			g.mu.Unlock()
			return
		}
		switch {
		case m.Op == 1 && g.conn == c && g.zombie:
			g.zombieBeats++
		case m.Op == 1:
			c.WriteJSON(map[string]any{"op": 11})
		case m.Op == 2:
			g.note("identify on a connection that had begun")
		}
		g.mu.Unlock()
	}
}

// identified answers an Identify, unless told to refuse it; g.mu is held.
func (g *fakeGateway) identified(c *websocket.Conn, r *http.Request, d json.RawMessage) *fakeSession {
	g.note("identify")
	json.Unmarshal(d, &g.identify)
	if g.refuse != 0 {
		c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(g.refuse, "refused"))
		g.refuse = 0
		return nil
	}
	if g.busy > 0 {
		g.busy--
		c.WriteJSON(map[string]any{"op": 9, "d": false})
		return nil
	}
	sess := &fakeSession{id: fmt.Sprintf("session-%d", len(g.sessions)+1)}
	g.sessions[sess.id] = sess
	sess.seq++
	c.WriteJSON(map[string]any{"op": 0, "t": "READY", "s": sess.seq, "d": map[string]any{
		"v": 10, "session_id": sess.id, "resume_gateway_url": "ws://" + r.Host + "/resume",
		"user":        map[string]any{"id": "700000000000000001", "username": "Rhapsode", "bot": true},
		"guilds":      []any{},
		"application": map[string]any{"id": "700000000000000001", "flags": 0},
	}})
	g.conn, g.current, g.zombie = c, sess, false
	return sess
}

// resumed answers a Resume: the events after the sequence given, then
// RESUMED; or op 9 when the session cannot be resumed. g.mu is held.
func (g *fakeGateway) resumed(c *websocket.Conn, d json.RawMessage) *fakeSession {
	var res struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	json.Unmarshal(d, &res)
	g.note("resume %s from %d", res.SessionID, res.Seq)
	sess := g.sessions[res.SessionID]
	if sess == nil || sess.ended || res.Token != "Bot test-token" || res.Seq > sess.seq {
		g.note("resume refused")
		c.WriteJSON(map[string]any{"op": 9, "d": false})
		return nil
	}
	for _, e := range sess.events {
		if e["s"].(int64) > res.Seq-int64(g.replayExtra) {
			c.WriteJSON(e)
		}
	}
	sess.seq++
	c.WriteJSON(map[string]any{"op": 0, "t": "RESUMED", "s": sess.seq, "d": map[string]any{}})
	g.conn, g.current, g.zombie = c, sess, false
	return sess
}

// dispatch sends an interaction as an INTERACTION_CREATE event of the
// current session: at once when a connection holds it, else when the
// session is resumed.
func (g *fakeGateway) dispatch(t *testing.T, name string) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	sess := g.current
	sess.seq++
	e := map[string]any{"op": 0, "t": "INTERACTION_CREATE", "s": sess.seq, "d": json.RawMessage(fixture(t, name))}
	sess.events = append(sess.events, e)
	if g.conn != nil && !g.zombie {
		if err := g.conn.WriteJSON(e); err != nil {
			t.Fatal(err)
		}
	}
}

// drop cuts the connection without a word.
func (g *fakeGateway) drop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conn.UnderlyingConn().Close()
	g.conn = nil
}

// send sends op with d, after which Discord expects the client to
// reconnect: what follows waits for it. Op 9 with d false ends the
// session.
func (g *fakeGateway) send(op int, d any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conn.WriteJSON(map[string]any{"op": op, "d": d})
	if op == 9 && d == false {
		g.current.ended = true
	}
	g.conn = nil
}

// close ends the connection with code; 4007 and 4009 end the session.
func (g *fakeGateway) close(code int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, "fault"))
	g.conn.UnderlyingConn().Close()
	if code == 4007 || code == 4009 {
		g.current.ended = true
	}
	g.conn = nil
}

// silence makes the connection a zombie: open, but acknowledging and
// delivering nothing.
func (g *fakeGateway) silence() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.zombie = true
}

// waitLog waits until the log holds an entry beginning with want after
// the one at index from, and returns its index.
func (g *fakeGateway) waitLog(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		g.mu.Lock()
		for i := from; i < len(g.log); i++ {
			if strings.HasPrefix(g.log[i], want) {
				g.mu.Unlock()
				return i
			}
		}
		log := strings.Join(g.log, "\n")
		g.mu.Unlock()
		select {
		case <-g.changed:
		case <-deadline:
			t.Fatalf("the gateway never saw %q; it saw:\n%s", want, log)
		}
	}
}

func (g *fakeGateway) entries() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.log...)
}

// quickTiming is the gateway's waits scaled for a fake on loopback.
var quickTiming = GatewayTiming{Backoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Reidentify: 10 * time.Millisecond, Handshake: 5 * time.Second}

// runGateway runs a gateway for tb's bot against a fake whose heartbeat
// interval is interval milliseconds, and returns it, the fake, a function
// that stops it and the channel that gets Run's result.
func runGateway(t *testing.T, tb *table, interval int) (*Gateway, *fakeGateway, context.CancelFunc, chan error) {
	t.Helper()
	fake := newFakeGateway(interval)
	tb.fake.gateway = fake
	gw := &Gateway{Bot: tb.bot, Timing: quickTiming}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	finished := make(chan struct{})
	go func() {
		done <- gw.Run(ctx, context.Background())
		close(finished)
	}()
	t.Cleanup(func() {
		stop()
		<-finished
	})
	return gw, fake, stop, done
}

// answered waits until the interaction called name has been answered,
// and reports how many first responses it had (Discord takes one).
func answered(t *testing.T, tb *table, name string) (string, int) {
	t.Helper()
	token := "aW50ZXJhY3Rpb246" + name
	edit := tb.fake.waitFor(t, name+"'s answer", originalEdit(token))
	n := 0
	for _, c := range tb.fake.peek() {
		if c.Method == http.MethodPost && strings.HasSuffix(c.Path, "/"+token+"/callback") {
			n++
		}
	}
	return content(edit), n
}

// health is what the gateway's health check answers.
func health(gw *Gateway) int {
	rec := httptest.NewRecorder()
	gw.Health(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	return rec.Code
}

// TestGateway connects the bot to the fake gateway: it identifies asking
// only for guild events, answers an interaction the gateway sends through
// the REST API (a deferral, then the edit), reports itself healthy only
// while connected, and on shutdown closes with 1000 (ending its session,
// as a bot that leaves should) and returns.
func TestGateway(t *testing.T) {
	tb := newTable(t)
	gw, fake, stop, done := runGateway(t, tb, 45000)
	fake.waitLog(t, 0, "identify")
	fake.mu.Lock()
	intents, _ := fake.identify["intents"].(float64)
	token, _ := fake.identify["token"].(string)
	_, sharded := fake.identify["shard"]
	fake.mu.Unlock()
	if discordgo.Intent(intents) != discordgo.IntentsGuilds || token != "Bot test-token" || sharded {
		t.Errorf("identified with intents %v, token %q, a shard: %v", intents, token, sharded)
	}
	fake.dispatch(t, "book-open")
	tb.fake.waitFor(t, "the deferral", func(c call) bool {
		return strings.HasSuffix(c.Path, "/aW50ZXJhY3Rpb246book-open/callback") && c.obj()["type"] == float64(5)
	})
	if text, n := answered(t, tb, "book-open"); !strings.Contains(text, "opens a book") || n != 1 {
		t.Errorf("the book was opened with %q, after %d first responses", text, n)
	}
	if code := health(gw); code != http.StatusOK {
		t.Errorf("a connected gateway's health is %d", code)
	}
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the gateway stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the gateway did not stop")
	}
	fake.waitLog(t, 0, "the bot closed with 1000")
	if code := health(gw); code != http.StatusServiceUnavailable {
		t.Errorf("a stopped gateway's health is %d", code)
	}
}

// TestGatewayShard: a shard identifies as itself.
func TestGatewayShard(t *testing.T) {
	tb := newTable(t)
	tb.bot.Shard = Shard{ID: 1, Count: 3}
	_, fake, _, _ := runGateway(t, tb, 45000)
	fake.waitLog(t, 0, "identify")
	fake.mu.Lock()
	shard := fmt.Sprint(fake.identify["shard"])
	fake.mu.Unlock()
	if shard != "[1 3]" {
		t.Errorf("shard 1 of 3 identified as %s", shard)
	}
}

// TestGatewayKeepsItsSession puts the bot through each fault after which
// Discord lets a session go on: it resumes the session at the last
// sequence it read, through the resume_gateway_url READY gave, without
// identifying again; the interaction sent while it was away is replayed
// and answered exactly once, and the table goes on.
func TestGatewayKeepsItsSession(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault func(*fakeGateway)
		// closed is the close code the bot ends the connection with, if it
		// is the one to end it.
		closed int
	}{
		{"a dropped connection", (*fakeGateway).drop, 0},
		{"op 7", func(g *fakeGateway) { g.send(7, nil) }, 4000},
		{"op 9 that allows a resume", func(g *fakeGateway) { g.send(9, true) }, 4000},
		{"close 4000", func(g *fakeGateway) { g.close(4000) }, 0},
		{"close 4008", func(g *fakeGateway) { g.close(4008) }, 0},
		{"heartbeats not acknowledged", (*fakeGateway).silence, 4000},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t)
			gw, fake, _, _ := runGateway(t, tb, 50)
			fake.waitLog(t, 0, "identify")
			fake.dispatch(t, "book-open")
			answered(t, tb, "book-open")
			mark := len(fake.entries())
			c.fault(fake)
			// Sent while the bot is away (or its connection is dead).
			fake.dispatch(t, "clan-raise-myrmidons")
			if c.closed != 0 {
				fake.waitLog(t, mark, fmt.Sprintf("the bot closed with %d", c.closed))
			}
			at := fake.waitLog(t, mark, "connect /resume")
			fake.waitLog(t, at, "resume session-1 from 2")
			if text, n := answered(t, tb, "clan-raise-myrmidons"); n != 1 || !strings.Contains(text, "Myrmidons") {
				t.Errorf("the interaction sent during the fault was answered %d times: %q", n, text)
			}
			fake.dispatch(t, "clan-raise-lycians")
			if _, n := answered(t, tb, "clan-raise-lycians"); n != 1 {
				t.Errorf("the interaction after the resume was answered %d times", n)
			}
			if code := health(gw); code != http.StatusOK {
				t.Errorf("after the resume the gateway's health is %d", code)
			}
			log := fake.entries()
			for _, e := range log[mark:] {
				if e == "identify" || e == "resume refused" || strings.HasPrefix(e, "the bot closed with 100") {
					t.Errorf("after %s the gateway saw %q:\n%s", c.name, e, strings.Join(log, "\n"))
				}
			}
			if c.name == "heartbeats not acknowledged" {
				// One heartbeat left unanswered for an interval is enough.
				fake.mu.Lock()
				beats := fake.zombieBeats
				fake.mu.Unlock()
				if beats != 1 {
					t.Errorf("the bot sent %d heartbeats on a silent connection before closing it, want 1", beats)
				}
			}
		})
	}
}

// TestGatewayAnswersAReplayedInteractionOnce: a resume that delivers an
// interaction again (as Discord may) has it answered once.
func TestGatewayAnswersAReplayedInteractionOnce(t *testing.T) {
	tb := newTable(t)
	_, fake, _, _ := runGateway(t, tb, 50)
	fake.waitLog(t, 0, "identify")
	fake.replayExtra = 1
	fake.dispatch(t, "book-open")
	answered(t, tb, "book-open")
	fake.drop()
	fake.dispatch(t, "clan-raise-myrmidons")
	fake.waitLog(t, 0, "resume session-1 from 2")
	answered(t, tb, "clan-raise-myrmidons")
	fake.dispatch(t, "clan-raise-lycians")
	answered(t, tb, "clan-raise-lycians")
	if _, n := answered(t, tb, "book-open"); n != 1 {
		t.Errorf("the interaction delivered twice had %d first responses", n)
	}
}

// TestGatewayStartsANewSession: after op 9 with d false, or a close code
// that ends the session, the bot opens a new connection to the gateway's
// own address and identifies there, and the table goes on.
func TestGatewayStartsANewSession(t *testing.T) {
	for _, c := range []struct {
		name  string
		fault func(*fakeGateway)
	}{
		{"op 9 that forbids a resume", func(g *fakeGateway) { g.send(9, false) }},
		{"close 4007", func(g *fakeGateway) { g.close(4007) }},
		{"close 4009", func(g *fakeGateway) { g.close(4009) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t)
			_, fake, _, _ := runGateway(t, tb, 50)
			fake.waitLog(t, 0, "identify")
			fake.dispatch(t, "book-open")
			answered(t, tb, "book-open")
			mark := len(fake.entries())
			c.fault(fake)
			at := fake.waitLog(t, mark, "connect /gateway")
			fake.waitLog(t, at, "identify")
			waitConnected(t, fake, "session-2")
			fake.dispatch(t, "clan-raise-myrmidons")
			if _, n := answered(t, tb, "clan-raise-myrmidons"); n != 1 {
				t.Errorf("the interaction in the new session was answered %d times", n)
			}
			log := fake.entries()
			for _, e := range log[mark:] {
				if strings.HasPrefix(e, "resume") || e == "identify on a connection that had begun" {
					t.Errorf("after %s the gateway saw %q:\n%s", c.name, e, strings.Join(log, "\n"))
				}
			}
		})
	}
}

// waitConnected waits until the fake's session id holds a connection.
func waitConnected(t *testing.T, g *fakeGateway, id string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		g.mu.Lock()
		ok := g.conn != nil && g.current != nil && g.current.id == id
		g.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-g.changed:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s never held a connection", id)
		}
	}
}

// TestGatewayStopsOnFatalCloseCodes: Discord's codes after which a client
// must not reconnect end Run at once with a sentence that says what to
// check, whether they come on the first connection or in the middle of a
// session; and a first connection that fails any other way ends it too.
func TestGatewayStopsOnFatalCloseCodes(t *testing.T) {
	for _, c := range []struct {
		name   string
		refuse int
		later  int
		want   string
	}{
		{"4004 on identifying", 4004, 0, "DISCORD_TOKEN"},
		{"4014 on identifying", 4014, 0, "intents"},
		{"4004 in a session", 0, 4004, "DISCORD_TOKEN"},
		{"4010 in a session", 0, 4010, "--shard"},
		{"4000 on identifying", 4000, 0, "could not connect"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTable(t)
			fake := newFakeGateway(50)
			fake.refuse = c.refuse
			tb.fake.gateway = fake
			gw := &Gateway{Bot: tb.bot, Timing: quickTiming}
			done := make(chan error, 1)
			go func() { done <- gw.Run(context.Background(), context.Background()) }()
			if c.later != 0 {
				fake.waitLog(t, 0, "identify")
				waitConnected(t, fake, "session-1")
				fake.close(c.later)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("the gateway went on after %s:\n%s", c.name, strings.Join(fake.entries(), "\n"))
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("the gateway stopped with %v, want it to say %q", err, c.want)
			}
			code := c.refuse + c.later
			if ce := (*CloseError)(nil); code != 4000 && (!errors.As(err, &ce) || ce.Code != code || !ce.Fatal()) {
				t.Errorf("the gateway stopped with %#v, want close code %d", err, code)
			}
			connects := 0
			for _, e := range fake.entries() {
				if strings.HasPrefix(e, "connect ") {
					connects++
				}
			}
			if connects != 1 {
				t.Errorf("the bot connected %d times:\n%s", connects, strings.Join(fake.entries(), "\n"))
			}
			if code := health(gw); code != http.StatusServiceUnavailable {
				t.Errorf("the stopped gateway's health is %d", code)
			}
		})
	}
}

// TestGatewayWaitsForItsFirstIdentify: Discord answers an identify it
// cannot take yet with op 9; the bot waits and identifies again on a new
// connection, up to a few times, rather than stopping.
func TestGatewayWaitsForItsFirstIdentify(t *testing.T) {
	for _, c := range []struct {
		busy  int
		stops bool
	}{{1, false}, {firstIdentifyTries, false}, {firstIdentifyTries + 1, true}} {
		t.Run(fmt.Sprintf("busy %d", c.busy), func(t *testing.T) {
			tb := newTable(t)
			fake := newFakeGateway(50)
			fake.busy = c.busy
			tb.fake.gateway = fake
			gw := &Gateway{Bot: tb.bot, Timing: quickTiming}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- gw.Run(ctx, context.Background()) }()
			if c.stops {
				select {
				case err := <-done:
					if err == nil || !strings.Contains(err.Error(), "could not connect") {
						t.Errorf("after %d op 9s the gateway stopped with %v", c.busy, err)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("the gateway went on after %d op 9s:\n%s", c.busy, strings.Join(fake.entries(), "\n"))
				}
				return
			}
			waitConnected(t, fake, "session-1")
			connects := 0
			for _, e := range fake.entries() {
				if strings.HasPrefix(e, "connect ") {
					connects++
				}
			}
			if connects != c.busy+1 {
				t.Errorf("the bot connected %d times for %d op 9s:\n%s", connects, c.busy, strings.Join(fake.entries(), "\n"))
			}
			cancel()
			<-done
		})
	}
}

// TestGatewayUnreachable: when nothing answers at the gateway's address,
// Run ends at once.
func TestGatewayUnreachable(t *testing.T) {
	tb := newTable(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := "ws://" + srv.Listener.Addr().String() + "/gateway"
	srv.Close()
	gw := &Gateway{Bot: tb.bot, Timing: quickTiming, url: addr}
	done := make(chan error, 1)
	go func() { done <- gw.Run(context.Background(), context.Background()) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "could not connect to Discord's gateway") {
			t.Errorf("an unreachable gateway ended Run with %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run went on with no gateway to reach")
	}
}

// TestCloseErrorFatal holds the close codes to Discord's table: 4004 and
// 4010 to 4014 forbid reconnecting; the others allow it.
func TestCloseErrorFatal(t *testing.T) {
	for code := 4000; code <= 4015; code++ {
		want := code == 4004 || (code >= 4010 && code <= 4014)
		if got := (&CloseError{Code: code}).Fatal(); got != want {
			t.Errorf("close code %d fatal: %v, want %v", code, got, want)
		}
	}
}

// TestGatewayWaits: the wait before connecting again is drawn at random
// below a bound that doubles with each failure in a row, up to a ceiling;
// after Discord ends the session it is drawn between one and five times
// Reidentify, as Discord asks.
func TestGatewayWaits(t *testing.T) {
	timing := GatewayTiming{Backoff: time.Second, MaxBackoff: 10 * time.Second, Reidentify: time.Second}
	for _, c := range []struct {
		draw     float64
		failures int
		err      error
		want     time.Duration
	}{
		{0.5, 0, errZombie, 500 * time.Millisecond},
		{0.25, 0, errZombie, 250 * time.Millisecond},
		{0.5, 1, errReconnect, time.Second},
		{0.5, 3, &CloseError{Code: 4000}, 4 * time.Second},
		{0.5, 4, errZombie, 5 * time.Second},
		{0.5, 60, errZombie, 5 * time.Second},
		{0, 5, errZombie, 0},
		{0, 0, errSessionInvalid, time.Second},
		{0.5, 7, errSessionInvalid, 3 * time.Second},
		{0.999, 0, errSessionInvalid, time.Second + 3996*time.Millisecond},
	} {
		g := &Gateway{Rand: func() float64 { return c.draw }}
		if got := g.wait(timing, c.failures, c.err); got != c.want {
			t.Errorf("after %d failures (%v), drawing %v: wait %v, want %v", c.failures, c.err, c.draw, got, c.want)
		}
	}
	if d := (GatewayTiming{}).orDefaults(); d.Backoff != time.Second || d.MaxBackoff != 2*time.Minute || d.Reidentify != time.Second || d.Handshake != 30*time.Second {
		t.Errorf("the waits for Discord are %+v", d)
	}
}
