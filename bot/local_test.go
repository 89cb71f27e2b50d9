package bot

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/store"
)

var update = flag.Bool("update", false, "rewrite the transcript goldens in testdata")

func rulesets() []engine.Ruleset { return systems.All() }

// table opens a store at path and a local table on it, as one process of
// the real program would.
func table(t testing.TB, path string) (*Local, func()) {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 }})
	return &Local{Router: r, Guild: "local", Channel: "table", User: "player", Echo: true}, func() { st.Close() }
}

// playScript plays lines at a fresh local table on the database at path
// and returns the transcript.
func playScript(t testing.TB, path string, lines []string, user engine.PlayerID) string {
	t.Helper()
	l, closeStore := table(t, path)
	defer closeStore()
	if user != "" {
		l.User = user
	}
	var out bytes.Buffer
	if err := l.Run(context.Background(), strings.NewReader(strings.Join(lines, "\n")), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// transcriptDirs hold the scripts every transcript test plays: the
// bot's own (help, the log, the tape measure, sagas, several books in one
// channel) and those of every rule system on the one list, which their
// packages also play without a database. A system without scripts of its
// own fails allScripts.
func transcriptDirs() []string {
	dirs := []string{"testdata/transcripts"}
	for _, id := range systems.IDs() {
		dirs = append(dirs, "../engine/"+id+"/testdata/transcripts")
	}
	return dirs
}

// TestEverySystemIsPlayed fails when a rule system on the one list has no
// demonstration book (bot/demos/ID.script, which --demo plays and the
// transcript and picture tests play too) or no transcript of its tape
// measure (testdata/transcripts/ID-measure.script), and when a
// demonstration belongs to no system on the list.
func TestEverySystemIsPlayed(t *testing.T) {
	ids := systems.IDs()
	if demos := DemoKeys(); !slices.Equal(demos, slices.Sorted(slices.Values(ids))) {
		t.Errorf("demonstrations %v; the rule systems are %v, each with one", demos, ids)
	}
	for _, id := range ids {
		if _, err := os.Stat(filepath.Join("testdata", "transcripts", id+"-measure.script")); err != nil {
			t.Errorf("%s has no transcript of /measure: %v", id, err)
		}
	}
}

// allScripts returns every script of transcriptDirs, and the
// demonstrations'. A rule system whose transcripts are many plays them in
// its own package only (without a database) and is played here by its
// demonstration, which keeps this package's tests inside their time.
func allScripts(t testing.TB) []string {
	t.Helper()
	var scripts []string
	for _, dir := range transcriptDirs() {
		for _, p := range enginetest.Scripts(t, dir) {
			scripts = append(scripts, p)
		}
	}
	slices.Sort(scripts)
	for _, key := range DemoKeys() {
		scripts = append(scripts, "demos/"+key+".script")
	}
	return scripts
}

// TestTranscripts plays every script through the router and a real
// database and compares what the table said with the golden transcript
// beside it. With -update it writes the goldens; on a mismatch it writes
// the actual transcript beside the golden as NAME.actual. Each script is
// played once more by two processes, one after the other, on one
// database.
func TestTranscripts(t *testing.T) {
	for _, path := range allScripts(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		golden := strings.TrimSuffix(path, ".script") + ".golden"
		if filepath.Dir(path) == "demos" {
			name = "demo-" + name
			golden = filepath.Join("testdata/transcripts", name+".golden")
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
			got := playScript(t, filepath.Join(t.TempDir(), "game.db"), lines, "")
			enginetest.Golden(t, golden, got, *update)
			if raceDetector {
				// Under the race detector one play does: the point
				// there is the race, and the second process's play is
				// the same code again, on the same database.
				return
			}

			// The same script played by two processes one after the
			// other, on one database, says the same.
			cut := len(lines) / 2
			db := filepath.Join(t.TempDir(), "split.db")
			first := playScript(t, db, lines[:cut], "")
			second := playScript(t, db, lines[cut:], lastUser(lines[:cut]))
			if first+second != got {
				t.Fatalf("split after line %d differs from one process:\n%s", cut, enginetest.FirstDiff(got, first+second))
			}
		})
	}
}

// lastUser is the player the next line acts as when it names none.
func lastUser(lines []string) engine.PlayerID {
	user := engine.PlayerID("")
	for _, l := range lines {
		if pl, err := engine.ParseLine(l); err == nil && pl.User != "" {
			user = pl.User
		}
	}
	return user
}
