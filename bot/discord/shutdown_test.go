package discord

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/render"
)

// slowRenderer draws boards slowly, as a loaded machine would.
type slowRenderer struct {
	bot.Renderer
	started chan struct{}
}

func (s slowRenderer) PNG(v engine.View) ([]byte, error) {
	select {
	case s.started <- struct{}{}:
	default:
	}
	time.Sleep(300 * time.Millisecond)
	return s.Renderer.PNG(v)
}

// TestCloseFinishesTheStepInHand: a bot told to close while a step is
// being drawn finishes it, answer and all, before Close returns, and
// answers nothing that comes after.
func TestCloseFinishesTheStepInHand(t *testing.T) {
	tb := newTable(t)
	started := make(chan struct{}, 1)
	tb.router = bot.NewRouter(bot.Config{Store: tb.store, Rulesets: []engine.Ruleset{gwab.New()},
		Renderer: slowRenderer{render.New(render.Options{}), started}, Seed: func() uint64 { return 7 }})
	tb.bot = New(tb.router, tb.bot.Session, nil)
	for _, name := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
		i := loadInteraction(t, name)
		tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
	}
	tb.fake.take()
	start := loadInteraction(t, "book-start")
	go tb.bot.Handle(context.Background(), start, tb.gatewayRespond(start))
	<-started
	tb.bot.Close()
	var edited bool
	for _, c := range tb.fake.take() {
		if c.Method == http.MethodPatch && strings.HasSuffix(c.Path, start.Token+"/messages/@original") && len(c.Files) == 1 {
			edited = true
		}
	}
	if !edited {
		t.Fatal("Close returned before the step in hand was answered with its board")
	}
	status := loadInteraction(t, "status")
	answered := false
	tb.bot.Handle(context.Background(), status, func(context.Context, *discordgo.InteractionResponse) error {
		answered = true
		return nil
	})
	if answered || len(tb.fake.take()) != 0 {
		t.Error("a closed bot answered an interaction")
	}
}

// TestPostReachesChannelsAndPlayers: what answers no interaction goes to
// its channel, and a private word to its player by direct message.
func TestPostReachesChannelsAndPlayers(t *testing.T) {
	tb := newTable(t)
	tb.bot.Post(context.Background(), []bot.Reply{
		{Channel: testChannel, Text: "Reminder: the Myrmidons (100000000000000001) must act.", Mentions: []engine.PlayerID{"100000000000000001"}},
		{User: "100000000000000002", Ephemeral: true, Text: "Only bob may read this."},
	})
	calls := tb.fake.take()
	if len(calls) != 3 {
		t.Fatalf("%d calls, want a channel message, a direct channel and a direct message", len(calls))
	}
	if calls[0].Path != "/api/v9/channels/"+testChannel+"/messages" || content(calls[0]) != "Reminder: the Myrmidons (<@100000000000000001>) must act." {
		t.Errorf("the reminder went as %s", describeCall(calls[0]))
	}
	if calls[1].Path != "/api/v9/users/@me/channels" || calls[1].obj()["recipient_id"] != "100000000000000002" {
		t.Errorf("the direct channel was asked as %s", describeCall(calls[1]))
	}
	if calls[2].Path != "/api/v9/channels/dm-100000000000000002/messages" || content(calls[2]) != "Only bob may read this." {
		t.Errorf("the private word went as %s", describeCall(calls[2]))
	}
}
