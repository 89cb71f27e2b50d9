package guard

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// serve serves h on loopback with lim, and returns its address and
// listener.
func serve(t *testing.T, h http.Handler, lim Limits) (string, *Listener) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(h, lim)
	l := Listen(ln, lim.MaxConns)
	srv.ConnState = l.State
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), l
}

// ok answers "ok" to a request whose body it read whole.
var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		http.Error(w, "body not read", http.StatusRequestTimeout)
		return
	}
	io.WriteString(w, "ok")
})

// slow opens a connection that sends the start of a request and then
// nothing.
func slow(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	return c
}

// get asks for / on a connection of its own, giving up after three
// seconds, Discord's wait for an interaction's answer.
func get(addr string) error {
	client := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get("http://" + addr + "/")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "ok" {
		return fmt.Errorf("status %d: %s", resp.StatusCode, body)
	}
	return nil
}

// closed reports whether the server closes c within wait.
func closed(c net.Conn, wait time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(wait))
	_, err := bufio.NewReader(c).ReadByte()
	return err != nil && !isTimeout(err)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestSlowClientsDoNotStarve: with 2,000 connections open that each sent
// the start of a request and then nothing, a request sent whole on a new
// connection is answered within three seconds, three times over, and the
// server never holds more connections than its cap.
func TestSlowClientsDoNotStarve(t *testing.T) {
	addr, l := serve(t, ok, Defaults)
	for range 2000 {
		slow(t, addr)
	}
	for i := range 3 {
		if err := get(addr); err != nil {
			t.Fatalf("request %d beside 2,000 slow connections: %v", i+1, err)
		}
	}
	if n := l.Open(); n > Defaults.MaxConns {
		t.Errorf("%d connections open, past the cap of %d", n, Defaults.MaxConns)
	}
}

// TestShedsTheLongestWaiting: past the cap, the connection that has
// waited longest without sending a whole request is closed, and the
// others stay open.
func TestShedsTheLongestWaiting(t *testing.T) {
	lim := Defaults
	lim.MaxConns = 2
	addr, _ := serve(t, ok, lim)
	first := slow(t, addr)
	second := slow(t, addr)
	if err := get(addr); err != nil {
		t.Fatal(err)
	}
	if !closed(first, 5*time.Second) {
		t.Error("the oldest slow connection was kept past the cap")
	}
	if closed(second, 200*time.Millisecond) {
		t.Error("the newer slow connection was shed too")
	}
}

// TestRequestInHandIsNotShed: a connection whose request is being
// answered is not shed for a newcomer; when every connection has one,
// the newcomer is turned away instead, and served once one finishes.
func TestRequestInHandIsNotShed(t *testing.T) {
	lim := Defaults
	lim.MaxConns = 1
	release, entered := make(chan struct{}), make(chan struct{})
	addr, l := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hold" {
			close(entered)
			<-release
		}
		io.WriteString(w, "ok")
	}), lim)
	held := make(chan error, 1)
	go func() {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Get("http://" + addr + "/hold")
		if err == nil {
			resp.Body.Close()
		}
		held <- err
	}()
	<-entered
	if err := get(addr); err == nil {
		t.Error("a newcomer was served past the cap while the only connection had a request in hand")
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatalf("the request in hand was cut off: %v", err)
	}
	// The client has its answer a moment before the server has closed
	// the connection and stopped counting it: wait for that, as the
	// newcomer's own retry would.
	for deadline := time.Now().Add(5 * time.Second); l.Open() > 0; {
		if time.Now().After(deadline) {
			t.Fatal("the answered connection is still counted open after 5 s")
		}
		time.Sleep(time.Millisecond)
	}
	if err := get(addr); err != nil {
		t.Fatalf("after the request in hand was answered: %v", err)
	}
}

// TestBodyHasADeadline: a client that sends its headers and then dribbles
// its body is cut off once the body's deadline passes.
func TestBodyHasADeadline(t *testing.T) {
	lim := Defaults
	lim.Body = 200 * time.Millisecond
	addr, _ := serve(t, ok, lim)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply, err := io.ReadAll(c)
	if isTimeout(err) {
		t.Fatal("the connection stayed open past the body's deadline")
	}
	if strings.Contains(string(reply), "200 OK") {
		t.Errorf("a request with its body cut short was answered: %q", reply)
	}
}
