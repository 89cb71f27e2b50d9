package gwab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// chariotAt is a chariot base with its front centre at (x, y), facing h.
func chariotAt(x, y float64, h engine.Heading) engine.Base {
	b := baseFor(Chariot)
	b.Facing = h
	return b.WithFrontCenter(v(x, y))
}

func TestWheelCostIsTheOuterCornersArc(t *testing.T) {
	// A chariot's base is 2 strides wide: a quarter wheel carries the
	// outer front corner a quarter of a circle of radius 2, π strides.
	p := drivePath{start: chariotAt(10, 10, engine.HeadingN), wheel: 90, run: 3}
	if got := p.length(); !near(got, math.Pi+3) {
		t.Errorf("a quarter wheel and a run of 3 cost %g, want π+3", got)
	}
	// The wheel pivots on the inner front corner, which stays put.
	end := p.afterWheel()
	if fr := end.FrontRight(); fr.Dist(v(11, 10)) > 1e-9 {
		t.Errorf("after a right wheel the pivot moved to %v", fr)
	}
	if end.Facing != engine.HeadingE {
		t.Errorf("facing %v after a quarter wheel right", end.Facing)
	}
	// A half wheel costs 2π, so a chariot cannot wheel about and go more
	// than 9−2π strides.
	p = drivePath{start: chariotAt(10, 10, engine.HeadingN), wheel: -180}
	if got := p.length(); !near(got, 2*math.Pi) {
		t.Errorf("a half wheel costs %g, want 2π", got)
	}
}

func TestWheelTowardLeavesThePointAhead(t *testing.T) {
	start := chariotAt(10, 10, engine.HeadingN)
	for _, p := range []engine.Vec{v(10, 15), v(15, 12), v(5, 11), v(13, 8), v(10, 4), v(2, 2)} {
		deg, run, ok := wheelToward(start, p)
		if !ok {
			t.Errorf("%v: no wheel found", p)
			continue
		}
		w := start.Wheel(deg)
		end := w.WithCenter(w.Center.Add(w.Facing.Vec().Scale(run)))
		if d := end.FrontCenter().Dist(p); d > 1e-6 {
			t.Errorf("%v: wheel %g° and run %g end %g away, at %v", p, deg, run, d, end.FrontCenter())
		}
		// No other wheel, in whole degrees, reaches p more cheaply.
		best := start.WheelDistance(deg) + run
		for d := -360.0; d <= 360; d++ {
			w := start.Wheel(d)
			off := p.Sub(w.FrontCenter())
			if math.Abs(off.Cross(w.Facing.Vec())) < 1e-3 && off.Dot(w.Facing.Vec()) > 0 {
				if c := start.WheelDistance(d) + off.Len(); c < best-0.05 {
					t.Errorf("%v: wheel %g° costs %g, cheaper than the %g° found (%g)", p, d, c, deg, best)
				}
			}
		}
	}
	if deg, run, _ := wheelToward(start, v(10, 15)); deg != 0 || !near(run, 5) {
		t.Errorf("straight ahead: wheel %g, run %g", deg, run)
	}
	if deg, _, _ := wheelToward(start, v(15, 12)); deg <= 0 {
		t.Errorf("a point to the right asks a wheel to the right, not %g", deg)
	}
}

func TestPathAtRunsFromStartToEnd(t *testing.T) {
	p := drivePath{start: chariotAt(10, 10, engine.HeadingN), wheel: 45, run: 2.5, turn: -30}
	if b := p.at(0); b != p.start {
		t.Errorf("at(0) = %+v", b)
	}
	end, last := p.end(), p.at(p.length())
	if end.Center.Dist(last.Center) > 1e-9 || math.Abs(end.Facing.Diff(last.Facing)) > 1e-9 {
		t.Errorf("at(length) = %+v, end %+v", last, end)
	}
	prev := p.at(0)
	for d := 0.05; d < p.length(); d += 0.05 {
		b := p.at(d)
		// No corner jumps by more than the step times the widest radius.
		for i, c := range b.Corners() {
			if j := c.Dist(prev.Corners()[i]); j > 0.05*2 {
				t.Fatalf("at %g the corner %d jumps %g", d, i, j)
			}
		}
		prev = b
	}
	back := drivePath{start: chariotAt(10, 10, engine.HeadingN), run: -1}
	if fc := back.end().FrontCenter(); fc.Dist(v(10, 9)) > 1e-9 {
		t.Errorf("backing a stride ends at %v", fc)
	}
}

