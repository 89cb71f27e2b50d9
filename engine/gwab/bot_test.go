package gwab

import (
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
