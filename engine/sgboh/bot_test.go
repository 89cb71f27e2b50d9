package sgboh

import (
	"reflect"
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
// withdrawal (10.4), and its log replays to the same battle. The three
// great battles (some two hundred steps each) are left to the full run:
// the small one alone is fought in -short mode and under the race
// detector.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range preparedBattles {
		t.Run(sc.Name, func(t *testing.T) {
			if sc.Name != "plain" && (testing.Short() || raceDetector) {
				t.Skip("a great battle: fought in the full run without the race detector")
			}
			p := botBattle(t, sc.Name, 5, engine.Easy)
			steps := enginetest.PlayBots(t, p, 4000)
			t.Logf("%s: %d steps: %s", sc.Name, steps, p.Game.State.(*State).Result)
		})
	}
}

// The bot never peeks at the dice: in a position where the Macedonians
// weigh a continuity gamble, the same battle with the die loaded low and
// loaded high gives the same decision, scores and all. The loads are no
// idle difference: a player who could read them would see the gamble
// come out otherwise.
func TestBotDoesNotPeekAtTheDice(t *testing.T) {
	p := botBattle(t, "plain", 5, engine.Easy)
	aw := New()
	for steps := 0; ; steps++ {
		s := p.Game.State.(*State)
		if steps > 500 || s.Over() {
			t.Fatal("the Macedonians never came to a continuity roll")
		}
		if s.Flow.Stage == Continuity && len(s.Flow.Queue) == 0 && s.Armies[s.Flow.Side].Player == "bot:easy" {
			break
		}
		who := aw.Awaited(s)[0].Player
		level, _ := engine.IsBot(who)
		d, err := engine.Think(p.Game, who, level)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
	}
	loads := [][]int{{0, 0, 0, 0, 0, 0}, {9, 9, 9, 9, 9, 9}}
	var weighed [][]engine.Scored
	var gambles []string
	for _, load := range loads {
		g := p.Game.Clone()
		g.Table.Loaded = map[engine.Die][]int{engine.D0to9: load}
		d, err := engine.Think(g, "bot:easy", engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		weighed = append(weighed, d.Weighed)
		// What a peeking player would see: the first gamble played on
		// the loaded die itself.
		for _, c := range d.Weighed {
			if c.Command.Name == "activate" {
				res, err := g.Decide(c.Command)
				if err != nil {
					t.Fatal(err)
				}
				gambles = append(gambles, res.After.State.(*State).Flow.Stage.String())
				break
			}
		}
	}
	if !reflect.DeepEqual(weighed[0], weighed[1]) {
		t.Errorf("the bot decides differently on dice it cannot see:\n%v\n%v", weighed[0], weighed[1])
	}
	if len(weighed[0]) < 2 {
		t.Errorf("the bot weighed %d candidates; want a choice", len(weighed[0]))
	}
	if len(gambles) != 2 || gambles[0] == gambles[1] {
		t.Errorf("the loaded dice change nothing a peeking player would see (%v): the test proves nothing", gambles)
	}
}
