package gwab

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// sagaGame plays a saga's opening command after the guild's previous
// saga, failing on a refusal.
func sagaGame(t testing.TB, previous *Saga, start engine.Command) (*engine.Game, []engine.Record) {
	t.Helper()
	g := engine.NewGame(NewSaga())
	open := g.Open(start.Actor, 1)
	if err := g.Apply(open); err != nil {
		t.Fatal(err)
	}
	var prev engine.State
	if previous != nil {
		prev = previous
	}
	res, err := g.Begin(start, prev)
	if err != nil {
		t.Fatal(err)
	}
	return g, applyAll(t, g, res)
}

func applyAll(t testing.TB, g *engine.Game, res engine.Result) []engine.Record {
	t.Helper()
	var recs []engine.Record
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
	return recs
}

// sagaBook opens a book enlisted in saga and plays lines in it, then has
// the saga follow every event of the book.
func sagaBook(t testing.TB, saga *engine.Game, lines ...engine.Command) (*engine.Game, []engine.Record) {
	t.Helper()
	return sagaBookIn(t, saga, "7", lines...)
}

// sagaBookIn is sagaBook in the channel named id.
func sagaBookIn(t testing.TB, saga *engine.Game, id string, lines ...engine.Command) (*engine.Game, []engine.Record) {
	t.Helper()
	book := engine.NewGame(New())
	var events []engine.Event
	step := func(res engine.Result, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Events {
			if err := book.Apply(e); err != nil {
				t.Fatal(err)
			}
			events = append(events, e)
		}
	}
	open := book.Open("alice", 5)
	if err := book.Apply(open); err != nil {
		t.Fatal(err)
	}
	events = append(events, open)
	step(book.Enlist(saga, id))
	for _, c := range lines {
		step(book.Decide(c))
	}
	res, err := saga.Follow(id, events)
	if err != nil {
		t.Fatal(err)
	}
	return book, applyAll(t, saga, res)
}

