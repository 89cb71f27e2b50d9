package btg

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// botTable sets out a position from a table script whose Spartans the
// bot leads, and returns the game as it stands at its end.
func botTable(t *testing.T, script string) *engine.Game {
	t.Helper()
	tb := enginetest.NewTable(New())
	out, err := tb.Play(strings.TrimSpace(script))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "(to ") {
		t.Fatalf("the table refused a line of the position:\n%s", out)
	}
	return tb.Game()
}

// The two armies of the positions below: spearmen of the same strength
// and morale, each with a general, the Spartans black on the south edge
// and the bot's.
const botArmies = `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8 8 8
@bot /army build name:Spartans civ:greek tag:SPA units:"1 phalanx spear 12, 1 hvy-inf spear 12, 1 lt-inf bow 8, 1 cav spear 8"
@bob /army build name:Athenians civ:greek tag:ATH units:"1 phalanx spear 12, 1 hvy-inf spear 12, 1 lt-inf bow 8, 1 cav spear 8"
`

// decide is the bot's choice for the Spartans in g at level.
func decide(t *testing.T, g *engine.Game, l engine.Level) engine.Command {
	t.Helper()
	d, err := engine.Think(g, "bot", l)
	if err != nil {
		t.Fatal(err)
	}
	return d.Command
}

// A phalanx locked in melee fights better with a friend within an inch
// of it (5.C): the bot's heavy infantry, free to move, goes to stand
// beside it rather than anywhere else.
func TestBotSupportsAFriendInMelee(t *testing.T) {
	g := botTable(t, botArmies+`
#place SPA-1 30,20 N 4
#place ATH-1 30,20 S 4
#place SPA-2 37,15 N 2
#place SPA-3 10,6 N 2
#place SPA-4 66,6 N 1
#place ATH-2 50,44 S 2
#place ATH-3 10,44 S 2
#place ATH-4 66,44 S 1
#place SPA-G 4,2
#place ATH-G 4,46
#stack cards 2C 2D
@bot /done
@bob /done
`)
	for _, l := range []engine.Level{engine.Easy, engine.Normal} {
		c := decide(t, g, l)
		if c.Opt("unit") != "SPA-2" || c.Name != "move" {
			t.Fatalf("at %s the bot gives %s; want SPA-2 to move up beside SPA-1", l, c)
		}
		res, err := g.Decide(c)
		if err != nil {
			t.Fatal(err)
		}
		s := res.After.State.(*State)
		if gap := s.Unit("SPA-2").Base.Gap(s.Unit("SPA-1").Base); gap > 1 || s.engaged(s.Unit("SPA-2")) {
			t.Errorf("at %s the bot's %s leaves SPA-2 %.1f\" from SPA-1 (engaged: %v); a support stands within 1\" and out of the fight", l, c, gap, s.engaged(s.Unit("SPA-2")))
		}
	}
}

// Every command the bot weighs in a battle between two bots is one the
// rules take: none of its search is spent on moves that run into units,
// off the table or over ground the unit may not cross.
func TestBotWeighsOnlyLegalCommands(t *testing.T) {
	p := botBattle(t, "walled-farm", 9, "2")
	aw := New()
	r := rand.New(rand.NewPCG(1, 2))
	for steps := 0; steps < 400 && !p.Game.State.Over(); steps++ {
		who := aw.Awaited(p.Game.State)[0].Player
		s := p.Game.State.(*State)
		cands := candidates(s, who)
		if s.Stage == Movement && s.Card != nil && !s.Card.Leaders && len(cands) == 0 {
			t.Fatalf("step %d: %s has a card in play and no command, not even /done", steps, who)
		}
		for _, c := range cands {
			c.Actor = who
			if _, err := p.Game.Decide(c); err != nil {
				t.Errorf("step %d: the bot weighs %s, which the rules refuse: %v", steps, c, err)
			}
			if c.Name == "done" && s.Stage == Movement && s.Card != nil && !s.Card.Leaders && len(cands) > 1 {
				t.Errorf("step %d: the bot weighs passing a card beside moves it could make", steps)
			}
		}
		legal := engine.Legal(p.Game, who, r)
		if _, err := p.Do(t, legal[r.IntN(len(legal))]); err != nil {
			t.Fatal(err)
		}
	}
}

