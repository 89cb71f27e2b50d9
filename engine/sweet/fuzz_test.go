package sweet

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// setupGame opens a small game, musters and deploys both armies, and
// returns it at its first turn with the records of its events.
func setupGame(t testing.TB) (*engine.Game, []engine.Record) {
	t.Helper()
	g := engine.NewGame(New())
	open := g.Open("alice", 5)
	if err := g.Apply(open); err != nil {
		t.Fatal(err)
	}
	rec, _ := open.Record()
	recs := []engine.Record{rec}
	for _, line := range []string{
		"alice|book open|size:10x8|turns:3",
		"alice|army build|name:Romans|units:1 CMD, 2 HI, 1 LI, 1 HCAT, 1 FCR, 1 LC, 1 EL",
		"bob|army build|name:Gauls|units:1 SUB, 2 HI, 1 LI, 1 HC, 1 PHA, 1 LCH",
		"alice|place|unit:all", "alice|done", "bob|place|unit:all", "bob|done",
	} {
		recs = append(recs, mustDo(t, g, parseFuzzLine(line))...)
	}
	return g, recs
}

func mustDo(t testing.TB, g *engine.Game, c engine.Command) []engine.Record {
	t.Helper()
	res, err := g.Decide(c)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	return apply(t, g, res)
}

func apply(t testing.TB, g *engine.Game, res engine.Result) []engine.Record {
	t.Helper()
	var recs []engine.Record
	for _, e := range res.Events {
		if err := g.Apply(e); err != nil {
			t.Fatalf("apply %s: %v", e.Body.Kind(), err)
		}
		rec, err := e.Record()
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	return recs
}

// parseFuzzLine reads "actor|command|key:value|...".
func parseFuzzLine(s string) engine.Command {
	parts := strings.Split(s, "|")
	c := engine.Command{Actor: engine.PlayerID(parts[0]), Options: map[string]string{}}
	if len(parts) > 1 {
		c.Name = parts[1]
	}
	for _, p := range parts[min(2, len(parts)):] {
		if k, v, ok := strings.Cut(p, ":"); ok {
			c.Options[k] = v
		}
	}
	return c
}

// FuzzTurns plays any commands after the set-up: no command panics or is
// recorded in a way that does not replay to the same game, and no sealed
// choice's narration tells it.
func FuzzTurns(f *testing.F) {
	for _, seed := range []string{
		"alice|done\nbob|done\nalice|done\nbob|done",
		"alice|fire|unit:ROM-5|at:E6\nalice|done\nalice|fire|unit:ROM-4|at:E7",
		"alice|done\nbob|done\nalice|done\nbob|done\nalice|move|unit:ROM-2|to:E4\nalice|done",
		"bob|done\nalice|done\nbob|done\nalice|done\nbob|move|unit:GAU-3|to:E3|facing:S\nbob|done\nalice|support|unit:ROM-2\nalice|done\nalice|mdi|choice:line\nbob|mdi|choice:pincers",
		"alice|face|unit:ROM-2|facing:NE\nbob|concede",
		"alice|book end",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		g, recs := setupGame(t)
		for i, line := range strings.Split(script, "\n") {
			if i > 60 {
				break
			}
			res, err := g.Decide(parseFuzzLine(line))
			if err != nil {
				if _, ok := engine.IsRefusal(err); !ok {
					t.Fatalf("%q: %v", line, err)
				}
				continue
			}
			for _, e := range res.Events {
				if b, ok := e.Body.(MDIChosen); ok {
					for _, m := range (New()).Narrate(e) {
						if strings.Contains(strings.ToUpper(m.Text), b.Choice.String()) {
							t.Fatalf("a sealed choice is told: %s", m.Text)
						}
					}
				}
			}
			recs = append(recs, apply(t, g, res)...)
		}
		re := engine.NewGame(New())
		for _, rec := range recs {
			e, err := engine.DecodeRecord(New(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if err := re.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		a, _ := json.Marshal(g.State)
		b, _ := json.Marshal(re.State)
		if string(a) != string(b) {
			t.Fatalf("the replayed game differs from the played one")
		}
	})
}

// FuzzArmyEntries: a list a player types never panics, and one that reads
// costs what its entries say.
func FuzzArmyEntries(f *testing.F) {
	for _, s := range []string{"1 CMD, 4 HI, 1 HI guard, 3 LI", "2 XYZ", "0 HI", ",,", "LEG guard, 40 SEL"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		entries, err := parseEntries(s)
		if err != nil {
			return
		}
		n := 0
		for _, e := range entries {
			if !e.Type.Valid() || e.N < 1 || e.N > 40 {
				t.Fatalf("%q read as %+v", s, e)
			}
			n += e.N
		}
		if got := len(units(entries, South, "T")); got != n {
			t.Fatalf("%q makes %d units, want %d", s, got, n)
		}
	})
}
