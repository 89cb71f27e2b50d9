package btg

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The sequence of play: movement by the cards (§1.A), then fire (§2);
// when both sides have ended their fire, morale from fire, melee, morale
// from melee and the rally/rout phase run by themselves (§3, §5), the
// turn ends and the next one's first card is drawn.

// TurnBegan starts a turn: the turn's moves, shots and event effects are
// cleared, and units that went to the village come back (§6, Lost and
// Found).
type TurnBegan struct {
	Turn    int      `json:"turn"`
	Returns []string `json:"returns,omitempty"`
}

// CardDrawn is a movement card (§1.A). Idle says why nobody acts on it.
type CardDrawn struct {
	Card     engine.Card   `json:"card"`
	Side     Side          `json:"side"`
	Army     string        `json:"army"`
	Units    int           `json:"units,omitempty"`
	Leaders  bool          `json:"leaders,omitempty"`
	Event    bool          `json:"event,omitempty"`
	Category EventCategory `json:"category,omitempty"`
	Idle     string        `json:"idle,omitempty"`
	Drawn    int           `json:"drawn"` // this is the turn's n-th card
	Of       int           `json:"of"`
	// LeadersDone marks the sides with no lone leader to move.
	LeadersDone [2]bool `json:"leadersDone,omitempty"`
}

// CardEnded ends the card in play: its units moved, or its side passed.
type CardEnded struct {
	Side   Side   `json:"side"`
	Army   string `json:"army"`
	Passed int    `json:"passed,omitempty"` // moves left unused
}

// LeadersDone ends one side's leader movement on a black face card.
type LeadersDone struct {
	Side Side   `json:"side"`
	Army string `json:"army"`
}

// FireBegan starts the fire phase; a side with nothing that can shoot is
// done at once.
type FireBegan struct {
	Turn int     `json:"turn"`
	Done [2]bool `json:"done"`
	Why  [2]string
}

// FireDone ends one side's fire.
type FireDone struct {
	Side Side   `json:"side"`
	Army string `json:"army"`
}

// TurnEnded closes a turn, with the tally of each side's losses.
type TurnEnded struct {
	Turn  int       `json:"turn"`
	Tally [2]string `json:"tally"`
}

// BattleEnded ends the battle.
type BattleEnded struct {
	Result string `json:"result"`
}

func (TurnBegan) Kind() string   { return "btg.turn-began" }
func (CardDrawn) Kind() string   { return "btg.card-drawn" }
func (CardEnded) Kind() string   { return "btg.card-ended" }
func (LeadersDone) Kind() string { return "btg.leaders-done" }
func (FireBegan) Kind() string   { return "btg.fire-began" }
func (FireDone) Kind() string    { return "btg.fire-done" }
func (TurnEnded) Kind() string   { return "btg.turn-ended" }
func (BattleEnded) Kind() string { return "btg.battle-ended" }

var turnBodies = engine.BodyTypes{
	TurnBegan{}.Kind():   engine.Decoder[TurnBegan](),
	CardDrawn{}.Kind():   engine.Decoder[CardDrawn](),
	CardEnded{}.Kind():   engine.Decoder[CardEnded](),
	LeadersDone{}.Kind(): engine.Decoder[LeadersDone](),
	FireBegan{}.Kind():   engine.Decoder[FireBegan](),
	FireDone{}.Kind():    engine.Decoder[FireDone](),
	TurnEnded{}.Kind():   engine.Decoder[TurnEnded](),
	BattleEnded{}.Kind(): engine.Decoder[BattleEnded](),
}

