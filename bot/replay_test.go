package bot

import (
	"bytes"
	"image/gif"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/render"
)

// TestReplayIsAnAnimation: /book replay posts the channel's book as an
// animated GIF, a frame for each step that changed the board, within
// Discord's attachment limit; from: and to: choose the steps, and a range
// without a board is refused.
func TestReplayIsAnAnimation(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "replay.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true,
		ReplayRenderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	doAll(t, r, practiceSetup)
	doAll(t, r, []string{"@alice /move element:MYR-W1 to:13,13", "@bob /aloof", "@alice /aloof", "@bob /aloof"})
	reps := do(t, r, "@carol /book replay")
	if len(reps) != 1 || reps[0].Ephemeral || reps[0].Image == nil {
		t.Fatalf("/book replay answered %+v", reps)
	}
	if ext, _ := ImageKind(reps[0].Image); ext != "gif" {
		t.Fatalf("the replay is a %s", ext)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(reps[0].Image))
	if err != nil {
		t.Fatal(err)
	}
	// The book's start and its four steps changed or showed the board;
	// opening, raising clans and stacking cards did not.
	if len(anim.Image) != 5 {
		t.Errorf("%d frames, want 5 (the start and four steps): %s", len(anim.Image), reps[0].Text)
	}
	if len(reps[0].Image) > maxReplayBytes {
		t.Errorf("the replay is %d bytes", len(reps[0].Image))
	}
	part := do(t, r, "@carol /book replay from:12 to:13")
	if anim, err := gif.DecodeAll(bytes.NewReader(part[0].Image)); err != nil || len(anim.Image) != 2 {
		t.Errorf("steps 12 to 13 gave %v frames, %v", len(anim.Image), err)
	}
	bad := do(t, r, "@carol /book replay from:2 to:3")
	if len(bad) != 1 || !bad[0].Ephemeral || !strings.Contains(bad[0].Text, "no board") {
		t.Errorf("a range before the start was answered %+v", bad)
	}
}

// BenchmarkReplay200 answers /book replay for a book of more than 200
// steps (a raid of six clans standing aloof, round after round): the
// time to draw and encode it, and the size of the GIF, which must stay
// within Discord's attachment limit.
func BenchmarkReplay200(b *testing.B) {
	st := openStore(b, filepath.Join(b.TempDir(), "replay.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true,
		ReplayRenderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	doAll(b, r, append([]string{"@alice /book open mode:raid"}, raidClans...))
	next := nextPlayer(b, do(b, r, "@alice /book start"))
	for range 200 {
		next = nextPlayer(b, do(b, r, "@"+next+" /aloof"))
	}
	var size int
	for b.Loop() {
		reps := do(b, r, "@carol /book replay")
		if len(reps) != 1 || reps[0].Image == nil {
			b.Fatalf("/book replay answered %+v", reps)
		}
		size = len(reps[0].Image)
	}
	if size > maxReplayBytes {
		b.Fatalf("the replay is %d bytes, over %d", size, maxReplayBytes)
	}
	b.ReportMetric(float64(size), "bytes/gif")
}
