package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// One connection to the gateway, as Discord documents it: Hello, Identify
// or Resume, READY or RESUMED, heartbeats and their acknowledgements, and
// the ops and close codes that end a connection.

// Gateway ops, as Discord numbers them.
const (
	opDispatch     = 0
	opHeartbeat    = 1
	opIdentify     = 2
	opResume       = 6
	opReconnect    = 7
	opInvalid      = 9
	opHello        = 10
	opHeartbeatAck = 11
)

// closeKeepSession is the close code the bot ends a connection with when
// it means to resume: Discord ends the session of a client that closes
// with 1000 or 1001, and keeps it for any other code.
const closeKeepSession = 4000

// payload is a message on the gateway, either way.
type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

// frame is one message read from the socket, or why none could be.
type frame struct {
	payload
	err error
}

// connect holds one connection until it ends, resuming the session when
// the gateway holds one, else identifying. It reports whether READY or
// RESUMED came, and why the connection ended.
func (g *Gateway) connect(ctx, work context.Context, t GatewayTiming) (ready bool, err error) {
	resume := g.sessionID != ""
	addr := g.url
	if resume && g.resumeURL != "" {
		addr = g.resumeURL
	}
	u, err := socketURL(addr)
	if err != nil {
		return false, err
	}
	dialer := g.Dialer
	if dialer == nil {
		dialer = websocket.DefaultDialer
	}
	dctx, cancel := context.WithTimeout(ctx, t.Handshake)
	c, _, err := dialer.DialContext(dctx, u, nil)
	cancel()
	if err != nil {
		return false, fmt.Errorf("open %s: %w", addr, err)
	}
	defer c.Close()
	frames := make(chan frame)
	stop := make(chan struct{})
	defer close(stop)
	go readFrames(c, frames, stop)

	// The handshake: Hello, then Identify or Resume, then READY or
	// RESUMED, all within t.Handshake.
	handshake := time.NewTimer(t.Handshake)
	defer handshake.Stop()
	var interval time.Duration
	select {
	case <-ctx.Done():
		closeWith(c, websocket.CloseNormalClosure)
		return false, ctx.Err()
	case <-handshake.C:
		closeWith(c, closeKeepSession)
		return false, fmt.Errorf("no Hello from %s within %s", addr, t.Handshake)
	case f := <-frames:
		if f.err != nil {
			return false, g.readError(f.err)
		}
		var hello struct {
			Interval int64 `json:"heartbeat_interval"`
		}
		if f.Op != opHello || json.Unmarshal(f.D, &hello) != nil || hello.Interval <= 0 {
			closeWith(c, closeKeepSession)
			return false, fmt.Errorf("the gateway began with op %d, not Hello", f.Op)
		}
		interval = time.Duration(hello.Interval) * time.Millisecond
	}
	if resume {
		err = send(c, opResume, map[string]any{"token": g.Bot.Session.Token, "session_id": g.sessionID, "seq": g.seq})
	} else {
		err = send(c, opIdentify, g.identify())
	}
	if err != nil {
		return false, fmt.Errorf("send %s: %w", map[bool]string{true: "Resume", false: "Identify"}[resume], err)
	}

	// Discord asks for the first heartbeat at a random point of the first
	// interval, and one every interval after. A heartbeat not acknowledged
	// when the next is due means the connection is dead though open: it
	// is closed with a code that keeps the session, and resumed.
	heartbeat := time.NewTimer(g.jitter(interval))
	defer heartbeat.Stop()
	acked := true
	for {
		select {
		case <-ctx.Done():
			closeWith(c, websocket.CloseNormalClosure)
			return ready, ctx.Err()
		case <-handshake.C:
			if !ready {
				closeWith(c, closeKeepSession)
				return false, fmt.Errorf("neither READY nor RESUMED within %s", t.Handshake)
			}
		case <-heartbeat.C:
			if !acked {
				closeWith(c, closeKeepSession)
				return ready, errZombie
			}
			if err := g.heartbeat(c); err != nil {
				return ready, err
			}
			acked = false
			heartbeat.Reset(interval)
		case f := <-frames:
			if f.err != nil {
				return ready, g.readError(f.err)
			}
			switch f.Op {
			case opDispatch:
				if f.S != nil {
					g.seq = *f.S
				}
				switch f.T {
				case "READY":
					var r struct {
						SessionID string `json:"session_id"`
						ResumeURL string `json:"resume_gateway_url"`
					}
					if err := json.Unmarshal(f.D, &r); err != nil || r.SessionID == "" {
						closeWith(c, websocket.CloseNormalClosure)
						return ready, fmt.Errorf("a READY without a session: %s", f.D)
					}
					g.sessionID, g.resumeURL = r.SessionID, r.ResumeURL
					ready = true
					g.connected.Store(true)
					g.Bot.Logger.InfoContext(ctx, "connected to the gateway", "session", r.SessionID)
				case "RESUMED":
					ready = true
					g.connected.Store(true)
					g.Bot.Logger.InfoContext(ctx, "resumed the gateway session", "session", g.sessionID, "seq", g.seq)
				case "INTERACTION_CREATE":
					g.interaction(ctx, work, f.D)
				}
			case opHeartbeat:
				if err := g.heartbeat(c); err != nil {
					return ready, err
				}
			case opHeartbeatAck:
				acked = true
			case opReconnect:
				closeWith(c, closeKeepSession)
				return ready, errReconnect
			case opInvalid:
				var resumable bool
				json.Unmarshal(f.D, &resumable)
				if resumable && g.sessionID != "" {
					closeWith(c, closeKeepSession)
					return ready, errResumable
				}
				g.forget()
				closeWith(c, websocket.CloseNormalClosure)
				return ready, errSessionInvalid
			}
		}
	}
}

