package btg

import "testing"

// What one look at a position costs the bot: a melee under way with a
// support beside it, a charger in reach and archers with a target, the
// terms its evaluation weighs in every playout.
func BenchmarkEvaluate(b *testing.B) {
	g := botTable(&testing.T{}, botArmies+`
#place SPA-1 30,20 N 4
#place ATH-1 30,20 S 4
#place SPA-2 34,19 N 2
#place SPA-3 44,14 N 2
#place SPA-4 56,10 N 1
#place ATH-2 44,30 S 2
#place ATH-3 52,32 S 2
#place ATH-4 60,30 S 1
#place SPA-G 4,2
#place ATH-G 4,46
#stack cards 2C 2D
@bot /done
@bob /done
`)
	s := g.State.(*State)
	b.ReportAllocs()
	for b.Loop() {
		evaluate(s, "bot")
	}
}
