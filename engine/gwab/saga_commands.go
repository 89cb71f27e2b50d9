package gwab

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The saga's commands: the Herald's (start, schedule, adjust, end), the
// players' answer to a call, and the record anyone may read.

type sagaCommand = engine.Rule[*Saga]

// Quorums a saga may set: a raid needs 3 players, and a book holds at
// most maxClans clans, two a player.
const minQuorum, maxQuorum = 3, maxClans / 2

var sagaCommands = []sagaCommand{
	{CommandSpec: engine.CommandSpec{Name: "saga start", Help: "Start this server's saga, which every book opened here then belongs to; you are its Herald (4, 5).", Flags: engine.Opens, Options: []engine.OptionSpec{
		{Name: "name", Help: "the saga's name", Required: true},
		{Name: "quorum", Help: "the players a book needs to be a battle, 3 to 8 (say 4)", Kind: engine.OptInt, Required: true},
		{Name: "herald", Help: "the channel where the Herald announces", Kind: engine.OptChannel},
		{Name: "role", Help: "a role whose members may also act as Herald (5.1)", Kind: engine.OptRole},
		{Name: "carry", Help: "yes to carry the last saga's honor over (13.3); no to start all at 100 (5.2)", Choices: []string{"yes", "no"}},
	}}, Run: sagaRunning},
	{CommandSpec: engine.CommandSpec{Name: "saga schedule", Help: "Call the next session; whoever fails to show pays for it (4, 5.4). Herald only.", Options: []engine.OptionSpec{
		{Name: "when", Help: "when and where the session meets", Required: true},
	}}, Run: scheduleSession},
	{CommandSpec: engine.CommandSpec{Name: "saga attend", Help: "Answer the Herald's call to the next session.", Options: []engine.OptionSpec{
		{Name: "reply", Help: "yes (the default) or no", Choices: []string{"yes", "no"}},
	}}, Run: attend},
	{CommandSpec: engine.CommandSpec{Name: "saga adjust", Help: "Correct a Hero's honor with a line of the ledger. Herald only.", Options: []engine.OptionSpec{
		{Name: "hero", Help: "the Hero", Kind: engine.OptHero, Required: true},
		{Name: "points", Help: "the points to add, or take away with a minus", Kind: engine.OptInt, Required: true},
		{Name: "reason", Help: "why, for the ledger", Required: true},
	}}, Run: adjust},
	{CommandSpec: engine.CommandSpec{Name: "saga standings", Help: "The saga's Heroes ranked by honor, with their class and title (5.5).", Flags: engine.Reads, Options: []engine.OptionSpec{
		earlierSaga,
	}}, Run: showStandings},
	{CommandSpec: engine.CommandSpec{Name: "saga hero", Help: "A Hero's whole record: books, deeds, and every line of his honor.", Flags: engine.Reads, Options: []engine.OptionSpec{
		{Name: "name", Help: "the Hero", Kind: engine.OptHero, Required: true},
		earlierSaga,
	}}, Run: showHero},
	{CommandSpec: engine.CommandSpec{Name: "saga books", Help: "The saga's books: their kind, who came, how they ended.", Flags: engine.Reads, Options: []engine.OptionSpec{
		earlierSaga,
	}}, Run: showBooks},
	{CommandSpec: engine.CommandSpec{Name: "saga end", Help: "Close the saga before any Hero reaches Homeric rank. Herald only.", Options: []engine.OptionSpec{
		{Name: "reason", Help: "why the saga closes"},
	}}, Run: endSaga},
}

// earlierSaga lets the commands that read a saga read an earlier one;
// the router finds it by the name given.
var earlierSaga = engine.OptionSpec{Name: "saga", Help: "an earlier saga of this server, by name (default: the current or last one)"}