func (b TurnBegan) Apply(s *State) error {
	s.Turn, s.Stage, s.Drawn, s.Card = b.Turn, Movement, 0, nil
	s.Alligators, s.Baptism = [2]bool{}, [2]*engine.Vec{}
	for i := range s.Units {
		u := &s.Units[i]
		u.Moves, u.Forced, u.Fired, u.Effects = 0, false, false, Effects{}
	}
	for i := range s.Leaders {
		s.Leaders[i].Moved = false
	}
	for _, id := range b.Returns {
		u, err := s.mustUnit(id)
		if err != nil {
			return err
		}
		// The unit comes back as slingers from the village (§6).
		u.Class, u.Weapon, u.Status, u.Lost, u.Return = LightInfantry, Sling, Steady, "", 0
		u.Ranks, u.Armor = 1, LightInfantry.DefaultArmor()
		w, d := u.Class.size(u.Figures, 1)
		b := engine.Base{Width: w, Depth: d, Facing: u.Side.forward()}.WithFrontCenter(u.ReturnAt)
		// Wholly on the table, at the edge where they went.
		b.Center.X = max(w/2, min(s.Options.Width-w/2, b.Center.X))
		b.Center.Y = max(d/2, min(s.Options.Depth-d/2, b.Center.Y))
		u.Base = b
	}
	return nil
}

func (b TurnBegan) Text() string {
	t := fmt.Sprintf("Turn %d begins: the movement phase.", b.Turn)
	if len(b.Returns) > 0 {
		t += fmt.Sprintf(" Back from the village as slingers (Lost and Found, §6): %s.", strings.Join(b.Returns, ", "))
	}
	return t
}

func (b CardDrawn) Apply(s *State) error {
	s.Drawn = b.Drawn
	if b.Idle != "" || b.Event {
		s.Card = nil
		return nil
	}
	s.Card = &Card{Card: b.Card, Side: b.Side, Units: b.Units, Leaders: b.Leaders, Done: b.LeadersDone}
	return nil
}

func (b CardDrawn) Text() string {
	head := fmt.Sprintf("Card %d of %d: the %s.", b.Drawn, b.Of, b.Card.Name())
	var t string
	switch {
	case b.Event:
		t = fmt.Sprintf("%s A red %s: a random event, %s (§6).", head, b.Card.Rank().Name(), b.Category)
	case b.Leaders:
		t = fmt.Sprintf("%s A black face: lone leaders move, and leaders may leave their units (/move, /attach, /detach, then /done).", head)
	default:
		t = fmt.Sprintf("%s The %s (%s) may move %s (§1.A).", head, b.Army, b.Side, plural(b.Units, "unit", "units"))
	}
	if b.Idle != "" {
		t += " " + b.Idle
	}
	return t
}

func (b CardEnded) Apply(s *State) error {
	s.Card = nil
	return nil
}

func (b CardEnded) Text() string {
	if b.Passed > 0 {
		return fmt.Sprintf("The %s pass the rest of the card (%s unused).", b.Army, plural(b.Passed, "move", "moves"))
	}
	return ""
}

func (b LeadersDone) Apply(s *State) error {
	if s.Card != nil {
		s.Card.Done[b.Side] = true
	}
	return nil
}

func (b LeadersDone) Text() string { return fmt.Sprintf("The leaders of the %s have moved.", b.Army) }

func (b FireBegan) Apply(s *State) error {
	s.Stage, s.Card = Fire, nil
	for i := range s.Units {
		s.Units[i].Volley = s.Units[i].Figures
	}
	for i := range s.Armies {
		s.Armies[i].Done = b.Done[i]
	}
	return nil
}

func (b FireBegan) Text() string {
	t := fmt.Sprintf("Turn %d: the fire phase (§2). Shoot with /fire unit: target:, then /done.", b.Turn)
	for _, w := range b.Why {
		if w != "" {
			t += " " + w
		}
	}
	return t
}

func (b FireDone) Apply(s *State) error {
	s.Armies[b.Side].Done = true
	return nil
}

func (b FireDone) Text() string { return fmt.Sprintf("The %s have finished firing.", b.Army) }

func (b TurnEnded) Apply(s *State) error { return nil }

func (b TurnEnded) Text() string {
	return fmt.Sprintf("End of turn %d. %s %s", b.Turn, b.Tally[0], b.Tally[1])
}

func (b BattleEnded) Apply(s *State) error {
	s.Stage, s.Result, s.Card, s.Await, s.Judge = Over, b.Result, nil, nil, nil
	return nil
}

