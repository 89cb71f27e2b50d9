package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkSagaPages serves the pages of a saga of 100 books: the
// standings with the list of books, a Hero's ledger, and one book's page
// with every step told. Each op is one page, read as a browser that holds
// no copy does.
func BenchmarkSagaPages(b *testing.B) {
	c := newClub(b)
	var script strings.Builder
	script.WriteString("@alice /saga start name:Long quorum:4\n")
	for i := range 100 {
		fmt.Fprintf(&script, "@alice /book open\n#seed %d\n", i+1)
		script.WriteString("/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow\n")
		script.WriteString("/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling\n")
		script.WriteString("@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow\n")
		script.WriteString("/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin\n")
		script.WriteString("@carol /clan raise name:Dardanians hero:Aeneas side:antagonist warbands:spear,sword,bow\n")
		script.WriteString("/clan raise name:Argives hero:Diomedes side:protagonist warbands:spear,spear,javelin\n")
		// Whoever's turn it is stands aloof; the others are refused.
		script.WriteString("@alice /book start\n" + strings.Repeat("@alice /aloof\n@bob /aloof\n@carol /aloof\n", 6))
		fmt.Fprintf(&script, "@alice /saga adjust hero:Achilles points:1 reason:\"book %d\"\n", i+1)
		script.WriteString("/book end reason:\"at nightfall\"\n")
	}
	if out := c.play(b, "g1", "table", script.String()); strings.Count(out, "The book ends") != 100 {
		b.Fatalf("the saga did not play 100 books:\n%s", out[max(0, len(out)-2000):])
	}
	if heroes := len(sagaOf(b, c, "g1").Heroes); heroes == 0 {
		b.Fatal("the saga has no Heroes")
	}
	home := c.publish(b, "g1", "table", "@alice /saga publish")
	_, page := c.get(b, home)
	books := strings.Count(page, "/book/")
	if books != 100 {
		b.Fatalf("the standings list %d books, want 100", books)
	}
	book := href.FindAllStringSubmatch(page, -1)
	var last string
	for _, m := range book {
		if strings.Contains(m[1], "/book/") {
			last = m[1]
		}
	}
	for _, p := range []struct{ name, path string }{
		{"standings", home},
		{"hero", home + "hero/1"},
		{"book", last},
	} {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if res, _ := c.get(b, p.path); res.StatusCode != 200 {
					b.Fatalf("%s: %d", p.path, res.StatusCode)
				}
			}
		})
	}
}

// BenchmarkStepPage serves the pages of a book of more than 1,000 steps,
// side by side with a static file of the same size as a step's page
// (served by net/http's file server from disk): a step's page early,
// in the middle and at the end of the book, its JSON, and a 304 for a
// page the browser holds. The fold of the book is made before the
// timing, as the first visitor of a new step makes it; after that a
// step's page costs the same wherever it is in the book. "fold" is what
// the first page after a new step costs to read the book again.
func BenchmarkStepPage(b *testing.B) {
	c := newClub(b)
	c.play(b, "g1", "long", longBook(350))
	home := c.publish(b, "g1", "long", "@alice /book publish")
	_, page := c.get(b, home)
	last := regexp.MustCompile(`<li id="s(\d+)"><a aria-current`).FindStringSubmatch(page)
	if last == nil {
		b.Fatal("the book's page marks no step")
	}
	n, _ := strconv.Atoi(last[1])
	if n < 1000 {
		b.Fatalf("the book has %d steps, want 1,000 or more", n)
	}
	mid := n / 2
	for mid > 0 {
		if res, _ := c.get(b, home+"step/"+strconv.Itoa(mid)); res.StatusCode == 200 {
			break
		}
		mid--
	}
	res, step := c.get(b, home+"step/"+strconv.Itoa(mid))
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(step), 0o644); err != nil {
		b.Fatal(err)
	}
	files := http.FileServer(http.Dir(dir))
	etag := res.Header.Get("ETag")
	serve := func(b *testing.B, h http.Handler, path string, header ...string) {
		for b.Loop() {
			req := httptest.NewRequest("GET", path, nil)
			for i := 0; i+1 < len(header); i += 2 {
				req.Header.Set(header[i], header[i+1])
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != 200 && w.Code != 304 {
				b.Fatalf("%s: %d", path, w.Code)
			}
		}
		b.ReportMetric(float64(len(step)), "page-bytes")
	}
	b.Run("static-file", func(b *testing.B) { serve(b, files, "/page.html") })
	b.Run("step-11", func(b *testing.B) { serve(b, c.web, home+"step/11") })
	b.Run(fmt.Sprintf("step-%d", mid), func(b *testing.B) { serve(b, c.web, home+"step/"+strconv.Itoa(mid)) })
	b.Run(fmt.Sprintf("step-%d", n), func(b *testing.B) { serve(b, c.web, home+"step/"+strconv.Itoa(n)) })
	b.Run("step-json", func(b *testing.B) { serve(b, c.web, home+"step/"+strconv.Itoa(mid)+".json") })
	b.Run("not-modified", func(b *testing.B) {
		serve(b, c.web, home+"step/"+strconv.Itoa(mid), "If-None-Match", etag)
	})
	b.Run("step-gzip", func(b *testing.B) {
		serve(b, c.web, home+"step/"+strconv.Itoa(mid), "Accept-Encoding", "gzip")
	})
	// What the first page after a new step costs: the book read again.
	b.Run("fold", func(b *testing.B) {
		info, err := c.st.LatestGame(context.Background(), "g1", "long")
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := c.web.makeFold(context.Background(), home, info, info); err != nil {
				b.Fatal(err)
			}
		}
	})
}