// Begin starts a saga. A saga that follows another takes over its living
// Heroes, at 100 honor each (5.2) or with their standing when carry:yes
// (13.3); the names of Homeric Heroes stay retired.
func (SagaRules) Begin(tx *engine.Tx, c engine.Command, previous engine.State) error {
	name := strings.TrimSpace(c.Opt("name"))
	if name == "" {
		return engine.Refuse("", "A saga needs a name.")
	}
	quorum, err := c.Int("quorum", 0)
	if err != nil {
		return err
	}
	if quorum < minQuorum || quorum > maxQuorum {
		return engine.Refuse("4", "quorum: must be from %d to %d players: a raid already needs 3, and a book holds %d clans, two a player.", minQuorum, maxQuorum, maxClans)
	}
	ev := SagaStarted{Charter: Charter{Name: name, Starter: c.Actor, Quorum: quorum, Herald: c.Opt("herald"), Role: c.Opt("role"), Carried: c.Opt("carry") == "yes"}}
	prev, _ := previous.(*Saga)
	if prev == nil && ev.Carried {
		return engine.Refuse("13.3", "There is no earlier saga here to carry honor over from.")
	}
	if prev != nil {
		if !prev.Over() {
			return engine.Refuse("", "The saga %q is still running here; only one runs at a time.", prev.Name)
		}
		ev.After, ev.Retired = prev.Name, slices.Clone(prev.Retired)
		for i, h := range prev.Heroes {
			if !h.Alive() || h.Homeric {
				continue
			}
			id := HeroID(len(ev.Heroes) + 1)
			ev.Heroes = append(ev.Heroes, SagaHero{Name: h.Name, Clan: h.Clan, Player: h.Player, Unnamed: h.Unnamed})
			l := Line{Hero: id, Points: firstHeroHonor, Cause: Enrolling, Reason: "a new saga starts every Hero at 100 (5.2)"}
			if ev.Carried {
				l = Line{Hero: id, Points: prev.Points(HeroID(i + 1)), Cause: Carried, Reason: fmt.Sprintf("his standing in the saga %q (13.3)", prev.Name)}
			}
			ev.Lines = append(ev.Lines, l)
		}
	}
	return tx.Emit(ev)
}

// sagaRunning refuses /saga start where a saga already runs: the table
// begins a saga with that command only where none is running.
func sagaRunning(tx *engine.Tx, s *Saga, c engine.Command) error {
	return engine.Refuse("", "The saga %q is already running here; only one runs at a time.", s.Name)
}

// heraldOnly refuses a player who is not the saga's Herald, and any
// change to a saga that is over.
func heraldOnly(s *Saga, c engine.Command) error {
	if s.Over() {
		return engine.Refuse("5.2", "The saga %q is over; start a new one with /saga start.", s.Name)
	}
	if !s.isHerald(c) {
		return engine.Refuse("5.1", "Only the saga's Herald (%s, or a member of its Herald role) may do that.", s.Starter)
	}
	return nil
}

func scheduleSession(tx *engine.Tx, s *Saga, c engine.Command) error {
	if err := heraldOnly(s, c); err != nil {
		return err
	}
	return tx.Emit(SessionScheduled{When: strings.TrimSpace(c.Opt("when"))})
}

func attend(tx *engine.Tx, s *Saga, c engine.Command) error {
	if s.Over() {
		return engine.Refuse("5.2", "The saga %q is over.", s.Name)
	}
	_, ses := s.openSession()
	if ses == nil {
		return engine.Refuse("4", "The Herald has not called a session to answer; he does so with /saga schedule.")
	}
	return tx.Emit(Attended{Player: c.Actor, Coming: c.Opt("reply") != "no", When: ses.When})
}

func adjust(tx *engine.Tx, s *Saga, c engine.Command) error {
	if err := heraldOnly(s, c); err != nil {
		return err
	}
	id, err := s.findHero(c.Opt("hero"))
	if err != nil {
		return err
	}
	h := s.hero(id)
	if !h.Alive() {
		return engine.Refuse("", "%s is in Tartarus and out of the saga; his honor is closed.", h.Name)
	}
	pts, err := c.Int("points", 0)
	if err != nil {
		return err
	}
	was := s.Points(id)
	pts = max(was+pts, 0) - was
	if pts == 0 {
		return engine.Refuse("4.3", "That changes nothing: %s has %d honor, and honor never falls below zero.", h.Name, was)
	}
	if err := tx.Emit(Entered{Line: Line{Hero: id, Points: pts, Cause: Adjusted, Reason: strings.TrimSpace(c.Opt("reason"))}, Name: h.Name}); err != nil {
		return err
	}
	return announceRank(tx, s, id, was, Adjusted)
}

