package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// fakeDiscord is Discord's REST API as far as the bot uses it, on
// loopback: it answers every call the way Discord would and records it.
type fakeDiscord struct {
	srv *httptest.Server

	mu    sync.Mutex
	calls []call
	next  int
	// changed is signalled after every call.
	changed chan struct{}
	// gateway, when set, answers the gateway's address and its socket.
	gateway *fakeGateway
	// deferred holds, for each interaction token whose response is a
	// deferral not yet written over, whether that deferral is private.
	// Discord's rule: the first follow-up after a deferral takes the
	// deferral's visibility, whatever flags it carries. Deleting the
	// response does not change that (nobody can tell us it does).
	deferred map[string]bool
	// shown are the texts every player in a channel could read.
	shown []string
}

// call is one request the bot made.
type call struct {
	Method string
	Path   string
	// JSON is the request's JSON body, or its payload_json part.
	JSON any
	// Files are the names of the files a multipart request carried.
	Files []string
	// Auth is the Authorization header.
	Auth string
	// Public reports whether everyone in the channel sees what the call
	// wrote, by Discord's rules (follow-ups and edits of interactions).
	Public bool
}

func newFakeDiscord(t testing.TB) *fakeDiscord {
	f := &fakeDiscord{changed: make(chan struct{}, 1024)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// session returns a discordgo session whose REST calls reach the fake:
// its client's transport sends every request to the fake's address.
func (f *fakeDiscord) session(t testing.TB, token string) *discordgo.Session {
	s, err := discordgo.New(token)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(f.srv.URL)
	s.Client = &http.Client{Transport: redirect{target: target, base: f.srv.Client().Transport}}
	s.MaxRestRetries = 0
	return s
}

// redirect sends every request to target, keeping its path and query.
type redirect struct {
	target *url.URL
	base   http.RoundTripper
}

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.target.Scheme, r.target.Host
	req.Host = r.target.Host
	return r.base.RoundTrip(req)
}

func (f *fakeDiscord) serve(w http.ResponseWriter, r *http.Request) {
	if f.gateway != nil {
		switch r.URL.Path {
		case "/api/v" + discordgo.APIVersion + "/gateway":
			fmt.Fprintf(w, `{"url":"ws://%s/gateway"}`, r.Host)
			return
		case "/gateway", "/gateway/", "/resume", "/resume/":
			f.gateway.serve(w, r)
			return
		}
	}
	c := call{Method: r.Method, Path: r.URL.Path, Auth: r.Header.Get("Authorization")}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch {
	case mt == "multipart/form-data":
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			data, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				json.Unmarshal(data, &c.JSON)
				continue
			}
			if png, gif := bytes.HasPrefix(data, []byte("\x89PNG")), bytes.HasPrefix(data, []byte("GIF8")); !png && !gif ||
				png != strings.HasSuffix(p.FileName(), ".png") || gif != strings.HasSuffix(p.FileName(), ".gif") {
				http.Error(w, "not a PNG or GIF under its own name", http.StatusBadRequest)
				return
			}
			c.Files = append(c.Files, p.FormName()+"="+p.FileName())
		}
	default:
		body, _ := io.ReadAll(r.Body)
		if len(body) > 0 {
			if err := json.Unmarshal(body, &c.JSON); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	f.mu.Lock()
	f.visibility(&c, parts)
	f.calls = append(f.calls, c)
	f.next++
	id := fmt.Sprintf("9%017d", f.next)
	f.mu.Unlock()
	defer func() {
		select {
		case f.changed <- struct{}{}:
		default:
		}
	}()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/callback"):
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/users/@me/channels"):
		fmt.Fprintf(w, `{"id":"dm-%v","type":1}`, c.obj()["recipient_id"])
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/oauth2/applications/@me"):
		io.WriteString(w, `{"id":"700000000000000001","name":"Rhapsode"}`)
	case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/commands"):
		w.Write(mustJSON(c.JSON))
	case r.Method == http.MethodPost || r.Method == http.MethodPatch:
		ch := ""
		if len(parts) >= 4 && parts[2] == "channels" {
			ch = parts[3]
		}
		content, _ := c.obj()["content"].(string)
		w.Write(mustJSON(map[string]any{"id": id, "channel_id": ch, "content": content}))
	default:
		http.Error(w, "the fake does not know "+r.Method+" "+r.URL.Path, http.StatusNotFound)
	}
}

// visibility follows an interaction's messages as Discord shows them:
// a deferral's visibility passes to the first follow-up, and only an edit
// of the response ends the deferral. It marks c public when the channel
// sees what it wrote. f.mu is held.
func (f *fakeDiscord) visibility(c *call, parts []string) {
	if f.deferred == nil {
		f.deferred = map[string]bool{}
	}
	flags, _ := c.obj()["flags"].(float64)
	private := int(flags)&int(discordgo.MessageFlagsEphemeral) != 0
	switch {
	case len(parts) == 6 && parts[2] == "interactions" && parts[5] == "callback":
		// POST /api/v9/interactions/ID/TOKEN/callback
		data, _ := c.obj()["data"].(map[string]any)
		df, _ := data["flags"].(float64)
		dprivate := int(df)&int(discordgo.MessageFlagsEphemeral) != 0
		switch c.obj()["type"] {
		case float64(discordgo.InteractionResponseDeferredChannelMessageWithSource):
			f.deferred[parts[4]] = dprivate
		case float64(discordgo.InteractionResponseChannelMessageWithSource):
			c.Public = !dprivate
		}
	case len(parts) == 5 && parts[2] == "webhooks" && c.Method == http.MethodPost:
		// POST /api/v9/webhooks/APP/TOKEN: a follow-up.
		if was, ok := f.deferred[parts[4]]; ok {
			private = was
			delete(f.deferred, parts[4])
		}
		c.Public = !private
	case len(parts) == 7 && parts[2] == "webhooks" && parts[6] == "@original" && c.Method == http.MethodPatch:
		if was, ok := f.deferred[parts[4]]; ok {
			c.Public = !was
			delete(f.deferred, parts[4])
		}
	case len(parts) >= 4 && parts[2] == "channels" && c.Method == http.MethodPost:
		c.Public = !strings.HasPrefix(parts[3], "dm-")
	}
	if c.Public {
		if text := content(*c); text != "" {
			f.shown = append(f.shown, text)
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// take returns the calls recorded since the last take.
func (f *fakeDiscord) take() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

// all returns every call recorded and not yet taken, leaving them.
func (f *fakeDiscord) peek() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.calls...)
}

// obj returns the call's JSON body as an object (nil when it is not one).
func (c call) obj() map[string]any {
	m, _ := c.JSON.(map[string]any)
	return m
}
