package web

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/store"
)

// TestSagaPace: the saga's standings show each player's pace under his
// alias: calls answered, the median and 90th percentile time to act, and
// the books he finished and abandoned, as the router recorded them on
// its clock.
func TestSagaPace(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pace.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	// The store dates the steps by the router's clock, as the double
	// press check compares the two.
	st.Now = func() time.Time { return now }
	router := bot.NewRouter(bot.Config{Store: st, Rulesets: rulesets(), Directives: true, WebURL: "https://rhapsode.example.org",
		Now: func() time.Time { return now }})
	c := &club{st: st, router: router, web: New(Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), Store: st, Rulesets: rulesets()})}
	setup := c.play(t, "g1", "table", `@alice /saga start name:Wrath quorum:3
@alice /book open
/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow
/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling
@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow
/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin
@carol /clan raise name:Dardanians hero:Aeneas side:antagonist warbands:spear,sword,bow
/clan raise name:Argives hero:Diomedes side:protagonist warbands:spear,spear,javelin
#stack sequence KS 10S QS 9S JS 8S
@alice /book start
`) // the Myrmidons (alice), the Trojans (bob), the Dardanians (carol), the Lycians (alice), the Achaeans (bob), the Argives (carol)
	if strings.Contains(setup, " only) ") {
		t.Fatalf("the setup was refused:\n%s", setup)
	}
	for _, step := range []struct {
		wait time.Duration
		line string
	}{
		{2 * time.Hour, "@alice /aloof"}, {5 * time.Hour, "@bob /aloof"}, {time.Hour, "@carol /aloof"},
		{30 * time.Minute, "@alice /aloof"}, {24 * time.Hour, "@bob /aloof"},
		// carol vanishes while the Argives wait for her; dave, who takes
		// them, is called and has not acted when the book ends.
		{72 * time.Hour, `@alice /seat hand seat:ARG to:@dave reason:"carol is gone"`},
		{time.Minute, `@alice /book end reason:"at dusk"`},
	} {
		now = now.Add(step.wait)
		if out := c.play(t, "g1", "table", step.line+"\n"); strings.Contains(out, " only) ") {
			t.Fatalf("%s: %s", step.line, out)
		}
	}
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	_, page := c.get(t, home)
	i := strings.Index(page, `<table id="pace">`)
	if i < 0 {
		t.Fatalf("the standings have no pace:\n%s", page)
	}
	table := page[i : i+strings.Index(page[i:], "</table>")]
	rows := regexp.MustCompile(`(?s)<tr>\s*<td>(Player \d)</td><td class="n">(\d+)</td><td>([^<]*)</td><td>([^<]*)</td><td class="n">(\d+)</td><td class="n">(\d+)</td>`).FindAllStringSubmatch(table, -1)
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(r[1:], " | "))
	}
	want := []string{"Player 1 | 2 | 30 minutes | 2 hours | 1 | 0", "Player 2 | 2 | 5 hours | 24 hours | 1 | 0", "Player 3 | 1 | 1 hour | 1 hour | 0 | 1", "Player 4 | 0 | – | – | 1 | 0"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the pace rows are\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if regexp.MustCompile(`\b\d{17,20}\b`).MatchString(page) {
		t.Errorf("the standings name a Discord account")
	}
}
