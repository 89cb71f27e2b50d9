package sgboh

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// Seats: each side's army is a seat its player holds, which the game
// master may hand to another member (engine.HandSeatSpec). Armies have no
// tags here, so a seat is named by its army's name.

var _ engine.Seater = (*State)(nil)

// Seats lists the armies and who plays each.
func (s *State) Seats() []engine.Seat {
	var out []engine.Seat
	for _, a := range s.Armies {
		if a.Player != "" {
			out = append(out, engine.Seat{ID: a.Name, Name: a.Name, Player: a.Player})
		}
	}
	return out
}

// HandSeat gives the army named id to player to.
func (s *State) HandSeat(id string, to engine.PlayerID) error {
	for i := range s.Armies {
		if s.Armies[i].Name == id {
			s.Armies[i].Player = to
			return nil
		}
	}
	return fmt.Errorf("sgboh: no army named %q", id)
}
