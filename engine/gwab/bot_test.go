package gwab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
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
	return placedBook(t)
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

// The bot goes for no empty chariot, which no one can fight or shoot
// (3.5): a chariot whose driver has fallen and that carries no one is no
// foe, and its own is.
func TestBotLeavesEmptyChariotsAlone(t *testing.T) {
	s := botBook(t).Game.State.(*State).Clone().(*State)
	ch := s.Element("TRO-CH")
	if !slices.Contains(s.foesOf("MYR"), ch) {
		t.Fatalf("the Trojans' manned chariot is not among the Myrmidons' foes")
	}
	ch.Driver, ch.Rider = false, ""
	if slices.Contains(s.foesOf("MYR"), ch) {
		t.Errorf("the Trojans' empty chariot is among the Myrmidons' foes")
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

// placedBook opens a book of two clans a side, the bot leading the
// Myrmidons and Lycians, puts the elements named in places (id, front
// centre, facing) where they are said to stand, and starts it.
func placedBook(t *testing.T, places ...[3]string) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", 11)
	p.Must(t, "alice|book open",
		"bot|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,sword,bow,javelin",
		"bot|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:spear,sword,bow,javelin",
		"bot#2|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow,javelin",
		"bot#2|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,sword,bow,javelin",
	)
	for _, pl := range places {
		if _, err := p.Do(t, directive("alice", "place", pl[0], pl[1], pl[2])); err != nil {
			t.Fatalf("#place %v: %v", pl, err)
		}
	}
	p.Must(t, "alice|book start")
	return p
}

// The bot weighs a melee before its cards are drawn (10.1.1): each
// pairing's wounds as likely as its cards make them, each at what it
// costs (worth). A Companion draws two cards against a warband's one, but
// his wounds cost three times as much: the bot's warband in contact with
// an antagonist Companion scores above the two apart, and its Companion
// in contact with an antagonist warband below. A last wound costs more
// when it fells the last leader of a clan, whose stands then leave the
// field (10.1.3).
func TestBotWeighsTheMeleeToCome(t *testing.T) {
	score := func(places ...[3]string) float64 {
		p := placedBook(t, places...)
		s := p.Game.State.(*State)
		if s.Fight != nil || s.Over() {
			t.Fatalf("the book is not waiting for a clan's action")
		}
		return evaluate(s, "bot")
	}
	apart := score([3]string{"MYR-W1", "30,20", "N"}, [3]string{"TRO-C1", "30,26", "S"}, [3]string{"MYR-C1", "20,20", "N"}, [3]string{"TRO-W1", "20,26", "S"})
	bandOnCompanion := score([3]string{"MYR-W1", "30,20", "N"}, [3]string{"TRO-C1", "30,20", "S"}, [3]string{"MYR-C1", "20,20", "N"}, [3]string{"TRO-W1", "20,26", "S"})
	companionOnBand := score([3]string{"MYR-W1", "30,20", "N"}, [3]string{"TRO-C1", "30,26", "S"}, [3]string{"MYR-C1", "20,20", "N"}, [3]string{"TRO-W1", "20,20", "S"})
	if !(bandOnCompanion > apart && companionOnBand < apart) {
		t.Errorf("MYR-W1 on a Companion scores %.4f, a Companion on TRO-W1 %.4f, both apart %.4f; want the first above and the second below", bandOnCompanion, companionOnBand, apart)
	}

	// Companion 1 of the Myrmidons, a wound from falling, against Hector:
	// with his Hero and the other Companion standing, and with both
	// fallen.
	p := placedBook(t, [3]string{"MYR-C1", "30,20", "N"}, [3]string{"TRO-H", "30,20", "S"})
	s := p.Game.State.(*State).Clone().(*State)
	s.Element("MYR-C1").Wounds = 2
	led, _, _ := s.pending("bot")
	s.Element("MYR-H").Status, s.Element("MYR-C2").Status = Fallen, Fallen
	alone, _, _ := s.pending("bot")
	if rest := alone/led - 1; rest < 1 {
		t.Errorf("Hector may cost the Myrmidons %.3f with their Hero standing, %.3f with only the Companion left; want the clan's warbands and chariot to count too", led, alone)
	}
}

// A fall that would end the book (6.2.4) is weighed as the end it brings:
// with the Lycians gone, Companion 1 of the Myrmidons in contact with
// Hector, the Trojans' last leader a wound from falling, scores below the
// two apart when the bot would then be left behind, and above them when
// it would be left ahead, though the Trojans lose the same either way.
func TestBotWeighsAFallThatEndsTheBook(t *testing.T) {
	score := func(contact bool, removed string) float64 {
		hector := "30,26"
		if contact {
			hector = "30,20"
		}
		p := placedBook(t, [3]string{"MYR-C1", "30,20", "N"}, [3]string{"TRO-H", hector, "S"})
		s := p.Game.State.(*State).Clone().(*State)
		for i := range s.Elements {
			el := &s.Elements[i]
			switch {
			case el.Clan == "LYC" && (el.Kind == Hero || el.Kind == Companion), el.ID == "TRO-C1", el.ID == "TRO-C2":
				el.Status = Fallen
			case el.Clan == "LYC":
				el.Status = Withdrawing
			case el.Kind == Warband && el.Clan == ClanTag(removed):
				el.Status = Removed
			}
		}
		s.Clan("LYC").Gone = true
		h := s.Element("TRO-H")
		h.Wounds = int16(s.woundLimit(h) - 1)
		if !s.fallEnds(h) {
			t.Fatalf("Hector's fall would not end the book")
		}
		return evaluate(s, "bot")
	}
	behindApart, behindContact := score(false, "MYR"), score(true, "MYR")
	aheadApart, aheadContact := score(false, "ACH"), score(true, "ACH")
	if !(behindContact < behindApart-0.1) {
		t.Errorf("left behind by Hector's fall: apart %.3f, in contact %.3f; want contact well below", behindApart, behindContact)
	}
	if !(aheadContact > aheadApart+0.1) {
		t.Errorf("left ahead by Hector's fall: apart %.3f, in contact %.3f; want contact well above", aheadApart, aheadContact)
	}
}

// A Hero challenges only an antagonist Hero he is at least as likely to
// kill as to fall to (10.2): as many wounds left as his foe, or more.
func TestBotChallengesWhenLikelierToWin(t *testing.T) {
	p := placedBook(t, [3]string{"MYR-H", "30,20", "N"}, [3]string{"TRO-H", "30,24", "S"})
	s := p.Game.State.(*State).Clone().(*State)
	a, h := s.Element("MYR-H"), s.Element("TRO-H")
	for _, c := range []struct {
		mine, his int16
		want      float64
	}{{0, 0, 0.5}, {2, 3, 0.75}, {3, 2, 0.25}, {0, 3, 15.0 / 16}, {1, 0, 11.0 / 32}} {
		a.Wounds, h.Wounds = c.mine, c.his
		if got := s.duelOdds(a, h); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Achilles with %d wounds against Hector with %d wins %.4f of duels; want %.4f", c.mine, c.his, got, c.want)
		}
	}
	challenges := func(mine int16) bool {
		c := p.Game.Clone()
		st := c.State.(*State)
		st.Element("MYR-H").Wounds = mine
		for _, cmd := range engine.Legal(c, "bot", rand.New(rand.NewPCG(1, 2))) {
			if cmd.Name == "challenge" && cmd.Opt("hero") == "TRO-H" {
				return true
			}
		}
		return false
	}
	if who := New().Awaited(p.Game.State)[0].Player; who != "bot" {
		t.Fatalf("%s acts first; want the bot", who)
	}
	if !challenges(0) {
		t.Errorf("an unhurt Achilles does not weigh challenging an unhurt Hector")
	}
	if challenges(1) {
		t.Errorf("Achilles with a wound weighs challenging an unhurt Hector")
	}
}

