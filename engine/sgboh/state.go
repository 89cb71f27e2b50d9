package sgboh

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Status is a unit's state (SGBOH 6.1: the counter's "Moved" side marks
// Disorder; 10.2 Rout).
type Status uint8

// The statuses.
const (
	Full Status = iota
	Disordered
	Routed
)

var statusNames = [...]string{Full: "full", Disordered: "disordered", Routed: "routed"}

func (st Status) String() string {
	if int(st) < len(statusNames) {
		return statusNames[st]
	}
	return fmt.Sprintf("status(%d)", st)
}

// Unit is one combat unit: a counter on the map.
type Unit struct {
	ID   string `json:"id"`   // what players type: "PH1"
	Name string `json:"name"` // the counter's top line: "Companions", "Scythian"
	Type Type   `json:"type"`
	Side int    `json:"side"`
	// Line is the scenario's unit "type" a leader activates (4.2):
	// "Phalanx", "Cavalry".
	Line       string           `json:"line"`
	TQ         int              `json:"tq"`
	Size       int              `json:"size"`
	MA         int              `json:"ma"`
	Missile    Missile          `json:"missile,omitempty"`
	Star       bool             `json:"star,omitempty"`       // SK* (9.3)
	Cataphract bool             `json:"cataphract,omitempty"` // HC (matrix note b)
	Deep       bool             `json:"deep,omitempty"`       // double-depth PH (9.62)
	Hex        engine.Hex       `json:"hex"`
	Facing     engine.HexFacing `json:"facing"`
	Status     Status           `json:"status,omitempty"`
	Hits       int              `json:"hits,omitempty"` // missile hits (8.15)
	Engaged    bool             `json:"engaged,omitempty"`
	OffMap     bool             `json:"offmap,omitempty"` // pursuing off the map (8.3)
	Gone       bool             `json:"gone,omitempty"`   // eliminated

	// What it has done in the activation under way.
	Act      bool `json:"act,omitempty"`      // activated
	Moved    bool `json:"moved,omitempty"`    // moved (or hit and ran)
	Fired    bool `json:"fired,omitempty"`    // fired
	Fought   bool `json:"fought,omitempty"`   // shocked
	Rallied  bool `json:"rallied,omitempty"`  // rallied voluntarily
	Faced    bool `json:"faced,omitempty"`    // tried a reaction facing (7.16)
	Reacted  bool `json:"reacted,omitempty"`  // fired in reaction (8.2)
	Withdrew bool `json:"withdrew,omitempty"` // made an orderly withdrawal (6.7)
	Shaken   bool `json:"shaken,omitempty"`   // disordered or routed in it
}

// On reports whether the unit stands on the map.
func (u *Unit) On() bool { return !u.Gone && !u.OffMap }

// Label is the unit as the log names it: "PH1 (Pezhetairoi PH)".
func (u *Unit) Label() string { return fmt.Sprintf("%s (%s %s)", u.ID, u.Name, u.Type) }

// lockedOut reports whether the unit may do nothing on its own: routed
// units only rout (10.25).
func (u *Unit) lockedOut() bool { return u.Status == Routed }

// quality is the unit's TQ as it stands: a routed unit has a TQ of 1
// (10.27 reminds the players of it), whatever its counter prints.
func (u *Unit) quality() int {
	if u.Status == Routed {
		return 1
	}
	return u.TQ
}

// Leader is a leader counter (SGBOH 4.1).
type Leader struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Side       int        `json:"side"`
	Initiative int        `json:"initiative"`
	Range      int        `json:"range"` // command range in hexes
	MA         int        `json:"ma"`
	Elite      bool       `json:"elite,omitempty"`
	Wing       bool       `json:"wing,omitempty"`  // a wing commander (5.6)
	Under      string     `json:"under,omitempty"` // a contingent commander's WC
	Hex        engine.Hex `json:"hex"`
	Dead       bool       `json:"dead,omitempty"`
	Captured   bool       `json:"captured,omitempty"`
	Moved      bool       `json:"moved,omitempty"`
}

// In reports whether the leader is still in the battle.
func (l *Leader) In() bool { return !l.Dead && !l.Captured }

// fate says how a leader out of the battle left it.
func (l *Leader) fate() string {
	if l.Dead {
		return "dead"
	}
	return "captured"
}

