package goliath

import (
	"reflect"
	"slices"
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
				t.Parallel() // each battle is a game of its own
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

// peeker is Goliath with the bot's concealment switched off: a bot
// playing it reads the other side's sealed orders.
type peeker struct {
	engine.Ruleset
	engine.Strategist
	engine.Awaiter
}

// The bot never peeks: when the Horde have written and sealed their
// orders and the Kingdom's bot writes its own, the same position with
// other orders under the Horde's seal, and other dice to come, gives the
// same decision, scores and all. With the concealment switched off the
// bot reads the seal, and the two positions are weighed apart.
func TestBotDoesNotPeek(t *testing.T) {
	p := botGame(t, "", "orders", 7, "6", false)
	aw := New()
	for steps := 0; ; steps++ {
		s := p.Game.State.(*State)
		if steps > 500 || s.Stage == Over {
			t.Fatal("no turn came where the Horde wrote their orders first")
		}
		if s.Stage == Orders && s.Armies[North].Done && !s.Armies[South].Done && len(s.Orders) > 0 && s.Turn > 1 {
			break
		}
		awaits := aw.Awaited(s)
		who := awaits[0].Player
		// Let the Horde write first.
		for _, a := range awaits {
			if a.Player == s.Armies[North].Player {
				who = a.Player
			}
		}
		enginetest.BotStep(t, p, who)
	}
	kingdom := p.Game.State.(*State).Armies[South].Player
	// Two sealings the Kingdom cannot tell apart: the Horde's orders as
	// they wrote them, and every one of those units charging its nearest
	// enemy instead (or holding, where it has no charge), with the dice
	// loaded apart.
	variants := func(rules engine.Ruleset) [2]*engine.Game {
		var out [2]*engine.Game
		for i := range out {
			g := p.Game.Clone()
			g.Rules = rules
			s := g.State.(*State)
			if i == 1 {
				for j := range s.Orders {
					o := &s.Orders[j]
					u := s.Unit(o.Unit)
					if o.Side != North || u == nil {
						continue
					}
					text := "hold"
					if f := s.foes(u); len(f) > 0 && u.Profile.Chg > 0 {
						text = "charge " + f[0].ID
					}
					if text == o.Text {
						text = "hold"
					}
					alt, err := s.parseOrder(u, text)
					if err != nil {
						t.Fatal(err)
					}
					*o = alt
				}
			}
			g.Table.Loaded = map[engine.Die][]int{engine.D6: {1 + 5*i, 1 + 5*i, 1 + 5*i}}
			out[i] = g
		}
		return out
	}
	weigh := func(gs [2]*engine.Game) [2][]engine.Scored {
		var out [2][]engine.Scored
		for i, g := range gs {
			// The easy level conceals as the others do, and the peeking
			// check below shows it reads what it is given: a quarter of
			// the time of the normal level's search, for the same check.
			d, err := engine.Think(g, kingdom, engine.Easy)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = d.Weighed
		}
		return out
	}
	fair := weigh(variants(New()))
	if !reflect.DeepEqual(fair[0], fair[1]) {
		t.Errorf("the bot decides differently on orders it cannot see:\n%v\n%v", fair[0], fair[1])
	}
	if len(fair[0]) < 2 {
		t.Errorf("the bot weighed %d orders; want a choice", len(fair[0]))
	}
	r := New()
	peeked := weigh(variants(peeker{Ruleset: r, Strategist: r, Awaiter: r}))
	if reflect.DeepEqual(peeked[0], peeked[1]) {
		t.Errorf("with the concealment off the bot weighs both sealings alike: the test cannot tell a peeking bot")
	}
}

// The bot raises a legal army: a sample army where the book sets no
// limit, and where the samples cost more than the book allows, one cut
// down to fit its points.
func TestBotRaisesALegalArmy(t *testing.T) {
	for _, points := range []string{"", "|points:120"} {
		p := enginetest.NewPlayer(t, New(), "ref", 3)
		p.Must(t, "ref|book open"+points)
		d, err := engine.Think(p.Game, "bot", engine.Easy)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: the rules refuse the bot's army: %v", d.Command, err)
		}
		s := p.Game.State.(*State)
		if len(s.Armies) != 1 || s.Armies[0].Player != "bot" {
			t.Fatalf("%s raised no army for the bot: %+v", d.Command, s.Armies)
		}
		if s.Options.Points > 0 && s.Armies[0].Points > s.Options.Points {
			t.Errorf("the bot's army costs %s points; the book allows %s", engine.Decimal(s.Armies[0].Points), engine.Decimal(s.Options.Points))
		}
		t.Logf("%s: %s, %s points", d.Command, s.Armies[0].Name, engine.Decimal(s.Armies[0].Points))
	}
}

