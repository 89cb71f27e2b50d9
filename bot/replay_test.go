package bot

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
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
	if len(anim.Image) != 5 || !strings.HasSuffix(reps[0].Text, ", in 5 pictures.") {
		t.Errorf("%d frames, want 5 (the start and four steps): %s", len(anim.Image), reps[0].Text)
	}
	if len(reps[0].Image) > maxReplayBytes {
		t.Errorf("the replay is %d bytes", len(reps[0].Image))
	}
	part := do(t, r, "@carol /book replay from:12 to:13")
	if anim, err := gif.DecodeAll(bytes.NewReader(part[0].Image)); err != nil || len(anim.Image) != 2 {
		t.Errorf("steps 12 to 13 gave %v frames, %v", len(anim.Image), err)
	}
	if part[0].Text != "The book, steps 12 to 13, in 2 pictures." {
		t.Errorf("steps 12 to 13 were posted saying %q", part[0].Text)
	}
	one := do(t, r, "@carol /book replay from:13 to:13")
	if len(one) != 1 || one[0].Text != "The book, step 13, in 1 picture." {
		t.Errorf("step 13 alone was posted as %+v", one)
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

// TestReplayEveryBook replays every book of every transcript and
// demonstration, of every rule system, from its first step to its last,
// as /book replay does: each is within Discord's attachment limit, has a
// frame for each step with a board (or as many as a replay keeps, spread
// over the book), and says so; and each frame, composited on the GIF's
// one canvas as a viewer does, is that step's own picture, with nothing
// of the frames before it showing below a shorter one. A book that never
// set its board out is refused.
func TestReplayEveryBook(t *testing.T) {
	scripts := allScripts(t)
	if raceDetector {
		t.Logf("under the race detector, replays are drawn for %v only", racePictureScripts)
		scripts = racePictureScripts
	}
	rend := render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l, closeStore := table(t, filepath.Join(t.TempDir(), "replay.db"))
			defer closeStore()
			if err := l.Run(context.Background(), strings.NewReader(string(src)), io.Discard); err != nil {
				t.Fatal(err)
			}
			r := l.Router
			games, err := r.cfg.Store.Games(context.Background(), l.Guild)
			if err != nil {
				t.Fatal(err)
			}
			books := 0
			for _, info := range games {
				rs := r.rules[info.Ruleset]
				if _, ok := rs.(engine.Viewer); !ok {
					continue
				}
				books++
				checkReplay(t, r, rend, info)
			}
			if books == 0 {
				t.Fatal("the script played no book")
			}
		})
	}
}

// checkReplay replays the book info whole and checks it frame by frame.
func checkReplay(t *testing.T, r *Router, rend Renderer, info store.Game) {
	t.Helper()
	ctx := context.Background()
	rs := r.rules[info.Ruleset]
	viewer := rs.(engine.Viewer)
	recs, err := r.cfg.Store.Events(ctx, info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	events := make([]engine.Event, len(recs))
	for i, rec := range recs {
		if events[i], err = engine.DecodeRecord(rs, rec); err != nil {
			t.Fatal(err)
		}
	}
	var boards []int
	if _, err := WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		if v := viewer.View(g, step); v.Width > 0 && v.Depth > 0 && !nothingToDraw(step) {
			boards = append(boards, n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rp, err := r.Replay(ctx, rend, info, 1, 0)
	if len(boards) == 0 {
		if _, ok := engine.IsRefusal(err); !ok {
			t.Errorf("book %d set no board out, and its replay gave %v", info.ID, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("book %d (%s): %v", info.ID, info.Ruleset, err)
	}
	if len(rp.GIF) > maxReplayBytes {
		t.Errorf("book %d: the replay is %d bytes, over %d", info.ID, len(rp.GIF), maxReplayBytes)
	}
	want := spread(boards, min(len(boards), maxReplayFrames))
	if !slices.Equal(rp.Steps, want) {
		t.Errorf("book %d: the replay shows steps %v, want %v", info.ID, rp.Steps, want)
	}
	caption := fmt.Sprintf("The book, steps %d to %d, in %d pictures.", want[0], want[len(want)-1], len(want))
	if len(want) == 1 {
		caption = fmt.Sprintf("The book, step %d, in 1 picture.", want[0])
	}
	if rp.Caption() != caption {
		t.Errorf("book %d: the replay says %q, want %q", info.ID, rp.Caption(), caption)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(rp.GIF))
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != len(rp.Steps) {
		t.Fatalf("book %d: %d frames for %d steps", info.ID, len(anim.Image), len(rp.Steps))
	}
	frames := composite(anim)
	i := 0
	if _, err := WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		if i >= len(rp.Steps) || rp.Steps[i] != n {
			return nil
		}
		v := viewer.View(g, step)
		r.names.view(&v)
		data, err := rend.PNG(v)
		if err != nil {
			return err
		}
		pic, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return err
		}
		if msg := sameFrame(frames[i], pic); msg != "" {
			t.Errorf("book %d, step %d (frame %d of %d): %s", info.ID, n, i+1, len(frames), msg)
		}
		i++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// composite plays anim as a viewer does, on one canvas the size its
// header gives, starting transparent: each frame drawn over the canvas
// where it says, the canvas kept as it then shows, and the frame disposed
// of as it asks before the next.
func composite(anim *gif.GIF) []*image.RGBA {
	canvas := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	var out []*image.RGBA
	for i, f := range anim.Image {
		before := image.NewRGBA(canvas.Rect)
		copy(before.Pix, canvas.Pix)
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
		shown := image.NewRGBA(canvas.Rect)
		copy(shown.Pix, canvas.Pix)
		out = append(out, shown)
		switch anim.Disposal[i] {
		case gif.DisposalBackground:
			draw.Draw(canvas, f.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = before
		}
	}
	return out
}

// sameFrame compares a composited frame with the step's picture: the
// picture at the top left, pixel for pixel, and below or beside it only
// the picture's margin colour. It says how they differ, or "" when they
// do not.
func sameFrame(frame *image.RGBA, pic image.Image) string {
	b := pic.Bounds()
	if b.Dx() > frame.Rect.Dx() || b.Dy() > frame.Rect.Dy() {
		return fmt.Sprintf("the picture is %v, the canvas only %v", b.Size(), frame.Rect.Size())
	}
	margin := color.RGBAModel.Convert(pic.At(b.Min.X, b.Max.Y-1)).(color.RGBA)
	for y := range frame.Rect.Dy() {
		for x := range frame.Rect.Dx() {
			want := margin
			if x < b.Dx() && y < b.Dy() {
				want = color.RGBAModel.Convert(pic.At(b.Min.X+x, b.Min.Y+y)).(color.RGBA)
			}
			if got := frame.RGBAAt(x, y); got != want {
				return fmt.Sprintf("at %d,%d the frame shows %v, the picture %v (picture %v, canvas %v)", x, y, got, want, b.Size(), frame.Rect.Size())
			}
		}
	}
	return ""
}
