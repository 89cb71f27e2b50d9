package btg

import (
	"fmt"
	"math"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Random events (§6): a red face card or red Ace names the category;
// cards are drawn until a 2 to 8 names the side (its colour) and the
// event (its number less one); dice pick the unit. Events that ask for
// judgement (a river point, the village, a rival) wait for the game
// master's /decide.

func (c EventCategory) String() string {
	return [...]string{"Mystical", "Character", "Animal", "Other"}[c]
}

// EventDrawn is a random event and the unit the dice gave it to.
type EventDrawn struct {
	Category EventCategory `json:"category"`
	Number   int           `json:"number"` // 1 to 7
	Name     string        `json:"name"`
	Side     Side          `json:"side"`
	Army     string        `json:"army"`
	Passed   []engine.Card `json:"passed,omitempty"` // cards passed over
	Card     engine.Card   `json:"card"`             // the card that named it
	Unit     string        `json:"unit,omitempty"`
	Label    string        `json:"label,omitempty"`
	Pick     []int         `json:"pick,omitempty"` // the d0-9 pair that chose the unit
	Of       int           `json:"of,omitempty"`   // among so many units
	Nothing  string        `json:"nothing,omitempty"`
	Judge    *Judgement    `json:"judge,omitempty"`
}

// Effected gives a unit an event's effect until the end of the turn.
type Effected struct {
	Unit    string  `json:"unit"`
	Label   string  `json:"label"`
	Effects Effects `json:"effects"`
	What    string  `json:"what"`
}

// Converted changes a unit's class or weapon (Lookee Here!, Stockpile).
type Converted struct {
	Unit   string `json:"unit"`
	Label  string `json:"label"`
	Class  Class  `json:"class"`
	Weapon Weapon `json:"weapon"`
	Ranks  int    `json:"ranks"`
	Base   engine.Base
	Roll   int    `json:"roll,omitempty"`
	What   string `json:"what"`
}

// UnitReturned brings a unit back to the table (Reinforcements).
type UnitReturned struct {
	Unit    string      `json:"unit"`
	Label   string      `json:"label"`
	Base    engine.Base `json:"base"`
	Figures int         `json:"figures"`
}

// LeaderLeft takes a leader off the table (Traitors!), or marks a unit
// gone to the village to come back (Lost and Found).
type LeaderLeft struct {
	Leader string `json:"leader,omitempty"`
	Unit   string `json:"unit,omitempty"`
	Label  string `json:"label,omitempty"`
	// Return is the turn the unit comes back, and ReturnAt where.
	Return   int        `json:"return,omitempty"`
	ReturnAt engine.Vec `json:"returnAt,omitzero"`
	// Captured is a lone leader taken prisoner by an enemy unit that ran
	// into him (move.go, overrun): the battle's end names him among the
	// captives (§3).
	Captured bool   `json:"captured,omitempty"`
	Why      string `json:"why"`
}

// LeaderDuel is Insubordination: a minor leader fights his general, one
// die each hitting on 1 to 4 (RULINGS.md, btg, "events").
type LeaderDuel struct {
	Minor   string `json:"minor"`
	General string `json:"general"`
	Rolls   [2]int `json:"rolls"`
}

// EventRuled is the game master's decision on an event that asked for
// judgement.
type EventRuled struct {
	By    engine.PlayerID `json:"by"`
	Event string          `json:"event"`
	Side  Side            `json:"side"`
	At    *engine.Vec     `json:"at,omitempty"`
	Unit  string          `json:"unit,omitempty"`
	Note  string          `json:"note,omitempty"`
}

func (EventDrawn) Kind() string   { return "btg.event-drawn" }
func (Effected) Kind() string     { return "btg.effected" }
func (Converted) Kind() string    { return "btg.converted" }
func (UnitReturned) Kind() string { return "btg.unit-returned" }
func (LeaderLeft) Kind() string   { return "btg.leader-left" }
func (LeaderDuel) Kind() string   { return "btg.leader-duel" }
func (EventRuled) Kind() string   { return "btg.event-ruled" }

var eventBodies = engine.BodyTypes{
	EventDrawn{}.Kind():   engine.Decoder[EventDrawn](),
	Effected{}.Kind():     engine.Decoder[Effected](),
	Converted{}.Kind():    engine.Decoder[Converted](),
	UnitReturned{}.Kind(): engine.Decoder[UnitReturned](),
	LeaderLeft{}.Kind():   engine.Decoder[LeaderLeft](),
	LeaderDuel{}.Kind():   engine.Decoder[LeaderDuel](),
	EventRuled{}.Kind():   engine.Decoder[EventRuled](),
}

func (b EventDrawn) Apply(s *State) error {
	if b.Name == "Alligators" && b.Nothing == "" {
		s.Alligators[b.Side] = true
	}
	if b.Judge != nil {
		j := *b.Judge
		s.Judge = &j
	}
	return nil
}

func (b EventDrawn) Text() string {
	var t strings.Builder
	if len(b.Passed) > 0 {
		var ps []string
		for _, c := range b.Passed {
			ps = append(ps, c.String())
		}
		fmt.Fprintf(&t, "Passed over: %s. ", strings.Join(ps, " "))
	}
	fmt.Fprintf(&t, "The %s names event %d for the %s (%s): %s — %s", b.Card.Name(), b.Number, b.Army, b.Side, b.Name, eventText[b.Category][b.Number-1])
	switch {
	case b.Unit != "" && len(b.Pick) == 2:
		fmt.Fprintf(&t, " The dice (%d%d) give it to %s.", b.Pick[0], b.Pick[1], b.Label)
	case b.Unit != "":
		fmt.Fprintf(&t, " It falls on %s.", b.Label)
	case len(b.Pick) == 2:
		fmt.Fprintf(&t, " The dice (%d%d) choose among %s.", b.Pick[0], b.Pick[1], plural(b.Of, "minor leader", "minor leaders"))
	}
	if b.Nothing != "" {
		t.WriteString(" " + b.Nothing)
	}
	if b.Judge != nil {
		fmt.Fprintf(&t, " The game master decides: %s", b.Judge.Ask)
	}
	return t.String()
}

// eventText says what each event does, in this project's words.
var eventText = [4][7]string{
	Mystical: {
		"one unit rolls 2 more bonus dice in melee this turn.",
		"one unit has +2 armor until the end of the turn.",
		"a holy man from a nearby village talks one unit into following him off the field.",
		"a shaman baptises peasants at the river: the side's units may not cross the water near the point the game master chooses, this turn.",
		"lightning strikes one unit: it loses a D6 of figures.",
		"one unit prays to the god of war: no missile touches it this turn, and it may not move.",
		"one unit may move twice this turn.",
	},
	Character: {
		"one unit kills 2 more in melee this turn, and charges the nearest enemy if it can.",
		"the side's general talks the nearest enemy unit without a leader into falling back a full move, unless an enemy leader is near it.",
		"a commander heals one unit: one figure comes back.",
		"one missile unit is +1 to hit this turn.",
		"a minor leader is in the enemy's pay and leaves the table with his unit.",
		"a commander naps: his unit does not move this turn.",
		"a minor leader defies the general; they fight, one die each.",
	},
	Animal: {
		"any unit crossing water this turn, of either side, loses a D6 of figures.",
		"a wild beast kills a man of one unit and fights the rest with 2 dice and a bonus die.",
		"a moving unit treads on a hornets' nest: it loses a man and stops, and no unit within 12\" moves again this turn.",
		"one infantry unit without missiles finds mounts in an abandoned stable and fights mounted from now on.",
		"one infantry unit crossing water rides elephants over: it crosses this turn without stopping at the edge.",
		"vultures lead one unit to the armor of the dead: +1 armor until the end of the turn.",
		"pack animals lead the side's unit nearest an edge off the table to a village; it comes back next turn as slingers.",
	},
	Other: {
		"local peasants rise: one foot unit gains a D6 of figures.",
		"one of the side's destroyed units returns at its own edge.",
		"two of the side's units that have not moved fall to fighting each other.",
		"one unit falls into a spiked pit: it loses a D6 of figures.",
		"one unit finds booby-trapped treasure: it loses a D6 less one of figures.",
		"one missile unit finds a stockpile of weapons: a die gives its new missile weapon.",
		"one unit finds a path through the woods: it moves through them at full speed this turn, but poison darts take a D6 of figures.",
	},
}

func (b Effected) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	e, x := &u.Effects, b.Effects
	e.Armor += x.Armor
	e.Bonus += x.Bonus
	e.Kills += x.Kills
	e.HitBonus += x.HitBonus
	e.Immune = e.Immune || x.Immune
	e.Still = e.Still || x.Still
	e.Twice = e.Twice || x.Twice
	e.WoodsFree = e.WoodsFree || x.WoodsFree
	e.Ferry = e.Ferry || x.Ferry
	return nil
}

