package sweet

import (
	"reflect"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// botGame opens a small game on ground (a prepared scenario, or none)
// whose two armies the bot leads, a normal bot in the south and an easy
// one in the north.
func botGame(t testing.TB, ground string, seed uint64, turns string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", seed)
	p.Must(t, "alice|book open|size:10x8|turns:"+turns)
	if ground != "" {
		p.Must(t, "alice|scenario load|name:"+ground)
	}
	p.Must(t,
		"bot|army build|name:Romans|units:1 CMD, 2 HI, 1 LI, 1 HCAT, 1 FCR, 1 LC, 1 EL",
		"bot:easy#2|army build|name:Gauls|tag:GAU|units:1 SUB, 2 HI, 1 LI, 1 HC, 1 PHA, 1 LCH",
	)
	return p
}

// Two bots fight each prepared ground to the end: every step is one the
// rules take, the game ends, and its log replays to the same game.
func TestBotsPlayEachScenario(t *testing.T) {
	for _, sc := range append([]engine.Scenario{{Name: "open field"}}, scenarios...) {
		t.Run(sc.Name, func(t *testing.T) {
			ground := sc.Name
			if ground == "open field" {
				ground = ""
			}
			p := botGame(t, ground, 7, "3")
			steps := enginetest.PlayBots(t, p, 2000)
			t.Logf("%s: %d steps: %s", sc.Name, steps, p.Game.State.(*State).Result)
		})
	}
}

// The bot never peeks: a position it must decide in, with the Gauls'
// indicator for a melee laid face down and the dice loaded for what is
// to come, gives the same decision, scores and all, whichever indicator
// lies there and whatever the dice will show.
func TestBotDoesNotPeek(t *testing.T) {
	p := botGame(t, "", 7, "12")
	aw := New()
	var sealed *Melee
	for steps := 0; sealed == nil; steps++ {
		if steps > 2000 || p.Game.State.Over() {
			t.Fatal("no melee came where the Gauls chose first")
		}
		s := p.Game.State.(*State)
		if s.Stage == Melees {
			for i := range s.Melees {
				m := &s.Melees[i]
				if !m.Resolved && m.Choice[North] != NoMDI && m.Choice[South] == NoMDI {
					sealed = m
				}
			}
			if sealed != nil {
				break
			}
		}
		awaits := aw.Awaited(s)
		who := awaits[0].Player
		// Let the Gauls lay their indicators first.
		for _, a := range awaits {
			if a.Player != "bot" {
				who = a.Player
			}
		}
		enginetest.BotStep(t, p, who)
	}
	var decided [][]engine.Scored
	for i, choice := range []MDI{Line, Pincers} {
		g := p.Game.Clone()
		s := g.State.(*State)
		for j := range s.Melees {
			if s.Melees[j].At == sealed.At {
				s.Melees[j].Choice[North] = choice
			}
		}
		g.Table.Loaded = map[engine.Die][]int{engine.D6: {1 + 5*i, 1 + 5*i, 1 + 5*i}}
		d, err := engine.Think(g, "bot", engine.Hard)
		if err != nil {
			t.Fatal(err)
		}
		decided = append(decided, d.Weighed)
	}
	if !reflect.DeepEqual(decided[0], decided[1]) {
		t.Errorf("the bot decides differently on what it cannot see:\n%v\n%v", decided[0], decided[1])
	}
	if len(decided[0]) < 2 {
		t.Errorf("the bot weighed %d indicators for the melee at %s; want them all", len(decided[0]), sealed.At)
	}
}

// The bot commands only its own side: through a whole battle, every
// candidate it weighs for a unit (a move, a shot, a support, a facing)
// names one of the units it leads, and it never weighs a second move for
// a unit in one turn (Movement).
func TestBotCommandsItsOwnUnits(t *testing.T) {
	p := botGame(t, "", 7, "3")
	rules := New()
	for steps := 0; !p.Game.State.Over(); steps++ {
		if steps > 2000 {
			t.Fatal("the battle did not end")
		}
		s := p.Game.State.(*State)
		aw := rules.Awaited(s)
		if len(aw) == 0 {
			t.Fatal("no one is awaited")
		}
		who := aw[0].Player
		side, ok := s.sideOf(who, South)
		if !ok {
			t.Fatalf("%s leads no army", who)
		}
		for _, c := range rules.Propose(s, who) {
			if id := c.Opt("unit"); id != "" && id != "all" {
				u := s.Unit(UnitID(id))
				if u == nil || u.Side != side {
					t.Fatalf("step %d: the bot for the %s weighs %s, which names a unit not theirs", steps, s.Armies[side].Name, c)
				}
				// A unit moves once a turn, and only on the board.
				if c.Name == "move" && (u.Moved || !u.OnBoard()) {
					t.Fatalf("step %d: the bot for the %s weighs %s, a unit that has moved or is off the board", steps, s.Armies[side].Name, c)
				}
			}
		}
		enginetest.BotStep(t, p, who)
	}
}

// meleeGame sets the Romans' heavy infantry ROM-1 in E4 facing the
// Macedonians in E5, each side with the other units placed as given
// ("MAC-2 D5 S"), and brings the game to the Romans' movement.
func meleeGame(t *testing.T, romans, macedonians string, places ...string) *enginetest.Player {
	t.Helper()
	return fieldGame(t, romans, macedonians, append([]string{"ROM-1 E4 N", "MAC-1 E5 S"}, places...)...)
}

// fieldGame places the Romans' and the Macedonians' units as given
// ("MAC-2 D5 S"), the rest along their edges, and brings the game to the
// Romans' movement on a 12 by 10 board, neither side shooting.
func fieldGame(t *testing.T, romans, macedonians string, places ...string) *enginetest.Player {
	t.Helper()
	return groundGame(t, "", romans, macedonians, places...)
}

// groundGame is fieldGame on ground laid by the game master's line
// ground ("/setup terrain …"), or open ground when it is empty.
func groundGame(t *testing.T, ground, romans, macedonians string, places ...string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 1)
	lines := []string{"@alice /book open size:12x10"}
	if ground != "" {
		lines = append(lines, ground)
	}
	lines = append(lines,
		`/army build name:Romans units:"`+romans+`"`,
		`@bob /army build name:Macedonians tag:MAC units:"`+macedonians+`"`,
	)
	for _, pl := range places {
		lines = append(lines, "@alice #place "+pl)
	}
	lines = append(lines, "@alice /done", "#load d6 6 1", "@bob /done")
	doLines(t, p, lines...)
	// Where a catapult or a missile unit could shoot, each side passes.
	for steps := 0; steps < 4; steps++ {
		s := p.Game.State.(*State)
		if s.Stage != Catapults && s.Stage != Missiles {
			break
		}
		p.Must(t, string(New().Awaited(s)[0].Player)+"|done")
	}
	if s := p.Game.State.(*State); s.Stage != Movement || s.Attacker != South {
		t.Fatalf("the game is at %s with the %s attacking; want the Romans' movement", s.Stage, s.armyName(s.Attacker))
	}
	return p
}