// Archers that move may not shoot that turn (2.D): the bot's bowmen,
// with an enemy in range, stand and shoot while the card moves another
// unit, and in the fire phase they loose at it.
func TestBotArchersStandAndShoot(t *testing.T) {
	g := botTable(t, botArmies+`
#place SPA-1 20,6 N 4
#place SPA-2 40,6 N 2
#place SPA-3 30,20 N 2
#place SPA-4 66,6 N 1
#place ATH-1 20,44 S 4
#place ATH-2 30,30 S 2
#place ATH-3 10,44 S 2
#place ATH-4 66,44 S 1
#place SPA-G 4,2
#place ATH-G 4,46
#stack cards 2C 3C
@bot /done
@bob /done
`)
	for range 5 {
		c := decide(t, g, engine.Normal)
		if c.Opt("unit") == "SPA-3" {
			t.Fatalf("the bot gives %s: its archers leave a target they could shoot", c)
		}
		enginetest.Apply(t, g, c)
		if g.State.(*State).Stage == Fire {
			break
		}
	}
	s := g.State.(*State)
	if s.Stage != Fire {
		t.Fatalf("after the bot's moves the battle is in the %s phase; want fire", s.Stage)
	}
	c := decide(t, g, engine.Normal)
	if c.Name != "fire" || c.Opt("unit") != "SPA-3" {
		t.Errorf("in the fire phase the bot gives %s; want SPA-3 to shoot", c)
	}
}

// A unit that turns its flank to an enemy phalanx within the phalanx's
// charge reach stands in more danger than one that faces it (1.D, 5.D:
// a flank contact is a bonus die to the charger, and the flanked unit
// does not strike back at it): the bot scores the first position worse,
// and the phalanx's own side better.
func TestBotFearsAChargeOnItsFlank(t *testing.T) {
	position := func(facing string) *State {
		g := botTable(t, botArmies+`
#place SPA-1 10,6 N 4
#place SPA-2 36,20 `+facing+` 2
#place SPA-3 60,6 N 2
#place SPA-4 66,10 N 1
#place ATH-1 36,34 S 4
#place ATH-2 10,44 S 2
#place ATH-3 60,44 S 2
#place ATH-4 66,40 S 1
#place SPA-G 4,2
#place ATH-G 4,46
#stack cards 2C 2D
@bot /done
@bob /done
`)
		return g.State.(*State)
	}
	facing, flank := position("N"), position("E")
	if a, b := evaluate(facing, "bot"), evaluate(flank, "bot"); a <= b {
		t.Errorf("the Spartans score %.4f facing the phalanx and %.4f with their flank to it; want the flank worse", a, b)
	}
	if a, b := evaluate(facing, "bob"), evaluate(flank, "bob"); a >= b {
		t.Errorf("the Athenians score %.4f against a front and %.4f against a flank; want the flank better", a, b)
	}
}

// Two javelin dice hit a heavy infantry unit once in two throws, and
// twice in four, and its armor stops only the first hit (2.F, 2.J): the
// unit in the skirmishers' arc of fire is in some danger, where one
// behind their backs is in none, though the hits it may expect on
// average are no more than its armor. The bot scores the first position
// worse for the infantry's side.
func TestBotCountsAVolleyPastTheArmor(t *testing.T) {
	position := func(at string) *State {
		g := botTable(t, `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8
@bot /army build name:Spartans civ:greek tag:SPA units:"2 hvy-inf spear 12"
@bob /army build name:Athenians civ:greek tag:ATH units:"1 lt-inf javelin 4, 1 hvy-inf spear 12"
#place SPA-1 36,20 N 2
#place SPA-2 66,4 N 2
#place ATH-1 `+at+` 1
#place ATH-2 6,44 S 2
#place SPA-G 4,2
#place ATH-G 70,46
#stack cards 2C 2D
@bot /done
@bob /done
`)
		return g.State.(*State)
	}
	// The same ground either way: a rank 3/4" deep, its front to the
	// south or to the north.
	facing, away := position("36,26 S"), position("36,26.75 N")
	if a, b := evaluate(away, "bot"), evaluate(facing, "bot"); a <= b {
		t.Errorf("the Spartans score %.4f with the javelins turned away and %.4f facing them; want the volley to count", a, b)
	}
}