// achillesAndAeneas opens a book of three players whose clans are led by
// Achilles, Sarpedon, Hector, Ajax, Aeneas and Diomedes, then plays then.
func achillesAndAeneas(then ...engine.Command) []engine.Command {
	lines := []engine.Command{opt("alice", "book open"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow")}
	lines = append(lines, threePlayers[1:4]...)
	lines = append(lines,
		opt("carol", "clan raise", "name", "Dardanians", "hero", "Aeneas", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("carol", "clan raise", "name", "Argives", "hero", "Diomedes", "side", "protagonist", "warbands", "spear,spear,javelin"))
	return append(lines, then...)
}

var threePlayers = []engine.Command{
	opt("alice", "clan raise", "name", "Myrmidons", "side", "protagonist", "warbands", "spear,spear,bow"),
	opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
	opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
	opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
	opt("carol", "clan raise", "name", "Dardanians", "side", "antagonist", "warbands", "spear,sword,bow"),
	opt("carol", "clan raise", "name", "Argives", "hero", "Diomedes", "side", "protagonist", "warbands", "spear,spear,javelin"),
}

// TestReconstitution plays 7.4 and 4.3: a saga carries over a Companion
// who took his Hero's place and passed 100, who keeps his points, and one
// who did not, who starts the next book at 100.
func TestReconstitution(t *testing.T) {
	old := &Saga{
		Charter: Charter{Name: "Old", Starter: "alice", Quorum: 3},
		Heroes: []SagaHero{
			{Name: "Patroclus", Clan: "Myrmidons", Player: "alice"},
			{Name: "Ascanius", Clan: "Dardanians", Player: "carol"},
		},
		Ledger: []Line{{Hero: 1, Points: 130, Cause: Carried}, {Hero: 2, Points: 40, Cause: Carried}},
		Ended:  "by the Herald's decision",
	}
	saga, _ := sagaGame(t, old, opt("alice", "saga start", "name", "New", "quorum", "3", "carry", "yes"))
	lines := append([]engine.Command{opt("alice", "book open")}, threePlayers...)
	book, _ := sagaBook(t, saga, append(lines, opt("alice", "book start"))...)

	s := book.State.(*State)
	if p := s.Element("MYR-H"); p.Name != "Patroclus" || p.Honor != 130 || p.Gained != 0 {
		t.Errorf("Patroclus took the field as %+v, want 130 honor kept (7.4)", *p)
	}
	if a := s.Element("DAR-H"); a.Name != "Ascanius" || a.Honor != 100 || a.Gained != 0 {
		t.Errorf("Ascanius took the field as %+v, want lifted to 100 (4.3) with nothing gained", *a)
	}
	sg := saga.State.(*Saga)
	want := map[string]int{"Patroclus": 130, "Ascanius": 100, "Sarpedon": 100, "Hector": 100, "Ajax": 100, "Diomedes": 100}
	for i, h := range sg.Heroes {
		if got := sg.Points(HeroID(i + 1)); got != want[h.Name] {
			t.Errorf("%s has %d in the saga, want %d", h.Name, got, want[h.Name])
		}
	}
	if sg.Books[0].Mode != Battle {
		t.Errorf("three players against a quorum of 3 make a %s, want a battle", sg.Books[0].Mode)
	}
}

// TestSagaRefusals checks what a saga book and a saga refuse.
func TestSagaRefusals(t *testing.T) {
	old := &Saga{Charter: Charter{Name: "Old", Quorum: 3}, Heroes: []SagaHero{{Name: "Achilles", Clan: "Myrmidons", Player: "alice", Homeric: true}},
		Retired: []string{"Achilles"}, Ended: "Achilles reached Homeric rank"}
	saga, _ := sagaGame(t, old, opt("bob", "saga start", "name", "New", "quorum", "4"))
	book, _ := sagaBook(t, saga, opt("alice", "book open"))
	for _, c := range []engine.Command{
		opt("alice", "book open", "mode", "battle"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Myrmidons", "side", "protagonist", "warbands", "spear,spear,bow"),
	} {
		if _, err := book.Decide(c); err == nil {
			t.Errorf("%s was allowed", c)
		}
	}
	for _, c := range []engine.Command{
		opt("alice", "saga schedule", "when", "Friday"),
		opt("bob", "saga attend"),
		opt("bob", "saga adjust", "hero", "Nobody", "points", "5", "reason", "x"),
		opt("bob", "saga start", "name", "Again", "quorum", "3"),
	} {
		if _, err := saga.Decide(c); err == nil {
			t.Errorf("%s was allowed", c)
		}
	}
	for _, q := range []string{"2", "9", "many"} {
		g := engine.NewGame(NewSaga())
		if _, err := g.Begin(opt("bob", "saga start", "name", "X", "quorum", q), nil); err == nil {
			t.Errorf("quorum:%s was allowed", q)
		}
	}
	// A Herald role's member acts as Herald.
	role, _ := sagaGame(t, nil, opt("bob", "saga start", "name", "R", "quorum", "3", "role", "heralds"))
	c := opt("carol", "saga schedule", "when", "Friday")
	if _, err := role.Decide(c); err == nil {
		t.Errorf("carol scheduled a session without the Herald role")
	}
	c.Roles = []string{"heralds"}
	if _, err := role.Decide(c); err != nil {
		t.Errorf("a member of the Herald role could not schedule: %v", err)
	}
}

// FuzzDecodeSagaRecord feeds stored-looking records to the saga's
// decoder and applies those that decode to a saga in play: no input may
// panic, and the saga's answers still read.
func FuzzDecodeSagaRecord(f *testing.F) {
	saga, recs := sagaGame(f, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "3"))
	lines := append([]engine.Command{opt("alice", "book open")}, threePlayers[1:4]...)
	lines = append(lines, opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("carol", "clan raise", "name", "Dardanians", "hero", "Aeneas", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("carol", "clan raise", "name", "Argives", "hero", "Diomedes", "side", "protagonist", "warbands", "spear,spear,javelin"))
	_, more := sagaBook(f, saga, lines...)
	for _, r := range append(recs, more...) {
		f.Add(r.Kind, []byte(r.Payload))
	}
	f.Add("saga.book-closed", []byte(`{"book":1,"session":-3}`))
	f.Add("saga.entered", []byte(`{"hero":99,"points":5}`))
	f.Fuzz(func(t *testing.T, kind string, payload []byte) {
		e, err := engine.DecodeRecord(NewSaga(), engine.Record{Seq: 1, Kind: kind, Payload: payload})
		if err != nil {
			return
		}
		for _, fresh := range []bool{false, true} {
			g := saga.Clone()
			if fresh {
				g = engine.NewGame(NewSaga())
			}
			e.Seq = g.Seq + 1
			_ = g.Apply(e)
			_ = NewSaga().Narrate(e)
			s := g.State.(*Saga)
			_ = s.standings(1)
			for i := range s.Heroes {
				_ = s.record(HeroID(i + 1))
			}
			_, _ = g.Decide(opt("alice", "saga books"))
			_, _ = json.Marshal(s)
		}
	})
}

// TestSagaFollowsASuccession plays 4.1, 4.3 and 12 through the saga: the
// first clan's Hero takes wounds until he falls, each counted among his
// deeds; he goes down to Tartarus; the Companion who takes his place
// enters the saga as a Hero of his own, with no honor, under the name his
// player gives him.
func TestSagaFollowsASuccession(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "4"))
	lines := achillesAndAeneas(
		opt("alice", "book start"),
		directive("alice", "wound", "MYR-H", "1"),
		directive("alice", "wound", "MYR-H", "3"),
		opt("alice", "successor", "companion", "MYR-C1"),
		opt("alice", "hero name", "name", "Patroclus"))
	book, _ := sagaBook(t, saga, lines...)
	if h := book.State.(*State).Element("MYR-C1"); h.Name != "Patroclus" {
		t.Fatalf("the Myrmidons' successor is %q in the book, want Patroclus", h.Name)
	}
	sg := saga.State.(*Saga)
	first := sg.hero(1)
	if first.Name != "Achilles" || first.Clan != "Myrmidons" || first.Deeds[WoundsTaken] != 4 || first.Alive() || first.FellIn != 1 {
		t.Errorf("Hero 1 is %+v; want the Myrmidons' Hero, 4 wounds taken, fallen in book 1", *first)
	}
	var heir *SagaHero
	var heirID HeroID
	for i := range sg.Heroes {
		if h := &sg.Heroes[i]; h.Clan == "Myrmidons" && h.Alive() {
			heir, heirID = h, HeroID(i+1)
		}
	}
	if heir == nil {
		t.Fatalf("no living Hero of the Myrmidons in the saga: %+v", sg.Heroes)
	}
	if heir.Name != "Patroclus" || heir.Unnamed || heir.Player != "alice" || sg.Points(heirID) != 0 {
		t.Errorf("the successor entered the saga as %+v with %d honor; want Patroclus, alice's, named, 0 honor", *heir, sg.Points(heirID))
	}
	if len(sg.Heroes) != 7 {
		t.Errorf("the saga has %d Heroes, want the 6 who began and the successor", len(sg.Heroes))
	}
}

// TestSagaCompletesHeroes checks the order in which the saga offers its
// Heroes for an option naming one: the actor's own, living, with the name
// beginning with what was typed first; then those only holding it; others'
// Heroes after the actor's; those in Tartarus last.
func TestSagaCompletesHeroes(t *testing.T) {
	s := &Saga{Heroes: []SagaHero{
		{Name: "Diomedes", Clan: "Argives", Player: "bob"},
		{Name: "Medon", Clan: "Phthians", Player: "alice"},
		{Name: "Idomeneus", Clan: "Cretans", Player: "alice"},
		{Name: "Meges", Clan: "Epeans", Player: "bob", FellIn: 1},
		{Name: "Menelaus", Clan: "Spartans", Player: "bob"},
	}}
	var got []string
	for _, c := range NewSaga().Complete(s, "alice", "saga hero", "name", "me") {
		got = append(got, c.Value)
	}
	want := []string{"Medon", "Idomeneus", "Menelaus", "Diomedes", "Meges"}
	if !slices.Equal(got, want) {
		t.Errorf("typing \"me\", alice is offered %v, want %v", got, want)
	}
}

// TestChronicAbsence checks 5.4's chronically absent, as the saga counts
// them: those who missed at least 2 of the last 3 sessions, this one
// included.
func TestChronicAbsence(t *testing.T) {
	s := &Saga{Sessions: []Session{
		{Book: 1, Absent: []engine.PlayerID{"carol", "dave"}},
		{Book: 2, Absent: []engine.PlayerID{"dave"}},
		{Book: 3, Absent: []engine.PlayerID{"erin"}},
		{When: "Friday"}, // still open: not counted
	}}
	got := s.chronic([]engine.PlayerID{"carol", "dave", "erin", "frank"})
	// carol's absence from book 1 is out of the window (books 2 and 3 and
	// this one); dave missed book 2, erin book 3; frank only this one.
	want := []engine.PlayerID{"dave", "erin"}
	if !slices.Equal(got, want) {
		t.Errorf("chronically absent: %v, want %v", got, want)
	}
}

// TestSagaAbsence plays 4 and 5.4 through the saga: a session is called,
// and the player who has Heroes in the saga but does not come to the book
// that closes it is named absent, each of his living Heroes paying the
// chart's penalty for a battle (10); those who came pay nothing.
func TestSagaAbsence(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "3"))
	schedule := func(when string) {
		t.Helper()
		res, err := saga.Decide(opt("alice", "saga schedule", "when", when))
		if err != nil {
			t.Fatal(err)
		}
		applyAll(t, saga, res)
	}
	schedule("Monday")
	first := []engine.Command{opt("alice", "book open"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow")}
	first = append(first, threePlayers[1:4]...)
	first = append(first,
		opt("carol", "clan raise", "name", "Dardanians", "hero", "Aeneas", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("carol", "clan raise", "name", "Argives", "hero", "Diomedes", "side", "protagonist", "warbands", "spear,spear,javelin"),
		opt("dave", "clan raise", "name", "Ithacans", "hero", "Odysseus", "side", "protagonist", "warbands", "spear,bow,javelin"),
		opt("dave", "clan raise", "name", "Thracians", "hero", "Rhesus", "side", "antagonist", "warbands", "spear,sword,sling"),
		opt("alice", "book start"), opt("alice", "book end"))
	sagaBook(t, saga, first...)
	schedule("Wednesday")
	second := []engine.Command{opt("alice", "book open"),
		opt("alice", "clan raise", "name", "Myrmidons", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Lycians", "side", "antagonist", "warbands", "sword,javelin,sling"),
		opt("bob", "clan raise", "name", "Trojans", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("bob", "clan raise", "name", "Achaeans", "side", "protagonist", "warbands", "spear,spear,javelin"),
		opt("carol", "clan raise", "name", "Dardanians", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("carol", "clan raise", "name", "Argives", "side", "protagonist", "warbands", "spear,spear,javelin"),
		opt("alice", "book start"), opt("alice", "book end")}
	sagaBookIn(t, saga, "8", second...)

	sg := saga.State.(*Saga)
	if n := len(sg.Sessions); n != 2 || sg.Sessions[1].Book != 2 || !slices.Equal(sg.Sessions[1].Absent, []engine.PlayerID{"dave"}) {
		t.Fatalf("sessions %+v; want Wednesday's closed by book 2 with dave absent", sg.Sessions)
	}
	paid := map[string]int{}
	for _, l := range sg.Ledger {
		if l.Cause == Absence {
			paid[sg.hero(l.Hero).Name] += l.Points
		}
	}
	want := map[string]int{"Odysseus": -10, "Rhesus": -10}
	if len(paid) != len(want) || paid["Odysseus"] != -10 || paid["Rhesus"] != -10 {
		t.Errorf("paid for absence: %v; want %v (the battle column of 4)", paid, want)
	}
}

// TestSagaCountsCaptures checks that the saga keeps, beside the honor, the
// deeds a Hero's honor was won by: armor stripped from a fallen Hero
// (10.3) and a chariot taken (8.2.2), each counted once on his record.
func TestSagaCountsCaptures(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "3"))
	lines := achillesAndAeneas(
		opt("alice", "book start"))
	book, _ := sagaBook(t, saga, lines...)
	// What the book's loot and chariot rules emit when Achilles strips
	// Hector's armor and takes the Trojans' chariot.
	var events []engine.Event
	for _, b := range []HonorChanged{
		{Hero: "MYR-H", Name: "Achilles", Points: 10, Cause: Armor, Reason: "stripping the armor of Hector", Column: "Battle", Round: 1},
		{Hero: "MYR-H", Name: "Achilles", Points: 5, Captured: true, Reason: "taking the Trojans' chariot", Column: "Battle", Round: 1},
	} {
		e := engine.Event{Seq: book.Seq + 1, Step: true, Actor: "alice", Body: b}
		if err := book.Apply(e); err != nil {
			t.Fatal(err)
		}
		events = append(events, e)
	}
	res, err := saga.Follow("7", events)
	if err != nil {
		t.Fatal(err)
	}
	applyAll(t, saga, res)
	h := saga.State.(*Saga).hero(1)
	if h.Name != "Achilles" || h.Deeds[ArmorWon] != 1 || h.Deeds[ChariotsTaken] != 1 {
		t.Errorf("Hero 1 is %s with deeds %v; want Achilles with one armor won and one chariot taken", h.Name, h.Deeds)
	}
}

// TestSagaCountsChallenges plays a challenge (10.2) in a saga's battle:
// the challenger's record counts a challenge issued, and both Heroes'
// a challenge fought.
func TestSagaCountsChallenges(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "3"))
	lines := achillesAndAeneas(
		directive("alice", "place", "MYR-H", "30,19", "N"),
		directive("alice", "place", "DAR-H", "30,21", "S"),
		directive("alice", "stack", "sequence", "KS", "10S", "QS", "9S", "8S", "7S"),
		opt("alice", "book start"),
		directive("alice", "stack", "combat", "AS", "2D", "AH", "3D", "KS", "4D", "QS", "5D"),
		opt("alice", "challenge", "hero", "Aeneas"),
		opt("carol", "answer", "reply", "accept"))
	sagaBook(t, saga, lines...)
	sg := saga.State.(*Saga)
	var achilles, aeneas *SagaHero
	for i := range sg.Heroes {
		switch h := &sg.Heroes[i]; h.Name {
		case "Achilles":
			achilles = h
		case "Aeneas":
			aeneas = h
		}
	}
	if achilles == nil || aeneas == nil {
		t.Fatalf("the saga's Heroes are %+v", sg.Heroes)
	}
	if achilles.Deeds[ChallengesIssue] != 1 || achilles.Deeds[ChallengesFight] != 1 || aeneas.Deeds[ChallengesFight] != 1 {
		t.Errorf("Achilles' deeds %v, Aeneas' %v; want a challenge issued and fought, and one fought", achilles.Deeds, aeneas.Deeds)
	}
}

// TestSagaTakesBackAStep plays a refused challenge (9.3) that the game
// master then takes back: the saga enters a line that undoes each Hero's
// points, in the same book, round and column as the line it undoes, so
// that /saga hero shows where the points came and went.
func TestSagaTakesBackAStep(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("alice", "saga start", "name", "Wrath", "quorum", "3"))
	lines := achillesAndAeneas(
		directive("alice", "stack", "sequence", "KS", "10S", "QS", "9S", "KH", "10H"),
		opt("alice", "book start"),
		opt("alice", "challenge", "hero", "Aeneas"),
		opt("carol", "answer", "reply", "decline"),
		opt("alice", "undo"))
	sagaBook(t, saga, lines...)
	sg := saga.State.(*Saga)
	want := map[string][]Line{
		"Achilles": {{Points: 2, Cause: Refused, Book: 1, Round: 1, Column: "Battle"}, {Points: -2, Cause: TakenBack, Book: 1, Round: 1, Column: "Battle"}},
		"Aeneas":   {{Points: -2, Cause: Refusing, Book: 1, Round: 1, Column: "Battle"}, {Points: 2, Cause: TakenBack, Book: 1, Round: 1, Column: "Battle"}},
	}
	for name, lines := range want {
		var got []Line
		for _, l := range sg.Ledger {
			if h := sg.hero(l.Hero); h != nil && h.Name == name && l.Cause != Enrolling {
				l.Hero, l.Reason = 0, ""
				got = append(got, l)
			}
		}
		if !slices.Equal(got, lines) {
			t.Errorf("the ledger of %s after the step was taken back:\n got %+v\nwant %+v", name, got, lines)
		}
	}
}

// TestBookClosedSaysPractice checks what the Herald says as a book
// closes: a practice book played changes no standing, and says so; a
// battle does not say it.
func TestBookClosedSaysPractice(t *testing.T) {
	const note = "It was practice and changes no standing."
	if got := (BookClosed{Book: 2, Result: "by consent", Mode: Practice, Started: true}).Text(); !strings.Contains(got, note) {
		t.Errorf("a practice book closes with %q; want it to say %q", got, note)
	}
	if got := (BookClosed{Book: 2, Result: "by consent", Mode: Battle, Started: true}).Text(); strings.Contains(got, note) {
		t.Errorf("a battle closes with %q", got)
	}
}

// TestSagaAttendance answers the Herald's call (4): each answer is kept
// with the session called, yes by default, and a second answer replaces
// the first.
func TestSagaAttendance(t *testing.T) {
	saga, _ := sagaGame(t, nil, opt("bob", "saga start", "name", "Wine-dark Sea", "quorum", "3"))
	var said []string
	for _, c := range []engine.Command{
		opt("bob", "saga schedule", "when", "Friday at the club"),
		opt("alice", "saga attend"),
		opt("carol", "saga attend", "reply", "no"),
		opt("dave", "saga attend", "reply", "no"),
		opt("dave", "saga attend", "reply", "yes"),
	} {
		res, err := saga.Decide(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		applyAll(t, saga, res)
		for _, e := range res.Events {
			if a, ok := e.Body.(Attended); ok {
				said = append(said, a.Text())
			}
		}
	}
	// Each answer names the session it answers, as the Herald called it.
	if want := []string{
		"alice will come to the session of Friday at the club.",
		"carol sends regrets for the session of Friday at the club.",
		"dave sends regrets for the session of Friday at the club.",
		"dave will come to the session of Friday at the club.",
	}; !slices.Equal(said, want) {
		t.Errorf("the answers said:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
	_, ses := saga.State.(*Saga).openSession()
	if ses == nil || ses.When != "Friday at the club" {
		t.Fatalf("the session called: %+v", ses)
	}
	want := map[engine.PlayerID]bool{"alice": true, "carol": false, "dave": true}
	if !maps.Equal(ses.Answers, want) {
		t.Errorf("the answers kept: %v, want %v", ses.Answers, want)
	}
}