func endSaga(tx *engine.Tx, s *Saga, c engine.Command) error {
	if err := heraldOnly(s, c); err != nil {
		return err
	}
	why := strings.TrimSpace(c.Opt("reason"))
	if why == "" {
		why = "by the Herald's decision"
	}
	return tx.Emit(SagaEnded{Why: why})
}

func showStandings(tx *engine.Tx, s *Saga, c engine.Command) error {
	tx.Say(engine.Message{Text: s.standings(0)})
	return nil
}

// HeroStanding is a Hero's place in the saga (5.5): his rank among the
// living by honor (ties share it), or his fall.
type HeroStanding struct {
	Rank   int // among the living; 0 for the fallen
	Hero   HeroID
	Name   string
	Clan   string
	Player engine.PlayerID
	Honor  int
	Title  string // his class and title (4.5)
	FellIn int    // the book he fell in, 0 while he lives
}

// Standings ranks the living Heroes by honor, then lists those in
// Tartarus, as the Herald announces them.
func (s *Saga) Standings() []HeroStanding {
	var living, fallen []HeroStanding
	for i, h := range s.Heroes {
		id := HeroID(i + 1)
		pts := s.Points(id)
		st := HeroStanding{Hero: id, Name: h.Name, Clan: h.Clan, Player: h.Player, Honor: pts, Title: rankTitle(classFor(pts)), FellIn: h.FellIn}
		if h.Alive() {
			living = append(living, st)
		} else {
			fallen = append(fallen, st)
		}
	}
	slices.SortStableFunc(living, func(a, b HeroStanding) int {
		return cmp.Or(cmp.Compare(b.Honor, a.Honor), strings.Compare(a.Name, b.Name))
	})
	for i := range living {
		if i == 0 || living[i].Honor != living[i-1].Honor {
			living[i].Rank = i + 1
		} else {
			living[i].Rank = living[i-1].Rank
		}
	}
	return append(living, fallen...)
}

// RankTitle is the rank and title of a class (4.5).
func RankTitle(class int) string { return rankTitle(class) }

// DeedCount is how often a Hero did a kind of deed.
type DeedCount struct {
	Deed Deed
	N    int
}

// Deeds counts a Hero's deeds over the books the Herald recorded, in the
// order his record lists them.
func (s *Saga) Deeds(id HeroID) []DeedCount {
	h := s.hero(id)
	if h == nil {
		return nil
	}
	out := make([]DeedCount, len(deedOrder))
	for i, d := range deedOrder {
		out[i] = DeedCount{d, h.Deeds[d]}
	}
	return out
}

// standings lists the living Heroes by honor, then those in Tartarus.
// after, when set, is the book the standings follow.
func (s *Saga) standings(after int) string {
	var w strings.Builder
	fmt.Fprintf(&w, "Standings of the saga %q", s.Name)
	if after > 0 {
		fmt.Fprintf(&w, " after book %d", after)
	}
	if s.Over() {
		w.WriteString(" (over)")
	}
	w.WriteString(":")
	all := s.Standings()
	if len(all) == 0 {
		w.WriteString("\nNo Hero has entered it yet: Heroes enter when their first recorded book begins.")
		return w.String()
	}
	for _, st := range all {
		if st.FellIn == 0 {
			fmt.Fprintf(&w, "\n%d. %s of the %s (%s): %d honor, %s", st.Rank, st.Name, st.Clan, st.Player, st.Honor, st.Title)
		} else {
			fmt.Fprintf(&w, "\nIn Tartarus: %s of the %s (%s), fell in book %d with %d honor", st.Name, st.Clan, st.Player, st.FellIn, st.Honor)
		}
	}
	return w.String()
}

