package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine/enginetest"
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

// TestDemoPlaysItsTranscript plays each demonstration as a newcomer
// would, twice into one folder of pictures: each run says what its
// transcript test says (its dice fall the same way every time), and the
// second run's pictures are numbered on from the first's, none
// overwritten.
func TestDemoPlaysItsTranscript(t *testing.T) {
	for _, key := range bot.DemoKeys() {
		t.Run(key, func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join("..", "..", "bot", "testdata", "transcripts", "demo-"+key+".golden"))
			if err != nil {
				t.Fatal(err)
			}
			boards := filepath.Join(t.TempDir(), "pics")
			var firstRun []string
			for run := range 2 {
				code, out, errOut := rhapsode(t, "local", "--demo", "--rules", key, "--boards", boards)
				if code != 0 {
					t.Fatalf("run %d: exit %d: %s", run, code, errOut)
				}
				var said []string
				var pictures []string
				for _, line := range strings.SplitAfter(out, "\n") {
					switch {
					case strings.HasPrefix(line, "[board: "):
						pictures = append(pictures, strings.TrimSuffix(strings.TrimPrefix(line, "[board: "), "]\n"))
					case strings.HasPrefix(line, "The pictures of the demonstration are in "):
					default:
						said = append(said, line)
					}
				}
				if got := strings.Join(said, ""); got != string(golden) {
					t.Fatalf("run %d differs from demo-%s.golden:\n%s", run, key, enginetest.FirstDiff(string(golden), got))
				}
				if len(pictures) == 0 {
					t.Fatalf("run %d wrote no picture", run)
				}
				if run == 0 {
					firstRun = pictures
					continue
				}
				for _, p := range pictures {
					if slices.Contains(firstRun, p) {
						t.Errorf("the second run wrote %s over the first run's picture", p)
					}
				}
			}
			entries, err := os.ReadDir(boards)
			if err != nil {
				t.Fatal(err)
			}
			if want := 2 * len(firstRun); len(entries) != want {
				t.Errorf("%d pictures in the folder after two runs of %d, want %d", len(entries), len(firstRun), want)
			}
		})
	}
}

// TestRefusedArguments: each of these is refused with a sentence that
// says what the program wanted instead.
func TestRefusedArguments(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if code, _, errOut := rhapsode(t, "local", "--db", empty); code != 0 {
		t.Fatalf("an empty table: exit %d: %s", code, errOut)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "--db", filepath.Join(dir, "g.db")}, "gateway needs DISCORD_TOKEN"},
		{[]string{"local", "--db", "mysql://root:secret@db/rhapsode"}, "mysql:// is not a database Rhapsode can use: it keeps its games in a SQLite file (name its path, like --db rhapsode.db) or in PostgreSQL (a postgres:// or postgresql:// URL)"},
		{[]string{"export", "--db", "mysql://root:secret@db/rhapsode"}, "mysql:// is not a database Rhapsode can use"},
		{[]string{"migrate", "--from", empty, "--to", "sqlite://x.db"}, "sqlite:// is not a database Rhapsode can use"},
		{[]string{"export", "--db", empty, "--list"}, "there is no game yet in channel table, nor in any other channel of this database: a game begins with /book open"},
		{[]string{"export", "--db", empty}, "there is no game yet in channel table"},
		{[]string{"local", "--db", empty, "--rules", "btg"}, "--rules btg chooses whose demonstration --demo plays, and there is no --demo"},
	} {
		code, _, errOut := rhapsode(t, tt.args...)
		if code != 1 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want a sentence with %q", tt.args, code, errOut, tt.want)
		}
		if strings.Contains(errOut, "secret") || strings.Contains(errOut, "no such game") {
			t.Errorf("%v: the answer shows a password or the store's own words: %q", tt.args, errOut)
		}
	}
}

// TestExportNamesTheChannelsWithGames: asked for a channel without a game,
// export names the channels that have one.
func TestExportNamesTheChannelsWithGames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"local", "--db", db, "--channel", "tavern"}, strings.NewReader("@gm /book open rules:sweet\n"), &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Fatalf("opening a book: exit %d: %s", code, stderr.String())
	}
	code, _, errOut := rhapsode(t, "export", "--db", db, "--list")
	if want := "there is no game yet in channel table; the channels with games are tavern (name one with --channel)"; code != 1 || !strings.Contains(errOut, want) {
		t.Errorf("export --list of an empty channel: exit %d, %q; want %q", code, errOut, want)
	}
	if code, out, errOut := rhapsode(t, "export", "--db", db, "--channel", "tavern", "--list"); code != 0 || !strings.Contains(out, "sweet") {
		t.Errorf("export --list of the tavern: exit %d, %q %q", code, out, errOut)
	}
}
