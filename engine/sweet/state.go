package sweet

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Stage is where a game stands: mustering the armies, deploying them, or
// one stage of a turn (the turn sequence, 1 to 5), or over.
type Stage uint8

const (
	Mustering Stage = iota // the book is open; the two armies are chosen
	Deploying              // both sides set out their units
	Catapults              // turn sequence 1: both sides' catapults shoot
	Missiles               // turn sequence 2: both sides' missile troops shoot
	Movement               // turn sequence 3: the attacker moves
	Supports               // turn sequence 3 and 4: supports, attacker then defender
	Melees                 // turn sequence 5: melee deployment indicators, then results
	Over                   // the game has ended
)

var stageNames = [...]string{"mustering", "deployment", "catapult fire", "missile fire", "movement", "supports", "melee", "over"}

func (s Stage) String() string { return stageNames[s] }

// Side is one of the two armies: South deploys along the near edge (row
// 1), North along the far edge.
type Side int

const (
	South Side = iota
	North
	Nobody Side = -1 // an abandoned catapult
)

// Other is the opposing side.
func (s Side) Other() Side { return 1 - s }

// Back is the direction toward the side's own baseline, where it
// retreats.
func (s Side) Back() engine.Dir8 {
	if s == North {
		return engine.North
	}
	return engine.South
}

func (s Side) String() string {
	switch s {
	case South:
		return "south"
	case North:
		return "north"
	}
	return "nobody"
}

// UnitID names a unit: its army's tag and a number, "ROM-3".
type UnitID string

// Army is one side's army.
type Army struct {
	Player engine.PlayerID `json:"player"`
	Name   string          `json:"name"`
	Tag    string          `json:"tag"`
	Points int             `json:"points"`         // as mustered
	Done   bool            `json:"done,omitempty"` // finished its part of the stage
}

// Unit is a unit on (or off) the board.
type Unit struct {
	ID     UnitID        `json:"id"`
	Type   Type          `json:"type"`
	Side   Side          `json:"side"`
	Stands int           `json:"stands"`
	Full   int           `json:"full"`
	Guard  bool          `json:"guard,omitempty"`
	At     engine.Square `json:"at"`
	Facing engine.Dir8   `json:"facing"`
	Placed bool          `json:"placed,omitempty"`
	Off    bool          `json:"off,omitempty"`  // retreated off the board (Morale 2)
	Gone   bool          `json:"gone,omitempty"` // destroyed or every stand lost

	// This turn's record.
	Moved   bool `json:"moved,omitempty"`
	Charged bool `json:"charged,omitempty"` // charged into its contact square
	Balked  bool `json:"balked,omitempty"`  // an elephant that would not charge
	Rolled  bool `json:"rolled,omitempty"`  // an elephant that rolled to charge this turn
	Fired   bool `json:"fired,omitempty"`
	Manned  bool `json:"manned,omitempty"` // manned a catapult that shot
	Fought  int  `json:"fought,omitempty"` // the turn of its last melee
	// Joined is the unit a light unit reformed with (Movement 3); its
	// stands are that unit's now, and it is gone.
	Joined UnitID `json:"joined,omitempty"`
	// FireStands are its stands when the shooting stage began: the two
	// sides shoot at once, so a unit shot to pieces still shoots back.
	FireStands int `json:"fire_stands,omitempty"`
	// SupportFacing is its facing when the supports stage began: a unit
	// turns in that stage only to face the melee it supports, so what it
	// may support is judged from the facing it had before.
	SupportFacing engine.Dir8 `json:"support_facing,omitempty"`
}

// Label is how narration names the unit: "ROM-3 (heavy infantry)".
func (u *Unit) Label() string { return fmt.Sprintf("%s (%s)", u.ID, u.Type.Name()) }

// OnBoard reports whether the unit stands on the board.
func (u *Unit) OnBoard() bool { return u.Placed && !u.Off && !u.Gone }

// Body reports whether the unit fills its square: any unit but a
// commander or a catapult (Movement 2).
func (u *Unit) Body() bool { return !u.Type.Sharer() }

// TerrainKind is what a square's terrain does.
type TerrainKind uint8

const (
	Open       TerrainKind = iota
	Road                   // Movement 1: one square more along a road
	Protected              // woods, buildings: cover (Missile Fire 3, Catapult Fire 4, Charging and Melee 8)
	Impassable             // no unit enters; blocks retreats
)

var terrainNames = [...]string{"open", "road", "protected", "impassable"}

func (k TerrainKind) String() string { return terrainNames[k] }

func parseTerrain(s string) (TerrainKind, bool) {
	i := slices.Index(terrainNames[:], strings.ToLower(s))
	if i <= 0 {
		return Open, false
	}
	return TerrainKind(i), true
}

