package bot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// playWithPictures plays the script at path through a router that draws
// pictures, line by line, and gives each line with its replies to each.
func playWithPictures(t *testing.T, path string, each func(text string, line engine.Line, reps []Reply)) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "pictures.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 },
		Renderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	user := engine.PlayerID("player")
	for _, text := range strings.Split(string(src), "\n") {
		line, err := engine.ParseLine(text)
		if err != nil || line.Empty {
			continue
		}
		if line.User != "" {
			user = line.User
		}
		each(text, line, r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: user, Command: line.Command}))
	}
}

// TestSealedStepDrawsNoPicture plays goliath's written-orders transcript
// with pictures: a step that only seals an order (or a melee deployment
// indicator) changes nothing on the board and posts no picture, while the
// step that opens the orders and carries them out does.
func TestSealedStepDrawsNoPicture(t *testing.T) {
	orders, pictures := 0, 0
	playWithPictures(t, "../engine/goliath/testdata/transcripts/goliath-orders.script", func(text string, line engine.Line, reps []Reply) {
		drawn := slices.ContainsFunc(reps, func(rep Reply) bool { return rep.Image != nil })
		if line.Command.Name == "orders" {
			orders++
			if drawn {
				t.Errorf("%s: a sealed order drew a picture", text)
			}
		} else if drawn {
			pictures++
		}
	})
	if orders < 5 || pictures < 5 {
		t.Fatalf("the script gave %d orders and drew %d pictures for other steps; the test needs both", orders, pictures)
	}
}

// TestBotsSealedOrdersAskNoWhy plays the goliath chair transcript with
// pictures: the message of the bot's steps that write its sealed orders
// carries no Why? button, since /why tells nothing of a choice still
// sealed (it did: its choices among orders were choices), while the
// message of its steps that change the board carries a picture.
func TestBotsSealedOrdersAskNoWhy(t *testing.T) {
	sealed, open := 0, 0
	playWithPictures(t, "testdata/transcripts/goliath-chair.script", func(_ string, _ engine.Line, reps []Reply) {
		for _, rep := range reps {
			if _, bot := engine.IsBot(rep.User); !bot {
				continue
			}
			if strings.HasPrefix(rep.Text, "Horde write an order.") {
				sealed++
				if len(rep.Buttons) > 0 {
					t.Errorf("the bot's sealed orders came with buttons %v:\n%s", rep.Buttons, rep.Text)
				}
				continue
			}
			open++
			if rep.Image == nil {
				t.Errorf("the bot's steps in the open came without a picture:\n%s", rep.Text)
			}
		}
	})
	if sealed < 2 || open < 1 {
		t.Fatalf("the script had %d messages of the bot's sealed orders and %d of its steps in the open; the test needs both", sealed, open)
	}
}
