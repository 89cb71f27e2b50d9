package web

import (
	"bytes"
	"context"
	"html"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

// players stand for the Discord accounts of the saga's players, which no
// page may show.
var players = strings.NewReplacer("@alice", "@111111111111111111", "@bob", "@222222222222222222",
	"@carol", "@333333333333333333", "@dave", "@444444444444444444")

var discordID = regexp.MustCompile(`\d{17,20}`)

func rulesets() []engine.Ruleset {
	return systems.All()
}

// club is a bot's store and router, and its web server.
type club struct {
	st     *store.Store
	router *bot.Router
	web    *Server
}

func newClub(t testing.TB) *club {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	router := bot.NewRouter(bot.Config{Store: st, Rulesets: rulesets(), Directives: true, WebURL: "https://rhapsode.example.org"})
	web := New(Config{Logger: slog.New(slog.NewTextHandler(os.Stderr, nil)), Store: st, Rulesets: rulesets(), Renderer: render.New(render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth})})
	return &club{st: st, router: router, web: web}
}

// play plays script at the local table of guild and channel and returns
// what the table said.
func (c *club) play(t testing.TB, guild, channel, script string) string {
	t.Helper()
	var out bytes.Buffer
	l := &bot.Local{Router: c.router, Guild: guild, Channel: channel, User: "111111111111111111", Echo: true}
	if err := l.Run(context.Background(), strings.NewReader(players.Replace(script)), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

var address = regexp.MustCompile(`https://rhapsode\.example\.org(/p/[a-z0-9]+/)`)

// publish gives the publishing command and returns the pages' path.
func (c *club) publish(t testing.TB, guild, channel, line string) string {
	t.Helper()
	out := c.play(t, guild, channel, line+"\n")
	m := address.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("%s gave no address:\n%s", line, out)
	}
	return m[1]
}

// get fetches path from the web server.
func (c *club) get(t testing.TB, path string, header ...string) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	c.web.ServeHTTP(w, req)
	res := w.Result()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func sagaScript(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/transcripts/saga.script")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var href = regexp.MustCompile(`href="([^"]+)"`)

// TestPublishedSaga plays the three-book saga, has the Herald publish it,
// and reads its pages: standings with the ranks, a Hero's ledger linked to
// the books and steps its lines came from, each book step by step with
// its pictures; no page names a Discord account; and once withdrawn,
// every page is gone.
func TestPublishedSaga(t *testing.T) {
	c := newClub(t)
	c.play(t, "g1", "table", sagaScript(t))
	if res, _ := c.get(t, "/p/aaaaaaaaaaaaaaaaaaaaaaaaaa/"); res.StatusCode != 404 {
		t.Fatalf("an address before anything is published: %d", res.StatusCode)
	}
	if out := c.play(t, "g1", "table", "@bob /saga publish\n"); strings.Contains(out, "/p/") || !strings.Contains(out, "Only the Herald") {
		t.Fatalf("a player who is not the Herald published the saga:\n%s", out)
	}
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	if again := c.publish(t, "g1", "table", "@alice /saga publish"); again != home {
		t.Errorf("publishing again moved the pages from %s to %s", home, again)
	}

	res, page := c.get(t, home)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("the standings: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	saga := sagaOf(t, c, "g1")
	for _, st := range saga.Standings() {
		if st.FellIn == 0 && !regexp.MustCompile(`(?s)<td class="n">`+regexp.QuoteMeta(strconv.Itoa(st.Rank))+`</td>\s*<td><a href="[^"]*hero/\d+">`+regexp.QuoteMeta(st.Name)+`</a>`).MatchString(page) {
			t.Errorf("the standings do not rank %s %d:\n%s", st.Name, st.Rank, page)
		}
	}
	for _, want := range []string{"The saga “Wrath”", "Player 1", "raid", "battle", "<table id=\"books\">"} {
		if !strings.Contains(page, want) {
			t.Errorf("the standings lack %q", want)
		}
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-cache" || res.Header.Get("ETag") == "" {
		t.Errorf("the standings' caching: Cache-Control %q, ETag %q", cc, res.Header.Get("ETag"))
	}
	if again, _ := c.get(t, home, "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
		t.Errorf("the standings asked again with their ETag: %d, want 304", again.StatusCode)
	}

	// Achilles's ledger, from the standings' link.
	var heroPage, heroPath string
	for _, m := range href.FindAllStringSubmatch(page, -1) {
		if strings.Contains(m[1], "/hero/") {
			if _, p := c.get(t, m[1]); strings.Contains(p, "Achilles of the Myrmidons") {
				heroPath, heroPage = m[1], p
			}
		}
	}
	if heroPage == "" {
		t.Fatalf("no link of the standings leads to Achilles's ledger")
	}
	for _, want := range []string{"<table id=\"ledger\">", "spoils of the sack of Lyrnessus", "+95", "step ", "The Herald proclaims him"} {
		if !strings.Contains(html.UnescapeString(heroPage), want) {
			t.Errorf("Achilles's ledger (%s) lacks %q:\n%s", heroPath, want, heroPage)
		}
	}

	// Each book, and its steps.
	books := regexp.MustCompile(`href="(/p/[a-z0-9]+/book/\d+/)"`).FindAllStringSubmatch(page, -1)
	if len(books) != 3 {
		t.Fatalf("the standings link %d books, want 3", len(books))
	}
	res, book := c.get(t, books[1][1])
	if res.StatusCode != 200 || !strings.Contains(book, "Book 2") || !strings.Contains(book, "with the Dardanians") {
		t.Fatalf("book 2: %d\n%s", res.StatusCode, book)
	}
	watch := regexp.MustCompile(`id="watch" href="([^"]+)"`).FindStringSubmatch(book)
	if watch == nil {
		t.Fatalf("book 2 has no way to watch it:\n%s", book)
	}
	_, step := c.get(t, watch[1])
	next := regexp.MustCompile(`id="next" rel="next" href="([^"]+)"`).FindStringSubmatch(step)
	img := regexp.MustCompile(`id="board" src="([^"]+)"`).FindStringSubmatch(step)
	if next == nil || img == nil {
		t.Fatalf("the first step of book 2 has no picture or no next:\n%s", step)
	}
	res, pic := c.get(t, img[1])
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(pic, "\x89PNG") {
		t.Fatalf("the picture: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if cc := res.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("a step's picture: Cache-Control %q, want it kept for good", cc)
	}
	_, after := c.get(t, next[1])
	if nimg := regexp.MustCompile(`id="board" src="([^"]+)"`).FindStringSubmatch(after); nimg == nil || nimg[1] == img[1] {
		t.Errorf("the next step shows the same picture")
	}

	// No page names an account.
	for _, p := range []string{home, heroPath, books[0][1], books[1][1], books[2][1], watch[1], next[1]} {
		_, body := c.get(t, p)
		if id := discordID.FindString(body); id != "" {
			t.Errorf("%s shows the Discord ID %s", p, id)
		}
	}

	// Another server's book is not reached through this saga's address.
	c.play(t, "g2", "elsewhere", "@alice /book open\n")
	other, _ := c.st.LatestGame(context.Background(), "g2", "elsewhere")
	if res, _ := c.get(t, home+"book/"+strconv.Itoa(int(other.ID))+"/"); res.StatusCode != 404 {
		t.Errorf("another server's book through this saga's address: %d", res.StatusCode)
	}

	if out := c.play(t, "g1", "table", "@alice /saga withdraw\n"); !strings.Contains(out, "off the web") {
		t.Fatalf("withdraw:\n%s", out)
	}
	for _, p := range []string{home, heroPath, books[1][1], watch[1], img[1]} {
		if res, _ := c.get(t, p); res.StatusCode != 404 {
			t.Errorf("%s after the saga was withdrawn: %d, want 404", p, res.StatusCode)
		}
	}
}

// TestPublishedBookKeepsSecrets publishes a sweet game in which one side
// has laid its melee indicator face down: the page says so, and shows no
// choice.
func TestPublishedBookKeepsSecrets(t *testing.T) {
	c := newClub(t)
	demo, ok := bot.Demo("sweet")
	if !ok {
		t.Fatal("no sweet demonstration")
	}
	before, _, _ := strings.Cut(demo, "#load d6 2 2")
	c.play(t, "g1", "field", before)
	if out := c.play(t, "g1", "field", "@bob /book publish\n"); !strings.Contains(out, "game master") || strings.Contains(out, "/p/") {
		t.Fatalf("a player who is not the game master published the book:\n%s", out)
	}
	home := c.publish(t, "g1", "field", "@alice /book publish")
	res, page := c.get(t, home)
	if res.StatusCode != 200 {
		t.Fatalf("the book: %d", res.StatusCode)
	}
	if !strings.Contains(page, "face down") {
		t.Errorf("the book does not tell that an indicator lies face down")
	}
	if strings.Contains(strings.ToUpper(page), "PINCERS") {
		t.Errorf("the book shows the sealed choice:\n%s", page)
	}
	if res, _ := c.get(t, home+"hero/1"); res.StatusCode != 404 {
		t.Errorf("a single book has a Hero page: %d", res.StatusCode)
	}
}

func sagaOf(t testing.TB, c *club, guild string) *gwab.Saga {
	t.Helper()
	ctx := context.Background()
	games, err := c.st.Games(ctx, guild)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if g.Ruleset == gwab.NewSaga().ID() {
			got, err := bot.Load(ctx, c.st, gwab.NewSaga(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got.State.(*gwab.Saga)
		}
	}
	t.Fatal("no saga")
	return nil
}

// TestPagesForEveryone reads the published saga's pages as a screen
// reader and a browser tab would: each page's title names the saga, the
// book and the step; a step's picture says in its text what the step did,
// carries its size, and has the step's narration as its caption; every
// table has a caption and its header cells a scope; the Tartarus mark is
// read as words; the unavailable ways through the steps say they are
// disabled; and every page links an icon that is served.
func TestPagesForEveryone(t *testing.T) {
	c := newClub(t)
	c.play(t, "g1", "table", sagaScript(t))
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	title := regexp.MustCompile(`<title>([^<]*)</title>`)
	titles := map[string]string{}
	read := func(path string) string {
		t.Helper()
		res, page := c.get(t, path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		m := title.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s has no title", path)
		}
		if other, ok := titles[m[1]]; ok {
			t.Errorf("%s and %s share the title %q", path, other, m[1])
		}
		titles[m[1]] = path
		if !strings.Contains(page, `<link rel="icon" href="/favicon.svg"`) {
			t.Errorf("%s links no icon", path)
		}
		for _, th := range regexp.MustCompile(`<th[ >][^>]*>?`).FindAllString(page, -1) {
			if !strings.Contains(th, `scope="`) {
				t.Errorf("%s: a header cell without scope: %s", path, th)
			}
		}
		if tables, captions := strings.Count(page, "<table"), strings.Count(page, "<caption"); tables != captions {
			t.Errorf("%s: %d tables, %d captions", path, tables, captions)
		}
		return html.UnescapeString(m[1]) + "\n" + page
	}

	standings := read(home)
	if !strings.HasPrefix(standings, "The saga “Wrath”") {
		t.Errorf("the standings' title: %s", strings.SplitN(standings, "\n", 2)[0])
	}
	if !strings.Contains(standings, `<span aria-hidden="true">†</span><span class="vh">in Tartarus</span>`) {
		t.Errorf("the standings do not say in words who is in Tartarus")
	}
	for _, m := range href.FindAllStringSubmatch(standings, -1) {
		if strings.Contains(m[1], "/hero/") {
			if p := read(m[1]); !strings.Contains(strings.SplitN(p, "\n", 2)[0], "the saga “Wrath”") {
				t.Errorf("%s's title names no saga: %s", m[1], strings.SplitN(p, "\n", 2)[0])
			}
		}
	}
	books := regexp.MustCompile(`href="(/p/[a-z0-9]+/book/\d+/)"`).FindAllStringSubmatch(standings, -1)
	for i, b := range books {
		book := read(b[1])
		if want := "Book " + strconv.Itoa(i+1) + " of the saga “Wrath”"; !strings.HasPrefix(book, want) {
			t.Errorf("book %d's title: %s, want %s…", i+1, strings.SplitN(book, "\n", 2)[0], want)
		}
	}

	// Book 2 step by step.
	_, book := c.get(t, books[1][1])
	watch := regexp.MustCompile(`id="watch" href="([^"]+)"`).FindStringSubmatch(book)
	step := read(watch[1])
	n := watch[1][strings.LastIndex(watch[1], "/")+1:]
	if want := "Step " + n + " · Book 2 of the saga “Wrath”"; !strings.HasPrefix(step, want) {
		t.Errorf("the first step's title: %s, want %s…", strings.SplitN(step, "\n", 2)[0], want)
	}
	for _, id := range []string{"first", "prev"} {
		if !strings.Contains(step, `<a id="`+id+`" role="link" aria-disabled="true">`) {
			t.Errorf("the first step's %s is not marked disabled", id)
		}
	}
	if !strings.Contains(step, `<a id="next" rel="next" href=`) {
		t.Errorf("the first step has no next")
	}
	img := regexp.MustCompile(`<img id="board" src="([^"]+)" alt="([^"]+)" width="(\d+)" height="(\d+)">`).FindStringSubmatch(step)
	caption := regexp.MustCompile(`(?s)<figcaption id="told">(.*?)</figcaption>`).FindStringSubmatch(step)
	if img == nil || caption == nil {
		t.Fatalf("the step's picture has no size or no caption:\n%s", step)
	}
	first := regexp.MustCompile(`<p>(.*?)</p>`).FindStringSubmatch(caption[1])
	if first == nil || html.UnescapeString(img[2]) != "The board after step "+n+": "+html.UnescapeString(first[1]) {
		t.Errorf("the picture's text is %q; want the step and what it told first (%v)", img[2], first)
	}
	_, pic := c.get(t, img[1])
	cfg, err := png.DecodeConfig(strings.NewReader(pic))
	if err != nil {
		t.Fatal(err)
	}
	if img[3] != strconv.Itoa(cfg.Width) || img[4] != strconv.Itoa(cfg.Height) {
		t.Errorf("the picture is said to be %sx%s, and is %dx%d", img[3], img[4], cfg.Width, cfg.Height)
	}
	// The last step: next and last are disabled.
	last := regexp.MustCompile(`id="last" href="([^"]+)"`).FindStringSubmatch(step)
	end := read(last[1])
	for _, id := range []string{"next", "last"} {
		if !strings.Contains(end, `<a id="`+id+`" role="link" aria-disabled="true">`) {
			t.Errorf("the last step's %s is not marked disabled", id)
		}
	}

	res, icon := c.get(t, "/favicon.svg")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(icon, "<svg") {
		t.Errorf("the icon: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	res, ico := c.get(t, "/favicon.ico")
	if cfg, err := png.DecodeConfig(strings.NewReader(ico)); res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || err != nil || cfg.Width != 32 || cfg.Height != 32 {
		t.Errorf("the icon browsers ask for by themselves: %d %s, %v %v", res.StatusCode, res.Header.Get("Content-Type"), cfg, err)
	}
	if res, page := c.get(t, "/p/abcdefghijklmnopqrstuvwxyz/"); res.StatusCode != 404 || !strings.Contains(page, `href="/favicon.svg"`) {
		t.Errorf("the page of an address with nothing: %d, linking no icon", res.StatusCode)
	}
}
