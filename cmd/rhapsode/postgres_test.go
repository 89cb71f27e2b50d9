package main

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestLocalOnPostgres plays the local table on the PostgreSQL database
// named by RHAPSODE_TEST_POSTGRES: a book opened in one run is found by
// the next, and exported.
func TestLocalOnPostgres(t *testing.T) {
	db := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if db == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to run --db on PostgreSQL")
	}
	channel := "pgtest-" + strings.ReplaceAll(t.Name(), "/", "-") + "-" + strings.TrimSpace(os.Getenv("HOSTNAME")) + "-" + strconv.Itoa(os.Getpid())
	play := func(script string) string {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"local", "--db", db, "--channel", channel}, strings.NewReader(script), &stdout, &stderr, func(string) string { return "" })
		if code != 0 {
			t.Fatalf("local exited %d: %s", code, stderr.String())
		}
		return stdout.String()
	}
	if out := play("/status\n"); !strings.Contains(out, "No book is open") {
		t.Fatalf("a new channel has a book:\n%s", out)
	}
	play("/book open\n")
	if out := play("/status\n"); !strings.Contains(out, "The book is gathering") {
		t.Fatalf("the second run does not find the book opened in the first:\n%s", out)
	}
	code, stdout, stderr := rhapsode(t, "export", "--db", db, "--channel", channel, "--list")
	if code != 0 || stdout == "" {
		t.Fatalf("export --list on PostgreSQL: exit %d, %q, %s", code, stdout, stderr)
	}
}
