package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot/guard"
)

// endpoint serves a table's bot at an HTTP interactions endpoint on
// loopback, with a key of its own.
type endpoint struct {
	*table
	srv  *httptest.Server
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newEndpoint(t *testing.T) *endpoint {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tb := newTable(t)
	ep := &Endpoint{Bot: tb.bot, Key: pub, Work: context.Background(), Now: tb.clock}
	srv := httptest.NewServer(ep.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(tb.bot.Wait)
	return &endpoint{table: tb, srv: srv, pub: pub, priv: priv}
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "interactions", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// post sends body to /interactions with the given headers.
func (e *endpoint) post(t *testing.T, body []byte, sig, ts string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/interactions", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if sig != "" {
		req.Header.Set("X-Signature-Ed25519", sig)
	}
	if ts != "" {
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func sign(key ed25519.PrivateKey, ts string, body []byte) string {
	return hex.EncodeToString(ed25519.Sign(key, append([]byte(ts), body...)))
}

// send posts body signed as Discord would sign it now, and returns the
// first response.
func (e *endpoint) send(t *testing.T, body []byte) discordgo.InteractionResponse {
	t.Helper()
	ts := strconv.FormatInt(e.clock().Unix(), 10)
	resp := e.post(t, body, sign(e.priv, ts, body), ts)
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, msg)
	}
	var r discordgo.InteractionResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// waitFor waits until the fake has recorded a call that ok accepts, and
// returns it; it fails the test after a few seconds.
func (f *fakeDiscord) waitFor(t *testing.T, what string, ok func(call) bool) call {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for _, c := range f.peek() {
			if ok(c) {
				return c
			}
		}
		select {
		case <-f.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			var seen []string
			for _, c := range f.peek() {
				seen = append(seen, describeCall(c))
			}
			t.Fatalf("Discord never received %s; it received:\n%s", what, strings.Join(seen, "\n"))
		}
	}
}

func originalEdit(token string) func(call) bool {
	return func(c call) bool {
		return c.Method == http.MethodPatch && strings.HasSuffix(c.Path, "/"+token+"/messages/@original")
	}
}

func content(c call) string {
	s, _ := c.obj()["content"].(string)
	return s
}

func TestEndpointRefusesWhatDiscordDidNotSign(t *testing.T) {
	e := newEndpoint(t)
	body := fixture(t, "book-open")
	now := strconv.FormatInt(e.clock().Unix(), 10)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	stale := strconv.FormatInt(e.clock().Add(-10*time.Minute).Unix(), 10)
	altered := bytes.Replace(body, []byte(`"practice"`), []byte(`"battle"`), 1)
	if bytes.Equal(altered, body) {
		t.Fatal("the fixture changed shape: nothing to alter")
	}
	for _, c := range []struct {
		name    string
		body    []byte
		sig, ts string
	}{
		{"forged", body, sign(other, now, body), now},
		{"altered", altered, sign(e.priv, now, body), now},
		{"stale", body, sign(e.priv, stale, body), stale},
		{"from the future", body, sign(e.priv, strconv.FormatInt(e.clock().Add(time.Hour).Unix(), 10), body), strconv.FormatInt(e.clock().Add(time.Hour).Unix(), 10)},
		{"unsigned", body, "", ""},
		{"signature without timestamp", body, sign(e.priv, now, body), ""},
		{"signature not hex", body, "zz" + sign(e.priv, now, body)[2:], now},
		{"timestamp swapped", body, sign(e.priv, now, body), strconv.FormatInt(e.clock().Unix()-1, 10)},
		{"oversized and unsigned", bytes.Repeat([]byte(" "), maxBody+1), "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := e.post(t, c.body, c.sig, c.ts)
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("status %d, want 401", resp.StatusCode)
			}
		})
	}
	e.bot.Wait()
	if calls := e.fake.take(); len(calls) != 0 {
		t.Errorf("a refused request reached Discord: %s", describeCall(calls[0]))
	}
	if _, err := e.store.ActiveGame(context.Background(), testGuild, testChannel); err == nil {
		t.Error("a refused request opened a book")
	}
}

func TestEndpointAnswersPingAndSignedStatus(t *testing.T) {
	e := newEndpoint(t)
	if r := e.send(t, []byte(`{"id":"1","application_id":"700000000000000001","type":1,"token":"t","version":1}`)); r.Type != discordgo.InteractionResponsePong {
		t.Errorf("PING answered with type %d, want PONG", r.Type)
	}
	if r := e.send(t, fixture(t, "book-open")); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Fatalf("/book open answered with type %d, want a deferral", r.Type)
	}
	e.fake.waitFor(t, "the book's opening", originalEdit("aW50ZXJhY3Rpb246book-open"))
	r := e.send(t, fixture(t, "status"))
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || r.Data == nil || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("/status answered with %+v, want a private deferral", r)
	}
	c := e.fake.waitFor(t, "the status", originalEdit("aW50ZXJhY3Rpb246status"))
	// The same signed request again, within its five minutes, is the
	// same interaction: answered as before, from the store.
	e.fake.take()
	if r := e.send(t, fixture(t, "status")); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Errorf("a replayed /status answered with type %d", r.Type)
	}
	if again := e.fake.waitFor(t, "the status again", originalEdit("aW50ZXJhY3Rpb246status")); content(again) != content(c) {
		t.Errorf("a replayed /status said %q, first %q", content(again), content(c))
	}
	if !strings.Contains(content(c), "The book is gathering") {
		t.Errorf("/status said %q", content(c))
	}
	if c.Auth != "Bot test-token" {
		t.Errorf("the edit carried authorization %q", c.Auth)
	}
}

