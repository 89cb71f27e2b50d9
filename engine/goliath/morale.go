package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Morale (Morale Check): 2D6 + MR when charged, after melee and after
// heavy losses; back a move, rout a move and a half, or surrender. Rout
// and rally by the turn of rout.

// Result is what a morale check decides.
type Result uint8

const (
	Holds     Result = iota // 6 or more: it stands, the melee goes on
	FallsBack               // 3 to 5: back one move
	Routs                   // 0 to 2: rout a move and a half
	Surrender               // below 0: it surrenders
)

var resultNames = [...]string{"holds", "falls back a move", "routs", "surrenders"}

func (r Result) String() string { return resultNames[r] }

func result(score int) Result {
	switch {
	case score >= 6:
		return Holds
	case score >= 3:
		return FallsBack
	case score >= 0:
		return Routs
	}
	return Surrender
}

// Heavy losses by armour class (Heavy Losses): the percentage of the
// figures a unit had at the start of the turn that, lost in the turn,
// makes it check, and the penalty to that check. The percentages are the
// table's as printed, 25, 33 and 50: medium armour checks at 33%, which
// is a hair under a third (33 of 100 figures), not at a third
// (RULINGS.md, goliath, "heavy losses").
func heavyLoss(a Armor) (percent, penalty int) {
	switch a {
	case Light:
		return 25, -2
	case Medium:
		return 33, -1
	}
	return 50, 0
}

// MoraleTested is one morale check.
type MoraleTested struct {
	Unit   string `json:"unit"`
	Label  string `json:"label"`
	Why    string `json:"why"`
	Roll   int    `json:"roll"` // the 2D6
	MR     int    `json:"mr"`
	Mod    int    `json:"mod,omitempty"` // other modifiers, summed
	Notes  string `json:"notes,omitempty"`
	Heavy  bool   `json:"heavy,omitempty"` // it counts as this turn's heavy-losses check
	Score  int    `json:"score"`
	Result Result `json:"result"`
}

// Shifted is a unit moved by morale: falling back, routing, or fleeing
// on after failing to rally. Fled says it left the table.
type Shifted struct {
	Unit string      `json:"unit"`
	Why  string      `json:"why"`
	From engine.Base `json:"from"`
	To   engine.Base `json:"to"`
	Dist float64     `json:"dist"`
	Fled bool        `json:"fled,omitempty"`
}

// Rallied is a routed unit's attempt to rally at the start of a turn.
type Rallied struct {
	Unit     string      `json:"unit"`
	Label    string      `json:"label"`
	RoutTurn int         `json:"routTurn"`
	Roll     int         `json:"roll,omitempty"` // 0 when none was needed
	Need     string      `json:"need"`
	Rallied  bool        `json:"rallied,omitempty"`
	Removed  bool        `json:"removed,omitempty"`
	Base     engine.Base `json:"base"` // facing the enemy again, when rallied
}

func (MoraleTested) Kind() string { return "goliath.morale-tested" }
func (Shifted) Kind() string      { return "goliath.shifted" }
func (Rallied) Kind() string      { return "goliath.rallied" }

var moraleBodies = engine.BodyTypes{
	MoraleTested{}.Kind(): engine.Decoder[MoraleTested](),
	Shifted{}.Kind():      engine.Decoder[Shifted](),
	Rallied{}.Kind():      engine.Decoder[Rallied](),
}

func (b MoraleTested) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	if b.Heavy {
		u.Shaken = true
	}
	if strings.Contains(b.Why, "SA 5") {
		u.Feared = true
	}
	switch b.Result {
	case Routs:
		u.Status, u.RoutTurn, u.Attacked = Routed, 0, false
	case Surrender:
		u.Status, u.Lost = Gone, Surrendered
	}
	return nil
}

func (b MoraleTested) Text() string {
	mods := fmt.Sprintf("MR %s", signed(b.MR))
	if b.Mod != 0 {
		mods += fmt.Sprintf(" %s", signed(b.Mod))
	}
	if b.Notes != "" {
		mods += " (" + b.Notes + ")"
	}
	return fmt.Sprintf("%s checks morale %s: 2D6 %d, %s = %d: it %s.", b.Label, b.Why, b.Roll, mods, b.Score, b.Result)
}

func (b Shifted) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Base = b.To
	if b.Dist >= 0.05 {
		u.GaveGround = true
		u.Driven += b.Dist
	}
	if b.Fled {
		u.Status, u.Lost = Gone, Fled
	}
	return nil
}

