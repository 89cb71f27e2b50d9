package bot

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// The benchmarks in this file measure each rule system over a played
// battle: its demonstration (bot/demos), which moves, shoots and fights
// melee with every card stacked and die loaded, played again and again,
// each time as a new book in a new channel. Every line of the script is
// one step a player gives, setting up included.
//
//	go test -p 1 -run '^$' -bench 'Systems|PlayedPictures' ./bot ./render
//
// reports, per system, side by side in one run: a step beside a bare
// append of the same bytes, and the store's append within the step
// (StepVsBare; StepWithoutCalls weighs what recording a step's calls
// costs it), steps per second in 50 busy
// channels without pictures (Busy), and the latency a player feels when
// 50 channels each get a command every 5 s on average with a picture
// per step (Arrivals), a long book's cold load beside a short one's
// (Load), and the pages of the log a step's commit writes (Pages);
// render's BenchmarkPlayedPictures draws the same battles' pictures.

// scriptLine is one line of a script: who gives it and what.
type scriptLine struct {
	user engine.PlayerID
	cmd  engine.Command
	text string
}

// demoLines reads system key's demonstration as the local table does.
func demoLines(b testing.TB, key string) []scriptLine {
	b.Helper()
	script, ok := Demo(key)
	if !ok {
		b.Fatalf("no demonstration for %s", key)
	}
	var out []scriptLine
	user := engine.PlayerID("player")
	for text := range strings.Lines(script) {
		l, err := engine.ParseLine(text)
		if err != nil {
			b.Fatalf("%s: %q: %v", key, text, err)
		}
		if l.Empty {
			continue
		}
		if l.User != "" {
			user = l.User
		}
		out = append(out, scriptLine{user: user, cmd: l.Command, text: strings.TrimSpace(text)})
	}
	return out
}

// player plays a script again and again in channels of its own: each
// time through is a new book in a new channel.
type player struct {
	lines []scriptLine
	name  string
	i     int
	round int
}

// next returns the request of the next line.
func (p *player) next() Request {
	if p.i == len(p.lines) {
		p.i, p.round = 0, p.round+1
	}
	l := p.lines[p.i]
	p.i++
	return Request{Guild: "g", Channel: fmt.Sprintf("%s-%d", p.name, p.round), User: l.user, Command: l.cmd}
}

// step runs req through r. (The demonstrations' transcripts are tested
// elsewhere; stepRows says how many of a script's lines append nothing.)
func step(b testing.TB, r *Router, req Request) []Reply {
	reps := r.Handle(context.Background(), req)
	if len(reps) == 0 {
		b.Fatalf("%s in %s: no reply", req.Command, req.Channel)
	}
	return reps
}

// bareLog is a SQLite database opened with the store's own pragmas
// (WAL, synchronous FULL, foreign keys, busy timeout, BEGIN IMMEDIATE)
// holding one table of events and nothing else: what appending a step's
// bytes costs the disk, with no head to check and no JSON to validate.
type bareLog struct {
	db     *sql.DB
	insert *sql.Stmt
	seq    int64
	path   string // the database file
}

func openBare(b testing.TB) *bareLog {
	b.Helper()
	path := filepath.Join(b.TempDir(), "bare.db")
	u := url.URL{Scheme: "file", Path: path}
	q := []string{"_pragma=busy_timeout(10000)", "_pragma=foreign_keys(1)", "_pragma=synchronous(FULL)", "_pragma=journal_mode(WAL)", "_txlock=immediate"}
	db, err := sql.Open("sqlite", u.String()+"?"+strings.Join(q, "&"))
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	b.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, actor TEXT NOT NULL,
		step INTEGER NOT NULL, draws TEXT, discards TEXT, payload TEXT NOT NULL, recorded_at TEXT NOT NULL) STRICT`); err != nil {
		b.Fatal(err)
	}
	ins, err := db.Prepare(`INSERT INTO events (seq, kind, actor, step, draws, discards, payload, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ins.Close() })
	return &bareLog{db: db, insert: ins, path: path}
}

