package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Side is one of the two armies: the first raised deploys on the south
// edge, the second on the north.
type Side uint8

const (
	South Side = iota
	North
)

func (s Side) String() string { return [...]string{"south", "north"}[s] }

// Other is the opposing side.
func (s Side) Other() Side { return 1 - s }

// forward is the heading toward the enemy's edge.
func (s Side) forward() engine.Heading {
	if s == North {
		return engine.HeadingS
	}
	return engine.HeadingN
}

// Stage is where a battle stands.
type Stage uint8

const (
	Mustering  Stage = iota // the book is open; the armies are raised
	Deploying               // both sides set out their units
	Initiative              // the winner of the roll chooses to move first or second (Method 1)
	Moving                  // one side moves, then the other (Method 1)
	Missile                 // one side shoots, then the other (Method 1)
	Orders                  // both sides write their orders (Method 2)
	Referee                 // the referee carries out orders the bot cannot (Method 2)
	Over                    // the battle has ended
)

var stageNames = [...]string{"mustering", "deployment", "initiative", "movement", "missile fire", "orders", "the referee's orders", "over"}

func (s Stage) String() string { return stageNames[s] }

// Method is the turn sequence the book plays (Turn sequence).
type Method uint8

const (
	MoveCountermove Method = 1 // Method 1: initiative, then each side in turn
	WrittenOrders   Method = 2 // Method 2: sealed orders carried out at once
)

func (m Method) String() string {
	if m == WrittenOrders {
		return "written orders"
	}
	return "move/countermove"
}

// Options are the book's terms, fixed when it opens.
type Options struct {
	Method Method  `json:"method"`
	Width  float64 `json:"width"`  // inches east to west
	Depth  float64 `json:"depth"`  // inches south to north
	Deploy float64 `json:"deploy"` // depth of each side's deployment zone
	Points float64 `json:"points"` // each army's most points; 0 for no limit
	Turns  int     `json:"turns"`  // the agreed number of turns; 0 for no limit
	Night  bool    `json:"night,omitempty"`
}

// Army is one side's army.
type Army struct {
	Player engine.PlayerID `json:"player"`
	Name   string          `json:"name"`
	Tag    string          `json:"tag"`
	List   string          `json:"list"`
	Points float64         `json:"points"`
	Done   bool            `json:"done,omitempty"` // finished its part of the stage
}

// Status is a unit's state of morale.
type Status uint8

const (
	Steady Status = iota
	Routed        // routing; it tries to rally on the turns that follow
	Gone          // off the table: see Unit.Lost
)

// Loss says how a unit left the battle.
type Loss string

const (
	Destroyed   Loss = "destroyed"
	Surrendered Loss = "surrendered"
	Fled        Loss = "fled off the table"
	Dispersed   Loss = "failed to rally and dispersed"
	Removed     Loss = "removed by the referee"
)

