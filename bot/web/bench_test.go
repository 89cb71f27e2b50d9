package web

import (
	"fmt"
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
