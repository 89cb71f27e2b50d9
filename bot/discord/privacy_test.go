package discord

import (
	"context"
	"strings"
	"testing"
	"time"
)

// privateTexts returns every text the router meant for one player alone
// that the channel could read in the fake, which follows Discord's rule
// for follow-ups after a deferral.
func (f *fakeDiscord) leaked(private []string) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, p := range private {
		for _, s := range f.shown {
			if strings.Contains(s, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// TestRefusalOfAPublicCommandStaysPrivate: /book start with no book open
// is refused; the refusal is for the asker alone, and the channel sees
// none of it, on time or late.
func TestRefusalOfAPublicCommandStaysPrivate(t *testing.T) {
	for _, late := range []bool{false, true} {
		tb := newTable(t)
		if late {
			tb.bot.AnswerWithin = time.Nanosecond
		}
		i := loadInteraction(t, "book-start")
		tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
		tb.fake.mu.Lock()
		shown := append([]string(nil), tb.fake.shown...)
		tb.fake.mu.Unlock()
		var told bool
		for _, c := range tb.fake.take() {
			if strings.Contains(content(c), "book") && !c.Public {
				told = true
			}
		}
		for _, s := range shown {
			if s != "Answered privately." {
				t.Errorf("late %v: the channel read %q", late, s)
			}
		}
		if !told {
			t.Errorf("late %v: the asker was never told privately why", late)
		}
	}
}

// TestStatusLateIsPrivate: /status answered after its time is deferred
// privately, so its answer never reaches the channel.
func TestStatusLateIsPrivate(t *testing.T) {
	tb := newTable(t)
	for _, name := range []string{"book-open", "clan-raise-myrmidons"} {
		i := loadInteraction(t, name)
		tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
	}
	tb.fake.take()
	tb.fake.mu.Lock()
	tb.fake.shown = nil
	tb.fake.mu.Unlock()
	tb.bot.AnswerWithin = time.Nanosecond
	i := loadInteraction(t, "status")
	tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
	if got := tb.fake.leaked([]string{"gathering"}); len(got) > 0 {
		t.Errorf("the channel read the status: %q", got)
	}
	var told bool
	for _, c := range tb.fake.take() {
		told = told || strings.Contains(content(c), "gathering")
	}
	if !told {
		t.Error("the status was never told")
	}
}