// Unit is a group of figures of one kind, in formation: Frontage figures
// across and as many ranks as its figures fill (Facing and Formation).
type Unit struct {
	ID      string  `json:"id"`
	Side    Side    `json:"side"`
	Profile Profile `json:"profile"`
	Figures int     `json:"figures"`          // figures able to fight
	Start   int     `json:"start"`            // figures when raised
	Damage  int     `json:"damage,omitempty"` // hits carried by one figure of several HT
	// Paralyzed figures stand in the unit but do not fight (SA 7a, 7b).
	// Numb of them are held by a numbing touch (SA 7b), which wears off
	// by itself as turn Numbed+1 begins; the others (SA 7a) wait for a
	// freer's touch.
	Paralyzed int `json:"paralyzed,omitempty"`
	Numb      int `json:"numb,omitempty"`
	Numbed    int `json:"numbed,omitempty"`
	// Later counts the paralyzed figures numbed (SA 7b) a turn after the
	// others, which stay held a turn longer than those: each is held
	// for one turn (Special Abilities, 7b).
	Later int `json:"later,omitempty"`

	Frontage int         `json:"frontage"`
	Base     engine.Base `json:"base"`
	Placed   bool        `json:"placed,omitempty"`
	Status   Status      `json:"status,omitempty"`
	Lost     Loss        `json:"lost,omitempty"`
	// Raised counts the slain who rose in its ranks (SA 12): figures it
	// did not pay for, so that losing them costs it their points, and
	// gaining them none (Victory, RULINGS.md).
	Raised int `json:"raised,omitempty"`
	// RoutTurn counts the turns since it routed; Attacked says whether
	// it was shot at or fought since (Rout and Rally).
	RoutTurn int  `json:"routTurn,omitempty"`
	Attacked bool `json:"attacked,omitempty"`

	// This turn's doings.
	Moved   float64 `json:"moved,omitempty"`   // inches of its allowance used
	Charged bool    `json:"charged,omitempty"` // charged this turn
	Shots   int     `json:"shots,omitempty"`   // volleys shot this turn
	Fought  bool    `json:"fought,omitempty"`  // fought in melee this turn
	Cast    bool    `json:"cast,omitempty"`    // cast a spell or bolt this turn
	Paused  bool    `json:"paused,omitempty"`  // stopped mid-move to shoot (split move and fire)
	Flew    bool    `json:"flew,omitempty"`    // moved in the air this turn
	// GaveGround marks a unit that fell back or routed this turn: no
	// move of its own, but no rest either (Fatigue).
	GaveGround bool `json:"gaveGround,omitempty"`
	// Driven is how far falling back has carried it this turn: movement
	// for the rate of fire and reloading (Missile Fire, L122, L124).
	Driven   float64 `json:"driven,omitempty"`
	TurnFigs int     `json:"turnFigs,omitempty"` // figures at the start of the turn
	Shaken   bool    `json:"shaken,omitempty"`   // tested for heavy losses this turn
	Feared   bool    `json:"feared,omitempty"`   // tested for a fearsome enemy (SA 5) this turn
	Volley   int     `json:"volley,omitempty"`   // figures when a simultaneous phase began
	Afraid   bool    `json:"afraid,omitempty"`   // failed a save against fear under written orders, not yet tested
	// Rallying marks a unit that rallied at the start of this turn: it
	// spends the turn rallying and may neither move nor attack in it
	// (Rout and Rally, L199).
	Rallying bool `json:"rallying,omitempty"`

	Unloaded bool `json:"unloaded,omitempty"` // a heavy crossbow that must reload
	HoldFire bool `json:"holdFire,omitempty"` // gives no pass-through fire; a wizard, no counterspell
	Spells   int  `json:"spells,omitempty"`   // spells, bolts or breaths used this battle
	// Fatigue: turns of melee and of movement since the unit last
	// rested, and whether it is tired (Fatigue).
	MeleeTurns int  `json:"meleeTurns,omitempty"`
	MoveTurns  int  `json:"moveTurns,omitempty"`
	Tired      bool `json:"tired,omitempty"`
	// Spell effects, each lasting to the end of the turn given.
	Haste int `json:"haste,omitempty"`
	Slow  int `json:"slow,omitempty"`
}

// In reports whether the unit stands on the table.
func (u *Unit) In() bool { return u.Placed && u.Status != Gone }

// Able reports whether the unit stands on the table in good order.
func (u *Unit) Able() bool { return u.In() && u.Status == Steady }

// Total is the figures in the unit, paralyzed or not.
func (u *Unit) Total() int { return u.Figures + u.Paralyzed }

// Label names the unit for players: "ORC-2 (Orcs, 18/20)".
func (u *Unit) Label() string { return fmt.Sprintf("%s (%s)", u.ID, u.Describe()) }

// Describe says what the unit is: its type and figures.
func (u *Unit) Describe() string {
	d := fmt.Sprintf("%s, %d/%d", u.Profile.Name, u.Figures, u.Start)
	if u.Paralyzed > 0 {
		d += fmt.Sprintf(" +%d paralyzed", u.Paralyzed)
	}
	return d
}

// Ranks is how many ranks deep the unit stands.
func (u *Unit) Ranks() int { return ranks(u.Total(), u.Frontage) }

func ranks(figs, frontage int) int {
	if frontage < 1 || figs < 1 {
		return 1
	}
	return (figs + frontage - 1) / frontage
}