func (b Shifted) Text() string {
	if b.Fled {
		return fmt.Sprintf("%s %s off the table and is lost.", b.Unit, b.Why)
	}
	if b.Dist < 0.05 {
		return fmt.Sprintf("%s is hemmed in and cannot give ground.", b.Unit)
	}
	return fmt.Sprintf("%s %s %s to %s, facing %s.", b.Unit, b.Why, inches(b.Dist), b.To.FrontCenter(), b.To.Facing)
}

func (b Rallied) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.RoutTurn = b.RoutTurn
	switch {
	case b.Removed:
		u.Status, u.Lost = Gone, Dispersed
	case b.Rallied:
		u.Status, u.RoutTurn, u.Attacked, u.Base, u.Rallying = Steady, 0, false, b.Base, true
	}
	return nil
}

func (b Rallied) Text() string {
	roll := ""
	if b.Roll > 0 {
		roll = fmt.Sprintf(": D6 %d", b.Roll)
	}
	switch {
	case b.Removed:
		return fmt.Sprintf("%s has routed for %d turns and is removed from play (Rout and Rally).", b.Label, b.RoutTurn)
	case b.Rallied:
		return fmt.Sprintf("%s tries to rally on turn %d of its rout, needing %s%s: it rallies and faces %s, and spends this turn rallying: it may neither move nor attack until the next.", b.Label, b.RoutTurn, b.Need, roll, b.Base.Facing)
	}
	return fmt.Sprintf("%s tries to rally on turn %d of its rout, needing %s%s: it fails and routs on.", b.Label, b.RoutTurn, b.Need, roll)
}

// test makes u check morale for why. heavy folds this turn's heavy
// losses check into it when its losses call for one. It carries out the
// result: the moves back or in rout. A unit that never checks morale
// (MR +4) does not test.
func (s *State) test(tx *engine.Tx, u *Unit, why string, withHeavy bool) (Result, error) {
	if !u.In() || u.Profile.Steadfast() {
		return Holds, nil
	}
	if u.Status == Routed {
		// A routing unit checks no more: it rallies or routs on at the
		// start of the next turn (Rout and Rally).
		return Routs, nil
	}
	b := MoraleTested{Unit: u.ID, Label: u.Label(), Why: why, MR: u.Profile.MR}
	var notes []string
	if u.Tired {
		b.Mod--
		notes = append(notes, "-1 tired")
	}
	if withHeavy && s.heavyDue(u) {
		_, pen := heavyLoss(u.Profile.Armor())
		b.Heavy = true
		b.Mod += pen
		notes = append(notes, fmt.Sprintf("%s heavy losses", signed(pen)))
	}
	if h := s.inspirer(u); h != "" {
		b.Mod++
		notes = append(notes, "+1 "+h+" near (SA 4)")
	}
	b.Notes = strings.Join(notes, ", ")
	tx.Why(u.Label() + "'s morale")
	b.Roll = tx.Roll(engine.TwoD6)
	b.Score = b.Roll + b.MR + b.Mod
	b.Result = result(b.Score)
	if err := tx.Emit(b); err != nil {
		return 0, err
	}
	switch b.Result {
	case FallsBack:
		return b.Result, s.shift(tx, u, "falls back", u.Profile.MV, false)
	case Routs:
		return b.Result, s.shift(tx, u, "routs", 1.5*u.Profile.MV, true)
	}
	return b.Result, nil
}

// heavyDue reports whether u has lost, this turn, the share of its
// figures its armour class counts as heavy losses, and has not yet
// checked for them.
func (s *State) heavyDue(u *Unit) bool {
	if u.Shaken || u.TurnFigs == 0 {
		return false
	}
	percent, _ := heavyLoss(u.Profile.Armor())
	lost := u.TurnFigs - u.Figures
	// In whole numbers, so that no rounding decides: 4 of 12 (33.3%) is
	// heavy for medium armour, 3 of 12 (25%) is not.
	return lost*100 >= percent*u.TurnFigs
}

// checkHeavy makes each unit named that has taken heavy losses check for
// them, once a turn, and returns the worst result.
func (s *State) checkHeavy(tx *engine.Tx, ids ...string) (Result, error) {
	worst := Holds
	for _, id := range ids {
		u := s.Unit(id)
		if u == nil || !u.In() || !s.heavyDue(u) || u.Profile.Steadfast() {
			continue
		}
		r, err := s.test(tx, u, "for its losses", true)
		if err != nil {
			return worst, err
		}
		worst = max(worst, r)
	}
	return worst, nil
}