func (b Effected) Text() string { return fmt.Sprintf("%s: %s.", b.Label, b.What) }

func (b Converted) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Class, u.Weapon, u.Ranks, u.Base = b.Class, b.Weapon, b.Ranks, b.Base
	return nil
}

func (b Converted) Text() string { return fmt.Sprintf("%s: %s.", b.Label, b.What) }

func (b UnitReturned) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Status, u.Lost, u.Figures, u.Wounds, u.Base, u.Placed = Steady, "", b.Figures, 0, b.Base, true
	u.Moves = 1 // it arrives; it moves on a later turn
	return nil
}

func (b UnitReturned) Text() string {
	return fmt.Sprintf("%s returns to the battle with %s, its front centre at %s.", b.Label, plural(b.Figures, "figure", "figures"), b.Base.FrontCenter())
}

func (b LeaderLeft) Apply(s *State) error {
	if b.Leader != "" {
		l, err := s.mustLeader(b.Leader)
		if err != nil {
			return err
		}
		l.Gone, l.Captured = true, b.Captured
	}
	if b.Unit != "" {
		u, err := s.mustUnit(b.Unit)
		if err != nil {
			return err
		}
		s.remove(u, Left)
		u.Return, u.ReturnAt = b.Return, b.ReturnAt
	}
	return nil
}

func (b LeaderLeft) Text() string { return b.Why }

func (b LeaderDuel) Apply(s *State) error {
	onGeneral, onMinor := b.Rolls[0] <= 4, b.Rolls[1] <= 4
	for _, x := range []struct {
		id  string
		hit bool
	}{{b.General, onGeneral}, {b.Minor, onMinor}} {
		if !x.hit {
			continue
		}
		l := s.Leader(x.id)
		if l == nil {
			continue
		}
		s.hitLeader(l.ID, s.Unit(l.Unit), false)
	}
	return nil
}

