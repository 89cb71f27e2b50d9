package sgboh

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// openBattle opens a prepared battle with alice and bob on its two sides,
// started.
func openBattle(t testing.TB, scenario string, seed uint64) *enginetest.Player {
	t.Helper()
	p := enginetest.NewPlayer(t, New(), "alice", seed)
	p.Must(t,
		"alice|book open|scenario:"+scenario,
		"alice|side take|side:1",
		"bob|side take|side:2",
		"alice|start",
	)
	return p
}

var fuzzSeeds = []string{
	"alice|activate|leader:ALX|line:Companions\nalice|move|unit:COM|to:0904\nbob|answer|reply:left\nalice|shock|attacks:COM>BAC\nbob|answer|reply:COM\nalice|done\nalice|pass",
	"alice|activate|leader:ALX\nalice|move|unit:ALX|to:0905|with:COM\nalice|command|line:Companions\nalice|shock|attacks:COM>BAC\nbob|answer|reply:hold\nalice|advance|unit:COM\nalice|done",
	"alice|activate|units:AGR\nalice|hitrun|unit:AGR|target:ARC\nalice|fire|unit:AGR|target:ARC\nalice|done\nalice|activate|group:PH1\nalice|move|unit:PH1|to:0605",
	"alice|activate|leader:ALX|line:Phalanx\nalice|move|unit:PH1|to:0605\nalice|move|unit:PH2|to:0706\nalice|shock|attacks:PH1 PH2>ARC\nalice|done\nbob|activate|leader:DAT|line:Hoplites\nbob|rally|unit:HO1\nbob|done\nbob|concede",
	"alice|pass\nalice|done\nbob|activate|leader:DAT\nbob|move|unit:DAT|to:0803|with:PHC\nalice|status\nbob|answer|reply:stand|to:0101\nalice|delegate|leader:DAT",
}

// FuzzPlay plays any commands in the prepared plain: no command panics or
// is recorded in a way that does not replay to the same game, and after
// every step the battle holds together (see checkState).
func FuzzPlay(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	started := enginetest.Prepare(f, openBattle(f, "plain", 7))
	f.Fuzz(func(t *testing.T, script string) {
		p := started.Player()
		enginetest.Fuzz(t, p, script, func(engine.Event) error { return checkState(p.Game.State.(*State)) })
	})
}

// TestRandomBattles lets two players who know only the commands' shapes
// play each prepared battle at random, thousands of commands, answering
// whatever question is put to them: nothing panics, every step leaves the
// battle whole, the records replay to the same game, and many of the
// commands are accepted (so the test reaches deep into play).
func TestRandomBattles(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, sc := range engineScenarios() {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("%s-%d", sc.Name, seed), func(t *testing.T) {
				p := openBattle(t, sc.Name, seed+1)
				r := rand.New(rand.NewPCG(seed, 99))
				accepted, over := 0, false
				for range n {
					s := p.Game.State.(*State)
					if s.Flow.Stage == Over {
						over = true
						break
					}
					c := enginetest.Line(randomCommand(r, s))
					if _, err := p.Do(t, c); err != nil {
						continue
					}
					accepted++
					if err := checkState(p.Game.State.(*State)); err != nil {
						t.Fatalf("after %s: %v", c, err)
					}
				}
				p.Replayed(t)
				kinds := map[string]int{}
				for _, rec := range p.Records {
					kinds[rec.Kind]++
				}
				t.Logf("%d accepted; %v; %s", accepted, kinds, p.Game.State.(*State).Result)
				if accepted < n/10 && !over {
					t.Errorf("only %d of %d random commands were accepted", accepted, n)
				}
			})
		}
	}
}