// aTable is a state with one clan of each side and a player each, for
// drive plans.
func aTable(els ...Element) *State {
	s := &State{Phase: Playing, Round: 1, Board: Board{Width: 60, Depth: 40}, Clans: []Clan{
		{Tag: "MYR", Name: "Myrmidons", Player: "alice", Side: Protagonist, Hero: "MYR-H"},
		{Tag: "ACH", Name: "Achaeans", Player: "bob", Side: Protagonist, Hero: "ACH-H"},
		{Tag: "TRO", Name: "Trojans", Player: "bob", Side: Antagonist, Hero: "TRO-H"},
	}}
	s.Elements = els
	return s
}

func stand(id string, k Kind, w Weapon, front engine.Vec, h engine.Heading) Element {
	b := baseFor(k)
	b.Facing = h
	clan, _, _ := strings.Cut(id, "-")
	return Element{ID: ElementID(id), Clan: ClanTag(clan), Kind: k, Weapon: w, Base: b.WithFrontCenter(front), Placed: true, Driver: k == Chariot}
}

func TestRoadKillFollowsTheSweptPath(t *testing.T) {
	s := aTable(
		stand("MYR-CH", Chariot, 0, v(10, 10), engine.HeadingN),
		// Straight ahead: ridden down.
		stand("TRO-W3", Warband, Bow, v(10, 14), engine.HeadingS),
		// An ally's slingers ahead, farther on: ridden down too.
		stand("ACH-W3", Warband, Sling, v(10.5, 16), engine.HeadingN),
		// Bowmen whose side the chariot's run only brushes: spared.
		stand("TRO-W4", Warband, Bow, v(12, 13), engine.HeadingN),
		// Slingers the swinging rear of a wheel would pass over.
		stand("TRO-W5", Warband, Sling, v(7.5, 9), engine.HeadingN),
	)
	s.Elements[4].Base = s.Elements[4].Base.WithFacing(engine.HeadingN)
	ch := &s.Elements[0]
	r, err := s.planDrive(ch, drivePath{start: ch.Base, run: 8}, chariotMove, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []ElementID
	for _, k := range r.crushed {
		got = append(got, k.el.ID)
	}
	if want := []ElementID{"TRO-W3", "ACH-W3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a straight run rides down %v, want %v", got, want)
	}
	// Wheeling right, the chariot's rear swings west over the slingers.
	r, err = s.planDrive(ch, drivePath{start: ch.Base, wheel: 90}, chariotMove, false)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, k := range r.crushed {
		got = append(got, k.el.ID)
	}
	if want := []ElementID{"TRO-W5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a wheel rides down %v, want %v", got, want)
	}
}

func TestOwnStandsAreDrivenThroughAndTheDriveHaltsBeyond(t *testing.T) {
	s := aTable(
		stand("MYR-CH", Chariot, 0, v(10, 10), engine.HeadingN),
		stand("MYR-W1", Warband, Spear, v(10, 12), engine.HeadingN), // y 11..12
		stand("MYR-W3", Warband, Bow, v(10, 13.5), engine.HeadingN), // y 12.5..13.5
	)
	ch := &s.Elements[0]
	r, err := s.planDrive(ch, drivePath{start: ch.Base, run: 8}, chariotMove, false)
	if err != nil {
		t.Fatal(err)
	}
	// It halts with its rear just past the bowmen: front at 13.5 + 8/3.
	if fc := r.path.end().FrontCenter(); !near(fc.Y, 13.5+8.0/3) {
		t.Errorf("halts at %v", fc)
	}
	if len(r.crushed) != 0 || !strings.Contains(r.halt, "MYR-W1") || !strings.Contains(r.halt, "MYR-W3") {
		t.Errorf("crushed %v, halt %q", r.crushed, r.halt)
	}
	// With too little drive left to clear them it is refused.
	if _, err := s.planDrive(ch, drivePath{start: ch.Base, run: 2}, 5, false); err == nil {
		t.Errorf("a drive that cannot clear its own stands was allowed")
	}
	// A wheel does not pass through its own stands.
	if _, err := s.planDrive(ch, drivePath{start: ch.Base, wheel: -60}, chariotMove, false); err == nil {
		t.Errorf("a wheel swung through its own warband")
	}
}

