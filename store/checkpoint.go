package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// Checkpoints. In WAL mode a commit appends pages to the write-ahead log,
// and a checkpoint copies them into the database file and syncs it, so
// that the log can start again from its beginning. Left to itself, SQLite
// checkpoints inside the commit that finds the log past 1,000 pages, and
// that commit returns only when the copy (some 4 MB) and its sync are
// done: 5 to 9 ms on a quiet disk (BenchmarkCheckpoints), hundreds on a
// busy one, which every append queued behind it waits for too
// (store/commits.go).
//
// So the store checkpoints off the path of any write: every
// checkpointEvery commits (of the queue, and snapshots), a goroutine of
// its own runs a PASSIVE checkpoint on a connection of its own. A passive
// checkpoint copies what no reader still needs and waits for no lock;
// writers and readers go on meanwhile. Run every few dozen commits, it
// finds little to copy, and when it ends before the next write begins,
// as it does between a bot's steps, that write starts the log again from
// its beginning.
//
// The writer's own checkpoint stays, raised to walBackstop pages. It runs
// only when the log grows that long all the same: writes that never pause
// long enough for a background checkpoint to finish before the next, or a
// reader holding old pages. It then copies only what the background ones
// left, and the log starts again after it.

// checkpointEvery is how many commits of the queue go between two
// background checkpoints: about a hundred pages of the log in a played
// battle (two or three pages a step), well short of walBackstop.
const checkpointEvery = 32

// walBackstop is the length of the log, in pages, at which the writer's
// commit checkpoints by itself (SQLite's wal_autocheckpoint).
const walBackstop = 4000

// A checkpointer runs the store's background checkpoints.
type checkpointer struct {
	db      *sql.DB // one connection of the writer's settings, for checkpoints only
	commits atomic.Int64
	done    chan struct{} // closed when the goroutine has returned

	mu   sync.Mutex
	wake *sync.Cond // on mu: a checkpoint asked for, one finished, or stop
	// asked, that a checkpoint is wanted and not yet begun; running,
	// that one is under way; stopped, that the store is closing.
	asked, running, stopped bool
	// err is the last checkpoint's error, for tests. A failed checkpoint
	// loses nothing (the log keeps every page until one succeeds) and the
	// next is soon tried again.
	err error
}

// startCheckpointer starts the background checkpoints of the database
// db connects to, on its one connection, which it closes when stopped.
func startCheckpointer(db *sql.DB) *checkpointer {
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	c := &checkpointer{db: db, done: make(chan struct{})}
	c.wake = sync.NewCond(&c.mu)
	go c.loop()
	return c
}

// committed counts one commit, and every checkpointEvery-th asks for a
// checkpoint. It never waits for one.
func (c *checkpointer) committed() {
	if c.commits.Add(1)%checkpointEvery == 0 {
		c.mu.Lock()
		c.asked = true
		c.wake.Broadcast()
		c.mu.Unlock()
	}
}

func (c *checkpointer) loop() {
	defer close(c.done)
	for {
		c.mu.Lock()
		for !c.asked && !c.stopped {
			c.wake.Wait()
		}
		if c.stopped {
			c.mu.Unlock()
			return
		}
		c.asked, c.running = false, true
		c.mu.Unlock()

		// PASSIVE waits for no lock, so there is no context to end. The
		// row it answers is read to its end, so that the statement holds
		// no read of the log, which would keep the next write from
		// starting the log again.
		var busy, logged, copied int
		err := c.db.QueryRowContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logged, &copied)

		c.mu.Lock()
		c.running, c.err = false, err
		c.wake.Broadcast()
		c.mu.Unlock()
	}
}

// settle waits until no checkpoint is asked for or under way, and returns
// the last one's error: for tests, to see the log as a pause between two
// steps leaves it.
func (c *checkpointer) settle() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for (c.asked || c.running) && !c.stopped {
		c.wake.Wait()
	}
	return c.err
}

// close stops the checkpoints, waits for one under way, and closes the
// connection.
func (c *checkpointer) close() error {
	c.mu.Lock()
	c.stopped = true
	c.wake.Broadcast()
	c.mu.Unlock()
	<-c.done
	return c.db.Close()
}
