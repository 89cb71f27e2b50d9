package goliath

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// botGame opens a small battle on ground (a prepared scenario, or none)
// by method (move or orders), whose two armies the bot leads: a normal
// bot in the south and an easy one in the north, or the other way round
// when swap is set, so that each scenario is played from either side.
func botGame(t testing.TB, ground, method string, seed uint64, turns string, swap bool) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "ref", seed)
	p.Must(t, "ref|book open|method:"+method+"|turns:"+turns)
	if ground != "" {
		p.Must(t, "ref|scenario load|name:"+ground)
	}
	south, north := "bot:easy", "bot:easy#2"
	if swap {
		south, north = north, south
	}
	p.Must(t,
		south+"|army raise|name:the Kingdom|tag:KIN|units:12 heavy infantry, 8 longbowmen, 6 heavy cavalry",
		north+"|army raise|name:the Horde|tag:ORC|units:16 orcs, 8 giant-orcs, 4 orogs",
	)
	return p
}

// Two bots fight each prepared ground to the end, by either turn
// sequence and from either side: every step is one the rules take (never
// a refused one twice in a row), the battle ends, and its log replays to
// the same game.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range append([]engine.Scenario{{Name: "open field"}}, scenarios...) {
		for i, method := range []string{"move", "orders"} {
			t.Run(sc.Name+"/"+method, func(t *testing.T) {
				ground := sc.Name
				if ground == "open field" {
					ground = ""
				}
				p := botGame(t, ground, method, 7, "4", i == 1)
				steps := enginetest.PlayBots(t, p, 3000)
				t.Logf("%s by %s: %d steps: %s", sc.Name, method, steps, p.Game.State.(*State).Result)
			})
		}
	}
}