// advance plays bots on from p's game until ready says the position is
// the one wanted.
func advance(tb testing.TB, p *enginetest.Player, ready func(*State) bool) {
	tb.Helper()
	aw := New()
	for steps := 0; !ready(p.Game.State.(*State)); steps++ {
		if steps > 1000 || p.Game.State.Over() {
			tb.Fatal("the position never came")
		}
		who := aw.Awaited(p.Game.State)[0].Player
		enginetest.BotStep(tb, p, who)
	}
}

// Two bots lead the Elven Host (a wizard, invisible elves who split move
// and fire) and the Restless Dead (flying wraiths, paralysing ghouls and
// wights) to the end, by either turn sequence: the wizard casts, and the
// rules take every step.
func TestBotsUseWizardsAndAbilities(t *testing.T) {
	for _, method := range []string{"move", "orders"} {
		t.Run(method, func(t *testing.T) {
			t.Parallel() // each battle is a game of its own
			// Whether the wizard casts in one battle is the bot's choice;
			// over a few battles he must, at least once. The easy bot
			// writes orders on a small budget and seldom sees what a spell
			// will be worth by the time its order is read: up to ten
			// battles, ending with the first in which he casts.
			casts, level := 0, "easy"
			seeds := []uint64{11, 12, 13}
			if method == "orders" {
				seeds = []uint64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
			}
			for _, seed := range seeds {
				p := enginetest.NewPlayer(t, New(), "ref", seed)
				p.Must(t, "ref|book open|turns:4|method:"+method,
					"bot:"+level+"|army pick|list:elves",
					"bot:"+level+"#2|army pick|list:dead")
				enginetest.PlayBots(t, p, 3000)
				kinds := map[string]int{}
				for _, r := range p.Records {
					kinds[r.Kind]++
				}
				casts += kinds[Cast{}.Kind()]
				t.Logf("seed %d: %v: %s", seed, kinds, p.Game.State.(*State).Result)
				if casts > 0 {
					break
				}
			}
			if casts == 0 {
				t.Errorf("the Elven Host's wizard never cast a spell in %d battles", len(seeds))
			}
		})
	}
}