func TestBehindTheLine(t *testing.T) {
	s := aTable(
		stand("MYR-CH", Chariot, 0, v(10, 10), engine.HeadingN),
		stand("MYR-W1", Warband, Spear, v(11.5, 12), engine.HeadingN), // x 10.5..12.5, y 11..12
		stand("TRO-CH", Chariot, 0, v(30, 30), engine.HeadingS),
		stand("TRO-W1", Warband, Spear, v(30, 29), engine.HeadingS), // y 29..30, in front of it
	)
	s.Elements = append(s.Elements, stand("TRO-W2", Warband, Spear, v(30, 33), engine.HeadingS))
	ch := &s.Elements[0]
	for _, tt := range []struct {
		front engine.Vec
		want  bool
	}{{v(10, 10), true}, {v(10, 11.5), false}, {v(8, 10), false}, {v(12, 4), true}} {
		if got := s.behindLine(ch, chariotAt(tt.front.X, tt.front.Y, engine.HeadingN)); got != tt.want {
			t.Errorf("front at %v: behind = %v", tt.front, got)
		}
	}
	// The antagonists' own side is the far one: their chariot is behind
	// the warband between it and the protagonists, not the one behind it.
	tro := &s.Elements[2]
	if !s.behindLine(tro, tro.Base) {
		t.Errorf("the Trojan chariot is not behind TRO-W1")
	}
	s.Elements[3].Status = Removed
	if s.behindLine(tro, tro.Base) {
		t.Errorf("the Trojan chariot is behind TRO-W2, which stands behind it")
	}
}

func TestAimAtAChariot(t *testing.T) {
	s := aTable(
		stand("MYR-CH", Chariot, 0, v(10, 10), engine.HeadingN),
		Element{ID: "MYR-H", Clan: "MYR", Kind: Hero, Name: "Achilles", Aboard: "MYR-CH"},
	)
	ch, hero := &s.Elements[0], &s.Elements[1]
	ch.Rider = hero.ID
	for _, tt := range []struct {
		target       *Element
		at           string
		shot, victim ElementID
	}{
		{ch, "", "MYR-CH", "MYR-H"},
		{ch, "rider", "MYR-CH", "MYR-H"},
		{ch, "driver", "MYR-CH", "MYR-CH"},
		{hero, "", "MYR-CH", "MYR-H"},
	} {
		shot, victim, err := s.aim(tt.target, tt.at)
		if err != nil || shot.ID != tt.shot || victim.ID != tt.victim {
			t.Errorf("aim %s aim:%s = %v, %v, %v", tt.target.ID, tt.at, shot, victim, err)
		}
	}
	if _, _, err := s.aim(hero, "driver"); err == nil {
		t.Errorf("aim:driver named on the rider was allowed")
	}
	// With the charioteer gone, the Hero at the reins is the target
	// either way.
	ch.Driver = false
	if _, victim, _ := s.aim(ch, "driver"); victim.ID != "MYR-H" {
		t.Errorf("aim:driver with the Hero at the reins wounds %s", victim.ID)
	}
	ch.Rider = ""
	if _, _, err := s.aim(ch, "rider"); err == nil {
		t.Errorf("aim:rider on an empty chariot was allowed")
	}
}

func directive(actor engine.PlayerID, name string, args ...string) engine.Command {
	return engine.Command{Actor: actor, Name: name, Directive: true, Args: args}
}

// aChariotBook is a short book with every event of chariots and terrain
// in it: a mount and a drive that rides down bowmen and throws a javelin,
// a rider thrown out, a dismount, a driver's fall that makes the chariot
// bolt, and its run.
func aChariotBook(t testing.TB) (*engine.Game, []engine.Record) {
	return play(t,
		opt("alice", "book open", "mode", "practice", "terrain", "on", "javelins", "2"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
		opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
		directive("alice", "terrain", "stream", "36,22", "58,22", "58,24", "36,24", "Simois"),
		directive("alice", "place", "MYR-CH", "8,5", "N"),
		directive("alice", "place", "Achilles", "9.333,5", "N"),
		directive("bob", "place", "TRO-W3", "8,8", "S"),
		directive("bob", "place", "TRO-W1", "8,15", "S"),
		directive("alice", "stack", "sequence", "KS", "QS", "JS", "10S", "KH", "QH", "JH", "10H", "KC", "QC", "JC", "10C"),
		opt("alice", "book start"),
		directive("alice", "stack", "combat", "KS"),
		opt("alice", "drive", "element", "MYR-CH", "mount", "Achilles", "to", "8,11", "javelin", "TRO-W1"),
		opt("alice", "mount", "element", "Sarpedon", "chariot", "LYC-CH"),
		directive("alice", "wound", "Achilles", "4"),
		opt("alice", "successor", "companion", "MYR-C2"),
		opt("bob", "aloof"),
		opt("bob", "aloof"),
		opt("alice", "aloof"),
		opt("alice", "dismount", "element", "Sarpedon"),
		directive("alice", "wound", "MYR-CH"),
		opt("bob", "aloof"),
		opt("bob", "aloof"),
		opt("alice", "book end"),
	)
}

func TestAChariotBookHasEveryEvent(t *testing.T) {
	g, recs := aChariotBook(t)
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Kind] = true
	}
	for kind := range chariotBodies {
		if !seen[kind] {
			t.Errorf("no %s in the book", kind)
		}
	}
	for kind := range terrainBodies {
		if !seen[kind] {
			t.Errorf("no %s in the book", kind)
		}
	}
	replay := engine.NewGame(New())
	for _, r := range recs {
		e, err := engine.DecodeRecord(New(), r)
		if err != nil {
			t.Fatal(err)
		}
		if err := replay.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(replay.State, g.State) {
		t.Fatal("the replayed book differs from the book as played")
	}
	s := g.State.(*State)
	// The runaway ran 4 strides from 8,11 and struck TRO-W1, whose front
	// is at 8,15: it stands there, no longer running.
	if ch := s.Element("MYR-CH"); ch.Runaway || ch.Base.FrontCenter().Dist(v(8, 15)) > 1e-6 {
		t.Errorf("the runaway stands at %v, running %v", ch.Base.FrontCenter(), ch.Runaway)
	}
}

