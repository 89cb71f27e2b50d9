package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// A clan handed over. When a book's game master hands a clan to another
// member (engine.SeatHanded), the saga records that the clan now follows
// him: its Hero keeps his honor, his record and his clan, and from then
// on it is the new player who raises the clan and leads the Hero in the
// saga's books.

// ClanHandedOver records that a clan of a book of the saga changed hands.
type ClanHandedOver struct {
	Book int             `json:"book"`
	Tag  ClanTag         `json:"tag"`
	Clan string          `json:"clan"`
	Hero HeroID          `json:"hero,omitempty"` // the saga Hero who leads it, if any
	Name string          `json:"name,omitempty"`
	From engine.PlayerID `json:"from"`
	To   engine.PlayerID `json:"to"`
	// Step is the book step that handed it, so that taking the step back
	// hands the clan back.
	Step engine.Seq `json:"step,omitempty"`
}

func (ClanHandedOver) Kind() string { return "saga.clan-handed-over" }

func (b ClanHandedOver) Apply(s *Saga) error {
	if b.Book < 1 || b.Book > len(s.Books) {
		return fmt.Errorf("gwab: the saga has no book %d", b.Book)
	}
	bk, err := s.mark(b.Book, b.Step)
	if err != nil {
		return err
	}
	if bk != nil {
		bk.StepHanded = append(bk.StepHanded, b)
	} else {
		bk = &s.Books[b.Book-1]
	}
	for i := range bk.Clans {
		if bk.Clans[i].Tag == b.Tag {
			bk.Clans[i].Player = b.To
		}
	}
	if b.Hero != 0 {
		h, err := s.mustHero(b.Hero)
		if err != nil {
			return err
		}
		h.Player = b.To
	}
	return nil
}

func (b ClanHandedOver) Text() string {
	if b.Hero == 0 {
		return ""
	}
	return fmt.Sprintf("The Herald notes that the %s now follow %s: %s keeps his honor and his record with the clan.", b.Clan, b.To, b.Name)
}

// handed follows a seat handed over in the book.
func (f *follower) handed(b engine.SeatHanded) error {
	bk := f.book()
	for _, cl := range bk.Clans {
		if string(cl.Tag) != b.Seat {
			continue
		}
		ev := ClanHandedOver{Book: f.n, Tag: cl.Tag, Clan: cl.Clan, From: b.From, To: b.To, Step: f.step}
		if id := f.figure(cl.Figure); id != 0 {
			ev.Hero, ev.Name = id, f.s.hero(id).Name
		} else if id := f.s.leader(b.From, cl.Clan); id != 0 {
			ev.Hero, ev.Name = id, f.s.hero(id).Name
		}
		return f.tx.Emit(ev)
	}
	return nil
}

// handBack hands back the clans handed by a book step taken back.
func (f *follower) handBack(handed []ClanHandedOver, now engine.Seq) error {
	for _, h := range handed {
		h.From, h.To, h.Step = h.To, h.From, now
		if err := f.tx.Emit(h); err != nil {
			return err
		}
	}
	return nil
}
