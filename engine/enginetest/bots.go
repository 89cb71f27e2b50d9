package enginetest

import (
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// BotStep has the bot in who's seat, at the level its name gives
// ([engine.IsBot]), choose a command and plays it, failing the test if it
// cannot choose or the rules refuse its choice.
func BotStep(t testing.TB, p *Player, who engine.PlayerID) {
	t.Helper()
	level, _ := engine.IsBot(who)
	d, err := engine.Think(p.Game, who, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Do(t, d.Command); err != nil {
		t.Fatalf("%s: %v", d.Command, err)
	}
}

// PlayBots plays p's game with the bot in every seat the game awaits,
// each at the level its name gives ([engine.IsBot]; a member's seat at
// the normal level), until the game ends or maxSteps steps are played,
// and checks what must hold of any bot's game: it ends, the rules never
// refuse what the bot chose twice in a row, and its log replays to the
// same game. It returns the number of steps played.
func PlayBots(t testing.TB, p *Player, maxSteps int) int {
	t.Helper()
	aw, ok := p.Game.Rules.(engine.Awaiter)
	if !ok {
		t.Fatalf("%s says whom it awaits through no Awaiter", p.Game.Rules.ID())
	}
	refusedBefore := false
	steps := 0
	for ; steps < maxSteps && !p.Game.State.Over(); steps++ {
		awaits := aw.Awaited(p.Game.State)
		if len(awaits) == 0 {
			t.Fatalf("step %d: the game awaits no one but has not ended", steps)
		}
		who := awaits[0].Player
		level, _ := engine.IsBot(who)
		d, err := engine.Think(p.Game, who, level)
		if err != nil {
			t.Fatalf("step %d: the bot for %s: %v", steps, who, err)
		}
		if _, err := p.Do(t, d.Command); err != nil {
			if refusedBefore {
				t.Fatalf("step %d: the rules refused the bot's %s twice in a row: %v", steps, d.Command, err)
			}
			refusedBefore = true
			continue
		}
		refusedBefore = false
	}
	if !p.Game.State.Over() {
		t.Fatalf("the game did not end in %d steps", maxSteps)
	}
	p.Replayed(t)
	return steps
}

// SearchesAsTuned plays p's game with the easy bot in every seat until a
// decision with more than b.Wide candidates, or, failing one in maxSteps,
// the one of most candidates, and checks that level searches it as the
// rule system tunes it ([engine.Tuner]): b its budget, no more than b.Wide
// candidates played out, b.Playouts at most spent in all and more than
// half of them.
func SearchesAsTuned(t testing.TB, p *Player, level engine.Level, b engine.Budget, maxSteps int) {
	t.Helper()
	if got, ok := p.Game.Rules.(engine.Tuner); !ok {
		t.Fatalf("%s tunes no level", p.Game.Rules.ID())
	} else if tuned, ok := got.Budget(level); !ok || tuned != b {
		t.Fatalf("%s's %s level searches %+v (tuned: %v); want %+v", p.Game.Rules.ID(), level, tuned, ok, b)
	}
	aw := p.Game.Rules.(engine.Awaiter)
	var at *engine.Game
	var who engine.PlayerID
	most := 1
	for steps := 0; steps < maxSteps && !p.Game.State.Over(); steps++ {
		player := aw.Awaited(p.Game.State)[0].Player
		d, err := engine.Think(p.Game, player, engine.Easy)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(d.Weighed); n > most {
			at, who, most = p.Game.Clone(), player, n
			if n > b.Wide {
				break
			}
		}
		if _, err := p.Do(t, d.Command); err != nil {
			t.Fatalf("%s: %v", d.Command, err)
		}
	}
	if at == nil {
		t.Fatalf("no decision of two candidates in %d steps", maxSteps)
	}
	d, err := engine.Think(at, who, level)
	if err != nil {
		t.Fatal(err)
	}
	spent, searched := 0, 0
	for _, w := range d.Weighed {
		spent += w.Playouts
		if w.Playouts > 0 {
			searched++
		}
	}
	if searched > b.Wide || spent > b.Playouts || spent <= b.Playouts/2 {
		t.Errorf("%s played out %d of %d candidates in %d playouts; want at most %d candidates and %d–%d playouts",
			level, searched, len(d.Weighed), spent, b.Wide, b.Playouts/2+1, b.Playouts)
	}
	t.Logf("%s weighed %d candidates, played out %d in %d playouts", level, len(d.Weighed), searched, spent)
}
