package bot

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

// brittle is the real rules with one command that panics, as a bug would.
type brittle struct{ gwab.Rules }

func (b brittle) Decide(tx *engine.Tx, c engine.Command) error {
	if c.Name == "status" && c.Actor == "mallory" {
		panic("a bug in the rules")
	}
	return b.Rules.Decide(tx, c)
}

// TestPanicInRulesChangesNothing: a command that panics is answered
// privately, records nothing, and the table carries on.
func TestPanicInRulesChangesNothing(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "panic.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{brittle{gwab.New()}}, Directives: true, Logger: testLogger(t)})
	doAll(t, r, practiceSetup)
	before := len(kinds(t, st))
	reps := r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: "mallory", Command: engine.Command{Name: "status"}})
	if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "nothing was recorded") {
		t.Fatalf("a panicking command was answered %+v", reps)
	}
	if after := len(kinds(t, st)); after != before {
		t.Fatalf("the log went from %d to %d events", before, after)
	}
	if reps := do(t, r, "@alice /aloof"); len(reps) == 0 || reps[0].Ephemeral {
		t.Fatalf("the table did not carry on: %+v", reps)
	}
}
