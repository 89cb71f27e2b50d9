package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/systems"
)

// arena plays games between two programs (the bot at a level, a uniform
// random legal player, or a one-ply greedy one) on all cores, and prints
// how the first fared against the second with a 95% interval, and how
// long the bot took to decide at each level (on the processor's clock as
// well, when it runs one game at a time with GOMAXPROCS=1).
func arena(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rules := fs.String("rules", "sweet", "the rule system: "+strings.Join(arenaKeys(), ", "))
	scenario := fs.String("scenario", "", "a prepared scenario of the rule system to fight on")
	games := fs.Int("games", 20, "how many games to play")
	seed := fs.Uint64("seed", 1, "the first game's seed; each next game's is one more, so a later run may go on where one stopped")
	a := fs.String("a", "bot:normal", "the first program: bot:easy|bot:normal|bot:hard, random or greedy")
	b := fs.String("b", "random", "the second program, as --a")
	workers := fs.Int("cores", runtime.GOMAXPROCS(0), "how many games to play at once")
	clock := fs.String("clock", "wall", "how decisions are timed: wall (the time they took) or cpu (the processor time of the thread that thought, fair on a busy machine)")
	logTo := fs.String("log", "", "a file to write every game's steps to (each command given and what the table was told), to read how a game was won or lost")
	byCommand := fs.Bool("by-command", false, "also split each level's decision times by the command decided")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	setup, ok := arenaSetups[*rules]
	if !ok {
		return fmt.Errorf("arena: no arena for %q; try %s", *rules, strings.Join(arenaKeys(), ", "))
	}
	pa, err := parseProgram(*a)
	if err != nil {
		return err
	}
	pb, err := parseProgram(*b)
	if err != nil {
		return err
	}
	now, label := wallClock, ""
	switch *clock {
	case "wall":
	case "cpu":
		now, label = threadCPU, " (CPU)"
	default:
		return fmt.Errorf("arena: --clock %s: use wall or cpu", *clock)
	}
	var logFile io.Writer
	if *logTo != "" {
		f, err := os.Create(*logTo)
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		defer f.Close()
		logFile = f
	}
	var (
		mu       sync.Mutex
		wins     [3]int // a wins, draws, b wins
		times    = map[timeKey][]time.Duration{}
		firstErr error
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, *workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The thread's processor time counts the game's own thinking
			// only while the game keeps to one thread.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for i := range jobs {
				var steps *strings.Builder
				if logFile != nil {
					steps = &strings.Builder{}
				}
				out, spent, err := playArena(setup, *scenario, *seed+uint64(i), i%2 == 1, pa, pb, now, steps)
				mu.Lock()
				if steps != nil {
					fmt.Fprintf(logFile, "== game with seed %d: %s is bot#a, %s is bot#b; %s\n%s\n", *seed+uint64(i), pa.name, pb.name, [...]string{"bot#a won", "drawn", "bot#b won"}[out], steps.String())
				}
				if err != nil && firstErr == nil {
					firstErr = err
				}
				wins[out]++
				for k, v := range spent {
					if k.command == "" || k.whole || *byCommand {
						times[k] = append(times[k], v...)
					}
				}
				mu.Unlock()
			}
		}()
	}
	// An interrupt stops handing out games; those already begun are
	// played out and counted.
