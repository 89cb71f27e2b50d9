//go:build mutation

package mutation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	nMutants      = flag.Int("mutants", 140, "how many mutants to sample")
	seed          = flag.Uint64("seed", 42, "the sampling seed")
	mutantTimeout = flag.Duration("mutant-timeout", 3*time.Minute, "how long one mutant's tests may run")
	minScore      = flag.Float64("min-score", 0.85, "the run fails when fewer of all mutants are caught (0: only report)")
	from          = flag.Int("from", 0, "run only the drawn mutants after the first N (the sample stays the same), to share a run between processes")
	match         = flag.String("match", "", "run only the sampled mutants whose description matches this regular expression (the sample stays the same)")
)

// A pkg is one engine package: its import path, directory, and the import
// paths of the engine packages whose tests see it (itself and its importers).
type pkg struct {
	path, dir string
	testers   []string
}

// TestMutationScore samples mutants of the engine, runs the tests that can
// see each one, and prints what was caught, package by package.
func TestMutationScore(t *testing.T) {
	root := goOut(t, "", "list", "-m", "-f", "{{.Dir}}")
	pkgs := enginePackages(t, root)
	// A mutant's failing golden tests write NAME.actual files beside their
	// goldens; those the run leaves are removed at its end.
	before := actuals(root)
	t.Cleanup(func() {
		for _, f := range actuals(root) {
			if !slices.Contains(before, f) {
				os.Remove(f)
			}
		}
	})

	// Every site of every non-test file, in a fixed order.
	var all []site
	srcs := map[string][]byte{}
	owner := map[string]*pkg{}
	for _, p := range pkgs {
		files, _ := filepath.Glob(filepath.Join(p.dir, "*.go"))
		sort.Strings(files)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			ss, err := sites(f, src)
			if err != nil {
				t.Fatal(err)
			}
			srcs[f], owner[f] = src, p
			all = append(all, ss...)
		}
	}
	t.Logf("%d sites in %d packages; sampling %d with seed %d", len(all), len(pkgs), *nMutants, *seed)

	order, downs := drawOrder(all, srcs, root, *seed)
	tmp := t.TempDir()
	type tally struct{ caught, total int }
	score := map[string]*tally{}
	var survivors []string
	skipped, run := 0, 0
	for _, i := range order {
		if run == *nMutants {
			break
		}
		s := all[i]
		down := downs[i]
		src, p := srcs[s.file], owner[s.file]
		rel, _ := filepath.Rel(root, s.file)
		what := fmt.Sprintf("%s:%d %s", rel, s.line(src), s.describe(src, down))

		mfile := filepath.Join(tmp, fmt.Sprintf("m%d.go", i))
		if err := os.WriteFile(mfile, s.mutant(src, down), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {s.file: mfile}})
		ofile := filepath.Join(tmp, fmt.Sprintf("o%d.json", i))
		if err := os.WriteFile(ofile, overlay, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := goRun(root, time.Minute, "build", "-overlay", ofile, p.path); err != nil {
			skipped++
			t.Logf("does not compile, drawn again: %s (%s)", what, firstLine(out))
			continue
		}
		run++
		if run <= *from || *match != "" && !regexp.MustCompile(*match).MatchString(what) {
			continue
		}
		args := append([]string{"test", "-vet=off", "-count=1", "-overlay", ofile, "-timeout", mutantTimeout.String()}, p.testers...)
		out, err := goRun(root, *mutantTimeout+30*time.Second, args...)
		caught := err != nil
		if strings.Contains(out, "[build failed]") || strings.Contains(out, "[setup failed]") {
			t.Logf("test build failed (counted caught): %s", what)
		}
		sc := score[p.path]
		if sc == nil {
			sc = &tally{}
			score[p.path] = sc
		}
		sc.total++
		verdict := "survived"
		if caught {
			sc.caught++
			verdict = "caught"
		} else {
			survivors = append(survivors, what)
		}
		t.Logf("%3d %-8s %s", run, verdict, what)
	}

	var names []string
	for n := range score {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	caught, total := 0, 0
	fmt.Fprintf(&b, "mutation score, seed %d (%d drawn again for not compiling):\n", *seed, skipped)
	for _, n := range names {
		sc := score[n]
		caught += sc.caught
		total += sc.total
		fmt.Fprintf(&b, "  %-45s %3d/%3d  %5.1f%%\n", n, sc.caught, sc.total, 100*float64(sc.caught)/float64(sc.total))
	}
	frac := float64(caught) / float64(max(total, 1))
	fmt.Fprintf(&b, "  %-45s %3d/%3d  %5.1f%%\n", "all", caught, total, 100*frac)
	if len(survivors) > 0 {
		fmt.Fprintf(&b, "survivors:\n  %s\n", strings.Join(survivors, "\n  "))
	}
	t.Log("\n" + b.String())
	if frac < *minScore {
		t.Errorf("mutation score %.1f%% is below %.1f%%", 100*frac, 100**minScore)
	}
}

