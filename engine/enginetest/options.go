package enginetest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// UnusedOptions lists the commands of rules (each sub-command on its own)
// and the options of each that no script of the module uses: every
// *.script under any directory, read from the line that opens a book of
// rules (/book open rules:KEY; a book opened without rules: is gwab's) to
// the next that opens another's. A command is "name", an option
// "name option:". A script is read as gwab's until it opens a book.
func UnusedOptions(t testing.TB, rules engine.Ruleset) []string {
	t.Helper()
	used := map[string]bool{}
	for _, src := range moduleScripts(t) {
		for _, use := range commandUses(src, rules.ID(), rules.Commands()) {
			used[use] = true
		}
	}
	var out []string
	for _, c := range rules.Commands() {
		if !used[c.Name] {
			out = append(out, c.Name)
		}
		for _, o := range c.Options {
			if k := c.Name + " " + o.Name + ":"; !used[k] {
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// moduleScripts reads every script of the module.
func moduleScripts(t testing.TB) []string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") && p != dir {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".script") {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out = append(out, string(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// commandUses lists, for each command line of src played in a book of
// the rule system key, the command it gives and "command option:" for
// each option it names.
func commandUses(src, key string, specs []engine.CommandSpec) []string {
	var out []string
	playing := "gwab" // the table's first book, unless a line says otherwise
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "@") {
			_, line, _ = strings.Cut(line, " ")
			line = strings.TrimSpace(line)
		}
		if !strings.HasPrefix(line, "/") {
			continue
		}
		words := fields(line[1:])
		if len(words) >= 2 && words[0] == "book" && words[1] == "open" {
			playing = "gwab"
			for _, w := range words[2:] {
				if v, ok := strings.CutPrefix(w, "rules:"); ok {
					playing = strings.Trim(v, `"`)
				}
			}
		}
		if playing != key {
			continue
		}
		// The longest command name the line begins with.
		best := -1
		for i, s := range specs {
			n := strings.Fields(s.Name)
			if len(n) <= len(words) && slices.Equal(n, words[:len(n)]) && (best < 0 || len(n) > len(strings.Fields(specs[best].Name))) {
				best = i
			}
		}
		if best < 0 {
			continue
		}
		name := specs[best].Name
		out = append(out, name)
		for _, w := range words[len(strings.Fields(name)):] {
			if k, _, ok := strings.Cut(w, ":"); ok {
				out = append(out, name+" "+k+":")
			}
		}
	}
	return out
}

// fields splits a command line at spaces outside double quotes; a
// backslash keeps the character after it (an escaped quote) in the field.
func fields(s string) []string {
	var out []string
	var b strings.Builder
	quoted, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
			b.WriteRune(r)
		case r == '\\':
			escaped = true
			b.WriteRune(r)
		case r == '"':
			quoted = !quoted
			b.WriteRune(r)
		case r == ' ' && !quoted:
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// Unexplained lists the commands, options and directives of rules that
// /help would show without a word of help.
func Unexplained(rules engine.Ruleset) []string {
	var out []string
	for _, c := range rules.Commands() {
		if strings.TrimSpace(c.Help) == "" {
			out = append(out, "/"+c.Name)
		}
		for _, o := range c.Options {
			if strings.TrimSpace(o.Help) == "" || strings.TrimSpace(o.Name) == "" {
				out = append(out, "/"+c.Name+" "+o.Name+":")
			}
		}
	}
	if d, ok := rules.(engine.Directiver); ok {
		for _, c := range d.Directives() {
			if strings.TrimSpace(c.Help) == "" {
				out = append(out, "#"+c.Name)
			}
		}
	}
	return out
}

// MasterOnlyUnsaid lists the commands of rules whose help and flags
// disagree on who may give them: a command /help calls the game master's
// (or the referee's) alone must be refused to every other player, and a
// command refused to them must say so in its help.
func MasterOnlyUnsaid(rules engine.Ruleset) []string {
	var out []string
	for _, c := range rules.Commands() {
		h := strings.ToLower(c.Help)
		says := strings.Contains(h, "game master only") || strings.Contains(h, "referee only")
		if is := c.Flags&engine.MasterOnly != 0; is != says {
			out = append(out, fmt.Sprintf("/%s (game master only: %v; its help says so: %v)", c.Name, is, says))
		}
	}
	return out
}
