package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// AdvanceKeepsPast plays every script of dir at a [Table] of rules that
// decides as the bot's router does: each step by [engine.Game.Advance],
// the game after it then kept in place of the one before, whose state
// becomes what /undo goes back to without a copy. It fails the test when
// a step changes the game it was decided on, when a later step changes
// any game an earlier one was decided on (a copy of a state sharing with
// its original what a step then changed in place: the map that copies
// share, say), or when what the table says differs from the script's
// golden, which the table writes deciding with [engine.Game.Decide] and
// applying the events.
func AdvanceKeepsPast(t *testing.T, rules engine.Ruleset, dir string) {
	for name, path := range Scripts(t, dir) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			table := NewTable(rules)
			table.advance = true
			got, err := table.Play(string(src))
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range table.past {
				now, err := p.game.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				if string(now) != string(p.snapshot) {
					t.Fatalf("a later step changed the game step %d of %d was decided on:\nthen %s\nnow  %s", i+1, len(table.past), p.snapshot, now)
				}
			}
			Golden(t, filepath.Join(dir, name+".golden"), got, false)
		})
	}
}

// pastGame is a game a step was decided on, and its snapshot then.
type pastGame struct {
	game     *engine.Game
	snapshot []byte
}

// advanceGame decides c by Advance and keeps the game after it, as the
// router does once the step is recorded.
func (t *Table) advanceGame(c engine.Command) (engine.Result, error) {
	before, err := t.game.Snapshot()
	if err != nil {
		return engine.Result{}, err
	}
	res, err := t.game.Advance(c)
	if now, serr := t.game.Snapshot(); serr != nil || string(now) != string(before) {
		return res, fmt.Errorf("enginetest: deciding %s changed the game it was decided on (%v):\nbefore %s\nafter  %s", c, serr, before, now)
	}
	if err != nil || len(res.Events) == 0 {
		return res, err
	}
	t.past = append(t.past, pastGame{game: t.game, snapshot: before})
	for _, e := range res.Events {
		t.drawn = append(t.drawn, e.Draws...)
	}
	t.game = res.After
	return res, nil
}