// append writes rows in one transaction.
func (l *bareLog) append(b testing.TB, rows []store.Row) {
	tx, err := l.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	ins := tx.Stmt(l.insert)
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for _, r := range rows {
		l.seq++
		if _, err := ins.Exec(l.seq, r.Kind, r.Actor, r.Step, r.Draws, r.Discards, r.Payload, now); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// stepRows plays lines once in channel ch of r and returns, for each
// line, the rows it appended to st (none for a line that only reads).
func stepRows(b testing.TB, r *Router, st *store.Store, lines []scriptLine) [][]store.Row {
	b.Helper()
	ctx := context.Background()
	p := &player{lines: lines, name: "warm"}
	var id store.GameID
	var head engine.Seq
	var out [][]store.Row
	for range lines {
		req := p.next()
		step(b, r, req)
		if id == 0 {
			info, err := st.ActiveGame(ctx, req.Guild, req.Channel)
			if err != nil {
				b.Fatal(err)
			}
			id = info.ID
		}
		g, err := st.Game(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		recs, err := st.Events(ctx, id, head, g.Head)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := store.EncodeRows(recs, head)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, rows)
		head = g.Head
	}
	return out
}

// BenchmarkSystemsStepVsBare plays each system's battle through the
// router (decided, durably appended on SQLite, answered; no picture) and,
// beside each step, appends the same rows to a bare log of the same
// pragmas (bareLog), so that both see the same disk and load; each side
// goes first every other step. Steps that append nothing (/status) are
// left out of both. It reports each one's mean, step/bare (the ratio of
// the means; the goal is at most 1.2) and median-step/bare, the median
// over steps of a step's time over its bare append's: on a shared
// machine a few syncs held up by other processes' writes weigh heavily
// in the means, and fall on either side. Beside the times it reports the
// processor time of each (step-cpu-µs, bare-cpu-µs and their ratio,
// cpu-step/bare: the benchmark's own thread, on Linux), which other
// processes' load and the disk's delays touch far less than the wall
// clock, to read a loaded machine's figures by. (The wall ratio lies
// between 1 and the processor time's, nearer the latter the more of each
// side's time is processor time: when the disk syncs fast, or when a
// busy machine keeps threads waiting for a core.)
//
// To say where a step's time beyond the bare append goes, it also
// reports the store's append within the step alone, the same ways:
// median-append/bare and cpu-append/bare. What the step spends outside
// it is the router's and the rules' (deciding, encoding, answering).
func BenchmarkSystemsStepVsBare(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) { stepVsBare(b, key, true) })
	}
}

// BenchmarkSystemsStepWithoutCalls is BenchmarkSystemsStepVsBare with
// steps that record no calls (the store's plain Append): not a way the
// bot runs, but a probe of what recording a step's calls (who is awaited
// since when, games.go) costs it: a second table, and so a second page,
// in each commit of a step that changes who is awaited.
func BenchmarkSystemsStepWithoutCalls(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) { stepVsBare(b, key, false) })
	}
}

// timedAppends is a store whose writes of a step (a new book's, or an
// append, with their calls) are timed: wall and processor time, on the
// caller's thread. With calls false it records a step's records without
// its calls.
type timedAppends struct {
	*store.Store
	calls     bool
	wall, cpu time.Duration
}

// time adds the time since t0 and the thread's processor time since c0.
func (t *timedAppends) time(t0 time.Time, c0 time.Duration) {
	t.wall += time.Since(t0)
	t.cpu += threadCPU() - c0
}

func (t *timedAppends) CreateGame(ctx context.Context, guild, channel, ruleset string, recs []engine.Record) (store.Game, error) {
	defer t.time(time.Now(), threadCPU())
	return t.Store.CreateGame(ctx, guild, channel, ruleset, recs)
}

func (t *timedAppends) CreateGameCalling(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls store.CallChange) (store.Game, error) {
	defer t.time(time.Now(), threadCPU())
	if !t.calls {
		return t.Store.CreateGame(ctx, guild, channel, ruleset, recs)
	}
	return t.Store.CreateGameCalling(ctx, guild, channel, ruleset, recs, calls)
}

