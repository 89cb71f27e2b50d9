package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rhapsode runs the program with args and returns its exit status and what
// it wrote.
func rhapsode(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
	return code, stdout.String(), stderr.String()
}

func TestHelpListsEveryCommandAndItsFlags(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "help"} {
		code, out, _ := rhapsode(t, arg)
		if code != 0 {
			t.Fatalf("%s: exit %d", arg, code)
		}
		for _, want := range []string{"local", "export", "gateway", "serve", "register", "migrate", "health", "version", "-from string", "-db string", "-boards string", "-interactions string", "-no-register"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s does not mention %q:\n%s", arg, want, out)
			}
		}
	}
}

func TestUnknownFlagIsReportedOnce(t *testing.T) {
	code, out, errOut := rhapsode(t, "local", "--bogus")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if n := strings.Count(out+errOut, "-bogus"); n != 1 {
		t.Errorf("the unknown flag is reported %d times:\n%s%s", n, out, errOut)
	}
	if !strings.Contains(errOut, "rhapsode local -h") {
		t.Errorf("the report does not say where the flags are listed: %s", errOut)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := rhapsode(t, "version")
	if code != 0 || !strings.HasPrefix(out, "rhapsode ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

// TestBadDatabaseIsExplained opens the local table on a folder, a file that
// is no database and a file in a missing folder: each gets a sentence
// saying what is wrong and what to do, and no Go error.
func TestBadDatabaseIsExplained(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.db")
	if err := os.WriteFile(junk, bytes.Repeat([]byte("not a database "), 100), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ db, want string }{
		{dir, "is a folder, not a database file: name a file in it, like --db " + filepath.Join(dir, "rhapsode.db")},
		{junk, "is not a Rhapsode database"},
		{filepath.Join(dir, "missing", "x.db"), "does not exist: create it"},
	} {
		code, _, errOut := rhapsode(t, "local", "--db", tt.db)
		if code != 1 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "(14)") || strings.Contains(errOut, "(26)") {
			t.Errorf("--db %s: exit %d, %q; want a sentence with %q", tt.db, code, errOut, tt.want)
		}
	}
}

func TestBoardsNoteSaysWherePicturesGo(t *testing.T) {
	if n := boardsNote(""); !strings.Contains(n, "--boards DIR") {
		t.Errorf("without --boards: %q", n)
	}
	if n := boardsNote("pics"); !strings.Contains(n, "pics") {
		t.Errorf("with --boards pics: %q", n)
	}
}
