package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// pack is a small ruleset for testing the core: "draw N" deals N cards
// from its deck into a hand, "fold" discards the hand, "roll" throws a d6.

type drew struct{ Cards []Card }
type folded struct{}
type rolled struct{ Value int }
type noted struct{ Text string }

func (drew) Kind() string   { return "pack.drew" }
func (folded) Kind() string { return "pack.folded" }
func (rolled) Kind() string { return "pack.rolled" }
func (noted) Kind() string  { return "pack.noted" }

type packState struct {
	Hand  []Card
	Rolls []int
	Notes []string
}

func (s *packState) Apply(e Event) error {
	switch b := e.Body.(type) {
	case drew:
		s.Hand = append(s.Hand, b.Cards...)
	case folded:
		s.Hand = nil
	case rolled:
		s.Rolls = append(s.Rolls, b.Value)
	case noted:
		s.Notes = append(s.Notes, b.Text)
	default:
		return fmt.Errorf("unknown %T", b)
	}
	return nil
}
func (s *packState) Clone() State {
	return &packState{Hand: slices.Clone(s.Hand), Rolls: slices.Clone(s.Rolls), Notes: slices.Clone(s.Notes)}
}
func (s *packState) Over() bool { return false }

// pack with undo lists the /undo command, and so may take steps back.
type pack struct{ jokers, undo bool }

func (pack) ID() string        { return "pack" }
func (pack) Title() string     { return "Test pack" }
func (pack) StateVersion() int { return 1 }
func (p pack) Decks() []DeckSpec {
	return []DeckSpec{{Name: "main", Jokers: p.jokers}}
}
func (p pack) Commands() []CommandSpec {
	if p.undo {
		return []CommandSpec{{Name: "undo", Flags: TakesBack | MasterOnly}}
	}
	return nil
}
func (pack) NewState() State { return &packState{} }
func (pack) DecodeState(b []byte) (State, error) {
	s := &packState{}
	return s, json.Unmarshal(b, s)
}
func (pack) DecodeBody(kind string, data []byte) (Body, error) {
	return BodyTypes{
		"pack.drew":   Decoder[drew](),
		"pack.folded": Decoder[folded](),
		"pack.rolled": Decoder[rolled](),
		"pack.noted":  Decoder[noted](),
	}.Decode(kind, data)
}
func (pack) Narrate(e Event) []Message {
	if n, ok := e.Body.(noted); ok {
		return []Message{{Text: "noted " + n.Text + "."}}
	}
	return nil
}
func (pack) Decide(tx *Tx, c Command) error {
	switch c.Name {
	case "draw":
		n, _ := strconv.Atoi(c.Args[0])
		var cards []Card
		for range n {
			card, err := tx.Draw("main")
			if err != nil {
				return err
			}
			cards = append(cards, card)
		}
		return tx.Emit(drew{cards})
	case "fold":
		tx.Discard("main", tx.State().(*packState).Hand...)
		return tx.Emit(folded{})
	case "roll":
		return tx.Emit(rolled{tx.Roll(D6)})
	case "note":
		return tx.Emit(noted{c.Args[0]})
	case "peek":
		// A faulty rule: it draws a card and records it in no event.
		_, err := tx.Draw("main")
		return err
	case "drop":
		// A faulty rule: it discards a held card and records it in no event.
		tx.Discard("main", tx.State().(*packState).Hand[0])
		return nil
	}
	return Refuse("", "no %s", c.Name)
}

