package enginetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rhapsode/rhapsode/engine"
)

// Player plays commands against one game in memory and keeps the records
// of its events, as a store would, so that a test can replay them.
type Player struct {
	Game    *engine.Game
	Records []engine.Record
	// from, when set, is the prepared game before Records, restored from
	// its snapshot, where a replay starts (a player of a [Prepared] game).
	from *Prepared
}

// Prepared is a game played once up to where each fuzz input starts: each
// input plays on a copy of it, and its records replay from a copy of the
// game its snapshot restores, so that the set-up is not played, recorded
// and replayed again per input.
type Prepared struct {
	// game is where every input starts: decisions never change the game
	// they are made on, so inputs share it until one records a step (and
	// plays on from the game that step hands back). pristine is a copy it
	// must still equal after each input; restored is it restored from its
	// snapshot, where replays start.
	game, pristine, restored *engine.Game
}

// Prepare keeps p's game as it stands for [Prepared.Player]. Its snapshot
// must restore to the same game, since replays start from it.
func Prepare(t testing.TB, p *Player) *Prepared {
	t.Helper()
	p.Replayed(t)
	snap, err := p.Game.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.Restore(p.Game.Rules, snap)
	if err != nil {
		t.Fatal(err)
	}
	if err := sameGame(p.Game, g); err != nil {
		t.Fatalf("the prepared game's snapshot does not restore to it: %v", err)
	}
	return &Prepared{game: p.Game.Clone(), pristine: p.Game.Clone(), restored: g}
}

// Player returns a player of the prepared game, with no records yet. Its
// game is shared with every other player of it until it records a step;
// inputs play one after another, as a fuzz worker runs them.
func (pr *Prepared) Player() *Player {
	return &Player{Game: pr.game, from: pr}
}

// NewPlayer opens a game of rules for opener with the random source
// seeded with seed.
func NewPlayer(t testing.TB, rules engine.Ruleset, opener engine.PlayerID, seed uint64) *Player {
	t.Helper()
	p := &Player{Game: engine.NewGame(rules)}
	p.apply(t, []engine.Event{p.Game.Open(opener, seed)})
	return p
}

// Do decides c and applies what it records; a refusal changes nothing
// and is returned.
func (p *Player) Do(t testing.TB, c engine.Command) (engine.Result, error) {
	t.Helper()
	res, err := p.Game.Decide(c)
	if err != nil {
		if _, ok := engine.IsRefusal(err); !ok {
			t.Fatalf("%s: %v", c, err)
		}
		return res, err
	}
	p.apply(t, res.Events)
	SameGame(t, p.Game, res.After)
	return res, nil
}

// SameGame fails the test unless the game a decision handed back with
// its events (Result.After, which the bot keeps instead of applying them
// again) is the game those events make when applied: snapshot for
// snapshot, undo included.
func SameGame(t testing.TB, applied, after *engine.Game) {
	t.Helper()
	if err := sameGame(applied, after); err != nil {
		t.Fatal(err)
	}
}

func sameGame(applied, after *engine.Game) error {
	if after == nil {
		return nil // nothing was emitted
	}
	a, err := applied.Snapshot()
	if err != nil {
		return err
	}
	b, err := after.Snapshot()
	if err != nil {
		return err
	}
	if string(a) != string(b) {
		return fmt.Errorf("the game a decision hands back differs from its events applied:\napplied %s\nafter   %s", a, b)
	}
	return nil
}

// Must plays lines written "actor|command|key:value|..." (see [Line]),
// failing the test on a refusal.
func (p *Player) Must(t testing.TB, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := p.Do(t, Line(l)); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
	}
}

func (p *Player) apply(t testing.TB, events []engine.Event) {
	t.Helper()
	for _, e := range events {
		if err := p.Game.Apply(e); err != nil {
			t.Fatalf("apply %s: %v", e.Body.Kind(), err)
		}
		rec, err := e.Record()
		if err != nil {
			t.Fatal(err)
		}
		p.Records = append(p.Records, rec)
	}
}

