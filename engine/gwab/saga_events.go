package gwab

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The events of a saga. Those that only keep the saga's books in step
// with it say nothing; the rest are what the Herald announces.

// SagaStarted begins a saga. Heroes and Lines are the Heroes it takes
// over from the guild's last saga and their opening honor (5.2, 13.3).
type SagaStarted struct {
	Charter
	Heroes  []SagaHero `json:"heroes,omitempty"`
	Lines   []Line     `json:"lines,omitempty"`
	Retired []string   `json:"retired,omitempty"`
	// After names the saga this one follows, if any.
	After string `json:"after,omitempty"`
}

// BookJoined is a book opened in the saga.
type BookJoined struct {
	Ref string `json:"ref"`
}

// ClanMustered is a clan raised in a book of the saga.
type ClanMustered struct {
	Book int      `json:"book"`
	Clan BookClan `json:"clan"`
}

// BookBegun is a book of the saga starting, classified by the players
// present (4).
type BookBegun struct {
	Book    int               `json:"book"`
	Mode    Mode              `json:"mode"`
	Present []engine.PlayerID `json:"present"`
	Quorum  int               `json:"quorum"`
}

// HeroEnrolled is a Hero entering the saga: a new clan's leader, the new
// Hero of a clan whose last one fell, or a Companion taking a fallen
// Hero's place (Unnamed until his player names him).
type HeroEnrolled struct {
	Hero    HeroID          `json:"hero"`
	Name    string          `json:"name"`
	Clan    string          `json:"clan"`
	Player  engine.PlayerID `json:"player"`
	Unnamed bool            `json:"unnamed,omitempty"`
	Book    int             `json:"book,omitempty"`
	Figure  ElementID       `json:"figure,omitempty"`
}

// HeroTookField is a Hero of the saga leading his clan in a book.
type HeroTookField struct {
	Hero   HeroID    `json:"hero"`
	Book   int       `json:"book"`
	Figure ElementID `json:"figure"`
}

// HeroRenamed is a player naming the Companion who took his fallen
// Hero's place (12).
type HeroRenamed struct {
	Hero HeroID `json:"hero"`
	Was  string `json:"was"`
	Name string `json:"name"`
}

// HeroFell is a Hero of the saga killed: he goes down to Tartarus and
// leaves the saga.
type HeroFell struct {
	Hero   HeroID `json:"hero"`
	Name   string `json:"name"`
	Clan   string `json:"clan"`
	Book   int    `json:"book"`
	Points int    `json:"points"`
}

// Entered is a line written in the ledger. Step is the book step it came
// from, so that taking the step back takes the line back.
type Entered struct {
	Line
	Name string     `json:"name"`
	Step engine.Seq `json:"step,omitempty"`
}

// DeedDone counts a deed on a Hero's record (N is 1, or -1 when the
// step is taken back). Against is the challenged Hero of a challenge.
type DeedDone struct {
	Done
	Book    int        `json:"book"`
	Step    engine.Seq `json:"step,omitempty"`
	Against HeroID     `json:"against,omitempty"`
}

// Done is a deed counted on a Hero.
type Done struct {
	Hero HeroID `json:"hero"`
	Deed Deed   `json:"deed"`
	N    int    `json:"n"`
}

// RankChanged is a Hero's rank changing, up or down: the Herald
// announces it at once (5.2).
type RankChanged struct {
	Hero  HeroID `json:"hero"`
	Name  string `json:"name"`
	From  int    `json:"from"`
	To    int    `json:"to"`
	Total int    `json:"total"`
}

// BookClosed is a book of the saga ending. Session is the scheduled
// session it closed, Absent the saga's players who failed to show at it,
// and Chronic those of them who miss sessions again and again (5.4).
type BookClosed struct {
	Book    int               `json:"book"`
	Result  string            `json:"result"`
	Mode    Mode              `json:"mode"`
	Started bool              `json:"started,omitempty"`
	Session int               `json:"session,omitempty"`
	When    string            `json:"when,omitempty"`
	Absent  []engine.PlayerID `json:"absent,omitempty"`
	Chronic []engine.PlayerID `json:"chronic,omitempty"`
}

// Followed marks how far the saga has followed a book.
type Followed struct {
	Book int        `json:"book"`
	Seq  engine.Seq `json:"seq"`
	Step engine.Seq `json:"step"`
}

// SessionScheduled is the Herald calling the next session.
type SessionScheduled struct {
	When string `json:"when"`
}

// Attended is a player's answer to the call.
type Attended struct {
	Player engine.PlayerID `json:"player"`
	Coming bool            `json:"coming"`
	When   string          `json:"when"`
}