func (t *timedAppends) AppendCalling(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool, calls store.CallChange) (store.Game, error) {
	defer t.time(time.Now(), threadCPU())
	if !t.calls {
		return t.Store.Append(ctx, id, expect, recs, end)
	}
	return t.Store.AppendCalling(ctx, id, expect, recs, end, calls)
}

// stepVsBare is BenchmarkSystemsStepVsBare for system key, its steps
// recording their calls or not.
func stepVsBare(b *testing.B, key string, calls bool) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "step.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	st := &timedAppends{Store: db, calls: calls}
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
	lines := demoLines(b, key)
	rows := stepRows(b, r, db, lines)
	bare := openBare(b)
	p := &player{lines: lines, name: "c"}
	var stepping, appending, stepCPU, bareCPU, storeCPU time.Duration
	var pairs, stores []float64 // each step's time, and its append's, over its bare append's
	var n, events int
	// Every statement of the step and of the bare append runs on this
	// goroutine (the store's commit leader is its caller), so its
	// thread's processor time is theirs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	for b.Loop() {
		i := p.i % len(lines)
		req := p.next()
		if len(rows[i]) == 0 {
			step(b, r, req)
			continue
		}
		// Each side goes first every other time: a sync right after
		// another may cost more or less than one after a pause, and
		// neither side should have that to itself.
		timed := func(f func(), cpu *time.Duration) time.Duration {
			c0, t0 := threadCPU(), time.Now()
			f()
			d := time.Since(t0)
			*cpu += threadCPU() - c0
			return d
		}
		w0, c0 := st.wall, st.cpu
		stepIt, bareIt := func() { step(b, r, req) }, func() { bare.append(b, rows[i]) }
		var ds, da time.Duration
		if n%2 == 0 {
			ds, da = timed(stepIt, &stepCPU), timed(bareIt, &bareCPU)
		} else {
			da, ds = timed(bareIt, &bareCPU), timed(stepIt, &stepCPU)
		}
		stepping, appending = stepping+ds, appending+da
		pairs = append(pairs, float64(ds)/float64(da))
		stores = append(stores, float64(st.wall-w0)/float64(da))
		storeCPU += st.cpu - c0
		n++
		events += len(rows[i])
	}
	if n == 0 {
		return
	}
	median := func(xs []float64) float64 {
		slices.Sort(xs)
		return xs[len(xs)/2]
	}
	b.ReportMetric(float64(stepping.Microseconds())/float64(n), "step-µs")
	b.ReportMetric(float64(appending.Microseconds())/float64(n), "bare-µs")
	b.ReportMetric(float64(stepping)/float64(appending), "step/bare")
	b.ReportMetric(median(pairs), "median-step/bare")
	b.ReportMetric(median(stores), "median-append/bare")
	b.ReportMetric(float64(events)/float64(n), "events/step")
	b.ReportMetric(float64(stepCPU.Microseconds())/float64(n), "step-cpu-µs")
	b.ReportMetric(float64(bareCPU.Microseconds())/float64(n), "bare-cpu-µs")
	b.ReportMetric(float64(stepCPU)/float64(bareCPU), "cpu-step/bare")
	b.ReportMetric(float64(storeCPU)/float64(bareCPU), "cpu-append/bare")
}