// The bot weighs every way of spending an impact it wins (10.1.3): all
// on the loser, the victor coming forward to keep up the melee, and a
// stride pushing back another antagonist stand of the melee; the rules
// take each.
func TestBotWeighsEveryImpactSpend(t *testing.T) {
	p := enginetest.NewPlayer(t, New(), "alice", 14)
	p.Must(t, "alice|book open|mode:practice",
		"bot|clan raise|name:Myrmidons|hero:Achilles|side:protagonist|warbands:spear,spear,bow",
		"bot|clan raise|name:Lycians|hero:Sarpedon|side:antagonist|warbands:sword,javelin,sling",
		"bob|clan raise|name:Trojans|hero:Hector|side:antagonist|warbands:spear,sword,bow",
		"bob|clan raise|name:Achaeans|hero:Ajax|side:protagonist|warbands:spear,spear,javelin",
	)
	for _, d := range []engine.Command{
		directive("alice", "place", "MYR-W1", "30,20", "N"),
		directive("alice", "place", "TRO-W1", "30,20", "S"),
		directive("alice", "place", "TRO-W2", "32,20", "S"),
		directive("alice", "stack", "sequence", "KS", "10S", "QS", "9S"),
	} {
		if _, err := p.Do(t, d); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
	}
	p.Must(t, "alice|book start", "bot|aloof", "bob|aloof", "bot|aloof")
	if _, err := p.Do(t, directive("alice", "stack", "combat", "9C", "5D", "3D", "8C")); err != nil {
		t.Fatal(err)
	}
	p.Must(t, "bob|aloof")
	s := p.Game.State.(*State)
	if s.Fight == nil || s.Fight.Impact == nil || s.Fight.Impact.Victor != "MYR-W1" {
		t.Fatalf("no impact of MYR-W1's to spend: %+v", s.Fight)
	}
	var got []string
	for _, c := range engine.Legal(p.Game, "bot", rand.New(rand.NewPCG(1, 2))) {
		got = append(got, c.String())
	}
	want := []string{"/impact", "/impact forward:MYR-W1", "/impact push:TRO-W2"}
	if !slices.Equal(got, want) {
		t.Errorf("the bot weighs %q; want %q", got, want)
	}
}

