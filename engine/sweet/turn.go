package sweet

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The turn sequence: catapults, missiles, the attacker's movement,
// supports (attacker, then defender), melees; then the defender becomes
// the attacker (Turn Sequence 1 to 6). Each side ends its part of a stage
// with /done; a side with nothing to do in a stage is done at once.

// SideDone is a side finishing its part of the stage.
type SideDone struct {
	Side  Side   `json:"side"`
	Name  string `json:"name"`
	Stage Stage  `json:"stage"`
}

// FirstMoveRolled is the roll-off for the first move: a d6 each, again
// while they tie (the opening paragraph of the rules).
type FirstMoveRolled struct {
	Rolls    [][2]int  `json:"rolls"`
	Attacker Side      `json:"attacker"`
	Names    [2]string `json:"names"`
}

// TurnBegan starts a turn with its attacker.
type TurnBegan struct {
	Turn     int    `json:"turn"`
	Attacker Side   `json:"attacker"`
	Name     string `json:"name"`
}

// StageBegan starts a stage of the turn. Idle are the sides with nothing
// to do in it, done from the start.
type StageBegan struct {
	Stage Stage     `json:"stage"`
	Idle  [2]bool   `json:"idle"`
	Names [2]string `json:"names"`
	// Melees lists the contact squares, in the order charged, when the
	// melee stage begins.
	Melees []string `json:"melees,omitempty"`
	// Elephants lists, when the movement stage begins, the attacker's
	// elephants with an enemy within a move: each may roll to charge
	// before anything moves (Charging and Melee 6).
	Elephants []string `json:"elephants,omitempty"`
}

// GameEnded ends the game: a concession, a destroyed army, the agreed
// turns played, or the game master's word; with each side's points
// (Morale 4).
type GameEnded struct {
	// How says whether the points standing decided the game or a side
	// conceded it; Reason says why it ended, for the table.
	How    Ending `json:"how,omitempty"`
	Reason string `json:"reason"`
	Points [2]int `json:"points"`
	// Mustered is each side's points when the armies were raised; what
	// is neither standing nor mustered was lost.
	Mustered [2]int    `json:"mustered,omitempty"`
	Names    [2]string `json:"names"`
	Winner   Side      `json:"winner"` // Nobody for a draw
	// Unfought is a game ended before its first turn: no one wins.
	Unfought bool `json:"unfought,omitempty"`
}

// Ending is how a game was decided.
type Ending uint8

const (
	// Counted: the points standing decide (Morale 4), whatever ended
	// the game: the turns agreed, an army broken or driven from the
	// field, the game master's word.
	Counted Ending = iota
	// Conceded: a side gave up, and the other wins.
	Conceded
)

// UnmarshalJSON reads an ending, including those logged before how it
// was decided was a fact of its own, when only the reason ("with the
// Romans conceding") told a concession.
func (b *GameEnded) UnmarshalJSON(data []byte) error {
	type plain GameEnded
	if err := json.Unmarshal(data, (*plain)(b)); err != nil {
		return err
	}
	if b.How == Counted && strings.HasSuffix(b.Reason, " conceding") {
		b.How = Conceded
	}
	return nil
}

func (SideDone) Kind() string        { return "sweet.side-done" }
func (FirstMoveRolled) Kind() string { return "sweet.first-move" }
func (TurnBegan) Kind() string       { return "sweet.turn-began" }
func (StageBegan) Kind() string      { return "sweet.stage-began" }
func (GameEnded) Kind() string       { return "sweet.game-ended" }

var turnBodies = engine.BodyTypes{
	SideDone{}.Kind():        engine.Decoder[SideDone](),
	FirstMoveRolled{}.Kind(): engine.Decoder[FirstMoveRolled](),
	TurnBegan{}.Kind():       engine.Decoder[TurnBegan](),
	StageBegan{}.Kind():      engine.Decoder[StageBegan](),
	GameEnded{}.Kind():       engine.Decoder[GameEnded](),
}

func (b SideDone) Apply(s *State) error {
	a := s.army(b.Side)
	if a == nil {
		return fmt.Errorf("sweet: no army on side %d", b.Side)
	}
	a.Done = true
	if s.Stage == Supports && b.Side == s.Supporting && b.Side == s.Attacker {
		s.Supporting = b.Side.Other()
	}
	return nil
}

