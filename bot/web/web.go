package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Store is what the pages read: games and their logs, and the
// publications that make them public.
type Store interface {
	bot.Store
	bot.Publications
}

// Config configures a Server.
type Config struct {
	Store Store
	// Rulesets are the rule systems of the books (their campaigns come
	// with them).
	Rulesets []engine.Ruleset
	// Renderer draws the board pictures; nil, the pages have none.
	Renderer bot.Renderer
	// Painters is how many pictures the pages draw at once (1 when
	// left zero); a few requests more wait, and the rest are asked to
	// come back.
	Painters int
	Logger   *slog.Logger
}

// Server serves the published pages. It is safe for concurrent use.
type Server struct {
	cfg   Config
	rules map[string]engine.Ruleset
	pages *template.Template
	mux   *http.ServeMux

	folds   folds
	gallery *gallery

	mu    sync.Mutex
	sagas map[store.GameID]*sagaIndex
}

//go:embed templates/*.html
var templateFiles embed.FS

// bookScript is the book page's script (static/book.js).
//
//go:embed static/book.js
var bookScript []byte

// New returns a Server.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, rules: map[string]engine.Ruleset{}, sagas: map[store.GameID]*sagaIndex{},
		folds: folds{made: map[foldKey]*fold{}, pending: map[foldKey]*foldCall{}}, gallery: newGallery(cfg.Painters)}
	for _, rs := range cfg.Rulesets {
		s.rules[rs.ID()] = rs
		if cr, ok := rs.(engine.Campaigner); ok {
			s.rules[cr.Campaign().ID()] = cr.Campaign()
		}
	}
	s.pages = template.Must(template.New("").Funcs(template.FuncMap{
		"date": func(t time.Time) string { return t.UTC().Format("2 January 2006") },
		"signed": func(n int) string {
			if n > 0 {
				return "+" + strconv.Itoa(n)
			}
			return strconv.Itoa(n)
		},
	}).ParseFS(templateFiles, "templates/*.html"))
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /p/{token}/{$}", s.root)
	s.mux.HandleFunc("GET /p/{token}/hero/{hero}", s.hero)
	s.mux.HandleFunc("GET /p/{token}/book/{book}/{$}", s.book)
	s.mux.HandleFunc("GET /p/{token}/book/{book}/step/{step}", s.step)
	s.mux.HandleFunc("GET /p/{token}/step/{step}", s.step)
	s.mux.HandleFunc("GET /p/{token}/export.json", s.export)
	s.mux.HandleFunc("GET /p/{token}/book/{book}/export.json", s.export)
	s.mux.HandleFunc("GET /book.js", s.script)
	s.mux.HandleFunc("GET /favicon.svg", serveIcon("image/svg+xml", faviconSVG))
	s.mux.HandleFunc("GET /favicon.ico", serveIcon("image/png", faviconPNG()))
	s.mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) { s.notFound(w) })
	return s
}

// ServeHTTP serves the pages: everything under /p/TOKEN/ of a published
// game, and 404 for the rest.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	s.mux.ServeHTTP(w, r)
}

// errNotFound is a page that is not there: unpublished, withdrawn, or
// never was. All look the same from outside.
var errNotFound = errors.New("not found")

func (s *Server) notFound(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	s.pages.ExecuteTemplate(w, "missing.html", nil)
}

// fail answers an error: not found as 404, the rest as 500, logged.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errNotFound) || errors.Is(err, store.ErrNotFound) {
		s.notFound(w)
		return
	}
	s.cfg.Logger.ErrorContext(r.Context(), "web page", "path", r.URL.Path, "err", err)
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "Something went wrong on our side; try again in a moment.", http.StatusInternalServerError)
}

// publication finds what the request's token publishes.
func (s *Server) publication(ctx context.Context, r *http.Request) (store.Publication, store.Game, engine.Ruleset, error) {
	token := r.PathValue("token")
	if len(token) < 16 || len(token) > 64 {
		return store.Publication{}, store.Game{}, nil, errNotFound
	}
	p, err := s.cfg.Store.Published(ctx, token)
	if err != nil {
		return store.Publication{}, store.Game{}, nil, err
	}
	info, err := s.cfg.Store.Game(ctx, p.Game)
	if err != nil {
		return store.Publication{}, store.Game{}, nil, err
	}
	if info.Guild != p.Guild {
		return store.Publication{}, store.Game{}, nil, errNotFound
	}
	rs, ok := s.rules[info.Ruleset]
	if !ok {
		return store.Publication{}, store.Game{}, nil, fmt.Errorf("game %d is played by %q, which this server does not know", info.ID, info.Ruleset)
	}
	return p, info, rs, nil
}

// render writes page with data, or a 304 when the browser holds the page
// of the same version.
func (s *Server) render(w http.ResponseWriter, r *http.Request, page string, version string, data any) {
	if s.notModified(w, r, version) {
		return
	}
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, page, data); err != nil {
		s.fail(w, r, err)
		return
	}
	s.send(w, r, "text/html; charset=utf-8", buf.Bytes())
}