func (b LeaderDuel) Text() string {
	say := func(roll int, on string) string {
		if roll <= 4 {
			return fmt.Sprintf("%d hits %s", roll, on)
		}
		return fmt.Sprintf("%d misses", roll)
	}
	return fmt.Sprintf("%s fights his general %s: %s's die %s; %s's die %s (a leader takes two hits to die).", b.Minor, b.General, b.Minor, say(b.Rolls[0], b.General), b.General, say(b.Rolls[1], b.Minor))
}

func (b EventRuled) Apply(s *State) error {
	s.Judge = nil
	if b.Event == "Baptism" && b.At != nil {
		p := *b.At
		s.Baptism[b.Side] = &p
	}
	return nil
}

func (b EventRuled) Text() string {
	t := fmt.Sprintf("The game master (%s) decides on %s", b.By, b.Event)
	if b.At != nil {
		t += fmt.Sprintf(": at %s", *b.At)
	}
	if b.Unit != "" {
		t += fmt.Sprintf(": %s", b.Unit)
	}
	if b.Note != "" {
		t += fmt.Sprintf(" (%s)", strings.TrimSuffix(b.Note, "."))
	}
	return t + "."
}

// pickUnit chooses one of us by two d0-9 dice read as a number from 00
// to 99, counted round the list (RULINGS.md, btg, "events").
func pickUnit(tx *engine.Tx, us []*Unit) (*Unit, []int) {
	if len(us) == 0 {
		return nil, nil
	}
	a, b := tx.Roll(engine.D0to9), tx.Roll(engine.D0to9)
	return us[(10*a+b)%len(us)], []int{a, b}
}

// randomEvent plays the event a red card of category cat calls for.
func randomEvent(tx *engine.Tx, s *State, cat EventCategory) error {
	b := EventDrawn{Category: cat}
	for range 60 {
		c, err := tx.Draw(Deck)
		if err != nil {
			return err
		}
		tx.Discard(Deck, c)
		side, n, ok := EventCard(c)
		if !ok {
			b.Passed = append(b.Passed, c)
			continue
		}
		b.Card, b.Side, b.Number, b.Name = c, side, n, EventName(cat, n)
		break
	}
	if b.Number == 0 {
		return nil
	}
	b.Army = s.armyName(b.Side)
	return playEvent(tx, s, b)
}

// eligible lists the side's units on the table that an event may fall on.
func (s *State) eligible(side Side, ok func(*Unit) bool) []*Unit {
	var out []*Unit
	for _, u := range s.inPlay(side) {
		if ok == nil || ok(u) {
			out = append(out, u)
		}
	}
	return out
}

func anyUnit(u *Unit) bool { return !u.Class.Siege() }

// eventKind is one of the 28 random events (§6), numbered through the
// categories in the text's order (Mystical, Character, Animal, Other),
// each category's seven in its own order. The zero eventKind is none.
type eventKind uint8

const (
	evNone eventKind = iota
	evFerocity
	evArmor
	evHolyMan
	evBaptism
	evHolyLightning
	evPrayer
	evSpeed
	evBloodthirstiness
	evDiplomat
	evDoctor
	evMarksmen
	evTraitors
	evLaziness
	evInsubordination
	evAlligators
	evAttack
	evStupid
	evLookeeHere
	evElephants
	evVultures
	evLostAndFound
	evPeasantLevies
	evReinforcements
	evRivals
	evSinkingFeeling
	evTreasure
	evStockpile
	evHiddenForAReason
	numEvents
)

// kindOf is the event a category and a number 1 to 7 name.
func kindOf(cat EventCategory, n int) eventKind {
	if cat < Mystical || cat > Other || n < 1 || n > 7 {
		return evNone
	}
	return eventKind(int(cat)*7 + n)
}

func (k eventKind) String() string {
	if k == evNone || k >= numEvents {
		return ""
	}
	return eventNames[(k-1)/7][(k-1)%7]
}

// drawnEvent is a random event being played: the event as drawn, the
// unit the dice gave it to (nil for an event that names none by the
// dice), and the units the dice chose among.
type drawnEvent struct {
	tx   *engine.Tx
	s    *State
	b    EventDrawn
	u    *Unit
	pool []*Unit
}

// announce tells the event.
func (e *drawnEvent) announce() error { return e.tx.Emit(e.b) }

// effect tells the event and gives its unit an effect for the turn.
func (e *drawnEvent) effect(ef Effects, what string) error {
	if err := e.announce(); err != nil {
		return err
	}
	return e.tx.Emit(Effected{Unit: e.u.ID, Label: e.u.Label(), Effects: ef, What: what})
}

// lose takes n figures from the event's unit.
func (e *drawnEvent) lose(n int, what string) error {
	u := e.u
	return e.tx.Emit(FiguresSet{Unit: u.ID, Label: u.Label(), Figures: max(0, u.Figures-n), Was: u.Figures, Why: what, Harm: true})
}

// announceAndLose tells the event, then takes a D6 (less off) of its
// unit's figures, said as why with the number.
func (e *drawnEvent) announceAndLose(off int, why string) error {
	if err := e.announce(); err != nil {
		return err
	}
	n := e.tx.Roll(engine.D6) - off
	return e.lose(n, fmt.Sprintf(why, n))
}