// randomCommand writes a command a player might give now: mostly the
// player whose turn it is, with his activated units, the enemies near
// them, and hexes on the way; now and then a command out of turn or out
// of place, which must be refused.
func randomCommand(r *rand.Rand, s *State) string {
	side := s.Flow.Side
	if len(s.Flow.Queue) > 0 {
		side = s.Flow.Queue[0].Side
	}
	if r.IntN(12) == 0 {
		side = 1 - side
	}
	p := newPlayer(r, s, side)
	if len(p.mine) == 0 || len(p.theirs) == 0 || len(p.leaders) == 0 {
		return p.actor + "|done"
	}
	if len(s.Flow.Queue) > 0 && r.IntN(6) != 0 {
		return p.answer(s.Flow.Queue[0])
	}
	if s.Flow.Stage != Acting || r.IntN(20) == 0 {
		return p.activate()
	}
	if len(p.acting) == 0 {
		return p.command()
	}
	return p.act()
}

// fuzzPlayer is one side as randomCommand sees it: its units, those
// activated, the enemy's, its leaders and the lines it has.
type fuzzPlayer struct {
	r                                    *rand.Rand
	s                                    *State
	actor                                string
	mine, acting, theirs, leaders, lines []string
}

func newPlayer(r *rand.Rand, s *State, side int) *fuzzPlayer {
	p := &fuzzPlayer{r: r, s: s, actor: []string{"alice", "bob"}[side]}
	for _, u := range s.Units {
		switch {
		case !u.On():
		case u.Side == side:
			p.mine = append(p.mine, u.ID)
			p.lines = append(p.lines, u.Line)
			if u.Act && !u.lockedOut() {
				p.acting = append(p.acting, u.ID)
			}
		default:
			p.theirs = append(p.theirs, u.ID)
		}
	}
	for _, l := range s.Leaders {
		if l.Side == side && l.In() {
			p.leaders = append(p.leaders, l.ID)
		}
	}
	return p
}

func (p *fuzzPlayer) pick(xs []string) string { return xs[p.r.IntN(len(xs))] }

// nearest is the enemy closest to unit id, and the hexes next to it.
func (p *fuzzPlayer) nearest(id string) (*Unit, []engine.Hex) {
	s := p.s
	u := s.unit(id)
	var best *Unit
	for i := range s.Units {
		e := &s.Units[i]
		if e.On() && e.Side != u.Side && (best == nil || engine.HexDistance(u.Hex, e.Hex) < engine.HexDistance(u.Hex, best.Hex)) {
			best = e
		}
	}
	return best, best.Hex.Neighbors()
}

// answer answers the question q, now and then with nonsense.
func (p *fuzzPlayer) answer(q Question) string {
	r := p.r
	choices := map[string][]string{
		"withdraw": {"withdraw", "stand"},
		"face":     {"left", "right", "stand"},
		"evade":    {"evade", "stand"},
		"pursue":   {"pursue", "hold"},
		"fire":     append([]string{"hold"}, q.Targets...),
	}[q.Kind]
	line := p.actor + "|answer|reply:" + p.pick(append(choices, "nonsense"))
	if q.Kind == "evade" && r.IntN(3) == 0 {
		ns := p.s.unit(q.Unit).Hex.Neighbors()
		line += "|to:" + ns[r.IntN(6)].Neighbors()[r.IntN(6)].String()
	}
	return line
}

// activate activates a leader, a line or a group, or passes.
func (p *fuzzPlayer) activate() string {
	actor, mine, leaders := p.actor, p.mine, p.leaders
	switch p.r.IntN(8) {
	case 0:
		return actor + "|activate|units:" + strings.Join([]string{p.pick(mine), p.pick(mine)}, " ")
	case 1:
		return actor + "|activate|group:" + p.pick(mine)
	case 2:
		return actor + "|activate|leader:" + p.pick(leaders)
	case 3:
		if p.s.Flow.Stage == Continuity {
			return actor + "|pass"
		}
	}
	return actor + "|activate|leader:" + p.pick(leaders) + "|line:" + p.pick(p.lines)
}

// command is what the activated leader does when no unit acts yet.
func (p *fuzzPlayer) command() string {
	actor := p.actor
	switch p.r.IntN(4) {
	case 0:
		return actor + "|command|line:" + p.pick(p.lines)
	case 1:
		if l := p.s.leader(p.s.Flow.Leader); l != nil {
			to := l.Hex.Neighbors()[p.r.IntN(6)]
			return actor + "|move|unit:" + l.ID + "|to:" + to.String()
		}
	case 2:
		return actor + "|delegate|leader:" + p.pick(p.leaders)
	}
	return actor + "|done"
}

