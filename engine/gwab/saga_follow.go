package gwab

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Following a book. After every step of a book that belongs to the saga,
// the saga reads the step's events and records what they did: the clans
// raised, the kind of book once it starts, every honor change of a
// recorded book as a ledger line, the deeds on each Hero's record, the
// Heroes who fall and those who take their place, and at the end the
// session the book closes. A rank change is announced by the step that
// caused it; a Hero reaching Homeric rank ends the saga there (5.2).

// Follow records what the book's events did.
func (SagaRules) Follow(tx *engine.Tx, ref string, events []engine.Event) error {
	s := tx.State().(*Saga)
	f := &follower{tx: tx, s: s, ref: ref, n: s.bookNumber(ref)}
	if f.n > 0 {
		f.step = s.Books[f.n-1].StepSeen
	}
	for _, e := range events {
		if s.Over() {
			break
		}
		if f.n > 0 && e.Seq <= s.Books[f.n-1].Followed {
			continue
		}
		if _, ok := e.Body.(SagaJoined); ok && f.n == 0 {
			if err := tx.Emit(BookJoined{Ref: ref}); err != nil {
				return err
			}
			f.n = s.bookNumber(ref)
		}
		if f.n == 0 {
			continue
		}
		before := f.step
		if e.Step {
			f.step = e.Seq
		}
		f.last = e.Seq
		if err := f.event(e, before); err != nil {
			return err
		}
	}
	if f.n == 0 || f.last == 0 {
		return nil
	}
	// Steps that change nothing in the saga (most of a book) are marked
	// followed only now and then: following them again changes nothing
	// either, and the saga's log stays short.
	if tx.Emitted() == 0 && f.last-s.Books[f.n-1].Followed < followedEvery {
		return nil
	}
	return tx.Emit(Followed{Book: f.n, Seq: f.last, Step: f.step})
}

// followedEvery is how many book events may pass, changing nothing in the
// saga, before the saga marks them followed.
const followedEvery = 32

type follower struct {
	tx  *engine.Tx
	s   *Saga
	ref string
	n   int // the book's number in the saga
	// step is the first event of the book step being read; last the last
	// event read.
	step, last engine.Seq
}

func (f *follower) book() *SagaBook { return &f.s.Books[f.n-1] }

// figure returns the saga Hero an element of the book is, or 0.
func (f *follower) figure(id ElementID) HeroID { return f.book().Figures[id] }

func (f *follower) event(e engine.Event, before engine.Seq) error {
	bk := f.book()
	switch b := e.Body.(type) {
	case ClanRaised:
		return f.tx.Emit(ClanMustered{Book: f.n, Clan: BookClan{
			Tag: b.Clan.Tag, Clan: b.Clan.Name, Player: b.Clan.Player, Figure: b.Clan.Hero, Hero: b.Elements[0].Name}})
	case BookStarted:
		return f.begin(b)
	case BookEnded:
		return f.close(b.Reason)
	case engine.SeatHanded:
		return f.handed(b)
	}
	if !bk.Recorded() {
		return nil
	}
	switch b := e.Body.(type) {
	case HonorChanged:
		return f.honor(b)
	case Wounded:
		return f.wounded(b)
	case HeroSucceeded:
		return f.succeeded(b)
	case HeroNamed:
		if id := f.figure(b.Element); id != 0 {
			return f.tx.Emit(HeroRenamed{Hero: id, Was: f.s.hero(id).Name, Name: b.Name})
		}
	case ChallengeIssued:
		if id := f.figure(b.Challenger); id != 0 {
			return f.tx.Emit(DeedDone{Done: Done{Hero: id, Deed: ChallengesIssue, N: 1}, Book: f.n, Step: f.step, Against: f.figure(b.Challenged)})
		}
	case ChallengeAnswered:
		return f.answered(b)
	case engine.Undone:
		return f.takeBack(before, e.Seq)
	}
	return nil
}