// figureSize is the base of one figure, in inches across and deep
// (RULINGS.md, goliath, "scale and bases").
func (p *Profile) figureSize() (w, d float64) {
	switch {
	case p.Large:
		return 2, 2
	case p.Cavalry():
		return 1, 2
	}
	return 1, 1
}

// shape returns the base of a unit of figs figures Frontage wide, with
// its front centre at front and facing h.
func (u *Unit) shape(figs, frontage int, front engine.Vec, h engine.Heading) engine.Base {
	fw, fd := u.Profile.figureSize()
	files := min(frontage, max(figs, 1))
	b := engine.Base{Width: float64(files) * fw, Depth: float64(ranks(figs, frontage)) * fd, Facing: h}
	return b.WithFrontCenter(front)
}

// reshape refits the base to the figures left, keeping the front centre
// and facing: losses come off the rear rank.
func (u *Unit) reshape() {
	if u.Total() == 0 {
		return
	}
	u.Base = u.shape(u.Total(), u.Frontage, u.Base.FrontCenter(), u.Base.Facing)
}

// kill takes n active figures off the unit; a unit with none left that
// can fight is destroyed, its paralyzed figures with it.
func (u *Unit) kill(n int) {
	u.Figures = max(0, u.Figures-n)
	if u.Figures == 0 {
		u.Damage, u.Paralyzed, u.Numb, u.Later = 0, 0, 0, 0
		u.Status, u.Lost = Gone, Destroyed
		return
	}
	u.reshape()
}

// Allowance is the unit's move this turn, on foot or in the air; the
// haste and slow spells double and halve it.
func (u *Unit) Allowance(turn int, air bool) float64 {
	mv := u.Profile.MV
	if air {
		mv = u.Profile.Fly
	}
	return u.scaled(turn, mv)
}

// moraleRating is the unit's MR, one lower when it is tired (Fatigue).
func (u *Unit) moraleRating() int {
	if u.Tired {
		return u.Profile.MR - 1
	}
	return u.Profile.MR
}

// ChargeReach is the unit's charge move this turn (Profile.ChargeMove).
func (u *Unit) ChargeReach(turn int) float64 { return u.scaled(turn, u.Profile.ChargeMove()) }

func (u *Unit) scaled(turn int, d float64) float64 {
	if u.Haste >= turn {
		d *= 2
	}
	if u.Slow >= turn {
		d /= 2
	}
	return d
}

// State is a battle of Goliath.
type State struct {
	Master  engine.PlayerID `json:"master"`
	Options Options         `json:"options"`
	Stage   Stage           `json:"stage"`
	Turn    int             `json:"turn"`
	Armies  []Army          `json:"armies"`
	Units   []Unit          `json:"units"`
	Terrain []Feature       `json:"terrain,omitempty"`
	Custom  []Type          `json:"custom,omitempty"` // types the referee defined
	// Bots are the players the bot holds the armies to come as, while
	// the battle musters (opponent:bot or bots).
	Bots []engine.PlayerID `json:"bots,omitempty"`
	// First is the side that moves and shoots first this turn (Method
	// 1); Active is the side whose part of the phase it is; Chooser won
	// the initiative roll and is choosing.
	First   Side `json:"first"`
	Active  Side `json:"active"`
	Chooser Side `json:"chooser"`
	// Orders are this turn's written orders (Method 2), sealed until
	// both sides are done; Pending lists the units whose orders wait for
	// the referee.
	Orders  []Order  `json:"orders,omitempty"`
	Pending []string `json:"pending,omitempty"`
	// Darkness are areas a spell darkened; Lights areas a spell lit.
	Darkness []Area `json:"darkness,omitempty"`
	Lights   []Area `json:"lights,omitempty"`
	Result   string `json:"result,omitempty"`
}

// Area is a circle a spell lies on until the end of turn Until.
type Area struct {
	At     engine.Vec `json:"at"`
	Radius float64    `json:"radius"`
	Until  int        `json:"until"`
}

func (a Area) covers(b engine.Base) bool {
	return a.At.Dist(b.Center) <= a.Radius || b.Contains(a.At)
}

