package btg_test

import (
	"flag"
	"testing"

	"github.com/rhapsode/rhapsode/engine/btg"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the transcript goldens in testdata/transcripts")

// TestTranscripts plays every script of testdata/transcripts at an
// in-memory table and compares what it said with the script's golden.
// The bot plays the same scripts through its router and a database.
func TestTranscripts(t *testing.T) {
	enginetest.Transcripts(t, btg.New(), "testdata/transcripts", *update)
}

// TestTableTwin plays a script again at a table whose players roll and
// draw for themselves, entering what the stacked game drew, and checks
// that the outcomes are the same (enginetest.TableTwin).
func TestTableTwin(t *testing.T) {
	enginetest.TableTwin(t, btg.New(), "testdata/transcripts", "btg-fire", *update)
}

// TestViews plays scripts that draw every kind of step and compares what
// each step's picture shows, as text, with the script's .views golden:
// captions, pieces and their pips and status, tokens and the step's marks.
func TestViews(t *testing.T) {
	enginetest.ViewGoldens(t, btg.New(), "testdata/transcripts", []string{"btg-bloodthirst", "btg-charge", "btg-charge-rout", "btg-elephants-siege", "btg-events-1", "btg-events-2", "btg-fire-modifiers", "btg-fire", "btg-game-master", "btg-levies", "btg-melee", "btg-move", "btg-rout-nearby", "btg-setup", "btg-siege", "btg-walls-leaders"}, *update)
}

// TestDeadlines lets the deadlines pass after scripts that leave a game
// under way: each stage awaits its player, and the command that stands
// for him is accepted and moves the game on, to its end.
func TestDeadlines(t *testing.T) {
	enginetest.DeadlineGoldens(t, btg.New(), "testdata/transcripts", []string{"btg-setup", "btg-charge", "btg-siege"}, 60, *update)
}
