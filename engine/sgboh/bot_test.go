package sgboh

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// botBattle opens a prepared battle whose first army a bot at level a
// leads and whose second an easy bot leads.
func botBattle(t testing.TB, scenario string, seed uint64, a engine.Level) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", seed)
	p.Must(t,
		"alice|book open|scenario:"+scenario,
		string(engine.BotPlayer(a))+"|side take|side:1",
		"bot:easy#2|side take|side:2",
		"alice|start",
	)
	return p
}

// Two bots fight each prepared battle to the end: every step is one the
// rules take (none refused twice in a row), the battle ends by an army's
// withdrawal (10.4), and its log replays to the same battle.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range preparedBattles {
		t.Run(sc.Name, func(t *testing.T) {
			p := botBattle(t, sc.Name, 5, engine.Easy)
			steps := enginetest.PlayBots(t, p, 4000)
			t.Logf("%s: %d steps: %s", sc.Name, steps, p.Game.State.(*State).Result)
		})
	}
}
