package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The turn sequence (Turn sequence). Method 1: at the start of a turn the
// routed try to rally, each side rolls a die and the high roll chooses to
// move first or second; the sides move in that order, then shoot in that
// order with hits taken off at once, then the bot resolves melee. Method
// 2: both sides write sealed orders, and when both are in they are
// revealed and carried out at once (orders.go). Fatigue is counted as
// each turn ends.

// TurnBegan starts a turn. Freed names units whose numbing (SA 7b) wore
// off.
type TurnBegan struct {
	Turn  int      `json:"turn"`
	Freed []string `json:"freed,omitempty"`
}

// InitiativeRolled is the roll for the first move (Method 1): each side's
// die, rolled again on a tie (RULINGS.md, goliath, "initiative").
type InitiativeRolled struct {
	Rolls  [][2]int `json:"rolls"`
	Winner Side     `json:"winner"`
	Army   string   `json:"army"`
}

// FirstChosen is the winner's choice.
type FirstChosen struct {
	Chooser Side   `json:"chooser"`
	First   Side   `json:"first"`
	Army    string `json:"army"` // the army that moves first
	Default bool   `json:"default,omitempty"`
}

// PhaseBegan hands a phase to a side (Method 1), or opens the orders
// (Method 2).
type PhaseBegan struct {
	Stage  Stage  `json:"stage"`
	Active Side   `json:"active"`
	Army   string `json:"army"`
	Turn   int    `json:"turn"`
}

// SideDone ends one side's part of the stage.
type SideDone struct {
	Side  Side   `json:"side"`
	Army  string `json:"army"`
	Stage Stage  `json:"stage"`
	Idle  bool   `json:"idle,omitempty"` // it had nothing to do
}

// TurnEnded closes a turn: fatigue is counted (Fatigue), heavy crossbows
// that kept still reload, and regenerating figures heal.
type TurnEnded struct {
	Turn     int      `json:"turn"`
	Tired    []string `json:"tired,omitempty"`
	Rested   []string `json:"rested,omitempty"`
	Reloaded []string `json:"reloaded,omitempty"`
	Healed   []string `json:"healed,omitempty"`
}

// BattleEnded ends the battle.
type BattleEnded struct {
	Result string `json:"result"`
}

func (TurnBegan) Kind() string        { return "goliath.turn-began" }
func (InitiativeRolled) Kind() string { return "goliath.initiative-rolled" }
func (FirstChosen) Kind() string      { return "goliath.first-chosen" }
func (PhaseBegan) Kind() string       { return "goliath.phase-began" }
func (SideDone) Kind() string         { return "goliath.side-done" }
func (TurnEnded) Kind() string        { return "goliath.turn-ended" }
func (BattleEnded) Kind() string      { return "goliath.battle-ended" }

var turnBodies = engine.BodyTypes{
	TurnBegan{}.Kind():        engine.Decoder[TurnBegan](),
	InitiativeRolled{}.Kind(): engine.Decoder[InitiativeRolled](),
	FirstChosen{}.Kind():      engine.Decoder[FirstChosen](),
	PhaseBegan{}.Kind():       engine.Decoder[PhaseBegan](),
	SideDone{}.Kind():         engine.Decoder[SideDone](),
	TurnEnded{}.Kind():        engine.Decoder[TurnEnded](),
	BattleEnded{}.Kind():      engine.Decoder[BattleEnded](),
}

func (b TurnBegan) Apply(s *State) error {
	s.Turn, s.Orders, s.Pending = b.Turn, nil, nil
	for i := range s.Armies {
		s.Armies[i].Done = false
	}
	for i := range s.Units {
		u := &s.Units[i]
		u.Moved, u.Charged, u.Shots, u.Fought, u.Cast, u.Paused, u.Flew, u.Shaken, u.Feared, u.Volley, u.Rallying = 0, false, 0, false, false, false, false, false, false, 0, false
		u.Afraid, u.GaveGround, u.Driven = false, false, 0
		u.TurnFigs = u.Figures
	}
	for _, id := range b.Freed {
		u, err := s.mustUnit(id)
		if err != nil {
			return err
		}
		u.wearOff()
	}
	s.Darkness = expire(s.Darkness, b.Turn)
	s.Lights = expire(s.Lights, b.Turn)
	return nil
}

