package main

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine/systems"
)

// TestRegisteredRulesAgreeOnOptions: the rule systems the program runs
// give each option name one kind (the router refuses to start otherwise),
// and an option they describe differently tells each system's players
// their own meaning, not another system's.
func TestRegisteredRulesAgreeOnOptions(t *testing.T) {
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("the registered rule systems disagree: %v", p)
		}
	}()
	r := bot.NewRouter(bot.Config{Rulesets: systems.All()})
	spec, ok := r.Spec("move")
	if !ok {
		t.Fatal("no /move")
	}
	to, _ := spec.Option("to")
	perSystem := strings.Contains(to.Help, "gwab: ") && strings.Contains(to.Help, "sweet: ") && strings.Contains(to.Help, "btg: ")
	pointer := strings.Contains(to.Help, "/help move")
	if !perSystem && !pointer || len(to.Help) > 100 {
		t.Errorf("/move to: is described to every book as %q: neither each system's meaning nor a pointer to /help that fits Discord's 100 characters", to.Help)
	}
}
