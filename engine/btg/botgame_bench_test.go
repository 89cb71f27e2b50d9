//go:build unix

package btg

import (
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// BenchmarkBotGame plays a whole battle per iteration between two normal
// bots on the arena's Greek armies, the game master's seat given to the
// bot too, and reports the processor time of a decision (median, p95,
// most): go test -run XXX -bench BotGame -benchtime 1x -cpu 1, with
// -cpuprofile to see where a decision goes.
func BenchmarkBotGame(b *testing.B) {
	const units = "2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 lt-inf bow 8, 1 cav spear 8, 1 leader"
	var each []time.Duration
	seed := uint64(13000)
	for b.Loop() {
		seed++
		p := enginetest.NewPlayer(b, New(), "bot#gm", seed)
		p.Must(b, "bot#gm|book open|turns:6",
			"bot#a|army build|name:Spartans|tag:SPA|civ:greek|units:"+units,
			"bot#b|army build|name:Athenians|tag:ATH|civ:greek|units:"+units)
		each = append(each, enginetest.TimeBots(b, p, engine.Normal)...)
	}
	enginetest.ReportTimes(b, each, "decision")
	b.ReportMetric(float64(len(each)), "decisions")
}
