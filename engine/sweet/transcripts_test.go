package sweet_test

import (
	"flag"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

var update = flag.Bool("update", false, "rewrite the transcript goldens in testdata/transcripts")

// TestTranscripts plays every script of testdata/transcripts at an
// in-memory table and compares what it said with the script's golden.
// The bot plays the same scripts through its router and a database.
func TestTranscripts(t *testing.T) {
	enginetest.Transcripts(t, sweet.New(), "testdata/transcripts", *update)
}

// TestTableTwin plays a script again at a table whose players roll and
// draw for themselves, entering what the stacked game drew, and checks
// that the outcomes are the same (enginetest.TableTwin).
func TestTableTwin(t *testing.T) {
	enginetest.TableTwin(t, sweet.New(), "testdata/transcripts", "sweet-two-melees", *update)
}

// TestViews plays scripts that draw every kind of step and compares what
// each step's picture shows, as text, with the script's .views golden:
// captions, pieces and their pips and status, tokens and the step's marks.
func TestViews(t *testing.T) {
	enginetest.ViewGoldens(t, sweet.New(), "testdata/transcripts", []string{"sweet-capture", "sweet-catapult-duel", "sweet-equal-weaker", "sweet-exact-losses", "sweet-fall-back", "sweet-fire", "sweet-game-master", "sweet-manning", "sweet-morale", "sweet-move", "sweet-retreat-aside", "sweet-run-down", "sweet-ruling", "sweet-setup", "sweet-support", "sweet-two-melees"}, *update)
}

// TestDeadlines lets the deadlines pass after scripts that leave a game
// waiting, and compares what each did with the script's .deadlines
// golden: the step a player takes when time runs out.
func TestDeadlines(t *testing.T) {
	enginetest.DeadlineGoldens(t, sweet.New(), "testdata/transcripts", []string{"sweet-move", "sweet-two-melees"}, 40, *update)
}
