package btg

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// botBattle opens a short battle on ground (a prepared scenario, or the
// open table) whose two armies the bot leads, an easy bot in black and
// another in red.
func botBattle(t testing.TB, ground string, seed uint64, turns string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", seed)
	p.Must(t, "alice|book open|turns:"+turns)
	if ground != "" {
		p.Must(t, "alice|scenario load|name:"+ground)
	}
	p.Must(t,
		"bot:easy|army build|name:Spartans|civ:greek|units:2 phalanx spear 12, 1 lt-inf javelin 8, 1 lt-inf sling 6, 1 cav spear 6, 1 leader",
		"bot:easy#2|army build|name:Persians|civ:persian|tag:PER|units:2 hvy-inf spear 12, 1 lt-inf bow 8, 1 cav composite 6, 1 catapult engine 4, 1 leader",
	)
	return p
}

// Two easy bots fight each prepared scenario (and the open table) to the
// end: every step is one the rules take, the battle ends, and its log
// replays to the same battle.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range append([]engine.Scenario{{Name: "open table"}}, scenarios...) {
		t.Run(sc.Name, func(t *testing.T) {
			ground := sc.Name
			if ground == "open table" {
				ground = ""
			}
			p := botBattle(t, ground, 5, "3")
			steps := enginetest.PlayBots(t, p, 2000)
			t.Logf("%s: %d steps: %s", sc.Name, steps, p.Game.State.(*State).Result)
		})
	}
}