send:
	for i := range *games {
		if ctx.Err() != nil {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break send
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	n := wins[0] + wins[1] + wins[2]
	score := (float64(wins[0]) + 0.5*float64(wins[1])) / float64(max(n, 1))
	lo, hi := wilson(score, n)
	where := *rules
	if *scenario != "" {
		where += " on " + *scenario
	}
	fmt.Fprintf(stdout, "%s: %s against %s in %d games: %d won, %d drawn, %d lost; score %.1f%% (95%%: %.1f–%.1f%%)\n",
		where, *a, *b, n, wins[0], wins[1], wins[2], 100*score, 100*lo, 100*hi)
	keys := slices.Collect(maps.Keys(times))
	slices.SortFunc(keys, func(x, y timeKey) int {
		return cmp.Or(cmp.Compare(x.level, y.level), compareBool(x.whole, y.whole), cmp.Compare(x.command, y.command))
	})
	for _, k := range keys {
		d := times[k]
		slices.Sort(d)
		what, count := "decision at "+k.level+label, "decisions"
		switch {
		case k.whole:
			what, count = "answer in parts at "+k.level+label, "answers"
		case k.command != "":
			what += ", " + k.command
		}
		fmt.Fprintf(stdout, "%s: %d %s, median %s, p95 %s, max %s\n", what, len(d), count,
			d[len(d)/2].Round(time.Microsecond), d[len(d)*95/100].Round(time.Microsecond), d[len(d)-1].Round(time.Microsecond))
	}
	return nil
}

// compareBool orders false before true.
func compareBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}

// wallClock is the time since an arbitrary start.
func wallClock() time.Duration { return time.Duration(time.Now().UnixNano()) }

// wilson returns the Wilson 95% interval of a proportion p over n trials.
func wilson(p float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.96
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}

// program is one side's player in the arena.
type program struct {
	name  string // as given: bot:normal, random, greedy
	bot   bool
	level engine.Level
}

func parseProgram(s string) (program, error) {
	switch s {
	case "random", "greedy":
		return program{name: s}, nil
	}
	lv, ok := strings.CutPrefix(s, "bot:")
	if s == "bot" {
		lv, ok = "", true
	}
	if !ok {
		return program{}, fmt.Errorf("arena: %q is no program; use bot:easy, bot:normal, bot:hard, random or greedy", s)
	}
	l, err := engine.ParseLevel(lv)
	if err != nil {
		return program{}, fmt.Errorf("arena: %v", err)
	}
	return program{name: "bot:" + l.String(), bot: true, level: l}, nil
}

// arenaSetup opens a game of one rule system for two players, a and b,
// with armies of the same strength, and bounds its length. Simple GBoH
// fights its prepared battles, the plain one unless told otherwise, which
// sets Alexander's army against a weaker one; its Successors' battle is
// its fair fight.
type arenaSetup struct {
	rules    func() engine.Ruleset
	open     func(a, b engine.PlayerID, scenario string) []string // lines as the local table reads them
	maxSteps int
	// end closes a game that runs past maxSteps, by the game master;
	// without it such a game is scored as it stands.
	end string
}

var arenaSetups = map[string]arenaSetup{
	"goliath": goliathArena("move"),
	// Goliath's second turn sequence: both sides write sealed orders.
	"goliath-orders": goliathArena("orders"),
	"sweet": {rules: func() engine.Ruleset { return rulesetByID("sweet") }, maxSteps: 3000, end: "@gm /book end reason:time",
		open: func(a, b engine.PlayerID, scenario string) []string {
			lines := []string{"@gm /book open size:10x8 turns:6"}
			if scenario != "" {
				lines = append(lines, "@gm /scenario load name:"+scenario)
			}
			return append(lines,
				fmt.Sprintf(`@%s /army build name:Romans tag:ROM units:"1 CMD, 3 HI, 2 LI, 1 LC, 1 HC"`, a),
				fmt.Sprintf(`@%s /army build name:Gauls tag:GAU units:"1 CMD, 3 HI, 2 LI, 1 LC, 1 HC"`, b))
		}},
	"btg": {rules: func() engine.Ruleset { return rulesetByID("btg") }, maxSteps: 3000, end: "@gm /book end reason:time",
		open: func(a, b engine.PlayerID, scenario string) []string {
			lines := []string{"@gm /book open turns:6"}
			if scenario != "" {
				lines = append(lines, "@gm /scenario load name:"+scenario)
			}
			const units = `"2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 lt-inf bow 8, 1 cav spear 8, 1 leader"`
			return append(lines,
				fmt.Sprintf(`@%s /army build name:Spartans tag:SPA civ:greek units:%s`, a, units),
				fmt.Sprintf(`@%s /army build name:Athenians tag:ATH civ:greek units:%s`, b, units))
		}},
	"gwab": {rules: func() engine.Ruleset { return rulesetByID("gwab") }, maxSteps: 3000, end: "@gm /book end",
		open: func(a, b engine.PlayerID, scenario string) []string {
			lines := []string{"@gm /book open terrain:on"}
			if scenario != "" {
				lines = append(lines, "@gm /scenario load name:"+scenario)
			}
			return append(lines,
				fmt.Sprintf("@%s /clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,sword,bow,javelin", a),
				fmt.Sprintf("@%s /clan raise name:Lycians hero:Sarpedon side:antagonist warbands:spear,sword,bow,javelin", a),
				fmt.Sprintf("@%s /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow,javelin", b),
				fmt.Sprintf("@%s /clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,sword,bow,javelin", b),
				"@gm /book start")
		}},
	"sgboh": {rules: func() engine.Ruleset { return rulesetByID("sgboh") }, maxSteps: 3000,
		open: func(a, b engine.PlayerID, scenario string) []string {
			if scenario == "" {
				scenario = "plain"
			}
			return []string{"@gm /book open scenario:" + scenario,
				fmt.Sprintf("@%s /side take side:1", a),
				fmt.Sprintf("@%s /side take side:2", b),
				"@gm /start"}
		}},
}

