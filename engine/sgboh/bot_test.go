package sgboh

import (
	"reflect"
	"slices"
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
// the two small ones alone are fought in -short mode and under the race
// detector.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range preparedBattles {
		t.Run(sc.Name, func(t *testing.T) {
			if sc.Name != "plain" && sc.Name != "successors" && (testing.Short() || raceDetector) {
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
		enginetest.BotStep(t, p, who)
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

// skirmish opens a small battle on an open 10 by 10 map: the bot at
// level lv leads the Persians, who go first, and alice the Macedonians.
// Each of lines is a unit or leader set up after the two armies.
func skirmish(t *testing.T, lv engine.Level, lines ...string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "gm", 7)
	p.Must(t,
		"gm|book open",
		"gm|setup map|size:10x10",
		"gm|setup side|name:Persians|edge:N|withdraw:10|first:yes",
		"gm|setup side|name:Macedonians|edge:S|withdraw:12",
	)
	p.Must(t, lines...)
	p.Must(t,
		string(engine.BotPlayer(lv))+"|side take|side:1",
		"alice|side take|side:2",
		"gm|start",
	)
	return p
}

// botActs lets the bot give commands until play leaves its activation
// or n commands are given, and returns what it gave.
func botActs(t *testing.T, p *enginetest.Player, lv engine.Level, n int) []engine.Command {
	t.Helper()
	var out []engine.Command
	for range n {
		s := p.Game.State.(*State)
		if len(s.Flow.Queue) > 0 && s.Armies[s.Flow.Queue[0].Side].Player == "alice" {
			// alice lets the question go: her unit stands, holds its
			// fire, does not pursue.
			reply := map[string]string{"withdraw": "stand", "face": "stand", "evade": "stand", "fire": "hold", "pursue": "hold"}[s.Flow.Queue[0].Kind]
			p.Must(t, "alice|answer|reply:"+reply)
			continue
		}
		if s.Over() || s.Armies[s.Flow.Side].Player != engine.BotPlayer(lv) {
			break
		}
		d, err := engine.Think(p.Game, engine.BotPlayer(lv), lv)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
		out = append(out, d.Command)
		if d.Command.Name == "done" {
			break
		}
	}
	return out
}

// The Persian horse, activated before a Macedonian phalanx that faces
// it, rides round to take the phalanx in the flank or rear rather than
// charge its pikes (8.3: +2 flank, +3 rear; HC on a phalanx's front
// -3, and a phalanx attacked frontally by moving troops -1 more).
func TestBotRidesRoundThePikes(t *testing.T) {
	p := skirmish(t, engine.Normal,
		"gm|setup leader|id:DAT|name:Datames|side:1|at:0508|initiative:4|range:4",
		"gm|setup leader|id:PAR|name:Parmenion|side:2|at:0502|initiative:4|range:3",
		"gm|setup unit|id:PHC|name:Persian|type:HC|side:1|at:0508|facing:NNE|line:Cavalry",
		"gm|setup unit|id:PH1|name:Pezhetairoi|type:PH|side:2|at:0505|facing:SSW|line:Phalanx",
	)
	botActs(t, p, engine.Normal, 8)
	s := p.Game.State.(*State)
	hc, ph := s.unit("PHC"), s.unit("PH1")
	if !hc.Fought {
		t.Fatalf("the horse did not charge; it stands in %s facing %s", hc.Hex, hc.Facing)
	}
	if a := engine.HexAspect(ph.Hex, ph.Facing, hc.Hex); a == engine.Front && ph.Status == Full {
		t.Errorf("the horse charged the phalanx's pikes from %s", hc.Hex)
	}
}

// At continuity the bot never declines the roll while it has nothing
// routed: a failed roll hands play over just as a pass does (3.2). Once a
// unit of its own is routed, a roll of 8 or 9 would send it running
// again (10.22), and the pass is weighed with the gambles.
func TestBotRollsForContinuity(t *testing.T) {
	p := skirmish(t, engine.Normal,
		"gm|setup leader|id:DAT|name:Datames|side:1|at:0508|initiative:4|range:4",
		"gm|setup leader|id:PAR|name:Parmenion|side:2|at:0502|initiative:4|range:3",
		"gm|setup unit|id:HO1|name:Greek|type:HO|side:1|at:0507|facing:NNE|line:Hoplites",
		"gm|setup unit|id:HO2|name:Greek|type:HO|side:1|at:0607|facing:NNE|line:Hoplites",
		"gm|setup unit|id:PH1|name:Pezhetairoi|type:PH|side:2|at:0502|facing:SSW|line:Phalanx",
	)
	p.Must(t, "bot|activate|leader:DAT|line:Hoplites", "bot|done")
	weighed := func() []string {
		d, err := engine.Think(p.Game, "bot", engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range d.Weighed {
			out = append(out, c.Command.Name)
		}
		return out
	}
	if got := weighed(); slices.Contains(got, "pass") || !slices.Contains(got, "activate") {
		t.Errorf("with nothing routed the bot weighs %v; want only continuity rolls", got)
	}
	s := p.Game.State.(*State)
	s.unit("HO2").Status = Routed
	if got := weighed(); !slices.Contains(got, "pass") {
		t.Errorf("with HO2 routed the bot weighs %v; want the pass among them", got)
	}
}

// Datames stands with hoplites that a Macedonian phalanx, next to them,
// may charge: a leader in the fight dies on a 0, and the Persians would
// count twice his initiative (8.3, 10.4). Activated alone, he may ride
// clear of the enemy before he commands (4.2), and the bot weighs that
// ride beside commanding where he stands.
func TestBotWeighsRidingClear(t *testing.T) {
	p := skirmish(t, engine.Normal,
		"gm|setup leader|id:DAT|name:Datames|side:1|at:0505|initiative:4|range:4",
		"gm|setup leader|id:PAR|name:Parmenion|side:2|at:0503|initiative:4|range:3",
		"gm|setup unit|id:HO1|name:Greek|type:HO|side:1|at:0505|facing:NNE|line:Hoplites",
		"gm|setup unit|id:HO2|name:Greek|type:HO|side:1|at:0605|facing:NNE|line:Hoplites",
		"gm|setup unit|id:PH1|name:Pezhetairoi|type:PH|side:2|at:0504|facing:SSW|line:Phalanx",
	)
	p.Must(t, "bot|activate|leader:DAT")
	d, err := engine.Think(p.Game, "bot", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	var rides []string
	for _, c := range d.Weighed {
		if c.Command.Name != "move" || c.Command.Opt("unit") != "DAT" {
			continue
		}
		rides = append(rides, c.Command.String())
		res, err := p.Game.Decide(c.Command)
		if err != nil {
			t.Fatalf("%s: %v", c.Command, err)
		}
		s := res.After.State.(*State)
		if dat := s.leader("DAT"); len(s.enemiesNext(dat.Side, dat.Hex)) == 0 && len(s.linesInRange(dat, dat.Hex)) > 0 {
			return
		}
	}
	t.Errorf("the bot weighs no ride that takes Datames clear of the phalanx with his hoplites in range; rides weighed: %v", rides)
}

// Persian levies, light foot without missiles, stand in the front of
// the Companions. Horse charging light infantry from the front rolls +1
// on the weapons matrix besides its size and quality, the levies
// charging the horse -1 with the quality against them (8.3). The bot
// does not leave the levies there for the Macedonians to ride down.
func TestBotKeepsLeviesFromTheHorse(t *testing.T) {
	for _, lv := range []engine.Level{engine.Easy, engine.Normal} {
		t.Run(lv.String(), func(t *testing.T) {
			p := skirmish(t, lv,
				"gm|setup leader|id:DAT|name:Datames|side:1|at:0509|initiative:4|range:4",
				"gm|setup leader|id:ALX|name:Alexander|side:2|at:0503|initiative:6|range:4",
				"gm|setup unit|id:LEV|name:Levy|type:LI|side:1|at:0505|facing:NNE|line:Levy|tq:3|missile:none",
				"gm|setup unit|id:COM|name:Companions|type:HC|side:2|at:0504|facing:SSW|line:Companions|tq:8",
			)
			cmds := botActs(t, p, lv, 8)
			s := p.Game.State.(*State)
			lev, com := s.unit("LEV"), s.unit("COM")
			if lev.On() && slices.Contains(engine.FrontHexes(com.Hex, com.Facing), lev.Hex) {
				t.Errorf("the levies stand in %s, in the Companions' front, after %v", lev.Hex, cmds)
			}
		})
	}
}

// How the bot scores a position before any die is rolled (8.3): the
// Persians stand worse with their levies in the Companions' front than
// two hexes back out of it, and better with their own horse, free to
// charge, on the flank of a Macedonian phalanx than in front of its
// pikes. Nothing is lost or routed in any of these positions: only the
// shocks each side could make tell them apart.
func TestBotWeighsTheShocksToCome(t *testing.T) {
	p := skirmish(t, engine.Normal,
		"gm|setup leader|id:DAT|name:Datames|side:1|at:0509|initiative:4|range:4",
		"gm|setup leader|id:ALX|name:Alexander|side:2|at:0501|initiative:6|range:4",
		"gm|setup unit|id:LEV|name:Levy|type:LI|side:1|at:0505|facing:NNE|line:Levy|tq:3|missile:none",
		"gm|setup unit|id:PHC|name:Persian|type:HC|side:1|at:0908|facing:NNE|line:Cavalry",
		"gm|setup unit|id:COM|name:Companions|type:HC|side:2|at:0504|facing:SSW|line:Companions|tq:8",
		"gm|setup unit|id:PH1|name:Pezhetairoi|type:PH|side:2|at:0905|facing:SSW|line:Phalanx",
	)
	p.Must(t, "bot|activate|leader:DAT|line:Cavalry")
	base := p.Game.State.(*State)
	at := func(id string, h string, f engine.HexFacing) *State {
		s := base.clone()
		hex, err := engine.ParseHex(h)
		if err != nil {
			t.Fatal(err)
		}
		s.unit(id).Hex, s.unit(id).Facing = hex, f
		return s
	}
	if in, out := evaluate(at("LEV", "0505", engine.FacingNNE), "bot"), evaluate(at("LEV", "0507", engine.FacingNNE), "bot"); in >= out {
		t.Errorf("the levies in the Companions' front score %.3f, two hexes back %.3f", in, out)
	}
	ph := base.unit("PH1")
	flank, front := engine.FlankHexes(ph.Hex, ph.Facing)[0], engine.FrontHexes(ph.Hex, ph.Facing)[0]
	faceOf := func(from engine.Hex) engine.HexFacing {
		for _, f := range engine.HexFacings {
			if slices.Contains(engine.FrontHexes(from, f), ph.Hex) {
				return f
			}
		}
		t.Fatalf("no facing from %s has %s in front", from, ph.Hex)
		return 0
	}
	if fl, fr := evaluate(at("PHC", flank.String(), faceOf(flank)), "bot"), evaluate(at("PHC", front.String(), faceOf(front)), "bot"); fl <= fr {
		t.Errorf("the horse on the phalanx's flank (%s) scores %.3f, before its pikes (%s) %.3f", flank, fl, front, fr)
	}
}

// A book opened against the bot waits for its opener to take the side he
// wants, then the bot takes the other; one opened for two bots has them
// take the first side and the second at once. Until then the bot is not
// awaited, and the battle begins at the game master's /start.
func TestBotsTakeTheSidesLeft(t *testing.T) {
	seat := func(p *enginetest.Player) {
		t.Helper()
		for range 3 {
			awaits := New().Awaited(p.Game.State)
			if len(awaits) == 0 {
				return
			}
			level, ok := engine.IsBot(awaits[0].Player)
			if !ok {
				t.Fatalf("the battle awaits %s while it is set up", awaits[0].Player)
			}
			d, err := engine.Think(p.Game, awaits[0].Player, level)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Do(t, d.Command); err != nil {
				t.Fatalf("%s: %v", d.Command, err)
			}
		}
		t.Fatal("the bots still take sides after three steps")
	}
	holders := func(p *enginetest.Player) []engine.PlayerID {
		var out []engine.PlayerID
		for _, a := range p.Game.State.(*State).Armies {
			out = append(out, a.Player)
		}
		return out
	}

	p := enginetest.NewPlayer(t, New(), "alice", 1)
	p.Must(t, "alice|book open|scenario:plain|opponent:bot|level:easy")
	if got := New().Awaited(p.Game.State); len(got) != 0 {
		t.Fatalf("before alice chose, the battle awaits %v", got)
	}
	p.Must(t, "alice|side take|side:2")
	seat(p)
	if got, want := holders(p), []engine.PlayerID{"bot:easy", "alice"}; !slices.Equal(got, want) {
		t.Errorf("the sides are held by %v; want %v", got, want)
	}

	p = enginetest.NewPlayer(t, New(), "alice", 1)
	p.Must(t, "alice|book open|scenario:plain|opponent:bots")
	seat(p)
	if got, want := holders(p), []engine.PlayerID{"bot#1", "bot#2"}; !slices.Equal(got, want) {
		t.Errorf("the sides are held by %v; want %v", got, want)
	}
	p.Must(t, "alice|start")
	if got := New().Awaited(p.Game.State); len(got) != 1 || got[0].Player != "bot#1" {
		t.Errorf("after /start the battle awaits %v; want bot#1, whose Macedonians move first", got)
	}
}

// The hard level looks deeper than the engine's default (hardSearch), and
// the easy one shallower, at fewer candidates (easySearch).
func TestLevelsSearchAsTuned(t *testing.T) {
	enginetest.SearchesAsTuned(t, botBattle(t, "successors", 5, engine.Easy), engine.Hard, hardSearch, 40)
	enginetest.SearchesAsTuned(t, botBattle(t, "successors", 5, engine.Easy), engine.Easy, easySearch, 40)
}