// readFrames reads the socket until it fails, passing each message on
// until stop is closed.
func readFrames(c *websocket.Conn, frames chan<- frame, stop <-chan struct{}) {
	for {
		var f frame
		_, data, err := c.ReadMessage()
		if err == nil {
			err = json.Unmarshal(data, &f.payload)
			if err != nil {
				err = fmt.Errorf("a message that is not JSON: %w", err)
			}
		}
		f.err = err
		select {
		case frames <- f:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// readError says why reading failed, forgetting the session when Discord
// closed with a code that ends it.
func (g *Gateway) readError(err error) error {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		e := &CloseError{Code: ce.Code, Text: ce.Text}
		if e.endsSession() {
			g.forget()
		}
		return e
	}
	return fmt.Errorf("read from the gateway: %w", err)
}

// forget drops the session: the next connection identifies.
func (g *Gateway) forget() {
	g.sessionID, g.resumeURL, g.seq = "", "", 0
}

// identify is the Identify payload: the token, guild events only, and
// the shard when the gateway is shared.
func (g *Gateway) identify() map[string]any {
	id := map[string]any{
		"token":      g.Bot.Session.Token,
		"intents":    discordgo.IntentsGuilds,
		"properties": map[string]string{"os": runtime.GOOS, "browser": "rhapsode", "device": "rhapsode"},
	}
	if sh := g.Bot.Shard; sh.Count > 1 {
		id["shard"] = [2]int{sh.ID, sh.Count}
	}
	return id
}

// heartbeat sends a heartbeat carrying the last sequence read (null
// before any).
func (g *Gateway) heartbeat(c *websocket.Conn) error {
	var seq any
	if g.seq > 0 {
		seq = g.seq
	}
	if err := send(c, opHeartbeat, seq); err != nil {
		return fmt.Errorf("send a heartbeat: %w", err)
	}
	return nil
}

// send writes one payload.
func send(c *websocket.Conn, op int, d any) error {
	c.SetWriteDeadline(time.Now().Add(writeWithin))
	return c.WriteJSON(map[string]any{"op": op, "d": d})
}

// closeWith sends a close frame with code; the caller then closes the
// socket.
func closeWith(c *websocket.Conn, code int) {
	c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
}

// socketURL is the address of the gateway's socket for this API version,
// JSON encoded, from the address Discord gave (which may lack the path).
func socketURL(addr string) (string, error) {
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "wss" && u.Scheme != "ws") {
		return "", fmt.Errorf("the gateway's address %q is not a websocket URL", addr)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	q := u.Query()
	q.Set("v", discordgo.APIVersion)
	q.Set("encoding", "json")
	u.RawQuery = q.Encode()
	return u.String(), nil
}
