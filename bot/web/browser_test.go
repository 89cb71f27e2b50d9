package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/gif"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/render"
)

// chromium finds the browser for TestBrowser: RHAPSODE_TEST_CHROMIUM, or
// Debian's chromium. With the variable set the test must run.
func chromium(t *testing.T) string {
	if p := os.Getenv("RHAPSODE_TEST_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("RHAPSODE_TEST_CHROMIUM names %s: %v", p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium on this machine: install Debian's chromium (.ci/run does), or set RHAPSODE_TEST_CHROMIUM to a Chromium binary, to run the browser tests")
	return ""
}

// browse starts headless Chromium at browser with a window w by h, for
// at most d, and returns its context; the test's end closes it.
func browse(t *testing.T, browser string, w, h int, d time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(w, h))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	browserCtx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	// The browser starts on the first call, on a context with no
	// deadline; each step after has its own.
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(browserCtx, d)
	t.Cleanup(cancel)
	return ctx
}

// shots is where the browser test keeps its screenshots: the folder
// RHAPSODE_SCREENSHOTS names, else one of the test's own.
func shots(t *testing.T) string {
	if dir := os.Getenv("RHAPSODE_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	return t.TempDir()
}

// TestBrowser reads the published saga in headless Chromium at a phone's
// size, as a friend sent the address would: the standings show the ranks
// after the saga's three books; following a Hero's link reaches his
// ledger; the next button of a book's replay changes the picture; an
// address nothing is published at gives 404. It keeps a screenshot of
// each page.
func TestBrowser(t *testing.T) {
	browser := chromium(t)
	c := newClub(t)
	c.play(t, "g1", "table", sagaScript(t))
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	srv := httptest.NewServer(c.web)
	defer srv.Close()

	ctx := browse(t, browser, 412, 915, 90*time.Second)
	dir := shots(t)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		must(err)
		must(os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
	}

	// The standings: each living Hero at his rank.
	must(chromedp.Do(ctx, chromedp.Navigate(srv.URL+home), chromedp.WaitVisible(chromedp.CSS("#standings"))))
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll('#standings tr')).slice(1).map(r => [r.cells[0].textContent.trim(), r.cells[1].innerText.trim()])`))
	must(err)
	shot("standings")
	saga := sagaOf(t, c, "g1")
	want := saga.Standings()
	if len(rows) != len(want) {
		t.Fatalf("the standings show %d Heroes, want %d: %v", len(rows), len(want), rows)
	}
	for i, st := range want {
		// The mark of a Hero in Tartarus is read out in words.
		rank := "†in Tartarus"
		if st.FellIn == 0 {
			rank = strconv.Itoa(st.Rank)
		}
		if rows[i][0] != rank || !strings.HasPrefix(rows[i][1], st.Name) {
			t.Errorf("row %d shows %v, want %s at %s", i+1, rows[i], st.Name, rank)
		}
	}

	// Achilles's link reaches his ledger.
	must(chromedp.Do(ctx,
		chromedp.Click(chromedp.Search(`//table[@id="standings"]//a[text()="Achilles"]`)),
		chromedp.WaitVisible(chromedp.CSS("#ledger"))))
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1")))
	must(err)
	at, err := chromedp.Run(ctx, chromedp.Location())
	must(err)
	lines, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#ledger tr').length - 1`))
	must(err)
	shot("hero")
	if title != "Achilles of the Myrmidons" || !strings.Contains(at, home+"hero/") || lines < 3 {
		t.Errorf("the Hero's link led to %s, %q, with %d ledger lines", at, title, lines)
	}

	// Book 2, watched: next changes the picture.
	must(chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+home),
		chromedp.Click(chromedp.Search(`//table[@id="books"]//a[text()="2"]`)),
		chromedp.WaitVisible(chromedp.CSS("#steps"))))
	shot("book")
	must(chromedp.Do(ctx, chromedp.Click(chromedp.ID("watch")), chromedp.WaitVisible(chromedp.ID("board"))))
	before, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("board"), "src"))
	must(err)
	// The page's script shows the next step in place, so the picture
	// changes some moments after the click.
	must(chromedp.Do(ctx, chromedp.Click(chromedp.ID("next"))))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('#board').getAttribute('src') !== `+strconv.Quote(before.Value), chromedp.WithPollingTimeout(10*time.Second)))
	must(err)
	after, err2 := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("board"), "src"))
	must(err2)
	loaded, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('#board').complete && document.querySelector('#board').naturalWidth > 0`, chromedp.WithPollingTimeout(20*time.Second)))
	must(err)
	shot("step")
	if before.Value == "" || after.Value == before.Value || !loaded {
		t.Errorf("next showed %q after %q (loaded %v)", after.Value, before.Value, loaded)
	}

	// Nothing is published here.
	resp, err := chromedp.RunResponse(ctx, chromedp.Navigate(srv.URL+"/p/abcdefghijklmnopqrstuvwxyz/"))
	must(err)
	if resp.Status != 404 {
		t.Errorf("an unpublished address: %d, want 404", resp.Status)
	}
	t.Logf("screenshots in %s", dir)
}