func (b FirstMoveRolled) Apply(s *State) error { s.Attacker = b.Attacker; return nil }

func (b TurnBegan) Apply(s *State) error {
	s.Turn, s.Attacker = b.Turn, b.Attacker
	s.Melees, s.Targets, s.Ordered = nil, nil, false
	for i := range s.Units {
		u := &s.Units[i]
		u.Moved, u.Charged, u.Balked, u.Fired, u.Manned, u.Rolled = false, false, false, false, false, false
	}
	return nil
}

func (b StageBegan) Apply(s *State) error {
	s.Stage = b.Stage
	for i := range s.Armies {
		s.Armies[i].Done = b.Idle[i]
	}
	switch b.Stage {
	case Catapults, Missiles:
		s.Targets = nil
		for i := range s.Units {
			u := &s.Units[i]
			u.FireStands = 0
			if u.OnBoard() {
				u.FireStands = u.Stands
			}
		}
	case Supports:
		for i := range s.Units {
			s.Units[i].SupportFacing = s.Units[i].Facing
		}
		s.Supporting = s.Attacker
		if b.Idle[s.Attacker] {
			s.Supporting = s.Attacker.Other()
		}
	}
	return nil
}

func (b GameEnded) Apply(s *State) error {
	s.Stage, s.Result, s.Winner = Over, b.Text(), b.Winner
	if b.Unfought {
		s.Winner = Nobody
	}
	return nil
}

var turnCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "done", Help: "End your part of this stage: deployment, shooting, movement or supports."}, Run: done},
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The turn, the stage, what is awaited, and your army.", Flags: engine.Private | engine.Reads}, Run: func(tx *engine.Tx, s *State, c engine.Command) error {
		tx.Say(engine.Message{To: c.Actor, Text: status(s, c.Actor)})
		return nil
	}},
	{CommandSpec: engine.ConcedeSpec("Give up the game (Morale 4)."), Run: concede},
	{CommandSpec: engine.BookEndSpec("End the game now and count the points (Morale 4). Game master only.", "game"), Run: endBook},
}

// actingSide returns the side the actor plays in the current stage.
func (s *State) actingSide(c engine.Command) (Side, error) {
	prefer := s.Attacker
	switch s.Stage {
	case Deploying:
		prefer = s.nextToDeploy()
	case Supports:
		prefer = s.Supporting
	case Catapults, Missiles:
		if len(s.Armies) == 2 && s.Armies[prefer].Done {
			prefer = prefer.Other()
		}
	}
	side, ok := s.sideOf(c.Actor, prefer)
	if !ok {
		return 0, engine.Refuse("", "You lead no army in this game.")
	}
	return side, nil
}

func done(tx *engine.Tx, s *State, c engine.Command) error {
	side, err := s.actingSide(c)
	if err != nil {
		return err
	}
	a := s.army(side)
	switch s.Stage {
	case Mustering:
		return engine.Refuse("", "The armies are still mustering: /army pick or /army build.")
	case Melees:
		return engine.Refuse("Melee Procedure", "In the melee stage each side chooses its deployment with /mdi.")
	case Deploying:
		for i := range s.Units {
			if u := &s.Units[i]; u.Side == side && !u.Placed && !u.Gone && !a.Done {
				// What is left is laid out as /place unit:all would.
				if err := placeAll(tx, s, side); err != nil {
					return err
				}
				break
			}
		}
	case Movement:
		if side != s.Attacker {
			return engine.Refuse("Turn Sequence 3", "The %s move this turn; the %s wait.", s.armyName(s.Attacker), a.Name)
		}
	case Supports:
		if side != s.Supporting {
			return engine.Refuse("Charging and Melee 2", "The %s declare their supports first.", s.armyName(s.Supporting))
		}
	}
	if a.Done {
		return engine.Refuse("", "The %s have already finished this stage; waiting for the %s.", a.Name, s.armyName(side.Other()))
	}
	if err := tx.Emit(SideDone{Side: side, Name: a.Name, Stage: s.Stage}); err != nil {
		return err
	}
	return advance(tx, s)
}

