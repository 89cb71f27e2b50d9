package gwab

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// An autoplayer gives random commands, legal or not, as a table of
// careless players would, always answering what the book waits for.

type autoplayer struct {
	t       *testing.T
	g       *engine.Game
	rng     *rand.Rand
	records []engine.Record
	refused int
}

func (a *autoplayer) state() *State { return a.g.State.(*State) }

// do decides and applies c; it reports whether c was accepted. Anything
// but a refusal fails the test.
func (a *autoplayer) do(c engine.Command) bool {
	a.t.Helper()
	res, err := a.g.Decide(c)
	if err != nil {
		if _, ok := engine.IsRefusal(err); !ok {
			a.t.Fatalf("%s by %s: %v", c, c.Actor, err)
		}
		a.refused++
		return false
	}
	for _, e := range res.Events {
		if err := a.g.Apply(e); err != nil {
			a.t.Fatalf("apply %s: %v", e.Body.Kind(), err)
		}
		rec, err := e.Record()
		if err != nil {
			a.t.Fatal(err)
		}
		a.records = append(a.records, rec)
	}
	return true
}

func cmdOf(actor engine.PlayerID, name string, kv ...string) engine.Command {
	return opt(actor, name, kv...)
}

// step gives the command the book waits for, choosing at random among
// what the rules offer.
func (a *autoplayer) step() {
	s := a.state()
	pick := func(xs []string) string { return xs[a.rng.IntN(len(xs))] }
	switch {
	case s.Challenge != nil && !s.Challenge.Accepted:
		b := s.Element(s.Challenge.Challenged)
		if !a.do(cmdOf(s.Clan(b.Clan).Player, "answer", "reply", pick([]string{"accept", "decline"}))) {
			a.t.Fatal("a challenge could not be answered")
		}
		return
	case s.Challenge != nil && s.Challenge.Pushed != "":
		p := s.Element(s.Challenge.Pushed)
		who := s.Clan(p.Clan).Player
		// A Hero hemmed in cannot withdraw (10.2.3); he can always fight on.
		if reply := pick([]string{"fight", "withdraw"}); reply == "withdraw" && a.do(cmdOf(who, "answer", "reply", reply)) {
			return
		}
		if !a.do(cmdOf(who, "answer", "reply", "fight")) {
			a.t.Fatal("a duel could not go on")
		}
		return
	case s.awaitingSuccessor() != nil:
		cl := s.awaitingSuccessor()
		if !a.do(cmdOf(cl.Player, "successor", "companion", string(cl.Successors[a.rng.IntN(len(cl.Successors))]))) {
			a.t.Fatal("no successor could be named")
		}
		return
	case s.Fight != nil && s.Fight.Impact != nil:
		v := s.Element(s.Fight.Impact.Victor)
		if !a.do(cmdOf(s.Clan(v.Clan).Player, "impact")) {
			a.t.Fatal("an impact could not be spent")
		}
		return
	}
	cur := s.Current()
	if cur == nil {
		a.t.Fatalf("round %d: nobody is due to act and nothing is awaited", s.Round)
	}
	p := cur.Player
	mine := s.ClanElements(cur.Tag)
	el := string(mine[a.rng.IntN(len(mine))].ID)
	var foes []string
	for _, e := range s.Elements {
		if s.Antagonists(cur.Tag, e.Clan) && e.Status == Standing {
			foes = append(foes, string(e.ID))
		}
	}
	if len(foes) == 0 {
		a.do(cmdOf(p, "aloof"))
		return
	}
	foe := pick(foes)
	tries := []engine.Command{
		cmdOf(p, "move", "element", el, "toward", foe),
		cmdOf(p, "move", "element", el, "toward", foe, "strides", fmt.Sprint(1+a.rng.IntN(3))),
		cmdOf(p, "fire", "element", el, "target", foe),
		cmdOf(p, "invoke"),
		cmdOf(p, "challenge", "hero", foe),
		cmdOf(p, "loot", "body", foe),
		cmdOf(p, "recover", "element", el, "body", pick(foes)),
		cmdOf(p, "joker", "use", pick([]string{"draw", "defer", "double", "escape", "jump"}), "element", el),
	}
	a.rng.Shuffle(len(tries), func(i, j int) { tries[i], tries[j] = tries[j], tries[i] })
	for _, c := range tries[:3] {
		if a.do(c) {
			return
		}
	}
	if !a.do(cmdOf(p, "aloof")) {
		a.t.Fatalf("the %s could not even stand aloof", cur.Name)
	}
}

// TestRandomBooksPlayToTheirEnd plays books of four and six clans with
// random commands until they end by one of 6.2's conditions or, after
// many rounds, by the game master's consent. Whatever the book waits for
// can always be given, no command fails with anything but a refusal, and
// replaying each book's records rebuilds it exactly.
func TestRandomBooksPlayToTheirEnd(t *testing.T) {
	const maxRounds = 40
	ended := 0
	for seed := range uint64(24) {
		players := 2 + int(seed%2)
		t.Run(fmt.Sprintf("seed%d-%dplayers", seed, players), func(t *testing.T) {
			a := &autoplayer{t: t, g: engine.NewGame(New()), rng: rand.New(rand.NewPCG(seed, 7))}
			open := a.g.Open("p0", seed)
			a.g.Apply(open)
			rec, _ := open.Record()
			a.records = append(a.records, rec)
			a.do(cmdOf("p0", "book open"))
			names := []string{"Myrmidons", "Lycians", "Trojans", "Achaeans", "Pylians", "Ethiopians"}
			heroes := []string{"Achilles", "Sarpedon", "Hector", "Ajax", "Nestor", "Memnon"}
			for i := range 2 * players {
				player := engine.PlayerID(fmt.Sprintf("p%d", i/2))
				side := []string{"protagonist", "antagonist"}[i%2]
				if !a.do(cmdOf(player, "clan raise", "name", names[i], "hero", heroes[i], "side", side, "warbands", "spear,sword,bow,javelin")) {
					t.Fatalf("clan %d not raised", i)
				}
			}
			if !a.do(cmdOf("p0", "book start")) {
				t.Fatal("the book did not start")
			}
			for steps := 0; !a.g.State.Over() && a.state().Round <= maxRounds; steps++ {
				if steps > 5000 {
					t.Fatal("the book makes no progress")
				}
				a.step()
			}
			if a.g.State.Over() {
				ended++
			} else if !a.do(cmdOf("p0", "book end")) {
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
		})
	}
	t.Logf("%d of 24 random books ended by 6.2 within %d rounds; the game master ended the rest", ended, maxRounds)
}
