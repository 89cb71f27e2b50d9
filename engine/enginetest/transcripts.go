package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// Scripts returns the scripts of dir, by name without ".script".
func Scripts(t testing.TB, dir string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.script"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	out := map[string]string{}
	for _, p := range paths {
		out[strings.TrimSuffix(filepath.Base(p), ".script")] = p
	}
	return out
}

// Transcripts plays every script of dir at a fresh [Table] of rules and
// compares what the table said with the golden NAME.golden beside
// NAME.script. With update it writes the goldens instead; on a mismatch
// it writes the transcript as NAME.actual, beside the golden.
func Transcripts(t *testing.T, rules engine.Ruleset, dir string, update bool) {
	for name, path := range Scripts(t, dir) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := NewTable(rules).Play(string(src))
			if err != nil {
				t.Fatal(err)
			}
			Golden(t, filepath.Join(dir, name+".golden"), got, update)
		})
	}
}

// Golden compares got with the file golden, or writes it there when
// update is set. On a mismatch got goes to a file beside golden with the
// extension .actual, and the test fails at the first line that differs.
func Golden(t testing.TB, golden, got string, update bool) {
	t.Helper()
	actual := strings.TrimSuffix(golden, filepath.Ext(golden)) + ".actual"
	if update {
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
		t.Fatalf("transcript differs from %s; see %s\n%s", golden, actual, FirstDiff(string(want), got))
	}
	os.Remove(actual)
}

// FirstDiff describes the first line where got differs from want.
func FirstDiff(want, got string) string {
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
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, a, b)
		}
	}
	return "(same lines)"
}