// drawOrder orders the sites for drawing, and says for each whether a
// constant moves down rather than up. A site's place depends only on
// the seed and on the site itself (its file, the kind of change, the
// text of its line and what it changes, and how many such sites come
// before it on identical lines of that file), never on the sites of other
// files: an edit elsewhere in the engine leaves the sample of every
// other file as it was, so the survivors of one run can be looked at
// again after tests are written for them (-match), and a new run draws
// mostly the same mutants.
func drawOrder(all []site, srcs map[string][]byte, root string, seed uint64) (order []int, downs []bool) {
	keys := make([]uint64, len(all))
	seen := map[string]int{}
	for i, s := range all {
		src := srcs[s.file]
		rel, _ := filepath.Rel(root, s.file)
		lineStart := bytes.LastIndexByte(src[:s.start], '\n') + 1
		lineEnd := s.end + max(bytes.IndexByte(src[s.end:], '\n'), 0)
		id := fmt.Sprintf("%s\x00%d\x00%s\x00%d", rel, s.kind, bytes.TrimSpace(src[lineStart:lineEnd]), s.start-lineStart)
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%s\x00%d", seed, id, seen[id])
		seen[id]++
		keys[i] = h.Sum64()
	}
	order = make([]int, len(all))
	downs = make([]bool, len(all))
	for i := range order {
		order[i] = i
		downs[i] = keys[i]&1 == 0
	}
	sort.Slice(order, func(a, b int) bool { return keys[order[a]]>>1 < keys[order[b]]>>1 })
	return order, downs
}

// enginePackages lists the engine's packages but this one and the test
// helpers, each with the packages whose tests see it.
func enginePackages(t *testing.T, root string) []*pkg {
	out := goOut(t, root, "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Deps \" \"}}", "./engine/...")
	var pkgs []*pkg
	deps := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) < 3 {
			continue
		}
		deps[f[0]] = strings.Fields(f[2])
		if strings.HasSuffix(f[0], "/enginetest") || strings.Contains(f[0], "/internal/") {
			continue
		}
		pkgs = append(pkgs, &pkg{path: f[0], dir: f[1]})
	}
	for _, p := range pkgs {
		p.testers = []string{p.path}
		for _, q := range pkgs {
			for _, d := range deps[q.path] {
				if d == p.path {
					p.testers = append(p.testers, q.path)
				}
			}
		}
	}
	return pkgs
}

// actuals lists the .actual files under the engine's test data.
func actuals(root string) []string {
	var out []string
	filepath.WalkDir(filepath.Join(root, "engine"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".actual") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func goOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := goRun(dir, time.Minute, args...)
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// goRun runs the go command in dir, giving up after d.
func goRun(dir string, d time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return out.String(), fmt.Errorf("timed out after %s", d)
	}
	return out.String(), err
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

// line is the 1-based line of the site in src.
func (s site) line(src []byte) int { return bytes.Count(src[:s.start], []byte("\n")) + 1 }