func (b BattleEnded) Text() string { return "The battle is over: " + b.Result }

var turnCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "done", Help: "End your part of the step: deployment, the card's moves, leader movement, or your fire."}, Run: done},
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The turn, the phase, the card in play, what is awaited, and your army.", Flags: engine.Private | engine.Reads}, Run: func(tx *engine.Tx, s *State, c engine.Command) error {
		tx.Say(engine.Message{To: c.Actor, Text: status(s, c.Actor)})
		return nil
	}},
	{CommandSpec: engine.ConcedeSpec("Give up the battle."), Run: concede},
	{CommandSpec: engine.BookEndSpec("End the battle now and count the losses. Game master only.", "battle"), Run: endBook},
}

// pending refuses a command while the game waits on one player's answer.
func (s *State) pending() error {
	if s.Await != nil {
		t := s.Unit(s.Await.Target)
		return engine.Refuse("5.A", "%s is charged by %s; the game waits for its answer: /avoid or /stand.", t.Label(), s.Await.Charger)
	}
	if s.Judge != nil {
		return engine.Refuse("§6", "The game waits for the game master's decision on %s: %s", s.Judge.Event, s.Judge.Ask)
	}
	return nil
}

func done(tx *engine.Tx, s *State, c engine.Command) error {
	if err := s.pending(); err != nil {
		return err
	}
	switch s.Stage {
	case Mustering:
		return engine.Refuse("", "The armies are still being raised.")
	case Deploying:
		side, ok := s.sideOf(c.Actor, s.nextToDeploy())
		if !ok {
			return engine.Refuse("", "You lead no army in this battle.")
		}
		if s.Armies[side].Done {
			return engine.Refuse("", "The %s have already finished deploying.", s.Armies[side].Name)
		}
		if s.unplaced(side) {
			if err := placeAll(tx, s, side); err != nil {
				return err
			}
		}
		if err := tx.Emit(Deployed{Side: side, Army: s.Armies[side].Name}); err != nil {
			return err
		}
		if s.Armies[BlackSide].Done && s.Armies[RedSide].Done {
			return beginTurn(tx, s, 1)
		}
		return nil
	case Movement:
		card := s.Card
		if card == nil {
			return engine.Refuse("", "No card is in play.")
		}
		if card.Leaders {
			side, ok := s.sideOf(c.Actor, s.leadersNext())
			if !ok {
				return engine.Refuse("", "You lead no army in this battle.")
			}
			if card.Done[side] {
				return engine.Refuse("", "Your leaders have already moved on this card.")
			}
			if err := tx.Emit(LeadersDone{Side: side, Army: s.armyName(side)}); err != nil {
				return err
			}
			if s.Card.Done[BlackSide] && s.Card.Done[RedSide] {
				if err := tx.Emit(CardEnded{Side: card.Side, Army: s.armyName(card.Side)}); err != nil {
					return err
				}
				return drawNext(tx, s)
			}
			return nil
		}
		if err := s.mine(c.Actor, card.Side); err != nil {
			return err
		}
		if err := tx.Emit(CardEnded{Side: card.Side, Army: s.armyName(card.Side), Passed: card.Units}); err != nil {
			return err
		}
		return drawNext(tx, s)
	case Fire:
		side, ok := s.sideOf(c.Actor, s.fireNext())
		if !ok {
			return engine.Refuse("", "You lead no army in this battle.")
		}
		if s.Armies[side].Done {
			return engine.Refuse("", "The %s have already finished firing.", s.Armies[side].Name)
		}
		if err := tx.Emit(FireDone{Side: side, Army: s.Armies[side].Name}); err != nil {
			return err
		}
		if s.Armies[BlackSide].Done && s.Armies[RedSide].Done {
			return endTurn(tx, s)
		}
		return nil
	}
	return engine.Refuse("", "This battle has ended.")
}

// mine refuses c's actor unless he leads side.
func (s *State) mine(actor engine.PlayerID, side Side) error {
	if a := s.army(side); a != nil && a.Player == actor {
		return nil
	}
	return engine.Refuse("1.A", "The card in play is for the %s (%s); wait for a card of your colour.", s.armyName(side), side)
}

