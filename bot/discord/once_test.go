package discord

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/render"
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

// slowFirst is the store of a bot whose step waits, before it is
// recorded, until another bot has been handed the same interaction.
type slowFirst struct {
	*store.Store
	taken, release chan struct{}
}

func (s *slowFirst) TakeInteraction(ctx context.Context, id string, now time.Time) ([]byte, bool, error) {
	defer close(s.taken)
	return s.Store.TakeInteraction(ctx, id, now)
}

func (s *slowFirst) Append(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool) (store.Game, error) {
	<-s.release
	return s.Store.Append(ctx, id, expect, recs, end)
}

// secondTaker is the store of the bot a delivery comes to second: it lets
// the first record its step once it has found the interaction in hand.
type secondTaker struct {
	*store.Store
	once    sync.Once
	release chan struct{}
}

func (s *secondTaker) TakeInteraction(ctx context.Context, id string, now time.Time) ([]byte, bool, error) {
	answer, fresh, err := s.Store.TakeInteraction(ctx, id, now)
	if !fresh {
		s.once.Do(func() { close(s.release) })
	}
	return answer, fresh, err
}

// TestSecondDeliveryWaitsForTheAnswer: an /aloof reaches two bots on one
// database, the second while the first still has it in hand. The second
// waits for the first's answer and writes the same words, never a word of
// its own ("already in hand…"), and leaves the first's picture; one step
// is recorded.
func TestSecondDeliveryWaitsForTheAnswer(t *testing.T) {
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
	tb.advance(time.Minute)
	taken, release := make(chan struct{}), make(chan struct{})
	first, err := store.Open(ctx, tb.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := store.Open(ctx, tb.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	first.Now, second.Now = tb.clock, tb.clock
	a := New(bot.NewRouter(bot.Config{Store: &slowFirst{Store: first, taken: taken, release: release}, Rulesets: []engine.Ruleset{gwab.New()},
		Renderer: render.New(render.Options{}), Now: tb.clock}), tb.bot.Session, nil)
	b := New(bot.NewRouter(bot.Config{Store: &secondTaker{Store: second, release: release}, Rulesets: []engine.Ruleset{gwab.New()}, Now: tb.clock}), tb.bot.Session, nil)

	i := loadInteraction(t, "aloof-alice")
	var wg sync.WaitGroup
	wg.Go(func() { a.Handle(ctx, i, tb.gatewayRespond(i)) })
	<-taken
	b.Handle(ctx, i, func(context.Context, *discordgo.InteractionResponse) error { return nil })
	wg.Wait()

	var edits []call
	for _, c := range tb.fake.take() {
		if originalEdit(i.Token)(c) {
			edits = append(edits, c)
		}
	}
	if len(edits) != 2 || !strings.Contains(content(edits[0]), "The Myrmidons stand aloof") || content(edits[1]) != content(edits[0]) {
		var words []string
		for _, c := range edits {
			words = append(words, content(c))
		}
		t.Fatalf("the response was written %q, want the first's answer twice", words)
	}
	// The two edits may come in either order: the first's, with its
	// picture, and the second's, which does not name the attachments.
	pictured, wordsOnly := 0, 0
	for _, c := range edits {
		if _, named := c.JSON.(map[string]any)["attachments"]; !named {
			wordsOnly++
		} else if len(c.Files) > 0 {
			pictured++
		}
	}
	if pictured != 1 || wordsOnly != 1 {
		t.Errorf("of the two edits %d carried the picture and %d left it as it was, want one each", pictured, wordsOnly)
	}
	if n := tb.aloofSteps(t); n != 1 {
		t.Errorf("%d clans stood aloof", n)
	}
}

// forgetful fails to keep the first answers it is given, as a database
// restarting would.
type forgetful struct {
	*store.Store
	fails int
}

func (f *forgetful) AnswerInteraction(ctx context.Context, id string, answer []byte) error {
	if f.fails > 0 {
		f.fails--
		return errors.New("connection refused")
	}
	return f.Store.AnswerInteraction(ctx, id, answer)
}

// TestAnswerIsKeptThroughFailures: the store fails to keep an answer three
// times; it is offered again until kept, and a later delivery, to another
// bot, writes the same words.
func TestAnswerIsKeptThroughFailures(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t)
	tb.bot.Router = bot.NewRouter(bot.Config{Store: &forgetful{Store: tb.store, fails: 3}, Rulesets: []engine.Ruleset{gwab.New()}, Now: tb.clock})
	i := loadInteraction(t, "book-open")
	tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	again := New(bot.NewRouter(bot.Config{Store: tb.store, Rulesets: []engine.Ruleset{gwab.New()}, Now: tb.clock}), tb.bot.Session, nil)
	again.Handle(ctx, i, tb.gatewayRespond(i))
	var words []string
	for _, c := range tb.fake.take() {
		if originalEdit(i.Token)(c) {
			words = append(words, content(c))
		}
	}
	if len(words) != 2 || words[1] != words[0] || !strings.Contains(words[0], "book") {
		t.Errorf("the two deliveries wrote %q", words)
	}
}

// TestUnansweredFirstIsLeftAlone: a delivery whose first was taken by a
// process that stopped before answering waits for the answer, and when
// none comes writes nothing over the response.
func TestUnansweredFirstIsLeftAlone(t *testing.T) {
	ctx := context.Background()
	tb := newTable(t)
	i := loadInteraction(t, "book-open")
	if _, fresh, err := tb.store.TakeInteraction(ctx, i.ID, tb.clock()); err != nil || !fresh {
		t.Fatalf("taken: %v, %v", fresh, err)
	}
	// A clock that runs on five seconds each time it is read.
	var ticks atomic.Int64
	clock := func() time.Time { return tb.clock().Add(time.Duration(ticks.Add(1)) * 5 * time.Second) }
	tb.bot.Router = bot.NewRouter(bot.Config{Store: tb.store, Rulesets: []engine.Ruleset{gwab.New()}, Now: clock})
	tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	for _, c := range tb.fake.take() {
		if originalEdit(i.Token)(c) {
			t.Errorf("the response was written over with %q", content(c))
		}
	}
}