// freeHeld returns to the fight the figures a freer's touch frees: those
// paralyzed by a ghoulish touch (SA 7a), not the numbed (SA 7b), whose
// numbing wears off by itself.
func (u *Unit) freeHeld() {
	u.Figures += u.Paralyzed - u.Numb
	u.Paralyzed = u.Numb
	u.TurnFigs = max(u.TurnFigs, u.Figures)
}

// wearOff ends a numbing touch (SA 7b) as a turn begins: the figures
// numbed a turn after the others stay held one turn more; those a
// ghoulish touch paralyzed (SA 7a) stay held.
func (u *Unit) wearOff() {
	n := u.Numb
	if u.Later > 0 && u.Later < u.Numb {
		n = u.Numb - u.Later
	}
	u.Figures += n
	u.Paralyzed -= n
	u.Numb -= n
	u.Later = 0
	u.Numbed++
	if u.Numb == 0 {
		u.Numbed = 0
	}
	u.TurnFigs = max(u.TurnFigs, u.Figures)
}

func expire(areas []Area, turn int) []Area {
	var out []Area
	for _, a := range areas {
		if a.Until >= turn {
			out = append(out, a)
		}
	}
	return out
}

func (b TurnBegan) Text() string {
	t := fmt.Sprintf("Turn %d begins.", b.Turn)
	if len(b.Freed) > 0 {
		t += fmt.Sprintf(" The numbing touch of two turns ago wears off (SA 7b): the figures it held in %s fight again.", strings.Join(b.Freed, ", "))
	}
	return t
}

func (b InitiativeRolled) Apply(s *State) error {
	s.Stage, s.Chooser = Initiative, b.Winner
	return nil
}

func (b InitiativeRolled) Text() string {
	var rolls []string
	for _, r := range b.Rolls {
		rolls = append(rolls, fmt.Sprintf("south %d, north %d", r[0], r[1]))
	}
	return fmt.Sprintf("Initiative: %s. %s choose whether to move first or second (/answer reply:first or reply:second).",
		strings.Join(rolls, "; tied, again: "), engine.Capital(b.Army))
}

func (b InitiativeRolled) Buttons() []engine.Button {
	return []engine.Button{
		{Label: "Move first", Command: engine.Command{Name: "answer", Options: map[string]string{"reply": "first"}}},
		{Label: "Move second", Command: engine.Command{Name: "answer", Options: map[string]string{"reply": "second"}}},
	}
}

func (b FirstChosen) Apply(s *State) error {
	s.First = b.First
	return nil
}

func (b FirstChosen) Text() string {
	how := "choose"
	if b.Default {
		how = "are taken, at the deadline, to choose"
	}
	order := "first"
	if b.First != b.Chooser {
		order = "second"
	}
	return fmt.Sprintf("The initiative's winners %s to move %s: %s move first.", how, order, b.Army)
}

func (b PhaseBegan) Apply(s *State) error {
	s.Stage, s.Active = b.Stage, b.Active
	if b.Stage == Orders {
		for i := range s.Armies {
			s.Armies[i].Done = false
		}
	}
	return nil
}

func (b PhaseBegan) Text() string {
	switch b.Stage {
	case Moving:
		return fmt.Sprintf("Turn %d, movement: %s move (/move, /charge, /face, /formation), then /done.", b.Turn, b.Army)
	case Missile:
		return fmt.Sprintf("Turn %d, missile fire: %s shoot and cast (/fire, /cast), then /done.", b.Turn, b.Army)
	case Orders:
		return fmt.Sprintf("Turn %d: both sides write their orders (/orders unit: order:), then /done. No one sees the other side's orders until both are in; a unit without orders holds.", b.Turn)
	}
	return ""
}

func (b SideDone) Apply(s *State) error {
	s.Armies[b.Side].Done = true
	return nil
}