// leadersNext is the side a player leading both armies ends leader
// movement for: black first.
func (s *State) leadersNext() Side {
	if s.Card != nil && s.Card.Done[BlackSide] {
		return RedSide
	}
	return BlackSide
}

func (s *State) fireNext() Side {
	if s.Armies[BlackSide].Done {
		return RedSide
	}
	return BlackSide
}

// beginTurn starts turn n and draws its first card.
func beginTurn(tx *engine.Tx, s *State, n int) error {
	b := TurnBegan{Turn: n}
	for _, u := range s.Units {
		if u.Status == Gone && u.Return == n {
			b.Returns = append(b.Returns, u.ID)
		}
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	return drawNext(tx, s)
}

// drawNext draws movement cards until one needs a player: a card whose
// side has units that may move, a black face with lone leaders, or an
// event the game master must judge. After the turn's last card the fire
// phase begins.
func drawNext(tx *engine.Tx, s *State) error {
	for s.Stage == Movement && s.Card == nil && s.Await == nil && s.Judge == nil {
		if s.Drawn >= s.Options.Cards {
			return beginFire(tx, s)
		}
		card, err := tx.Draw(Deck)
		if err != nil {
			return err
		}
		tx.Discard(Deck, card)
		a := Activate(card)
		b := CardDrawn{Card: card, Side: a.Side, Army: s.armyName(a.Side), Units: a.Units, Leaders: a.Leaders, Event: a.Event, Category: a.Category, Drawn: s.Drawn + 1, Of: s.Options.Cards}
		switch {
		case a.Event:
		case a.Leaders:
			// Lone leaders move, and attached ones may leave their units.
			for side := BlackSide; side <= RedSide; side++ {
				b.LeadersDone[side] = len(s.leadersOnTable(side)) == 0
			}
			if b.LeadersDone[BlackSide] && b.LeadersDone[RedSide] {
				b.Idle = "No leader is on the table."
			}
		default:
			if len(s.movable(a.Side)) == 0 {
				b.Idle = fmt.Sprintf("None of %s units can move.", engine.Possessive("the "+b.Army))
			}
		}
		if err := tx.Emit(b); err != nil {
			return err
		}
		if a.Event {
			if err := randomEvent(tx, s, a.Category); err != nil {
				return err
			}
		}
	}
	return nil
}

// afterMove ends the card when its moves are spent or its side has
// nothing left that may move, and draws the next.
func afterMove(tx *engine.Tx, s *State) error {
	if s.Stage != Movement || s.Await != nil || s.Judge != nil {
		return nil
	}
	if c := s.Card; c != nil && !c.Leaders && len(s.cardMovers(c)) == 0 {
		if err := tx.Emit(CardEnded{Side: c.Side, Army: s.armyName(c.Side)}); err != nil {
			return err
		}
	}
	return drawNext(tx, s)
}

// movable lists side's units that may still move this turn.
func (s *State) movable(side Side) []*Unit {
	var out []*Unit
	for _, u := range s.inPlay(side) {
		if s.canMove(u) == nil {
			out = append(out, u)
		}
	}
	return out
}

// loneLeaders lists side's leaders on the table attached to no unit.
func (s *State) loneLeaders(side Side) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && l.Placed && !l.Gone && l.Unit == "" {
			out = append(out, l)
		}
	}
	return out
}

// leadersOnTable lists side's leaders on the table, lone or attached.
func (s *State) leadersOnTable(side Side) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && l.Placed && !l.Gone {
			out = append(out, l)
		}
	}
	return out
}

