package web

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
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
	return snowflake.ReplaceAllStringFunc(t, a.name)
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
}

// bookData is a book as its pages show it.
type bookData struct {
	Title   string // the rule system's name
	Name    string // the book as a page's title names it
	Created time.Time
	Ended   bool
	Kind    string // battle, raid, practice; or the rule system
	Outcome string
	Number  int // its number in the saga, 0 for a single book
	Steps   []stepLines
	Last    int // the last step with a board
	First   int // the first step with a board
}

// loadBook reads a book's log with what is still secret kept so, and
// tells each step in game terms.
func (s *Server) loadBook(ctx context.Context, info store.Game, names aliases) (bookData, []engine.Event, engine.Ruleset, error) {
	rs, ok := s.rules[info.Ruleset]
	if !ok || isSaga(rs) {
		return bookData{}, nil, nil, errNotFound
	}
	recs, err := s.cfg.Store.Events(ctx, info.ID, 0, info.Head)
	if err != nil {
		return bookData{}, nil, nil, err
	}
	// The game is played from its log as it is; what it tells is read
	// from the log with every secret still sealed kept face down.
	public, err := engine.Redact(rs, recs)
	if err != nil {
		return bookData{}, nil, nil, err
	}
	events := make([]engine.Event, len(recs))
	told := make([]engine.Event, len(recs))
	for i := range recs {
		if events[i], err = engine.DecodeRecord(rs, recs[i]); err != nil {
			return bookData{}, nil, nil, err
		}
		if told[i], err = engine.DecodeRecord(rs, public[i]); err != nil {
			return bookData{}, nil, nil, err
		}
	}
	b := bookData{Title: rs.Title(), Created: info.Created, Ended: info.Ended, Kind: rs.Title()}
	viewer, _ := rs.(engine.Viewer)
	_, err = bot.WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		st := stepLines{N: n}
		for _, e := range step {
			for _, m := range rs.Narrate(told[e.Seq-1]) {
				if !m.Private() && m.Text != "" {
					st.Lines = append(st.Lines, names.text(m.Text))
				}
			}
		}
		if viewer != nil {
			if v := viewer.View(g, step); v.Width > 0 && v.Depth > 0 {
				st.Board = true
				if b.First == 0 {
					b.First = n
				}
				b.Last = n
			}
		}
		b.Steps = append(b.Steps, st)
		return nil
	})
	if err != nil {
		return bookData{}, nil, nil, err
	}
	if b.Ended && len(b.Steps) > 0 {
		if l := b.Steps[len(b.Steps)-1].Lines; len(l) > 0 {
			b.Outcome = l[len(l)-1]
		}
	}
	return b, events, rs, nil
}

// bookPageData is the book page.
type bookPageData struct {
	Home  string // the publication's first page
	Saga  string // the saga's name, for a book of a saga
	Base  string // the book's path under the publication
	Book  bookData
	Steps []stepLines // with something to tell
}

// publishedBook reads book info for a page of the publication of pub:
// told with pub's aliases, and, in a saga, with its number, kind and
// outcome there. It returns the saga's name too.
func (s *Server) publishedBook(ctx context.Context, pub, info store.Game) (bookData, string, error) {
	names, sagaName, number, err := s.namesFor(ctx, pub, info)
	if err != nil {
		return bookData{}, "", err
	}
	b, _, _, err := s.loadBook(ctx, info, names)
	if err != nil {
		return bookData{}, "", err
	}
	b.Number = number
	b.Name = b.Title + ", " + b.Created.UTC().Format("2 January 2006")
	if sagaName != "" && number > 0 {
		b.Name = fmt.Sprintf("Book %d of the saga “%s”", number, sagaName)
		idx, err := s.sagaIndexOf(ctx, pub)
		if err != nil {
			return bookData{}, "", err
		}
		sb := idx.saga.Books[number-1]
		b.Kind, b.Outcome = sb.Mode.String(), cmp.Or(sb.Result, b.Outcome)
	}
	return b, sagaName, nil
}