// inspirer names a friend with SA 4 within 6" of u, or "".
func (s *State) inspirer(u *Unit) string {
	for _, f := range s.inPlay(u.Side) {
		if f != u && f.Status == Steady && f.Profile.Has(Inspiring) && f.Base.Gap(u.Base) <= inspireRange {
			return f.ID
		}
	}
	return ""
}

// inspireRange is how near a figure with SA 4 raises its friends' morale
// (RULINGS.md, goliath, "special abilities").
const inspireRange = 6

// shift moves u toward its own edge by dist: keeping its facing when it
// falls back, turned about when it routs. It stops against another unit;
// a rout that reaches the edge leaves the table.
func (s *State) shift(tx *engine.Tx, u *Unit, why string, dist float64, rout bool) error {
	if !u.In() {
		return nil
	}
	home := u.Side.forward().Reverse()
	b := u.Base
	if rout {
		b = b.WithFacing(home)
	}
	to := b.WithCenter(b.Center.Add(home.Vec().Scale(dist)))
	bases, units := s.others(u)
	// An enemy it is in contact with does not hold it when it goes away
	// from him (Sweep lets a base leave one it only touches), but one
	// that stands in its way stops it like any unit: a unit struck from
	// behind cannot fall back or rout through its attackers (RULINGS.md,
	// goliath, "results"). Turning about to rout does not of itself
	// catch it on an enemy it touches.
	var ahead []engine.Base
	for i, o := range bases {
		if b.Clashes(o) && !u.Base.Clashes(o) && units[i].Side != u.Side {
			continue
		}
		ahead = append(ahead, o)
	}
	frac, _ := b.Sweep(to.Center, ahead...)
	end := b.WithCenter(b.Center.Lerp(to.Center, frac))
	fled := false
	if !s.onTable(end) {
		if rout {
			fled = true
		} else {
			end = s.clampToTable(end)
		}
	}
	return tx.Emit(Shifted{Unit: u.ID, Why: why, From: u.Base, To: end, Dist: b.Center.Dist(end.Center), Fled: fled})
}

// clampToTable moves a base the least way to stand wholly on the table.
func (s *State) clampToTable(b engine.Base) engine.Base {
	minX, minY, maxX, maxY := b.Center.X, b.Center.Y, b.Center.X, b.Center.Y
	for _, c := range b.Corners() {
		minX, minY, maxX, maxY = min(minX, c.X), min(minY, c.Y), max(maxX, c.X), max(maxY, c.Y)
	}
	dx, dy := 0.0, 0.0
	if minX < 0 {
		dx = -minX
	} else if maxX > s.Options.Width {
		dx = s.Options.Width - maxX
	}
	if minY < 0 {
		dy = -minY
	} else if maxY > s.Options.Depth {
		dy = s.Options.Depth - maxY
	}
	return b.WithCenter(b.Center.Add(engine.Vec{X: dx, Y: dy}))
}

// rally tries to rally every routed unit at the start of a turn (Rout
// and Rally): on the first turn it rallies by itself unless attacked
// (then on 1-2), on the second on 3-6, on the third on 6; on the fourth
// it is removed. A unit that fails routs a move and a half more.
func (s *State) rally(tx *engine.Tx) error {
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() || u.Status != Routed {
			continue
		}
		b := Rallied{Unit: u.ID, Label: u.Label(), RoutTurn: u.RoutTurn + 1, Base: u.Base}
		ok := func(r int) bool { return false }
		switch b.RoutTurn {
		case 1:
			if u.Attacked {
				b.Need, ok = "1-2, having been attacked", func(r int) bool { return r <= 2 }
			} else {
				b.Need = "nothing, not having been attacked"
				b.Rallied = true
			}
		case 2:
			b.Need, ok = "3-6", func(r int) bool { return r >= 3 }
		case 3:
			b.Need, ok = "6", func(r int) bool { return r == 6 }
		default:
			b.Removed = true
		}
		if b.Need != "" && !b.Rallied {
			b.Roll = tx.Roll(engine.D6)
			b.Rallied = ok(b.Roll)
		}
		if b.Rallied {
			turned := u.Base.WithFacing(u.Side.forward())
			if s.roomFor(u, turned) == nil && s.onTable(turned) {
				b.Base = turned
			}
		}
		if err := tx.Emit(b); err != nil {
			return err
		}
		if !b.Rallied && !b.Removed {
			if err := s.shift(tx, u, "routs on", 1.5*u.Profile.MV, true); err != nil {
				return err
			}
		}
	}
	return nil
}