// play decides c and keeps the game the decision hands back, as the bot
// does, rather than applying its events again ([Player.Do]): a fuzz
// input's [Player.Replayed] checks at its end that the two agree.
func (p *Player) play(t testing.TB, c engine.Command) (engine.Result, error) {
	t.Helper()
	res, err := p.Game.Decide(c)
	if err != nil {
		if _, ok := engine.IsRefusal(err); !ok {
			t.Fatalf("%s: %v", c, err)
		}
		return res, err
	}
	if p.from != nil && len(res.Events) == 0 {
		return res, nil // nothing recorded: the game stays as it was
	}
	if res.After == nil || p.from == nil {
		if p.from != nil && p.Game == p.from.game {
			p.Game = p.Game.Clone() // the shared game is not changed
		}
		p.apply(t, res.Events)
		SameGame(t, p.Game, res.After)
		return res, nil
	}
	for _, e := range res.Events {
		rec, err := e.Record()
		if err != nil {
			t.Fatal(err)
		}
		p.Records = append(p.Records, rec)
	}
	p.Game = res.After
	return res, nil
}

// Replayed checks that the records, decoded and applied to a new game,
// come to the same state as the game played. For a player of a [Prepared]
// game they are applied to a copy of the prepared game, restored, and the
// two games' whole snapshots must agree (the game a decision hands back
// is the game its events make, as [SameGame] checks step by step); with
// no records, the game must still be the prepared one: a refusal changes
// nothing.
func (p *Player) Replayed(t testing.TB) {
	t.Helper()
	if p.from != nil && len(p.Records) == 0 {
		// Nothing was recorded, so nothing may have moved: the shared
		// game still equals the prepared one, field for field.
		if p.Game != p.from.game || p.Game.Seq != p.from.pristine.Seq ||
			!reflect.DeepEqual(p.Game.State, p.from.pristine.State) || !reflect.DeepEqual(p.Game.Table, p.from.pristine.Table) {
			t.Fatalf("commands that recorded nothing changed the game")
		}
		return
	}
	re := engine.NewGame(p.Game.Rules)
	if p.from != nil {
		re = p.from.restored.Clone()
	}
	for _, rec := range p.Records {
		e, err := engine.DecodeRecord(p.Game.Rules, rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := re.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if p.from != nil {
		a, err := p.Game.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		b, err := re.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Fatalf("the replayed game differs from the played one:\nplayed   %s\nreplayed %s", a, b)
		}
		return
	}
	a, _ := json.Marshal(p.Game.State)
	b, _ := json.Marshal(re.State)
	if string(a) != string(b) {
		t.Fatalf("the replayed game differs from the played one")
	}
}

// Line reads "actor|command|key:value|..." as a player's command, the
// compact form fuzz targets write.
func Line(s string) engine.Command {
	parts := strings.Split(s, "|")
	c := engine.Command{Actor: engine.PlayerID(parts[0]), Options: map[string]string{}}
	if len(parts) > 1 {
		c.Name = parts[1]
	}
	for _, part := range parts[min(2, len(parts)):] {
		if k, v, ok := strings.Cut(part, ":"); ok {
			c.Options[k] = v
		}
	}
	return c
}

// maxFuzzLines bounds the commands one fuzz input plays.
const maxFuzzLines = 60

// Fuzz plays each line of script (in the form of [Line], at most 60)
// against p's game: no command may fail but by a refusal, and at the end
// the records replay to the same game. check, when set, sees every event
// recorded, and returns what is wrong with it. A line that is not UTF-8
// is passed over: the bot refuses such text before any rule system reads
// it (bot/input.go).
func Fuzz(t *testing.T, p *Player, script string, check func(engine.Event) error) {
	t.Helper()
	for i, line := range strings.Split(script, "\n") {
		if i >= maxFuzzLines {
			break
		}
		if !utf8.ValidString(line) {
			continue
		}
		res, err := p.play(t, Line(line))
		if err != nil {
			continue
		}
		for _, e := range res.Events {
			if check == nil {
				continue
			}
			if err := check(e); err != nil {
				t.Fatal(fmt.Errorf("%q: %w", line, err))
			}
		}
	}
	p.Replayed(t)
}

// Apply has the rules decide c in g and applies the events to g in place,
// as a replay of the log would, failing the test if the rules refuse c or
// an event does not apply.
func Apply(t testing.TB, g *engine.Game, c engine.Command) {
	t.Helper()
	res, err := g.Decide(c)
	if err != nil {
		t.Fatalf("%s: %v", c, err)
	}
	for _, e := range res.Events {
		if err := g.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
}