// The bot plays out one of each set of commands that come to the same
// thing: with a wounded warband a stride from Achilles, moving toward it
// all the way and moving a stride toward it both bring him to contact at
// the same spot, and only the first listed is played out.
func TestBotPlaysOutEachEffectOnce(t *testing.T) {
	p := placedBook(t, [3]string{"MYR-H", "30,20", "N"}, [3]string{"TRO-W1", "30,21", "S"})
	p.Game.State.(*State).Element("TRO-W1").Wounds = 2
	if who := New().Awaited(p.Game.State)[0].Player; who != "bot" {
		t.Fatalf("%s acts first; want the bot", who)
	}
	all, stride := "/move element:MYR-H toward:TRO-W1", "/move element:MYR-H strides:1 toward:TRO-W1"
	// A command's effect: where every element stands after it, to a
	// thousandth of a stride, and what it drew.
	effects := map[string]string{}
	for _, c := range engine.Legal(p.Game, "bot", rand.New(rand.NewPCG(1, 2))) {
		res, err := p.Game.Decide(c)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range res.Events {
			fmt.Fprintf(&b, "%s%v;", e.Body.Kind(), e.Draws)
		}
		for _, el := range res.After.State.(*State).Elements {
			fmt.Fprintf(&b, "%s %.3f,%.3f %v %d;", el.ID, el.Base.Center.X, el.Base.Center.Y, el.Base.Facing, el.Wounds)
		}
		effects[c.String()] = b.String()
	}
	if effects[all] == "" || effects[all] != effects[stride] {
		t.Fatalf("%s and %s do not come to the same; the test proves nothing", all, stride)
	}
	d, err := engine.Think(p.Game, "bot", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	played := map[string]string{}
	for _, w := range d.Weighed {
		if w.Playouts == 0 {
			continue
		}
		e := effects[w.Command.String()]
		if other, ok := played[e]; ok {
			t.Errorf("%s and %s, which come to the same events, were both played out", other, w.Command)
		}
		played[e] = w.Command.String()
	}
	if _, ok := played[effects[all]]; !ok {
		t.Errorf("Achilles closing with the wounded warband was not played out: %v", d.Weighed)
	}
}

// A playout draws a few of a player's commands at every step, and builds
// only those (engine.Lister): building a clan's whole turn of moves, a
// map of options each, to draw three of them was a fifth of a hard
// decision's time. The commands it builds are those candidates lists.
func TestPlayoutsBuildOnlyWhatTheyDraw(t *testing.T) {
	p := botBook(t)
	s := p.Game.State.(*State)
	who := New().Awaited(s)[0].Player
	n, at := listCandidates(s, who)
	all := candidates(s, who)
	if n != len(all) || n < 10 {
		t.Fatalf("the list holds %d commands, candidates %d; want the same, and a whole turn's", n, len(all))
	}
	for i, c := range all {
		if got := at(i); !reflect.DeepEqual(got, c) {
			t.Errorf("command %d of the list is %v; candidates lists %v", i, got, c)
		}
	}

	var listed, built int
	r := New()
	r.Strategy.Listed = func(s *State, player engine.PlayerID) (int, func(int) engine.Command) {
		n, at := listCandidates(s, player)
		listed += n
		return n, func(i int) engine.Command { built++; return at(i) }
	}
	g := p.Game.Clone()
	g.Rules = r
	if _, err := engine.Think(g, who, engine.Easy); err != nil {
		t.Fatal(err)
	}
	if listed == 0 || built*4 > listed {
		t.Errorf("the playouts built %d of the %d commands listed to them; want a few a step", built, listed)
	}
}
