package bot

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rhapsode/rhapsode/store"
)

// BenchmarkStepWithDeadline is one step of a book through the router,
// with turn calls and a deadline clock set again at every turn, against
// the same step without them: what a Discord table adds to each step.
func BenchmarkStepWithDeadline(b *testing.B) {
	for _, clock := range []bool{false, true} {
		b.Run(fmt.Sprintf("deadline=%v", clock), func(b *testing.B) {
			st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "step.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, TurnCalls: clock})
			doAll(b, r, append([]string{"@alice /book open mode:raid"}, raidClans...))
			next := nextPlayer(b, do(b, r, "@alice /book start"))
			if clock {
				do(b, r, "@alice /book deadline hours:2")
			}
			b.ReportAllocs()
			for b.Loop() {
				next = nextPlayer(b, do(b, r, "@"+next+" /aloof"))
			}
		})
	}
}