// BenchmarkSystemsPages plays each system's battle twice on a new
// database, a book after another in channels of their own, and reports
// how many pages of the write-ahead log a step of the second book that
// appends writes, on average (its setting up included): each is a page
// the step's commit writes and syncs, on a database whose tables already
// hold a book, as a club's do. Beside it, bare-pages/step is what
// appending the same rows to a bare log (bareLog) writes, counted the
// same way. The logs stay short of SQLite's checkpoint, so their sizes
// count every page written.
func BenchmarkSystemsPages(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) {
			lines := demoLines(b, key)
			var frames, steps, bareFrames, bareSteps int64
			// walFrames returns how many frames the log at path grew by
			// since size, and its size now.
			walFrames := func(path string, size int64) (int64, int64) {
				fi, err := os.Stat(path + "-wal")
				if err != nil {
					b.Fatal(err)
				}
				if fi.Size() <= size {
					return 0, fi.Size()
				}
				// A frame is a 24-byte header and a page.
				return (fi.Size() - size) / (24 + 4096), fi.Size()
			}
			var rows [][]store.Row
			{
				st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "rows.db"))
				if err != nil {
					b.Fatal(err)
				}
				r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
				rows = stepRows(b, r, st, lines)
				st.Close()
			}
			for b.Loop() {
				path := filepath.Join(b.TempDir(), "pages.db")
				st, err := store.Open(context.Background(), path)
				if err != nil {
					b.Fatal(err)
				}
				r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
				p := &player{lines: lines, name: "c"}
				var size int64
				for i := range 2 * len(lines) {
					step(b, r, p.next())
					var n int64
					if n, size = walFrames(path, size); n > 0 && i >= len(lines) {
						frames += n
						steps++
					}
				}
				st.Close()
				bare := openBare(b)
				_, size = walFrames(bare.path, 0) // its table's creation
				for i, rs := range slices.Concat(rows, rows) {
					if len(rs) == 0 {
						continue
					}
					bare.append(b, rs)
					var n int64
					if n, size = walFrames(bare.path, size); i >= len(rows) {
						bareFrames += n
						bareSteps++
					}
				}
			}
			b.ReportMetric(float64(frames)/float64(steps), "pages/step")
			b.ReportMetric(float64(bareFrames)/float64(bareSteps), "bare-pages/step")
		})
	}
}

// BenchmarkSystemsBusy plays each system's battle in 50 channels at
// once through one router and one database, without pictures, each
// channel giving its next command as soon as the last is answered (a
// closed loop). Each op is one step somewhere; it reports steps per
// second (the goal is at least 2,000) and the 99th percentile of a step.
func BenchmarkSystemsBusy(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) {
			const channels = 50
			st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "busy.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
			lines := demoLines(b, key)
			var mu sync.Mutex
			var ds []time.Duration
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for c := range channels {
				n := b.N / channels
				if c < b.N%channels {
					n++
				}
				wg.Go(func() {
					p := &player{lines: lines, name: fmt.Sprint("c", c)}
					mine := make([]time.Duration, 0, n)
					for range n {
						t0 := time.Now()
						step(b, r, p.next())
						mine = append(mine, time.Since(t0))
					}
					mu.Lock()
					ds = append(ds, mine...)
					mu.Unlock()
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			slices.Sort(ds)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "steps/s")
			b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// BenchmarkSystemsArrivals is 50 channels of each system's battle, each
// receiving a command every 5 s on average (Poisson arrivals from a
// fixed seed: about 10 steps a second in all, an open loop), with a
// picture per step at the size the bot draws for Discord. Each op is a
// session of 300 arrivals, about 30 s, on a new database and router. It
// reports the median and 99th percentile from a command's arrival to its
// reply (queueing behind the channel's previous command included; the
// goal is a p99 of at most 100 ms) and the peak of the heap in use while
// they ran (the goal is under 40 MB).
//
// Over one session the p99 is the third-worst reply, so one stall that
// holds three replies sets it. On a busy shared machine the stalls seen
// were a sync of the write-ahead log taking a few hundred milliseconds,
// which every append queued meanwhile waits for (store/commits.go),
// whatever its command, or pictures waiting for a core.
// -arrivals-slowest N logs the slowest replies; -test.trace shows what
// they waited on.
func BenchmarkSystemsArrivals(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) {
			var latencies []time.Duration
			var peak uint64
			session := uint64(0)
			for b.Loop() {
				session++
				ls, p := arrivals(b, key, session, 300)
				latencies = append(latencies, ls...)
				peak = max(peak, p)
			}
			slices.Sort(latencies)
			b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(latencies[len(latencies)*99/100].Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}

// arrivals plays n Poisson arrivals over 50 channels of key's battle
// (seeded with seed) and returns each one's time from arrival to reply
// and the peak of the heap in use meanwhile.
func arrivals(b *testing.B, key string, seed uint64, n int) ([]time.Duration, uint64) {
	const (
		channels = 50
		mean     = 5 * time.Second
	)
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), fmt.Sprintf("arrivals%d.db", seed)))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed },
		Renderer: render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})})
	lines := demoLines(b, key)
	// The arrivals of all channels, merged: exponential gaps of the mean
	// in each channel.
	rng := rand.New(rand.NewPCG(38, seed))
	type arrival struct {
		at time.Duration
		c  int
	}
	var all []arrival
	next := make([]time.Duration, channels)
	for c := range next {
		next[c] = time.Duration(rng.ExpFloat64() * float64(mean))
	}
	for range n {
		c := 0
		for i := range next {
			if next[i] < next[c] {
				c = i
			}
		}
		all = append(all, arrival{next[c], c})
		next[c] += time.Duration(rng.ExpFloat64() * float64(mean))
	}
	queues := make([]chan time.Time, channels)
	for c := range queues {
		queues[c] = make(chan time.Time, n)
	}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		peak      uint64
		atPeak    runtime.MemStats
	)
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			if m.HeapInuse > peak && *arrivalsHeap != "" {
				peakProfile(b, key, seed)
				atPeak = m
			}
			peak = max(peak, m.HeapInuse)
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var wg sync.WaitGroup
	start := time.Now()
	var replies []arrivalReply
	for c := range channels {
		wg.Go(func() {
			p := &player{lines: lines, name: fmt.Sprint("c", c)}
			for at := range queues[c] {
				began := time.Now()
				req := p.next()
				step(b, r, req)
				d := time.Since(at)
				mu.Lock()
				latencies = append(latencies, d)
				replies = append(replies, arrivalReply{at: at.Sub(start), queued: began.Sub(at), took: d, channel: req.Channel, cmd: req.Command.String()})
				mu.Unlock()
			}
		})
	}
	for _, a := range all {
		time.Sleep(time.Until(start.Add(a.at)))
		queues[a.c] <- start.Add(a.at)
	}
	for _, q := range queues {
		close(q)
	}
	wg.Wait()
	close(stop)
	<-sampled
	if *arrivalsHeap != "" {
		b.Logf("%s: at the peak, heap in use %.1f MB, allocated %.1f MB, next collection at %.1f MB", key,
			float64(atPeak.HeapInuse)/(1<<20), float64(atPeak.HeapAlloc)/(1<<20), float64(atPeak.NextGC)/(1<<20))
	}
	if *arrivalsSlowest > 0 {
		slices.SortFunc(replies, func(x, y arrivalReply) int { return int(y.took - x.took) })
		for _, a := range replies[:min(*arrivalsSlowest, len(replies))] {
			b.Logf("%s: arrived at %v, queued %v, replied after %v: %s in %s", key, a.at.Round(time.Millisecond),
				a.queued.Round(time.Millisecond), a.took.Round(time.Millisecond), a.cmd, a.channel)
		}
	}
	return latencies, peak
}

