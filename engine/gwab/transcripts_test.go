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