// act is what an activated unit does: a move, a shock, fire, a rally.
func (p *fuzzPlayer) act() string {
	r, s, actor := p.r, p.s, p.actor
	u := p.pick(p.acting)
	e, around := p.nearest(u)
	switch r.IntN(12) {
	case 0, 1, 2, 3:
		line := actor + "|move|unit:" + u + "|to:" + around[r.IntN(6)].String()
		if r.IntN(4) == 0 {
			line += "|facing:" + p.pick([]string{"NNE", "E", "SSE", "SSW", "W", "NNW"})
		}
		return line
	case 4:
		return actor + "|move|unit:" + u + "|to:" + p.toward(s.unit(u).Hex, e.Hex).String()
	case 5, 6, 7:
		return actor + "|shock|attacks:" + strings.Join(p.attacks(u, e), ", ")
	case 8:
		return actor + "|fire|unit:" + u + "|target:" + e.ID
	case 9:
		if r.IntN(2) == 0 {
			return actor + "|hitrun|unit:" + u + "|target:" + e.ID
		}
		return actor + "|rally|unit:" + u
	case 10:
		return actor + "|advance|unit:" + u
	}
	return actor + "|done"
}

// toward is a step or two from h toward the enemy at e.
func (p *fuzzPlayer) toward(h, e engine.Hex) engine.Hex {
	for range 1 + p.r.IntN(2) {
		ns := h.Neighbors()
		best := ns[0]
		for _, n := range ns {
			if engine.HexDistance(n, e) < engine.HexDistance(best, e) {
				best = n
			}
		}
		h = best
	}
	return h
}

// attacks declares some of the acting units next to an enemy on it, or
// u on e when none is.
func (p *fuzzPlayer) attacks(u string, e *Unit) []string {
	var out []string
	for _, a := range p.acting {
		if f, _ := p.nearest(a); engine.HexDistance(p.s.unit(a).Hex, f.Hex) == 1 && p.r.IntN(3) != 0 {
			out = append(out, a+">"+f.ID)
		}
	}
	if len(out) == 0 {
		out = append(out, u+">"+e.ID)
	}
	return out
}

// checkState reports what is wrong with a battle: two combat units in a
// hex, a unit or leader off the map but not marked so, Engaged units
// with no enemy next to them, hits beyond what a unit survives, an army
// past its rout points with the battle still on, or a question asked of
// no one.
func checkState(s *State) error {
	seen := map[engine.Hex]string{}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.On() {
			if u.Engaged {
				return fmt.Errorf("%s is gone and still Engaged", u.ID)
			}
			continue
		}
		if !s.onMap(u.Hex) {
			return fmt.Errorf("%s stands off the map at %s", u.ID, u.Hex)
		}
		if o, ok := seen[u.Hex]; ok {
			return fmt.Errorf("%s and %s share %s", o, u.ID, u.Hex)
		}
		seen[u.Hex] = u.ID
		if u.Engaged && (u.Status == Routed || len(s.enemiesNext(u.Side, u.Hex)) == 0) {
			return fmt.Errorf("%s is Engaged with no enemy next to it", u.ID)
		}
		if u.Hits > u.TQ {
			return fmt.Errorf("%s carries %d hits over its TQ %d", u.ID, u.Hits, u.TQ)
		}
		if u.Type == EL && u.Hits > 0 {
			return fmt.Errorf("%s, an elephant, carries missile hits", u.ID)
		}
	}
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.In() && !s.onMap(l.Hex) {
			return fmt.Errorf("leader %s stands off the map at %s", l.ID, l.Hex)
		}
	}
	if s.Flow.Stage != Over {
		for side := range s.Armies {
			if s.losses(side) >= s.Armies[side].Withdraw {
				return fmt.Errorf("%s are past their rout points and the battle goes on", s.name(side))
			}
		}
	}
	for _, q := range s.Flow.Queue {
		if q.Side != 0 && q.Side != 1 {
			return fmt.Errorf("a question for side %d", q.Side)
		}
	}
	return nil
}
