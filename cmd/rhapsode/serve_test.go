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
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot/guard"
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

// TestServeAnswersBesideSlowClients runs `rhapsode serve` with the
// published pages too, and holds 2,000 connections open on each of its
// two servers, each having sent the start of a request and then nothing:
// signed PINGs and a page are still answered, each within Discord's three
// seconds.
func TestServeAnswersBesideSlowClients(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	addr, webAddr := freeAddr(t), freeAddr(t)
	env := map[string]string{"DISCORD_PUBLIC_KEY": hex.EncodeToString(pub)}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve", "--interactions", addr, "--web", webAddr, "--db", filepath.Join(t.TempDir(), "r.db")},
			strings.NewReader(""), io.Discard, io.Discard, func(k string) string { return env[k] })
	}()
	defer func() {
		stop()
		<-done
	}()
	for i := 0; ; i++ {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if i == 200 {
			t.Fatalf("serve never listened: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return -1
		}
		return len(ents)
	}
	before := fds()
	for _, a := range []string{addr, webAddr} {
		for range 2000 {
			c, err := net.Dial("tcp", a)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
		}
	}
	client := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	ping := []byte(`{"id":"1","application_id":"2","type":1,"token":"t","version":1}`)
	for n := range 3 {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/interactions", bytes.NewReader(ping))
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req.Header.Set("X-Signature-Timestamp", ts)
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), ping...))))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("PING %d beside 2,000 slow connections: %v", n+1, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("PING %d: status %d", n+1, resp.StatusCode)
		}
	}
	resp, err := client.Get("http://" + webAddr + "/p/nothing/")
	if err != nil {
		t.Fatalf("a page beside 2,000 slow connections: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown page: status %d, want 404", resp.StatusCode)
	}
	// The test's own 4,000 ends are open files of this process too; the
	// servers' ends are at most their caps.
	if n := fds(); before >= 0 && n-before > 4000+2*guard.Defaults.MaxConns+64 {
		t.Errorf("%d files opened for 4,000 slow connections: the servers hold more than their caps", n-before)
	}
}
