package render_test

import (
	"path"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
)

// TestMapOverLayer draws every picture of each rule system's
// demonstration, and of btg's played battle (BenchmarkPlayedPictures:
// its melee plates stand far from their pairings), as the bot does, and
// checks that mapping it to its
// palette run by run over the cached frame it shows (everything the
// bands painted mapped pixel by pixel) gives every pixel the index that
// mapping each pixel does: a piece, mark, label or leader painted where
// the bands did not say they painted would be lost from the picture.
func TestMapOverLayer(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every demonstration")
	}
	corpora := map[string]func(testing.TB, string) []engine.View{}
	for _, key := range bot.DemoKeys() {
		corpora["demo/"+key] = playedViews
	}
	corpora["battle/btg"] = battleViews
	if raceDetector {
		corpora = map[string]func(testing.TB, string) []engine.View{"demo/gwab": playedViews}
	}
	for name, views := range corpora {
		t.Run(name, func(t *testing.T) {
			r := render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})
			for i, v := range views(t, path.Base(name)) {
				rows, err := render.MapsDiffer(r, v)
				if err != nil {
					t.Fatal(err)
				}
				if len(rows) > 0 {
					t.Errorf("picture %d (%s): %d rows map otherwise over the layer, from row %d", i+1, v.Caption, len(rows), rows[0])
				}
			}
		})
	}
}
