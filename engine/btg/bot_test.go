package btg

import (
	"math/rand/v2"
	"reflect"
	"slices"
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

// The bot never peeks at the cards or dice to come: a position in which
// it must choose, with two different orders stacked for the movement
// deck and the dice loaded high in one and low in the other, gives the
// same decision, scores and all. The two futures do differ where the
// bot could look: at least one of its candidates plays out otherwise in
// them.
func TestBotDoesNotPeek(t *testing.T) {
	p := botBattle(t, "", 5, "6")
	aw := New()
	var who engine.PlayerID
	for steps := 0; ; steps++ {
		if steps > 400 || p.Game.State.Over() {
			t.Fatal("the bots came to no choice that rolls dice")
		}
		who = aw.Awaited(p.Game.State)[0].Player
		if p.Game.State.(*State).Stage == Movement {
			rolls := 0
			for _, c := range engine.Legal(p.Game, who, rand.New(rand.NewPCG(1, 2))) {
				if c.Name == "charge" || c.Name == "fire" {
					rolls++
				}
			}
			if rolls > 0 {
				break
			}
		}
		enginetest.BotStep(t, p, who)
	}
	futures := []struct {
		cards []string
		die   int
	}{{[]string{"KH", "QD", "JH", "KD"}, 1}, {[]string{"2S", "3C", "4S", "5C"}, 6}}
	var games []*engine.Game
	var weighed [][]engine.Scored
	for _, f := range futures {
		g := p.Game.Clone()
		for j := range g.Table.Decks {
			g.Table.Decks[j].Stacked = nil
			for _, c := range f.cards {
				card, err := engine.ParseCard(c)
				if err != nil {
					t.Fatal(err)
				}
				if g.Table.Decks[j].Draw.Has(card) {
					g.Table.Decks[j].Stacked = append(g.Table.Decks[j].Stacked, card)
				}
			}
		}
		g.Table.Loaded = map[engine.Die][]int{engine.D6: slices.Repeat([]int{f.die}, 60), engine.TwoD6: slices.Repeat([]int{f.die * 2}, 20)}
		d, err := engine.Think(g, who, engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		games, weighed = append(games, g), append(weighed, d.Weighed)
	}
	if !reflect.DeepEqual(weighed[0], weighed[1]) {
		t.Errorf("the bot decides differently on cards and dice it cannot see:\n%v\n%v", weighed[0], weighed[1])
	}
	if len(weighed[0]) < 2 {
		t.Fatalf("the bot weighed %d candidates; want a choice", len(weighed[0]))
	}
	differ := false
	for _, sc := range weighed[0] {
		a, errA := games[0].Decide(sc.Command)
		b, errB := games[1].Decide(sc.Command)
		if errA != nil || errB != nil || !reflect.DeepEqual(a.Events, b.Events) {
			differ = true
			break
		}
	}
	if !differ {
		t.Error("the two futures play out alike for every candidate; the test proves nothing")
	}
}

// The bot raises its own army: while the book musters it picks one of
// the sample armies, which the rules take, for each of two seats; then
// the two fight a one-turn battle to its end.
func TestBotPicksAnArmy(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "alice", 3)
	p.Must(t, "alice|book open|turns:1")
	for _, who := range []engine.PlayerID{"bot:easy", "bot:easy#2"} {
		d, err := engine.Think(p.Game, who, engine.Easy)
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		if d.Command.Name != "army pick" {
			t.Fatalf("%s gave %s while the book musters; want an army pick", who, d.Command)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
	}
	s := p.Game.State.(*State)
	if s.Stage != Deploying || len(s.Armies) != 2 {
		t.Fatalf("after both bots picked: stage %s with %d armies", s.Stage, len(s.Armies))
	}
	if d, err := engine.Think(p.Game, "bot:easy", engine.Easy); err != nil || d.Command.Name == "army pick" {
		t.Errorf("a bot leading an army was offered another: %v, %v", d.Command, err)
	}
	enginetest.PlayBots(t, p, 500)
}

// The bot holding the game master's seat answers each event that waits
// for his judgement (§6) with a decision the rules take, and the battle
// goes on.
func TestBotDecidesEvents(t *testing.T) {
	p := botBattle(t, "river", 5, "3")
	p.Must(t, "bot:easy|done", "bot:easy#2|done")
	for _, j := range []Judgement{
		{Event: "Baptism", Side: BlackSide},
		{Event: "Lost and Found", Side: RedSide, Unit: "PER-1"},
		{Event: "Rivals", Side: BlackSide, Unit: "SPA-1"},
	} {
		g := p.Game.Clone()
		s := g.State.(*State)
		s.Judge = &j
		d, err := engine.Think(g, "alice", engine.Easy)
		if err != nil {
			t.Fatalf("%s: %v", j.Event, err)
		}
		res, err := g.Decide(d.Command)
		if err != nil {
			t.Fatalf("%s: the rules refuse the bot's %s: %v", j.Event, d.Command, err)
		}
		if res.After.State.(*State).Judge != nil {
			t.Errorf("%s: after %s the event still waits", j.Event, d.Command)
		}
		if _, err := engine.Think(g, "bot:easy", engine.Easy); err == nil {
			t.Errorf("%s: a player was offered a command while the game master decides", j.Event)
		}
	}
}

// The bot keeps its minor leaders out of command, where Traitors! (§6)
// would march one off the table with his unit: in deployment it places
// each alone before it lays out its units, and on a black face card it
// passes rather than send one to a unit, for certain, not as a search
// that might go either way.
func TestBotKeepsMinorLeadersAlone(t *testing.T) {
	p := botBattle(t, "", 5, "6")
	var gave []string
	for len(gave) < 4 {
		d, err := engine.Think(p.Game, "bot:easy", engine.Easy)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
		gave = append(gave, d.Command.String())
		if d.Command.Name == "done" {
			break
		}
	}
	s := p.Game.State.(*State)
	minors := 0
	for _, l := range s.Leaders {
		if l.Side == BlackSide && !l.Supreme {
			minors++
			if !l.Placed || l.Unit != "" {
				t.Errorf("after deploying (%v), %s commands %q; want him placed alone", gave, l.ID, l.Unit)
			}
		}
	}
	if minors == 0 {
		t.Fatal("the army has no minor leader; the test proves nothing")
	}
	if g := s.general(BlackSide); g == nil || g.Unit == "" {
		t.Errorf("after deploying (%v), the general commands no unit", gave)
	}

	g := p.Game.Clone()
	gs := g.State.(*State)
	gs.Stage, gs.Card = Movement, &Card{Side: BlackSide, Leaders: true}
	if n := len(gs.leaderCandidates("bot:easy", BlackSide)); n == 0 {
		t.Fatal("no leader of the bot's may go to a unit; the test proves nothing")
	}
	d, err := engine.Think(g, "bot:easy", engine.Easy)
	if err != nil {
		t.Fatal(err)
	}
	if d.Command.Name != "done" || d.Weighed[0].Chance != 1 {
		t.Errorf("on a black face card with its minor leaders alone the bot gave %s (chance %v); want /done for certain", d.Command, d.Weighed[0].Chance)
	}
}

// The hard level looks deeper than the engine's default (hardSearch).
func TestHardSearchesAsTuned(t *testing.T) {
	enginetest.SearchesAsTuned(t, botBattle(t, "", 5, "2"), engine.Hard, hardSearch, 60)
}
