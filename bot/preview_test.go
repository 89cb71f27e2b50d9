package bot

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
)

// previewScripts are the games whose every picture is kept in
// testdata/preview, drawn at Discord's preview width, for a person to look
// at and for the test to compare: the demonstration books of GWAB, btg,
// goliath and sgboh and a game of sweet, so that every kind of step of
// every rule system (moves, fire, melee, morale, routs, rulings) is seen.
var previewScripts = []string{"demos/gwab.script", "../engine/sweet/testdata/transcripts/sweet-support.script", "demos/sgboh.script", "demos/btg.script", "demos/goliath.script"}

// racePreviewScripts are the preview games played under the race
// detector: the hex map, which the race run of TestTranscriptPictures
// (racePictureScripts: an open table and a square grid) does not draw.
// The pictures are the same with the detector or without, and the plain
// run compares every one; the race run is there for the renderer's
// goroutines, and drawing all five there took half a minute of the
// package's time.
var racePreviewScripts = []string{"demos/sgboh.script"}

// TestPreviewPictures plays the preview games with pictures drawn
// PreviewWidth pixels wide, as a player sees them in a Discord channel,
// and compares each with the one kept in testdata/preview (-update writes
// them). No step repeats the picture before it. Every rule system on the
// one list has a game among them.
func TestPreviewPictures(t *testing.T) {
	for _, id := range systems.IDs() {
		if !slices.ContainsFunc(previewScripts, func(p string) bool { return strings.HasPrefix(filepath.Base(p), id) }) {
			t.Errorf("rule system %s has no game among the preview scripts", id)
		}
	}
	scripts := previewScripts
	if raceDetector {
		t.Logf("under the race detector, previews are drawn for %v only", racePreviewScripts)
		scripts = racePreviewScripts
	}
	rend := render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		if filepath.Dir(path) == "demos" {
			name = "demo-" + name
		}
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l, closeStore := table(t, filepath.Join(t.TempDir(), "preview.db"))
			defer closeStore()
			l.Router.cfg.Renderer = rend
			dir := t.TempDir()
			l.Boards = dir
			if err := l.Run(context.Background(), strings.NewReader(string(src)), &bytes.Buffer{}); err != nil {
				t.Fatal(err)
			}
			pics, _ := filepath.Glob(filepath.Join(dir, "*.png"))
			if len(pics) == 0 {
				t.Fatal("no pictures")
			}
			keep := filepath.Join("testdata", "preview", name)
			if *update {
				os.RemoveAll(keep)
				if err := os.MkdirAll(keep, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var last [32]byte
			for _, p := range pics {
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if sum := sha256.Sum256(got); sum == last {
					t.Errorf("%s repeats the picture before it", filepath.Base(p))
				} else {
					last = sum
				}
				img, err := png.Decode(bytes.NewReader(got))
				if err != nil {
					t.Fatal(err)
				}
				if w := img.Bounds().Dx(); w != render.PreviewWidth {
					t.Errorf("%s is %d pixels wide, want %d", filepath.Base(p), w, render.PreviewWidth)
				}
				golden := filepath.Join(keep, filepath.Base(p))
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestPreviewPictures -update to keep them)", err)
				}
				if msg := samePicture(got, want); msg != "" {
					actual := strings.TrimSuffix(golden, ".png") + ".png.actual"
					os.WriteFile(actual, got, 0o644)
					t.Errorf("%s differs from %s: %s; wrote %s", filepath.Base(p), golden, msg, actual)
				}
			}
			if kept, _ := filepath.Glob(filepath.Join(keep, "*.png")); len(kept) != len(pics) && !*update {
				t.Errorf("%d pictures drawn, %d kept", len(pics), len(kept))
			}
		})
	}
}

// samePicture compares two PNGs pixel by pixel, allowing the small
// differences floating point makes between machines at antialiased
// edges: a channel may be off by 48, and 0.3% of pixels may differ.
func samePicture(got, want []byte) string {
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return err.Error()
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return err.Error()
	}
	if g.Bounds() != w.Bounds() {
		return fmt.Sprintf("size %v, want %v", g.Bounds().Size(), w.Bounds().Size())
	}
	off := func(a, b uint32) bool { d := int(a>>8) - int(b>>8); return d > 48 || d < -48 }
	diff := 0
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := g.At(x, y).RGBA()
			r2, g2, b2, _ := w.At(x, y).RGBA()
			if off(r1, r2) || off(g1, g2) || off(b1, b2) {
				diff++
			}
		}
	}
	if frac := float64(diff) / float64(b.Dx()*b.Dy()); frac > 0.003 {
		return fmt.Sprintf("%d pixels (%.2f%%) differ", diff, 100*frac)
	}
	return ""
}