// eventRule is how one random event plays. pool lists the units the dice
// may give it to, or is nil when the event names no unit by the dice;
// play does what the event does.
type eventRule struct {
	pool func(s *State, side Side) []*Unit
	play func(e *drawnEvent) error
}

// anyOf is the pool of the side's units that pass ok.
func anyOf(ok func(*Unit) bool) func(*State, Side) []*Unit {
	return func(s *State, side Side) []*Unit { return s.eligible(side, ok) }
}

// effectOnly is an event that gives its unit one effect for the turn.
func effectOnly(ef Effects, what string) eventRule {
	return eventRule{pool: anyOf(anyUnit), play: func(e *drawnEvent) error { return e.effect(ef, what) }}
}

// eventRules holds the 28 events of §6, keyed by their kind. It is
// filled in init, since some events play on into a charge, which may
// draw the next card and so another event.
var eventRules [numEvents]eventRule

func init() {
	eventRules = [numEvents]eventRule{
		evFerocity: effectOnly(Effects{Bonus: 2}, "2 more melee bonus dice this turn"),
		evArmor:    effectOnly(Effects{Armor: 2}, "+2 armor until the end of the turn"),
		evHolyMan: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			if err := e.announce(); err != nil {
				return err
			}
			return e.tx.Emit(Removed{Unit: e.u.ID, Label: e.u.Label(), Loss: Left})
		}},
		evBaptism: {play: baptism},
		evHolyLightning: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			return e.announceAndLose(0, "lightning kills %d")
		}},
		evPrayer: effectOnly(Effects{Immune: true, Still: true}, "at prayer: no missile touches it this turn, and it does not move"),
		evSpeed:  effectOnly(Effects{Twice: true}, "may move twice this turn"),
		evBloodthirstiness: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			if err := e.effect(Effects{Kills: 2}, "2 more kills in melee this turn"); err != nil {
				return err
			}
			return e.s.bloodthirsty(e.tx, e.u)
		}},
		evDiplomat: {play: func(e *drawnEvent) error { return e.s.diplomat(e.tx, e.b) }},
		evDoctor: {pool: anyOf(func(u *Unit) bool { return u.Figures < u.Start && !u.Class.Siege() }), play: func(e *drawnEvent) error {
			if err := e.announce(); err != nil {
				return err
			}
			u := e.u
			return e.tx.Emit(FiguresSet{Unit: u.ID, Label: u.Label(), Figures: u.Figures + 1, Was: u.Figures, Why: "a healer brings one figure back"})
		}},
		evMarksmen: {pool: anyOf(func(u *Unit) bool { return u.Weapon.Missile() }), play: func(e *drawnEvent) error {
			return e.effect(Effects{HitBonus: 1}, "+1 to hit this turn")
		}},
		evTraitors: {play: func(e *drawnEvent) error { return e.s.traitors(e.tx, e.b) }},
		evLaziness: {pool: func(s *State, side Side) []*Unit {
			return s.eligible(side, func(u *Unit) bool { return s.leaderOf(u) != nil })
		}, play: func(e *drawnEvent) error {
			return e.effect(Effects{Still: true}, "its commander sleeps, and it does not move this turn")
		}},
		evInsubordination: {play: func(e *drawnEvent) error { return e.s.insubordination(e.tx, e.b) }},
		evAlligators:      {play: (*drawnEvent).announce},
		evAttack:          {pool: anyOf(anyUnit), play: wildBeast},
		// Stupid!: the nest is found by a unit on the move, one that has
		// moved this turn; with none, nothing happens (RULINGS.md, btg).
		evStupid:     {pool: anyOf(func(u *Unit) bool { return u.Moves > 0 && !u.Class.Siege() }), play: hornets},
		evLookeeHere: {pool: anyOf(func(u *Unit) bool { return u.Class.Foot() && !u.Weapon.Missile() }), play: mounted},
		evElephants: {pool: anyOf(func(u *Unit) bool { return u.Class.Foot() }), play: func(e *drawnEvent) error {
			return e.effect(Effects{Ferry: true}, "rides elephants over the water this turn, without stopping at its edge")
		}},
		evVultures:     effectOnly(Effects{Armor: 1}, "+1 armor until the end of the turn"),
		evLostAndFound: {play: func(e *drawnEvent) error { return e.s.lostAndFound(e.tx, e.b) }},
		// Peasants rise on foot: they join a foot unit, never horse,
		// camels, chariots or elephants (RULINGS.md, btg, "Peasant
		// Levies").
		evPeasantLevies:  {pool: anyOf(func(u *Unit) bool { return u.Class.Foot() }), play: peasantLevies},
		evReinforcements: {play: func(e *drawnEvent) error { return e.s.reinforcements(e.tx, e.b) }},
		evRivals: {pool: func(s *State, side Side) []*Unit {
			return s.eligible(side, func(u *Unit) bool {
				return u.Moves == 0 && u.Status == Steady && !s.engaged(u) && !u.Class.Siege()
			})
		}, play: rivals},
		evSinkingFeeling: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			return e.announceAndLose(0, "a spiked pit takes %d")
		}},
		evTreasure: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			return e.announceAndLose(1, "the treasure's trap takes %d")
		}},
		evStockpile: {pool: anyOf(func(u *Unit) bool { return u.Weapon.Missile() }), play: stockpile},
		evHiddenForAReason: {pool: anyOf(anyUnit), play: func(e *drawnEvent) error {
			if err := e.effect(Effects{WoodsFree: true}, "moves through woods at full speed this turn"); err != nil {
				return err
			}
			n := e.tx.Roll(engine.D6)
			return e.lose(n, fmt.Sprintf("poison darts take %d", n))
		}},
	}
}

