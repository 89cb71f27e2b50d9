package discord

import (
	"context"
	"testing"
)

// BenchmarkInteraction measures one interaction from the first response
// to the last call to Discord, through the fake on loopback: /status
// (text only) and /board (a board drawn and uploaded).
func BenchmarkInteraction(b *testing.B) {
	for _, name := range []string{"status", "board"} {
		b.Run(name, func(b *testing.B) {
			tb := newTable(b)
			ctx := context.Background()
			for _, n := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans", "book-start"} {
				i := loadInteraction(b, n)
				tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
			}
			i := loadInteraction(b, name)
			tb.fake.take()
			b.ResetTimer()
			for b.Loop() {
				tb.bot.Handle(ctx, i, tb.gatewayRespond(i))
				tb.fake.take()
			}
		})
	}
}
