package discord

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

// TestTwoPlayersPressAtOnce: in a melee the Myrmidons (alice) and the
// Trojans (bob) each draw a Joker and keep it, and the table offers each
// player a button to play it and act at once. Both press at the same
// moment: both are answered, each with his own step, and the log holds
// the two Jokers played one after the other, each step whole.
func TestTwoPlayersPressAtOnce(t *testing.T) {
	tb := newTable(t)
	ctx := context.Background()
	for _, name := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
		i := loadInteraction(t, name)
		tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	}
	// Round 1 in raising order; round 2 the Lycians, the Achaeans, then
	// the Trojans and the Myrmidons, who have not acted when they press.
	tb.direct(t, "#stack sequence KS QS JS 10S 2S KH 3S QH")
	i := loadInteraction(t, "book-start")
	tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
	info, err := tb.store.ActiveGame(ctx, testGuild, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	g, err := bot.Load(ctx, tb.store, gwab.New(), info.ID)
	if err != nil {
		t.Fatal(err)
	}
	front := g.State.(*gwab.State).Element("MYR-W1").Base.FrontCenter()
	tb.direct(t, fmt.Sprintf("#place TRO-W1 %g,%g S", front.X, front.Y))
	tb.direct(t, "#stack combat JOKER QC JOKER 8C")
	var offered []engine.Button
	var at []engine.Seq
	for _, who := range []engine.PlayerID{"100000000000000001", "100000000000000001", "100000000000000002", "100000000000000002"} {
		for _, r := range tb.directives.Handle(ctx, bot.Request{Guild: testGuild, Channel: testChannel, User: who, Command: engine.Command{Name: "aloof"}}) {
			if r.Ephemeral {
				t.Fatalf("%s could not stand aloof: %s", who, r.Text)
			}
			offered = append(offered, r.Buttons...)
			for range r.Buttons {
				at = append(at, r.Seq)
			}
		}
	}
	if len(offered) != 2 || offered[0].For == offered[1].For {
		t.Fatalf("the melee offered %+v, want a Joker button for each player", offered)
	}
	tb.fake.take()
	before, _ := tb.store.ActiveGame(ctx, testGuild, testChannel)

	start := make(chan struct{})
	var wg sync.WaitGroup
	presses := make([]*discordgo.Interaction, 2)
	for n, b := range offered {
		who := "alice"
		if b.For == "100000000000000002" {
			who = "bob"
		}
		p := loadInteraction(t, "press-accept-"+who)
		id, ok := customID(b, at[n])
		if !ok {
			t.Fatalf("button %+v has no custom ID", b)
		}
		p.ID, p.Token = fmt.Sprintf("81000000000000000%d", n), fmt.Sprintf("press-joker-%s", who)
		p.Data = discordgo.MessageComponentInteractionData{CustomID: id, ComponentType: discordgo.ButtonComponent}
		presses[n] = p
		wg.Go(func() {
			<-start
			tb.bot.Handle(ctx, p, tb.gatewayRespond(p))
		})
	}
	close(start)
	wg.Wait()

	calls := tb.fake.take()
	for _, p := range presses {
		var stripped, told bool
		for _, c := range calls {
			switch {
			case c.Method == http.MethodPatch && strings.HasSuffix(c.Path, p.Token+"/messages/@original"):
				stripped = true
			case c.Method == http.MethodPost && strings.HasSuffix(c.Path, "/"+p.Token) && strings.Contains(content(c), "play a Joker for Special Dispensation"):
				told = true
			}
		}
		if !stripped || !told {
			t.Errorf("%s pressed: buttons taken away %v, step told %v", p.Token, stripped, told)
		}
	}
	recs, err := tb.store.Events(ctx, info.ID, before.Head, 0)
	if err != nil {
		t.Fatal(err)
	}
	var steps []engine.Record
	for _, r := range recs {
		if r.Step {
			steps = append(steps, r)
		} else if len(steps) == 0 || r.Actor != steps[len(steps)-1].Actor {
			t.Errorf("event %d (%s) of %s lies outside its player's step", r.Seq, r.Kind, r.Actor)
		}
	}
	if len(steps) != 2 || steps[0].Kind != "gwab.joker-played" || steps[1].Kind != "gwab.joker-played" || steps[0].Actor == steps[1].Actor {
		t.Fatalf("the presses made steps %+v, want one Joker played by each player", steps)
	}
}
