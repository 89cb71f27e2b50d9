package goliath

import "github.com/rhapsode/rhapsode/engine"

// Seats: each army is a seat its player holds, which the game master may
// hand to another member (engine.HandSeatSpec).

var _ engine.Seater = (*State)(nil)

// Seats lists the armies and who leads each.
func (s *State) Seats() []engine.Seat {
	out := make([]engine.Seat, len(s.Armies))
	for i, a := range s.Armies {
		out[i] = engine.Seat{ID: a.Tag, Name: a.Name, Player: a.Player}
	}
	return out
}

// HandSeat gives the army tagged id to player to.
func (s *State) HandSeat(id string, to engine.PlayerID) error {
	return engine.HandSeatIn(s.Seats(), id, to, func(i int, to engine.PlayerID) { s.Armies[i].Player = to })
}
