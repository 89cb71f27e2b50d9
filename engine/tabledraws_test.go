package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// play plays script lines ("@alice /book open …") as commands, each
// acting as the last player a line named.
func play(t *testing.T, p *enginetest.Player, lines ...string) {
	t.Helper()
	var who engine.PlayerID
	for _, l := range lines {
		line, err := engine.ParseLine(l)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if line.User != "" {
			who = line.User
		}
		c := line.Command
		c.Actor = who
		if _, err := p.Do(t, c); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

// TestEnteredDrawsAreRecordedAndReplay checks what a player reading the
// log of a table-drawn book sees: each entered card in the event that used
// it, marked as entered at the table, and a replay of the records that
// comes to the same game without asking again.
func TestEnteredDrawsAreRecordedAndReplay(t *testing.T) {
	p := enginetest.NewPlayer(t, gwab.New(), "alice", 1)
	play(t, p,
		"@alice /book open mode:practice dice:table",
		"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
		"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:spear,sword,bow",
		"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
		"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,bow",
		"@alice #place MYR-H 30,14 N",
		"#place TRO-H 30,20 S",
		"/book start",
	)
	if p.Game.Table.Asked == nil {
		t.Fatal("/book start at a table-drawn book did not wait for the sequence cards")
	}
	before := len(p.Records)
	play(t, p, "@alice /draw cards:KS", "/draw cards:10S", "@bob /draw cards:9S", "/draw cards:QS")
	if p.Game.Table.Asked != nil {
		t.Fatal("the book still waits after every card was entered")
	}
	var dealt []engine.Draw
	for _, rec := range p.Records[before:] {
		if rec.Kind == "gwab.round-dealt" {
			dealt = rec.Draws
		}
	}
	want := []string{"sequence:KS", "sequence:10S", "sequence:9S", "sequence:QS"}
	if len(dealt) != len(want) {
		t.Fatalf("the round was dealt with %v, want %v", dealt, want)
	}
	for i, d := range dealt {
		if d.String() != want[i] || !d.Table {
			t.Errorf("draw %d is %v (entered at the table: %t), want %s entered at the table", i, d, d.Table, want[i])
		}
	}
	p.Replayed(t)
	// The cards entered are out of the deck: one of them is refused later.
	for _, c := range []string{"KS", "QS"} {
		if p.Game.Table.Deck(gwab.SequenceDeck).Draw.Has(mustCard(t, c)) {
			t.Errorf("%s is still in the sequence deck after it was entered", c)
		}
	}
}

// TestSecretCommandStaysSealedWhileDrawsWait checks that a secret choice
// whose command waits for the table's dice (sweet's melee deployment
// indicator, chosen last) is not shown in what others may read of the
// log.
func TestSecretCommandStaysSealedWhileDrawsWait(t *testing.T) {
	p := enginetest.NewPlayer(t, sweet.New(), "alice", 1)
	play(t, p,
		"@alice /book open size:12x10 turns:1 dice:table",
		"/army build name:Romans units:\"1 HI\"",
		"@bob /army build name:Macedonians tag:MAC units:\"1 HI\"",
		"@alice #place ROM-1 B4 N",
		"#place MAC-1 B5 S",
		"/done",
		"@bob /done",
		"/roll dice:1",
		"@alice /roll dice:6",
		"/move unit:ROM-1 to:B5",
		"/done",
		"/mdi choice:line",
		"@bob /mdi choice:square",
	)
	a := p.Game.Table.Asked
	if a == nil || !a.Secret {
		t.Fatalf("the last indicator does not wait sealed for the melee's dice: %+v", a)
	}
	recs, err := engine.Redact(p.Game.Rules, p.Records)
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if last.Kind != "table.asked" {
		t.Fatalf("the last record is %s, want table.asked", last.Kind)
	}
	if strings.Contains(string(last.Payload), "square") {
		t.Errorf("the waiting command shows bob's secret choice to others: %s", last.Payload)
	}
	var public engine.Asked
	if err := json.Unmarshal(last.Payload, &public); err != nil || public.Command.Name != "mdi" {
		t.Errorf("the waiting command is not named in public: %s (%v)", last.Payload, err)
	}
}

func mustCard(t *testing.T, s string) engine.Card {
	t.Helper()
	c, err := engine.ParseCard(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// FuzzTableAnswer feeds any answer to a book waiting for its sequence
// cards: none panics, a refused one changes nothing, and an accepted one
// is recorded so that the log replays to the same game.
func FuzzTableAnswer(f *testing.F) {
	for _, s := range []string{"KS", "KS QS", "10S", "ZZ", "JOKER", "", "6", "1 2 3", "-1", "AS 2C 3D 4H"} {
		f.Add("draw", s, "sequence", "alice")
		f.Add("roll", s, "", "bob")
	}
	f.Fuzz(func(t *testing.T, name, value, deck, who string) {
		if name != "draw" && name != "roll" || who == "" {
			return
		}
		p := enginetest.NewPlayer(t, gwab.New(), "alice", 1)
		play(t, p,
			"@alice /book open mode:practice dice:table",
			"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow",
			"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:spear,sword,bow",
			"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
			"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,bow",
			"@alice /book start",
		)
		before, err := p.Game.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		c := engine.Command{Actor: engine.PlayerID(who), Name: name, Options: map[string]string{"cards": value, "dice": value}}
		if name == "roll" {
			delete(c.Options, "cards")
		} else {
			delete(c.Options, "dice")
			if deck != "" {
				c.Options["deck"] = deck
			}
		}
		if _, err := p.Do(t, c); err != nil {
			after, _ := p.Game.Snapshot()
			if string(after) != string(before) {
				t.Fatalf("%s was refused (%v) but changed the game", c, err)
			}
			return
		}
		p.Replayed(t)
	})
}