// SagaEnded ends the saga: a Hero reached Homeric rank (5.2), or the
// Herald closed it.
type SagaEnded struct {
	Hero HeroID `json:"hero,omitempty"`
	Name string `json:"name,omitempty"`
	Why  string `json:"why"`
}

func (SagaStarted) Kind() string      { return "saga.started" }
func (BookJoined) Kind() string       { return "saga.book-joined" }
func (ClanMustered) Kind() string     { return "saga.clan-mustered" }
func (BookBegun) Kind() string        { return "saga.book-begun" }
func (HeroEnrolled) Kind() string     { return "saga.hero-enrolled" }
func (HeroTookField) Kind() string    { return "saga.hero-took-field" }
func (HeroRenamed) Kind() string      { return "saga.hero-renamed" }
func (HeroFell) Kind() string         { return "saga.hero-fell" }
func (Entered) Kind() string          { return "saga.entered" }
func (DeedDone) Kind() string         { return "saga.deed" }
func (RankChanged) Kind() string      { return "saga.rank-changed" }
func (BookClosed) Kind() string       { return "saga.book-closed" }
func (Followed) Kind() string         { return "saga.followed" }
func (SessionScheduled) Kind() string { return "saga.session-scheduled" }
func (Attended) Kind() string         { return "saga.attended" }
func (SagaEnded) Kind() string        { return "saga.ended" }

var sagaBodies = engine.BodyTypes{
	SagaStarted{}.Kind():      engine.Decoder[SagaStarted](),
	BookJoined{}.Kind():       engine.Decoder[BookJoined](),
	ClanMustered{}.Kind():     engine.Decoder[ClanMustered](),
	BookBegun{}.Kind():        engine.Decoder[BookBegun](),
	HeroEnrolled{}.Kind():     engine.Decoder[HeroEnrolled](),
	HeroTookField{}.Kind():    engine.Decoder[HeroTookField](),
	HeroRenamed{}.Kind():      engine.Decoder[HeroRenamed](),
	HeroFell{}.Kind():         engine.Decoder[HeroFell](),
	Entered{}.Kind():          engine.Decoder[Entered](),
	DeedDone{}.Kind():         engine.Decoder[DeedDone](),
	RankChanged{}.Kind():      engine.Decoder[RankChanged](),
	BookClosed{}.Kind():       engine.Decoder[BookClosed](),
	Followed{}.Kind():         engine.Decoder[Followed](),
	SessionScheduled{}.Kind(): engine.Decoder[SessionScheduled](),
	Attended{}.Kind():         engine.Decoder[Attended](),
	SagaEnded{}.Kind():        engine.Decoder[SagaEnded](),
	ClanHandedOver{}.Kind():   engine.Decoder[ClanHandedOver](),
}

// Apply folds one event into the saga.
func (s *Saga) Apply(e engine.Event) error { return engine.Fold(s, e) }

func (b SagaStarted) Apply(s *Saga) error {
	s.Charter = b.Charter
	s.Heroes, s.Ledger, s.Retired = append(s.Heroes, b.Heroes...), append(s.Ledger, b.Lines...), append(s.Retired, b.Retired...)
	return nil
}

func (b BookJoined) Apply(s *Saga) error {
	if s.book(b.Ref) != nil {
		return fmt.Errorf("gwab: book %s joined the saga twice", b.Ref)
	}
	s.Books = append(s.Books, SagaBook{Ref: b.Ref, Figures: map[ElementID]HeroID{}})
	return nil
}

func (s *Saga) mustBook(n int) (*SagaBook, error) {
	if n < 1 || n > len(s.Books) {
		return nil, fmt.Errorf("gwab: the saga has no book %d", n)
	}
	b := &s.Books[n-1]
	if b.Figures == nil {
		b.Figures = map[ElementID]HeroID{}
	}
	return b, nil
}

func (s *Saga) mustHero(id HeroID) (*SagaHero, error) {
	h := s.hero(id)
	if h == nil {
		return nil, fmt.Errorf("gwab: the saga has no Hero %d", id)
	}
	return h, nil
}

func (b ClanMustered) Apply(s *Saga) error {
	bk, err := s.mustBook(b.Book)
	if err != nil {
		return err
	}
	bk.Clans = append(bk.Clans, b.Clan)
	return nil
}

func (b BookBegun) Apply(s *Saga) error {
	bk, err := s.mustBook(b.Book)
	if err != nil {
		return err
	}
	bk.Started, bk.Mode = true, b.Mode
	return nil
}

