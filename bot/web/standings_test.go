package web

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/gwab"
)

// ledgerHonor is hero's honor in sg's ledger before the first line of a
// book after book: what the chart shows at book.
func ledgerHonor(sg *gwab.Saga, hero gwab.HeroID, book int) int {
	total := 0
	for _, l := range sg.Ledger {
		if l.Book > book {
			break
		}
		if l.Hero == hero {
			total += l.Points
		}
	}
	return total
}

// TestStandingsDeeds reads the saga's standings after its three books:
// each Hero's books, kills, wounds taken and captures as the saga's
// record counts them; under his honor, how it changed in the last book
// (the absent Diomedes lost 3); and his honor after each book as the
// points of a chart, on one scale for all, the last his honor now.
func TestStandingsDeeds(t *testing.T) {
	c := newClub(t)
	c.play(t, "g1", "table", sagaScript(t))
	home := c.publish(t, "g1", "table", "@alice /saga publish")
	_, page := c.get(t, home)
	sg := sagaOf(t, c, "g1")

	rows := map[string][]string{}
	for _, m := range regexp.MustCompile(`<tr><td>([^<]+)</td><td class="n">(\d+)</td><td class="n">(\d+)</td><td class="n">(\d+)</td><td class="n">(\d+)</td></tr>`).FindAllStringSubmatch(page, -1) {
		rows[m[1]] = m[2:]
	}
	for _, h := range sg.Heroes {
		want := []string{strconv.Itoa(len(h.Books)), strconv.Itoa(h.Deeds[gwab.Kills]), strconv.Itoa(h.Deeds[gwab.WoundsTaken]), strconv.Itoa(h.Deeds[gwab.ArmorWon] + h.Deeds[gwab.ChariotsTaken])}
		if got := rows[h.Name]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s's books and deeds: %v, want %v", h.Name, got, want)
		}
	}
	if rows["Achilles"][1] != "1" {
		t.Errorf("Achilles killed Aeneas in book 2, and his kills say %s", rows["Achilles"][1])
	}
	if !strings.Contains(page, `<span class="chg down"><span class="vh">in book 3: </span>-3</span>`) {
		t.Errorf("the standings do not show Diomedes's loss in book 3")
	}

	charts := regexp.MustCompile(`(?s)<svg class="chart" id="chart-(\d+)"[^>]*data-min="(\d+)" data-max="(\d+)">(.*?)</svg>`).FindAllStringSubmatch(page, -1)
	// A Hero with no line in the ledger yet has no chart.
	lined := map[gwab.HeroID]bool{}
	for _, l := range sg.Ledger {
		lined[l.Hero] = true
	}
	if len(charts) != len(lined) || len(charts) < 8 {
		t.Fatalf("%d charts for %d Heroes with a line in the ledger", len(charts), len(lined))
	}
	circle := regexp.MustCompile(`<circle cx="([\d.]+)" cy="([\d.]+)" r="3" data-book="(\d+)" data-honor="(-?\d+)"/>`)
	for _, ch := range charts {
		id, _ := strconv.Atoi(ch[1])
		hero := gwab.HeroID(id)
		lo, _ := strconv.Atoi(ch[2])
		hi, _ := strconv.Atoi(ch[3])
		pts := circle.FindAllStringSubmatch(ch[4], -1)
		if len(pts) == 0 {
			t.Errorf("hero %d's chart has no point", id)
			continue
		}
		h := sg.Heroes[id-1]
		if first, _ := strconv.Atoi(pts[0][3]); first != h.Books[0] {
			t.Errorf("%s's chart starts at book %d, he entered in book %d", h.Name, first, h.Books[0])
		}
		for _, p := range pts {
			x, _ := strconv.ParseFloat(p[1], 64)
			y, _ := strconv.ParseFloat(p[2], 64)
			book, _ := strconv.Atoi(p[3])
			honor, _ := strconv.Atoi(p[4])
			if want := ledgerHonor(sg, hero, book); honor != want {
				t.Errorf("%s's chart gives %d honor after book %d, the ledger %d", h.Name, honor, book, want)
			}
			wantX := chartPad + float64(book)/float64(len(sg.Books))*(chartW-2*chartPad)
			wantY := chartH - chartPad - float64(honor-lo)/float64(hi-lo)*(chartH-2*chartPad)
			if math.Abs(x-wantX) > 0.06 || math.Abs(y-wantY) > 0.06 {
				t.Errorf("%s's point for book %d is at %.1f,%.1f, want %.1f,%.1f", h.Name, book, x, y, wantX, wantY)
			}
		}
		if last, _ := strconv.Atoi(pts[len(pts)-1][4]); last != sg.Points(hero) {
			t.Errorf("%s's chart ends at %d, his honor is %d", h.Name, last, sg.Points(hero))
		}
	}
}
