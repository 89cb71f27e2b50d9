package gwab

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rhapsode/rhapsode/engine"
)

// dealRound deals each clan still on the field a sequence card and orders
// the round by them, highest first (6.1).
func dealRound(tx *engine.Tx) error {
	s := tx.State().(*State)
	ev := RoundDealt{Round: s.Round + 1}
	for _, cl := range s.Clans {
		if cl.Gone {
			continue
		}
		tx.Ask(cl.Player, cl.Name)
		card, err := tx.Draw(SequenceDeck)
		if err != nil {
			return err
		}
		ev.Order = append(ev.Order, Dealt{Clan: cl.Tag, Card: card})
	}
	slices.SortFunc(ev.Order, func(a, b Dealt) int { return cardOrder.Compare(b.Card, a.Card) })
	for _, d := range ev.Order {
		ev.Names = append(ev.Names, s.Clan(d.Clan).Name)
	}
	return tx.Emit(ev)
}

// discardRound returns the round's sequence cards to the discards.
func discardRound(tx *engine.Tx, s *State) {
	for _, d := range s.Order {
		tx.Discard(SequenceDeck, d.Card)
	}
}

// actingElement returns the clan whose turn it is, if the actor leads it,
// and the element the command's option name names, which must be one of
// that clan's.
func actingElement(s *State, c engine.Command, name string) (*Clan, *Element, error) {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return nil, nil, err
	}
	el, err := s.findElement(c.Opt(name))
	if err != nil {
		return nil, nil, err
	}
	if el.Clan != cl.Tag {
		return nil, nil, s.notTheirs(el, cl)
	}
	return cl, el, nil
}

// notTheirs refuses el for not being of the clan whose turn it is.
func (s *State) notTheirs(el *Element, cl *Clan) error {
	return engine.Refuse("6.1", "%s belongs to the %s, not to the %s whose turn it is.", el.Label(), s.Clan(el.Clan).Name, cl.Name)
}

// actingClan returns the clan whose turn it is, if the actor leads it.
func actingClan(s *State, actor engine.PlayerID) (*Clan, error) {
	switch s.Phase {
	case Gathering:
		return nil, engine.Refuse("6.1", "The book has not started yet; the game master starts it with /book start.")
	case Ended:
		return nil, engine.Refuse("6.2", "This book has ended.")
	}
	if err := s.inChallenge(); err != nil {
		return nil, err
	}
	if cl := s.awaitingSuccessor(); cl != nil {
		return nil, engine.Refuse("10.1.3", "The book waits for %s to name %s new Hero with /successor companion:.", cl.Player, engine.Possessive("the "+cl.Name))
	}
	if s.Fight != nil && s.Fight.Impact != nil {
		v := s.Element(s.Fight.Impact.Victor)
		return nil, engine.Refuse("10.1.3", "The melee waits for %s to spend %s impact with /impact.", s.Clan(v.Clan).Player, possessive(s.Clan(v.Clan).Name))
	}
	cur := s.Current()
	if cur == nil {
		return nil, engine.Refuse("6.1", "No clan is due to act.")
	}
	if cur.Player != actor {
		return nil, engine.Refuse("6.1", "It is %s turn (%s), not yours.", possessive(cur.Name), cur.Player)
	}
	return cur, nil
}

func standAloof(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	if err := tx.Emit(StoodAloof{Clan: cl.Tag, Name: cl.Name}); err != nil {
		return err
	}
	return afterAction(tx)
}

// afterAction runs what follows a clan's action: when every clan has
// acted, the round's melee (6.1 step 5); then the end of the book if one
// of section 6.2's conditions holds; then whose turn it is.
func afterAction(tx *engine.Tx) error {
	s := tx.State().(*State)
	if ended, err := checkEnd(tx, s); ended || err != nil {
		return err
	}
	if s.Current() != nil {
		sayNext(tx, s)
		return nil
	}
	started, err := startMelee(tx, s)
	if err != nil {
		return err
	}
	if !started {
		return finishRound(tx, s)
	}
	return afterFightStep(tx)
}