func (b SideDone) Text() string {
	switch b.Stage {
	case Moving:
		return fmt.Sprintf("%s have finished moving.", engine.Capital(b.Army))
	case Missile:
		if b.Idle {
			return fmt.Sprintf("%s have nothing that can shoot or cast.", engine.Capital(b.Army))
		}
		return fmt.Sprintf("%s have finished shooting.", engine.Capital(b.Army))
	case Orders:
		return fmt.Sprintf("%s have written their orders.", engine.Capital(b.Army))
	case Deploying:
		return fmt.Sprintf("%s have finished their deployment.", engine.Capital(b.Army))
	}
	return ""
}

// fatigue counts a turn for a unit (Fatigue): a turn neither moving nor
// fighting is rest and clears it; otherwise it is a turn of melee if the
// unit fought, else of movement. Falling back and routing are movement,
// not rest. Three of melee, five of movement, or four of the two mixed,
// tire it until it rests (RULINGS.md, goliath, "fatigue").
func (u *Unit) fatigue() (tired, rested bool) {
	moved := u.Moved > 0 || u.Charged || u.GaveGround
	switch {
	case u.Fought:
		u.MeleeTurns++
	case moved:
		u.MoveTurns++
	default:
		u.MeleeTurns, u.MoveTurns = 0, 0
		rested = u.Tired
		u.Tired = false
		return false, rested
	}
	// Only a turn of rest clears fatigue: a unit already tired (by its
	// turns, or by the referee's ruling) stays so while it moves or fights.
	m, v := u.MeleeTurns, u.MoveTurns
	now := u.Tired || m >= 3 || v >= 5 || (m > 0 && v > 0 && m+v >= 4)
	tired = now && !u.Tired
	u.Tired = now
	return tired, false
}

func (b TurnEnded) Apply(s *State) error {
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() {
			continue
		}
		u.fatigue()
		if u.reloads(b.Turn) {
			u.Unloaded = false
		}
		if u.Profile.Has(Regenerate) && u.Damage > 0 {
			u.Damage--
		}
	}
	return nil
}

// reloads reports heavy crossbows that reload as the turn ends: they did
// not shoot, and moved no more than half the move they had this turn
// (Missile Fire, L124), the same half that spares them the roll-off;
// being driven back counts, as it does there.
func (u *Unit) reloads(turn int) bool {
	return u.Unloaded && u.Shots == 0 && !u.Charged && u.Moved+u.Driven <= u.Allowance(turn, false)/2+1e-6
}

// endTurnNotes works out, on a copy, what TurnEnded will say.
func (s *State) endTurnNotes(b *TurnEnded) {
	for i := range s.Units {
		u := s.Units[i]
		if !u.In() {
			continue
		}
		tired, rested := u.fatigue()
		if tired {
			b.Tired = append(b.Tired, u.ID)
		}
		if rested {
			b.Rested = append(b.Rested, u.ID)
		}
		if s.Units[i].reloads(s.Turn) {
			b.Reloaded = append(b.Reloaded, u.ID)
		}
		if u.Profile.Has(Regenerate) && u.Damage > 0 {
			b.Healed = append(b.Healed, u.ID)
		}
	}
}

func (b TurnEnded) Text() string {
	t := fmt.Sprintf("End of turn %d.", b.Turn)
	if len(b.Tired) > 0 {
		t += fmt.Sprintf(" Tired, AR, DR and MR -1 until they rest a turn (Fatigue): %s.", strings.Join(b.Tired, ", "))
	}
	if len(b.Rested) > 0 {
		t += fmt.Sprintf(" Rested: %s.", strings.Join(b.Rested, ", "))
	}
	if len(b.Reloaded) > 0 {
		t += fmt.Sprintf(" Heavy crossbows reloaded: %s.", strings.Join(b.Reloaded, ", "))
	}
	if len(b.Healed) > 0 {
		t += fmt.Sprintf(" Regenerating a hit (SA 9): %s.", strings.Join(b.Healed, ", "))
	}
	return t
}

func (b BattleEnded) Apply(s *State) error {
	s.Stage, s.Result = Over, b.Result
	return nil
}

func (b BattleEnded) Text() string { return "The battle is over: " + b.Result }

var turnCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "done", Help: "End your part of the step: deployment, your moves, your fire, or your orders."}, Run: done},
	{CommandSpec: engine.CommandSpec{Name: "answer", Help: "Having won the initiative, choose to move first or second.", Options: []engine.OptionSpec{
		{Name: "reply", Help: "first or second", Required: true, Choices: []string{"first", "second"}},
	}}, Run: answer},
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The turn, the phase, what is awaited, and your army.", Flags: engine.Private | engine.Reads}, Run: func(tx *engine.Tx, s *State, c engine.Command) error {
		tx.Say(engine.Message{To: c.Actor, Text: status(s, c.Actor)})
		return nil
	}},
	{CommandSpec: engine.ConcedeSpec("Give up the battle."), Run: concede},
	{CommandSpec: engine.BookEndSpec("End the battle now and count the points lost. Referee only.", "battle"), Run: endBook},
}

func done(tx *engine.Tx, s *State, c engine.Command) error {
	switch s.Stage {
	case Mustering:
		return engine.Refuse("", "The armies are still being raised.")
	case Deploying:
		return deployDone(tx, s, c)
	case Initiative:
		return engine.Refuse("Turn sequence", "%s must first choose to move first or second (/answer).", engine.Capital(s.armyName(s.Chooser)))
	case Moving, Missile:
		side, ok := s.sideOf(c.Actor, s.Active)
		if !ok || side != s.Active {
			return engine.Refuse("Turn sequence", "It is %s %s; wait for their /done.", engine.Possessive(s.armyName(s.Active)), s.Stage)
		}
		if err := tx.Emit(SideDone{Side: side, Army: s.armyName(side), Stage: s.Stage}); err != nil {
			return err
		}
		return s.advance(tx)
	case Orders:
		return ordersDone(tx, s, c)
	case Referee:
		if c.Actor != s.Master && !c.Master {
			return engine.Refuse("Ten Things", "The referee is carrying out the orders the bot could not; the game goes on at his /done.")
		}
		return s.carryOut(tx)
	}
	return engine.Refuse("", "There is nothing to end.")
}

func deployDone(tx *engine.Tx, s *State, c engine.Command) error {
	next := South
	if s.Armies[South].Done {
		next = North
	}
	side, ok := s.sideOf(c.Actor, next)
	if !ok {
		return engine.Refuse("", "You lead no army in this battle.")
	}
	if s.Armies[side].Done {
		return engine.Refuse("", "%s have already deployed.", engine.Capital(s.Armies[side].Name))
	}
	var off []string
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Placed {
			off = append(off, u.ID)
		}
	}
	if len(off) > 0 {
		return engine.Refuse("", "Not yet on the table: %s. Place them (/place unit:all lays out the rest).", strings.Join(off, ", "))
	}
	if err := tx.Emit(Deployed{Side: side, Army: s.Armies[side].Name}); err != nil {
		return err
	}
	if s.Armies[South].Done && s.Armies[North].Done {
		return s.beginTurn(tx)
	}
	return nil
}

