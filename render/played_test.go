package render_test

import (
	"bytes"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/render"
)

// TestPlayedKeptAsPainted draws every picture of each rule system's
// demonstration at the size the bot sends, and again with every row and
// column of the cached layers taken as painted over: the files must be
// the same, byte for byte. They differ if a piece, mark or label paints
// beyond the box it says it covers, as the pixels there are then taken
// from the layer unchanged. The test scenes (TestKeptRowsAsPainted) are
// few; the demonstrations show every kind of piece, mark and label each
// system draws, over open tables, squares and hexes.
func TestPlayedKeptAsPainted(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every demonstration through the bot")
	}
	opts := render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth}
	for _, key := range bot.DemoKeys() {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			r, all := render.New(opts), render.New(opts)
			render.PaintingAll(all)
			for i, v := range playedViews(t, key) {
				got, err := r.PNG(v)
				if err != nil {
					t.Fatal(err)
				}
				want, err := all.PNG(v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("picture %d (%s): the parts kept from the layers and those all painted differ", i, v.Title)
				}
			}
		})
	}
}
