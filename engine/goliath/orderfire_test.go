package goliath

import (
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// The bot writes its longbowmen, 14" from the enemy's foot, only the
// standing volleys the rules let them loose as the table stands (Missile
// Fire): with the line clear, a plain volley; with its own heavy infantry
// in the line of fire 8" off, overhead fire (their range, two thirds of
// 21", reaches 14"); with the infantry touching their front, none at all.
// Its wizard, beside the archers, is written a bolt only when the
// infantry stand out of his line. An order the line of fire forbids would
// only be reported and dropped when the orders are read.
func TestBotOrdersOnlyShotsItsTroopsCanLoose(t *testing.T) {
	orders := func(t *testing.T, foot string) []string {
		t.Helper()
		tb := enginetest.NewTable(New())
		if out, err := tb.Play(`@ref /book open rules:goliath method:orders
@alice /army raise name:Kingdom units:"8 longbowmen, 12 heavy infantry, 1 wizard" tag:KIN
@bob /army raise name:March units:"12 medium infantry" tag:MAR
#place KIN-1 30,10 N 4
#place KIN-2 ` + foot + ` N 6
#place KIN-3 36,10 N 1
#place MAR-1 30,24 S 6
@alice /done
@bob /done`); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		s := tb.Game().State.(*State)
		if s.Stage != Orders {
			t.Fatalf("the battle is at %s, not its orders", s.Stage)
		}
		var out []string
		for _, c := range New().Propose(s, "alice") {
			if c.Name == "orders" && (c.Opt("unit") == "KIN-1" || c.Opt("unit") == "KIN-3") {
				out = append(out, c.Opt("unit")+": "+c.Opt("order"))
			}
		}
		return out
	}
	has := func(os []string, unit, order string) bool { return slices.Contains(os, unit+": "+order) }
	for _, c := range []struct {
		name, foot       string
		volley, overhead bool
		wizard           bool
	}{
		{"clear", "50,14", true, false, true},
		{"infantry 8 inches ahead", "30,20", false, true, false},
		{"infantry just ahead", "30,12", false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			os := orders(t, c.foot)
			if got := has(os, "KIN-1", "fire at MAR-1"); got != c.volley {
				t.Errorf("a standing volley at MAR-1 written: %v, want %v\n%s", got, c.volley, strings.Join(os, "\n"))
			}
			if got := has(os, "KIN-1", "fire at MAR-1 indirect"); got != c.overhead {
				t.Errorf("overhead fire at MAR-1 written: %v, want %v\n%s", got, c.overhead, strings.Join(os, "\n"))
			}
			if got := has(os, "KIN-3", "cast bolt at MAR-1"); got != c.wizard {
				t.Errorf("a bolt at MAR-1 written: %v, want %v\n%s", got, c.wizard, strings.Join(os, "\n"))
			}
		})
	}
}