// beginTurn starts the next turn: the routed try to rally, then the
// initiative roll (Method 1) or the orders (Method 2).
func (s *State) beginTurn(tx *engine.Tx) error {
	b := TurnBegan{Turn: s.Turn + 1}
	for i := range s.Units {
		u := &s.Units[i]
		if u.In() && u.Numb > 0 && u.Numbed < b.Turn {
			b.Freed = append(b.Freed, u.ID)
		}
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if err := s.freeStanding(tx); err != nil {
		return err
	}
	if err := s.rally(tx); err != nil {
		return err
	}
	if over, err := s.verdict(tx, true); over || err != nil {
		return err
	}
	if s.Options.Method == WrittenOrders {
		return tx.Emit(PhaseBegan{Stage: Orders, Turn: s.Turn})
	}
	var ir InitiativeRolled
	for {
		r := [2]int{tx.Roll(engine.D6), tx.Roll(engine.D6)}
		ir.Rolls = append(ir.Rolls, r)
		if r[0] != r[1] {
			ir.Winner = South
			if r[1] > r[0] {
				ir.Winner = North
			}
			break
		}
		if len(ir.Rolls) > 50 {
			return fmt.Errorf("goliath: the initiative dice tie fifty times")
		}
	}
	ir.Army = s.armyName(ir.Winner)
	return tx.Emit(ir)
}

func answer(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Initiative {
		return engine.Refuse("Turn sequence", "There is no choice of first move to make now.")
	}
	side, ok := s.sideOf(c.Actor, s.Chooser)
	if !ok || side != s.Chooser {
		return engine.Refuse("Turn sequence", "%s won the initiative; the choice is theirs.", engine.Capital(s.armyName(s.Chooser)))
	}
	first := side
	if strings.EqualFold(c.Opt("reply"), "second") {
		first = side.Other()
	}
	if err := tx.Emit(FirstChosen{Chooser: side, First: first, Army: s.armyName(first)}); err != nil {
		return err
	}
	return tx.Emit(PhaseBegan{Stage: Moving, Active: first, Army: s.armyName(first), Turn: s.Turn})
}

// advance moves Method 1 on after a side's /done: the second side moves,
// then shooting in the same order, then melee and the end of the turn.
// A side with nothing that can shoot or cast passes its fire at once.
func (s *State) advance(tx *engine.Tx) error {
	for {
		switch {
		case s.Active == s.First:
			other := s.First.Other()
			if err := tx.Emit(PhaseBegan{Stage: s.Stage, Active: other, Army: s.armyName(other), Turn: s.Turn}); err != nil {
				return err
			}
		case s.Stage == Moving:
			if err := tx.Emit(PhaseBegan{Stage: Missile, Active: s.First, Army: s.armyName(s.First), Turn: s.Turn}); err != nil {
				return err
			}
		default:
			if err := s.meleePhase(tx, false); err != nil {
				return err
			}
			return s.endTurn(tx)
		}
		if s.Stage != Missile || s.sideCanShoot(s.Active) {
			return nil
		}
		if err := tx.Emit(SideDone{Side: s.Active, Army: s.armyName(s.Active), Stage: Missile, Idle: true}); err != nil {
			return err
		}
	}
}

// sideCanShoot reports whether a side has a unit that may shoot or cast.
func (s *State) sideCanShoot(side Side) bool {
	for _, u := range s.inPlay(side) {
		if !u.Able() || u.Figures == 0 || u.Rallying || s.engaged(u) {
			continue
		}
		if u.Profile.Shoots() && !u.Profile.Wizard {
			if n, _, _ := s.shotsAllowed(u); u.Shots < n {
				return true
			}
		}
		if (u.Profile.Wizard || u.Profile.Breath) && u.Spells < castLimit(&u.Profile) && !u.Cast {
			return true
		}
	}
	return false
}

// endTurn counts fatigue, looks for the end of the battle, and begins
// the next turn.
func (s *State) endTurn(tx *engine.Tx) error {
	if over, err := s.verdict(tx, false); over || err != nil {
		return err
	}
	b := TurnEnded{Turn: s.Turn}
	engine.Copy(s).endTurnNotes(&b)
	if err := tx.Emit(b); err != nil {
		return err
	}
	if s.Options.Turns > 0 && s.Turn >= s.Options.Turns {
		why := fmt.Sprintf("the agreed %d turns are over", s.Options.Turns)
		if s.Options.Turns == 1 {
			why = "the agreed one turn is over"
		}
		return tx.Emit(BattleEnded{Result: s.onPoints(why)})
	}
	return s.beginTurn(tx)
}

// verdict ends the battle when a side has no unit left on the table or,
// when the routed have had their chance to rally at the start of a turn
// (steady), none left in good order (RULINGS.md, goliath, "victory").
func (s *State) verdict(tx *engine.Tx, steady bool) (bool, error) {
	if s.Stage == Over || len(s.Armies) < 2 {
		return s.Stage == Over, nil
	}
	var broken [2]bool
	for side := South; side <= North; side++ {
		broken[side] = true
		for _, u := range s.inPlay(side) {
			if u.Status == Steady || !steady {
				broken[side] = false
			}
		}
	}
	what := "no unit left on the table"
	if steady {
		what = "no unit left in good order"
	}
	switch {
	case broken[South] && broken[North]:
		return true, tx.Emit(BattleEnded{Result: fmt.Sprintf("both armies have %s: a bloody draw.", what)})
	case broken[South] || broken[North]:
		loser := South
		if broken[North] {
			loser = North
		}
		return true, tx.Emit(BattleEnded{Result: fmt.Sprintf("%s have %s; %s win.", s.armyName(loser), what, s.armyName(loser.Other()))})
	}
	return false, nil
}

// onPoints ends the battle on the share of its points each side lost.
func (s *State) onPoints(why string) string {
	var share [2]float64
	var tally []string
	for side := South; side <= North; side++ {
		left, all := s.points(side)
		if all > 0 {
			share[side] = (all - left) / all
		}
		tally = append(tally, fmt.Sprintf("%s lost %s of %s points", s.armyName(side), engine.Decimal(all-left), engine.Decimal(all)))
	}
	t := why + ": " + strings.Join(tally, ", ") + "; "
	switch {
	case share[South] < share[North]-1e-9:
		return t + s.armyName(South) + " win."
	case share[North] < share[South]-1e-9:
		return t + s.armyName(North) + " win."
	}
	return t + "a draw."
}

func concede(tx *engine.Tx, s *State, c engine.Command) error {
	side, ok := s.sideOf(c.Actor, South)
	if !ok || len(s.Armies) < 2 {
		return engine.NotConceding()
	}
	return tx.Emit(BattleEnded{Result: fmt.Sprintf("%s concede; %s win.", s.armyName(side), s.armyName(side.Other()))})
}

func endBook(tx *engine.Tx, s *State, c engine.Command) error {
	why := engine.EndReason(c, "the referee ends the battle")
	if len(s.Armies) < 2 {
		return tx.Emit(BattleEnded{Result: why + ", before both armies took the field."})
	}
	return tx.Emit(BattleEnded{Result: s.onPoints(why)})
}

// status answers /status for actor.
func status(s *State, actor engine.PlayerID) string {
	var b strings.Builder
	switch s.Stage {
	case Mustering:
		fmt.Fprintf(&b, "The armies are being raised (%d of 2).", len(s.Armies))
	case Deploying:
		b.WriteString("Deployment.")
	case Over:
		b.WriteString("The battle is over: " + s.Result)
	default:
		turns := ""
		if s.Options.Turns > 0 {
			turns = fmt.Sprintf(" of %d", s.Options.Turns)
		}
		fmt.Fprintf(&b, "Turn %d%s, %s (%s).", s.Turn, turns, s.Stage, s.Options.Method)
	}
	for _, a := range awaited(s) {
		fmt.Fprintf(&b, " Waiting for %s to %s.", a.Player, a.Task)
	}
	for side, a := range s.Armies {
		if a.Player != actor {
			continue
		}
		fmt.Fprintf(&b, "\nYour army, %s (%s, %s points):", a.Name, Side(side), engine.Decimal(a.Points))
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side != Side(side) {
				continue
			}
			fmt.Fprintf(&b, "\n- %s", u.Label())
			switch {
			case u.Status == Gone:
				fmt.Fprintf(&b, ", %s", u.Lost)
				continue
			case !u.Placed:
				b.WriteString(", not placed")
				continue
			}
			fmt.Fprintf(&b, ", front centre %s facing %s, %d across", u.Base.FrontCenter(), u.Base.Facing, min(u.Frontage, u.Total()))
			if u.Status == Routed {
				b.WriteString(", ROUTED")
			}
			if u.Tired {
				b.WriteString(", tired")
			}
			if u.Damage > 0 {
				fmt.Fprintf(&b, ", a figure carries %s", plural(u.Damage, "hit", "hits"))
			}
			if s.Stage == Moving || s.Stage == Missile {
				if left := u.Allowance(s.Turn, false) - u.Moved; left > 0 && u.Moved > 0 {
					fmt.Fprintf(&b, ", %s of move left", inches(left))
				}
			}
			if u.Profile.Wizard || u.Profile.Breath {
				fmt.Fprintf(&b, ", %d of %d castings left", castLimit(&u.Profile)-u.Spells, castLimit(&u.Profile))
			}
			if u.Unloaded {
				b.WriteString(", reloading")
			}
			if o := s.order(u.ID); o != nil && s.Stage == Orders {
				fmt.Fprintf(&b, ", orders: %s", o.Text)
			}
		}
	}
	return b.String()
}