// playEvent plays a drawn event by its rule: the dice choose its unit
// from the rule's pool, when it has one, and the rule does the rest.
func playEvent(tx *engine.Tx, s *State, b EventDrawn) error {
	k := kindOf(b.Category, b.Number)
	if k == evNone {
		return tx.Emit(b)
	}
	r := eventRules[k]
	e := &drawnEvent{tx: tx, s: s, b: b}
	if r.pool != nil {
		e.pool = r.pool(s, b.Side)
		e.u, e.b.Pick = pickUnit(tx, e.pool)
		e.b.Of = len(e.pool)
		if e.u == nil {
			e.b.Nothing = "No unit of theirs qualifies, and nothing happens."
			return tx.Emit(e.b)
		}
		e.b.Unit, e.b.Label = e.u.ID, e.u.Label()
	}
	return r.play(e)
}

// baptism asks the game master where the shaman stands, when the table
// has water.
func baptism(e *drawnEvent) error {
	if !e.s.hasGround(Water) {
		e.b.Nothing = "There is no water on this table, and nothing happens."
		return e.announce()
	}
	e.b.Judge = &Judgement{Event: e.b.Name, Side: e.b.Side, Ask: "the point of the river where the shaman stands: /decide at:x,y (the water nearest the side's units)."}
	return e.announce()
}

// wildBeast takes one man, then fights the unit as a beast would.
func wildBeast(e *drawnEvent) error {
	tx, s, u := e.tx, e.s, e.u
	if err := e.announce(); err != nil {
		return err
	}
	if err := e.lose(1, "a wild beast takes one man"); err != nil {
		return err
	}
	if !u.In() {
		return nil
	}
	f := Fought{Unit: "A wild beast", Opponent: u.ID, Label: u.Label(), Band: 4, BonusWhy: []string{"the beast +1"}}
	f.Rolls = []int{tx.Roll(engine.D6), tx.Roll(engine.D6)}
	f.Bonus = []int{tx.Roll(engine.D6)}
	f.Hits = MeleeHits(Sword, f.Rolls, f.Bonus, 0)
	f.Armor = s.armor(u, false)
	f.Lost, f.Wounds = s.casualties(u, max(0, f.Hits-f.Armor))
	f.Wounds = u.Wounds
	if u.Class == Elephant {
		f.Lost, f.Wounds = s.casualties(u, max(0, f.Hits-f.Armor))
	}
	// Dice and a bonus die make the beast's fight a melee: a leader in a
	// unit that takes casualties in it risks his D10 (5.F), and the
	// unit, having lost figures to a beast that loses none, has lost the
	// melee and checks morale in the next morale phase (3.D), as the
	// loser of Rivals does (RULINGS.md, btg, "Attack!").
	if l := s.leaderOf(u); l != nil && f.Lost > 0 {
		tx.Why(l.ID + ", the leader in the fight")
		f.Leader, f.LeaderRoll = l.ID, tx.Roll(engine.D0to9)
		f.LeaderHit = MeleeLeaderHit(f.LeaderRoll, true)
	}
	if err := tx.Emit(f); err != nil {
		return err
	}
	// A routed unit routs again only when charged or shot (§3), and
	// rampaging elephants owe only the rally/rout phase's check: only a
	// unit in good order has a melee to lose.
	if f.Lost == 0 || !u.In() || u.Status != Steady {
		return nil
	}
	return tx.Emit(MeleeJudged{Losers: []string{u.ID}})
}

// hornets takes one man, and stills the unit and every unit within 12".
func hornets(e *drawnEvent) error {
	s, u := e.s, e.u
	if err := e.announce(); err != nil {
		return err
	}
	if err := e.lose(1, "a man dies screaming in a hornets' nest"); err != nil {
		return err
	}
	near := []*Unit{u}
	for i := range s.Units {
		o := &s.Units[i]
		if o != u && o.In() && o.Base.Gap(u.Base) <= 12 {
			near = append(near, o)
		}
	}
	for _, o := range near {
		if !o.In() {
			continue
		}
		if err := e.tx.Emit(Effected{Unit: o.ID, Label: o.Label(), Effects: Effects{Still: true}, What: "stands still while the insects swarm: no more moves this turn"}); err != nil {
			return err
		}
	}
	return nil
}

// mounted puts a foot unit on horses.
func mounted(e *drawnEvent) error {
	u := e.u
	if err := e.announce(); err != nil {
		return err
	}
	c := Cavalry
	if u.Class == LightInfantry {
		c = LightCavalry
	}
	w := u.Weapon
	if !canCarry(c, w) {
		w = Spear
	}
	nb, ranks := e.s.mountedBase(u, c)
	return e.tx.Emit(Converted{Unit: u.ID, Label: u.Label(), Class: c, Weapon: w, Ranks: ranks, Base: nb, What: fmt.Sprintf("mounted now, it fights as %s with %s, %s deep", c, w.Key(), plural(ranks, "rank", "ranks"))})
}

