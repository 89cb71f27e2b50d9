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
		level, _ := engine.IsBot(who)
		d, err := engine.Think(p.Game, who, level)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
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
// names one of the units it leads.
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
				if u := s.Unit(UnitID(id)); u == nil || u.Side != side {
					t.Fatalf("step %d: the bot for the %s weighs %s, which names a unit not theirs", steps, s.Armies[side].Name, c)
				}
			}
		}
		level, _ := engine.IsBot(who)
		d, err := engine.Think(p.Game, who, level)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
	}
}