// afterFightStep resolves the melee as far as it goes without a player's
// choice, and finishes the round once it is over.
func afterFightStep(tx *engine.Tx) error {
	s := tx.State().(*State)
	if err := resolveFight(tx, s); err != nil {
		return err
	}
	if ended, err := checkEnd(tx, s); ended || err != nil {
		return err
	}
	if err := askSuccessors(tx, s); err != nil {
		return err
	}
	if s.Fight != nil {
		return nil // an impact waits to be spent
	}
	return finishRound(tx, s)
}

// finishRound ends the round and deals the next.
func finishRound(tx *engine.Tx, s *State) error {
	discardRound(tx, s)
	if err := tx.Emit(RoundEnded{Round: s.Round}); err != nil {
		return err
	}
	if err := dealRound(tx); err != nil {
		return err
	}
	if err := withdrawals(tx); err != nil { // 10.1.3: leaderless clans go
		return err
	}
	if err := runawayChariots(tx); err != nil { // 8.7: before any clan acts
		return err
	}
	sayNext(tx, s)
	return nil
}

func sayNext(tx *engine.Tx, s *State) {
	if cur := s.Current(); cur != nil {
		tx.Say(engine.Message{Text: fmt.Sprintf("Next: the %s (%s).", cur.Name, cur.Player)})
	}
}

// checkEnd ends the book when one of section 6.2's conditions holds.
func checkEnd(tx *engine.Tx, s *State) (bool, error) {
	if s.Phase != Playing {
		return s.Phase == Ended, nil
	}
	why := s.endCondition()
	if why == "" {
		return false, nil
	}
	discardRound(tx, s)
	if s.Fight != nil {
		for _, p := range s.Fight.Pairings {
			tx.Discard(CombatDeck, p.ACards...)
			tx.Discard(CombatDeck, p.BCards...)
		}
	}
	return true, tx.Emit(BookEnded{Reason: why})
}

// endCondition names the condition of section 6.2 that ends the book now,
// or returns "".
func (s *State) endCondition() string {
	if s.ChampionFell != "" {
		return fmt.Sprintf("with the death of %s, a Class 4 Hero, in combat (6.2.1)", s.ChampionFell)
	}
	// Only a Hero wins honor, and one who fell after winning it (even one
	// whose place a Companion has taken) still won it in this book.
	for i := range s.Elements {
		if el := &s.Elements[i]; el.Gained >= 100 {
			return fmt.Sprintf("as %s has won 100 honor in this book (6.2.2)", el.Name)
		}
	}
	if c := s.clanBeyondThreeQuarters(); c != nil {
		return fmt.Sprintf("as every surviving element of the %s has advanced beyond three quarters of the table (6.2.3)", c.Name)
	}
	var gone []string
	for _, c := range s.Clans {
		if c.Gone && !c.Retreated {
			gone = append(gone, c.Name)
		}
	}
	if len(gone) >= 2 {
		return fmt.Sprintf("as the Heroes and Companions of the %s and the %s have all fallen (6.2.4)", gone[0], gone[1])
	}
	if side, ok := s.sideLeftField(); ok && !s.prizeOnField() {
		return fmt.Sprintf("as no %s clan is left on the field, and nothing is left there to win (6.2)", side)
	}
	return ""
}

// sideLeftField reports a side none of whose clans is still in the
// fight: each has retreated, withdrawn or left the field. With no foe
// left, the book is over (6.2; RULINGS.md).
func (s *State) sideLeftField() (Side, bool) {
	for _, side := range []Side{Protagonist, Antagonist} {
		left := true
		for _, c := range s.Clans {
			if c.Side == side && !c.Gone {
				left = false
				break
			}
		}
		if left {
			return side, true
		}
	}
	return 0, false
}

// prizeOnField reports something on the field that the honor chart (4)
// still pays a Hero for: a fallen Hero whose armor is not yet taken
// (10.3), or an empty chariot of a clan that has left (8.2.2). While one
// lies there, a book whose foes have gone goes on, for the winners to
// take it.
func (s *State) prizeOnField() bool {
	for i := range s.Elements {
		el := &s.Elements[i]
		switch {
		case el.WasHero && el.Status == Fallen && !el.ArmorTaken:
			return true
		case el.Kind == Chariot && el.Status == Standing && el.Placed && !el.manned():
			if c := s.Clan(el.Clan); c != nil && c.Gone {
				return true
			}
		}
	}
	return false
}

