package gwab

import (
	"reflect"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// Two easy bots, each leading a clan, fight each prepared ground (and the
// open table) to the end: every step is one the rules take, the book ends
// by one of 6.2's conditions, and its log replays to the same game.
func TestBotsPlayEachScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("four whole books")
	}
	for _, sc := range append([]engine.Scenario{{Name: "open table"}}, scenarios...) {
		t.Run(sc.Name, func(t *testing.T) {
			p := enginetest.NewPlayer(t, New(), "alice", 11)
			p.Must(t, "alice|book open|terrain:on")
			if sc.Script != "" {
				p.Must(t, "alice|scenario load|name:"+sc.Name)
			}
			p.Must(t,
				"bot:easy|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,sword,bow,javelin",
				"bot:easy|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:spear,sword,sling,javelin",
				"bot:easy#2|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow,javelin",
				"bot:easy#2|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,spear,bow,javelin",
				"alice|book start",
			)
			steps := enginetest.PlayBots(t, p, 3000)
			t.Logf("%s: %d steps, round %d", sc.Name, steps, p.Game.State.(*State).Round)
		})
	}
}

// The bot never peeks at the decks: the same position with two different
// orders stacked for the cards to come gives the same decision, scores
// and all.
func TestBotDoesNotPeekAtTheDecks(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "alice", 11)
	p.Must(t,
		"alice|book open",
		"bot:easy|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,sword,bow,javelin",
		"bot:easy|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:spear,sword,sling,javelin",
		"bot:easy#2|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow,javelin",
		"bot:easy#2|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,spear,bow,javelin",
		"alice|book start",
	)
	aw := New()
	// Play on until the bots stand close enough for shots and melee to
	// draw cards.
	for range 40 {
		a := aw.Awaited(p.Game.State)[0]
		d, err := engine.Think(p.Game, a.Player, engine.Easy)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatal(err)
		}
	}
	who := aw.Awaited(p.Game.State)[0].Player
	var weighed [][]engine.Scored
	for _, stack := range [][]string{{"AS", "KS", "QS", "JS"}, {"2D", "3D", "4D", "5D"}} {
		g := p.Game.Clone()
		for i := range g.Table.Decks {
			g.Table.Decks[i].Stacked = nil
			for _, c := range stack {
				card, err := engine.ParseCard(c)
				if err != nil {
					t.Fatal(err)
				}
				if g.Table.Decks[i].Draw.Has(card) {
					g.Table.Decks[i].Stacked = append(g.Table.Decks[i].Stacked, card)
				}
			}
		}
		d, err := engine.Think(g, who, engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		weighed = append(weighed, d.Weighed)
	}
	if !reflect.DeepEqual(weighed[0], weighed[1]) {
		t.Errorf("the bot decides differently on cards it cannot see:\n%v\n%v", weighed[0], weighed[1])
	}
	if len(weighed[0]) < 2 {
		t.Errorf("the bot weighed %d candidates; want a choice", len(weighed[0]))
	}
}
