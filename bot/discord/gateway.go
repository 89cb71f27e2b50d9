package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Rhapsode holds the gateway's websocket itself. discordgo v0.29.0, the
// newest the module proxy serves, runs its connection in Session.Open and
// unexported loops that cannot be steered where Discord's documentation
// requires: it reconnects forever after any close code, 4004 included;
// it answers op 9 by identifying again on the same connection whatever
// its d says; it notices missing heartbeat acks only after five
// intervals and then closes with 1000, which ends the session; it
// neither reads resume_gateway_url from READY nor lets one choose where
// to resume; and it waits a fixed second before every reconnect. So
// gateway.go (the session across connections) and socket.go (one
// connection) speak the protocol with gorilla/websocket, which discordgo
// uses too; discordgo keeps the REST API and the event types.

// Gateway is one connection to Discord's gateway (one shard of it, as
// Bot.Shard says), answering the interactions it delivers with Bot. It
// keeps its session as Discord allows: after a dropped connection, op 7,
// op 9 with d true, a close code that allows it, or heartbeats left
// unacknowledged for an interval, it resumes at the last sequence it
// read, through the resume_gateway_url READY gave, and Discord replays
// what it missed. After op 9 with d false, or close 4007 or 4009, it
// identifies anew on a new connection. A close code after which Discord
// says a client must not reconnect (4004, 4010 to 4014), or any failure
// before the first READY but a few op 9s (Discord's "not yet"), ends Run
// with an error.
type Gateway struct {
	Bot *Bot
	// Dialer opens the websocket; websocket.DefaultDialer when nil.
	Dialer *websocket.Dialer
	// Timing is how long the gateway waits; zero fields take the values
	// for Discord.
	Timing GatewayTiming
	// Rand draws the jitter of the waits, in [0, 1); rand.Float64 when nil.
	Rand func() float64

	connected atomic.Bool

	// The session, touched only by Run's goroutine.
	url, sessionID, resumeURL string
	seq                       int64
	seen                      recentIDs
}

// GatewayTiming is how long a Gateway waits.
type GatewayTiming struct {
	// Backoff bounds the wait before connecting again after a connection
	// ended; it doubles with each connection in a row that ends before
	// READY or RESUMED, up to MaxBackoff. Each wait is drawn at random
	// below its bound, so that shards cut off together do not return
	// together. One second and two minutes when zero.
	Backoff, MaxBackoff time.Duration
	// Reidentify is the least wait before identifying again after Discord
	// ended the session with op 9; the wait is drawn between it and five
	// times it, as Discord asks (one to five seconds). One second when zero.
	Reidentify time.Duration
	// Handshake bounds the wait for the socket, its Hello, and the READY
	// or RESUMED after identifying or resuming. 30 seconds when zero.
	Handshake time.Duration
}

func (t GatewayTiming) orDefaults() GatewayTiming {
	if t.Backoff <= 0 {
		t.Backoff = time.Second
	}
	if t.MaxBackoff < t.Backoff {
		t.MaxBackoff = max(t.Backoff, 2*time.Minute)
	}
	if t.Reidentify <= 0 {
		t.Reidentify = time.Second
	}
	if t.Handshake <= 0 {
		t.Handshake = 30 * time.Second
	}
	return t
}

// writeWithin bounds one write to the socket.
const writeWithin = 10 * time.Second

// CloseError is a close code that Discord ended a connection with.
type CloseError struct {
	Code int
	Text string
}

func (e *CloseError) Error() string {
	switch e.Code {
	case 4004:
		return "Discord refused the bot's token (gateway close code 4004, authentication failed): check DISCORD_TOKEN against the token on the Bot page of the application in Discord's developer portal"
	case 4010:
		return "Discord refused the shard the bot named (gateway close code 4010, invalid shard): check --shard and --shards"
	case 4011:
		return "Discord wants the bot split into shards (gateway close code 4011, sharding required): run one process per shard, with --shards auto"
	case 4012:
		return "Discord refused the gateway's API version (gateway close code 4012): this Rhapsode is too old for Discord; update it"
	case 4013, 4014:
		return fmt.Sprintf("Discord refused the gateway intents the bot asks for (gateway close code %d, %s): check the intents allowed to the application on its Bot page in Discord's developer portal (Rhapsode asks only for guild events)", e.Code, map[int]string{4013: "invalid intents", 4014: "disallowed intents"}[e.Code])
	}
	if e.Text != "" {
		return fmt.Sprintf("the gateway closed the connection with code %d (%s)", e.Code, e.Text)
	}
	return fmt.Sprintf("the gateway closed the connection with code %d", e.Code)
}

// Fatal reports whether Discord documents the code as one after which a
// client must not connect again: the token, the shard, the API version
// or the intents are wrong, and connecting again would change nothing.
func (e *CloseError) Fatal() bool {
	return e.Code == 4004 || (e.Code >= 4010 && e.Code <= 4014)
}

// endsSession reports whether the code ends the session (an invalid
// sequence, or a session timed out): the bot identifies anew.
func (e *CloseError) endsSession() bool { return e.Code == 4007 || e.Code == 4009 }

//lint:file-ignore ST1005 the errors name Discord and Rhapsode, proper nouns, and are what the operator reads

