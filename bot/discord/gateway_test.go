package discord

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// fakeGateway is Discord's gateway as far as the bot uses it: it says
// hello, takes the identify, is ready, and then sends the interactions a
// test gives it.
type fakeGateway struct {
	mu       sync.Mutex
	conn     *websocket.Conn
	seq      int
	identify map[string]any
	ready    chan struct{}
}

func (g *fakeGateway) serve(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	if err := c.WriteJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}}); err != nil {
		return
	}
	var id struct {
		Op int            `json:"op"`
		D  map[string]any `json:"d"`
	}
	if err := c.ReadJSON(&id); err != nil || id.Op != 2 {
		return
	}
	g.mu.Lock()
	g.conn, g.identify = c, id.D
	g.seq++
	err = c.WriteJSON(map[string]any{"op": 0, "t": "READY", "s": g.seq, "d": map[string]any{
		"v": 9, "session_id": "fake-session", "resume_gateway_url": "ws://" + r.Host + "/gateway",
		"user":        map[string]any{"id": "700000000000000001", "username": "Rhapsode", "bot": true},
		"guilds":      []any{},
		"application": map[string]any{"id": "700000000000000001", "flags": 0},
	}})
	g.mu.Unlock()
	if err != nil {
		return
	}
	close(g.ready)
	for {
		var m struct {
			Op int `json:"op"`
		}
		if err := c.ReadJSON(&m); err != nil {
			return
		}
		if m.Op == 1 {
			g.mu.Lock()
			c.WriteJSON(map[string]any{"op": 11})
			g.mu.Unlock()
		}
	}
}

// dispatch sends an interaction as an INTERACTION_CREATE event.
func (g *fakeGateway) dispatch(t *testing.T, interaction []byte) {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	if err := g.conn.WriteJSON(map[string]any{"op": 0, "t": "INTERACTION_CREATE", "s": g.seq, "d": json.RawMessage(interaction)}); err != nil {
		t.Fatal(err)
	}
}

// TestGateway connects the bot to a fake gateway on loopback: it
// identifies asking only for guild events, answers an interaction the
// gateway sends through the REST API (a deferral, then the edit), and on
// shutdown disconnects and returns.
func TestGateway(t *testing.T) {
	tb := newTable(t)
	gw := &fakeGateway{ready: make(chan struct{})}
	tb.fake.gateway = gw
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tb.bot.RunGateway(ctx, context.Background()) }()
	select {
	case <-gw.ready:
	case err := <-done:
		t.Fatalf("the gateway did not connect: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the bot never identified")
	}
	gw.mu.Lock()
	intents, _ := gw.identify["intents"].(float64)
	token, _ := gw.identify["token"].(string)
	gw.mu.Unlock()
	if discordgo.Intent(intents) != discordgo.IntentsGuilds || token != "Bot test-token" {
		t.Errorf("identified with intents %v and token %q", intents, token)
	}
	gw.dispatch(t, fixture(t, "book-open"))
	tb.fake.waitFor(t, "the deferral", func(c call) bool {
		return strings.HasSuffix(c.Path, "/aW50ZXJhY3Rpb246book-open/callback") && c.obj()["type"] == float64(5)
	})
	edit := tb.fake.waitFor(t, "the answer", originalEdit("aW50ZXJhY3Rpb246book-open"))
	if !strings.Contains(content(edit), "opens a book") {
		t.Errorf("the book was opened with %q", content(edit))
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
}
