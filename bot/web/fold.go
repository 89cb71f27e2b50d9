package web

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// A book's pages all read the same log: what each step told, which
// steps have a board, and the board as any step left it. A fold reads the
// log once for each head it reaches and keeps what the pages need, so
// that a step's page costs the same whatever the step and however long
// the book: the list of steps rendered once, the size of every picture,
// and a copy of the game every snapEvery steps, from which a step's board
// is rebuilt by playing at most snapEvery steps.

// snapEvery is how many steps apart the fold keeps a copy of the game.
const snapEvery = 32

// maxFolds bounds the folds kept: each holds a book's log, its list of
// steps as HTML and some thirty copies of its game.
const maxFolds = 8

// foldKey names a fold: the book as one publication shows it, at the
// heads both have reached (a saga's new Hero renames nobody, but a new
// head is the simplest sure sign that the names may have grown).
type foldKey struct {
	base              string // the links in the list lead under it
	pub, book         store.GameID
	pubHead, bookHead engine.Seq
}

// fold is one book read for its pages. It is not changed once made.
type fold struct {
	book  bookData
	rs    engine.Ruleset
	names aliases // the publication's aliases after the whole book; copy before use
	// events are the book's log as recorded (secrets and all: the board
	// is drawn from the game, whose views show what the table saw), and
	// starts the index of each step's first event.
	events []engine.Event
	starts []int
	snaps  map[int]*engine.Game // the game after step n, n a multiple of snapEvery
	// boards are the steps the pages show a board for, in order; sizes
	// the size of each one's picture (zero when the renderer cannot say).
	boards []int
	sizes  map[int][2]int
	// list is the book's steps as the page lists them, in HTML; mark[n]
	// is where, in it, step n's link takes aria-current.
	list []byte
	mark map[int]int
}

// foldCall is a fold being made; those who ask for it meanwhile wait.
type foldCall struct {
	done chan struct{}
	f    *fold
	err  error
}

// folds keeps the folds made, the newest last, and those being made.
type folds struct {
	mu      sync.Mutex
	kept    []foldKey
	made    map[foldKey]*fold
	pending map[foldKey]*foldCall
}

