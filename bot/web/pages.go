package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Players on Discord are known to the bot by their account IDs, which
// the narration and the pictures name. A public page names no account:
// each ID becomes "Player N", numbered in the order the published game
// first names them, the same on every page of one publication.

// snowflake is a Discord ID, bare or as a mention; digits is its number.
var (
	snowflake = regexp.MustCompile(`<@!?\d{17,20}>|\b\d{17,20}\b`)
	digits    = regexp.MustCompile(`\d+`)
)

// aliases names the players of one publication.
type aliases map[string]string

// name returns the alias of the account s names, numbering it if new.
func (a aliases) name(s string) string {
	id := s
	if m := digits.FindString(s); m != "" {
		id = m
	}
	if n, ok := a[id]; ok {
		return n
	}
	n := fmt.Sprintf("Player %d", len(a)+1)
	a[id] = n
	return n
}

// text writes t with every account named by its alias.
func (a aliases) text(t string) string {
	if !longNumber(t) {
		return t
	}
	return snowflake.ReplaceAllStringFunc(t, a.name)
}

// longNumber reports whether t holds a run of 17 digits or more, as an
// account's ID does: most texts have none, and are told so without the
// regular expression.
func longNumber(t string) bool {
	run := 0
	for i := 0; i < len(t); i++ {
		if t[i] >= '0' && t[i] <= '9' {
			if run++; run >= 17 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// scrub rewrites every string of v (a pointer) with a.text: a board's
// view names players in its header and legend.
func (a aliases) scrub(v any) {
	var walk func(reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.String:
			if x.CanSet() {
				x.SetString(a.text(x.String()))
			}
		case reflect.Pointer, reflect.Interface:
			if !x.IsNil() {
				walk(x.Elem())
			}
		case reflect.Struct:
			for i := range x.NumField() {
				if x.Type().Field(i).IsExported() {
					walk(x.Field(i))
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range x.Len() {
				walk(x.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
}

// stepLines is what one step of a book told the table.
type stepLines struct {
	N     int
	Lines []string
	Board bool // the step has a board to show
	// Directive is set for a step that only set the local table's
	// random source, which the pages never show.
	Directive bool
}

// bookData is a book as its pages show it.
type bookData struct {
	Title   string // the rule system's name
	Name    string // the book as a page's title names it
	Saga    string // the saga's name, for a book of a saga
	Created time.Time
	Ended   bool
	Kind    string // in a saga: battle, raid, practice
	Outcome string
	Number  int // its number in the saga, 0 for a single book
	Steps   []stepLines
	Last    int // the last step with a board
	First   int // the first step with a board
}

// watchData is a book's page: the board as one step left it, beside the
// list of every step, the way through the steps with a picture, and the
// export.
type watchData struct {
	Home, Base string
	Book       bookData
	// Title is the page's title: the book's name, or the step and the
	// book's name on a step's own address.
	Title string
	Step  stepLines // the step shown, N 0 for none
	Shown stepJSON
}

// stepJSON is one step as the book's page shows it, and as its script
// fetches it to step without reloading the page.
type stepJSON struct {
	N     int      `json:"n"`
	Title string   `json:"title"`
	URL   string   `json:"url"`
	Lines []string `json:"lines"`
	// Picture is the address of the step's board, "" when it has none;
	// Alt its text alternative: the step and what it did; Width and
	// Height its size, so that the page keeps its room while it loads.
	Picture string `json:"picture"`
	Alt     string `json:"alt"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	// First, Prev, Next and Last are the steps with a board to go to, 0
	// for none.
	First int `json:"first"`
	Prev  int `json:"prev"`
	Next  int `json:"next"`
	Last  int `json:"last"`
}

// altText says in a line what the board of step n shows: the step, and
// the first thing it told the table.
func altText(n int, lines []string) string {
	alt := fmt.Sprintf("The board after step %d", n)
	if len(lines) > 0 {
		alt += ": " + lines[0]
	}
	return alt
}

// shown is step n of f as the page and its script show it.
func (s *Server) shown(f *fold, base string, n int) stepJSON {
	st := f.book.Steps[n-1]
	d := stepJSON{N: n, Title: "Step " + strconv.Itoa(n) + " · " + f.book.Name + " · Rhapsode", URL: base + "step/" + strconv.Itoa(n),
		Lines: st.Lines, Alt: altText(n, st.Lines)}
	if d.Lines == nil {
		d.Lines = []string{}
	}
	d.First, d.Prev, d.Next, d.Last = f.around(n)
	if st.Board && s.cfg.Renderer != nil {
		d.Picture = base + "step/" + strconv.Itoa(n) + ".png"
		size := f.sizes[n]
		d.Width, d.Height = size[0], size[1]
	}
	return d
}

// watch serves a book's page (n 0: the book, shown at its last board)
// or step n's, or with asJSON step n as the page's script reads it. The
// page's version is known from the publication's and the book's heads,
// so a browser that holds it is answered before the book is read.
func (s *Server) watch(w http.ResponseWriter, r *http.Request, p store.Publication, pub, info store.Game, prefix string, n int, asJSON bool) {
	if s.notModified(w, r, version(p.Token, pub.ID, pub.Head, info.ID, info.Head, n, asJSON)) {
		return
	}
	base := bot.PagesPath(p.Token) + prefix
	f, err := s.foldOf(r.Context(), base, pub, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d := watchData{Home: bot.PagesPath(p.Token), Base: base, Book: f.book, Title: f.book.Name}
	if n == 0 {
		n = f.book.Last
	} else if n > len(f.book.Steps) || !f.book.Steps[n-1].listed() {
		s.notFound(w)
		return
	} else {
		d.Title = "Step " + strconv.Itoa(n) + " · " + f.book.Name
	}
	if n > 0 {
		d.Step, d.Shown = f.book.Steps[n-1], s.shown(f, base, n)
	}
	if asJSON {
		data, err := json.Marshal(d.Shown)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		s.send(w, r, "application/json", data)
		return
	}
	var top, bottom bytes.Buffer
	if err := s.pages.ExecuteTemplate(&top, "booktop", d); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.pages.ExecuteTemplate(&bottom, "bookbottom", d); err != nil {
		s.fail(w, r, err)
		return
	}
	// The list is rendered once for the fold; the step shown is marked
	// in it as it is written out.
	list := [][]byte{f.list}
	if at, ok := f.mark[n]; ok {
		list = [][]byte{f.list[:at], []byte(` aria-current="step"`), f.list[at:]}
	}
	s.send(w, r, "text/html; charset=utf-8", slices.Concat([][]byte{top.Bytes()}, list, [][]byte{bottom.Bytes()})...)
}

// picture serves step n's board as the step left it. A step once
// recorded never changes, so its picture is kept by browsers for good.
func (s *Server) picture(w http.ResponseWriter, r *http.Request, p store.Publication, pub, info store.Game, prefix string, n int) {
	if s.cfg.Renderer == nil {
		s.notFound(w)
		return
	}
	etag := fmt.Sprintf(`"%d-%d-%d"`, pub.ID, info.ID, n)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	f, err := s.foldOf(r.Context(), bot.PagesPath(p.Token)+prefix, pub, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if n > len(f.book.Steps) {
		s.notFound(w)
		return
	}
	v, ok, err := f.view(n)
	if err != nil || !ok {
		s.fail(w, r, cmpErr(err, errNotFound))
		return
	}
	pic, err := s.gallery.picture(r.Context(), v, s.cfg.Renderer.PNG)
	if errors.Is(err, errBusy) {
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, "Many pictures are being drawn just now; try again in a moment.", http.StatusServiceUnavailable)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("Content-Length", strconv.Itoa(len(pic)))
	w.Write(pic)
}

// cmpErr is err, or def when err is nil.
func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// namesFor makes the aliases of a publication (pub) for a page of info:
// a saga's players in the order its Heroes entered, then the book's own.
// It returns the saga's name and the book's number in it, if any.
func (s *Server) namesFor(ctx context.Context, pub, info store.Game) (aliases, string, int, error) {
	names := aliases{}
	if pub.ID == info.ID {
		return names, "", 0, nil
	}
	idx, err := s.sagaIndexOf(ctx, pub)
	if err != nil {
		return nil, "", 0, err
	}
	for _, h := range idx.saga.Heroes {
		names.name(string(h.Player))
	}
	return names, idx.saga.Name, idx.bookNumber[strconv.FormatInt(int64(info.ID), 10)], nil
}

// sagaIndex is what the saga's pages need of its log, kept while its head
// stays: its record, read through the engine's ledger (engine.Ledgered).
type sagaIndex struct {
	head       engine.Seq
	saga       engine.Ledger
	bookNumber map[string]int // book ref → number in the saga
	// entries are each Hero's ledger lines and rank changes, in order,
	// by his number.
	entries map[int][]ledgerEntry
}

// ledgerEntry is a line of a Hero's ledger, or his rank changing.
type ledgerEntry struct {
	Book    int
	BookRef string
	Step    int // the book's step it came from, 0 for none
	Round   int
	Points  int
	Reason  string
	Total   int
	Rank    string // for a rank change, the new rank's title
	Rose    bool
	IsRank  bool
}

// sagaIndexOf reads the saga's log once for each head it reaches.
func (s *Server) sagaIndexOf(ctx context.Context, info store.Game) (*sagaIndex, error) {
	s.mu.Lock()
	idx := s.sagas[info.ID]
	s.mu.Unlock()
	if idx != nil && idx.head == info.Head {
		return idx, nil
	}
	rs, ok := s.rules[info.Ruleset]
	lr, isLedger := rs.(engine.Ledgered)
	if !ok || !isLedger {
		return nil, errNotFound
	}
	recs, err := s.cfg.Store.Events(ctx, info.ID, 0, info.Head)
	if err != nil {
		return nil, err
	}
	g := engine.NewGame(rs)
	idx = &sagaIndex{head: info.Head, bookNumber: map[string]int{}, entries: map[int][]ledgerEntry{}}
	// Book steps: a line names the event of its book that began its step;
	// the page links to that step by its number.
	stepOf := map[string]map[engine.Seq]int{}
	for _, rec := range recs {
		e, err := engine.DecodeRecord(rs, rec)
		if err != nil {
			return nil, err
		}
		if err := g.Apply(e); err != nil {
			return nil, err
		}
		for _, l := range lr.Entries(e, g.State) {
			le := ledgerEntry{Book: l.Book, BookRef: l.BookRef, Round: l.Round, Points: l.Points, Reason: l.Reason, Total: l.Total,
				Rank: l.Rank, Rose: l.Rose, IsRank: l.IsRank}
			if l.BookRef != "" && l.Step > 0 {
				if stepOf[l.BookRef] == nil {
					if stepOf[l.BookRef], err = s.stepNumbers(ctx, l.BookRef); err != nil {
						return nil, err
					}
				}
				le.Step = stepOf[l.BookRef][l.Step]
			}
			idx.entries[l.Hero] = append(idx.entries[l.Hero], le)
		}
	}
	idx.saga = lr.Ledger(g.State)
	for i, b := range idx.saga.Books {
		idx.bookNumber[b.Ref] = i + 1
	}
	s.mu.Lock()
	s.sagas[info.ID] = idx
	s.mu.Unlock()
	return idx, nil
}

// stepNumbers numbers the steps of the book ref: the first event of each
// step to its number.
func (s *Server) stepNumbers(ctx context.Context, ref string) (map[engine.Seq]int, error) {
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return nil, nil
	}
	recs, err := s.cfg.Store.Events(ctx, store.GameID(id), 0, 0)
	if err != nil {
		return nil, err
	}
	out := map[engine.Seq]int{}
	n := 0
	for i, rec := range recs {
		if i == 0 || rec.Step {
			n++
			out[rec.Seq] = n
		}
	}
	return out, nil
}

// heroData is a Hero's page.
type heroData struct {
	Home     string
	Saga     string
	Hero     engine.Standing
	Deeds    []engine.DeedCount
	Books    []bookRow
	Entries  []ledgerEntry
	NoLedger bool
}

// hero serves a Hero's ledger: every line of his honor, from which book
// and step, and the ranks the Herald proclaimed.
func (s *Server) hero(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	p, info, rs, err := s.publication(ctx, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !isSaga(rs) {
		s.notFound(w)
		return
	}
	idx, err := s.sagaIndexOf(ctx, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	n, err := strconv.Atoi(r.PathValue("hero"))
	if err != nil || n < 1 || n > len(idx.saga.Heroes) {
		s.notFound(w)
		return
	}
	names := aliases{}
	for _, h := range idx.saga.Heroes {
		names.name(string(h.Player))
	}
	var me engine.Standing
	for _, st := range idx.saga.Standings {
		if st.Hero == n {
			me = st
		}
	}
	me.Player = engine.PlayerID(names.text(string(me.Player)))
	d := heroData{Home: bot.PagesPath(p.Token), Saga: idx.saga.Name, Hero: me, Deeds: idx.saga.Heroes[n-1].Deeds, Entries: slices.Clone(idx.entries[n])}
	for _, b := range idx.saga.Heroes[n-1].Books {
		if b >= 1 && b <= len(idx.saga.Books) {
			sb := idx.saga.Books[b-1]
			d.Books = append(d.Books, bookRow{Number: b, Ref: sb.Ref, Kind: sb.Kind})
		}
	}
	for i := range d.Entries {
		d.Entries[i].Reason = names.text(d.Entries[i].Reason)
	}
	d.NoLedger = len(d.Entries) == 0
	s.render(w, r, "hero.html", version(p.Token, info.Head, n), d)
}