// begin classifies the book and enrolls its clans' Heroes (4, 7.4).
func (f *follower) begin(b BookStarted) error {
	bk := f.book()
	present := bk.Present()
	if err := f.tx.Emit(BookBegun{Book: f.n, Mode: b.Mode, Present: present, Quorum: f.s.Quorum}); err != nil {
		return err
	}
	if b.Mode == Practice {
		return nil
	}
	for _, cl := range bk.Clans {
		if id := f.s.leader(cl.Player, cl.Clan); id != 0 {
			if err := f.tx.Emit(HeroTookField{Hero: id, Book: f.n, Figure: cl.Figure}); err != nil {
				return err
			}
			continue
		}
		id := HeroID(len(f.s.Heroes) + 1)
		if err := f.tx.Emit(HeroEnrolled{Hero: id, Name: cl.Hero, Clan: cl.Clan, Player: cl.Player, Book: f.n, Figure: cl.Figure}); err != nil {
			return err
		}
		if err := f.enter(Line{Hero: id, Points: firstHeroHonor, Cause: Enrolling, Reason: "entering the saga as a Class 2 Hero (4.3)", Book: f.n}, 0); err != nil {
			return err
		}
	}
	return nil
}

// honor writes a book's honor change in the ledger.
func (f *follower) honor(b HonorChanged) error {
	id := f.figure(b.Hero)
	if id == 0 {
		return nil
	}
	if err := f.enter(Line{Hero: id, Points: b.Points, Cause: b.Cause, Reason: b.Reason, Book: f.n, Round: b.Round, Column: b.Column}, f.step); err != nil {
		return err
	}
	switch {
	case b.Cause == Armor:
		return f.deed(id, ArmorWon, 1)
	case b.Captured:
		return f.deed(id, ChariotsTaken, 1)
	}
	return nil
}

func (f *follower) deed(id HeroID, d Deed, n int) error {
	if f.s.Over() {
		return nil
	}
	return f.tx.Emit(DeedDone{Done: Done{Hero: id, Deed: d, N: n}, Book: f.n, Step: f.step})
}

// enter writes a line, never taking a Hero below zero (4.3), and
// announces the rank it changes; Homeric rank ends the saga (5.2).
func (f *follower) enter(l Line, step engine.Seq) error {
	if f.s.Over() {
		return nil
	}
	h := f.s.hero(l.Hero)
	was := f.s.Points(l.Hero)
	l.Points = max(was+l.Points, 0) - was
	if l.Points == 0 && l.Cause != Enrolling {
		return nil
	}
	if err := f.tx.Emit(Entered{Line: l, Name: h.Name, Step: step}); err != nil {
		return err
	}
	return announceRank(f.tx, f.s, l.Hero, was, l.Cause)
}

// announceRank announces a Hero's change of rank, and ends the saga when
// he has reached Homeric rank.
func announceRank(tx *engine.Tx, s *Saga, id HeroID, was int, cause Cause) error {
	h, now := s.hero(id), s.Points(id)
	from, to := classFor(was), classFor(now)
	if from == to || cause == Enrolling || cause == Carried {
		return nil
	}
	if err := tx.Emit(RankChanged{Hero: id, Name: h.Name, From: from, To: to, Total: now}); err != nil {
		return err
	}
	if to < 5 {
		return nil
	}
	return tx.Emit(SagaEnded{Hero: id, Name: h.Name, Why: h.Name + " reached Homeric rank"})
}

// wounded counts wounds and kills, and sends a fallen Hero to Tartarus.
func (f *follower) wounded(b Wounded) error {
	victim := f.figure(b.Element)
	if victim != 0 && !b.Weakened { // a Hero weakened took no new wound
		if err := f.deed(victim, WoundsTaken, 1); err != nil {
			return err
		}
	}
	if !b.Falls() {
		return nil
	}
	if by := f.figure(b.By); by != 0 {
		if err := f.deed(by, Kills, 1); err != nil {
			return err
		}
	}
	if victim == 0 || f.s.Over() || !f.s.hero(victim).Alive() {
		return nil
	}
	h := f.s.hero(victim)
	return f.tx.Emit(HeroFell{Hero: victim, Name: h.Name, Clan: h.Clan, Book: f.n, Points: f.s.Points(victim)})
}

