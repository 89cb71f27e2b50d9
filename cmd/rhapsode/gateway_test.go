package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// refusingGateway is Discord's gateway as far as a refusal goes: it says
// Hello, takes the Identify, and closes with refuse: at once, or (when
// ready is set) after READY, sent once ready is closed, and once after
// is closed.
type refusingGateway struct {
	refuse       int
	ready, after chan struct{}
	identified   chan struct{}
	connects     atomic.Int32
}

func (g *refusingGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api/v"+discordgo.APIVersion+"/gateway" {
		fmt.Fprintf(w, `{"url":"ws://%s/gateway"}`, r.Host)
		return
	}
	c, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	g.connects.Add(1)
	c.WriteJSON(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	var id struct{ Op int }
	if c.ReadJSON(&id) != nil || id.Op != 2 {
		return
	}
	close(g.identified)
	// The socket is read until the bot closes it, heartbeats acknowledged.
	read := make(chan struct{})
	var wmu sync.Mutex
	go func() {
		defer close(read)
		for c.ReadJSON(&id) == nil {
			wmu.Lock()
			c.WriteJSON(map[string]any{"op": 11})
			wmu.Unlock()
		}
	}()
	if g.ready != nil {
		<-g.ready
		wmu.Lock()
		c.WriteJSON(map[string]any{"op": 0, "t": "READY", "s": 1, "d": map[string]any{"session_id": "s", "resume_gateway_url": "ws://" + r.Host + "/gateway"}})
		wmu.Unlock()
		<-g.after
	}
	wmu.Lock()
	c.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(g.refuse, "refused"))
	wmu.Unlock()
	<-read
}

// TestGatewayStopsWhenDiscordRefuses runs `rhapsode gateway` against a
// gateway that refuses the bot with a code after which Discord forbids
// reconnecting: the program exits 1 at once, without connecting again,
// its last line the JSON of one sentence that says what to check; and its
// /healthz answers 503 until the gateway is ready, 200 while it is.
func TestGatewayStopsWhenDiscordRefuses(t *testing.T) {
	for _, c := range []struct {
		name   string
		refuse int
		ready  bool
		want   string
	}{
		{"4004 in a session", 4004, true, "DISCORD_TOKEN"},
		{"4014 on identifying", 4014, false, "intents"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &refusingGateway{refuse: c.refuse, identified: make(chan struct{})}
			if c.ready {
				g.ready, g.after = make(chan struct{}), make(chan struct{})
			}
			srv := httptest.NewServer(g)
			defer srv.Close()
			saved := discordgo.EndpointGateway
			discordgo.EndpointGateway = srv.URL + "/api/v" + discordgo.APIVersion + "/gateway"
			defer func() { discordgo.EndpointGateway = saved }()

			health := freeAddr(t)
			env := map[string]string{"DISCORD_TOKEN": "test-token"}
			var mu sync.Mutex
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() {
				done <- run(context.Background(), []string{"gateway", "--no-register", "--db", filepath.Join(t.TempDir(), "r.db"), "--health", health},
					strings.NewReader(""), io.Discard, lockedWriter{&mu, &stderr}, func(k string) string { return env[k] })
			}()
			select {
			case <-g.identified:
			case code := <-done:
				t.Fatalf("the gateway command exited %d before identifying: %s", code, stderr.String())
			case <-time.After(10 * time.Second):
				t.Fatal("the bot never identified")
			}
			if c.ready {
				if code := healthOf(t, health); code != http.StatusServiceUnavailable {
					t.Errorf("before READY, /healthz answered %d", code)
				}
				close(g.ready)
				waitLine(t, &mu, &stderr, "connected to the gateway")
				if code := healthOf(t, health); code != http.StatusOK {
					t.Errorf("with the gateway ready, /healthz answered %d", code)
				}
				close(g.after)
			}
			select {
			case code := <-done:
				if code != 1 {
					t.Errorf("the gateway command exited %d", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("the gateway command went on after close code %d", c.refuse)
			}
			if n := g.connects.Load(); n != 1 {
				t.Errorf("the bot connected %d times", n)
			}
			mu.Lock()
			out := strings.TrimSpace(stderr.String())
			mu.Unlock()
			lines := strings.Split(out, "\n")
			var last map[string]any
			for _, l := range lines {
				last = nil
				if err := json.Unmarshal([]byte(l), &last); err != nil {
					t.Errorf("a line that is not JSON: %s", l)
				}
			}
			if msg, _ := last["msg"].(string); last["level"] != "ERROR" || !strings.Contains(msg, c.want) || last["close_code"] != float64(c.refuse) {
				t.Errorf("the last line is %v, want an error saying %q with close_code %d; all:\n%s", last, c.want, c.refuse, out)
			}
		})
	}
}

// healthOf is what the health endpoint at addr answers.
func healthOf(t *testing.T, addr string) int {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("/healthz: %v", err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitLine waits until the log holds a line saying msg.
func waitLine(t *testing.T, mu *sync.Mutex, log *bytes.Buffer, msg string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		out := log.String()
		mu.Unlock()
		if strings.Contains(out, `"msg":"`+msg+`"`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q:\n%s", msg, out)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