var (
	errReconnect      = errors.New("Discord asked for a reconnection (op 7)")
	errResumable      = errors.New("Discord invalidated the connection and allows a resume (op 9)")
	errSessionInvalid = errors.New("Discord ended the session (op 9)")
	errZombie         = errors.New("no heartbeat acknowledgement within an interval")
)

// Connected reports whether the gateway holds a session now: READY or
// RESUMED came on the connection it has open.
func (g *Gateway) Connected() bool { return g.connected.Load() }

// Health answers a health check: 200 while the gateway is connected,
// 503 while it is connecting or has stopped.
func (g *Gateway) Health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if !g.Connected() {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, `{"status":"connecting to the gateway"}`)
		return
	}
	fmt.Fprintln(w, `{"status":"ok"}`)
}

// Run connects to the gateway and answers interactions until ctx ends;
// then it closes the connection (ending the session) and waits for the
// interactions under way to be answered. Interactions are handled in
// work, which should outlive ctx so that a step in hand is finished. It
// returns nil when ctx ended, else the reason it had to stop: a fatal
// close code (a *CloseError) or a first connection that failed.
func (g *Gateway) Run(ctx, work context.Context) error {
	defer g.Bot.Close()
	t := g.Timing.orDefaults()
	if g.url == "" {
		u, err := g.Bot.Session.Gateway(discordgo.WithContext(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("Rhapsode could not ask Discord where its gateway is (%w): check the network and DISCORD_TOKEN", err)
		}
		g.url = u
	}
	everReady := false
	failures, invalid := 0, 0
	for {
		ready, err := g.connect(ctx, work, t)
		g.connected.Store(false)
		if ctx.Err() != nil {
			return nil
		}
		if ce := (*CloseError)(nil); errors.As(err, &ce) && ce.Fatal() {
			return ce
		}
		if !everReady && !ready {
			// Discord answers an identify it cannot take yet (too many
			// at once) with op 9: that is a wait, not a refusal.
			invalid++
			if !errors.Is(err, errSessionInvalid) || invalid > firstIdentifyTries {
				return fmt.Errorf("Rhapsode could not connect to Discord's gateway (%w): check the network and DISCORD_TOKEN", err)
			}
		}
		if ready {
			everReady, failures = true, 0
		}
		wait := g.wait(t, failures, err)
		failures++
		g.Bot.Logger.WarnContext(ctx, "the gateway connection ended; connecting again", "err", err.Error(), "resume", g.sessionID != "", "after", wait.String())
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
	}
}

// firstIdentifyTries is how many times the first identify may be
// answered with op 9 (Discord limits how many sessions start at once)
// before the gateway gives up.
const firstIdentifyTries = 3

// wait is how long to wait before connecting again after a connection
// ended with err, the failures-th in a row to end before READY or
// RESUMED.
func (g *Gateway) wait(t GatewayTiming, failures int, err error) time.Duration {
	if errors.Is(err, errSessionInvalid) {
		return t.Reidentify + g.jitter(4*t.Reidentify)
	}
	return g.jitter(min(t.Backoff<<min(failures, 20), t.MaxBackoff))
}

// jitter draws a wait in [0, bound).
func (g *Gateway) jitter(bound time.Duration) time.Duration {
	r := rand.Float64
	if g.Rand != nil {
		r = g.Rand
	}
	return time.Duration(r() * float64(bound))
}

// interaction answers an INTERACTION_CREATE on a goroutine of its own.
// One that this gateway has taken already (Discord may deliver an event
// again around a resume) is not answered twice.
func (g *Gateway) interaction(ctx, work context.Context, d json.RawMessage) {
	b := g.Bot
	var ic discordgo.InteractionCreate
	if err := json.Unmarshal(d, &ic); err != nil || ic.Interaction == nil || ic.ID == "" {
		b.Logger.ErrorContext(ctx, "an interaction that does not read", "err", fmt.Sprint(err))
		return
	}
	if !g.seen.add(ic.ID) {
		b.Logger.InfoContext(ctx, "an interaction delivered again; answered already", "interaction", ic.ID)
		return
	}
	if b.Shard.Count > 1 && !b.Shard.Owns(ic.GuildID) {
		// Discord sends a guild's events to the shard that owns it; one
		// that arrives elsewhere means two processes disagree on the
		// shards. It is answered all the same: the interaction's ID
		// keeps it from being answered twice.
		b.Logger.WarnContext(ctx, "an interaction of a guild another shard owns", "guild", ic.GuildID, "owner", ShardOf(ic.GuildID, b.Shard.Count))
	}
	i := ic.Interaction
	if !b.take(work, i) {
		return
	}
	go func() {
		defer b.inflight.Done()
		b.handle(work, i, func(ctx context.Context, resp *discordgo.InteractionResponse) error {
			return b.Session.InteractionRespond(i, resp, discordgo.WithContext(ctx))
		})
	}()
}

// recentIDs remembers the last interaction IDs a gateway took.
type recentIDs struct {
	set  map[string]bool
	ring [1024]string
	next int
}

// add remembers id, reporting false when it was remembered already.
func (r *recentIDs) add(id string) bool {
	if r.set == nil {
		r.set = make(map[string]bool, len(r.ring))
	}
	if r.set[id] {
		return false
	}
	delete(r.set, r.ring[r.next])
	r.ring[r.next] = id
	r.next = (r.next + 1) % len(r.ring)
	r.set[id] = true
	return true
}
