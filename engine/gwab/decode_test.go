package gwab

import (
	"encoding/json"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// play runs commands against a fresh book, failing on a refusal, and
// returns the game and the records of every event.
func play(t testing.TB, lines ...engine.Command) (*engine.Game, []engine.Record) {
	t.Helper()
	g := engine.NewGame(New())
	open := g.Open("alice", 3)
	if err := g.Apply(open); err != nil {
		t.Fatal(err)
	}
	rec, _ := open.Record()
	recs := []engine.Record{rec}
	for _, c := range lines {
		res, err := g.Decide(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		for _, e := range res.Events {
			if err := g.Apply(e); err != nil {
				t.Fatal(err)
			}
			rec, err := e.Record()
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
	}
	return g, recs
}

func opt(actor engine.PlayerID, name string, kv ...string) engine.Command {
	c := engine.Command{Actor: actor, Name: name, Options: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Options[kv[i]] = kv[i+1]
	}
	return c
}

// aPracticeBook is a short book with every kind of event in it so far.
func aPracticeBook(t testing.TB) (*engine.Game, []engine.Record) {
	return play(t,
		opt("alice", "book open", "mode", "practice", "terrain", "on", "javelins", "3"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
		opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
		engine.Command{Actor: "alice", Name: "place", Directive: true, Args: []string{"MYR-W3", "30,20"}},
		engine.Command{Actor: "alice", Name: "terrain", Directive: true, Args: []string{"stream", "0,20", "20,20", "20,22", "0,22", "Simois"}},
		engine.Command{Actor: "alice", Name: "stack", Directive: true, Args: []string{"sequence", "KS", "QS", "JS", "10S"}},
		opt("alice", "book start"),
		opt("alice", "move", "element", "MYR-W1", "to", "13,12"),
		opt("alice", "drive", "element", "LYC-CH", "mount", "Sarpedon", "to", "47,27"),
		opt("bob", "aloof"),
		opt("bob", "aloof"),
		opt("alice", "book end"),
	)
}

// FuzzDecodeRecord feeds stored-looking records to the decoder and, when
// one decodes, applies it to a book in play: no input may panic.
func FuzzDecodeRecord(f *testing.F) {
	_, recs := aPracticeBook(f)
	seedRecords(f, recs)
	f.Add("gwab.moved", []byte(`{"element":"NOPE-W1","to":{"Center":{"X":1e308}}}`), []byte(`null`))
	f.Add("gwab.round-dealt", []byte(`{"order":[{"clan":"X","card":"KS"}],"names":[]}`), []byte(`[{"deck":"sequence","card":"KS"}]`))
	f.Fuzz(applyRecord(aPracticeBook))
}

// seedRecords adds recs to f's corpus as (kind, payload, draws).
func seedRecords(f *testing.F, recs []engine.Record) {
	for _, r := range recs {
		f.Add(r.Kind, []byte(r.Payload), mustJSON(f, r.Draws))
	}
}

// applyRecord is a fuzz target: a record that decodes is applied to the
// book book plays and to an empty one, narrated, told in /status and
// drawn. None of it may panic.
func applyRecord(book func(testing.TB) (*engine.Game, []engine.Record)) func(t *testing.T, kind string, payload, draws []byte) {
	return func(t *testing.T, kind string, payload, draws []byte) {
		rec := engine.Record{Seq: 1, Kind: kind, Payload: payload}
		if json.Unmarshal(draws, &rec.Draws) != nil {
			rec.Draws = nil
		}
		e, err := engine.DecodeRecord(New(), rec)
		if err != nil {
			return
		}
		for _, mid := range []bool{false, true} {
			g, _ := book(t)
			if mid {
				g = engine.NewGame(New())
			}
			e.Seq = g.Seq + 1
			_ = g.Apply(e)
			_ = New().Narrate(e)
			_ = status(g.State.(*State))
			_ = New().View(g, []engine.Event{e})
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