// mountedBase is the base u forms on as class c when it finds mounts
// (Lookee Here!): one rank deep, its front centre kept, where that
// stands on no other unit and on the table; else the fewest ranks that
// do, its front edge or else its rear edge kept, centred on its old
// front or flush with either end of it. With room for none it keeps the
// ground it stood on, in its old ranks (RULINGS.md, btg, "events").
func (s *State) mountedBase(u *Unit, c Class) (engine.Base, int) {
	figs := max(u.Figures, 1)
	for r := 1; r <= figs; r++ {
		w, d := c.size(figs, r)
		for _, b := range inPlaceOf(u.Base, w, d) {
			if s.onTable(b) && !s.clashes(u, b) {
				return b, r
			}
		}
	}
	return u.Base, u.Ranks
}

// peasantLevies joins a D6 of peasants to the unit.
func peasantLevies(e *drawnEvent) error {
	u := e.u
	if err := e.announce(); err != nil {
		return err
	}
	// The castings are figures that join the unit (RULINGS.md, btg,
	// "Peasant Levies"): its full strength rises by as many as
	// join, and no more join than a unit may hold (1.B).
	n := e.tx.Roll(engine.D6)
	join := min(n, MaxFigures-u.Figures)
	why := fmt.Sprintf("%s join it", plural(join, "peasant", "peasants"))
	if join < n {
		why = fmt.Sprintf("%d peasants rise, but a unit holds at most %d figures: %d join it", n, MaxFigures, join)
	}
	return e.tx.Emit(FiguresSet{Unit: u.ID, Label: u.Label(), Figures: u.Figures + join, Was: u.Figures, Full: u.Start + join, Why: why})
}

// rivals asks the game master which unmoved unit quarrels with the one
// the dice chose, when there is a second.
func rivals(e *drawnEvent) error {
	if len(e.pool) < 2 {
		e.b.Nothing = "No second unmoved unit is there to quarrel with, and nothing happens."
		return e.announce()
	}
	e.b.Judge = &Judgement{Event: e.b.Name, Side: e.b.Side, Unit: e.u.ID, Ask: fmt.Sprintf("which unmoved unit of the %s falls out with %s: /decide unit:… (the game master rolls for it).", e.b.Army, e.u.ID)}
	return e.announce()
}

// stockpile gives a missile unit the weapon a die names, if it can use it.
func stockpile(e *drawnEvent) error {
	u := e.u
	if err := e.announce(); err != nil {
		return err
	}
	roll := e.tx.Roll(engine.D6)
	w := [...]Weapon{Javelin, Javelin, Sling, ShortBow, ShortBow, CompositeBow}[roll-1]
	what := fmt.Sprintf("the die (%d) gives it %s", roll, w.Key())
	if !canCarry(u.Class, w) {
		w = u.Weapon
		what += fmt.Sprintf(", which %s cannot use; it keeps its %s", u.Class, w.Key())
	}
	return e.tx.Emit(Converted{Unit: u.ID, Label: u.Label(), Class: u.Class, Weapon: w, Ranks: u.Ranks, Base: u.Base, Roll: roll, What: what})
}

func canCarry(c Class, w Weapon) bool {
	for _, a := range classes[c].weapons {
		if a == w {
			return true
		}
	}
	return false
}

func (s *State) hasGround(g Ground) bool {
	for _, f := range s.Terrain {
		if f.ground() == g {
			return true
		}
	}
	return false
}

// bloodthirsty charges the nearest enemy with u, if it can charge it.
func (s *State) bloodthirsty(tx *engine.Tx, u *Unit) error {
	t := s.nearestEnemy(u)
	if t == nil || !u.Class.CanCharge() || s.canMove(u) != nil {
		return nil
	}
	to, dist, err := s.chargePath(u, t)
	if err != nil {
		return nil // it cannot reach; it keeps its kills for the melee
	}
	return chargeHome(tx, s, u, t, to, dist)
}

func (s *State) nearestEnemy(u *Unit) *Unit {
	var near *Unit
	best := math.Inf(1)
	for _, o := range s.inPlay(u.Side.Other()) {
		if d := u.Base.Gap(o.Base); d < best {
			near, best = o, d
		}
	}
	return near
}

func (s *State) general(side Side) *Leader {
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && l.Supreme && !l.Gone && l.Placed {
			return l
		}
	}
	return nil
}

// leaderBase is the ground a leader stands on: his unit's base when he
// commands one, else his own.
func (s *State) leaderBase(l *Leader) engine.Base {
	if u := s.Unit(l.Unit); u != nil && u.In() {
		return u.Base
	}
	return l.Base()
}