// Cell is a square with terrain, and what the table calls the ground it
// belongs to (the farm, the wood), if anything.
type Cell struct {
	At   engine.Square `json:"at"`
	Kind TerrainKind   `json:"kind"`
	Name string        `json:"name,omitempty"`
}

// Melee is a contact square after movement (Charging and Melee 1): the
// side that moved in attacks; supports are declared, then each side picks
// a melee deployment indicator in secret.
type Melee struct {
	At       engine.Square `json:"at"`
	Attacker Side          `json:"attacker"`
	Supports [2][]UnitID   `json:"supports"`
	// Choice holds each side's sealed choice. Only the chooser's /status
	// shows it until both are in and the melee is resolved.
	Choice   [2]MDI `json:"choice"`
	Resolved bool   `json:"resolved,omitempty"`
}

// Options are what the book was opened with.
type Options struct {
	Cols   int `json:"cols"`
	Rows   int `json:"rows"`
	Points int `json:"points"` // the points total a built army may spend
	Turns  int `json:"turns"`  // the agreed length of the game (Morale 4)
}

// State is a game of these rules.
type State struct {
	Master   engine.PlayerID `json:"master"`
	Options  Options         `json:"options"`
	Stage    Stage           `json:"stage"`
	Armies   []Army          `json:"armies"`
	Units    []Unit          `json:"units"`
	Terrain  []Cell          `json:"terrain,omitempty"`
	Turn     int             `json:"turn"`
	Attacker Side            `json:"attacker"`
	// Supporting is the side now declaring supports.
	Supporting Side    `json:"supporting"`
	Melees     []Melee `json:"melees,omitempty"`
	// Ordered is set once the attacker has moved a unit this turn: its
	// movement has begun, and no elephant may roll to charge any more
	// (Charging and Melee 6).
	Ordered bool `json:"ordered,omitempty"`
	// Targets counts, per target unit, the units that shot at it this
	// stage (Missile Fire 3).
	Targets map[UnitID]int `json:"targets,omitempty"`
	// Result is what the game's end told the table, and Winner the side
	// it named the winner, Nobody for a draw; both are set once Stage is
	// Over (GameEnded).
	Result string `json:"result,omitempty"`
	Winner Side   `json:"winner,omitempty"`
	// Bots are the players the bot holds the armies to come as, while
	// the book musters (BookOpened).
	Bots []engine.PlayerID `json:"bots,omitempty"`
}

var _ engine.State = (*State)(nil)

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Stage == Over }

// Clone returns a copy of s that shares nothing with it. The bot copies
// a game for every command it weighs, so this is written out rather than
// left to engine.Copy's reflection; TestClonesShareNothing fills every
// field to catch one left out.
func (s *State) Clone() engine.State {
	c := *s
	c.Armies = slices.Clone(s.Armies)
	c.Units = slices.Clone(s.Units)
	c.Terrain = slices.Clone(s.Terrain)
	c.Melees = slices.Clone(s.Melees)
	for i := range c.Melees {
		for j := range c.Melees[i].Supports {
			c.Melees[i].Supports[j] = slices.Clone(c.Melees[i].Supports[j])
		}
	}
	c.Targets = maps.Clone(s.Targets)
	c.Bots = slices.Clone(s.Bots)
	return &c
}

// Unit returns the unit id, or nil.
func (s *State) Unit(id UnitID) *Unit {
	for i := range s.Units {
		if strings.EqualFold(string(s.Units[i].ID), string(id)) {
			return &s.Units[i]
		}
	}
	return nil
}

func (s *State) mustUnit(id UnitID) (*Unit, error) {
	if u := s.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("sweet: no unit %q in this game", id)
}

// At returns the units on the board in square q, bodies first.
func (s *State) At(q engine.Square) []*Unit {
	var out []*Unit
	for i := range s.Units {
		u := &s.Units[i]
		if u.OnBoard() && u.At == q {
			out = append(out, u)
		}
	}
	slices.SortStableFunc(out, func(a, b *Unit) int {
		return rankInSquare(a) - rankInSquare(b)
	})
	return out
}

func rankInSquare(u *Unit) int {
	switch {
	case u.Body():
		return 0
	case u.Type.IsLeader():
		return 1
	}
	return 2
}

// bodyAt returns the unit filling square q, or nil. (These three ask At
// without the list it makes: the first body in it is the first on the
// table, since bodies come first in the order they stand.)
func (s *State) bodyAt(q engine.Square) *Unit {
	for i := range s.Units {
		if u := &s.Units[i]; u.OnBoard() && u.At == q && u.Body() {
			return u
		}
	}
	return nil
}