// A unit under half its strength that loses figures to a volley checks
// morale at -2 and may rout (3.A): of two heavy infantry units alike in
// armor and morale, the one that is down to five figures loses no more
// to the bowmen's dice than the whole one, but may break. The bot's
// archers shoot at it.
func TestBotShootsAtTheShakenUnit(t *testing.T) {
	g := botTable(t, `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8
@bot /army build name:Spartans civ:greek tag:SPA units:"1 lt-inf bow 8, 1 cav spear 8"
@bob /army build name:Athenians civ:greek tag:ATH units:"1 hvy-inf spear 12, 1 hvy-inf spear 12"
#place SPA-1 36,20 N 2
#place SPA-2 66,6 N 1
#place ATH-1 30,28 S 2
#place ATH-2 42,28 S 2
#figures ATH-2 5
#place SPA-G 4,2
#place ATH-G 70,46
#stack cards 2C 2D
@bot /done
@bob /done
@bot /done
@bob /done
`)
	if s := g.State.(*State); s.Stage != Fire {
		t.Fatalf("the position is in the %s phase; want fire", s.Stage)
	}
	for _, l := range []engine.Level{engine.Easy, engine.Normal} {
		if c := decide(t, g, l); c.Name != "fire" || c.Opt("target") != "ATH-2" {
			t.Errorf("at %s the bot gives %s; want SPA-1 to shoot at the shaken ATH-2", l, c)
		}
	}
}

// The same volley, four hits and three figures through the armor, at the
// whole unit or at the one down to five figures (2.J): the whole unit
// checks morale at no risk, the shaken one at -2 below half strength and
// may rout (3.A). Before the checks are rolled, the bot already scores
// the second volley better for the archers' side.
func TestBotCountsTheCheckAVolleyOwes(t *testing.T) {
	after := func(target string) *State {
		g := botTable(t, `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8
@bot /army build name:Spartans civ:greek tag:SPA units:"1 lt-inf bow 8, 1 cav spear 8"
@bob /army build name:Athenians civ:greek tag:ATH units:"1 hvy-inf spear 12, 1 hvy-inf spear 12"
#place SPA-1 36,20 N 2
#place SPA-2 66,6 N 1
#place ATH-1 30,28 S 2
#place ATH-2 42,28 S 2
#figures ATH-2 5
#place SPA-G 4,2
#place ATH-G 70,46
#stack cards 2C 2D
@bot /done
@bob /done
@bot /done
@bob /done
#load d6 1 1 1 1
@bot /fire unit:SPA-1 target:`+target+`
`)
		return g.State.(*State)
	}
	whole, shaken := after("ATH-1"), after("ATH-2")
	if a, b := shaken.Unit("ATH-2").Figures, whole.Unit("ATH-1").Figures; a != 2 || b != 9 {
		t.Fatalf("the volleys leave ATH-2 %d and ATH-1 %d figures; want 2 and 9", a, b)
	}
	if a, b := evaluate(shaken, "bot"), evaluate(whole, "bot"); a <= b {
		t.Errorf("the Spartans score %.4f after shooting the shaken unit and %.4f after shooting the whole one; want the morale check to count", a, b)
	}
}

// A unit that fails a morale check falls back or routs a full move
// toward its own edge, and one that runs off the table is out of the
// battle (§3): the bot's skirmishers, 10" from their edge with an enemy
// phalanx in charge reach, weigh no step back that would leave them
// within their 8" move of it.
func TestBotKeepsRoomToFallBack(t *testing.T) {
	g := botTable(t, `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8
@bot /army build name:Spartans civ:greek tag:SPA units:"1 lt-inf javelin 8, 1 cav spear 8"
@bob /army build name:Athenians civ:greek tag:ATH units:"1 phalanx spear 12, 1 cav spear 8"
#place SPA-1 36,10 N 2
#place SPA-2 66,4 N 1
#place ATH-1 36,26 S 4
#place ATH-2 4,44 S 1
#place SPA-G 4,2
#place ATH-G 70,46
#stack cards 2C 2D
@bot /done
@bob /done
`)
	s := g.State.(*State)
	u := s.Unit("SPA-1")
	if !s.threatened(u) {
		t.Fatal("SPA-1 is not in the phalanx's reach; the test proves nothing")
	}
	moves := 0
	for _, c := range candidates(s, "bot") {
		if c.Name != "move" || c.Opt("unit") != "SPA-1" {
			continue
		}
		moves++
		p, err := engine.ReadPoint("to", c.Opt("to"), "inches")
		if err != nil {
			t.Fatal(err)
		}
		if p.Y < 8 {
			t.Errorf("the bot weighs %s, %.1f\" from its own edge: a fall back would take SPA-1 off the table", c, p.Y)
		}
	}
	if moves == 0 {
		t.Error("the bot weighs no move for SPA-1")
	}
}