// Army is one side: who plays it, which map edge it flees to, and when
// it withdraws (10.4).
type Army struct {
	Name   string          `json:"name"`
	Player engine.PlayerID `json:"player,omitempty"`
	// Edge is the map edge its routed units run for: N, S, E or W.
	Edge     string `json:"edge"`
	Withdraw int    `json:"withdraw"` // rout points at which it withdraws
	First    bool   `json:"first,omitempty"`
}

// Stage is where the sequence of play stands (SGBOH 3.1).
type Stage uint8

// The stages.
const (
	SettingUp  Stage = iota // the map and the armies are laid out
	Free                    // a side activates any leader or group, no roll (3.2)
	Acting                  // an activation is under way
	Continuity              // the side that went may roll to go again, or pass
	Over
)

var stageNames = [...]string{SettingUp: "setting up", Free: "free activation", Acting: "activation", Continuity: "continuity", Over: "over"}

func (st Stage) String() string {
	if int(st) < len(stageNames) {
		return stageNames[st]
	}
	return fmt.Sprintf("stage(%d)", st)
}

// Flow is the sequence of play: whose activation, what it commands, and
// what the game waits on.
type Flow struct {
	Stage Stage `json:"stage"`
	Side  int   `json:"side"` // the side acting or to act
	Run   int   `json:"run"`  // its activations in a row (3.2, exception 1)
	// NoRoll marks an activation given by the three-in-a-row rule: after
	// it play passes back, and the other side rolls (3.2).
	NoRoll bool   `json:"noroll,omitempty"`
	Leader string `json:"leader,omitempty"` // the activated leader
	Wing   string `json:"wing,omitempty"`   // the wing commander who passed to him (5.6)
	Line   string `json:"line,omitempty"`   // the unit type he commands, once chosen
	// Group is a leaderless group's units (3.2, exception 2).
	Group []string `json:"group,omitempty"`
	// Just are the leaders who went in the activation just ended, and
	// Again whether that was an elite leader's second in a row.
	Just  []string `json:"just,omitempty"`
	Again bool     `json:"again,omitempty"`
	Count int      `json:"count"` // activations so far
	// Attacks are the declared shocks not yet resolved (8.3), and Queue
	// the questions the game waits on, the first asked now.
	Attacks []Attack   `json:"attacks,omitempty"`
	Queue   []Question `json:"queue,omitempty"`
	// Vacated are hexes an attack emptied, where its attackers may
	// advance (8.5).
	Vacated []Advance `json:"vacated,omitempty"`
	Shocked bool      `json:"shocked,omitempty"` // attacks were declared
}

// Attack is one declared shock: attackers against one defender.
type Attack struct {
	By   []string `json:"by"`
	On   string   `json:"on"`
	Step int      `json:"step,omitempty"` // 0 to ask retreat; 1 to ask fire; 2 to roll
}

// Advance is a hex emptied by a retreat or rout, and who may enter it.
type Advance struct {
	Hex engine.Hex `json:"hex"`
	By  []string   `json:"by"`
}

// Question is a choice the game waits on.
type Question struct {
	Kind string `json:"kind"` // withdraw, face, evade, fire, pursue
	Side int    `json:"side"` // who answers
	Unit string `json:"unit"` // his unit concerned
	Foe  string `json:"foe"`  // the enemy unit that prompted it
	// Targets are the attackers reaction fire may choose; To the hex a
	// retreat before combat or an orderly withdrawal goes to.
	Targets []string   `json:"targets,omitempty"`
	To      engine.Hex `json:"to,omitempty"`
}

// State is a battle of Simple GBoH.
type State struct {
	Master   engine.PlayerID `json:"master"`
	Scenario string          `json:"scenario,omitempty"`
	Cols     int             `json:"cols"`
	Rows     int             `json:"rows"`
	Cells    Cells           `json:"cells"`
	Features Features        `json:"features,omitzero"`
	Armies   []Army          `json:"armies"`
	// Bots are the players the bot holds sides as while the battle is
	// set up (opponent:bot or bots).
	Bots    []engine.PlayerID `json:"bots,omitempty"`
	Leaders []Leader          `json:"leaders"`
	Units   []Unit            `json:"units"`
	Flow    Flow              `json:"flow"`
	Result  string            `json:"result,omitempty"`
}