func (s *State) diplomat(tx *engine.Tx, b EventDrawn) error {
	g := s.general(b.Side)
	if g == nil {
		b.Nothing = "Their general is not on the table, and nothing happens."
		return tx.Emit(b)
	}
	// The closest unit is the one whose nearest edge is closest to the
	// general, as every distance to a unit is taken (2.F), not the one
	// whose centre is (RULINGS.md, btg, "Diplomat").
	at := s.leaderBase(g)
	var near *Unit
	best := math.Inf(1)
	for _, o := range s.inPlay(b.Side.Other()) {
		if s.leaderOf(o) != nil || s.engaged(o) {
			continue
		}
		if d := o.Base.Gap(at); d < best {
			near, best = o, d
		}
	}
	if near == nil {
		b.Nothing = "Every enemy unit has a leader or is in melee, and nothing happens."
		return tx.Emit(b)
	}
	b.Unit, b.Label = near.ID, near.Label()
	// Within 6" of the unit is within 6" of its edge, as every distance
	// to a unit is taken (2.F; a leader's reach to join a unit alike).
	for _, l := range s.loneLeaders(near.Side) {
		if near.Base.Gap(l.Base()) <= 6 {
			b.Nothing = fmt.Sprintf("%s stands by it and stops the diplomat.", l.ID)
			return tx.Emit(b)
		}
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	h := near.Side.forward().Reverse()
	to, d, stop, off := s.flee(near, near.Base, h, s.fullMove(near))
	return s.emitMove(tx, Moved{Unit: near.ID, Label: near.Label(), Why: Diplo, From: near.Base, To: to, Ranks: near.Ranks, Dist: d, Stop: stop, Fled: off})
}

func (s *State) minors(side Side) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && !l.Supreme && !l.Gone && l.Placed {
			out = append(out, l)
		}
	}
	return out
}

func (s *State) traitors(tx *engine.Tx, b EventDrawn) error {
	ms := s.minors(b.Side)
	if len(ms) == 0 {
		b.Nothing = "They have no minor leader, and nothing happens."
		return tx.Emit(b)
	}
	a, c := tx.Roll(engine.D0to9), tx.Roll(engine.D0to9)
	l := ms[(10*a+c)%len(ms)]
	b.Pick, b.Of = []int{a, c}, len(ms)
	if err := tx.Emit(b); err != nil {
		return err
	}
	if u := s.Unit(l.Unit); u != nil && u.In() {
		return tx.Emit(LeaderLeft{Leader: l.ID, Unit: u.ID, Label: u.Label(), Why: fmt.Sprintf("%s, in the enemy's pay, marches %s off the table.", l.ID, u.Label())})
	}
	return tx.Emit(LeaderLeft{Leader: l.ID, Why: fmt.Sprintf("%s, in the enemy's pay, rides off the table alone.", l.ID)})
}

func (s *State) insubordination(tx *engine.Tx, b EventDrawn) error {
	g, ms := s.general(b.Side), s.minors(b.Side)
	if g == nil || len(ms) == 0 {
		b.Nothing = "They lack a general and a minor leader to quarrel, and nothing happens."
		return tx.Emit(b)
	}
	a, c := tx.Roll(engine.D0to9), tx.Roll(engine.D0to9)
	m := ms[(10*a+c)%len(ms)]
	b.Pick, b.Of = []int{a, c}, len(ms)
	if err := tx.Emit(b); err != nil {
		return err
	}
	return tx.Emit(LeaderDuel{Minor: m.ID, General: g.ID, Rolls: [2]int{tx.Roll(engine.D6), tx.Roll(engine.D6)}})
}

// edgePoint is the point of the table's edge nearest p.
func (s *State) edgePoint(p engine.Vec) engine.Vec {
	w, d := s.Options.Width, s.Options.Depth
	best, at := p.X, engine.Vec{X: 0, Y: p.Y}
	for _, c := range []struct {
		d  float64
		at engine.Vec
	}{{w - p.X, engine.Vec{X: w, Y: p.Y}}, {p.Y, engine.Vec{X: p.X, Y: 0}}, {d - p.Y, engine.Vec{X: p.X, Y: d}}} {
		if c.d < best {
			best, at = c.d, c.at
		}
	}
	return at
}

// edgeGap is how far base b stands from the table's edge, from its
// nearest corner, and the point of that edge facing b's centre.
func (s *State) edgeGap(b engine.Base) (float64, engine.Vec) {
	w, d := s.Options.Width, s.Options.Depth
	gaps := [4]float64{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
	for _, c := range b.Corners() {
		gaps[0] = min(gaps[0], c.X)
		gaps[1] = min(gaps[1], w-c.X)
		gaps[2] = min(gaps[2], c.Y)
		gaps[3] = min(gaps[3], d-c.Y)
	}
	p := b.Center
	points := [4]engine.Vec{{X: 0, Y: p.Y}, {X: w, Y: p.Y}, {X: p.X, Y: 0}, {X: p.X, Y: d}}
	best := 0
	for i := range gaps {
		if gaps[i] < gaps[best] {
			best = i
		}
	}
	return max(gaps[best], 0), points[best]
}

func (s *State) lostAndFound(tx *engine.Tx, b EventDrawn) error {
	// The unit closest to an edge is the one whose nearest corner is,
	// as every distance to a unit runs to its edge (RULINGS.md, btg,
	// "Lost and Found").
	var near *Unit
	best := math.Inf(1)
	for _, u := range s.inPlay(b.Side) {
		if s.engaged(u) {
			continue
		}
		if d, _ := s.edgeGap(u.Base); d < best {
			near, best = u, d
		}
	}
	if near == nil {
		b.Nothing = "No unit of theirs is free to go, and nothing happens."
		return tx.Emit(b)
	}
	_, at := s.edgeGap(near.Base)
	b.Unit, b.Label = near.ID, near.Label()
	b.Judge = &Judgement{Event: b.Name, Side: b.Side, Unit: near.ID, Ask: fmt.Sprintf("where the village's slingers come back next turn: /decide at:x,y at the table's edge (the nearest edge to %s is at %s).", near.ID, at)}
	return tx.Emit(b)
}

func (s *State) reinforcements(tx *engine.Tx, b EventDrawn) error {
	var dead []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == b.Side && u.Lost == Destroyed {
			dead = append(dead, u)
		}
	}
	u, pick := pickUnit(tx, dead)
	if u == nil {
		b.Nothing = "None of their units has been destroyed, and nothing happens."
		return tx.Emit(b)
	}
	b.Unit, b.Label, b.Pick, b.Of = u.ID, u.Label(), pick, len(dead)
	if err := tx.Emit(b); err != nil {
		return err
	}
	// Full strength, but never more than a unit holds (1.B): levies may
	// have raised a unit's full strength past it (Peasant Levies).
	full := min(u.Start, MaxFigures)
	w, d := u.Class.size(full, u.Ranks)
	for i := 0; i < 400; i++ {
		off := float64((i+1)/2) * 1.0
		if i%2 == 1 {
			off = -off
		}
		y := 1.0
		if b.Side == RedSide {
			y = s.Options.Depth - 1
		}
		nb := engine.Base{Width: w, Depth: d, Facing: b.Side.forward()}.WithFrontCenter(engine.Vec{X: s.Options.Width/2 + off, Y: y})
		if b.Side == BlackSide {
			nb = nb.WithCenter(engine.Vec{X: nb.Center.X, Y: d / 2})
		} else {
			nb = nb.WithCenter(engine.Vec{X: nb.Center.X, Y: s.Options.Depth - d/2})
		}
		if s.onTable(nb) && s.canStand(u, nb) == nil {
			return tx.Emit(UnitReturned{Unit: u.ID, Label: u.Label(), Base: nb, Figures: full})
		}
	}
	return nil
}

