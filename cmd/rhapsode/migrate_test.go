package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// club plays at the local table into the SQLite file db what a club's
// file holds: both demonstration books (GWAB and sweet) in channels of
// their own, a practice book left open with a turn deadline, and a book
// ended early. It returns the channels.
func club(t *testing.T, db string) []string {
	t.Helper()
	for _, rules := range []string{"gwab", "sweet"} {
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"local", "--demo", "--rules", rules, "--db", db, "--channel", "demo-" + rules, "--boards", t.TempDir()},
			strings.NewReader(""), &out, &errs, func(string) string { return "" }); code != 0 {
			t.Fatalf("the %s demonstration exited %d: %s", rules, code, errs.String())
		}
	}
	play := func(channel, script string) {
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{"local", "--db", db, "--channel", channel}, strings.NewReader(script), &out, &errs, func(string) string { return "" }); code != 0 {
			t.Fatalf("local exited %d: %s", code, errs.String())
		}
	}
	play("open", "@alice /book open mode:practice\n/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow\n@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,javelin\n@alice /book start\n/book deadline hours:6\n/me set zone:UTC+3 quiet:23-6\n")
	play("ended", "@alice /book open\n/book end reason:\"rain\"\n")
	return []string{"demo-gwab", "demo-sweet", "open", "ended"}
}

// exports writes every game of each channel as export does.
func exports(t *testing.T, db string, channels []string) string {
	t.Helper()
	var all strings.Builder
	for _, ch := range channels {
		code, list, stderr := rhapsode(t, "export", "--db", db, "--channel", ch, "--list")
		if code != 0 {
			t.Fatalf("export --list of %s: exit %d: %s", ch, code, stderr)
		}
		code, game, stderr := rhapsode(t, "export", "--db", db, "--channel", ch)
		if code != 0 {
			t.Fatalf("export of %s: exit %d: %s", ch, code, stderr)
		}
		fmt.Fprintf(&all, "== %s\n%s%s", ch, list, game)
	}
	return all.String()
}

// TestMigrateSQLiteToSQLite copies a club's file into a new one: every
// channel's games export the same from both, the copy is playable, and a
// second copy into it is refused.
func TestMigrateSQLiteToSQLite(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "club.db"), filepath.Join(dir, "copy.db")
	channels := club(t, from)
	code, out, stderr := rhapsode(t, "migrate", "--from", from, "--to", to)
	if code != 0 {
		t.Fatalf("migrate: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "Copied 4 games") || !strings.Contains(out, "1 turn deadline) and 1 setting") || !strings.Contains(out, "each game replays to the same state on both") {
		t.Errorf("migrate said: %s", out)
	}
	if a, b := exports(t, from, channels), exports(t, to, channels); a != b {
		t.Errorf("the copy exports otherwise than the original")
	}
	// The open book goes on in the copy.
	var stdout, errs bytes.Buffer
	run(context.Background(), []string{"local", "--db", to, "--channel", "open"}, strings.NewReader("/status\n"), &stdout, &errs, func(string) string { return "" })
	if !strings.Contains(stdout.String(), "Myrmidons") {
		t.Errorf("the open book's status in the copy:\n%s", stdout.String())
	}
	// alice's settings came along, and /games reads the same from both.
	ask := func(db, lines string) string {
		var out, errs bytes.Buffer
		run(context.Background(), []string{"local", "--db", db, "--channel", "open"}, strings.NewReader(lines), &out, &errs, func(string) string { return "" })
		return out.String()
	}
	if got := ask(to, "@alice /me set\n"); !strings.Contains(got, "Your time zone is UTC+3") || !strings.Contains(got, "from 23:00 to 6:00") {
		t.Errorf("alice's settings in the copy:\n%s", got)
	}
	if a, b := ask(from, "@bob /games\n"), ask(to, "@bob /games\n"); a != b || !strings.Contains(b, "#open") {
		t.Errorf("/games in the original:\n%s\nin the copy:\n%s", a, b)
	}
	code, _, stderr = rhapsode(t, "migrate", "--from", from, "--to", to)
	if code == 0 || !strings.Contains(stderr, "already holds 4 games") {
		t.Errorf("a second migrate into the copy: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", filepath.Join(dir, "nothing.db"), "--to", filepath.Join(dir, "x.db")}, "there is no database to copy"},
		{[]string{"--from", from}, "needs both --from"},
		{[]string{"--from", from, "--to", from}, "same database"},
	} {
		code, _, stderr := rhapsode(t, append([]string{"migrate"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("migrate %v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
}

var migrateSchemas atomic.Int64

// TestMigrateThroughPostgres copies a club's file into PostgreSQL and
// from there into a new file: all three export the same.
func TestMigrateThroughPostgres(t *testing.T) {
	base := os.Getenv("RHAPSODE_TEST_POSTGRES")
	if base == "" {
		t.Skip("RHAPSODE_TEST_POSTGRES is not set: set it to a postgres:// URL of a database the tests may write (.ci/postgres starts a throwaway server and prints one) to migrate into PostgreSQL and back")
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("migrate_%d_%d", os.Getpid(), migrateSchemas.Add(1))
	if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE; CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`)
		conn.Close(ctx)
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	pg := u.String()

	dir := t.TempDir()
	from, back := filepath.Join(dir, "club.db"), filepath.Join(dir, "back.db")
	channels := club(t, from)
	for _, args := range [][]string{{"--from", from, "--to", pg}, {"--from", pg, "--to", back}} {
		if code, out, stderr := rhapsode(t, append([]string{"migrate"}, args...)...); code != 0 || !strings.Contains(out, "Copied 4 games") {
			t.Fatalf("migrate %v: exit %d: %s%s", args, code, out, stderr)
		}
	}
	want := exports(t, from, channels)
	if got := exports(t, pg, channels); got != want {
		t.Error("PostgreSQL's copy exports otherwise than the file")
	}
	if got := exports(t, back, channels); got != want {
		t.Error("the file copied back exports otherwise than the first")
	}
	// A new book on PostgreSQL is numbered after the copied ones.
	var stdout, errs bytes.Buffer
	run(ctx, []string{"local", "--db", pg, "--channel", "ended"}, strings.NewReader("@alice /book open\n"), &stdout, &errs, func(string) string { return "" })
	if code, list, _ := rhapsode(t, "export", "--db", pg, "--channel", "ended", "--list"); code != 0 || !strings.Contains(list, "5") {
		t.Errorf("the channel's games after a new book on PostgreSQL:\n%s", list)
	}
}

// TestGatewayShardFlags: a shard outside its count is refused before the
// gateway is reached.
func TestGatewayShardFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "2", "--shards", "2"}, "not one of the 2 shards"},
		{[]string{"--shards", "none"}, "--shards takes"},
	} {
		var errOut bytes.Buffer
		code := run(context.Background(), append([]string{"gateway", "--db", db, "--no-register"}, c.args...), strings.NewReader(""), io.Discard, &errOut,
			func(k string) string { return map[string]string{"DISCORD_TOKEN": "not-a-real-token"}[k] })
		stderr := errOut.String()
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("gateway %v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
}