// goliathArena is a battle of Goliath by method (move or orders) between
// two armies of the same troops, six turns long.
func goliathArena(method string) arenaSetup {
	return arenaSetup{rules: func() engine.Ruleset { return rulesetByID("goliath") }, maxSteps: 3000, end: "@gm /book end reason:time",
		open: func(a, b engine.PlayerID, scenario string) []string {
			lines := []string{"@gm /book open method:" + method + " turns:6"}
			if scenario != "" {
				lines = append(lines, "@gm /scenario load name:"+scenario)
			}
			const units = `"12 heavy infantry, 12 medium infantry, 8 longbowmen, 6 heavy cavalry"`
			return append(lines,
				fmt.Sprintf("@%s /army raise name:\"the Kingdom\" tag:KIN units:%s", a, units),
				fmt.Sprintf("@%s /army raise name:\"the March\" tag:MAR units:%s", b, units))
		}}
}

func arenaKeys() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range arenaSetups {
			if !yield(k) {
				return
			}
		}
	})
}

func rulesetByID(id string) engine.Ruleset {
	rs, _ := systems.ByID(id)
	return rs
}

// A timeKey names a set of decision times: a bot level's, and with
// command set, those of its decisions that gave that command; with whole
// set, the times of its answers given in parts (engine.Divider), each the
// sum of its parts.
type timeKey struct {
	level, command string
	whole          bool
}