func (s *State) Apply(e engine.Event) error { return engine.Fold(s, e) }
func (s *State) Clone() engine.State        { return engine.Copy(s) }
func (s *State) Over() bool                 { return s.Stage == Over }

// Unit returns the unit named id, or nil.
func (s *State) Unit(id string) *Unit {
	for i := range s.Units {
		if strings.EqualFold(s.Units[i].ID, id) {
			return &s.Units[i]
		}
	}
	return nil
}

func (s *State) mustUnit(id string) (*Unit, error) {
	if u := s.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("goliath: no unit %q", id)
}

// findUnit finds a unit a player named, or refuses in game terms.
func (s *State) findUnit(name string) (*Unit, error) {
	name = strings.TrimSpace(name)
	if u := s.Unit(name); u != nil {
		return u, nil
	}
	return nil, engine.Refuse("", "There is no unit %q; /status lists yours.", name)
}

// army returns the side's army, or nil before it is raised.
func (s *State) army(side Side) *Army {
	if int(side) < len(s.Armies) {
		return &s.Armies[side]
	}
	return nil
}

func (s *State) armyName(side Side) string {
	if a := s.army(side); a != nil {
		return a.Name
	}
	return side.String()
}

// sideOf finds the side the actor leads; a player leading both (a solo
// game) is taken as prefer.
func (s *State) sideOf(actor engine.PlayerID, prefer Side) (Side, bool) {
	var found []Side
	for i, a := range s.Armies {
		if a.Player == actor {
			found = append(found, Side(i))
		}
	}
	switch len(found) {
	case 0:
		return 0, false
	case 1:
		return found[0], true
	}
	return prefer, true
}

// own finds a unit of the actor's, or refuses.
func (s *State) own(actor engine.PlayerID, name string) (*Unit, error) {
	u, err := s.findUnit(name)
	if err != nil {
		return nil, err
	}
	if a := s.army(u.Side); a == nil || a.Player != actor {
		return nil, engine.Refuse("", "%s is not yours to command.", u.ID)
	}
	return u, nil
}

// inPlay lists a side's units on the table.
func (s *State) inPlay(side Side) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && u.In() {
			out = append(out, u)
		}
	}
	return out
}

// touching lists the enemies in contact with u.
func (s *State) touching(u *Unit) []*Unit {
	var out []*Unit
	for _, e := range s.inPlay(u.Side.Other()) {
		if u.Base.Near(e.Base, engine.ContactTolerance) && u.Base.Touches(e.Base) {
			out = append(out, e)
		}
	}
	return out
}

// engaged reports a unit in contact with an enemy: in melee.
func (s *State) engaged(u *Unit) bool { return len(s.touching(u)) > 0 }

// others returns the bases of every unit on the table but u, and the
// units.
func (s *State) others(u *Unit) ([]engine.Base, []*Unit) {
	var bases []engine.Base
	var units []*Unit
	for i := range s.Units {
		o := &s.Units[i]
		if o != u && o.In() {
			bases, units = append(bases, o.Base), append(units, o)
		}
	}
	return bases, units
}

// onTable reports whether the base lies wholly on the table.
func (s *State) onTable(b engine.Base) bool { return b.Within(s.Options.Width, s.Options.Depth) }

// points is what a side's units cost, and what is left of it on the
// table in good order or routing.
//
// The points lost are the figures that left the unit, slain,
// surrendered, fled or removed, at their cost, up to what the unit cost:
// those it began with and those risen in its ranks (SA 12), less those
// it still has free to fight. The risen are no gain: raising the dead
// does not make up for the figures a unit has lost. Figures still
// paralyzed (SA 7a, 7b) are lost here as they are for the unit's morale
// (heavy losses): the battle ends with them out of the fight.
func (s *State) points(side Side) (left, all float64) {
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != side {
			continue
		}
		start := u.Profile.Pts * float64(u.Start)
		all += start
		now := 0
		if u.In() {
			now = u.Figures
		}
		lost := max(u.Start+u.Raised-now, 0)
		left += max(start-u.Profile.Pts*float64(lost), 0)
	}
	return left, all
}

func inches(f float64) string { return engine.Decimal(f) + "\"" }

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }

func signed(n int) string {
	if n >= 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}
