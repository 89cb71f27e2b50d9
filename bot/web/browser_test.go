package web

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(412, 915))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	browserCtx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	// The browser starts on the first call, on a context with no
	// deadline; each step after has its own.
	if err := chromedp.Do(browserCtx); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(browserCtx, 90*time.Second)
	defer cancel()
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
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[][]string](`Array.from(document.querySelectorAll('#standings tr')).slice(1).map(r => [r.cells[0].innerText.trim(), r.cells[1].innerText.trim()])`))
	must(err)
	shot("standings")
	saga := sagaOf(t, c, "g1")
	want := saga.Standings()
	if len(rows) != len(want) {
		t.Fatalf("the standings show %d Heroes, want %d: %v", len(rows), len(want), rows)
	}
	for i, st := range want {
		rank := "†"
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
	must(chromedp.Do(ctx, chromedp.Click(chromedp.ID("next")), chromedp.WaitVisible(chromedp.ID("board"))))
	after, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("board"), "src"))
	must(err)
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