// FuzzChariotRecord is FuzzDecodeRecord seeded with the events of
// chariots and terrain.
func FuzzChariotRecord(f *testing.F) {
	_, recs := aChariotBook(f)
	seedRecords(f, recs)
	f.Fuzz(applyRecord(aChariotBook))
}

// chariotStep is the autoplayer's step with chariots and their crews
// given orders too.
func (a *autoplayer) chariotStep() {
	s := a.state()
	cur := s.Current()
	if cur == nil || s.Challenge != nil || s.Fight != nil && s.Fight.Impact != nil {
		a.step()
		return
	}
	p := cur.Player
	pick := func(xs []string) string { return xs[a.rng.IntN(len(xs))] }
	var mine, chariots, figures, foes []string
	for _, e := range s.Elements {
		switch {
		case e.Clan == cur.Tag && e.Kind == Chariot:
			chariots = append(chariots, string(e.ID))
		case e.Clan == cur.Tag && (e.Kind == Hero || e.Kind == Companion):
			figures = append(figures, string(e.ID))
		}
		if e.Clan == cur.Tag {
			mine = append(mine, string(e.ID))
		}
		if s.Antagonists(cur.Tag, e.Clan) && e.Status == Standing {
			foes = append(foes, string(e.ID))
		}
	}
	var all []string
	for _, e := range s.Elements {
		if e.Kind == Chariot {
			all = append(all, string(e.ID))
		}
	}
	if len(foes) == 0 || len(chariots) == 0 && len(figures) == 0 {
		a.step()
		return
	}
	ch, fig, foe := pick(append(chariots, all...)), pick(append(figures, mine...)), pick(foes)
	pt := func() string {
		if c := s.Element(ElementID(ch)); c != nil {
			fc := c.Base.FrontCenter()
			return fmt.Sprintf("%.1f,%.1f", fc.X+a.rng.Float64()*16-8, fc.Y+a.rng.Float64()*16-8)
		}
		return "30,20"
	}
	tries := []engine.Command{
		cmdOf(p, "drive", "element", ch, "to", pt()),
		cmdOf(p, "drive", "element", ch, "to", pt(), "javelin", foe),
		cmdOf(p, "drive", "element", ch, "toward", foe),
		cmdOf(p, "drive", "element", ch, "toward", foe, "strides", fmt.Sprint(1+a.rng.IntN(9)), "javelin", foe, "aim", pick([]string{"rider", "driver"})),
		cmdOf(p, "drive", "element", ch, "back", "1"),
		cmdOf(p, "drive", "element", ch, "facing", fmt.Sprint(a.rng.IntN(360))),
		cmdOf(p, "drive", "element", ch, "mount", fig, "to", pt()),
		cmdOf(p, "drive", "element", ch, "to", pt(), "dismount", fig),
		cmdOf(p, "mount", "element", fig, "chariot", ch),
		cmdOf(p, "dismount", "element", fig, "to", pt()),
		cmdOf(p, "fire", "element", ch, "target", foe),
		cmdOf(p, "fire", "element", pick(mine), "target", foe, "aim", pick([]string{"rider", "driver"})),
		cmdOf(p, "move", "element", fig, "toward", foe),
	}
	a.rng.Shuffle(len(tries), func(i, j int) { tries[i], tries[j] = tries[j], tries[i] })
	for _, c := range tries[:4] {
		if a.do(c) {
			return
		}
	}
	a.step()
}