// playArena plays one game between pa and pb, pb opening first when
// swap is set, and returns 0 when pa won, 1 for a draw, 2 when pb won,
// with the time each bot level spent on each decision, as now counts it.
// With steps set, it writes there each command given and what the table
// was told of it.
func playArena(setup arenaSetup, scenario string, seed uint64, swap bool, pa, pb program, now func() time.Duration, steps *strings.Builder) (int, map[timeKey][]time.Duration, error) {
	r := setup.rules()
	g := engine.NewGame(r)
	if err := g.Apply(g.Open("gm", seed)); err != nil {
		return 1, nil, err
	}
	ida, idb := engine.PlayerID("bot#a"), engine.PlayerID("bot#b")
	first, second := ida, idb
	if swap {
		first, second = idb, ida
	}
	do := func(c engine.Command) error {
		res, err := g.Decide(c)
		if err != nil {
			return err
		}
		if steps != nil {
			fmt.Fprintf(steps, "> %s %s\n", c.Actor, c)
			for _, m := range res.Messages {
				if m.To == "" {
					fmt.Fprintf(steps, "  %s\n", strings.ReplaceAll(m.Text, "\n", "\n  "))
				}
			}
			for _, e := range res.Events {
				for _, m := range g.Rules.Narrate(e) {
					if m.To != "" {
						continue
					}
					fmt.Fprintf(steps, "  %s\n", strings.ReplaceAll(m.Text, "\n", "\n  "))
				}
			}
		}
		for _, e := range res.Events {
			if err := g.Apply(e); err != nil {
				return err
			}
		}
		return nil
	}
	for _, text := range setup.open(first, second, scenario) {
		l, err := engine.ParseLine(text)
		if err != nil {
			return 1, nil, err
		}
		l.Command.Actor = l.User
		if err := do(l.Command); err != nil {
			return 1, nil, fmt.Errorf("arena: %s: %w", text, err)
		}
	}
	aw, _ := r.(engine.Awaiter)
	st, _ := r.(engine.Strategist)
	if aw == nil || st == nil {
		return 1, nil, fmt.Errorf("arena: %s has no bot", r.ID())
	}
	spent := map[timeKey][]time.Duration{}
	// An answer a player gives in parts (engine.Divider: Goliath's
	// written orders, a unit's order a command) is timed whole too: each
	// player's parts are added up until his last is given, when he is no
	// longer awaited for what he was (or the game ends).
	dv, _ := r.(engine.Divider)
	whole := map[engine.PlayerID]time.Duration{}
	wholeKey := func(p program) timeKey { return timeKey{level: p.name, whole: true} }
	closeWhole := func(who engine.PlayerID, p program) {
		if d, ok := whole[who]; ok {
			spent[wholeKey(p)] = append(spent[wholeKey(p)], d)
			delete(whole, who)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xa7e4a))
	for step := 0; step < setup.maxSteps && !g.State.Over(); step++ {
		awaits := aw.Awaited(g.State)
		if len(awaits) == 0 {
			break
		}
		who := awaits[0].Player
		p := pa
		switch who {
		case ida:
		case idb:
			p = pb
		default:
			// The game master's decisions (By the Gods!'s events) are
			// neither program's: a neutral judge makes them at random,
			// and they count in no program's decision times.
			p = program{name: "random"}
		}
		var c engine.Command
		var err error
		parted := false
		switch {
		case p.bot:
			parted = dv != nil && dv.Parts(g.State, who) > 1
			t0 := now()
			var d engine.Decision
			d, err = engine.Think(g, who, p.level)
			took := now() - t0
			c = d.Command
			all, this := timeKey{level: p.name}, timeKey{level: p.name, command: "/" + c.Name}
			spent[all], spent[this] = append(spent[all], took), append(spent[this], took)
			if parted {
				whole[who] += took
			}
		case p.name == "greedy":
			c, err = engine.Greedy(g, who, rng)
		default:
			legal := engine.Legal(g, who, rng)
			if len(legal) == 0 {
				err = engine.ErrNothingToDo
			} else {
				c = legal[rng.IntN(len(legal))]
			}
		}
		if err != nil {
			c = awaits[0].Timeout
		}
		if err := do(c); err != nil && awaits[0].Timeout.Name != "" {
			if err := do(awaits[0].Timeout); err != nil {
				return 1, spent, fmt.Errorf("arena: %s could not act (%s): %w", who, c, err)
			}
		}
		if parted && !slices.ContainsFunc(aw.Awaited(g.State), awaits[0].Same) {
			closeWhole(who, p) // the answer's last part is given
		}
	}
	for who, p := range map[engine.PlayerID]program{ida: pa, idb: pb} {
		closeWhole(who, p)
	}
	if !g.State.Over() && setup.end != "" {
		l, _ := engine.ParseLine(setup.end)
		l.Command.Actor = l.User
		_ = do(l.Command)
	}
	v := st.Evaluate(g.State, ida) - st.Evaluate(g.State, idb)
	if steps != nil {
		fmt.Fprintf(steps, "= bot#a scores %.3f, bot#b %.3f\n", st.Evaluate(g.State, ida), st.Evaluate(g.State, idb))
	}
	switch {
	case v > 0.01:
		return 0, spent, nil
	case v < -0.01:
		return 2, spent, nil
	}
	return 1, spent, nil
}