// The bot's longbowmen look for cover ahead (Missile Fire: cover): with a
// wood in front of them within their move and another behind them,
// nearer or not, the move into cover it weighs goes into the wood in
// front, and none turns its back on the enemy to reach the other.
func TestBotSeeksCoverAhead(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@ref /book open rules:goliath
@alice /army raise name:Archers units:"10 longbowmen" tag:ARC
@bob /army raise name:Orcs units:"20 orcs" tag:ORC
#terrain woods 16,13 24,19 the near wood
#terrain woods 16,1 24,5 the wood behind
#place ARC-1 20,10 N 5
#place ORC-1 20,40 S 10
@alice /done
#load d6 6 1
@bob /done
@alice /answer reply:first`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := tb.Game().State.(*State)
	var near, behind int
	for _, c := range New().Propose(s, "alice") {
		if c.Name != "move" || c.Opt("air") != "" {
			continue
		}
		p, err := engine.ReadPoint("to", c.Opt("to"), "\"")
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		switch {
		case s.Terrain[0].Area.Contains(p):
			near++
		case s.Terrain[1].Area.Contains(p):
			behind++
		}
	}
	if near == 0 || behind > 0 {
		t.Errorf("the longbowmen's moves end %d times in the wood in front and %d in the wood behind; want some in front and none behind", near, behind)
	}
}

// cavalryFacingThree is a table where the Kingdom's heavy cavalry
// (alice) have the March's medium and heavy infantry near them and
// their longbowmen further off, all three within their 18" charge, and
// the Kingdom move second: the March have already moved.
const cavalryFacingThree = `@ref /book open rules:goliath
@alice /army raise name:Kingdom units:"6 heavy cavalry, 12 heavy infantry" tag:KIN
@bob /army raise name:March units:"8 longbowmen, 12 heavy infantry, 12 medium infantry" tag:MAR
#place KIN-1 30,8 N 3
#place KIN-2 50,6 N 6
#place MAR-1 22,23 S 4
#place MAR-2 39,20 S 6
#place MAR-3 30,18 S 6
@alice /done
#load d6 1 6
@bob /done
@bob /answer reply:first
@bob /done`

// The bot's heavy cavalry, with a charge at the enemy's longbowmen or
// at either of their nearer foot, charge the longbowmen: horse against light
// foot throws four dice a figure needing 5 (the melee table), the
// archers are worth twice the foot's points, and light troops break
// sooner under their losses (Heavy Losses).
func TestBotChargesTheArchers(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(cavalryFacingThree); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := tb.Game().State.(*State)
	if s.Stage != Moving || s.Active != South {
		t.Fatalf("the Kingdom are not moving: %s, %s active", s.Stage, s.Active)
	}
	d, err := engine.Think(tb.Game(), "alice", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	var charges []string
	for _, w := range d.Weighed {
		if w.Command.Name == "charge" && w.Command.Opt("unit") == "KIN-1" {
			charges = append(charges, w.Command.Opt("target"))
		}
	}
	if !slices.Contains(charges, "MAR-1") || !slices.Contains(charges, "MAR-3") {
		t.Fatalf("the bot weighed charges at %v; want the longbowmen and the nearest foot among them", charges)
	}
	if c := d.Command; c.Name != "charge" || c.Opt("target") != "MAR-1" {
		t.Errorf("the bot chose %s; want the heavy cavalry to charge the longbowmen MAR-1\n%v", c, d.Weighed)
	}
}

// The bot moves first, and the March's heavy cavalry move after it: its
// longbowmen, 30" from them, do not march into their 18" charge, where
// horse would ride them down before they could answer (the melee table
// gives horse four dice a figure against light foot). Each move it
// weighs for them that ends within the charge scores below every one
// that stops short.
func TestBotKeepsArchersOutOfTheCharge(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@ref /book open rules:goliath
@alice /army raise name:Kingdom units:"8 longbowmen" tag:KIN
@bob /army raise name:March units:"6 heavy cavalry" tag:MAR
#place KIN-1 30,10 N 4
#place MAR-1 30,40 S 3
@alice /done
#load d6 6 1
@bob /done
@alice /answer reply:first`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	d, err := engine.Think(tb.Game(), "alice", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	s := tb.Game().State.(*State)
	hc := s.Unit("MAR-1")
	// exposed reports whether a move of the longbowmen ends within the
	// cavalry's charge, and whether c is such a move at all.
	exposed := func(c engine.Command) (bool, bool) {
		if c.Name != "move" || c.Opt("unit") != "KIN-1" {
			return false, false
		}
		to, err := engine.ReadPoint("to", c.Opt("to"), "\"")
		if err != nil {
			t.Fatal(err)
		}
		u := *s.Unit("KIN-1")
		u.Base = u.Base.WithFrontCenter(to)
		contact, _, _ := contactEdge(u.Base, hc.Base.FrontCenter())
		return hc.Base.FrontCenter().Dist(contact) <= hc.ChargeReach(s.Turn), true
	}
	worstSafe, bestExposed := 2.0, -2.0
	for _, w := range d.Weighed {
		in, move := exposed(w.Command)
		switch {
		case !move || w.Playouts == 0:
		case in:
			bestExposed = max(bestExposed, w.Score)
		default:
			worstSafe = min(worstSafe, w.Score)
		}
	}
	if bestExposed == -2 || worstSafe == 2 {
		t.Fatalf("the bot played out no move both within and out of the charge: %v", d.Weighed)
	}
	if bestExposed >= worstSafe {
		t.Errorf("a move into the cavalry's charge scores %.3f, a move short of it %.3f; want it lower\n%v", bestExposed, worstSafe, d.Weighed)
	}
	if in, _ := exposed(d.Command); in {
		t.Errorf("the bot chose %s, into the cavalry's charge", d.Command)
	}
}

// The bot's heavy cavalry, with two bodies of foot alike in arms and in
// points within their charge, charge the levies (MR -4) rather than the
// medium infantry (MR -1): whoever is charged checks morale at once, and
// levies fall back, rout or surrender on most rolls (Morale Check).
func TestBotChargesTheShakier(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@ref /book open rules:goliath
@ref /army type name:Levies ar:MI dr:MI mr:-4 mv:9 chg:12 pts:2
@alice /army raise name:Kingdom units:"6 heavy cavalry" tag:KIN
@bob /army raise name:March units:"12 medium infantry, 12 levies" tag:MAR
#place KIN-1 30,8 N 3
#place MAR-1 24,20 S 6
#place MAR-2 36,20 S 6
@alice /done
#load d6 1 6
@bob /done
@bob /answer reply:first
@bob /done`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	d, err := engine.Think(tb.Game(), "alice", engine.Normal)
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Command; c.Name != "charge" || c.Opt("target") != "MAR-2" {
		t.Errorf("the bot chose %s; want the cavalry to charge the levies MAR-2\n%v", c, d.Weighed)
	}
}

// The bot does not stand its own foot in front of its longbowmen: with
// the enemy's foot 20" ahead of the archers (in range, out of the foot's
// charge), the Kingdom's heavy infantry standing right before them
// (within 3", so that not even overhead fire passes, Missile Fire) is a
// worse position for the Kingdom than the same infantry standing as far
// forward beside them.
func TestBotKeepsTheLineOfFireClear(t *testing.T) {
	score := func(foot string) float64 {
		tb := enginetest.NewTable(New())
		if out, err := tb.Play(`@ref /book open rules:goliath
@alice /army raise name:Kingdom units:"8 longbowmen, 12 heavy infantry" tag:KIN
@bob /army raise name:March units:"12 medium infantry" tag:MAR
#place KIN-1 30,10 N 4
#place KIN-2 ` + foot + ` N 6
#place MAR-1 30,30 S 6
@alice /done
#load d6 6 1
@bob /done
@alice /answer reply:first`); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return New().Assess(tb.Game().State.(*State), "alice")
	}
	before, beside := score("30,14"), score("40,14")
	if before >= beside {
		t.Errorf("the heavy infantry before the archers scores %.3f, beside them %.3f; want it lower", before, beside)
	}
}

// The Wizardry's men stand in melee with ghouls, two and three of them
// held by the ghouls' touch (SA 7a), and the Wizardry move first: their
// wizard, 9" behind, can walk up behind either body of men and free its
// held. The bot weighs those moves, and scores the Wizardry better with
// either body freed than with the wizard an inch short of it: held
// figures no one frees count as lost when the battle ends, and freed
// ones fight again.
func TestBotGoesToFreeTheParalyzed(t *testing.T) {
	s := freedTable(t).Game().State.(*State)
	if u := s.Unit("WIZ-2"); u.Paralyzed != 2 || s.Stage != Moving || s.Active != South {
		t.Fatalf("not the position wanted: WIZ-2 has %d held, %s, %s active", u.Paralyzed, s.Stage, s.Active)
	}
	offered := map[string]bool{}
	for _, c := range New().Propose(s, "alice") {
		if c.Name == "move" && c.Opt("unit") == "WIZ-1" {
			offered[c.Opt("to")] = true
		}
	}
	for _, to := range []string{"30,25", "40,25"} {
		if !offered[to] {
			t.Errorf("the wizard is not offered the move to %s, behind held men; offered %v", to, offered)
		}
	}
	after := func(to string) float64 {
		tb := freedTable(t)
		if out, err := tb.Play("@alice /move unit:WIZ-1 to:" + to); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return New().Assess(tb.Game().State.(*State), "alice")
	}
	for _, c := range []struct{ freed, short string }{{"30,25", "30,24"}, {"40,25", "40,24"}} {
		if freed, short := after(c.freed), after(c.short); freed <= short {
			t.Errorf("the wizard freeing the men from %s scores %.4f, an inch short at %s %.4f; want it higher", c.freed, freed, c.short, short)
		}
	}
}

// freedTable is the Wizardry's second turn in goliath-freed: their men
// in melee with ghouls, some held, and the wizard 9" behind, to move.
func freedTable(t *testing.T) *enginetest.Table {
	t.Helper()
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@ref /book open rules:goliath
#seed 5
@alice /army raise name:Wizardry units:"1 wizards, 10 medium infantry, 10 medium infantry, 4 medium infantry" tag:WIZ
@bob /army raise name:Dead units:"10 ghouls, 10 ghouls" tag:DED
#place WIZ-1 35,16 N
#place WIZ-2 30,26 N 10
#place WIZ-3 40,26 N 10
#place WIZ-4 27,18 N 4
#place DED-1 30,26 S 5
#place DED-2 40,26 S 5
@alice /done
#load d6 1 6
@bob /done
@bob /answer reply:first
@bob /done
@alice /done
@bob /done
#load d6 6 6 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 6 6 6 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 6 1
#load 2d6 12 12 12 12
@alice /done
@alice /answer reply:first`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return tb
}

// A side's written orders, a unit's order a command, cost the bot about
// what one decision does (the goal is a whole side's orders in 2 s, a
// decision in 1 s): each command of them is searched with its share of
// the normal level's 320 playouts, however many units the side orders.
func TestBotWritesASideOrdersOnOneDecisionsBudget(t *testing.T) {
	const normalPlayouts = 320 // engine.Normal's budget for one decision
	p := botGame(t, "", "orders", 7, "6", false)
	advance(t, p, func(s *State) bool { return s.Turn == 2 && s.Stage == Orders })
	s := p.Game.State.(*State)
	who := s.Armies[South].Player
	units := orderParts(s, who)
	if units < 2 {
		t.Fatalf("the Kingdom writes %d orders; want a choice of several", units)
	}
	searched := 0
	for !p.Game.State.(*State).Armies[South].Done {
		d, err := engine.Think(p.Game, who, engine.Normal)
		if err != nil {
			t.Fatal(err)
		}
		spent := 0
		for _, w := range d.Weighed {
			spent += w.Playouts
		}
		if spent > normalPlayouts/units {
			t.Errorf("%s was searched with %d playouts; a side's %d orders share %d", d.Command, spent, units, normalPlayouts)
		}
		if spent > 0 {
			searched++
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
	}
	if searched == 0 {
		t.Error("no order was searched")
	}
}