// advance moves the game on when the stage is complete.
func advance(tx *engine.Tx, s *State) error {
	for s.Stage != Over {
		switch s.Stage {
		case Deploying:
			if !s.Armies[South].Done || !s.Armies[North].Done {
				return nil
			}
			if err := rollFirstMove(tx, s); err != nil {
				return err
			}
			return beginTurn(tx, s, 1, s.Attacker)
		case Catapults, Missiles, Movement:
			if !s.Armies[South].Done || !s.Armies[North].Done {
				return nil
			}
			next := s.Stage + 1
			if s.Stage == Movement && len(s.Melees) == 0 {
				return endTurn(tx, s)
			}
			if err := beginStage(tx, s, next); err != nil {
				return err
			}
		case Supports:
			if !s.Armies[South].Done || !s.Armies[North].Done {
				return nil
			}
			if err := beginStage(tx, s, Melees); err != nil {
				return err
			}
		case Melees:
			for _, m := range s.Melees {
				if !m.Resolved {
					return nil
				}
			}
			return endTurn(tx, s)
		default:
			return nil
		}
	}
	return nil
}

func rollFirstMove(tx *engine.Tx, s *State) error {
	b := FirstMoveRolled{Names: [2]string{s.Armies[South].Name, s.Armies[North].Name}}
	for {
		var r [2]int
		for i, side := range [2]Side{South, North} {
			tx.Ask(s.Armies[side].Player, s.Armies[side].Name+" for the first move")
			r[i] = tx.Roll(engine.D6)
		}
		b.Rolls = append(b.Rolls, r)
		if r[0] != r[1] {
			b.Attacker = South
			if r[1] > r[0] {
				b.Attacker = North
			}
			return tx.Emit(b)
		}
	}
}

func beginTurn(tx *engine.Tx, s *State, turn int, attacker Side) error {
	if err := tx.Emit(TurnBegan{Turn: turn, Attacker: attacker, Name: s.armyName(attacker)}); err != nil {
		return err
	}
	return beginStage(tx, s, Catapults)
}

// beginStage starts stage; sides with nothing to do in it are done at
// once, and a stage where no side has anything to do passes.
func beginStage(tx *engine.Tx, s *State, stage Stage) error {
	b := StageBegan{Stage: stage, Names: [2]string{s.Armies[South].Name, s.Armies[North].Name}}
	for side := South; side <= North; side++ {
		b.Idle[side] = s.idle(side, stage)
	}
	if stage == Melees {
		for _, m := range s.Melees {
			if !m.Resolved {
				b.Melees = append(b.Melees, m.At.String())
			}
		}
	}
	if stage == Movement {
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side == s.Attacker && u.OnBoard() && u.Type.Elephant() && s.enemyWithin(u, float64(u.Type.spec().Move)) {
				b.Elephants = append(b.Elephants, string(u.ID))
			}
		}
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if stage == Movement {
		if err := moraleRetreats(tx, s); err != nil {
			return err
		}
		if err := checkEnd(tx, s); err != nil || s.Stage == Over {
			return err
		}
	}
	return advance(tx, s)
}

// idle reports whether side has nothing to do in stage.
func (s *State) idle(side Side, stage Stage) bool {
	switch stage {
	case Catapults:
		for i := range s.Units {
			if u := &s.Units[i]; u.Side == side && u.OnBoard() && u.Type.IsCatapult() && s.crew(u) != nil && s.hasTarget(u, false) {
				return false
			}
		}
		return true
	case Missiles:
		for i := range s.Units {
			if u := &s.Units[i]; u.Side == side && u.OnBoard() && !u.Type.IsCatapult() && u.Type.spec().Range > 0 && (!u.Manned || u.FireStands > 1) && s.hasTarget(u, true) {
				return false
			}
		}
		return true
	case Movement:
		return side != s.Attacker
	case Supports:
		for _, m := range s.Melees {
			for i := range s.Units {
				if u := &s.Units[i]; u.Side == side && s.canSupport(u, &m) == nil {
					return false
				}
			}
		}
		return true
	}
	return false
}

