package bot

import (
	"runtime"
	"slices"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/systems"
)

// A decided step, without store or router: the game before it and the
// command.
type decidedStep struct {
	before *engine.Game
	cmd    engine.Command
}

// demoSteps plays system key's demonstration at an in-memory table and
// returns each command after the book's opening with the game it was
// given to (a copy of its own), as the router would decide it.
func demoSteps(b testing.TB, key string) []decidedStep {
	b.Helper()
	i := slices.IndexFunc(systems.All(), func(r engine.Ruleset) bool { return r.ID() == key })
	if i < 0 {
		b.Fatalf("no rule system %s", key)
	}
	table := enginetest.NewTable(systems.All()[i])
	var out []decidedStep
	for _, l := range demoLines(b, key) {
		if g := table.Game(); g != nil && !g.State.Over() {
			c := l.cmd
			c.Actor = l.user
			out = append(out, decidedStep{before: g.Clone(), cmd: c})
		}
		if _, err := table.Play(l.text); err != nil {
			b.Fatalf("%s: %s: %v", key, l.text, err)
		}
	}
	return out
}

// BenchmarkSystemsState measures, per system over its demonstration, what
// the game's state costs a step in memory and copying, with no store, no
// router and no picture. In SYSTEM/decide each op decides one step of the
// battle, in turn (Advance, as the router does, against the game as it
// stood before the step); it also reports the bytes a game as the router
// caches it holds (cached-B: its state and the state before its last
// step, for /undo). In SYSTEM/clone each op copies the state one step was
// given (State.Clone), in turn. Beside the wall clock each reports its
// processor time per op (cpu-ns, the benchmark's own thread, on Linux),
// which a busy machine's other processes touch far less.
//
//	go test -run '^$' -bench SystemsState -benchmem ./bot
func BenchmarkSystemsState(b *testing.B) {
	for _, key := range DemoKeys() {
		steps := demoSteps(b, key)
		b.Run(key+"/decide", func(b *testing.B) {
			i := 0
			onThread(b, func() {
				for b.Loop() {
					s := steps[i%len(steps)]
					s.before.Advance(s.cmd) // a refusal costs its step too
					i++
				}
			})
			b.ReportMetric(cachedBytes(b, steps[len(steps)/2:]), "cached-B")
		})
		b.Run(key+"/clone", func(b *testing.B) {
			i := 0
			onThread(b, func() {
				for b.Loop() {
					runtime.KeepAlive(steps[i%len(steps)].before.State.Clone())
					i++
				}
			})
		})
	}
}

// onThread runs loop on one thread and reports its processor time per op.
func onThread(b *testing.B, loop func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	loop()
	if b.N > 0 {
		b.ReportMetric(float64(threadCPU()-c0)/float64(b.N), "cpu-ns")
	}
}

// cachedBytes returns the heap a game holds once s is decided and the
// game after it kept in place of the one before, as the router keeps it:
// its state and the state before the step, for /undo. s is the first of
// steps that records something. It is measured over many games, each
// restored from the snapshot of the game before s.
func cachedBytes(b *testing.B, steps []decidedStep) float64 {
	i := slices.IndexFunc(steps, func(s decidedStep) bool {
		res, err := s.before.Advance(s.cmd)
		return err == nil && len(res.Events) > 0
	})
	if i < 0 {
		b.Fatal("no step of the battle's second half records anything")
	}
	s := steps[i]
	snap, err := s.before.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	const n = 200
	keep := make([]*engine.Game, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		g, err := engine.Restore(s.before.Rules, snap)
		if err != nil {
			b.Fatal(err)
		}
		res, err := g.Advance(s.cmd)
		if err != nil {
			b.Fatal(err)
		}
		keep[i] = res.After
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
}
