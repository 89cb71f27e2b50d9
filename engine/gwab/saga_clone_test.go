package gwab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// longSaga is a saga that has recorded books books, each with every
// field a book can hold set, and a hero and a ledger line per book.
func longSaga(books int) *Saga {
	s := &Saga{Charter: Charter{Name: "Wrath", Starter: "alice", Quorum: 3, Herald: "herald"}}
	for i := 1; i <= books; i++ {
		ref := fmt.Sprint(i)
		hero := HeroID(i)
		s.Heroes = append(s.Heroes, SagaHero{Name: "Hero " + ref, Clan: "Clan " + ref, Player: "alice",
			Books: []int{i}, Deeds: map[Deed]int{Kills: i}})
		s.Ledger = append(s.Ledger, Line{Hero: hero, Points: 2, Cause: Killing, Reason: "a kill", Book: i, Round: 1})
		s.Books = append(s.Books, SagaBook{Ref: ref, Mode: Raid, Started: true, Closed: i < books,
			Clans:   []BookClan{{Tag: "A", Clan: "Clan " + ref, Player: "alice", Figure: "e1", Hero: "Hero " + ref}},
			Figures: map[ElementID]HeroID{"e1": hero}, Followed: engine.Seq(40),
			StepLines: []int{i - 1}, StepDeeds: []Done{{Hero: hero, Deed: Kills, N: 1}}, Session: i})
		s.Sessions = append(s.Sessions, Session{When: "Friday", Answers: map[engine.PlayerID]bool{"alice": true},
			Book: i, Absent: []engine.PlayerID{"bob"}})
	}
	s.Retired = []string{"Old Nestor"}
	return s
}

// TestSagaCloneIsDeep: a clone reads as the saga it came from, and
// changing every list and table of the clone leaves the saga as it was.
func TestSagaCloneIsDeep(t *testing.T) {
	s := longSaga(3)
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clone().(*Saga)
	got, _ := json.Marshal(c)
	if !bytes.Equal(got, want) {
		t.Fatalf("clone reads\n%s\nwant\n%s", got, want)
	}
	c.Heroes[0].Books[0] = 99
	c.Heroes[0].Deeds[Kills] = 99
	c.Ledger[0].Points = 99
	c.Books[0].Clans[0].Hero = "Nobody"
	c.Books[0].Figures["e1"] = 99
	c.Books[0].StepLines[0] = 99
	c.Books[0].StepDeeds[0].N = 99
	c.Sessions[0].Answers["alice"] = false
	c.Sessions[0].Absent[0] = "carol"
	c.Retired[0] = "Nobody"
	after, _ := json.Marshal(s)
	if !bytes.Equal(after, want) {
		t.Fatalf("changing the clone changed the saga:\n%s\nwas\n%s", after, want)
	}
}

// BenchmarkSagaClone is the copy a saga makes of itself each time it
// follows a step of one of its books, with 1 and with 100 books recorded.
func BenchmarkSagaClone(b *testing.B) {
	for _, books := range []int{1, 100} {
		b.Run(fmt.Sprintf("books=%d", books), func(b *testing.B) {
			s := longSaga(books)
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Clone()
			}
		})
	}
}