// hasTarget reports whether an enemy stands where u could shoot: within
// its range and 45 degrees of its facing (Catapult Fire 2 and 3, Missile
// Fire 1), and for missiles with no unit between (Missile Fire 2). A
// shooter with none has nothing to do in its fire stage.
func (s *State) hasTarget(u *Unit, missiles bool) bool {
	reach := u.Type.spec().Range
	// A unit that fought in the last turn's melees may still take its
	// free change of facing (Melee Procedure): any enemy in range may
	// come into its arc.
	turns := u.Fought > 0 && u.Fought == s.Turn-1
	for i := range s.Units {
		o := &s.Units[i]
		if !o.OnBoard() || o.Stands == 0 || o.Side != u.Side.Other() {
			continue
		}
		if !inRange(u.At, o.At, reach) || !turns && !engine.InArc(u.At, u.Facing, o.At, 45) {
			continue
		}
		if missiles && !engine.SquareLOS(u.At, o.At, func(q engine.Square) bool { return len(s.At(q)) > 0 }) {
			continue
		}
		return true
	}
	return false
}

// endTurn closes the turn: the game ends when the agreed turns are
// played, otherwise the defender becomes the attacker (Turn Sequence 6).
func endTurn(tx *engine.Tx, s *State) error {
	if err := checkEnd(tx, s); err != nil || s.Stage == Over {
		return err
	}
	if s.Turn >= s.Options.Turns {
		if s.Options.Turns == 1 {
			return endGame(tx, s, "after the one agreed turn")
		}
		return endGame(tx, s, fmt.Sprintf("after the %d agreed turns", s.Options.Turns))
	}
	return beginTurn(tx, s, s.Turn+1, s.Attacker.Other())
}

// checkEnd ends the game when an army has nothing left on the board.
func checkEnd(tx *engine.Tx, s *State) error {
	if s.Stage < Catapults || s.Stage == Over {
		return nil
	}
	for side := South; side <= North; side++ {
		if s.onTable(side) {
			continue
		}
		if s.destroyed(side) && !s.destroyed(side.Other()) {
			// Destroyed is an end of its own: the points are counted
			// only when the agreed turns are played (Morale 4).
			b := s.ending(fmt.Sprintf("with the %s destroyed", s.armyName(side)))
			b.Winner = side.Other()
			return tx.Emit(b)
		}
		return endGame(tx, s, fmt.Sprintf("with the %s driven from the field", s.armyName(side)))
	}
	return nil
}

// destroyed reports whether side has lost every unit but its catapults:
// none on the board and none set aside off it.
func (s *State) destroyed(side Side) bool {
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Gone && !u.Type.IsCatapult() {
			return false
		}
	}
	return true
}

// ending is the game's end for reason, with each side's points standing
// and mustered.
func (s *State) ending(reason string) GameEnded {
	b := GameEnded{Reason: reason, Names: [2]string{s.armyName(South), s.armyName(North)}, Winner: Nobody}
	b.Points = [2]int{s.standing(South), s.standing(North)}
	b.Mustered = [2]int{s.Armies[South].Points, s.Armies[North].Points}
	return b
}

// endGame counts the points still standing, those that retreated off the
// board included, and ends the game (Morale 4).
func endGame(tx *engine.Tx, s *State, reason string) error {
	b := s.ending(reason)
	switch {
	case b.Points[South] > b.Points[North]:
		b.Winner = South
	case b.Points[North] > b.Points[South]:
		b.Winner = North
	}
	return tx.Emit(b)
}

func concede(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage < Deploying {
		return engine.Refuse("", "There is no battle to concede yet.")
	}
	side, err := s.actingSide(c)
	if err != nil {
		return err
	}
	b := GameEnded{How: Conceded, Reason: fmt.Sprintf("with the %s conceding", s.armyName(side)), Names: [2]string{s.armyName(South), s.armyName(North)}, Winner: side.Other()}
	b.Points = [2]int{s.standing(South), s.standing(North)}
	b.Mustered = [2]int{s.Armies[South].Points, s.Armies[North].Points}
	return tx.Emit(b)
}

func endBook(tx *engine.Tx, s *State, c engine.Command) error {
	if c.Actor != s.Master && !c.Master {
		return engine.Refuse("", "Only the game master (%s) ends the game.", s.Master)
	}
	if s.Turn == 0 {
		return tx.Emit(GameEnded{Reason: "before the battle was joined", Winner: Nobody, Unfought: true})
	}
	reason := strings.TrimSpace(c.Opt("reason"))
	if reason == "" {
		reason = "by the game master's word"
	} else {
		reason = "by the game master's word: " + reason
	}
	return endGame(tx, s, reason)
}
