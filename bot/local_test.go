package bot

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/sweet"
	"github.com/rhapsode/rhapsode/store"
)

var update = flag.Bool("update", false, "rewrite the transcript goldens in testdata")

func rulesets() []engine.Ruleset { return []engine.Ruleset{gwab.New(), sweet.New()} }

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

// TestTranscripts plays every script in testdata/transcripts and compares
// what the table said with the golden transcript beside it. With -update
// it writes the goldens; on a mismatch it writes the actual transcript
// beside the golden as NAME.actual.
func TestTranscripts(t *testing.T) {
	scripts, err := filepath.Glob("testdata/transcripts/*.script")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	// The demonstration is played like the others; its golden lives with
	// theirs.
	scripts = append(scripts, "demo.script")
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(string(src), "\n"), "\n")
			got := playScript(t, filepath.Join(t.TempDir(), "game.db"), lines, "")
			golden := filepath.Join("testdata/transcripts", name+".golden")
			actual := filepath.Join("testdata/transcripts", name+".actual")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Remove(actual)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				os.WriteFile(actual, []byte(got), 0o644)
				t.Fatalf("transcript differs from %s; see %s\n%s", golden, actual, firstDiff(string(want), got))
			}
			os.Remove(actual)

			// The same script played by two processes one after the
			// other, on one database, says the same.
			for _, cut := range []int{len(lines) / 3, len(lines) / 2, 2 * len(lines) / 3} {
				db := filepath.Join(t.TempDir(), "split.db")
				first := playScript(t, db, lines[:cut], "")
				second := playScript(t, db, lines[cut:], lastUser(lines[:cut]))
				if first+second != got {
					t.Fatalf("split after line %d differs from one process:\n%s", cut, firstDiff(got, first+second))
				}
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

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d", i+1) + ":\n  want: " + a + "\n  got:  " + b
		}
	}
	return "(same lines)"
}
