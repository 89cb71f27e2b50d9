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
