package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// The arena plays its games and reports the score with its interval and
// the bot's decision times; a program it does not know is refused.
func TestArena(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"arena", "--rules", "sweet", "--games", "2", "--a", "bot:easy", "--b", "random", "--cores", "1"}, nil, &out, &errs, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("arena exited %d: %s", code, errs.String())
	}
	want := regexp.MustCompile(`(?m)^sweet: bot:easy against random in 2 games: \d won, \d drawn, \d lost; score [\d.]+% \(95%: [\d.]+–[\d.]+%\)\ndecision at bot:easy: \d+ decisions, median .+, p95 .+, max .+\n$`)
	if !want.Match(out.Bytes()) {
		t.Errorf("arena printed:\n%s", out.String())
	}
	errs.Reset()
	if code := run(context.Background(), []string{"arena", "--b", "wizard"}, nil, &out, &errs, func(string) string { return "" }); code == 0 {
		t.Error("arena took --b wizard")
	}
	if !bytes.Contains(errs.Bytes(), []byte("bot:easy, bot:normal, bot:hard, random or greedy")) {
		t.Errorf("arena refused --b wizard with %q", errs.String())
	}
}

// With --by-command the arena splits the bot's decision times by the
// command decided, after the level's line for them all: in Sweet, its
// moves, its fire and its passes each get a line.
func TestArenaByCommand(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"arena", "--rules", "sweet", "--games", "1", "--a", "bot:easy", "--b", "random", "--cores", "1", "--by-command"}, nil, &out, &errs, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("arena exited %d: %s", code, errs.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 4 {
		t.Fatalf("arena printed:\n%s", out.String())
	}
	all := regexp.MustCompile(`^decision at bot:easy: (\d+) decisions, `).FindStringSubmatch(lines[1])
	if all == nil {
		t.Fatalf("the second line is not every decision's: %q", lines[1])
	}
	per := regexp.MustCompile(`^decision at bot:easy, (/\w+): (\d+) decisions, median .+, p95 .+, max .+$`)
	sum, seen := 0, map[string]bool{}
	for _, l := range lines[2:] {
		m := per.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a command's decision times: %q", l)
		}
		n, _ := strconv.Atoi(m[2])
		sum += n
		seen[m[1]] = true
	}
	if total, _ := strconv.Atoi(all[1]); sum != total {
		t.Errorf("the commands' decisions add up to %d, not the %d of all", sum, total)
	}
	for _, c := range []string{"/move", "/done"} {
		if !seen[c] {
			t.Errorf("no line for the bot's %s:\n%s", c, out.String())
		}
	}
}

// With --log the arena writes each game's steps to a file: who gave
// which command and what the table was told, then how the game ended.
func TestArenaLog(t *testing.T) {
	var out, errs bytes.Buffer
	path := filepath.Join(t.TempDir(), "games.txt")
	code := run(context.Background(), []string{"arena", "--rules", "sweet", "--games", "1", "--a", "bot:easy", "--b", "random", "--cores", "1", "--seed", "4", "--log", path}, nil, &out, &errs, func(string) string { return "" })
	if code != 0 {
		t.Fatalf("arena exited %d: %s", code, errs.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"== game with seed 4: bot:easy is bot#a, random is bot#b;",
		"> bot#a /army build name:Romans",
		"  bot#a leads the Romans on the south edge",
		"is placed in",
		"= bot#a scores ",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the arena's log lacks %q:\n%s", want, b)
		}
	}
}

// The Wilson interval of a proportion holds it and stays within 0 and 1.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		p      float64
		n      int
		lo, hi float64
	}{
		{0.9, 200, 0.851, 0.934},
		{1, 10, 0.722, 1},
		{0, 10, 0, 0.278},
	} {
		lo, hi := wilson(tc.p, tc.n)
		if lo < tc.lo-0.001 || lo > tc.lo+0.001 || hi < tc.hi-0.001 || hi > tc.hi+0.001 {
			t.Errorf("wilson(%v, %d) = %.3f–%.3f; want %.3f–%.3f", tc.p, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// Every arena opens a game its rules accept, with both armies raised
// and someone awaited.
func TestArenaSetupsOpen(t *testing.T) {
	for _, key := range arenaKeys() {
		setup := arenaSetups[key]
		for _, ground := range []string{""} {
			g := engine.NewGame(setup.rules())
			if err := g.Apply(g.Open("gm", 1)); err != nil {
				t.Fatal(err)
			}
			for _, text := range setup.open("bot#a", "bot#b", ground) {
				l, err := engine.ParseLine(text)
				if err != nil {
					t.Fatalf("%s: %s: %v", key, text, err)
				}
				l.Command.Actor = l.User
				res, err := g.Decide(l.Command)
				if err != nil {
					t.Fatalf("%s on %q: %s: %v", key, ground, text, err)
				}
				g = res.After
			}
			aw, ok := g.Rules.(engine.Awaiter)
			if !ok || len(aw.Awaited(g.State)) == 0 {
				t.Errorf("%s on %q: the opened game awaits no one", key, ground)
			}
		}
	}
}

// Goliath's written orders are an answer in parts, a unit's order a
// command: the arena times each side's orders whole, as the sum of its
// parts, from its first order to its /done, turn by turn, whichever
// side moves first. On a clock that moves a second a reading, each
// decision takes a second, so a side's orders take a second an order,
// and the arena's armies have four units each.
func TestArenaTimesAnswersInParts(t *testing.T) {
	bot, err := parseProgram("bot:easy")
	if err != nil {
		t.Fatal(err)
	}
	random := program{name: "random"}
	for _, swap := range []bool{false, true} {
		var ticks time.Duration
		clock := func() time.Duration { ticks += time.Second; return ticks }
		_, spent, err := playArena(arenaSetups["goliath-orders"], "", 5, swap, bot, random, clock, nil)
		if err != nil {
			t.Fatal(err)
		}
		sides := spent[timeKey{level: bot.name, whole: true}]
		orders := len(spent[timeKey{level: bot.name, command: "/orders"}])
		if len(sides) < 2 {
			t.Fatalf("swap %v: %d sides' orders timed, of %d orders", swap, len(sides), orders)
		}
		var parts time.Duration
		for _, d := range sides {
			if d < time.Second || d > 5*time.Second {
				t.Errorf("swap %v: a side's orders took %v: more than four orders and /done, or none", swap, d)
			}
			parts += d
		}
		if want := time.Duration(orders) * time.Second; parts < want {
			t.Errorf("swap %v: the sides' orders add up to %v, less than their %d orders", swap, parts, orders)
		}
	}
}