// play decides and applies each command in turn, failing the test on a
// refusal, and returns every event.
func play(t *testing.T, g *Game, cmds ...Command) []Event {
	t.Helper()
	var all []Event
	for _, c := range cmds {
		res, err := g.Decide(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		for _, e := range res.Events {
			if err := g.Apply(e); err != nil {
				t.Fatalf("apply %s: %v", c, err)
			}
		}
		all = append(all, res.Events...)
	}
	return all
}

func cmd(name string, args ...string) Command { return Command{Name: name, Args: args} }
func dir(name string, args ...string) Command {
	return Command{Name: name, Args: args, Directive: true}
}

func newPack(t *testing.T, jokers bool, seed uint64) *Game {
	g := NewGame(pack{jokers: jokers})
	if err := g.Apply(g.Open("tester", seed)); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestDrawsWholeDeckThenReshuffles(t *testing.T) {
	g := newPack(t, false, 1)
	play(t, g, cmd("draw", "52"))
	hand := g.State.(*packState).Hand
	seen := map[Card]bool{}
	for _, c := range hand {
		if seen[c] || !c.Valid() || c.IsJoker() {
			t.Fatalf("card %v dealt twice or not of the pack", c)
		}
		seen[c] = true
	}
	if len(seen) != 52 {
		t.Fatalf("dealt %d different cards, want 52", len(seen))
	}
	// Every card is held: the deck cannot deal until some are discarded.
	if _, err := g.Decide(cmd("draw", "1")); err == nil {
		t.Fatal("drew from a deck whose every card is held")
	}
	play(t, g, cmd("fold"), cmd("draw", "1"))
	d := g.Table.Deck("main")
	if d.Draw.Len() != 51 || d.Discard.Len() != 0 {
		t.Fatalf("after reshuffle: %d to draw, %d discarded; want 51 and 0", d.Draw.Len(), d.Discard.Len())
	}
}

func TestStackedCardsComeFirstFromAnyPile(t *testing.T) {
	g := newPack(t, true, 2)
	play(t, g, dir("stack", "main", "KS", "7H"), cmd("draw", "2"), cmd("fold"))
	if got := g.State.(*packState).Hand; len(got) != 0 {
		t.Fatalf("hand after fold = %v", got)
	}
	// KS is now in the discards; a stack still finds it there.
	evs := play(t, g, dir("stack", "main", "KS", "JOKER", "2C"), cmd("draw", "3"))
	want := []string{"KS", "JOKER", "2C"}
	var got []string
	for _, c := range g.State.(*packState).Hand {
		got = append(got, c.String())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stacked draws = %v, want %v", got, want)
	}
	if last := evs[len(evs)-1]; len(last.Draws) != 3 || last.Draws[0].Card.String() != "KS" {
		t.Fatalf("the draws are not recorded in the event that used them: %+v", last.Draws)
	}
	// Stacking the other joker while JOKER is held deals its twin.
	play(t, g, dir("stack", "main", "JOKER"), cmd("draw", "1"))
	if h := g.State.(*packState).Hand; h[len(h)-1] != Joker2 {
		t.Fatalf("stacked JOKER while the first is held dealt %v", h[len(h)-1])
	}
	// A card held in the hand cannot be dealt again.
	play(t, g, dir("stack", "main", "KS"))
	if _, err := g.Decide(cmd("draw", "1")); err == nil {
		t.Fatal("dealt KS while it is held")
	}
}

// TestUnrecordedDrawsAreAnError holds the core to its promise that every
// card dealt or discarded lives in the event that used it: a step that
// draws or discards even one card without an event is an error, not a
// step, and the game is unchanged.
func TestUnrecordedDrawsAreAnError(t *testing.T) {
	g := newPack(t, false, 4)
	play(t, g, cmd("draw", "1"))
	seq, left := g.Seq, g.Table.Deck("main").Draw.Len()
	for _, c := range []Command{cmd("peek"), cmd("drop")} {
		res, err := g.Decide(c)
		if err == nil {
			t.Fatalf("%s: a step that records none of its cards gave %d events", c, len(res.Events))
		}
		if _, ok := IsRefusal(err); ok {
			t.Fatalf("%s: %v is a refusal; a faulty rule is an error", c, err)
		}
	}
	if g.Seq != seq || g.Table.Deck("main").Draw.Len() != left || len(g.State.(*packState).Hand) != 1 {
		t.Fatal("a failed step changed the game")
	}
}

func TestStackRefusesWhatTheDeckLacks(t *testing.T) {
	g := newPack(t, false, 3)
	for _, c := range []Command{dir("stack", "main", "JOKER"), dir("stack", "nope", "KS"), dir("stack", "main", "ZZ"), dir("load", "d6", "7"), dir("seed", "x")} {
		if _, err := g.Decide(c); err == nil {
			t.Errorf("%s was accepted", c)
		} else if _, ok := IsRefusal(err); !ok {
			t.Errorf("%s: %v is not a refusal", c, err)
		}
	}
}

func TestSameSeedSameDraws(t *testing.T) {
	deal := func(seed uint64) []Card {
		g := newPack(t, true, seed)
		play(t, g, cmd("draw", "5"), cmd("fold"), cmd("draw", "5"))
		return g.State.(*packState).Hand
	}
	a, b, c := deal(42), deal(42), deal(43)
	if !slices.Equal(a, b) {
		t.Fatalf("seed 42 dealt %v then %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Fatalf("seeds 42 and 43 dealt the same %v", a)
	}
}

func TestDiceRangesAndLoading(t *testing.T) {
	g := newPack(t, false, 4)
	play(t, g, dir("load", "d6", "6", "1"))
	for range 200 {
		play(t, g, cmd("roll"))
	}
	rolls := g.State.(*packState).Rolls
	if rolls[0] != 6 || rolls[1] != 1 {
		t.Fatalf("loaded rolls came out %v", rolls[:2])
	}
	counts := map[int]int{}
	for _, r := range rolls[2:] {
		counts[r]++
	}
	for v := 1; v <= 6; v++ {
		if counts[v] == 0 {
			t.Errorf("198 rolls of a d6 never showed %d: %v", v, counts)
		}
	}
	if len(counts) != 6 {
		t.Errorf("a d6 showed %v", counts)
	}
}

func TestDieParseAndRange(t *testing.T) {
	for _, d := range []Die{D6, D10, TwoD6, D0to9} {
		p, err := ParseDie(d.String())
		if err != nil || p != d {
			t.Errorf("ParseDie(%q) = %v, %v", d, p, err)
		}
	}
	if lo, hi := TwoD6.Range(); lo != 2 || hi != 12 {
		t.Errorf("2d6 range %d-%d", lo, hi)
	}
	if lo, hi := D0to9.Range(); lo != 0 || hi != 9 {
		t.Errorf("d0-9 range %d-%d", lo, hi)
	}
}

// TestReplayFromRecords is the heart of the design: a game rebuilt from
// its stored records, without drawing again, equals the game as played,
// and so does a game restored from a snapshot and brought up to date.
func TestReplayFromRecords(t *testing.T) {
	g := newPack(t, true, 99)
	opened := Event{Seq: 1, Actor: "tester", Body: Opened{Ruleset: "pack", Seed: 99}}
	var snap []byte
	evs := []Event{opened}
	for i := range 30 {
		cmds := []Command{cmd("draw", "3"), cmd("roll")}
		if i%4 == 3 {
			cmds = append(cmds, cmd("fold"))
		}
		if i == 10 {
			cmds = append(cmds, dir("stack", "main", "AS", "AD"), dir("seed", "7"))
		}
		evs = append(evs, play(t, g, cmds...)...)
		if i == 15 {
			var err error
			if snap, err = g.Snapshot(); err != nil {
				t.Fatal(err)
			}
		}
	}
	var recs []Record
	for _, e := range evs {
		r, err := e.Record()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Record
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, back)
	}
	replay := NewGame(pack{jokers: true})
	for _, r := range recs {
		e, err := DecodeRecord(pack{jokers: true}, r)
		if err != nil {
			t.Fatal(err)
		}
		if err := replay.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(replay.Table, g.Table) || !reflect.DeepEqual(replay.State, g.State) || replay.Seq != g.Seq {
		t.Fatalf("replay differs from play:\nplay   %+v %+v\nreplay %+v %+v", g.Table, g.State, replay.Table, replay.State)
	}
	restored, err := Restore(pack{jokers: true}, snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[restored.Seq:] {
		e, _ := DecodeRecord(pack{jokers: true}, r)
		if err := restored.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := g.Snapshot()
	b, _ := restored.Snapshot()
	if string(a) != string(b) {
		t.Fatalf("snapshot plus tail differs from play:\n%s\n%s", a, b)
	}
	// And the next draw after a replay is the same as after play.
	next1 := play(t, g, cmd("draw", "2"))
	next2 := play(t, replay, cmd("draw", "2"))
	if !reflect.DeepEqual(next1, next2) {
		t.Fatalf("next draws differ: %+v vs %+v", next1, next2)
	}
}

func TestDecideLeavesGameUnchanged(t *testing.T) {
	g := newPack(t, false, 5)
	play(t, g, cmd("draw", "3"))
	before, _ := g.Snapshot()
	if _, err := g.Decide(cmd("draw", "4")); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Decide(cmd("nonsense")); err == nil {
		t.Fatal("nonsense was accepted")
	}
	after, _ := g.Snapshot()
	if string(before) != string(after) {
		t.Fatal("Decide changed the game")
	}
}

// TestAdvance: Advance decides as Decide does and leaves the game as it
// was, but the game after the step keeps the state before it without a
// copy of its own (the saving the router makes by Advance), and can still
// take the step back to it.
func TestAdvance(t *testing.T) {
	g := NewGame(pack{undo: true})
	if err := g.Apply(g.Open("tester", 1)); err != nil {
		t.Fatal(err)
	}
	play(t, g, cmd("note", "a"))
	before, _ := g.Snapshot()
	decided, err := g.Decide(cmd("note", "b"))
	if err != nil {
		t.Fatal(err)
	}
	advanced, err := g.Advance(cmd("note", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := g.Snapshot(); string(after) != string(before) {
		t.Fatal("Advance changed the game")
	}
	if !reflect.DeepEqual(advanced.Events, decided.Events) {
		t.Fatalf("Advance recorded %+v, Decide %+v", advanced.Events, decided.Events)
	}
	a, _ := advanced.After.Snapshot()
	d, _ := decided.After.Snapshot()
	if string(a) != string(d) {
		t.Fatalf("after Advance the game is\n%s\nafter Decide\n%s", a, d)
	}
	if advanced.After.undo.State != g.State || decided.After.undo.State == g.State {
		t.Fatal("Advance copied the state before the step, or Decide kept the caller's own")
	}
	if advanced.After.handedOver {
		t.Fatal("the game after Advance is marked handed over")
	}
	next := advanced.After
	play(t, next, cmd("undo"))
	if got := next.State.(*packState).Notes; !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after Advance and /undo the notes are %v, want [a]", got)
	}
	if got := g.State.(*packState).Notes; !slices.Equal(got, []string{"a"}) {
		t.Fatalf("taking back the step changed the game it was decided on: %v", got)
	}
}

func TestDecodeRecordRejectsMalformed(t *testing.T) {
	for _, r := range []Record{
		{Seq: 1, Kind: "pack.nope", Payload: []byte(`{}`)},
		{Seq: 1, Kind: "pack.drew", Payload: []byte(`{"Cards":["ZZ"]}`)},
		{Seq: 1, Kind: "pack.drew", Payload: []byte(`{}`), Draws: []Draw{{Deck: "main"}}},
		{Seq: 1, Kind: "table.seeded", Payload: []byte(`{"seed":"x"}`)},
	} {
		if _, err := DecodeRecord(pack{}, r); err == nil {
			t.Errorf("record %+v decoded", r)
		}
	}
}

// TestTakingStepsBack plays /undo: a step is taken back once, never one
// that rolled a die or touched a card, and a game restored from a
// snapshot can still take its last step back.
func TestTakingStepsBack(t *testing.T) {
	notes := func(g *Game) []string { return g.State.(*packState).Notes }
	g := NewGame(pack{undo: true})
	if err := g.Apply(g.Open("tester", 1)); err != nil {
		t.Fatal(err)
	}
	play(t, g, cmd("note", "a"), cmd("note", "b"))
	events := play(t, g, cmd("undo"))
	if got := notes(g); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("after /undo the notes are %v, want [a]", got)
	}
	if u, ok := events[0].Body.(Undone); !ok || u.Step != "noted b" {
		t.Fatalf("/undo recorded %+v, want the step told as %q", events[0].Body, "noted b")
	}
	if _, err := g.Decide(cmd("undo")); err == nil {
		t.Fatal("a step was taken back twice")
	}
	play(t, g, cmd("note", "c"), cmd("roll"))
	if _, err := g.Decide(cmd("undo")); err == nil {
		t.Fatal("a die roll was taken back")
	}
	play(t, g, cmd("draw", "1"), cmd("note", "d"))
	if _, err := g.Decide(cmd("fold")); err != nil {
		t.Fatal(err)
	}

	data, err := g.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := Restore(pack{undo: true}, data)
	if err != nil {
		t.Fatal(err)
	}
	play(t, restored, cmd("undo"))
	if got := notes(restored); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("after a restore and /undo the notes are %v, want [a c]", got)
	}

	plain := newPack(t, false, 1)
	if _, err := plain.Decide(cmd("undo")); err == nil {
		t.Fatal("rules without /undo took a step back")
	}
}