// bodyOf returns side's unit filling square q, or nil: in a contact
// square each side has its own.
func (s *State) bodyOf(q engine.Square, side Side) *Unit {
	for i := range s.Units {
		if u := &s.Units[i]; u.OnBoard() && u.At == q && u.Body() && u.Side == side {
			return u
		}
	}
	return nil
}

// held reports whether a unit of side holds square q; catapults standing
// alone hold nothing.
func (s *State) held(q engine.Square, side Side) bool {
	for i := range s.Units {
		if u := &s.Units[i]; u.OnBoard() && u.At == q && u.Side == side && !u.Type.IsCatapult() {
			return true
		}
	}
	return false
}

// terrain returns the terrain of square q.
func (s *State) terrain(q engine.Square) TerrainKind {
	for _, c := range s.Terrain {
		if c.At == q {
			return c.Kind
		}
	}
	return Open
}

// onBoard reports whether q lies on the board.
func (s *State) onBoard(q engine.Square) bool { return q.Within(s.Options.Cols, s.Options.Rows) }

// army returns the army of side.
func (s *State) army(side Side) *Army {
	if side < 0 || int(side) >= len(s.Armies) {
		return nil
	}
	return &s.Armies[side]
}

// sideOf returns the side player leads; ok is false for a player who
// leads no army. A player who leads both (a solo game) acts for the side
// whose turn it is.
func (s *State) sideOf(p engine.PlayerID, prefer Side) (Side, bool) {
	var sides []Side
	for i, a := range s.Armies {
		if a.Player == p {
			sides = append(sides, Side(i))
		}
	}
	switch len(sides) {
	case 0:
		return 0, false
	case 2:
		return prefer, true
	}
	return sides[0], true
}

// armyName names side's army in narration.
func (s *State) armyName(side Side) string {
	if a := s.army(side); a != nil {
		return a.Name
	}
	return side.String()
}

// melee returns the unresolved melee at q, or nil.
func (s *State) melee(q engine.Square) *Melee {
	for i := range s.Melees {
		if s.Melees[i].At == q && !s.Melees[i].Resolved {
			return &s.Melees[i]
		}
	}
	return nil
}

// inMelee reports whether u fights in an unresolved melee this turn, in
// its contact square or in support, or already fought one this turn
// (Charging and Melee 2).
func (s *State) inMelee(u *Unit) bool {
	if u.Fought == s.Turn && s.Turn > 0 {
		return true
	}
	for _, m := range s.Melees {
		if m.Resolved {
			continue
		}
		if u.At == m.At && u.OnBoard() {
			return true
		}
		if slices.Contains(m.Supports[u.Side], u.ID) {
			return true
		}
	}
	return false
}

// shaken reports whether u must fall back on every move: a standard heavy
// infantry, heavy cavalry or light cavalry unit down to one stand, not a
// guard and with no commander beside it (Morale 1). Only losses reduce a
// unit: one made of a single stand by splitting (Movement 3) is not bound.
func (s *State) shaken(u *Unit) bool {
	if !u.Type.spec().Standard || u.Guard || u.Stands != 1 || u.Full <= 1 || !u.OnBoard() {
		return false
	}
	for _, o := range s.At(u.At) {
		if o.Side == u.Side && o.Type.IsLeader() {
			return false
		}
	}
	return true
}

// standing returns the points a side still has: every stand not lost,
// those that retreated off the board included (Morale 2 and 4).
func (s *State) standing(side Side) int {
	n := 0
	for _, u := range s.Units {
		if u.Side == side && !u.Gone {
			n += u.Stands * u.Type.spec().Points
		}
	}
	return n
}

// onTable reports whether side has any unit on the board other than
// catapults.
func (s *State) onTable(side Side) bool {
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side == side && u.OnBoard() && !u.Type.IsCatapult() {
			return true
		}
	}
	return false
}

// findUnit reads a unit a player typed.
func (s *State) findUnit(name string) (*Unit, error) {
	if name == "" {
		return nil, engine.Refuse("", "Name a unit, like ROM-3.")
	}
	if u := s.Unit(UnitID(strings.TrimSpace(name))); u != nil {
		return u, nil
	}
	return nil, engine.Refuse("", "There is no unit %q; /status lists them.", name)
}

// ownUnit reads a unit of the acting player's army that is on the board.
func (s *State) ownUnit(c engine.Command, opt string, side Side) (*Unit, error) {
	u, err := s.findUnit(c.Opt(opt))
	if err != nil {
		return nil, err
	}
	if u.Side != side {
		return nil, engine.Refuse("", "%s is not yours to command.", u.Label())
	}
	if !u.OnBoard() {
		return nil, engine.Refuse("", "%s is not on the board.", u.Label())
	}
	return u, nil
}

// Apply folds one event into the game.
func (s *State) Apply(e engine.Event) error { return engine.Fold(s, e) }