// The bot counts a melee to come before it is fought (Melee Procedure):
// a charge into a square the enemy can support four to one scores below
// standing still, and one that the Romans' own supports make three to one
// scores above it.
func TestBotWeighsTheMeleeToCome(t *testing.T) {
	for _, tc := range []struct {
		name        string
		macedonians string
		places      []string
		better      bool
	}{
		{"into four heavy infantry", "4 HI", []string{"MAC-2 D5 S", "MAC-3 F5 S", "MAC-4 E6 S"}, false},
		{"with two in support", "1 HI", []string{"ROM-2 D5 E", "ROM-3 F5 W"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := meleeGame(t, "3 HI", tc.macedonians, tc.places...)
			before := evaluate(p.Game.State.(*State), "alice")
			res, err := p.Game.Decide(engine.Command{Actor: "alice", Name: "move", Options: map[string]string{"unit": "ROM-1", "to": "E5"}})
			if err != nil {
				t.Fatal(err)
			}
			after := evaluate(res.After.State.(*State), "alice")
			if (after > before) != tc.better {
				t.Errorf("charging scores %.3f against %.3f standing still; want it %s", after, before, map[bool]string{true: "higher", false: "lower"}[tc.better])
			}
		})
	}
}

// Melee indicators are laid at once, so the bot draws its own from a mix
// that no answer beats: with the two sides alike, each of the five
// formations about as often and a withdrawal, which gets away from only
// two of them and loses to three, next to never (Melee Procedure). The
// draw follows the game's seed and step, so it is the same when asked
// again.
func TestBotMixesItsIndicators(t *testing.T) {
	p := meleeGame(t, "1 HI, 1 LI", "1 HI, 1 LI", "ROM-2 A1 N", "MAC-2 L10 S")
	p.Must(t, "alice|move|unit:ROM-1|to:E5", "alice|done")
	s := p.Game.State.(*State)
	if s.Stage != Melees {
		t.Fatalf("the game is at %s; want the melees", s.Stage)
	}
	d, err := engine.Think(p.Game, "alice", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := engine.Think(p.Game, "alice", engine.Normal)
	if !reflect.DeepEqual(d, again) {
		t.Errorf("the bot chose %s, then %s, in the same position", d.Command, again.Command)
	}
	if len(d.Weighed) != len(MDIs) {
		t.Fatalf("the bot weighed %d indicators; want %d", len(d.Weighed), len(MDIs))
	}
	for _, w := range d.Weighed {
		m, _ := parseMDI(w.Command.Options["choice"])
		want, slack := 0.2, 0.03
		if m == Withdrawal {
			want = 0
		}
		if w.Chance < want-slack || w.Chance > want+slack {
			t.Errorf("the bot lays %s %.1f%% of the time; want about %.0f%%", m, 100*w.Chance, 100*want)
		}
	}
}

// The bot picks its army from the sample lists by the game's seed, not
// always the first: over a few books it leads more than one, and the
// same seed gives the same list.
func TestBotPicksAnArmy(t *testing.T) {
	lists := map[string]bool{}
	for seed := range uint64(6) {
		p := enginetest.NewPlayer(t, New(), "alice", seed)
		p.Must(t, "alice|book open|size:10x8|turns:3")
		d, err := engine.Think(p.Game, "bot", engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := engine.Think(p.Game, "bot", engine.Normal)
		if d.Command.String() != again.Command.String() {
			t.Errorf("seed %d: the bot picked %s, then %s", seed, d.Command, again.Command)
		}
		if d.Command.Name != "army pick" {
			t.Fatalf("seed %d: the bot gave %s; want an army pick", seed, d.Command)
		}
		lists[d.Command.Options["list"]] = true
	}
	if len(lists) < 2 {
		t.Errorf("over six books the bot led only %v", lists)
	}
}

// The bot asks for its elephants' roll before it moves (Charging and Melee
// 6): it weighs /elephant for one with an enemy within a move, and once the
// roll lets it charge, it weighs the charge and not a second roll.
func TestBotRollsForItsElephants(t *testing.T) {
	p := meleeGame(t, "1 EL, 1 HI", "1 HI", "ROM-2 A1 N")
	weighs := func(name, unit, to string) bool {
		for _, c := range New().Propose(p.Game.State.(*State), "alice") {
			if c.Name == name && c.Opt("unit") == unit && c.Opt("to") == to {
				return true
			}
		}
		return false
	}
	if !weighs("elephant", "ROM-1", "") {
		t.Fatalf("the bot does not weigh rolling for its elephant ROM-1 before movement")
	}
	for _, text := range []string{"#load d6 1", "@alice /elephant unit:ROM-1"} {
		l, err := engine.ParseLine(text)
		if err != nil {
			t.Fatal(err)
		}
		l.Command.Actor = "alice"
		if _, err := p.Do(t, l.Command); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	if s := p.Game.State.(*State); !s.Unit("ROM-1").Rolled {
		t.Fatal("ROM-1 did not roll")
	}
	if !weighs("move", "ROM-1", "E5") {
		t.Fatalf("the bot does not weigh the charge its elephant's roll of 1 allows")
	}
	if weighs("elephant", "ROM-1", "") {
		t.Fatalf("the bot weighs a second roll for ROM-1")
	}
}

// doLines gives p's game the lines of a book as a player types them
// ("@alice /move unit:ROM-2 to:D5", "#stands MAC-1 2"), each by the
// last user named.
func doLines(t *testing.T, p *enginetest.Player, lines ...string) {
	t.Helper()
	user := engine.PlayerID("")
	for _, text := range lines {
		l, err := engine.ParseLine(text)
		if err != nil {
			t.Fatal(err)
		}
		if l.User != "" {
			user = l.User
		}
		l.Command.Actor = user
		if _, err := p.Do(t, l.Command); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
}

// A unit supports one melee a turn (Charging and Melee 2). The Romans'
// commander stands beside two charges into heavy infantry down to two
// stands, and his support would make either melee three to one. With the
// supports still to declare, the Romans' score may count him in one of
// the two, not both: it is no higher than after he is sent to the better
// one. (Counted in both, he scores higher before he is sent.)
func TestBotCountsACommanderOnce(t *testing.T) {
	p := fieldGame(t, "1 CMD, 2 HI", "3 HI",
		"ROM-1 E4 N", "ROM-2 D4 N", "ROM-3 F4 N",
		"MAC-1 D5 S", "MAC-2 F5 S", "MAC-3 J8 S")
	doLines(t, p, "@alice #stands MAC-1 2 MAC-2 2",
		"@alice /move unit:ROM-2 to:D5", "/move unit:ROM-3 to:F5", "/done")
	s := p.Game.State.(*State)
	if s.Stage != Supports || len(s.Melees) != 2 {
		t.Fatalf("the game is at %s with %d melees; want the supports for two", s.Stage, len(s.Melees))
	}
	best := -2.0
	for _, at := range []string{"D5", "F5"} {
		res, err := p.Game.Decide(engine.Command{Actor: "alice", Name: "support", Options: map[string]string{"unit": "ROM-1", "melee": at}})
		if err != nil {
			t.Fatal(err)
		}
		best = max(best, evaluate(res.After.State.(*State), "alice"))
	}
	if now := evaluate(s, "alice"); now > best+1e-9 {
		t.Errorf("with the commander's support still to declare the Romans score %.3f; sent to the better melee, %.3f: the bot counts him twice", now, best)
	}
}

// An army destroyed loses the game, whatever the catapults it leaves on
// the board are worth (Morale 4; RULINGS.md, sweet, "Destroyed"), and
// the bot scores the end as the table was told it. The Macedonians'
// last light infantry stand falls to a charge, and their heavy catapult
// (8 points) outweighs the Romans' heavy infantry (6): the Romans score
// the game as won, the Macedonians as lost. (Scored on the points, as
// the bot did, the Romans lost it.)
func TestBotScoresADestroyedArmyAsBeaten(t *testing.T) {
	p := fieldGame(t, "1 HI", "1 LI, 1 HCAT", "ROM-1 E4 N", "MAC-1 E5 S", "MAC-2 J9 S")
	doLines(t, p, "@alice #stands ROM-1 2 MAC-1 1",
		"@alice /move unit:ROM-1 to:E5", "/done",
		"@alice /mdi choice:line", "@bob /mdi choice:column")
	s := p.Game.State.(*State)
	if s.Stage != Over {
		t.Fatalf("the game is at %s; want it over", s.Stage)
	}
	t.Log(s.Result)
	if got := evaluate(s, "alice"); got != 1 {
		t.Errorf("the Romans, who destroyed the Macedonians, score %.3f; want 1", got)
	}
	if got := evaluate(s, "bob"); got != -1 {
		t.Errorf("the destroyed Macedonians score %.3f; want -1", got)
	}
}

// A catapult in the contact square does not fight, but the side that
// destroys its guard there takes it (Melee Procedure). Three Roman heavy
// infantry charge a Macedonian heavy infantry unit; with the
// Macedonians' heavy catapult beside it in the contact square the
// charge scores higher for the Romans than with the catapult far off,
// since the melee may hand it to them.
func TestBotCountsTheCatapultAtStake(t *testing.T) {
	charge := func(catapult string) float64 {
		t.Helper()
		p := meleeGame(t, "3 HI", "1 HI, 1 HCAT", "ROM-2 D5 E", "ROM-3 F5 W", "MAC-2 "+catapult+" S")
		res, err := p.Game.Decide(engine.Command{Actor: "alice", Name: "move", Options: map[string]string{"unit": "ROM-1", "to": "E5"}})
		if err != nil {
			t.Fatal(err)
		}
		return evaluate(res.After.State.(*State), "alice")
	}
	with, without := charge("E5"), charge("L10")
	if with <= without {
		t.Errorf("the charge scores %.3f for the Romans with the catapult in the contact square and %.3f with it far off; want it higher where they may take it", with, without)
	}
}

// A unit that cannot retreat from a melee it loses is destroyed instead
// (Melee Procedure). Three Roman heavy infantry charge a Macedonian one;
// with impassable ground across the Macedonians' way back the charge
// scores higher for the Romans than on open ground, since a retreat there
// costs the Macedonians the whole unit.
func TestBotCountsAUnitWithNoWayBack(t *testing.T) {
	charge := func(ground string) float64 {
		t.Helper()
		p := groundGame(t, ground, "3 HI", "1 HI", "ROM-1 E4 N", "MAC-1 E5 S", "ROM-2 D5 E", "ROM-3 F5 W")
		res, err := p.Game.Decide(engine.Command{Actor: "alice", Name: "move", Options: map[string]string{"unit": "ROM-1", "to": "E5"}})
		if err != nil {
			t.Fatal(err)
		}
		return evaluate(res.After.State.(*State), "alice")
	}
	trapped, open := charge(`/setup terrain kind:impassable where:"D6 E6 F6" name:cliffs`), charge("")
	t.Logf("cliffs %.3f, open %.3f", trapped, open)
	if trapped <= open {
		t.Errorf("the charge scores %.3f for the Romans with cliffs behind the Macedonians and %.3f on open ground; want it higher where they cannot retreat", trapped, open)
	}
}