// beginFire starts the fire phase.
func beginFire(tx *engine.Tx, s *State) error {
	b := FireBegan{Turn: s.Turn}
	for side := BlackSide; side <= RedSide; side++ {
		if len(s.shooters(side)) == 0 {
			b.Done[side] = true
			b.Why[side] = fmt.Sprintf("The %s have nothing that can shoot.", s.armyName(side))
		}
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if b.Done[BlackSide] && b.Done[RedSide] {
		return endTurn(tx, s)
	}
	return nil
}

// endTurn runs the phases no player acts in: morale from fire, melee,
// morale from melee and the rally/rout phase; then the turn ends, the
// battle is judged, and the next turn begins.
func endTurn(tx *engine.Tx, s *State) error {
	for _, phase := range []func(*engine.Tx, *State) error{moraleFromFire, melee, moraleFromMelee, rallyRout} {
		if err := phase(tx, s); err != nil {
			return err
		}
	}
	b := TurnEnded{Turn: s.Turn}
	for side := BlackSide; side <= RedSide; side++ {
		lost, all := s.lost(side)
		b.Tally[side] = fmt.Sprintf("The %s have lost %d of %s (%.0f%% of their figures).", s.armyName(side), lost, plural(all, "unit", "units"), 100*s.figuresLost(side))
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if r := s.verdict(); r != "" {
		return tx.Emit(BattleEnded{Result: r})
	}
	return beginTurn(tx, s, s.Turn+1)
}

// verdict judges the battle at the end of a turn (RULINGS.md, btg,
// "victory"): an army that has lost half its units or more is beaten;
// after the last turn the side that lost the smaller share of its
// figures wins. "" while the battle goes on.
func (s *State) verdict() string {
	broken := [2]bool{}
	for side := BlackSide; side <= RedSide; side++ {
		lost, all := s.lost(side)
		broken[side] = all > 0 && 2*lost >= all
	}
	switch {
	case broken[BlackSide] && broken[RedSide]:
		return "both armies are broken, each having lost half its units or more: a bloody draw."
	case broken[BlackSide] || broken[RedSide]:
		loser := BlackSide
		if broken[RedSide] {
			loser = RedSide
		}
		return fmt.Sprintf("the %s have lost half their units or more and quit the field; the %s win.%s", s.armyName(loser), s.armyName(loser.Other()), s.captives())
	case s.Turn >= s.Options.Turns && s.Options.Turns == 1:
		return s.onPoints("the one agreed turn is played")
	case s.Turn >= s.Options.Turns:
		return s.onPoints(fmt.Sprintf("the %d agreed turns are played", s.Options.Turns))
	}
	return ""
}

// onPoints judges the battle by the share of figures each side lost.
func (s *State) onPoints(why string) string {
	b, r := s.figuresLost(BlackSide), s.figuresLost(RedSide)
	switch {
	case b < r:
		return fmt.Sprintf("%s; the %s lost %.0f%% of their figures, the %s %.0f%%: the %s win.%s", why, s.armyName(BlackSide), 100*b, s.armyName(RedSide), 100*r, s.armyName(BlackSide), s.captives())
	case r < b:
		return fmt.Sprintf("%s; the %s lost %.0f%% of their figures, the %s %.0f%%: the %s win.%s", why, s.armyName(RedSide), 100*r, s.armyName(BlackSide), 100*b, s.armyName(RedSide), s.captives())
	}
	return fmt.Sprintf("%s; both sides lost %.0f%% of their figures: a draw.%s", why, 100*b, s.captives())
}

// captives names the units taken prisoner, which count as a point each
// in some scenarios (§3), and the lone leaders taken with no unit to
// ride to (RULINGS.md, btg, "Leaders").
func (s *State) captives() string {
	var out []string
	for side := BlackSide; side <= RedSide; side++ {
		var taken []string
		n := 0
		for _, u := range s.Units {
			if u.Side == side.Other() && u.Lost == Captured {
				n++
			}
		}
		if n > 0 {
			taken = append(taken, plural(n, "unit", "units"))
		}
		for _, l := range s.Leaders {
			if l.Side == side.Other() && l.Captured {
				taken = append(taken, l.Label())
			}
		}
		if len(taken) > 0 {
			out = append(out, fmt.Sprintf("the %s took %s prisoner", s.armyName(side), engine.JoinAnd(taken)))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " Captives (§3): " + strings.Join(out, "; ") + "."
}

func concede(tx *engine.Tx, s *State, c engine.Command) error {
	side, ok := s.sideOf(c.Actor, BlackSide)
	if !ok || len(s.Armies) < 2 {
		return engine.NotConceding()
	}
	return tx.Emit(BattleEnded{Result: fmt.Sprintf("the %s concede; the %s win.", s.armyName(side), s.armyName(side.Other()))})
}

func endBook(tx *engine.Tx, s *State, c engine.Command) error {
	why := engine.EndReason(c, "the game master ends the battle")
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
		fmt.Fprintf(&b, "Turn %d of %d, %s phase; card %d of %d drawn.", s.Turn, s.Options.Turns, s.Stage, s.Drawn, s.Options.Cards)
		if c := s.Card; c != nil {
			if c.Leaders {
				fmt.Fprintf(&b, " The %s: lone leaders move.", c.Card.Name())
			} else {
				fmt.Fprintf(&b, " The %s: the %s may move %s.", c.Card.Name(), s.armyName(c.Side), s.cardLeft(c))
			}
		}
	}
	if err := s.pending(); err != nil {
		b.WriteString(" " + err.(*engine.Refusal).Text)
	}
	for side, a := range s.Armies {
		if a.Player != actor {
			continue
		}
		cv := s.civ(Side(side))
		fmt.Fprintf(&b, "\nYour army, the %s (%s, %s: %s):", a.Name, Side(side), cv.Name, cv.Attribute)
		for _, u := range s.Units {
			if u.Side != Side(side) {
				continue
			}
			// The armor that counts: its own, its civilization's and an
			// event's (2.J, §8a, §6).
			fmt.Fprintf(&b, "\n- %s, %s morale, armor %d", u.Label(), u.Morale, s.armor(&u, false))
			if m := s.armor(&u, true); m != s.armor(&u, false) {
				fmt.Fprintf(&b, " (%d against missiles)", m)
			}
			switch {
			case u.Status == Gone:
				fmt.Fprintf(&b, ", %s", u.Lost)
			case !u.Placed:
				b.WriteString(", not placed")
			default:
				fmt.Fprintf(&b, ", front centre %s facing %s", u.Base.FrontCenter(), u.Base.Facing)
				if u.Class.Siege() {
					fmt.Fprintf(&b, ", %d DV", u.DV)
				} else {
					fmt.Fprintf(&b, ", %s deep", plural(u.Ranks, "rank", "ranks"))
				}
				if u.Status == Routed {
					b.WriteString(", ROUTED")
				}
				if u.Status == Rampaging {
					b.WriteString(", RAMPAGING")
				}
				if en := s.touching(&u); len(en) > 0 {
					fmt.Fprintf(&b, ", in melee with %s", strings.Join(sortedIDs(en), ", "))
				}
				if l := s.leaderOf(&u); l != nil {
					fmt.Fprintf(&b, ", led by %s", l.ID)
				}
				if u.moved() {
					b.WriteString(", has moved")
				}
				if u.Fired {
					b.WriteString(", has fired")
				}
			}
		}
		for _, l := range s.Leaders {
			if l.Side != Side(side) {
				continue
			}
			fmt.Fprintf(&b, "\n- %s, %d of 2 hits", l.Label(), l.Hits)
			switch {
			case l.Captured:
				b.WriteString(", taken prisoner")
			case l.Gone:
				b.WriteString(", gone")
			case l.Unit != "":
				fmt.Fprintf(&b, ", with %s", l.Unit)
			case l.Placed:
				fmt.Fprintf(&b, ", alone at %s", l.At)
			}
		}
	}
	return b.String()
}

// unplaced reports whether side has a unit or leader not yet on the table.
func (s *State) unplaced(side Side) bool {
	for _, u := range s.Units {
		if u.Side == side && !u.Placed && u.Status != Gone {
			return true
		}
	}
	for _, l := range s.Leaders {
		if l.Side == side && !l.Placed && !l.Gone {
			return true
		}
	}
	return false
}
