package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// longBook is a practice book of GWAB whose clans stand aloof round
// after round: some rounds steps and more.
func longBook(rounds int) string {
	var b strings.Builder
	b.WriteString("@alice /book open mode:practice\n#seed 7\n")
	b.WriteString("/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow\n")
	b.WriteString("/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling\n")
	b.WriteString("@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow\n")
	b.WriteString("/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin\n")
	b.WriteString("@alice /book start\n")
	// Whoever's turn it is stands aloof; the other is refused.
	b.WriteString(strings.Repeat("@alice /aloof\n@bob /aloof\n@alice /aloof\n@bob /aloof\n", rounds))
	return b.String()
}

// counting is a store that counts the reads of game logs.
type counting struct {
	Store
	events int
}

func (c *counting) Events(ctx context.Context, game store.GameID, after, upTo engine.Seq) ([]engine.Record, error) {
	c.events++
	return c.Store.Events(ctx, game, after, upTo)
}

// TestStepsFromTheFold: every step's board, rebuilt from the copy of the
// game the pages keep every few steps, is the board the whole book
// played from its start shows at that step, for a book longer than
// several copies.
func TestStepsFromTheFold(t *testing.T) {
	c := newClub(t)
	c.play(t, "g1", "long", longBook(30))
	home := c.publish(t, "g1", "long", "@alice /book publish")
	info, err := c.st.LatestGame(context.Background(), "g1", "long")
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.web.foldOf(context.Background(), home, info, info)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.book.Steps) < 3*snapEvery {
		t.Fatalf("the book has %d steps, want more than %d", len(f.book.Steps), 3*snapEvery)
	}
	rs := f.rs
	viewer := rs.(engine.Viewer)
	boards := 0
	_, err = bot.WalkSteps(rs, f.events, func(n int, g *engine.Game, step []engine.Event) error {
		v, ok, err := f.view(n)
		if err != nil {
			return err
		}
		want := viewer.View(g, step)
		if shown := want.Width > 0 && want.Depth > 0 && !tableDirective(step); ok != shown {
			t.Errorf("step %d: the fold shows a board %v, the book %v", n, ok, shown)
		}
		if !ok {
			return nil
		}
		boards++
		f.names.scrub(&want)
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(want)
		if !bytes.Equal(a, b) {
			t.Errorf("step %d: the board from the fold differs from the book's", n)
		}
		// The size the page gives is the size of the picture drawn
		// (render's TestSizeWithoutDrawing: Size is PNG's size).
		w, h, err := c.web.cfg.Renderer.(*render.Renderer).Size(want)
		if err != nil || f.sizes[n] != [2]int{w, h} {
			t.Errorf("step %d: the page gives the picture's size as %v, it is %dx%d (%v)", n, f.sizes[n], w, h, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if boards < 2*snapEvery {
		t.Errorf("only %d boards compared", boards)
	}
}

// TestPagesCheaply: a page the browser holds is answered 304 without
// reading the book's log; a step's page and its JSON are read from the
// book's fold, once for all its steps; HTML and JSON come gzipped when
// the browser takes it, and whole when not.
func TestPagesCheaply(t *testing.T) {
	c := newClub(t)
	count := &counting{Store: c.st}
	c.web = New(Config{Store: count, Rulesets: rulesets(), Renderer: c.web.cfg.Renderer})
	demo, _ := bot.Demo("gwab")
	c.play(t, "g1", "practice", demo)
	home := c.publish(t, "g1", "practice", "@alice /book publish")

	res, _ := c.get(t, home+"step/13")
	if res.StatusCode != 200 || count.events != 1 {
		t.Fatalf("step 13: %d, after %d reads of the log", res.StatusCode, count.events)
	}
	for _, p := range []string{home, home + "step/14", home + "step/14.json", home + "step/28"} {
		if res, _ := c.get(t, p); res.StatusCode != 200 {
			t.Errorf("%s: %d", p, res.StatusCode)
		}
	}
	if count.events != 1 {
		t.Errorf("four more pages of the book read its log %d times more", count.events-1)
	}
	// The log is not read again for a 304: a new server, with nothing
	// kept, answers one.
	count.events = 0
	c.web = New(Config{Store: count, Rulesets: rulesets(), Renderer: c.web.cfg.Renderer})
	for _, p := range []string{home, home + "step/13", home + "step/13.json"} {
		res, _ := c.get(t, p)
		again, _ := c.get(t, p, "If-None-Match", res.Header.Get("ETag"))
		if again.StatusCode != http.StatusNotModified {
			t.Errorf("%s asked again with its ETag: %d", p, again.StatusCode)
		}
	}
	if count.events != 1 {
		t.Errorf("three pages and their 304s read the log %d times, want once", count.events)
	}
	// A new step makes a new version of a book in play.
	c.play(t, "g1", "live", longBook(1))
	live := c.publish(t, "g1", "live", "@alice /book publish")
	old, _ := c.get(t, live)
	c.play(t, "g1", "live", "@alice /aloof\n@bob /aloof\n")
	if res, _ := c.get(t, live, "If-None-Match", old.Header.Get("ETag")); res.StatusCode != 200 {
		t.Errorf("the book after a step more, asked with the ETag before it: %d", res.StatusCode)
	}

	// Compressed when asked, and the same page.
	for _, p := range []string{home + "step/13", home + "step/13.json"} {
		plain, body := c.get(t, p)
		res, zipped := c.get(t, p, "Accept-Encoding", "gzip, br")
		if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s with gzip asked: Content-Encoding %q, Vary %q", p, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
			continue
		}
		zr, err := gzip.NewReader(strings.NewReader(zipped))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil || string(unzipped) != body || len(zipped) >= len(body) {
			t.Errorf("%s gzipped: %d bytes for %d, %v", p, len(zipped), len(body), err)
		}
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s not asked for gzip came as %q", p, plain.Header.Get("Content-Encoding"))
		}
		if res, _ := c.get(t, p, "Accept-Encoding", "gzip;q=0, identity"); res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s with gzip refused came as %q", p, res.Header.Get("Content-Encoding"))
		}
	}
}