// bookPage serves a book: when and what it was, and every step.
func (s *Server) bookPage(w http.ResponseWriter, r *http.Request, p store.Publication, pub, info store.Game, prefix string) {
	b, sagaName, err := s.publishedBook(r.Context(), pub, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var told []stepLines
	for _, st := range b.Steps {
		if len(st.Lines) > 0 || st.Board {
			told = append(told, st)
		}
	}
	s.render(w, r, "book.html", version(p.Token, pub.Head, info.Head), bookPageData{
		Home: bot.PagesPath(p.Token), Saga: sagaName, Base: bot.PagesPath(p.Token) + prefix, Book: b, Steps: told})
}

// stepPageData is one step of a book, with its picture.
type stepPageData struct {
	Home, Base, Saga string
	Book             bookData
	Step             stepLines
	First, Prev      int
	Next, Last       int
	Picture          bool
	// Alt is the picture's text alternative: the step and what it did;
	// Width and Height its size, so that the page keeps its room for it
	// while it loads.
	Alt           string
	Width, Height int
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

// stepPage serves step n of a book, with its picture and the way to the
// first, previous, next and last steps that have one.
func (s *Server) stepPage(w http.ResponseWriter, r *http.Request, p store.Publication, pub, info store.Game, prefix string, n int) {
	b, sagaName, err := s.publishedBook(r.Context(), pub, info)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if n > len(b.Steps) {
		s.notFound(w)
		return
	}
	d := stepPageData{Home: bot.PagesPath(p.Token), Base: bot.PagesPath(p.Token) + prefix, Saga: sagaName, Book: b, Step: b.Steps[n-1],
		Picture: b.Steps[n-1].Board && s.cfg.Renderer != nil, Alt: altText(n, b.Steps[n-1].Lines)}
	if d.Picture {
		// The picture is drawn now, to give its size; its own request
		// finds it drawn.
		pic, err := s.drawn(r.Context(), pictureKey{pub.ID, info.ID, n}, pub, info)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(pic))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		d.Width, d.Height = cfg.Width, cfg.Height
	}
	for _, st := range b.Steps {
		if !st.Board {
			continue
		}
		if d.First == 0 {
			d.First = st.N
		}
		if st.N < n {
			d.Prev = st.N
		}
		if st.N > n && d.Next == 0 {
			d.Next = st.N
		}
		d.Last = st.N
	}
	s.render(w, r, "step.html", version(p.Token, pub.Head, info.Head, n), d)
}

// picture serves step n's board as the step left it. A step once
// recorded never changes, so its picture is kept by browsers for good.
func (s *Server) picture(w http.ResponseWriter, r *http.Request, pub, info store.Game, n int) {
	if s.cfg.Renderer == nil {
		s.notFound(w)
		return
	}
	key := pictureKey{pub.ID, info.ID, n}
	etag := fmt.Sprintf(`"%d-%d-%d"`, pub.ID, info.ID, n)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	pic, err := s.drawn(r.Context(), key, pub, info)
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

// drawn returns step key.step's picture of book info, as the
// publication of pub names its players, drawing it once.
func (s *Server) drawn(ctx context.Context, key pictureKey, pub, info store.Game) ([]byte, error) {
	s.mu.Lock()
	pic, ok := s.pictures[key]
	if ok {
		i := slices.Index(s.order, key)
		s.order = append(slices.Delete(s.order, i, i+1), key)
	}
	s.mu.Unlock()
	if ok {
		return pic, nil
	}
	names, _, _, err := s.namesFor(ctx, pub, info)
	if err != nil {
		return nil, err
	}
	_, events, rs, err := s.loadBook(ctx, info, names)
	if err != nil {
		return nil, err
	}
	viewer, ok := rs.(engine.Viewer)
	if !ok {
		return nil, errNotFound
	}
	var view *engine.View
	_, err = bot.WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		if n == key.step {
			v := viewer.View(g, step)
			view = &v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if view == nil || view.Width <= 0 || view.Depth <= 0 {
		return nil, errNotFound
	}
	names.scrub(view)
	if pic, err = s.cfg.Renderer.PNG(*view); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if _, ok := s.pictures[key]; !ok {
		s.pictures[key] = pic
		s.order = append(s.order, key)
		for len(s.order) > maxPictures {
			delete(s.pictures, s.order[0])
			s.order = s.order[1:]
		}
	}
	s.mu.Unlock()
	return pic, nil
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
// stays.
type sagaIndex struct {
	head       engine.Seq
	saga       *gwab.Saga
	bookNumber map[string]int // book ref → number in the saga
	// entries are each Hero's ledger lines and rank changes, in order.
	entries map[gwab.HeroID][]ledgerEntry
}

// ledgerEntry is a line of a Hero's ledger, or his rank changing.
type ledgerEntry struct {
	Book      int
	BookRef   string
	Step      int // the book's step it came from, 0 for none
	Round     int
	Points    int
	Reason    string
	Total     int
	Rank      string // for a rank change, the new rank's title
	Rose      bool
	IsRank    bool
	Proclaims string
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
	if !ok || !isSaga(rs) {
		return nil, errNotFound
	}
	recs, err := s.cfg.Store.Events(ctx, info.ID, 0, info.Head)
	if err != nil {
		return nil, err
	}
	g := engine.NewGame(rs)
	idx = &sagaIndex{head: info.Head, bookNumber: map[string]int{}, entries: map[gwab.HeroID][]ledgerEntry{}}
	totals := map[gwab.HeroID]int{}
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
		sg, ok := g.State.(*gwab.Saga)
		if !ok {
			return nil, fmt.Errorf("game %d: not a saga", info.ID)
		}
		switch b := e.Body.(type) {
		case gwab.SagaStarted:
			for _, l := range b.Lines {
				totals[l.Hero] += l.Points
				idx.entries[l.Hero] = append(idx.entries[l.Hero], ledgerEntry{Points: l.Points, Reason: l.Reason, Total: totals[l.Hero]})
			}
		case gwab.Entered:
			totals[b.Hero] += b.Points
			le := ledgerEntry{Book: b.Book, Round: b.Round, Points: b.Points, Reason: b.Reason, Total: totals[b.Hero]}
			if b.Book > 0 && b.Book <= len(sg.Books) {
				le.BookRef = sg.Books[b.Book-1].Ref
				if b.Step > 0 {
					if stepOf[le.BookRef] == nil {
						if stepOf[le.BookRef], err = s.stepNumbers(ctx, le.BookRef); err != nil {
							return nil, err
						}
					}
					le.Step = stepOf[le.BookRef][b.Step]
				}
			}
			idx.entries[b.Hero] = append(idx.entries[b.Hero], le)
		case gwab.RankChanged:
			idx.entries[b.Hero] = append(idx.entries[b.Hero], ledgerEntry{IsRank: true, Rose: b.To > b.From, Rank: gwab.RankTitle(b.To), Total: b.Total})
		}
	}
	sg := g.State.(*gwab.Saga)
	idx.saga = sg
	for i, b := range sg.Books {
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

// standingsData is a saga's first page.
type standingsData struct {
	Home      string
	Name      string
	Over      string
	Standings []gwab.HeroStanding
	Books     []bookRow
	Pace      []paceRow // pace.go
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
	var players []engine.PlayerID
	for _, h := range idx.saga.Heroes {
		names.name(string(h.Player))
		if !slices.Contains(players, h.Player) {
			players = append(players, h.Player)
		}
	}
	d := standingsData{Home: bot.PagesPath(p.Token), Name: idx.saga.Name, Over: idx.saga.Ended, Standings: idx.saga.Standings()}
	if d.Pace, err = s.pace(ctx, info.Guild, players, names); err != nil {
		s.fail(w, r, err)
		return
	}
	for i := range d.Standings {
		d.Standings[i].Player = engine.PlayerID(names.text(string(d.Standings[i].Player)))
	}
	for i, b := range idx.saga.Books {
		d.Books = append(d.Books, bookRow{Number: i + 1, Ref: b.Ref, Date: created[b.Ref], Kind: b.Mode.String(), Outcome: names.text(b.Result), Open: !b.Closed})
	}
	s.render(w, r, "standings.html", version(p.Token, info.Head, d.Pace), d)
}

// heroData is a Hero's page.
type heroData struct {
	Home     string
	Saga     string
	Hero     gwab.HeroStanding
	Deeds    []gwab.DeedCount
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
	id := gwab.HeroID(n)
	names := aliases{}
	for _, h := range idx.saga.Heroes {
		names.name(string(h.Player))
	}
	var me gwab.HeroStanding
	for _, st := range idx.saga.Standings() {
		if st.Hero == id {
			me = st
		}
	}
	me.Player = engine.PlayerID(names.text(string(me.Player)))
	d := heroData{Home: bot.PagesPath(p.Token), Saga: idx.saga.Name, Hero: me, Deeds: idx.saga.Deeds(id), Entries: slices.Clone(idx.entries[id])}
	for _, b := range idx.saga.Heroes[n-1].Books {
		if b >= 1 && b <= len(idx.saga.Books) {
			sb := idx.saga.Books[b-1]
			d.Books = append(d.Books, bookRow{Number: b, Ref: sb.Ref, Kind: sb.Mode.String()})
		}
	}
	for i := range d.Entries {
		d.Entries[i].Reason = names.text(d.Entries[i].Reason)
	}
	d.NoLedger = len(d.Entries) == 0
	s.render(w, r, "hero.html", version(p.Token, info.Head, n), d)
}