// axeScript reads axe-core (the accessibility checker of the npm package
// axe-core, which .ci/run installs) from the file RHAPSODE_TEST_AXE
// names.
func axeScript(t *testing.T) string {
	p := os.Getenv("RHAPSODE_TEST_AXE")
	if p == "" {
		t.Skip("RHAPSODE_TEST_AXE is not set, so axe-core does not check the pages: from the repository's root, run npm ci --prefix .ci/axe (as .ci/run does, at the version .ci/axe pins) and set RHAPSODE_TEST_AXE=$PWD/.ci/axe/node_modules/axe-core/axe.min.js")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("RHAPSODE_TEST_AXE names %s: %v", p, err)
	}
	return string(b)
}

// TestBrowserAccessibility has axe-core check every kind of published
// page in Chromium, as wide as a desktop window and as a phone: a saga's
// standings, a living and a fallen Hero's ledger, a book of the saga, its
// first, a middle and its last step and one with no picture, a single
// book and a step of it, and the page of an address with nothing; any violation of any rule fails
// it. On a screen 320 pixels wide (640 at 200% zoom) the standings show
// every column and the page does not scroll sideways; on a wide one a
// step's narration stands beside its picture, and the picture's room is
// kept before it loads.
func TestBrowserAccessibility(t *testing.T) {
	browser := chromium(t)
	axe := axeScript(t)
	c := newClub(t)
	c.play(t, "g1", "table", sagaScript(t))
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	demo, _ := bot.Demo("gwab")
	c.play(t, "g2", "practice", demo)
	single := c.publish(t, "g2", "practice", "@alice /book publish")
	srv := httptest.NewServer(c.web)
	defer srv.Close()

	// The pages, found by their links.
	link := func(page, pattern string) []string {
		t.Helper()
		_, body := c.get(t, page)
		var out []string
		for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(body, -1) {
			out = append(out, html.UnescapeString(m[1]))
		}
		if len(out) == 0 {
			t.Fatalf("%s links nothing like %s", page, pattern)
		}
		return out
	}
	heroes := link(home, `href="([^"]+/hero/\d+)"`)
	fallen := link(home, `href="([^"]+/hero/\d+)">[^<]+</a> <span class="meta">fell in book`)
	book := link(home, `href="([^"]+/book/\d+/)"`)[1]
	steps := link(book, `href="([^"]+/step/\d+)"`)
	singleSteps := link(single, `href="([^"]+/step/\d+)"`)
	pages := map[string]string{
		"standings": home, "a living Hero": heroes[0], "a fallen Hero": fallen[0],
		"a book of the saga": book, "its first step": steps[0], "a middle step": steps[len(steps)/2],
		"its last step": steps[len(steps)-1], "a step with no picture": book + "step/2",
		"a single book": single, "a step of it": singleSteps[len(singleSteps)/2],
		"nothing here": "/p/abcdefghijklmnopqrstuvwxyz/",
	}

	for name, path := range pages {
		if res, _ := c.get(t, path); (res.StatusCode == 200) != (name != "nothing here") {
			t.Fatalf("%s (%s): %d", name, path, res.StatusCode)
		}
	}
	if _, page := c.get(t, book+"step/2"); strings.Contains(page, `<img id="board" src=`) {
		t.Fatalf("step 2 of the book has a picture")
	}

	ctx := browse(t, browser, 1280, 900, 3*time.Minute)
	for _, size := range [][2]int64{{1280, 900}, {390, 844}} {
		for name, path := range pages {
			must(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(srv.URL+path), chromedp.WaitReady("body")))
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axe+"\n;true")); err != nil {
				t.Fatalf("loading axe-core: %v", err)
			}
			found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document).then(r => r.violations.map(v =>
				v.id + " (" + v.impact + "): " + v.help + ": " + v.nodes.map(n => n.target.join(" ")).join(", ")))`, chromedp.EvalAwaitPromise))
			must(t, err)
			for _, v := range found {
				t.Errorf("%s at %d px (%s): %s", name, size[0], path, v)
			}
		}
	}

	// At 200% zoom of a 640-pixel window the standings keep every column
	// in sight, with nothing to scroll sideways.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(320, 700), chromedp.Navigate(srv.URL+home), chromedp.WaitVisible(chromedp.CSS("#standings"))))
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('#standings th')).filter(th => th.offsetWidth === 0 || getComputedStyle(th).display === 'none').map(th => th.textContent)`))
	must(t, err)
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, document.documentElement.clientWidth, document.querySelector('#standings').offsetWidth, document.querySelector('#standings').parentElement.clientWidth]`))
	must(t, err)
	if len(hidden) > 0 || wide[0] > wide[1] || wide[2] > wide[3] {
		t.Errorf("at 320 px the standings hide %v, and are %d px wide in %d (the page %d in %d)", hidden, wide[2], wide[3], wide[0], wide[1])
	}

	// On a wide screen the list of steps stands beside the picture, with
	// the step shown (a book's page shows its last board) marked and in
	// sight, and the picture's room is kept before it loads.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+book), chromedp.WaitReady("#board")))
	box, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const i = document.querySelector('#board').getBoundingClientRect(), c = document.querySelector('.story').getBoundingClientRect(), m = document.querySelector('#steps a[aria-current]').getBoundingClientRect(); return [i.left, i.right, i.top, i.height, c.left, c.top, i.width * document.querySelector('#board').getAttribute('height') / document.querySelector('#board').getAttribute('width'), m.top, m.bottom, c.bottom] })()`))
	must(t, err)
	if box[4] < box[1] || box[5] > box[2]+box[3]/2 {
		t.Errorf("at 1280 px the list of steps (left %.0f, top %.0f) is not beside the picture (right %.0f, top %.0f)", box[4], box[5], box[1], box[2])
	}
	if box[7] < box[5] || box[8] > box[9] {
		t.Errorf("at 1280 px the step shown (%.0f to %.0f) is out of the list's sight (%.0f to %.0f)", box[7], box[8], box[5], box[9])
	}
	if math.Abs(box[3]-box[6]) > 2 {
		t.Errorf("the picture takes %.0f px of height, its size says %.0f", box[3], box[6])
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestBrowserWatch watches a book in Chromium as a player on a phone 390
// pixels wide would: the book's page shows its last board the whole
// width of the screen with nothing to scroll sideways; the arrow keys
// and the list's links step through the book in place (the page is not
// loaded again), the address, the picture, its caption and the marked
// step following; back returns to the step before. The saga's standings
// chart each Hero's honor with a point for each book where the ledger
// puts it. And the bot's /book replay, opened in the browser, is one
// animation of the canvas it declares.
func TestBrowserWatch(t *testing.T) {
	browser := chromium(t)
	c := newClub(t)
	demo, _ := bot.Demo("gwab")
	c.play(t, "g1", "practice", demo)
	book := c.publish(t, "g1", "practice", "@alice /book publish")
	c.play(t, "g2", "table", sagaScript(t))
	saga := c.publish(t, "g2", "table", "@alice /saga publish")
	srv := httptest.NewServer(c.web)
	defer srv.Close()
	ctx := browse(t, browser, 390, 844, 2*time.Minute)

	// The book on a phone.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(srv.URL+book), chromedp.WaitVisible(chromedp.ID("board"))))
	loaded, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('#board').complete && document.querySelector('#board').naturalWidth > 0`, chromedp.WithPollingTimeout(20*time.Second)))
	must(t, err)
	size, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[document.querySelector('#board').getBoundingClientRect().width, document.querySelector('#board').naturalWidth, document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
	must(t, err)
	if !loaded || size[0] < 390 || size[2] > size[3] {
		t.Errorf("on a 390-px phone the board is shown %.0f px wide (drawn %.0f), the page %.0f px in %.0f", size[0], size[1], size[2], size[3])
	}

	// Stepping in place.
	state := func() []string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[location.pathname, document.querySelector('#board').getAttribute('src') || '', (document.querySelector('#steps a[aria-current]') || {}).textContent || '', document.querySelector('#told').innerText, String(window.stayed === 1), document.title]`))
		must(t, err)
		return s
	}
	at := func(n int) []string {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`location.pathname.endsWith('/step/%d') && (document.querySelector('#steps a[aria-current]') || {}).textContent === 'step %d'`, n, n), chromedp.WithPollingTimeout(10*time.Second)))
		if err != nil {
			t.Fatalf("the page did not come to step %d: %v", n, state())
		}
		return state()
	}
	want := func(n int, got []string) {
		t.Helper()
		var js stepJSON
		_, body := c.get(t, book+"step/"+strconv.Itoa(n)+".json")
		must(t, json.Unmarshal([]byte(body), &js))
		if !strings.HasSuffix(got[1], fmt.Sprintf("/step/%d.png", n)) || !strings.Contains(got[3], js.Lines[0]) || got[4] != "true" || !strings.HasPrefix(got[5], "Step "+strconv.Itoa(n)+" · ") {
			t.Errorf("step %d shows %q", n, got)
		}
	}
	must(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+book+"step/13"), chromedp.WaitVisible(chromedp.ID("board"))))
	_, err = chromedp.Run(ctx, chromedp.Evaluate[int](`window.stayed = 1`))
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)))
	want(14, at(14))
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
	want(13, at(13))
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
	want(11, at(11))
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#s20 a`))))
	want(20, at(20))
	must(t, chromedp.Do(ctx, chromedp.NavigateBack()))
	want(11, at(11))

	// The standings' charts, where the ledger puts their points.
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(srv.URL+saga), chromedp.WaitVisible(chromedp.ID("charts"))))
	type point struct {
		Hero, Book, Honor int
		X, Y              float64
	}
	pts, err := chromedp.Run(ctx, chromedp.Evaluate[[]point](`Array.from(document.querySelectorAll('svg.chart circle')).map(c => { const r = c.getBoundingClientRect(); return {Hero: Number(c.closest('svg').id.slice(6)), Book: Number(c.dataset.book), Honor: Number(c.dataset.honor), X: r.x + r.width / 2, Y: r.y + r.height / 2} })`))
	must(t, err)
	sg := sagaOf(t, c, "g2")
	if len(pts) < 2*len(sg.Heroes) {
		t.Fatalf("the charts have %d points", len(pts))
	}
	for i, p := range pts {
		if want := ledgerHonor(sg, gwab.HeroID(p.Hero), p.Book); p.Honor != want {
			t.Errorf("hero %d's point for book %d says %d honor, the ledger %d", p.Hero, p.Book, p.Honor, want)
		}
		if i > 0 && pts[i-1].Hero == p.Hero && (p.X <= pts[i-1].X || (p.Honor > pts[i-1].Honor) != (p.Y < pts[i-1].Y-0.05) || (p.Honor == pts[i-1].Honor) != (math.Abs(p.Y-pts[i-1].Y) < 0.05)) {
			t.Errorf("hero %d: book %d's point (%d honor) at %.1f,%.1f after book %d's (%d) at %.1f,%.1f", p.Hero, p.Book, p.Honor, p.X, p.Y, pts[i-1].Book, pts[i-1].Honor, pts[i-1].X, pts[i-1].Y)
		}
	}

	// The bot's replay of the book, as a browser shows it.
	r := bot.NewRouter(bot.Config{Store: c.st, Rulesets: rulesets(), ReplayRenderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	reps := r.Handle(context.Background(), bot.Request{Guild: "g1", Channel: "practice", User: "333333333333333333", Command: engine.Command{Name: "book replay"}})
	if len(reps) != 1 || reps[0].Image == nil {
		t.Fatalf("/book replay answered %+v", reps)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(reps[0].Image))
	must(t, err)
	gifs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(reps[0].Image)
	}))
	defer gifs.Close()
	must(t, chromedp.Do(ctx, chromedp.Navigate(gifs.URL+"/replay.gif")))
	shown, err := chromedp.Run(ctx, chromedp.Poll[[]int](`document.images.length && document.images[0].complete && document.images[0].naturalWidth ? [document.images[0].naturalWidth, document.images[0].naturalHeight] : null`, chromedp.WithPollingTimeout(20*time.Second)))
	must(t, err)
	if len(shown) != 2 || shown[0] != anim.Config.Width || shown[1] != anim.Config.Height || len(anim.Image) < 10 {
		t.Errorf("the browser shows the replay at %v, its canvas is %dx%d (%d frames)", shown, anim.Config.Width, anim.Config.Height, len(anim.Image))
	}
}
