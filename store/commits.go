package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
)

// Group commit. SQLite with synchronous=FULL syncs the write-ahead log on
// every commit, and a sync costs a millisecond or more, so one commit per
// append caps a busy bot at about a thousand steps a second however many
// channels play. Appends (and new games, CreateGame) therefore wait in a
// queue. The first caller to find no one committing leads: it takes every
// write waiting (its own first), runs them in one transaction, each
// inside a savepoint of its own, and commits once. Meanwhile the next
// callers queue up, and when the leader is done it hands the lead to the
// first of them, whose batch is everyone who came during the last sync.
//
// Each write in a batch is checked as it would be alone: an append's head
// is compared under the write lock, after the writes before it in the
// batch, so two appends to one game at one number (two instances, or two
// goroutines) still see one win and the other get [ErrConflict], and a
// second new game in a channel fails as it would alone. A write that
// fails is rolled back to its savepoint and fails alone; the others of
// its batch go on. A failed commit fails every write of the batch that
// had not already failed. No caller returns before the commit that holds
// its rows has returned, so an acknowledged append is on disk.

// maxBatch bounds the writes of one transaction, so that a caller never
// waits behind an unbounded batch.
const maxBatch = 128

// A writeJob is one caller's write (an append, a new game), waiting in
// the queue or in a batch.
type writeJob struct {
	ctx context.Context
	op  fmt.Stringer
	// write runs the job's statements in tx, the batch's transaction,
	// on a context no caller can end; it returns an error wrapped with
	// the operation. It is called once at most.
	write func(ctx context.Context, tx *sql.Tx) error

	// err is the outcome, set before done is closed.
	err  error
	done chan struct{}
	// lead gets a token when the caller is to lead the next batch.
	lead chan struct{}

	// Guarded by the queue's mutex: taken, that a leader has the job in
	// its batch; leads, that its caller was handed the lead.
	taken, leads bool
}

// commitQueue holds the writes waiting for a transaction.
type commitQueue struct {
	mu      sync.Mutex
	pending []*writeJob
	// leading says a caller is committing a batch or has been handed
	// the lead: then a new write waits rather than leads.
	leading bool
	// batches counts the batches run, for tests to see writes gathered.
	batches atomic.Int64
}

// opText names a write whose name is made anyway.
type opText string

func (o opText) String() string { return string(o) }

// queued commits write, the operation op, alone or in a batch of the
// commit queue, and returns its outcome once known. A caller whose
// context ends while its write waits for a batch leaves the queue with
// the context's error; once a batch holds it, it waits for that batch's
// commit.
func (s *Store) queued(ctx context.Context, op fmt.Stringer, write func(ctx context.Context, tx *sql.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	j := &writeJob{ctx: ctx, op: op, write: write, done: make(chan struct{}), lead: make(chan struct{}, 1)}
	s.commits.wait(s, j)
	return j.err
}

// wait puts j in the queue and returns when its outcome is known.
func (q *commitQueue) wait(s *Store, j *writeJob) {
	q.mu.Lock()
	q.pending = append(q.pending, j)
	if !q.leading {
		q.leading, j.leads = true, true
		q.mu.Unlock()
		q.run(s)
		return
	}
	q.mu.Unlock()
	select {
	case <-j.done:
		return
	case <-j.lead:
		q.run(s)
		return
	case <-j.ctx.Done():
	}
	q.mu.Lock()
	switch {
	case j.leads:
		// Handed the lead as the context ended: lead anyway, or the
		// queue stalls; the batch fails this write for its context.
		q.mu.Unlock()
		<-j.lead
		q.run(s)
	case !j.taken:
		for i, p := range q.pending {
			if p == j {
				q.pending = append(q.pending[:i], q.pending[i+1:]...)
				break
			}
		}
		q.mu.Unlock()
		j.err = fmt.Errorf("store: %s: %w", j.op, j.ctx.Err())
	default:
		q.mu.Unlock()
		<-j.done
	}
}

// run commits one batch, the leader's own write first, then hands the
// lead to the first write still waiting.
func (q *commitQueue) run(s *Store) {
	q.mu.Lock()
	n := min(len(q.pending), maxBatch)
	batch := make([]*writeJob, n)
	copy(batch, q.pending)
	q.pending = append(q.pending[:0], q.pending[n:]...)
	for _, j := range batch {
		j.taken = true
	}
	q.mu.Unlock()
	q.batches.Add(1)

	defer func() {
		p := recover()
		for _, j := range batch {
			if p != nil && j.err == nil {
				j.err = fmt.Errorf("store: %s: the commit failed: %v", j.op, p)
			}
			close(j.done)
		}
		q.mu.Lock()
		if len(q.pending) > 0 {
			next := q.pending[0]
			next.leads = true
			next.lead <- struct{}{}
		} else {
			q.leading = false
		}
		q.mu.Unlock()
		if p != nil {
			panic(p)
		}
	}()
	s.commitBatch(batch)
}

// commitBatch runs the writes of batch in one transaction and commits
// it, setting each one's outcome. The transaction and its statements
// run on a context no caller can end: interrupting one write's statement
// would roll back the whole transaction, every other write's rows with
// it. A write whose caller has gone is left out before it starts.
func (s *Store) commitBatch(batch []*writeJob) {
	live := make([]*writeJob, 0, len(batch))
	for _, j := range batch {
		if err := j.ctx.Err(); err != nil {
			j.err = fmt.Errorf("store: %s: %w", j.op, err)
			continue
		}
		live = append(live, j)
	}
	if len(live) == 0 {
		return
	}
	ctx := context.WithoutCancel(live[0].ctx)
	// failAll fails every write that has not failed already.
	failAll := func(err error) {
		for _, j := range live {
			if j.err == nil {
				j.err = wrap(ctx, j.op.String(), err)
			}
		}
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		failAll(err)
		return
	}
	// Whatever fails (or panics), the transaction is rolled back; after
	// a commit this does nothing.
	defer tx.Rollback()
	if len(live) == 1 {
		// Alone, a write needs no savepoint: its failure rolls back the
		// transaction.
		j := live[0]
		if j.err = j.write(ctx, tx); j.err != nil {
			return
		}
		if err := tx.Commit(); err != nil {
			failAll(err)
			return
		}
		s.committed()
		return
	}
	exec := func(query string) error {
		st, err := s.inTx(ctx, tx, query)
		if err != nil {
			return err
		}
		_, err = st.ExecContext(ctx)
		return err
	}
	landed := 0
	for _, j := range live {
		if err := exec(savepoint); err != nil {
			failAll(err)
			return
		}
		j.err = j.write(ctx, tx)
		if j.err != nil {
			if err := exec(rollbackSavepoint); err != nil {
				failAll(err)
				return
			}
		} else {
			landed++
		}
		if err := exec(releaseSavepoint); err != nil {
			failAll(err)
			return
		}
	}
	if landed == 0 {
		return
	}
	if err := tx.Commit(); err != nil {
		failAll(err)
		return
	}
	s.committed()
}

// committed counts a commit of the queue toward the next background
// checkpoint (checkpoint.go).
func (s *Store) committed() {
	if s.ckpt != nil {
		s.ckpt.committed()
	}
}