// TestEndpointRefusesWhatItDoesNotUnderstand: a signed request that is no
// interaction the bot takes ({}, an unknown type, a modal, a command
// without its data) is answered 400, not left to time out, and reaches
// no handler.
func TestEndpointRefusesWhatItDoesNotUnderstand(t *testing.T) {
	e := newEndpoint(t)
	ts := strconv.FormatInt(e.clock().Unix(), 10)
	for _, body := range []string{
		`{}`,
		`{"id":"5","application_id":"700000000000000001","type":42,"token":"t","version":1}`,
		`{"id":"6","application_id":"700000000000000001","type":5,"token":"t","version":1,"data":{"custom_id":"x"}}`,
		`{"id":"7","application_id":"700000000000000001","type":2,"token":"t","version":1}`,
		`{"application_id":"700000000000000001","type":3,"token":"t","version":1,"data":{"custom_id":"x"}}`,
		`[]`,
	} {
		resp := e.post(t, []byte(body), sign(e.priv, ts, []byte(body)), ts)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", body, resp.StatusCode)
		}
	}
	if calls := e.fake.take(); len(calls) != 0 {
		t.Errorf("Discord was called: %+v", calls)
	}
}

func TestHealth(t *testing.T) {
	e := newEndpoint(t)
	resp, err := e.srv.Client().Get(e.srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "ok") {
		t.Errorf("health: %d %s", resp.StatusCode, body)
	}
}

func TestVerify(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"type":1}`)
	for _, c := range []struct {
		skew time.Duration
		want bool
	}{{0, true}, {-4 * time.Minute, true}, {4 * time.Minute, true}, {-6 * time.Minute, false}, {6 * time.Minute, false}} {
		ts := fmt.Sprint(now.Add(c.skew).Unix())
		if got := Verify(pub, sign(priv, ts, body), ts, body, now); got != c.want {
			t.Errorf("signed %s from now: %v, want %v", c.skew, got, c.want)
		}
	}
	if Verify(pub[:31], sign(priv, "1", body), "1", body, time.Unix(1, 0)) {
		t.Error("a short key verified")
	}
}

// TestEndpointAnswersBesideSlowClients: with 2,000 connections held open
// on the endpoint's server, each having sent the start of a request and
// then nothing, three signed PINGs and a signed /book open, each on a
// connection of its own, are answered within Discord's three seconds.
func TestEndpointAnswersBesideSlowClients(t *testing.T) {
	tb := newTable(t)
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ep := &Endpoint{Bot: tb.bot, Key: pub, Work: context.Background(), Now: tb.clock}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := ep.Server()
	go guard.Serve(srv, ln, guard.Defaults.MaxConns)
	defer srv.Close()
	defer tb.bot.Wait()
	addr := ln.Addr().String()
	for range 2000 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "POST /interactions HTTP/1.1\r\nHost: x\r\n")
	}
	client := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	ping := []byte(`{"id":"1","application_id":"700000000000000001","type":1,"token":"t","version":1}`)
	for n, body := range [][]byte{ping, ping, ping, fixture(t, "book-open")} {
		ts := strconv.FormatInt(tb.clock().Unix(), 10)
		req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/interactions", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Signature-Ed25519", sign(priv, ts, body))
		req.Header.Set("X-Signature-Timestamp", ts)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("request %d beside 2,000 slow connections: %v", n+1, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("request %d beside 2,000 slow connections: status %d", n+1, resp.StatusCode)
		}
	}
}

// TestServerTimesOutADribblingClient: a client that sends part of its
// headers and then nothing is cut off.
func TestServerTimesOutADribblingClient(t *testing.T) {
	e := &Endpoint{}
	srv := e.Server()
	if srv.ReadHeaderTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || guard.Defaults.Body <= 0 {
		t.Fatalf("the server's timeouts are %v, %v, %v, and the body's %v", srv.ReadHeaderTimeout, srv.WriteTimeout, srv.IdleTimeout, guard.Defaults.Body)
	}
	srv.ReadHeaderTimeout = 200 * time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /interactions HTTP/1.1\r\nHost: x\r\n")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadAll(c); err != nil {
		t.Fatalf("the connection stayed open: %v", err)
	}
}
