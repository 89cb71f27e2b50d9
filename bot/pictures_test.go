package bot

import (
	"bytes"
	"context"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/render"
)

var boards = flag.String("boards", "", "write the board picture of every transcript step to this folder, to look at")

// racePictureScripts are the games whose pictures are drawn under the race
// detector: one of each rule system. Drawing every transcript's pictures
// there takes many minutes and finds nothing more than the plain run, which
// draws them all (the README's test command runs both).
var racePictureScripts = []string{"demos/gwab.script", "../engine/sweet/testdata/transcripts/sweet-fire.script"}

// TestTranscriptPictures plays every transcript with the renderer on: each
// step that changes a started book yields a picture that decodes, at the
// renderer's width. With -boards DIR the pictures are kept to be looked
// at.
func TestTranscriptPictures(t *testing.T) {
	scripts := allScripts(t)
	if raceDetector {
		t.Logf("under the race detector, pictures are drawn for %v only", racePictureScripts)
		scripts = racePictureScripts
	}
	rend := render.New(render.Options{})
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l, closeStore := table(t, filepath.Join(t.TempDir(), "pictures.db"))
			defer closeStore()
			l.Router.cfg.Renderer = rend
			dir := t.TempDir()
			if *boards != "" {
				dir = filepath.Join(*boards, name)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			l.Boards = dir
			var out bytes.Buffer
			if err := l.Run(context.Background(), strings.NewReader(string(src)), &out); err != nil {
				t.Fatal(err)
			}
			pics, _ := filepath.Glob(filepath.Join(dir, "*.png"))
			started := strings.Contains(out.String(), "The book begins")
			if started && len(pics) == 0 || len(pics) != strings.Count(out.String(), "[board: ") {
				t.Fatalf("%d pictures written, %d announced", len(pics), strings.Count(out.String(), "[board: "))
			}
			for _, p := range pics {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(f)
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", p, err)
				}
				if w := img.Bounds().Dx(); w != rend.Width() {
					t.Fatalf("%s is %d pixels wide, want %d", p, w, rend.Width())
				}
			}
			t.Logf("%d pictures", len(pics))
		})
	}
}