func (b HeroEnrolled) Apply(s *Saga) error {
	if int(b.Hero) != len(s.Heroes)+1 {
		return fmt.Errorf("gwab: Hero %d enrolled as number %d", b.Hero, len(s.Heroes)+1)
	}
	s.Heroes = append(s.Heroes, SagaHero{Name: b.Name, Clan: b.Clan, Player: b.Player, Unnamed: b.Unnamed})
	if b.Book == 0 {
		return nil
	}
	return HeroTookField{Hero: b.Hero, Book: b.Book, Figure: b.Figure}.Apply(s)
}

func (b HeroTookField) Apply(s *Saga) error {
	bk, err := s.mustBook(b.Book)
	if err != nil {
		return err
	}
	h, err := s.mustHero(b.Hero)
	if err != nil {
		return err
	}
	bk.Figures[b.Figure] = b.Hero
	if len(h.Books) == 0 || h.Books[len(h.Books)-1] != b.Book {
		h.Books = append(h.Books, b.Book)
	}
	return nil
}

func (b HeroRenamed) Apply(s *Saga) error {
	h, err := s.mustHero(b.Hero)
	if err != nil {
		return err
	}
	h.Name, h.Unnamed = b.Name, false
	return nil
}

func (b HeroFell) Apply(s *Saga) error {
	h, err := s.mustHero(b.Hero)
	if err != nil {
		return err
	}
	h.FellIn = b.Book
	return nil
}

// mark files a line or deed under the book step it came from.
func (s *Saga) mark(book int, step engine.Seq) (*SagaBook, error) {
	if book == 0 || step == 0 {
		return nil, nil
	}
	bk, err := s.mustBook(book)
	if err != nil {
		return nil, err
	}
	if bk.Step != step {
		bk.Step, bk.StepLines, bk.StepDeeds, bk.StepHanded = step, nil, nil, nil
	}
	return bk, nil
}

func (b Entered) Apply(s *Saga) error {
	if _, err := s.mustHero(b.Hero); err != nil {
		return err
	}
	bk, err := s.mark(b.Book, b.Step)
	if err != nil {
		return err
	}
	s.Ledger = append(s.Ledger, b.Line)
	if bk != nil {
		bk.StepLines = append(bk.StepLines, len(s.Ledger)-1)
	}
	return nil
}

func (b DeedDone) Apply(s *Saga) error {
	h, err := s.mustHero(b.Hero)
	if err != nil {
		return err
	}
	bk, err := s.mark(b.Book, b.Step)
	if err != nil {
		return err
	}
	if h.Deeds == nil {
		h.Deeds = map[Deed]int{}
	}
	h.Deeds[b.Deed] += b.N
	if bk != nil {
		bk.StepDeeds = append(bk.StepDeeds, b.Done)
		if b.Deed == ChallengesIssue && b.N > 0 {
			bk.Challenge = [2]HeroID{b.Hero, b.Against}
		}
	}
	return nil
}

func (RankChanged) Apply(*Saga) error { return nil }

func (b BookClosed) Apply(s *Saga) error {
	bk, err := s.mustBook(b.Book)
	if err != nil {
		return err
	}
	bk.Closed, bk.Result, bk.Session = true, b.Result, b.Session
	if b.Session > 0 {
		if b.Session > len(s.Sessions) {
			return fmt.Errorf("gwab: the saga has no session %d", b.Session)
		}
		ses := &s.Sessions[b.Session-1]
		ses.Book, ses.Absent = b.Book, b.Absent
	}
	return nil
}

func (b Followed) Apply(s *Saga) error {
	bk, err := s.mustBook(b.Book)
	if err != nil {
		return err
	}
	bk.Followed, bk.StepSeen = b.Seq, b.Step
	return nil
}

func (b SessionScheduled) Apply(s *Saga) error {
	if _, ses := s.openSession(); ses != nil {
		ses.When, ses.Answers = b.When, nil
		return nil
	}
	s.Sessions = append(s.Sessions, Session{When: b.When})
	return nil
}

func (b Attended) Apply(s *Saga) error {
	_, ses := s.openSession()
	if ses == nil {
		return fmt.Errorf("gwab: an answer with no session called")
	}
	if ses.Answers == nil {
		ses.Answers = map[engine.PlayerID]bool{}
	}
	ses.Answers[b.Player] = b.Coming
	return nil
}

func (b SagaEnded) Apply(s *Saga) error {
	s.Ended = b.Why
	if b.Hero != 0 {
		h, err := s.mustHero(b.Hero)
		if err != nil {
			return err
		}
		h.Homeric = true
		s.Retired = append(s.Retired, h.Name)
	}
	return nil
}

