package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot/guard"
)

// The HTTP interactions endpoint. Discord signs every request with the
// application's Ed25519 key over the timestamp header followed by the
// body; a request whose signature does not verify, or whose timestamp is
// older (or further ahead) than maxSkew, is answered 401 and never read
// further, so a captured request cannot be played again later. One played
// again sooner (or delivered again by Discord) is known by its interaction
// ID in the store, by every instance and across restarts: it makes no
// second step and is answered as the first was. The first
// response goes back in the HTTP reply; everything after it goes through
// the bot's session, as in gateway mode.

// maxSkew is how far a request's timestamp may be from the clock.
const maxSkew = 5 * time.Minute

// maxBody bounds a request's body.
const maxBody = 1 << 20

// firstResponseWithin is how long the endpoint waits for the first
// response before giving up; Discord waits three seconds.
const firstResponseWithin = 2500 * time.Millisecond

// Verify reports whether sigHex is key's signature of timestamp followed
// by body, and timestamp (Unix seconds) is within maxSkew of now.
func Verify(key ed25519.PublicKey, sigHex, timestamp string, body []byte, now time.Time) bool {
	if len(key) != ed25519.PublicKeySize || sigHex == "" || timestamp == "" {
		return false
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return false
	}
	secs, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return false
	}
	if d := now.Sub(time.Unix(secs, 0)); d > maxSkew || d < -maxSkew {
		return false
	}
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	return ed25519.Verify(key, msg, sig)
}

// Endpoint serves Discord's HTTP interactions at /interactions and a
// health check at /healthz. Work is the context the handling of each
// interaction runs in after the HTTP reply has gone; Now is the clock
// timestamps are checked against (time.Now when nil).
type Endpoint struct {
	Bot  *Bot
	Key  ed25519.PublicKey
	Work context.Context
	Now  func() time.Time
}

// Server returns an HTTP server for the endpoint's routes with the
// deadlines of guard.Defaults: a client that dribbles its request, or
// holds its connection idle, is cut off. Serve it with guard.Serve(srv,
// ln, guard.Defaults.MaxConns): past that many connections the one
// waiting longest without a request in hand is shed, so that Discord's
// requests, sent whole, are answered however many slow clients there are.
func (e *Endpoint) Server() *http.Server {
	return guard.Server(e.Handler(), guard.Defaults)
}

// Handler returns the endpoint's routes.
func (e *Endpoint) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /interactions", e.interactions)
	mux.HandleFunc("GET /healthz", Health)
	return mux
}

// Health answers a health check: the process is up and serving.
func Health(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"status":"ok"}`+"\n")
}

func (e *Endpoint) interactions(w http.ResponseWriter, r *http.Request) {
	now := time.Now
	if e.Now != nil {
		now = e.Now
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		// Unverified, like any request Discord did not sign.
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	if !Verify(e.Key, r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp"), body, now()) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil || !understood(&i) {
		// Signed, but nothing the bot takes: said at once, rather than
		// left for the first response that will never come.
		http.Error(w, "not an interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	type first struct {
		resp    *discordgo.InteractionResponse
		written chan error
	}
	firsts := make(chan first)
	answered := make(chan struct{})
	respond := func(ctx context.Context, resp *discordgo.InteractionResponse) error {
		f := first{resp, make(chan error, 1)}
		select {
		case firsts <- f:
			return <-f.written
		case <-answered:
			return errGaveUp
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	work := e.Work
	if work == nil {
		work = context.WithoutCancel(r.Context())
	}
	go e.Bot.Handle(work, &i, respond)
	t := time.NewTimer(firstResponseWithin)
	defer t.Stop()
	select {
	case f := <-firsts:
		f.written <- writeJSON(w, f.resp)
	case <-t.C:
		close(answered)
		http.Error(w, "no response in time", http.StatusInternalServerError)
	case <-r.Context().Done():
		close(answered)
	}
}

// understood reports whether i is an interaction the bot answers: a
// PING, or a command, completion or button press with an ID and its data.
func understood(i *discordgo.Interaction) bool {
	switch i.Type {
	case discordgo.InteractionPing:
		return true
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete,
		discordgo.InteractionMessageComponent:
		return i.ID != "" && i.Data != nil
	}
	return false
}

// errGaveUp is the first response of an interaction the endpoint no longer
// waits for.
var errGaveUp = errors.New("discord: the endpoint gave up waiting for the first response")

func writeJSON(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "response not encoded", http.StatusInternalServerError)
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err = w.Write(b)
	return err
}