// succeeded enrolls the Companion who takes a fallen Hero's place: a new
// Hero of the saga, starting from nothing (4.1, 4.3).
func (f *follower) succeeded(b HeroSucceeded) error {
	i := slices.IndexFunc(f.book().Clans, func(c BookClan) bool { return c.Tag == b.Clan })
	if i < 0 || f.s.Over() {
		return nil
	}
	cl := f.book().Clans[i]
	id := HeroID(len(f.s.Heroes) + 1)
	return f.tx.Emit(HeroEnrolled{Hero: id, Name: b.Name, Clan: cl.Clan, Player: cl.Player, Unnamed: true, Book: f.n, Figure: b.Heir})
}

// answered counts a challenge fought or refused (10.2).
func (f *follower) answered(b ChallengeAnswered) error {
	pair := f.book().Challenge
	if pair[0] == 0 {
		return nil
	}
	if !b.Accept {
		if pair[1] == 0 {
			return nil
		}
		return f.deed(pair[1], ChallengesShun, 1)
	}
	for _, id := range pair {
		if id != 0 {
			if err := f.deed(id, ChallengesFight, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// takeBack undoes in the saga what the book step just taken back did:
// its lines are answered by opposite lines, its deeds uncounted.
func (f *follower) takeBack(undone, now engine.Seq) error {
	bk := f.book()
	if bk.Step != undone || undone == 0 {
		return nil
	}
	lines, deeds, handed := slices.Clone(bk.StepLines), slices.Clone(bk.StepDeeds), slices.Clone(bk.StepHanded)
	if err := f.handBack(handed, now); err != nil {
		return err
	}
	for _, i := range lines {
		l := f.s.Ledger[i]
		back := Line{Hero: l.Hero, Points: -l.Points, Cause: TakenBack, Reason: "the step that gave it was taken back: " + l.Reason, Book: l.Book, Round: l.Round, Column: l.Column}
		if err := f.enter(back, now); err != nil {
			return err
		}
	}
	for _, d := range deeds {
		if err := f.tx.Emit(DeedDone{Done: Done{Hero: d.Hero, Deed: d.Deed, N: -d.N}, Book: f.n, Step: now}); err != nil {
			return err
		}
	}
	return nil
}

// close ends the book in the saga: the session it closes, the players
// who failed to show at it and their penalty (4, 5.4), and the standings
// as they now are (5.5).
func (f *follower) close(result string) error {
	bk := f.book()
	ev := BookClosed{Book: f.n, Result: result, Mode: bk.Mode, Started: bk.Started}
	if i, ses := f.s.openSession(); ses != nil && bk.Started {
		ev.Session, ev.When = i, ses.When
		present := bk.Present()
		for _, p := range f.s.participants() {
			if !slices.Contains(present, p) {
				ev.Absent = append(ev.Absent, p)
			}
		}
		ev.Chronic = f.s.chronic(ev.Absent)
	}
	if err := f.tx.Emit(ev); err != nil {
		return err
	}
	if bk.Recorded() {
		for _, p := range ev.Absent {
			for i, h := range f.s.Heroes {
				if h.Player != p || !h.Alive() || h.Homeric {
					continue
				}
				l := Line{Hero: HeroID(i + 1), Points: absentPoints[bk.Mode.column()], Cause: Absence,
					Reason: "failing to show at the session of " + ev.When + " (4, 5.4)", Book: f.n, Column: bk.Mode.ColumnName()}
				if err := f.enter(l, 0); err != nil {
					return err
				}
			}
		}
	}
	if bk.Recorded() {
		f.tx.Say(engine.Message{Text: f.s.standings(f.n)})
	}
	return nil
}

// chronicWindow and chronicAbsences name the chronically absent: those
// who missed at least chronicAbsences of the last chronicWindow sessions,
// this one included (5.4).
const chronicWindow, chronicAbsences = 3, 2

func (s *Saga) chronic(absentNow []engine.PlayerID) []engine.PlayerID {
	var closed []Session
	for _, ses := range s.Sessions {
		if !ses.Open() {
			closed = append(closed, ses)
		}
	}
	recent := closed[max(len(closed)-(chronicWindow-1), 0):]
	var out []engine.PlayerID
	for _, p := range absentNow {
		n := 1
		for _, ses := range recent {
			if slices.Contains(ses.Absent, p) {
				n++
			}
		}
		if n >= chronicAbsences {
			out = append(out, p)
		}
	}
	return out
}
