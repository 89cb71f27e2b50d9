package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// gate is a renderer that draws only when let, and counts how many draw
// at once.
type gate struct {
	r        *render.Renderer
	open     chan struct{}
	entered  chan struct{}
	now, max atomic.Int32
	drawn    atomic.Int32
}

func (g *gate) PNG(v engine.View) ([]byte, error) {
	n := g.now.Add(1)
	defer g.now.Add(-1)
	for {
		m := g.max.Load()
		if n <= m || g.max.CompareAndSwap(m, n) {
			break
		}
	}
	g.entered <- struct{}{}
	<-g.open
	g.drawn.Add(1)
	return g.r.PNG(v)
}

func (g *gate) Size(v engine.View) (int, int, error) { return g.r.Size(v) }

// TestPictureBurst sends a hundred requests at once, on the loopback,
// for a hundred pictures not yet drawn, while the one painter is held:
// one picture is drawn at a time, eight requests wait for the painter,
// and the rest are told at once to come back (503, Retry-After); the
// server's memory stays within a fixed bound; and meanwhile the bot
// plays a step and draws its own picture, which waits for none of them.
// Let go, the waiting requests get their pictures, and the pictures once
// drawn are served again without drawing.
func TestPictureBurst(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rend := render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})
	router := bot.NewRouter(bot.Config{Store: st, Rulesets: rulesets(), Directives: true, WebURL: "https://rhapsode.example.org",
		Renderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	g := &gate{r: rend, open: make(chan struct{}), entered: make(chan struct{}, 200)}
	c := &club{st: st, router: router, web: New(Config{Store: st, Rulesets: rulesets(), Renderer: g})}
	c.play(t, "g1", "long", longBook(40))
	home := c.publish(t, "g1", "long", "@alice /book publish")
	_, page := c.get(t, home)
	var pics []string
	for _, m := range regexp.MustCompile(`<li id="s(\d+)">`).FindAllStringSubmatch(page, -1) {
		n, _ := strconv.Atoi(m[1])
		if n > 11 {
			pics = append(pics, home+"step/"+m[1]+".png")
		}
	}
	if len(pics) < 100 {
		t.Fatalf("the book has %d pictures, want 100", len(pics))
	}
	pics = pics[:100]
	srv := httptest.NewServer(c.web)
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}, Timeout: time.Minute}

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	codes := make([]int, len(pics))
	var answered sync.WaitGroup
	busy := make(chan int, len(pics))
	for i, p := range pics {
		answered.Add(1)
		go func() {
			defer answered.Done()
			res, err := client.Get(srv.URL + p)
			if err != nil {
				t.Error(err)
				busy <- 0
				return
			}
			res.Body.Close()
			codes[i] = res.StatusCode
			if res.StatusCode == http.StatusServiceUnavailable {
				if res.Header.Get("Retry-After") == "" {
					t.Errorf("a busy answer without Retry-After")
				}
				busy <- i
			}
		}()
	}
	// The painter takes the first picture; eight more requests wait; the
	// other ninety-one are told to come back, while the painter is still
	// held.
	// (The minute is a guard against a server that would make them all
	// wait, not a measure of speed.)
	guard := time.After(time.Minute)
	for range len(pics) - maxWaiting {
		select {
		case <-g.entered:
		case <-busy:
		case <-guard:
			t.Fatal("a minute on, the requests beyond the painter and its queue are still waiting")
		}
	}
	runtime.GC()
	var during runtime.MemStats
	runtime.ReadMemStats(&during)
	grown := int64(during.HeapAlloc) - int64(before.HeapAlloc)
	if grown > 32<<20 {
		t.Errorf("the heap grew by %d MB during the burst", grown>>20)
	}
	t.Logf("the heap grew by %.1f MB during the burst", float64(grown)/(1<<20))
	// The bot plays on, and draws its own picture: whichever player the
	// table awaits stands aloof (the other is refused, which changes
	// nothing).
	var reps []bot.Reply
	for _, user := range []engine.PlayerID{"111111111111111111", "222222222222222222"} {
		reps = router.Handle(ctx, bot.Request{Guild: "g1", Channel: "long", User: user, Command: engine.Command{Name: "aloof"}})
		if len(reps) > 0 && !reps[0].Ephemeral {
			break
		}
	}
	if len(reps) == 0 || reps[0].Ephemeral || reps[0].Image == nil {
		t.Errorf("the bot's step during the burst was answered %+v, with no picture", reps)
	}
	if len(g.entered) != 0 || g.drawn.Load() != 0 {
		t.Errorf("%d pictures began and %d were drawn while the painter was held", len(g.entered), g.drawn.Load())
	}
	close(g.open)
	answered.Wait()
	ok := 0
	for _, code := range codes {
		if code == 200 {
			ok++
		}
	}
	if ok != 1+maxWaiting || g.max.Load() != 1 {
		t.Errorf("%d pictures served, %d drawn at most at once; want %d and 1", ok, g.max.Load(), 1+maxWaiting)
	}
	drawn := g.drawn.Load()
	for i, p := range pics {
		if codes[i] != 200 {
			continue
		}
		if res, err := client.Get(srv.URL + p); err != nil || res.StatusCode != 200 {
			t.Errorf("%s again: %v %v", p, res, err)
		} else {
			res.Body.Close()
		}
	}
	if again := g.drawn.Load() - drawn; again != 0 {
		t.Errorf("%d pictures drawn again", again)
	}
}