// TestRandomChariotBooks plays books with terrain and a javelin load in
// which careless players drive, mount, dismount and throw at random: no
// command fails with anything but a refusal, a figure is never both on
// the table and aboard, and replaying the records rebuilds the book.
func TestRandomChariotBooks(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			a := &autoplayer{t: t, g: engine.NewGame(New()), rng: rand.New(rand.NewPCG(seed, 11))}
			open := a.g.Open("p0", seed)
			a.g.Apply(open)
			rec, _ := open.Record()
			a.records = append(a.records, rec)
			a.do(cmdOf("p0", "book open", "terrain", "on", "javelins", "3"))
			names := []string{"Myrmidons", "Lycians", "Trojans", "Achaeans"}
			heroes := []string{"Achilles", "Sarpedon", "Hector", "Ajax"}
			for i := range 4 {
				player := engine.PlayerID(fmt.Sprintf("p%d", i/2))
				side := []string{"protagonist", "antagonist"}[i%2]
				if !a.do(cmdOf(player, "clan raise", "name", names[i], "hero", heroes[i], "side", side, "warbands", "spear,sling,bow,javelin")) {
					t.Fatalf("clan %d not raised", i)
				}
			}
			a.do(directive("p0", "terrain", "rough", "20,16", "26,16", "26,19", "20,19", "grove"))
			a.do(directive("p0", "terrain", "obstacle", "34,18", "40,21", "ditch"))
			a.do(directive("p0", "terrain", "stream", "0,20", "18,20", "18,21.5", "0,21.5", "brook"))
			if !a.do(cmdOf("p0", "book start")) {
				t.Fatal("the book did not start")
			}
			for steps := 0; !a.g.State.Over() && a.state().Round <= 30; steps++ {
				if steps > 5000 {
					t.Fatal("the book makes no progress")
				}
				a.chariotStep()
				s := a.state()
				for _, e := range s.Elements {
					if e.Aboard != "" && e.Placed {
						t.Fatalf("%s is aboard %s and on the table", e.ID, e.Aboard)
					}
					if e.Kind == Chariot && e.Rider != "" && s.Element(e.Rider).Aboard != e.ID {
						t.Fatalf("%s carries %s, who is not aboard it", e.ID, e.Rider)
					}
				}
			}
			if !a.g.State.Over() && !a.do(cmdOf("p0", "book end")) {
				t.Fatal("the game master could not end the book")
			}
			replay := engine.NewGame(New())
			for _, r := range a.records {
				e, err := engine.DecodeRecord(New(), r)
				if err != nil {
					t.Fatal(err)
				}
				if err := replay.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			if !reflect.DeepEqual(replay.State, a.g.State) || !reflect.DeepEqual(replay.Table, a.g.Table) {
				t.Fatal("the replayed book differs from the book as played")
			}
			kinds := map[string]int{}
			for _, r := range a.records {
				kinds[r.Kind]++
			}
			t.Logf("drives %d, mounts %d, dismounts %d, javelins %d, ridden down %d, bolted %d, runs %d, refused %d",
				kinds["gwab.driven"], kinds["gwab.mounted"], kinds["gwab.dismounted"], kinds["gwab.javelin-thrown"],
				kinds["gwab.rode-down"], kinds["gwab.bolted"], kinds["gwab.ran-away"], a.refused)
		})
	}
}

// TestJavelinOutOfButNotIntoAMelee: 9.6 forbids throwing at a stand in
// contact with an enemy, not throwing from a chariot in contact.
func TestJavelinOutOfButNotIntoAMelee(t *testing.T) {
	s := aTable(
		stand("MYR-CH", Chariot, 0, v(10, 10), engine.HeadingN),
		Element{ID: "MYR-H", Clan: "MYR", Kind: Hero, Name: "Achilles", Aboard: "MYR-CH"},
		stand("TRO-W1", Warband, Spear, v(10, 10), engine.HeadingS), // against its front
		stand("TRO-W2", Warband, Sword, v(14, 10), engine.HeadingS),
	)
	ch := &s.Elements[0]
	ch.Rider = "MYR-H"
	standing := route{path: drivePath{start: ch.Base}}
	if _, _, _, err := s.planThrow(ch, standing, s.Element("TRO-W1"), "", -1); err == nil || !strings.Contains(err.Error(), "9.6") {
		t.Errorf("a javelin was thrown into a melee: %v", err)
	}
	ev, _, _, err := s.planThrow(ch, standing, s.Element("TRO-W2"), "", -1)
	if err != nil {
		t.Fatalf("a chariot in melee could not throw at a stand outside it: %v", err)
	}
	if ev.Target != "TRO-W2" {
		t.Errorf("thrown at %s, want TRO-W2", ev.Target)
	}
}