// foldOf returns the fold of book info as the publication of pub shows
// it, reading the log once however many ask at the same time.
// base is the book's address, which the list's links start with.
func (s *Server) foldOf(ctx context.Context, base string, pub, info store.Game) (*fold, error) {
	key := foldKey{base, pub.ID, info.ID, pub.Head, info.Head}
	fs := &s.folds
	fs.mu.Lock()
	if f, ok := fs.made[key]; ok {
		i := slices.Index(fs.kept, key)
		fs.kept = append(slices.Delete(fs.kept, i, i+1), key)
		fs.mu.Unlock()
		return f, nil
	}
	if c, ok := fs.pending[key]; ok {
		fs.mu.Unlock()
		select {
		case <-c.done:
			return c.f, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c := &foldCall{done: make(chan struct{})}
	fs.pending[key] = c
	fs.mu.Unlock()

	c.f, c.err = s.makeFold(ctx, base, pub, info)
	fs.mu.Lock()
	delete(fs.pending, key)
	if c.err == nil {
		fs.made[key] = c.f
		fs.kept = append(fs.kept, key)
		for len(fs.kept) > maxFolds {
			delete(fs.made, fs.kept[0])
			fs.kept = fs.kept[1:]
		}
	}
	fs.mu.Unlock()
	close(c.done)
	return c.f, c.err
}

// makeFold reads book info's log, with what is still secret kept so, and
// tells each step in game terms.
func (s *Server) makeFold(ctx context.Context, base string, pub, info store.Game) (*fold, error) {
	names, sagaName, number, err := s.namesFor(ctx, pub, info)
	if err != nil {
		return nil, err
	}
	rs, ok := s.rules[info.Ruleset]
	if !ok || isSaga(rs) {
		return nil, errNotFound
	}
	recs, err := s.cfg.Store.Events(ctx, info.ID, 0, info.Head)
	if err != nil {
		return nil, err
	}
	// The game is played from its log as it is; what it tells is read
	// from the log with every secret still sealed kept face down.
	public, err := engine.Redact(rs, recs)
	if err != nil {
		return nil, err
	}
	f := &fold{rs: rs, events: make([]engine.Event, len(recs)), snaps: map[int]*engine.Game{}, sizes: map[int][2]int{}, mark: map[int]int{}}
	told := make([]engine.Event, len(recs))
	for i := range recs {
		if f.events[i], err = engine.DecodeRecord(rs, recs[i]); err != nil {
			return nil, err
		}
		if told[i], err = engine.DecodeRecord(rs, public[i]); err != nil {
			return nil, err
		}
	}
	b := bookData{Title: rs.Title(), Created: info.Created, Ended: info.Ended}
	viewer, _ := rs.(engine.Viewer)
	sizer, _ := s.cfg.Renderer.(interface {
		Size(engine.View) (int, int, error)
	})
	start := 0
	_, err = bot.WalkSteps(rs, f.events, func(n int, g *engine.Game, step []engine.Event) error {
		f.starts = append(f.starts, start)
		start += len(step)
		if n%snapEvery == 0 {
			f.snaps[n] = g.Clone()
		}
		st := stepLines{N: n, Directive: tableDirective(step)}
		for _, e := range step {
			for _, m := range rs.Narrate(told[e.Seq-1]) {
				if !m.Private() && m.Text != "" {
					st.Lines = append(st.Lines, names.text(m.Text))
				}
			}
		}
		if viewer != nil && !st.Directive {
			if v := viewer.View(g, step); v.Width > 0 && v.Depth > 0 {
				st.Board = true
				f.boards = append(f.boards, n)
				if sizer != nil {
					// The picture's size depends on its header and its
					// legend, where players are named; the rest of the
					// view is scrubbed when the picture is drawn.
					v.Title, v.Caption = names.text(v.Title), names.text(v.Caption)
					v.Groups = slices.Clone(v.Groups)
					for i := range v.Groups {
						v.Groups[i].Name, v.Groups[i].Player = names.text(v.Groups[i].Name), names.text(v.Groups[i].Player)
					}
					if w, h, err := sizer.Size(v); err == nil {
						f.sizes[n] = [2]int{w, h}
					}
				}
			}
		}
		b.Steps = append(b.Steps, st)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.Ended && len(b.Steps) > 0 {
		if l := b.Steps[len(b.Steps)-1].Lines; len(l) > 0 {
			b.Outcome = l[len(l)-1]
		}
	}
	b.Number = number
	b.Name = b.Title + ", " + b.Created.UTC().Format("2 January 2006")
	b.Saga = sagaName
	if sagaName != "" && number > 0 {
		b.Name = fmt.Sprintf("Book %d of the saga “%s”", number, sagaName)
		idx, err := s.sagaIndexOf(ctx, pub)
		if err != nil {
			return nil, err
		}
		sb := idx.saga.Books[number-1]
		b.Kind, b.Outcome = sb.Kind, orElse(sb.Result, b.Outcome)
	}
	if len(f.boards) > 0 {
		b.First, b.Last = f.boards[0], f.boards[len(f.boards)-1]
	}
	f.book = b
	f.names = names
	if err := s.renderList(f, base); err != nil {
		return nil, err
	}
	return f, nil
}

// orElse is the first of a and b that is not empty.
func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// tableDirective reports whether step only set the table's random source
// (the local table's #seed, #stack and #load): what it told would give
// away the cards to come, and the board did not change.
func tableDirective(step []engine.Event) bool {
	for _, e := range step {
		switch e.Body.(type) {
		case engine.Seeded, engine.Stacked, engine.Loaded:
		default:
			return false
		}
	}
	return len(step) > 0
}

// listed reports whether the book's page lists step st: it told the
// table something, or has a board, and was not a table directive.
func (st stepLines) listed() bool {
	return !st.Directive && (len(st.Lines) > 0 || st.Board)
}

// renderList renders f's list of steps once, noting where each step's
// link is to be marked as the current one.
func (s *Server) renderList(f *fold, base string) error {
	var buf bytes.Buffer
	for _, st := range f.book.Steps {
		if !st.listed() {
			continue
		}
		at := buf.Len()
		if err := s.pages.ExecuteTemplate(&buf, "stepitem", listItem{Base: base, Step: st}); err != nil {
			return err
		}
		i := bytes.Index(buf.Bytes()[at:], []byte("<a "))
		if i < 0 {
			return fmt.Errorf("web: step %d's item has no link", st.N)
		}
		f.mark[st.N] = at + i + len("<a")
	}
	f.list = buf.Bytes()
	return nil
}

// listItem is a step in the book's list.
type listItem struct {
	Base string
	Step stepLines
}

// game returns the game as step n left it, and the step's events, played
// from the nearest copy before it.
func (f *fold) game(n int) (*engine.Game, []engine.Event, error) {
	from := n / snapEvery * snapEvery
	var g *engine.Game
	if from > 0 {
		g = f.snaps[from].Clone()
	} else {
		g = engine.NewGame(f.rs)
	}
	end := len(f.events)
	if n < len(f.starts) {
		end = f.starts[n]
	}
	// The copy kept after step from already holds every event up to
	// there; a step that is itself a kept one (from == n, the book's last
	// step perhaps) needs none applied.
	begin := 0
	switch {
	case from == n:
		begin = end
	case from > 0:
		begin = f.starts[from]
	}
	for _, e := range f.events[begin:end] {
		if err := g.Apply(e); err != nil {
			return nil, nil, err
		}
	}
	return g, f.events[f.starts[n-1]:end], nil
}

// view returns step n's board with the publication's names, or false
// when the step has none to show.
func (f *fold) view(n int) (engine.View, bool, error) {
	if _, ok := slices.BinarySearch(f.boards, n); !ok {
		return engine.View{}, false, nil
	}
	viewer, ok := f.rs.(engine.Viewer)
	if !ok {
		return engine.View{}, false, nil
	}
	g, step, err := f.game(n)
	if err != nil {
		return engine.View{}, false, err
	}
	v := viewer.View(g, step)
	names := aliases{}
	for k, a := range f.names {
		names[k] = a
	}
	names.scrub(&v)
	return v, true, nil
}

// around returns the steps with a board before and after n, and the
// first and last, 0 for none.
func (f *fold) around(n int) (first, prev, next, last int) {
	if len(f.boards) == 0 {
		return 0, 0, 0, 0
	}
	first, last = f.boards[0], f.boards[len(f.boards)-1]
	i, found := slices.BinarySearch(f.boards, n)
	if i > 0 {
		prev = f.boards[i-1]
	}
	if found {
		i++
	}
	if i < len(f.boards) {
		next = f.boards[i]
	}
	return first, prev, next, last
}
