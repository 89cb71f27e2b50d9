package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServeStartsWithoutDiscord runs `rhapsode serve` with a public key
// and no token: it serves its health check and answers a signed PING on
// loopback, refuses an unsigned one, and stops cleanly when told to.
func TestServeStartsWithoutDiscord(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	env := map[string]string{"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub)}
	ctx, stop := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	var mu sync.Mutex
	done := make(chan int)
	go func() {
		code := run(ctx, []string{"serve", "--interactions", addr, "--db", filepath.Join(t.TempDir(), "r.db")},
			strings.NewReader(""), io.Discard, lockedWriter{&mu, &stderr}, func(k string) string { return env[k] })
		done <- code
	}()
	base := "http://" + addr
	var resp *http.Response
	for i := 0; ; i++ {
		resp, err = http.Get(base + "/healthz")
		if err == nil {
			break
		}
		if i == 200 {
			t.Fatalf("serve never listened: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("health: %d", resp.StatusCode)
	}
	ping := []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`)
	post := func(sign bool) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, base+"/interactions", bytes.NewReader(ping))
		if sign {
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			req.Header.Set("X-Signature-Timestamp", ts)
			req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), ping...))))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post(true); code != http.StatusOK || !strings.Contains(body, `"type":1`) {
		t.Errorf("a signed PING: %d %s", code, body)
	}
	if code, _ := post(false); code != http.StatusUnauthorized {
		t.Errorf("an unsigned PING: %d, want 401", code)
	}
	stop()
	select {
	case code := <-done:
		mu.Lock()
		defer mu.Unlock()
		if code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
		if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
			t.Errorf("serve did not log its stop: %s", stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}

func TestServeNeedsAKey(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"serve", "--interactions", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "r.db")},
		strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" })
	if code == 0 || !strings.Contains(stderr.String(), "DISCORD_PUBLIC_KEY") {
		t.Errorf("serve without a key exited %d: %s", code, stderr.String())
	}
	code = run(context.Background(), []string{"register"}, strings.NewReader(""), io.Discard, &stderr, func(string) string { return "" })
	if code == 0 || !strings.Contains(stderr.String(), "DISCORD_TOKEN") {
		t.Errorf("register without a token exited %d", code)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestServeAnswersTheImagesHealthCheck: with RHAPSODE_HEALTH set, as the
// Docker image sets it, serve answers /healthz there as well as on its
// interactions address, so that the image's HEALTHCHECK (rhapsode
// health, asking a fixed port) passes for serve as for gateway.
func TestServeAnswersTheImagesHealthCheck(t *testing.T) {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	addr, healthAddr := freeAddr(t), freeAddr(t)
	env := map[string]string{"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub), "RHAPSODE_HEALTH": healthAddr}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr bytes.Buffer
	var mu sync.Mutex
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve", "--interactions", addr, "--db", filepath.Join(t.TempDir(), "r.db")},
			strings.NewReader(""), io.Discard, lockedWriter{&mu, &stderr}, func(k string) string { return env[k] })
	}()
	url := "http://" + healthAddr + "/healthz"
	for i := 0; ; i++ {
		code, _, errOut := rhapsode(t, "health", "--url", url)
		if code == 0 {
			break
		}
		if i == 200 {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("rhapsode health --url %s never passed: %s; serve said: %s", url, errOut, stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	select {
	case code := <-done:
		if code != 0 {
			mu.Lock()
			defer mu.Unlock()
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
}