// Apply folds an event into the state.
func (s *State) Apply(e engine.Event) error { return engine.Fold(s, e) }

// Clone returns an independent copy.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s // the map is shared: it is never changed in place (terrain.go)
	c.Armies = slices.Clone(s.Armies)
	c.Bots = slices.Clone(s.Bots)
	c.Leaders = slices.Clone(s.Leaders)
	c.Units = slices.Clone(s.Units)
	c.Flow = s.Flow.clone()
	return &c
}

func (f Flow) clone() Flow {
	f.Group = slices.Clone(f.Group)
	f.Just = slices.Clone(f.Just)
	f.Attacks = slices.Clone(f.Attacks)
	for i := range f.Attacks {
		f.Attacks[i].By = slices.Clone(f.Attacks[i].By)
	}
	f.Queue = slices.Clone(f.Queue)
	for i := range f.Queue {
		f.Queue[i].Targets = slices.Clone(f.Queue[i].Targets)
	}
	f.Vacated = slices.Clone(f.Vacated)
	for i := range f.Vacated {
		f.Vacated[i].By = slices.Clone(f.Vacated[i].By)
	}
	return f
}

// Over reports whether the battle has ended.
func (s *State) Over() bool { return s.Flow.Stage == Over }

// unit returns the unit named id (any case).
func (s *State) unit(id string) *Unit {
	for i := range s.Units {
		if strings.EqualFold(s.Units[i].ID, strings.TrimSpace(id)) {
			return &s.Units[i]
		}
	}
	return nil
}

// leader returns the leader named id (any case).
func (s *State) leader(id string) *Leader {
	for i := range s.Leaders {
		if strings.EqualFold(s.Leaders[i].ID, strings.TrimSpace(id)) {
			return &s.Leaders[i]
		}
	}
	return nil
}

// at returns the combat unit on the map in h, or nil.
func (s *State) at(h engine.Hex) *Unit {
	for i := range s.Units {
		if u := &s.Units[i]; u.On() && u.Hex == h {
			return u
		}
	}
	return nil
}

// leaderWith returns a leader of side in hex h, or nil.
func (s *State) leaderAt(side int, h engine.Hex) *Leader {
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.In() && l.Side == side && l.Hex == h {
			return l
		}
	}
	return nil
}

// leadersAt returns every leader of side in hex h, in the order set up:
// leaders may share a hex, and each in a fight rolls for his life (8.34).
func (s *State) leadersAt(side int, h engine.Hex) []*Leader {
	var out []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.In() && l.Side == side && l.Hex == h {
			out = append(out, l)
		}
	}
	return out
}

// armyOf returns the side a player leads, or -1.
func (s *State) armyOf(p engine.PlayerID) int {
	for i, a := range s.Armies {
		if a.Player == p {
			return i
		}
	}
	return -1
}

// foe returns the other side.
func foe(side int) int { return 1 - side }

// name returns a side's army name.
func (s *State) name(side int) string {
	if side < 0 || side >= len(s.Armies) {
		return fmt.Sprintf("side %d", side+1)
	}
	return s.Armies[side].Name
}

// enemiesNext returns the enemy combat units on the map next to h.
func (s *State) enemiesNext(side int, h engine.Hex) []*Unit {
	var out []*Unit
	for _, n := range h.Neighbors() {
		if e := s.at(n); e != nil && e.Side != side {
			out = append(out, e)
		}
	}
	return out
}

// inFront returns the enemy units in u's frontal hexes.
func (s *State) inFront(u *Unit) []*Unit {
	var out []*Unit
	for _, h := range engine.FrontHexes(u.Hex, u.Facing) {
		if e := s.at(h); e != nil && e.Side != u.Side {
			out = append(out, e)
		}
	}
	return out
}

// inRange reports whether a unit in h is within the leader's command
// range.
func (l *Leader) inRange(h engine.Hex) bool { return engine.HexDistance(l.Hex, h) <= l.Range }

// losses returns a side's rout points: the TQ of each unit eliminated
// (including those gone off the map routing) and twice the initiative of
// each leader killed or captured (our ruling on 10.4).
func (s *State) losses(side int) int {
	n := 0
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && u.Gone {
			n += u.TQ
		}
	}
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && !l.In() {
			n += 2 * l.Initiative
		}
	}
	return n
}