// TestBookPage reads a book's page as its players would: the board as
// the last step left it beside the list of every step, each a link, the
// step shown marked; the list tells no card the local table stacked;
// each step's JSON gives what the script shows; the export downloads
// with the players named as on the page, sealed choices face down, and
// no Discord ID.
func TestBookPage(t *testing.T) {
	c := newClub(t)
	demo, _ := bot.Demo("gwab")
	c.play(t, "g1", "practice", demo)
	home := c.publish(t, "g1", "practice", "@alice /book publish")
	_, page := c.get(t, home)
	for _, bad := range []string{"stacked", "seeded", "random source"} {
		if strings.Contains(page, bad) {
			t.Errorf("the book's page tells a table directive (%q)", bad)
		}
	}
	if meta := regexp.MustCompile(`<p class="meta">[^<]*</p>`).FindString(page); meta == "" || strings.Contains(meta, "Gang Warfare") {
		t.Errorf("the book's line under its heading repeats it: %s", meta)
	}
	items := regexp.MustCompile(`<li id="s(\d+)"><a (aria-current="step" )?href="([^"]+)">step (\d+)</a>`).FindAllStringSubmatch(page, -1)
	if len(items) < 20 {
		t.Fatalf("the book lists %d steps", len(items))
	}
	current := 0
	for _, m := range items {
		if m[1] != m[4] || !strings.HasSuffix(m[3], "/step/"+m[1]) {
			t.Errorf("a list item: %s", m[0])
		}
		if m[2] != "" {
			current++
			if m[1] != items[len(items)-1][1] {
				t.Errorf("the book's page marks step %s, not its last", m[1])
			}
		}
	}
	if current != 1 {
		t.Errorf("%d steps marked as shown", current)
	}
	img := regexp.MustCompile(`<img id="board" src="([^"]+)"`).FindStringSubmatch(page)
	if img == nil || !strings.HasSuffix(img[1], "/step/"+items[len(items)-1][1]+".png") {
		t.Errorf("the book's page shows the picture %v", img)
	}
	if !strings.Contains(page, `<script src="/book.js" defer></script>`) {
		t.Errorf("the book's page has no script")
	}
	res, js := c.get(t, "/book.js")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || !strings.Contains(js, "ArrowRight") {
		t.Errorf("the script: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || regexp.MustCompile(`script-src[^;]*unsafe`).MatchString(csp) {
		t.Errorf("the pages' policy: %s", csp)
	}

	checkStepPage(t, c, home)
	checkExport(t, c, home)
	if !strings.Contains(page, `href="`+home+`export.json" download`) {
		t.Errorf("the book's page does not offer its export")
	}
}

// checkStepPage reads step 14 of the book published at home: its page
// marks it alone, its JSON says what the script shows, and steps the
// book has not are not found.
func checkStepPage(t *testing.T, c *club, home string) {
	t.Helper()
	_, step := c.get(t, home+"step/14")
	if !strings.Contains(step, `<li id="s14"><a aria-current="step" href=`) || strings.Count(step, `aria-current="step"`) != 1 {
		t.Errorf("step 14's page does not mark it alone")
	}
	var s stepJSON
	if res, body := c.get(t, home+"step/14.json"); res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/json" || json.Unmarshal([]byte(body), &s) != nil {
		t.Fatalf("step 14's JSON: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	if s.N != 14 || s.Prev != 13 || s.Next != 15 || s.First != 11 || !strings.HasSuffix(s.Picture, "/step/14.png") || s.Width != 1040 || s.Height < 400 ||
		len(s.Lines) == 0 || !strings.Contains(step, ">"+s.Lines[0]+"</p>") || !strings.HasPrefix(s.Alt, "The board after step 14: ") || !strings.HasPrefix(s.Title, "Step 14 · ") {
		t.Errorf("step 14's JSON: %+v", s)
	}
	for _, p := range []string{"step/12", "step/12.json", "step/999", "step/0.json", "step/14.png.json"} {
		if res, _ := c.get(t, home+p); res.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}

}

// checkExport downloads the export of the book published at home: an
// attachment with the players named as on the page and no Discord ID.
func checkExport(t *testing.T, c *club, home string) {
	t.Helper()
	res, export := c.get(t, home+"export.json")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment; filename=") {
		t.Fatalf("the export: %d %q", res.StatusCode, res.Header.Get("Content-Disposition"))
	}
	if id := discordID.FindString(strings.ReplaceAll(export, `"seed"`, "")); id != "" && !strings.Contains(export, `"seed": "`+id+`"`) {
		t.Errorf("the export shows the Discord ID %s", id)
	}
	var doc struct {
		Game   map[string]any    `json:"game"`
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal([]byte(export), &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Game["guild"]; ok || len(doc.Events) < 30 || !strings.Contains(export, `"actor": "Player 2"`) {
		t.Errorf("the export: game %v, %d events", doc.Game, len(doc.Events))
	}
}
