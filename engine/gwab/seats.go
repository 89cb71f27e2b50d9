package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// Seats: each clan is a seat its player holds, which the game master may
// hand to another member (engine.HandSeatSpec). The clan keeps its
// elements, its Hero and its honor; only who leads it changes, and a saga
// that follows the book records the clan's new player (saga_follow.go).

var _ engine.Seater = (*State)(nil)

// Seats lists the clans still on the field and who leads each.
func (s *State) Seats() []engine.Seat {
	var out []engine.Seat
	for _, c := range s.Clans {
		if !c.Gone {
			out = append(out, engine.Seat{ID: string(c.Tag), Name: "the " + c.Name, Player: c.Player})
		}
	}
	return out
}

// HandSeat gives the clan tagged id to player to.
func (s *State) HandSeat(id string, to engine.PlayerID) error {
	c := s.Clan(ClanTag(id))
	if c == nil {
		return fmt.Errorf("gwab: no clan tagged %q", id)
	}
	c.Player = to
	return nil
}
