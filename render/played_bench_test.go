package render_test

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/btg"
	"github.com/rhapsode/rhapsode/engine/goliath"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/sgboh"
	"github.com/rhapsode/rhapsode/engine/sweet"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// viewRecorder is a bot.Renderer that keeps the views it is asked to
// draw and draws nothing.
type viewRecorder struct {
	mu    sync.Mutex
	views []engine.View
}

func (v *viewRecorder) PNG(view engine.View) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.views = append(v.views, view)
	return []byte("png"), nil
}

// playedViews plays system key's demonstration (bot/demos: moves, fire
// and melee, every draw stacked or loaded) through the bot's router and
// returns the view of every picture the bot would send, in order.
func playedViews(b testing.TB, key string) []engine.View {
	b.Helper()
	script, ok := bot.Demo(key)
	if !ok {
		b.Fatalf("no demonstration for %s", key)
	}
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "views.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	rec := &viewRecorder{}
	r := bot.NewRouter(bot.Config{
		Store:      st,
		Rulesets:   []engine.Ruleset{gwab.New(), sweet.New(), btg.New(), goliath.New(), sgboh.New()},
		Renderer:   rec,
		Directives: true,
		Seed:       func() uint64 { return bot.DemoSeed },
	})
	l := &bot.Local{Router: r, Guild: "g", Channel: "c", User: "player"}
	if err := l.Run(context.Background(), strings.NewReader(script), io.Discard); err != nil {
		b.Fatal(err)
	}
	if len(rec.views) == 0 {
		b.Fatalf("the %s demonstration drew no picture", key)
	}
	return rec.views
}

// BenchmarkPlayedPictures draws every picture of each system's
// demonstration battle at the size the bot sends (1040 pixels wide, read
// at 520), as the bot does, and beside each the same view drawn the
// naive way (render.NaivePNG: gg draws everything, image/png encodes),
// interleaved so that both see the same load. Each op is one pass over
// the battle. It reports, per system:
//
//   - pictures: how many the battle draws;
//   - static-redraw-%: of those, the share that had to draw the static
//     layer, from a new renderer through the battle once (the goal is at
//     most 5%);
//   - ms-median, naive-ms-median and median-ratio: the median picture's
//     time, the naive one's, and the median of each picture's time over
//     its naive time (the goal is at most 0.10);
//   - KB-median and KB-max: the sizes of the PNG files (the goal is a
//     median of at most 120 KB).
func BenchmarkPlayedPictures(b *testing.B) {
	opts := render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth}
	for _, key := range bot.DemoKeys() {
		b.Run(key, func(b *testing.B) {
			views := playedViews(b, key)
			fresh := render.New(opts)
			for _, v := range views {
				if _, err := fresh.PNG(v); err != nil {
					b.Fatal(err)
				}
			}
			redraws := render.StaticDraws(fresh)

			r := render.New(opts)
			var ts, naive []time.Duration
			var ratios []float64
			var sizes []int
			for b.Loop() {
				for _, v := range views {
					t0 := time.Now()
					pic, err := r.PNG(v)
					if err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					if _, err := render.NaivePNG(r, v); err != nil {
						b.Fatal(err)
					}
					t2 := time.Now()
					ts = append(ts, t1.Sub(t0))
					naive = append(naive, t2.Sub(t1))
					ratios = append(ratios, float64(t1.Sub(t0))/float64(t2.Sub(t1)))
					sizes = append(sizes, len(pic))
				}
			}
			slices.Sort(ts)
			slices.Sort(naive)
			slices.Sort(ratios)
			slices.Sort(sizes)
			b.ReportMetric(float64(len(views)), "pictures")
			b.ReportMetric(100*float64(redraws)/float64(len(views)), "static-redraw-%")
			b.ReportMetric(float64(ts[len(ts)/2])/1e6, "ms-median")
			b.ReportMetric(float64(naive[len(naive)/2])/1e6, "naive-ms-median")
			b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
			b.ReportMetric(float64(sizes[len(sizes)/2])/1000, "KB-median")
			b.ReportMetric(float64(sizes[len(sizes)-1])/1000, "KB-max")
		})
	}
}
