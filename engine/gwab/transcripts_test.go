package gwab_test

import (
	"flag"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

var update = flag.Bool("update", false, "rewrite the transcript goldens in testdata/transcripts")

// TestTranscripts plays every script of testdata/transcripts at an
// in-memory table and compares what it said with the script's golden.
// The bot plays the same scripts through its router and a database.
func TestTranscripts(t *testing.T) {
	enginetest.Transcripts(t, gwab.New(), "testdata/transcripts", *update)
}

// TestTableTwin plays a script again at a table whose players draw their
// own cards, entering what the stacked game drew, and checks that the
// outcomes are the same (enginetest.TableTwin).
func TestTableTwin(t *testing.T) {
	enginetest.TableTwin(t, gwab.New(), "testdata/transcripts", "duel-steps", *update)
}

// TestViews plays scripts that draw every kind of step and compares what
// each step's picture shows, as text, with the script's .views golden:
// captions, pieces and their pips and status, tokens and the step's marks.
func TestViews(t *testing.T) {
	enginetest.ViewGoldens(t, gwab.New(), "testdata/transcripts", []string{"body-carry", "challenge", "chariots", "divine", "fury-melee", "drive-contact", "duel-steps", "fire", "hairline", "hero-javelins", "impact-push", "impact-toward-friends", "joker-player", "jokers", "long-range", "loot", "mmr-example", "pushback", "riding-out", "riding", "ruling", "runaways", "setup", "succession", "terrain"}, *update)
}

// TestDeadlines lets the deadlines pass after scripts that leave a book
// waiting, and compares what each did with the script's .deadlines
// golden: the step a player takes when time runs out (a Hero in a duel
// fights on, a successor is named, the rounds are played on).
func TestDeadlines(t *testing.T) {
	enginetest.DeadlineGoldens(t, gwab.New(), "testdata/transcripts", []string{"duel-steps", "succession", "runaways"}, 40, *update)
}