// arrivalsSlowest is how many of each session's slowest replies
// BenchmarkSystemsArrivals logs, with their commands: to see what a slow
// p99 is made of.
var arrivalsSlowest = flag.Int("arrivals-slowest", 0, "log this many of each arrivals session's slowest replies")

// arrivalsHeap, when set, is a folder where BenchmarkSystemsArrivals
// writes each session's heap profile as it stands at the session's
// peak: its inuse_space is what the collector found live at its last
// cycle before the peak, which sets how far the heap may grow before
// the next (GOGC).
var arrivalsHeap = flag.String("arrivals-heap", "", "write each arrivals session's heap profile at its peak to this folder")

// peakProfile writes the heap profile of key's session seed to the
// folder -arrivals-heap names, replacing the one of an earlier peak.
func peakProfile(b *testing.B, key string, seed uint64) {
	name := filepath.Join(*arrivalsHeap, fmt.Sprintf("%s-%d.pprof", key, seed))
	f, err := os.Create(name)
	if err != nil {
		b.Error(err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		b.Error(err)
	}
}

// arrivalReply is one arrival of BenchmarkSystemsArrivals as it went:
// when it arrived (since the session began), how long it waited behind
// its channel's previous command, and how long until its reply.
type arrivalReply struct {
	at, queued, took time.Duration
	channel, cmd     string
}

// playedBook writes a book of system key of at least n events to a new
// database and returns its store and game: the first half of the
// demonstration through a router, then the table reseeded (#seed, an
// event that changes next to nothing) until the log holds n events less
// what the demonstration's second half adds, with a snapshot where the
// router would take one, then the second half through a fresh router.
// So both a short and a long book end in the battle's own events.
func playedBook(b *testing.B, key string, n int) (*store.Store, store.GameID) {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), fmt.Sprintf("book%d.db", n)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	lines := demoLines(b, key)
	lines = lines[:len(lines)-1] // not the concession or the end
	half := len(lines) / 2
	rules := map[string]engine.Ruleset{}
	for _, rs := range rulesets() {
		rules[rs.ID()] = rs
	}
	router := func() *Router {
		return NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return DemoSeed }})
	}
	// How many events the second half adds, from a rehearsal.
	rehearsal := stepRows(b, router(), st, lines)
	second := 0
	for _, rows := range rehearsal[half:] {
		second += len(rows)
	}
	p := &player{lines: lines, name: "book"}
	r := router()
	for range half {
		step(b, r, p.next())
	}
	info, err := st.ActiveGame(ctx, "g", "book-0")
	if err != nil {
		b.Fatal(err)
	}
	rs := rules[info.Ruleset]
	g, err := Load(ctx, st, rs, info.ID)
	if err != nil {
		b.Fatal(err)
	}
	var recs []engine.Record
	flush := func() {
		if len(recs) == 0 {
			return
		}
		if _, err := st.Append(ctx, info.ID, recs[0].Seq-1, recs, false); err != nil {
			b.Fatal(err)
		}
		recs = recs[:0]
	}
	for i := 0; int(g.Seq)+second < n; i++ {
		res, err := g.Decide(engine.Command{Actor: "alice", Name: "seed", Directive: true, Args: []string{fmt.Sprint(i + 2)}})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range res.Events {
			if err := g.Apply(e); err != nil {
				b.Fatal(err)
			}
			rec, err := e.Record()
			if err != nil {
				b.Fatal(err)
			}
			recs = append(recs, rec)
			if g.Seq%defaultSnapshotEvery == 0 {
				flush()
				data, err := g.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				if err := st.PutSnapshot(ctx, info.ID, g.Seq, snapshotVersion(rs), data); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	flush()
	r = router()
	for range len(lines) - half {
		step(b, r, p.next())
	}
	return st, info.ID
}

// BenchmarkSystemsLoad loads each system's book as a fresh router does
// (newest snapshot and the events after it, the router's own snapshot
// interval) at about 100 events (or the demonstration's length, if
// longer) and at 10,000, side by side: long/short (the goal is at most
// 1.2).
func BenchmarkSystemsLoad(b *testing.B) {
	for _, key := range DemoKeys() {
		b.Run(key, func(b *testing.B) {
			ctx := context.Background()
			rs := map[string]engine.Ruleset{}
			for _, r := range rulesets() {
				rs[r.ID()] = r
			}
			type book struct {
				st *store.Store
				id store.GameID
				rs engine.Ruleset
				n  engine.Seq
				t  time.Duration
			}
			var books []*book
			for _, n := range []int{100, 10000} {
				st, id := playedBook(b, key, n)
				g, err := st.Game(ctx, id)
				if err != nil {
					b.Fatal(err)
				}
				books = append(books, &book{st: st, id: id, rs: rs[g.Ruleset], n: g.Head})
			}
			b.ResetTimer()
			for b.Loop() {
				for _, bk := range books {
					t0 := time.Now()
					g, err := Load(ctx, bk.st, bk.rs, bk.id)
					if err != nil {
						b.Fatal(err)
					}
					bk.t += time.Since(t0)
					if g.Seq != bk.n {
						b.Fatalf("loaded to %d of %d", g.Seq, bk.n)
					}
				}
			}
			b.ReportMetric(float64(books[0].n), "short-events")
			b.ReportMetric(float64(books[0].t.Microseconds())/float64(b.N), "short-µs")
			b.ReportMetric(float64(books[1].n), "long-events")
			b.ReportMetric(float64(books[1].t.Microseconds())/float64(b.N), "long-µs")
			b.ReportMetric(float64(books[1].t)/float64(books[0].t), "long/short")
		})
	}
}