func (b SagaStarted) Text() string {
	var w strings.Builder
	// A book is a battle at the quorum, a raid from three players below it,
	// practice with fewer (4; RULINGS.md, gwab): a quorum of three leaves
	// no raid to speak of.
	if b.Quorum > 3 {
		fmt.Fprintf(&w, "The saga %q begins, kept by %s as its Herald. A book is a battle when %d players come, a raid from 3.", b.Name, b.Starter, b.Quorum)
	} else {
		fmt.Fprintf(&w, "The saga %q begins, kept by %s as its Herald. A book is a battle when %d players come; with fewer it is practice, which the Herald does not record.", b.Name, b.Starter, b.Quorum)
	}
	if len(b.Heroes) > 0 {
		how := "every Hero starts again at 100 honor (5.2)"
		if b.Carried {
			how = "every Hero keeps his honor and rank (13.3)"
		}
		fmt.Fprintf(&w, " It follows the saga %q, and %s.", b.After, how)
	}
	return w.String()
}

func (BookJoined) Text() string    { return "" }
func (ClanMustered) Text() string  { return "" }
func (HeroTookField) Text() string { return "" }
func (Followed) Text() string      { return "" }
func (DeedDone) Text() string      { return "" }

func (b BookBegun) Text() string {
	if b.Mode == Practice {
		return fmt.Sprintf("Book %d begins with %d players, too few for a raid: it is practice, and the Herald records none of it (4).", b.Book, len(b.Present))
	}
	return fmt.Sprintf("Book %d begins as a %s: %d players present against a quorum of %d (4). The Herald records its honor in the %s column.", b.Book, b.Mode, len(b.Present), b.Quorum, b.Mode.ColumnName())
}

func (b HeroEnrolled) Text() string {
	if b.Unnamed {
		return fmt.Sprintf("%s takes the fallen Hero's place at the head of the %s and enters the saga with no honor of his own (4.1); his player may name him with /hero name.", b.Name, b.Clan)
	}
	return fmt.Sprintf("%s of the %s (%s) enters the saga.", b.Name, b.Clan, b.Player)
}

func (b HeroRenamed) Text() string {
	return fmt.Sprintf("The saga will remember %s, new Hero of his clan, as %s.", b.Was, b.Name)
}

func (b HeroFell) Text() string {
	return fmt.Sprintf("%s of the %s fell in book %d and goes down to Tartarus with %d honor. He leaves the saga.", b.Name, b.Clan, b.Book, b.Points)
}

func (b Entered) Text() string {
	switch b.Cause {
	case Adjusted:
		return fmt.Sprintf("The Herald corrects the ledger: %s %+d honor (%s).", b.Name, b.Points, b.Reason)
	case Absence:
		return fmt.Sprintf("%s %+d honor for %s.", b.Name, b.Points, b.Reason)
	case TakenBack:
		return fmt.Sprintf("The step was taken back, and with it %s %+d honor.", b.Name, b.Points)
	}
	return ""
}

func (b RankChanged) Text() string {
	return rankAnnouncement(b)
}

func (b BookClosed) Text() string {
	var w strings.Builder
	fmt.Fprintf(&w, "Book %d is closed: it ended %s.", b.Book, b.Result)
	if b.Started && b.Mode == Practice {
		w.WriteString(" It was practice and changes no standing.")
	}
	if b.Session > 0 {
		if len(b.Absent) == 0 {
			fmt.Fprintf(&w, " Every player of the saga came to the session of %s.", b.When)
		} else {
			fmt.Fprintf(&w, " Absent from the session of %s: %s.", b.When, joinPlayers(b.Absent))
		}
	}
	if len(b.Chronic) > 0 {
		fmt.Fprintf(&w, " The Herald names %s as chronically absent (5.4).", joinPlayers(b.Chronic))
	}
	return w.String()
}

func (b SessionScheduled) Text() string {
	return fmt.Sprintf("The Herald calls the next session of the saga: %s. Answer with /saga attend; whoever fails to show pays for it in honor (4).", b.When)
}

func (b Attended) Text() string {
	if b.Coming {
		return fmt.Sprintf("%s will come to the session of %s.", b.Player, b.When)
	}
	return fmt.Sprintf("%s sends regrets for the session of %s.", b.Player, b.When)
}

func (b SagaEnded) Text() string {
	if b.Hero != 0 {
		return fmt.Sprintf("The saga is over: %s has reached Homeric rank (5.2). His name is retired for ever; a new saga may begin with /saga start.", b.Name)
	}
	return fmt.Sprintf("The Herald closes the saga: %s. A new one may begin with /saga start.", b.Why)
}

func joinPlayers(ps []engine.PlayerID) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}
