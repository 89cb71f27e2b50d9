package bot

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// TestDieButtonsStandWhileDrawsWait: the first-move roll asks each army's
// d6 at once and offers a d6's faces as buttons; each player presses his
// face on the same message, and the second press is taken although the
// first moved the book on since the buttons were offered.
func TestDieButtonsStandWhileDrawsWait(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "buttons.db"))
	r := NewRouter(Config{Store: st, Rulesets: []engine.Ruleset{sweet.New()}, Directives: true, Logger: testLogger(t)})
	doAll(t, r, []string{
		"@alice /book open rules:sweet size:12x10 turns:1 dice:table",
		`/army build name:Romans units:"1 HI"`,
		`@bob /army build name:Macedonians tag:MAC units:"1 HI"`,
		"@alice #place ROM-1 B4 N",
		"#place MAC-1 B5 S",
		"/done",
	})
	var offered Reply
	for _, rep := range do(t, r, "@bob /done") {
		if len(rep.Buttons) > 0 {
			offered = rep
		}
	}
	if len(offered.Buttons) != 6 || !strings.Contains(offered.Text, "Waiting for the table") {
		t.Fatalf("the first-move roll offers %d buttons with %q", len(offered.Buttons), offered.Text)
	}
	press := func(user engine.PlayerID, face int) []Reply {
		b := offered.Buttons[face-1]
		return r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: user, Command: b.Command, AtSeq: offered.Seq})
	}
	if reps := press("bob", 2); refused(reps) {
		t.Fatalf("bob's press was refused: %+v", reps)
	}
	reps := press("alice", 5)
	if refused(reps) {
		t.Fatalf("alice's press on the same message was refused: %+v", reps)
	}
	if !strings.Contains(reps[0].Text, "Romans 5, Macedonians 2") {
		t.Errorf("the first move was not rolled with the faces pressed: %q", reps[0].Text)
	}
	// Once nothing is asked, a stale press is refused as any stale button.
	if reps := press("bob", 3); !refused(reps) {
		t.Errorf("a press after the draws were in was taken: %+v", reps)
	}
}
