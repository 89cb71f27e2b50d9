package guard

import (
	"container/list"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits are a server's deadlines and its cap on open connections.
type Limits struct {
	// Header is how long a client has to send a request's headers, Body
	// its body after them, Write the answer's writing (from the end of
	// the headers), Idle how long a connection may wait for its next
	// request.
	Header, Body, Write, Idle time.Duration
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes int
	// MaxConns is how many connections are open at once.
	MaxConns int
}

// Defaults are limits for a server that answers within seconds: Discord
// gives an interaction three.
var Defaults = Limits{Header: 5 * time.Second, Body: 5 * time.Second, Write: 30 * time.Second, Idle: time.Minute,
	MaxHeaderBytes: 64 << 10, MaxConns: 256}

// Server returns a server of h with lim's deadlines. The body's is set
// afresh for each request once its headers are in, so that a connection
// kept alive for many requests is not cut off in the middle of one.
func Server(h http.Handler, lim Limits) *http.Server {
	if lim.Body > 0 {
		inner := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.NewResponseController(w).SetReadDeadline(time.Now().Add(lim.Body))
			inner.ServeHTTP(w, r)
		})
	}
	return &http.Server{Handler: h, ReadHeaderTimeout: lim.Header, WriteTimeout: lim.Write,
		IdleTimeout: lim.Idle, MaxHeaderBytes: lim.MaxHeaderBytes}
}

// Serve serves srv on ln, keeping at most max connections open (see the
// package's doc); it returns as [http.Server.Serve] does. It sets
// srv.ConnState, calling any hook already set after its own.
func Serve(srv *http.Server, ln net.Listener, max int) error {
	l := Listen(ln, max)
	hook := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		l.State(c, s)
		if hook != nil {
			hook(c, s)
		}
	}
	return srv.Serve(l)
}

// Listener accepts every connection and keeps at most its cap open,
// shedding the one that has waited longest without a request in hand when
// a new one comes past it. Its server reports each connection's state to
// State.
type Listener struct {
	net.Listener
	max int

	mu sync.Mutex
	// waiting are the open connections without a request in hand, the
	// one waiting longest first; busy counts those with one.
	waiting *list.List
	busy    int
}

// conn is an accepted connection.
type conn struct {
	net.Conn
	l *Listener
	// at is c's place in l.waiting, nil while it has a request in hand;
	// closed says it is no longer counted.
	at     *list.Element
	closed bool
}

// Listen returns a listener of ln that keeps at most max connections open.
func Listen(ln net.Listener, max int) *Listener {
	return &Listener{Listener: ln, max: max, waiting: list.New()}
}

// Accept takes the next connection, first shedding the one waiting longest
// without a request should the cap be reached; when every open connection
// has a request in hand, the newcomer is closed instead.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &conn{Conn: nc, l: l}
		l.mu.Lock()
		var shed *conn
		if l.waiting.Len()+l.busy >= l.max {
			if front := l.waiting.Front(); front != nil {
				shed = front.Value.(*conn)
				l.forget(shed)
			}
		}
		full := l.waiting.Len()+l.busy >= l.max
		if !full {
			c.at = l.waiting.PushBack(c)
		}
		l.mu.Unlock()
		if shed != nil {
			shed.Conn.Close()
		}
		if full {
			nc.Close()
			continue
		}
		return c, nil
	}
}

// State notes a connection's state as its server reports it (an
// [http.Server]'s ConnState): one reading or answering a request is not
// shed; one gone idle waits behind every other.
func (l *Listener) State(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.closed {
		return
	}
	switch s {
	case http.StateActive:
		if c.at != nil {
			l.waiting.Remove(c.at)
			c.at = nil
			l.busy++
		}
	case http.StateIdle:
		if c.at == nil {
			l.busy--
			c.at = l.waiting.PushBack(c)
		}
	case http.StateHijacked, http.StateClosed:
		l.forget(c)
	}
}

// forget stops counting c; l.mu is held.
func (l *Listener) forget(c *conn) {
	if c.closed {
		return
	}
	c.closed = true
	if c.at != nil {
		l.waiting.Remove(c.at)
		c.at = nil
	} else {
		l.busy--
	}
}

// Open returns how many connections are open.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting.Len() + l.busy
}

func (c *conn) Close() error {
	c.l.mu.Lock()
	c.l.forget(c)
	c.l.mu.Unlock()
	return c.Conn.Close()
}
