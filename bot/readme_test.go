package bot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// readmeBlocks returns the README's blocks of local-table lines: its
// code blocks without a language whose first line that is not a comment
// is a command (/…) or names a player (@…).
func readmeBlocks(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks [][]string
	var cur []string
	in, lang := false, ""
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		fence, isFence := strings.CutPrefix(trimmed, "```")
		switch {
		case isFence && !in:
			in, lang, cur = true, fence, nil
		case isFence && in:
			in = false
			if lang == "" && isTableBlock(cur) {
				blocks = append(blocks, cur)
			}
		case in:
			cur = append(cur, trimmed)
		}
	}
	return blocks
}

// isTableBlock reports whether lines are for the local table: the first
// that is not blank or a comment gives a command or names a player.
func isTableBlock(lines []string) bool {
	for _, l := range lines {
		if l == "" || strings.HasPrefix(l, "# ") {
			continue
		}
		return strings.HasPrefix(l, "/") || strings.HasPrefix(l, "@")
	}
	return false
}

// TestReadmeExamplesPlay plays every block of local-table lines in the
// README (extracted from README.md as it stands) at a fresh table, as a
// newcomer would paste it, and fails when the table refuses a line. Each
// block is played with several seeds, so that one that works only by a
// lucky draw fails: a block that needs its cards or dice says so with
// #stack, #load or #seed.
func TestReadmeExamplesPlay(t *testing.T) {
	blocks := readmeBlocks(t)
	if len(blocks) < 5 {
		t.Fatalf("found %d blocks of table lines in the README; it has at least 5 (one for each rule system's example)", len(blocks))
	}
	for i, block := range blocks {
		for _, seed := range []uint64{1, 2, 3, 4, 5} {
			t.Run(fmt.Sprintf("block%d/seed%d", i+1, seed), func(t *testing.T) {
				t.Parallel()
				st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "readme.db"))
				if err != nil {
					t.Fatal(err)
				}
				defer st.Close()
				r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return seed }})
				user := engine.PlayerID("player")
				for _, text := range block {
					line, err := engine.ParseLine(text)
					if err != nil {
						t.Fatalf("%s: the line does not read: %v", text, err)
					}
					if line.Empty {
						continue
					}
					if line.User != "" {
						user = line.User
					}
					for _, rep := range r.Handle(context.Background(), Request{Guild: "local", Channel: "readme", User: user, Command: line.Command}) {
						if rep.refused {
							t.Fatalf("the README's block %d (%s…) is refused at %q:\n%s", i+1, block[0], text, rep.Text)
						}
					}
				}
			})
		}
	}
}
