package gwab

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// fuzzCommand reads "actor|command|key:value|..." as a player's command.
func fuzzCommand(s string) engine.Command {
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

// FuzzGWABTurns plays any commands of alice's and bob's after a practice
// book has started: no command panics, a command fails only by refusal,
// and the records of what was played replay to the same book.
func FuzzGWABTurns(f *testing.F) {
	for _, seed := range []string{
		"alice|aloof\nbob|aloof\nalice|aloof\nbob|aloof",
		"alice|move|element:MYR-W1|to:13,12\nalice|done\nbob|aloof",
		"alice|fire|element:MYR-W3|target:TRO-W1\nbob|charge|element:ACH-W1|target:LYC-W1",
		"alice|challenge|hero:TRO-H|by:MYR-H\nbob|answer|reply:accept\nalice|impact",
		"alice|joker|use:jump|clan:MYR\nbob|invoke|hero:ACH-H\nalice|undo",
		"alice|book end|reason:enough\nbob|aloof",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, script string) {
		g, recs := play(t,
			opt("alice", "book open", "mode", "practice", "terrain", "on", "javelins", "3"),
			opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
			opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
			opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
			opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
			opt("alice", "book start"),
		)
		for i, line := range strings.Split(script, "\n") {
			if i > 60 {
				break
			}
			res, err := g.Decide(fuzzCommand(line))
			if err != nil {
				if _, ok := engine.IsRefusal(err); !ok {
					t.Fatalf("%q: %v", line, err)
				}
				continue
			}
			for _, e := range res.Events {
				if err := g.Apply(e); err != nil {
					t.Fatalf("%q: apply %s: %v", line, e.Body.Kind(), err)
				}
				rec, err := e.Record()
				if err != nil {
					t.Fatal(err)
				}
				recs = append(recs, rec)
			}
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
			t.Fatalf("the replayed book differs from the played one")
		}
	})
}

// TestFarTooLongElementName: a name of 100,000 characters is refused
// without a search for near names, quoting only its start.
func TestFarTooLongElementName(t *testing.T) {
	g, _ := aPracticeBook(t)
	_, err := g.State.(*State).findElement(strings.Repeat("MYR-W1", 100000/6))
	ref, ok := engine.IsRefusal(err)
	if !ok || len(ref.Text) > 100 {
		t.Fatalf("refused with %.200v", err)
	}
}
