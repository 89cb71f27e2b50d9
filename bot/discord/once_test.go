package discord

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
)

// TestSameInteractionMakesOneStep: one /aloof delivered three times, to
// the bot, to a second bot on the same database, and to a bot started
// afresh after the others stopped, makes one step, and each delivery is
// answered with the same words.
func TestSameInteractionMakesOneStep(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t)
	for _, name := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
		i := loadInteraction(t, name)
		tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	}
	tb.direct(t, "#stack sequence KS 10S QS 9S")
	start := loadInteraction(t, "book-start")
	tb.bot.Handle(ctx, start, tb.gatewayRespond(start))
	tb.fake.take()
	info, err := tb.store.ActiveGame(ctx, testGuild, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	before := info.Head

	second, err := store.Open(ctx, tb.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	second.Now = tb.clock
	other := New(bot.NewRouter(bot.Config{Store: second, Rulesets: []engine.Ruleset{gwab.New()}, Now: tb.clock}), tb.bot.Session, nil)

	i := loadInteraction(t, "aloof-alice")
	var answers []string
	posts := 0
	answer := func() {
		t.Helper()
		for _, c := range tb.fake.take() {
			if c.Method == http.MethodPost && strings.Contains(c.Path, "/channels/") {
				posts++
			}
			if c.Method == http.MethodPatch && strings.HasSuffix(c.Path, i.Token+"/messages/@original") {
				answers = append(answers, content(c))
			}
		}
	}
	tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	answer()
	other.Handle(ctx, i, tb.gatewayRespond(i))
	answer()
	// A restart: the first bot's store closes, a new one opens the file.
	tb.store.Close()
	third, err := store.Open(ctx, tb.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	third.Now = tb.clock
	New(bot.NewRouter(bot.Config{Store: third, Rulesets: []engine.Ruleset{gwab.New()}, Now: tb.clock}), tb.bot.Session, nil).Handle(ctx, i, tb.gatewayRespond(i))
	answer()

	after, err := third.Game(ctx, info.ID)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := third.Events(ctx, info.ID, before, after.Head)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, r := range recs {
		if r.Step {
			steps++
		}
	}
	if steps != 1 {
		t.Errorf("three deliveries of one interaction made %d steps", steps)
	}
	if posts > 1 {
		t.Errorf("the turn call was posted %d times", posts)
	}
	if len(answers) != 3 || !strings.Contains(answers[0], "stand aloof") || answers[1] != answers[0] || answers[2] != answers[0] {
		t.Errorf("the three deliveries were answered %q", answers)
	}
}
