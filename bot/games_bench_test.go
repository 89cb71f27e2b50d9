package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// BenchmarkGames answers /games for a player of 20 open books of one
// server, each some rounds into play: it loads every book of the server
// (from its newest snapshot), its deadline and its last calls.
func BenchmarkGames(b *testing.B) {
	st := openStore(b, filepath.Join(b.TempDir(), "games.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	ctx := context.Background()
	for c := range 20 {
		ch := fmt.Sprintf("c%d", c)
		user := engine.PlayerID("")
		lines := append([]string{"@alice /book open mode:raid"}, raidClans...)
		lines = append(lines, "@alice /book start", "@alice /book deadline hours:24")
		for _, text := range lines {
			l, err := engine.ParseLine(text)
			if err != nil {
				b.Fatal(err)
			}
			if l.User != "" {
				user = l.User
			}
			r.Handle(ctx, Request{Guild: "g", Channel: ch, User: user, Command: l.Command})
		}
		for range 24 { // steps: whoever is awaited stands aloof
			g, err := st.ActiveGame(ctx, "g", ch)
			if err != nil {
				b.Fatal(err)
			}
			game, err := Load(ctx, st, r.rules[g.Ruleset], g.ID)
			if err != nil {
				b.Fatal(err)
			}
			w := awaited(game)
			if len(w) == 0 {
				break
			}
			r.Handle(ctx, Request{Guild: "g", Channel: ch, User: w[0].Player, Command: engine.Command{Name: "aloof"}})
		}
	}
	req := Request{Guild: "g", Channel: "c0", User: "alice", Command: engine.Command{Name: "games"}}
	if reps := r.Handle(ctx, req); len(reps) != 1 || !reps[0].Ephemeral {
		b.Fatalf("/games: %+v", reps)
	}
	b.ResetTimer()
	for b.Loop() {
		r.Handle(ctx, req)
	}
}
