package goliath

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// A written order may run to 300 characters, as many as the bot's router
// takes (bot.MaxOrder); the engine refuses a longer or an empty one on
// its own, in game terms.
func TestOrderLength(t *testing.T) {
	tb := enginetest.NewTable(New())
	if out, err := tb.Play(`@ref /book open rules:goliath method:orders
@alice /army raise name:Men units:"10 heavy infantry" tag:MEN
@bob /army raise name:Orcs units:"20 orcs" tag:ORC`); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	s := tb.Game().State.(*State)
	u := s.Unit("MEN-1")
	if u == nil {
		t.Fatal("no MEN-1")
	}
	longest := "hold " + strings.Repeat("and wait ", 32) + strings.Repeat("x", 7)
	if len(longest) != maxOrder {
		t.Fatalf("the longest order has %d characters; want %d", len(longest), maxOrder)
	}
	if _, err := s.parseOrder(u, longest); err != nil {
		t.Errorf("an order of %d characters: %v", maxOrder, err)
	}
	for typed, want := range map[string]string{
		longest + "!": "An order may have at most 300 characters; this one has 301.",
		"   ":         "An order needs words: what MEN-1 (",
	} {
		if _, err := s.parseOrder(u, typed); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("order %.20q…: %v; want %s…", typed, err, want)
		}
	}
}