// decideCommand is the game master's decision on an event that waits
// for one.
func decideCommand(tx *engine.Tx, s *State, c engine.Command) error {
	j := s.Judge
	if j == nil {
		return engine.Refuse("§6", "No event waits for a decision.")
	}
	r := EventRuled{By: c.Actor, Event: j.Event, Side: j.Side, Note: strings.TrimSpace(c.Opt("note"))}
	switch j.Event {
	case "Baptism":
		p, err := engine.ReadPoint("at", c.Opt("at"), "inches")
		if err != nil {
			return err
		}
		onWater := false
		for _, f := range s.Terrain {
			if f.ground() == Water && f.Area.Gap(engine.Base{Center: p}) <= 1 {
				onWater = true
			}
		}
		if !onWater {
			return engine.Refuse("§6", "%s is not at the water; the shaman stands at the river.", p)
		}
		r.At = &p
		if err := tx.Emit(r); err != nil {
			return err
		}
	case "Lost and Found":
		p, err := engine.ReadPoint("at", c.Opt("at"), "inches")
		if err != nil {
			return err
		}
		u := s.Unit(j.Unit)
		if e := s.edgePoint(p); e.Dist(p) > 2 {
			return engine.Refuse("§6", "The slingers come back at the table's edge; %s is %s from it.", p, inches(e.Dist(p)))
		}
		r.At, r.Unit = &p, u.ID
		if err := tx.Emit(r); err != nil {
			return err
		}
		if err := tx.Emit(LeaderLeft{Unit: u.ID, Label: u.Label(), Return: s.Turn + 1, ReturnAt: s.edgePoint(p), Why: fmt.Sprintf("%s follows the pack animals off the table, to come back next turn as slingers.", u.Label())}); err != nil {
			return err
		}
	case "Rivals":
		a := s.Unit(j.Unit)
		o, err := s.findUnit(c.Opt("unit"))
		if err != nil {
			return err
		}
		if o == a || o.Side != j.Side || !o.In() || o.Moves > 0 || o.Status != Steady || s.engaged(o) {
			return engine.Refuse("§6", "The rival is another unit of the %s on the table that has not moved this turn.", s.armyName(j.Side))
		}
		r.Unit = o.ID
		if err := tx.Emit(r); err != nil {
			return err
		}
		if err := s.rivals(tx, a, o); err != nil {
			return err
		}
	}
	return afterMove(tx, s)
}

// rivals fights the melee of Rivals (§6) between a and o: the text calls
// it a normal melee, so each rolls its dice and its bonus dice as in the
// melee phase, both strike with the figures they began with, a leader in
// a unit that loses figures risks his D10 (5.F), and the loser checks
// morale in the next morale phase (3.D).
func (s *State) rivals(tx *engine.Tx, a, o *Unit) error {
	var fs [2]fight
	for i, p := range [2][2]*Unit{{a, o}, {o, a}} {
		f := fight{u: p[0], opp: p[1], dice: Dice(p[0].Figures), band: meleeWeapon(p[0]).MeleeHit(), kills: p[0].Effects.Kills}
		f.bonus, f.why = s.bonusDice(p[0], p[1])
		fs[i] = f
	}
	var lost [2]int
	for i, f := range fs {
		if !f.u.In() || !f.opp.In() {
			continue
		}
		b := s.strike(tx, f)
		if err := tx.Emit(b); err != nil {
			return err
		}
		lost[1-i] = b.Lost
	}
	var judged MeleeJudged
	for i, u := range [2]*Unit{a, o} {
		if u.In() && lost[i] > lost[1-i] {
			judged.Losers = append(judged.Losers, u.ID)
		}
	}
	if len(judged.Losers) > 0 {
		return tx.Emit(judged)
	}
	return nil
}
