package gwab

import (
	"strings"
	"testing"
)

// The bot's router caps a typed name at 40 characters, but the engine
// answers a long one briefly on its own: a name of up to 64 characters is
// compared with every element's and quoted back whole; a longer one is
// not searched, and only its first two dozen characters are quoted.
func TestLongNamesAreAnsweredBriefly(t *testing.T) {
	g, _ := aPracticeBook(t)
	s := g.State.(*State)
	epithet := "Hector son of Priam, breaker of horses, and prince of windy Troy"
	if len(epithet) != maxTyped {
		t.Fatalf("the epithet has %d characters; want %d", len(epithet), maxTyped)
	}
	for _, c := range []struct{ typed, want string }{
		{epithet, `There is no element called "` + epithet + `"; /status lists them.`},
		{epithet + "!", `There is no element called "Hector son of Priam, bre"…; /status lists them.`},
		{strings.Repeat("x", 100000), `There is no element called "xxxxxxxxxxxxxxxxxxxxxxxx"…; /status lists them.`},
	} {
		_, err := s.findElement(c.typed)
		if err == nil || err.Error() != c.want {
			t.Errorf("findElement(%.30q…) = %v\nwant %s", c.typed, err, c.want)
		}
	}
}
