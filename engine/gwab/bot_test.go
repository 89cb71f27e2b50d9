package gwab

import (
	"reflect"
	"slices"
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
	// draw cards, and then to a position that offers a choice (a Hero
	// hemmed in during a duel, for one, can only fight on).
	for i := 0; ; i++ {
		a := aw.Awaited(p.Game.State)[0]
		d, err := engine.Think(p.Game, a.Player, engine.Easy)
		if err != nil {
			t.Fatal(err)
		}
		if i >= 40 && len(d.Weighed) >= 2 || i >= 80 {
			break
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

// botBook opens a book of two clans a side for two bots and starts it.
func botBook(t *testing.T) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 11)
	p.Must(t, "alice|book open",
		"bot|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,sword,bow,javelin",
		"bot|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:spear,sword,bow,javelin",
		"bot#2|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow,javelin",
		"bot#2|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,sword,bow,javelin",
		"alice|book start",
	)
	return p
}

// A wound costs the bot by the share of the element's wound limit it
// takes (10.1.3): each of its Hero's wounds costs it as much as the one
// before, and a Hero one wound from falling still counts for more than a
// fallen one but for less than an unhurt Companion, who may take his
// place (3.2).
func TestBotWeighsWounds(t *testing.T) {
	p := botBook(t)
	s := p.Game.State.(*State)
	score := func(wounds int16, status Status) float64 {
		c := engine.Copy(s)
		h := c.Element("MYR-H")
		h.Wounds, h.Status = wounds, status
		return evaluate(c, "bot")
	}
	fresh, one, two, three := score(0, Standing), score(1, Standing), score(2, Standing), score(3, Standing)
	fallen := score(0, Fallen)
	if !(fresh > one && one > two && two > three && three > fallen) {
		t.Errorf("Achilles unhurt scores %.4f, with 1 to 3 wounds %.4f %.4f %.4f, fallen %.4f; want each lower", fresh, one, two, three, fallen)
	}
	if d1, d2 := fresh-one, one-two; d2 < d1-1e-9 {
		t.Errorf("his first wound costs %.4f, his second %.4f; want the second to cost no less", d1, d2)
	}
	c := engine.Copy(s)
	h := c.Element("MYR-H")
	comp := c.worth(c.Element("MYR-C1"))
	if c.worth(h) <= comp {
		t.Errorf("an unhurt Hero is worth %.2f, a Companion %.2f; want the Hero more", c.worth(h), comp)
	}
	h.Wounds = int16(c.woundLimit(h) - 1)
	if c.worth(h) >= comp {
		t.Errorf("a Hero one wound from falling is worth %.2f, an unhurt Companion %.2f; want the Hero less", c.worth(h), comp)
	}
}

// The bot weighs going for the nearest antagonist Hero or Companion and
// the nearest wounded antagonist, not only the nearest three of any kind:
// here the farthest warband, wounded.
func TestBotSeeksLeadersAndTheWounded(t *testing.T) {
	p := botBook(t)
	s := p.Game.State.(*State)
	el := s.Element("MYR-W1")
	var far, leader *Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if !s.Antagonists(el.Clan, e.Clan) || e.Status != Standing || !e.Placed {
			continue
		}
		d := e.Base.Center.Dist(el.Base.Center)
		if e.Kind == Warband && (far == nil || d > far.Base.Center.Dist(el.Base.Center)) {
			far = e
		}
		if (e.Kind == Hero || e.Kind == Companion) && (leader == nil || d < leader.Base.Center.Dist(el.Base.Center)) {
			leader = e
		}
	}
	far.Wounds = 1
	if slices.Contains(s.nearestFoes(el), far) {
		t.Fatalf("%s is among the nearest three to %s", far.ID, el.ID)
	}
	got := s.targets(el)
	for _, want := range []*Element{far, leader} {
		if !slices.Contains(got, want) {
			t.Errorf("%s weighs going for %v but not %s", el.ID, ids(got), want.ID)
		}
	}
}

func ids(els []*Element) []ElementID {
	var out []ElementID
	for _, e := range els {
		out = append(out, e.ID)
	}
	return out
}

// At the first clan's turn most commands score alike one step ahead (a
// move draws no card), so a short list would be the first listed: the
// normal bot plays out the 8 that look best, and the hard one every
// command it could give, as /why shows.
func TestHardBotWeighsEveryCommand(t *testing.T) {
	p := botBook(t)
	who := New().Awaited(p.Game.State)[0].Player
	tried := func(l engine.Level) (played, all int) {
		d, err := engine.Think(p.Game, who, l)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range d.Weighed {
			if s.Playouts > 0 {
				played++
			}
		}
		return played, len(d.Weighed)
	}
	if played, all := tried(engine.Normal); played != 8 || all <= 8 {
		t.Errorf("normal played out %d of %d commands; want 8 of more", played, all)
	}
	if played, all := tried(engine.Hard); played != all {
		t.Errorf("hard played out %d of %d commands; want all", played, all)
	}
}

// A finished book is settled (6.2): the bot counts ending it while behind
// as a loss, worse than playing on from the same position, and ending it
// while ahead, however narrowly, as a win, better than playing on.
func TestBotWeighsTheEndOfTheBook(t *testing.T) {
	p := botBook(t)
	s := p.Game.State.(*State)
	// score wounds the Hero of the clan tagged tag (the bot's Myrmidons
	// or the other player's Trojans) and sets the book's phase.
	score := func(tag string, wounds int16, phase Phase) float64 {
		c := engine.Copy(s)
		c.Element(ElementID(tag + "-H")).Wounds = wounds
		c.Phase = phase
		return evaluate(c, "bot")
	}
	behindOn, behindOver := score("MYR", 2, Playing), score("MYR", 2, Ended)
	aheadOn, aheadOver := score("TRO", 1, Playing), score("TRO", 1, Ended)
	if behindOn >= 0 || aheadOn <= 0 {
		t.Fatalf("a wounded Achilles scores %.3f, a wounded Hector %.3f; want the first behind and the second ahead", behindOn, aheadOn)
	}
	if behindOver > -0.8 || behindOver >= behindOn {
		t.Errorf("the book ended behind scores %.3f, played on from there %.3f; want a loss, below playing on", behindOver, behindOn)
	}
	if aheadOver < 0.8 || aheadOver <= aheadOn {
		t.Errorf("the book ended ahead scores %.3f, played on from there %.3f; want a win, above playing on", aheadOver, aheadOn)
	}
}