// notModified sets a page's ETag from its version and answers 304 when
// the browser holds that version. Pages change as the books go on: a
// browser asks each time, and is told in a few bytes when nothing
// changed.
func (s *Server) notModified(w http.ResponseWriter, r *http.Request, version string) bool {
	etag := `"` + version + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Accept-Encoding")
	if match := r.Header.Get("If-None-Match"); match != "" && slices.Contains(strings.Split(match, ", "), etag) {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	return false
}

// send writes a page's parts, compressed with gzip when the browser
// takes it: at the fastest level, as each page is compressed as it is
// sent, and a book's page is some ten times smaller so.
func (s *Server) send(w http.ResponseWriter, r *http.Request, contentType string, parts ...[]byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Vary", "Accept-Encoding")
	if acceptsGzip(r) {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		for _, p := range parts {
			zw.Write(p)
		}
		zw.Close()
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
		w.Write(buf.Bytes())
		return
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	w.Header().Set("Content-Length", strconv.Itoa(n))
	for _, p := range parts {
		w.Write(p)
	}
}

// acceptsGzip reports whether the request's Accept-Encoding takes gzip
// (and does not refuse it with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, h := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(h, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				q := strings.ReplaceAll(params, " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

// version makes a page's ETag from what it shows: the games it reads and
// how far their logs go.
func version(parts ...any) string {
	h := sha256.Sum256(fmt.Append(nil, parts...))
	return hex.EncodeToString(h[:12])
}

// root serves a publication's first page: a saga's standings, or a
// single book.
func (s *Server) root(w http.ResponseWriter, r *http.Request) {
	p, info, rs, err := s.publication(r.Context(), r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if isSaga(rs) {
		s.standings(w, r, p, info)
		return
	}
	s.watch(w, r, p, info, info, "", 0, false)
}

// book serves one book of a published saga.
func (s *Server) book(w http.ResponseWriter, r *http.Request) {
	p, saga, rs, err := s.publication(r.Context(), r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !isSaga(rs) {
		s.notFound(w)
		return
	}
	book, err := s.sagaBook(r.Context(), saga, r.PathValue("book"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.watch(w, r, p, saga, book, "book/"+r.PathValue("book")+"/", 0, false)
}

// sagaBook is the book ref of saga: one the saga follows, of its guild.
func (s *Server) sagaBook(ctx context.Context, saga store.Game, ref string) (store.Game, error) {
	idx, err := s.sagaIndexOf(ctx, saga)
	if err != nil {
		return store.Game{}, err
	}
	if _, ok := idx.bookNumber[ref]; !ok {
		return store.Game{}, errNotFound
	}
	id, err := strconv.ParseInt(ref, 10, 64)
	if err != nil {
		return store.Game{}, errNotFound
	}
	info, err := s.cfg.Store.Game(ctx, store.GameID(id))
	if err != nil {
		return store.Game{}, err
	}
	if info.Guild != saga.Guild {
		return store.Game{}, errNotFound
	}
	return info, nil
}

// bookOf finds the book a request's address names: the published book,
// or a book of the published saga. It answers the request itself when
// there is none, and returns false.
func (s *Server) bookOf(w http.ResponseWriter, r *http.Request) (p store.Publication, pub, info store.Game, prefix string, ok bool) {
	ctx := r.Context()
	p, pub, rs, err := s.publication(ctx, r)
	if err != nil {
		s.fail(w, r, err)
		return p, pub, info, "", false
	}
	info = pub
	if ref := r.PathValue("book"); ref != "" {
		if !isSaga(rs) {
			s.notFound(w)
			return p, pub, info, "", false
		}
		if info, err = s.sagaBook(ctx, pub, ref); err != nil {
			s.fail(w, r, err)
			return p, pub, info, "", false
		}
		prefix = "book/" + ref + "/"
	} else if isSaga(rs) {
		s.notFound(w)
		return p, pub, info, "", false
	}
	return p, pub, info, prefix, true
}

// step serves one step of a book: the book's page showing it, or with
// .json the step as the page's script reads it, or with .png its
// picture.
func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	name, png := strings.CutSuffix(r.PathValue("step"), ".png")
	name, asJSON := strings.CutSuffix(name, ".json")
	n, err := strconv.Atoi(name)
	if err != nil || n < 1 || png && asJSON {
		s.notFound(w)
		return
	}
	p, pub, info, prefix, ok := s.bookOf(w, r)
	if !ok {
		return
	}
	if png {
		s.picture(w, r, p, pub, info, prefix, n)
		return
	}
	s.watch(w, r, p, pub, info, prefix, n, asJSON)
}

// script serves the book page's script.
func (s *Server) script(w http.ResponseWriter, r *http.Request) {
	if s.notModified(w, r, version(bookScript)) {
		return
	}
	s.send(w, r, "text/javascript; charset=utf-8", bookScript)
}

func isSaga(rs engine.Ruleset) bool {
	_, ok := rs.(engine.Chronicle)
	return ok
}
