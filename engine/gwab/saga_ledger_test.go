package gwab

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestSagaLedger reads a saga through the engine's ledger, as the
// published pages do: a saga that carries over two Companions, one with
// his points (7.4) and one lifted to 100 (4.3), and a book whose Hero falls and whose successor takes his
// place. Replayed event by event, each Hero's lines add up to his honor
// and say from which book and step they came; the record's standings,
// deeds and books are the saga's own.
func TestSagaLedger(t *testing.T) {
	old := &Saga{
		Charter: Charter{Name: "Old", Starter: "alice", Quorum: 3},
		Heroes: []SagaHero{
			{Name: "Patroclus", Clan: "Myrmidons", Player: "alice"},
			{Name: "Ascanius", Clan: "Dardanians", Player: "carol"},
		},
		Ledger: []Line{{Hero: 1, Points: 130, Cause: Carried}, {Hero: 2, Points: 40, Cause: Carried}},
		Ended:  "by the Herald's decision",
	}
	saga, recs := sagaGame(t, old, opt("alice", "saga start", "name", "Wrath", "quorum", "3", "carry", "yes"))
	lines := append([]engine.Command{opt("alice", "book open")}, threePlayers...)
	lines = append(lines, opt("alice", "book start"),
		directive("alice", "wound", "LYC-H", "4"),
		opt("alice", "successor", "companion", "LYC-C1"),
		opt("alice", "hero name", "name", "Glaucus"))
	_, more := sagaBook(t, saga, lines...)
	recs = append(recs, more...)
	sg := saga.State.(*Saga)

	rules := NewSaga()
	g := engine.NewGame(rules)
	if err := g.Apply(g.Open("alice", 1)); err != nil {
		t.Fatal(err)
	}
	totals := map[int]int{}
	last := map[int]int{}
	fromBook := 0
	var reasons []string // of every line, in order
	for _, rec := range recs {
		e, err := engine.DecodeRecord(rules, rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Apply(e); err != nil {
			t.Fatal(err)
		}
		for _, l := range rules.Entries(e, g.State) {
			if l.IsRank {
				continue
			}
			totals[l.Hero] += l.Points
			reasons = append(reasons, l.Reason)
			if l.Total != totals[l.Hero] {
				t.Errorf("hero %d's line %+v gives a total of %d; his lines so far add up to %d", l.Hero, l, l.Total, totals[l.Hero])
			}
			last[l.Hero] = l.Total
			if l.Book == 1 {
				fromBook++
				if l.BookRef != "7" {
					t.Errorf("a line of book 1 names the book %q, want 7", l.BookRef)
				}
			}
		}
	}
	if fromBook == 0 {
		t.Error("no line of the ledger came from the book")
	}
	sameReasons(t, reasons, sg)
	for i := range sg.Heroes {
		id := HeroID(i + 1)
		if last[int(id)] != sg.Points(id) {
			t.Errorf("%s's last line gives %d, his honor is %d", sg.Heroes[i].Name, last[int(id)], sg.Points(id))
		}
	}
	if last[1] != 130 {
		t.Errorf("Patroclus's carried points read %d in the ledger, want 130 (7.4)", last[1])
	}

	rec := rules.Ledger(sg)
	if rec.Name != "Wrath" || len(rec.Heroes) != len(sg.Heroes) || len(rec.Books) != 1 || rec.Books[0].Kind != sg.Books[0].Mode.String() || rec.Books[0].Ref != "7" {
		t.Errorf("the record is %q with %d heroes and books %+v; the saga Wrath has %d heroes and one book, a %s", rec.Name, len(rec.Heroes), rec.Books, len(sg.Heroes), sg.Books[0].Mode)
	}
	want := sg.Standings()
	if len(rec.Standings) != len(want) {
		t.Fatalf("%d standings, want %d", len(rec.Standings), len(want))
	}
	fallen := 0
	for i, st := range rec.Standings {
		w := want[i]
		if st.Hero != int(w.Hero) || st.Name != w.Name || st.Honor != w.Honor || st.Rank != w.Rank || st.FellIn != w.FellIn || st.Title != w.Title {
			t.Errorf("standing %d is %+v, want %+v", i+1, st, w)
		}
		if st.FellIn > 0 {
			fallen++
		}
		h := rec.Heroes[st.Hero-1]
		d := sg.Heroes[st.Hero-1].Deeds
		if h.Kills != d[Kills] || h.Wounds != d[WoundsTaken] || h.Captures != d[ArmorWon]+d[ChariotsTaken] || len(h.Deeds) != len(deedOrder) {
			t.Errorf("%s's deeds read %+v, the saga counts %v", st.Name, h, d)
		}
	}
	if fallen != 1 {
		t.Errorf("%d Heroes fell in the record, want Sarpedon alone", fallen)
	}
	sum := map[int]int{}
	for _, l := range rec.Lines {
		sum[l.Hero] += l.Points
	}
	for i := range sg.Heroes {
		if sum[i+1] != sg.Points(HeroID(i+1)) {
			t.Errorf("%s's lines in the record add up to %d, his honor is %d", sg.Heroes[i].Name, sum[i+1], sg.Points(HeroID(i+1)))
		}
	}
	if got := rules.Ledger(&State{}); got.Name != "" || got.Heroes != nil {
		t.Errorf("the ledger of a book, not a saga, is %+v; want empty", got)
	}
}

// sameReasons checks that each line read through the engine's ledger
// says why, in the saga's own words (/saga hero's ledger).
func sameReasons(t *testing.T, reasons []string, sg *Saga) {
	t.Helper()
	if len(reasons) != len(sg.Ledger) {
		t.Fatalf("%d lines read, the saga's ledger has %d", len(reasons), len(sg.Ledger))
	}
	for i, l := range sg.Ledger {
		if reasons[i] != l.Reason || l.Reason == "" {
			t.Errorf("line %d of the ledger reads %q; the saga's line says %q", i+1, reasons[i], l.Reason)
		}
	}
}
