package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// The facts a book records. Each carries the names its narration needs,
// so that an old event reads the same whatever happened after it.

// BookOpened opens the book: who keeps it (its game master) and, when the
// opener chose one, its mode.
type BookOpened struct {
	Master  engine.PlayerID `json:"master"`
	Mode    Mode            `json:"mode"`
	ModeSet bool            `json:"mode_set,omitempty"`
	Options Options         `json:"options"`
	// Bots are the players the bot holds seats as (/book open
	// opponent:bot), each raising its two clans at once.
	Bots []engine.PlayerID `json:"bots,omitempty"`
}

// ClanRaised brings a clan and its elements to the book (2.3).
type ClanRaised struct {
	Clan     Clan      `json:"clan"`
	Elements []Element `json:"elements"`
}

// BookStarted ends the gathering: the mode is fixed, the table sized, and
// every clan deployed in its huddle (7).
type BookStarted struct {
	Mode       Mode        `json:"mode"`
	Board      Board       `json:"board"`
	Slots      []ClanSlot  `json:"slots"`
	Placements []Placement `json:"placements"`
}

// ClanSlot is a clan's place along its edge.
type ClanSlot struct {
	Clan ClanTag `json:"clan"`
	Slot int     `json:"slot"`
}

// Placement puts an element on the table.
type Placement struct {
	Element ElementID   `json:"element"`
	Base    engine.Base `json:"base"`
}

// Placed puts one element where a scenario wants it (#place).
type Placed struct {
	Placement
	Name string `json:"name"`
}

// RoundDealt starts a round: each clan's sequence card, highest first (6.1).
type RoundDealt struct {
	Round int      `json:"round"`
	Order []Dealt  `json:"order"`
	Names []string `json:"names"` // the clans' names, in Order's order
}

// RoundEnded closes a round; its sequence cards go to the discards.
type RoundEnded struct {
	Round int `json:"round"`
}

// StoodAloof is a clan passing its turn (6.1).
type StoodAloof struct {
	Clan ClanTag `json:"clan"`
	Name string  `json:"name"`
}

// Moved is an element's move (8).
type Moved struct {
	Clan    ClanTag     `json:"clan"`
	Element ElementID   `json:"element"`
	Label   string      `json:"label"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
	Strides float64     `json:"strides"`
	// Contacts names the antagonist elements the move ends touching,
	// whose melee is fought at the end of the round (5, 10).
	Contacts []string `json:"contacts,omitempty"`
}

// BookEnded closes the book (6.2).
type BookEnded struct {
	Reason string `json:"reason"`
}

func (BookOpened) Kind() string  { return "gwab.book-opened" }
func (ClanRaised) Kind() string  { return "gwab.clan-raised" }
func (BookStarted) Kind() string { return "gwab.book-started" }
func (Placed) Kind() string      { return "gwab.placed" }
func (RoundDealt) Kind() string  { return "gwab.round-dealt" }
func (RoundEnded) Kind() string  { return "gwab.round-ended" }
func (StoodAloof) Kind() string  { return "gwab.stood-aloof" }
func (Moved) Kind() string       { return "gwab.moved" }
func (BookEnded) Kind() string   { return "gwab.book-ended" }

var setupBodies = engine.BodyTypes{
	BookOpened{}.Kind():    engine.Decoder[BookOpened](),
	ClanRaised{}.Kind():    engine.Decoder[ClanRaised](),
	BookStarted{}.Kind():   engine.Decoder[BookStarted](),
	Placed{}.Kind():        engine.Decoder[Placed](),
	RoundDealt{}.Kind():    engine.Decoder[RoundDealt](),
	RoundEnded{}.Kind():    engine.Decoder[RoundEnded](),
	StoodAloof{}.Kind():    engine.Decoder[StoodAloof](),
	Moved{}.Kind():         engine.Decoder[Moved](),
	BookEnded{}.Kind():     engine.Decoder[BookEnded](),
	Wounded{}.Kind():       engine.Decoder[Wounded](),
	HeroSucceeded{}.Kind(): engine.Decoder[HeroSucceeded](),
	ClanLeft{}.Kind():      engine.Decoder[ClanLeft](),
	HonorChanged{}.Kind():  engine.Decoder[HonorChanged](),
}

// Apply folds one event into the book. An event that names a clan or
// element the book does not have is an error: the log is not this book's.
func (s *State) Apply(e engine.Event) error { return engine.Fold(s, e) }

func (b BookOpened) Apply(s *State) error {
	s.Master, s.Mode, s.ModeSet, s.Options, s.Bots = b.Master, b.Mode, b.ModeSet, b.Options, b.Bots
	return nil
}

func (b ClanRaised) Apply(s *State) error {
	s.Clans = append(s.Clans, b.Clan)
	s.Elements = append(s.Elements, b.Elements...)
	return nil
}

func (b BookStarted) Apply(s *State) error {
	s.Phase, s.Mode, s.Board = Playing, b.Mode, b.Board
	for _, cs := range b.Slots {
		c, err := s.mustClan(cs.Clan)
		if err != nil {
			return err
		}
		c.Slot = cs.Slot
	}
	for _, p := range b.Placements {
		if err := s.place(p); err != nil {
			return err
		}
	}
	return nil
}

func (b Placed) Apply(s *State) error { return s.place(b.Placement) }

func (b RoundDealt) Apply(s *State) error {
	for _, d := range b.Order {
		if _, err := s.mustClan(d.Clan); err != nil {
			return err
		}
	}
	s.Round, s.Order, s.Turn = b.Round, b.Order, 0
	return nil
}

func (b RoundEnded) Apply(s *State) error {
	s.Order, s.Turn = nil, 0
	for i := range s.Elements {
		s.Elements[i].Doubled = false
	}
	return nil
}

func (b StoodAloof) Apply(s *State) error { return s.acted(b.Clan) }

func (b Moved) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	el.Base, el.Doubled = b.To, false
	el.Looting, el.LootRound = "", 0
	if el.Carrying != "" {
		if body := s.Element(el.Carrying); body != nil {
			body.Base.Center = el.Base.Center
		}
	}
	return s.acted(b.Clan)
}

func (b BookEnded) Apply(s *State) error {
	s.Phase, s.Result = Ended, b.Reason
	return nil
}

func (s *State) place(p Placement) error {
	el, err := s.mustElement(p.Element)
	if err != nil {
		return err
	}
	el.Base, el.Placed = p.Base, true
	return nil
}

func (s *State) mustClan(t ClanTag) (*Clan, error) {
	if c := s.Clan(t); c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("gwab: no clan %q in this book", t)
}

func (s *State) mustElement(id ElementID) (*Element, error) {
	if el := s.Element(id); el != nil {
		return el, nil
	}
	return nil, fmt.Errorf("gwab: no element %q in this book", id)
}
