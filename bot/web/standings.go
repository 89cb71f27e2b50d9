package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// A saga's first page: every Hero by rank (5.5) with his honor and how
// it changed in the last book, his books and deeds from the saga's
// record, and his honor over the saga as a small chart, drawn here as
// SVG (nothing is fetched or run in the browser for it).

// standingsData is a saga's first page.
type standingsData struct {
	Home      string
	Name      string
	Over      string
	Standings []standingRow
	Books     []bookRow
	// LastBook is the saga's last book, which Change counts from; 0
	// before the first.
	LastBook int
	Charts   []chart
	Pace     []paceRow // pace.go
}

// standingRow is a Hero in the standings.
type standingRow struct {
	engine.Standing
	Books int // books he took the field in
	// Kills, Wounds (taken) and Captures (armor won and chariots taken)
	// are his deeds, as the saga's record counts them.
	Kills, Wounds, Captures int
	// Change is how his honor changed from the last book's first line of
	// the ledger on; New is set when he entered the saga in it.
	Change int
	New    bool
}

// bookRow is a book of the saga in its list.
type bookRow struct {
	Number  int
	Ref     string
	Date    time.Time
	Kind    string
	Outcome string
	Open    bool
}

// standings serves a saga's standings and its books.
func (s *Server) standings(w http.ResponseWriter, r *http.Request, p store.Publication, info store.Game) {
	if s.notModified(w, r, version(p.Token, info.ID, info.Head)) {
		return
	}
	ctx := r.Context()
	idx, err := s.sagaIndexOf(ctx, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	games, err := s.cfg.Store.Games(ctx, info.Guild)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	created := map[string]time.Time{}
	for _, g := range games {
		created[strconv.FormatInt(int64(g.ID), 10)] = g.Created
	}
	names := aliases{}
	sg := idx.saga
	for _, h := range sg.Heroes {
		names.name(string(h.Player))
	}
	d := standingsData{Home: bot.PagesPath(p.Token), Name: sg.Name, Over: sg.Ended, LastBook: len(sg.Books)}
	// The players' pace is read with the standings; like them, it is
	// served afresh when the saga's log moves on (its ETag is the saga's
	// head, answered before anything is read).
	var players []engine.PlayerID
	for _, h := range sg.Heroes {
		if !slices.Contains(players, h.Player) {
			players = append(players, h.Player)
		}
	}
	if d.Pace, err = s.pace(ctx, info.Guild, players, names); err != nil {
		s.fail(w, r, err)
		return
	}
	change := changes(sg)
	for _, st := range sg.Standings {
		h := sg.Heroes[st.Hero-1]
		st.Player = engine.PlayerID(names.text(string(st.Player)))
		row := standingRow{Standing: st, Books: len(h.Books), Kills: h.Kills, Wounds: h.Wounds, Captures: h.Captures, Change: change[st.Hero]}
		row.New = d.LastBook > 0 && len(h.Books) > 0 && h.Books[0] == d.LastBook
		d.Standings = append(d.Standings, row)
	}
	d.Charts = charts(sg, d.Standings)
	for i, b := range sg.Books {
		d.Books = append(d.Books, bookRow{Number: i + 1, Ref: b.Ref, Date: created[b.Ref], Kind: b.Kind, Outcome: names.text(b.Result), Open: !b.Closed})
	}
	var buf strings.Builder
	if err := s.pages.ExecuteTemplate(&buf, "standings.html", d); err != nil {
		s.fail(w, r, err)
		return
	}
	s.send(w, r, "text/html; charset=utf-8", []byte(buf.String()))
}

// changes is how each Hero's honor changed from the first line of the
// ledger that the saga's last book wrote on: in it, and by the Herald
// since.
func changes(sg engine.Ledger) map[int]int {
	out := map[int]int{}
	last := len(sg.Books)
	from := len(sg.Lines)
	for i, l := range sg.Lines {
		if last > 0 && l.Book == last {
			from = i
			break
		}
	}
	for _, l := range sg.Lines[from:] {
		out[l.Hero] += l.Points
	}
	return out
}

// honorByBook is a Hero's honor at the end of each book of the saga,
// counting the Herald's lines written before the next book's first: a
// point for each book from the one he entered in (0 for the saga's
// start), the last his honor now.
type honorPoint struct {
	Book, Honor int
}

// honorByBook reads sg's ledger for hero's points.
func honorByBook(sg engine.Ledger, hero int) []honorPoint {
	books := len(sg.Books)
	var out []honorPoint
	total, first, book := 0, -1, 0
	for _, l := range sg.Lines {
		if l.Book > book {
			// The lines before are all of books up to book: close them.
			if first >= 0 {
				for k := book; k < l.Book; k++ {
					out = append(out, honorPoint{k, total})
				}
			}
			book = l.Book
		}
		if l.Hero == hero {
			if first < 0 {
				first = book
			}
			total += l.Points
		}
	}
	if first < 0 {
		return nil
	}
	for k := book; k <= books; k++ {
		out = append(out, honorPoint{k, total})
	}
	return out
}

// chart is a Hero's honor over the saga, as an SVG line.
type chart struct {
	Hero   int
	Name   string
	Points []chartPoint
	Line   string // the polyline's points
	Label  string // the chart in words
	// Min and Max are the honor at the chart's bottom and top, the same
	// for every Hero of the saga, so that their charts compare.
	Min, Max int
}

// chartPoint is a point of a chart: the book, the honor, and where it
// is drawn.
type chartPoint struct {
	Book, Honor int
	X, Y        string
}

// The charts' size, in SVG units (CSS pixels).
const (
	chartW, chartH = 240.0, 64.0
	chartPad       = 5.0
)

// charts draws every Hero's honor over the saga on one scale.
func charts(sg engine.Ledger, rows []standingRow) []chart {
	books := max(1, len(sg.Books))
	lo, hi := 0, 0
	set := false
	series := map[int][]honorPoint{}
	for _, row := range rows {
		pts := honorByBook(sg, row.Hero)
		series[row.Hero] = pts
		for _, p := range pts {
			if !set || p.Honor < lo {
				lo = p.Honor
			}
			if !set || p.Honor > hi {
				hi = p.Honor
			}
			set = true
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	var out []chart
	for _, row := range rows {
		c := chart{Hero: row.Hero, Name: row.Name, Min: lo, Max: hi}
		var line, words []string
		for _, p := range series[row.Hero] {
			x := chartPad + float64(p.Book)/float64(books)*(chartW-2*chartPad)
			y := chartH - chartPad - float64(p.Honor-lo)/float64(hi-lo)*(chartH-2*chartPad)
			cp := chartPoint{Book: p.Book, Honor: p.Honor, X: fmt.Sprintf("%.1f", x), Y: fmt.Sprintf("%.1f", y)}
			c.Points = append(c.Points, cp)
			line = append(line, cp.X+","+cp.Y)
			if p.Book == 0 {
				words = append(words, fmt.Sprintf("%d at the start", p.Honor))
			} else {
				words = append(words, fmt.Sprintf("%d after book %d", p.Honor, p.Book))
			}
		}
		c.Line = strings.Join(line, " ")
		c.Label = fmt.Sprintf("%s’s honor: %s.", row.Name, strings.Join(words, ", "))
		out = append(out, c)
	}
	return out
}