// clanBeyondThreeQuarters returns the first clan still in the book whose
// standing elements are all more than three quarters of the way across
// the table from its own edge, or nil (6.2.3; RULINGS.md reads the text's
// "width" as the distance between the two sides' edges). It is asked
// after every step, so it looks at each element once.
func (s *State) clanBeyondThreeQuarters() *Clan {
	const (
		noneSeen = iota
		allBeyond
		notAll
	)
	var seen [16]uint8
	marks := seen[:0]
	if len(s.Clans) > len(seen) {
		marks = make([]uint8, 0, len(s.Clans))
	}
	marks = marks[:len(s.Clans)]
	line := s.Board.Depth * 3 / 4
	find := clanFinder{clans: s.Clans}
	for i := range s.Elements {
		el := &s.Elements[i]
		if el.Status != Standing || !el.Placed {
			continue
		}
		k := find.index(el.Clan)
		if k < 0 || marks[k] == notAll {
			continue
		}
		y := el.Base.Center.Y
		if s.Clans[k].Side == Antagonist {
			y = s.Board.Depth - y
		}
		if y <= line {
			marks[k] = notAll
		} else {
			marks[k] = allBeyond
		}
	}
	for k := range s.Clans {
		if c := &s.Clans[k]; !c.Gone && marks[k] == allBeyond {
			return c
		}
	}
	return nil
}

// findElement resolves what a player typed to an element: its short name
// or its given name, in any case. An unknown name is refused with the
// nearest names.
func (s *State) findElement(typed string) (*Element, error) {
	t := strings.TrimSpace(typed)
	for i := range s.Elements {
		e := &s.Elements[i]
		if strings.EqualFold(string(e.ID), t) || strings.EqualFold(e.Name, t) {
			return e, nil
		}
	}
	if utf8.RuneCountInString(t) > maxTyped {
		// Far longer than any name: no suggestion is near, and the
		// search would cost a long while.
		return nil, engine.Refuse("", "There is no element called %s; /status lists them.", quoteTyped(t))
	}
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	for _, e := range s.Elements {
		for _, n := range []string{string(e.ID), e.Name} {
			if d := editDistance(strings.ToLower(n), strings.ToLower(t)); d <= max(2, len(t)/3) {
				cands = append(cands, cand{n, d})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	var names []string
	for _, c := range cands {
		if len(names) < 3 && !slices.Contains(names, c.name) {
			names = append(names, c.name)
		}
	}
	if len(names) == 0 {
		return nil, engine.Refuse("", "There is no element called %q; /status lists them.", typed)
	}
	return nil, engine.Refuse("", "There is no element called %q. Did you mean %s?", typed, strings.Join(names, ", "))
}

// maxTyped is the longest name findElement looks for near matches of;
// names are far shorter.
const maxTyped = 64

// quoteTyped quotes what a player typed, at most a few dozen characters.
func quoteTyped(t string) string {
	const most = 24
	if utf8.RuneCountInString(t) <= most {
		return strconv.Quote(t)
	}
	return strconv.Quote(string([]rune(t)[:most])) + "…"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// turnCommands are a clan's turn: a move, or standing aloof.
var turnCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move one element of your clan (8).", Example: "/move element:ACH-W1 to:30,22 facing:N", Options: []engine.OptionSpec{
		{Name: "element", Help: "the element to move", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "where its front centre ends, as x,y in strides", Kind: engine.OptPoint},
		{Name: "toward", Help: "an element to move toward", Kind: engine.OptElement},
		{Name: "strides", Help: "how far to move toward it (default: as far as allowed)", Kind: engine.OptInt},
		{Name: "facing", Help: "the facing at the end: N, NE, E… or degrees"},
	}}, Run: move},
	{CommandSpec: engine.CommandSpec{Name: "aloof", Help: "Stand aloof: your clan passes this round (6.1)."}, Run: standAloof},
}

// infoCommands answer a player without changing the book.
var infoCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The round, whose turn it is, and every clan's elements.", Flags: engine.Private | engine.Reads},
		Run: func(tx *engine.Tx, s *State, c engine.Command) error {
			tx.Say(engine.Message{To: c.Actor, Text: status(s)})
			return nil
		}},
}
