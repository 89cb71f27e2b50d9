package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

// snowflakeAt makes an interaction ID created at t, as Discord makes them:
// milliseconds since Discord's epoch above 22 bits of worker and counter.
func snowflakeAt(t time.Time, n int) string {
	ms := t.UnixMilli() - 1420070400000
	return strconv.FormatInt(ms<<22|int64(n), 10)
}

// pressAt is the fixture name delivered as an interaction of its own,
// made at the given time.
func pressAt(t *testing.T, name string, at time.Time, n int) []byte {
	t.Helper()
	var i map[string]any
	if err := json.Unmarshal(fixture(t, name), &i); err != nil {
		t.Fatal(err)
	}
	i["id"] = snowflakeAt(at, n)
	i["token"] = fmt.Sprintf("%s-%d", i["token"], n)
	data, err := json.Marshal(i)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDoublePressIsRefused: alice gives /aloof for the Myrmidons, and the
// table then awaits her Lycians. The same /aloof given again (a second
// tap, a second device) at any gap up to a second after the first, over
// the HTTP endpoint, before she could have seen the first's answer, is
// refused privately, saying what the first did; nothing is played for
// the Lycians. Given once the answer could have been seen, it plays as
// any command does.
func TestDoublePressIsRefused(t *testing.T) {
	for _, gap := range []time.Duration{0, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
		750 * time.Millisecond, time.Second, 2 * time.Second} {
		t.Run(gap.String(), func(t *testing.T) {
			e := newEndpoint(t)
			e.bot.Router = bot.NewRouter(bot.Config{Store: e.store, Rulesets: []engine.Ruleset{gwab.New()},
				Seed: func() uint64 { return 2026 }, Now: e.clock, SeenAfter: SeenAfter})
			ctx := context.Background()
			for _, name := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
				i := loadInteraction(t, name)
				e.bot.Handle(ctx, i, e.gatewayRespond(i))
			}
			// The Myrmidons, then the Lycians: alice's two clans in a row.
			e.direct(t, "#stack sequence KS QS 10S 9S")
			i := loadInteraction(t, "book-start")
			e.bot.Handle(ctx, i, e.gatewayRespond(i))
			e.bot.Wait()
			e.fake.take()
			e.advance(time.Minute) // the table reads the deal

			first := pressAt(t, "aloof-alice", e.clock(), 1)
			e.send(t, first)
			answer := e.fake.waitFor(t, "the first press's answer", originalEdit("aW50ZXJhY3Rpb246aloof-alice-1"))
			if !strings.Contains(content(answer), "The Myrmidons stand aloof") {
				t.Fatalf("the first press was answered %q", content(answer))
			}
			e.advance(gap)
			second := pressAt(t, "aloof-alice", e.clock(), 2)
			r := e.send(t, second)
			again := e.fake.waitFor(t, "the second press's answer", originalEdit("aW50ZXJhY3Rpb246aloof-alice-2"))
			e.bot.Wait()
			aloof := e.aloofSteps(t)
			if gap >= SeenAfter {
				if !strings.Contains(content(again), "The Lycians stand aloof") || aloof != 2 {
					t.Errorf("a press %s after the first, once its answer could be seen, was answered %q (%d clans aloof)", gap, content(again), aloof)
				}
				return
			}
			private := r.Data != nil && r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
			if !private || !strings.Contains(content(again), "Your earlier command already played: The Myrmidons stand aloof") || aloof != 1 {
				t.Errorf("a second press %s after the first was answered %q (private %v), and %d clans stood aloof", gap, content(again), private, aloof)
			}
		})
	}
}

// aloofSteps counts the clans the channel's book has stood aloof.
func (tb *table) aloofSteps(t *testing.T) int {
	t.Helper()
	ctx := context.Background()
	info, err := tb.store.ActiveGame(ctx, testGuild, testChannel)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := tb.store.Events(ctx, info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, rec := range recs {
		if rec.Kind == "gwab.stood-aloof" {
			n++
		}
	}
	return n
}
