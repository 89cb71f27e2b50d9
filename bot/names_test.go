package bot

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// viewKeeper is a Renderer that keeps the views it is asked to draw.
type viewKeeper struct {
	mu    sync.Mutex
	views []engine.View
}

func (v *viewKeeper) PNG(view engine.View) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.views = append(v.views, view)
	return []byte("\\x89PNG"), nil
}

// TestPicturesNamePlayers: on Discord a player is an account ID, which a
// board picture cannot show as a mention; the picture names him as the
// transport last gave his name (with no bidirectional controls), and
// keeps the ID of one it was never given.
func TestPicturesNamePlayers(t *testing.T) {
	rec := &viewKeeper{}
	r := NewRouter(Config{Store: openStore(t, filepath.Join(t.TempDir(), "names.db")), Rulesets: rulesets(), Renderer: rec})
	const alice, bob = "111111111111111111", "222222222222222222"
	say := func(user, name, line string) {
		t.Helper()
		l, err := engine.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		reps := r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: engine.PlayerID(user), Name: name, Command: l.Command})
		if len(reps) == 0 || reps[0].Ephemeral {
			t.Fatalf("%s: %+v", line, reps)
		}
	}
	say(alice, "Alice\u202e of Troy", "/book open mode:practice")
	say(alice, "Alice\u202e of Troy", "/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow")
	say(alice, "Alice\u202e of Troy", "/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling")
	say(bob, "", "/clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow")
	say(bob, "", "/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin")
	say(alice, "Alice\u202e of Troy", "/book start")
	if len(rec.views) == 0 {
		t.Fatal("no picture was drawn")
	}
	v := rec.views[len(rec.views)-1]
	players := map[string]string{}
	for _, g := range v.Groups {
		players[g.Name] = g.Player
	}
	want := map[string]string{"Myrmidons": "Alice of Troy", "Lycians": "Alice of Troy", "Trojans": bob, "Achaeans": bob}
	for clan, who := range want {
		if players[clan] != who {
			t.Errorf("the legend names the %s' player %q, want %q", clan, players[clan], who)
		}
	}
	for _, s := range []string{v.Title, v.Caption} {
		if strings.Contains(s, alice) {
			t.Errorf("the header shows an account ID: %q", s)
		}
	}
}