func showHero(tx *engine.Tx, s *Saga, c engine.Command) error {
	id, err := s.findHero(c.Opt("name"))
	if err != nil {
		return err
	}
	tx.Say(engine.Message{Text: s.record(id)})
	return nil
}

// record is a Hero's whole record.
func (s *Saga) record(id HeroID) string {
	h := s.hero(id)
	pts := s.Points(id)
	var w strings.Builder
	fmt.Fprintf(&w, "%s of the %s (%s): %d honor, %s.", h.Name, h.Clan, h.Player, pts, rankTitle(classFor(pts)))
	switch {
	case h.Homeric:
		w.WriteString(" He reached Homeric rank and his name is retired.")
	case !h.Alive():
		fmt.Fprintf(&w, " He fell in book %d and is in Tartarus.", h.FellIn)
	}
	if len(h.Books) > 0 {
		books := make([]string, len(h.Books))
		for i, b := range h.Books {
			books[i] = fmt.Sprint(b)
		}
		fmt.Fprintf(&w, "\nBooks: %s.", strings.Join(books, ", "))
	}
	var deeds []string
	for _, d := range deedOrder {
		deeds = append(deeds, fmt.Sprintf("%s %d", d, h.Deeds[d]))
	}
	fmt.Fprintf(&w, "\nDeeds: %s.", strings.Join(deeds, ", "))
	w.WriteString("\nLedger:")
	total := 0
	for _, l := range s.Ledger {
		if l.Hero != id {
			continue
		}
		total += l.Points
		where := "the Herald"
		switch {
		case l.Book > 0 && l.Round > 0:
			where = fmt.Sprintf("book %d, round %d", l.Book, l.Round)
		case l.Book > 0:
			where = fmt.Sprintf("book %d", l.Book)
		case l.Cause == Enrolling || l.Cause == Carried:
			where = "the saga's start"
		}
		col := ""
		if l.Column != "" {
			col = ", " + l.Column + " column"
		}
		fmt.Fprintf(&w, "\n  %s: %+d for %s (%s%s), %d", where, l.Points, l.Reason, l.Cause, col, total)
	}
	return w.String()
}

func showBooks(tx *engine.Tx, s *Saga, c engine.Command) error {
	var w strings.Builder
	fmt.Fprintf(&w, "Books of the saga %q:", s.Name)
	if len(s.Books) == 0 {
		w.WriteString("\nNone yet: every book opened on this server now belongs to it.")
	}
	for i, b := range s.Books {
		kind := "book still gathering"
		switch {
		case b.Started && b.Mode == Practice:
			kind = "practice book"
		case b.Started:
			kind = b.Mode.String()
		}
		fmt.Fprintf(&w, "\n%d. A %s", i+1, kind)
		if ps := b.Present(); len(ps) > 0 {
			fmt.Fprintf(&w, " with %s", joinPlayers(ps))
		}
		if b.Session > 0 {
			fmt.Fprintf(&w, ", the session of %s", s.Sessions[b.Session-1].When)
			if a := s.Sessions[b.Session-1].Absent; len(a) > 0 {
				fmt.Fprintf(&w, " (absent: %s)", joinPlayers(a))
			}
		}
		if b.Closed {
			fmt.Fprintf(&w, "; it ended %s.", b.Result)
		} else {
			w.WriteString("; still being played.")
		}
	}
	if _, ses := s.openSession(); ses != nil {
		var yes, no []engine.PlayerID
		for _, p := range slices.Sorted(maps.Keys(ses.Answers)) {
			if ses.Answers[p] {
				yes = append(yes, p)
			} else {
				no = append(no, p)
			}
		}
		fmt.Fprintf(&w, "\nNext session: %s. Coming: %s. Not coming: %s.", ses.When, orNobody(yes), orNobody(no))
	}
	tx.Say(engine.Message{Text: w.String()})
	return nil
}

func orNobody(ps []engine.PlayerID) string {
	if len(ps) == 0 {
		return "nobody yet"
	}
	return joinPlayers(ps)
}
