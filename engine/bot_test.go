package engine

import "testing"

// A seat's holder names the bot and its level as /seat writes them.
func TestIsBot(t *testing.T) {
	for _, tc := range []struct {
		p     PlayerID
		level Level
		bot   bool
	}{
		{"bot", Normal, true},
		{"bot:easy", Easy, true},
		{"bot:hard#2", Hard, true},
		{"bot#2", Normal, true},
		{"bot:wild", Normal, false},
		{"bottom", Normal, false},
		{"alice", Normal, false},
	} {
		l, ok := IsBot(tc.p)
		if ok != tc.bot || (ok && l != tc.level) {
			t.Errorf("IsBot(%q) = %s, %v; want %s, %v", tc.p, l, ok, tc.level, tc.bot)
		}
	}
	for _, l := range []Level{Easy, Normal, Hard} {
		if got, ok := IsBot(BotPlayer(l)); !ok || got != l {
			t.Errorf("IsBot(BotPlayer(%s)) = %s, %v", l, got, ok)
		}
	}
	if _, err := ParseLevel("wild"); err == nil {
		t.Error("level:wild was taken")
	}
}