// A volley costs the shooters nothing (§2), and a shot not taken in the
// fire phase is lost for the turn. In a position from an arena game the
// bot lost, its javelinmen, with the enemy cavalry 6" off, let the phase
// go by without a throw. The bot shoots whenever it has a target.
func TestBotTakesTheShotItHas(t *testing.T) {
	g := botTable(t, `
@gm /book open rules:btg cards:2
#load 2d6 8 8 8 8 8 8 8 8 8 8 8 8 8 8
@bot /army build civ:greek name:Spartans tag:SPA units:"2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 cav spear 8"
@bob /army build civ:greek name:Athenians tag:ATH units:"2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 cav spear 8"
#place SPA-1 38.2,10.6 31 4
#place SPA-2 40.5,17.3 36 4
#place SPA-3 42.1,12.2 22 2
#place SPA-4 36.4,15 42 2
#place SPA-5 46.4,14.7 10 2
#place SPA-6 51,7 N 1
#place ATH-1 36,32 S 4
#place ATH-2 34.1,36.8 165 4
#place ATH-3 40,41 S 2
#place ATH-4 31,33.7 165 2
#place ATH-5 43.2,29.6 194 2
#place ATH-6 41.3,18.4 218 1
#place SPA-G 4,2
#place ATH-G 70,46
#stack cards 2C 2D
@bot /done
@bob /done
@bot /done
@bob /done
`)
	s := g.State.(*State)
	if s.Stage != Fire {
		t.Fatalf("the position is in the %s phase; want fire", s.Stage)
	}
	if t0, _ := s.bestShot(s.Unit("SPA-5")); t0 == nil {
		t.Fatal("SPA-5 has nothing to shoot at; the test proves nothing")
	}
	for _, l := range []engine.Level{engine.Easy, engine.Normal} {
		if c := decide(t, g, l); c.Name != "fire" {
			t.Errorf("at %s the bot gives %s; want a volley", l, c)
		}
	}
}

// A unit cut down to its last figure in a melee is out of the battle, a
// unit lost toward the half that breaks an army, not only a figure. The
// bot's cavalry, down to one figure, that has charged the enemy's fresh
// cavalry before the melee is fought scores nearer to the cavalry gone
// than to the cavalry standing off; counting only the figure, the bot
// threw its spent horse at fresh enemies turn after turn (arena, seed
// 50020).
func TestBotCountsAUnitAMeleeWillCutDown(t *testing.T) {
	position := func(charge string) *State {
		tb := enginetest.NewTable(New())
		out, err := tb.Play(strings.TrimSpace(botArmies + `
#place SPA-1 10,6 N 4
#place SPA-2 30,6 N 2
#place SPA-3 20,6 N 2
#place SPA-4 53,18 N 1
#figures SPA-4 1
#place ATH-1 20,44 S 4
#place ATH-2 10,44 S 2
#place ATH-3 30,44 S 2
#place ATH-4 52,32 W 1
#figures ATH-4 5
#place SPA-G 4,2
#place ATH-G 4,46
#stack cards 2C 2D
@bot /done
@bob /done
` + charge))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return tb.Game().State.(*State)
	}
	apart := position("")
	locked := position("#load d6 6 6\n@bot /charge unit:SPA-4 target:ATH-4\n@bob /stand")
	if !locked.engaged(locked.Unit("SPA-4")) {
		t.Fatal("SPA-4 did not charge home; the test proves nothing")
	}
	gone := apart.Clone().(*State)
	gone.Unit("SPA-4").Status, gone.Unit("SPA-4").Figures = Gone, 0
	a, l, g := evaluate(apart, "bot"), evaluate(locked, "bot"), evaluate(gone, "bot")
	if l > (a+g)/2 {
		t.Errorf("the Spartans score %.4f standing off, %.4f with one figure of horse locked with five, %.4f with it gone; want the second nearer the third", a, l, g)
	}
}
