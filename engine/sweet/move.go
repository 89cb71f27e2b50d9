package sweet

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Movement (Movement 1 to 6, Charging and Melee 1, 6, 7, Morale 1 and 3).
// The attacker moves each unit once, up to its move in squares: a step
// through a side costs 1 and a diagonal step 1.5; a move that starts, ends
// and runs wholly along a road goes one square farther. No unit passes an
// enemy, nor slips between two enemies that touch corners. Moving into an
// enemy's square is a charge, and the square becomes a contact square
// where a melee is fought.

// Moved is a unit's move.
type Moved struct {
	Unit   UnitID          `json:"unit"`
	Label  string          `json:"label"`
	Side   Side            `json:"side"`
	Path   []engine.Square `json:"path"` // from start to end, both included
	Facing engine.Dir8     `json:"facing"`
	Cost   float64         `json:"cost"`
	Road   bool            `json:"road,omitempty"`
	Charge bool            `json:"charge,omitempty"` // into a contact square
	// Towed is a catapult moved along with the unit (Movement 5).
	Towed UnitID `json:"towed,omitempty"`
	// TowedFacing is the facing the move gives the catapult, when it
	// names one (Movement 6); otherwise the catapult keeps its own.
	TowedFacing engine.Dir8 `json:"towed_facing,omitempty"`
	// RunDown are single infantry stands ridden down on the way (Morale 3).
	RunDown   []UnitID `json:"run_down,omitempty"`
	RunLabels []string `json:"run_labels,omitempty"`
	// Captured are catapults taken where the move ends.
	Captured  []UnitID `json:"captured,omitempty"`
	CapLabels []string `json:"cap_labels,omitempty"`
}

// ElephantRolled is an elephant's roll to charge, asked for before its
// side's movement begins: on 5 or 6 it stays where it is (Charging and
// Melee 6).
type ElephantRolled struct {
	Unit  UnitID `json:"unit"`
	Label string `json:"label"`
	Roll  int    `json:"roll"`
}

// Balks reports whether the elephant refuses.
func (b ElephantRolled) Balks() bool { return b.Roll >= 5 }

// Faced is a unit changing its facing, free of cost (Movement 6).
type Faced struct {
	Unit   UnitID      `json:"unit"`
	Label  string      `json:"label"`
	Facing engine.Dir8 `json:"facing"`
}

// FellBack is a unit falling back: from a melee (two squares) or as a
// unit down to one stand on its side's move (Morale 1). Diagonal steps
// count one square. Off is a unit that left the board over its own edge
// (Morale 2).
type FellBack struct {
	Unit   UnitID          `json:"unit"`
	Label  string          `json:"label"`
	Path   []engine.Square `json:"path"`
	Off    bool            `json:"off,omitempty"`
	Morale bool            `json:"morale,omitempty"`
	// Captured are catapults taken where the unit stops: a retreat
	// brings a stand into their square as a move does (Melee Procedure).
	Captured  []UnitID `json:"captured,omitempty"`
	CapLabels []string `json:"cap_labels,omitempty"`
}

func (Moved) Kind() string          { return "sweet.moved" }
func (ElephantRolled) Kind() string { return "sweet.elephant-rolled" }
func (Faced) Kind() string          { return "sweet.faced" }
func (FellBack) Kind() string       { return "sweet.fell-back" }

var moveBodies = engine.BodyTypes{
	Moved{}.Kind():          engine.Decoder[Moved](),
	ElephantRolled{}.Kind(): engine.Decoder[ElephantRolled](),
	Faced{}.Kind():          engine.Decoder[Faced](),
	FellBack{}.Kind():       engine.Decoder[FellBack](),
}

func (b Moved) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil || len(b.Path) == 0 {
		return fmt.Errorf("sweet: bad move of %q: %v", b.Unit, err)
	}
	end := b.Path[len(b.Path)-1]
	u.At, u.Facing, u.Moved = end, b.Facing, true
	s.Ordered = true
	for _, id := range b.RunDown {
		if err := s.lose(id, 1); err != nil {
			return err
		}
	}
	for _, id := range b.Captured {
		c, err := s.mustUnit(id)
		if err != nil {
			return err
		}
		c.Side = u.Side
	}
	if b.Towed != "" {
		c, err := s.mustUnit(b.Towed)
		if err != nil {
			return err
		}
		c.At, c.Moved = end, true
		if b.TowedFacing.Valid() {
			c.Facing = b.TowedFacing
		}
	}
	if b.Charge {
		u.Charged = true
		if s.melee(end) == nil {
			s.Melees = append(s.Melees, Melee{At: end, Attacker: u.Side})
		}
	}
	return nil
}

func (b ElephantRolled) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Rolled = true
	if b.Balks() {
		u.Balked, u.Moved = true, true
	}
	return nil
}

// movingUnit is the unit a command of the movement stage names by its
// "unit" option, with its side, refused unless it is that stage (rule and
// when tell the player when the command is given) and the unit's side is
// the attacker still moving (Turn Sequence 3).
func (s *State) movingUnit(c engine.Command, rule, when string) (Side, *Unit, error) {
	if s.Stage != Movement {
		return 0, nil, engine.Refuse(rule, "%s; it is now the %s stage.", when, s.Stage)
	}
	side, err := s.actingSide(c)
	if err != nil {
		return 0, nil, err
	}
	if side != s.Attacker || s.Armies[side].Done {
		return 0, nil, engine.Refuse("Turn Sequence 3", "Only the attacker moves, and this turn that is the %s until they are /done.", s.armyName(s.Attacker))
	}
	u, err := s.ownUnit(c, "unit", side)
	if err != nil {
		return 0, nil, err
	}
	return side, u, nil
}

// rollElephant rolls for an elephant its player means to charge with
// this turn, before any unit of the side has moved: the rules roll before
// movement, and only "if desired" (Charging and Melee 6). On 5 or 6 it
// stays where it is this turn; on 1 to 4 it may charge. An elephant not
// rolled for moves freely but may not charge.
func rollElephant(tx *engine.Tx, s *State, c engine.Command) error {
	side, u, err := s.movingUnit(c, "Charging and Melee 6", "Elephants roll to charge as their side's movement begins")
	if err != nil {
		return err
	}
	switch {
	case !u.Type.Elephant():
		return engine.Refuse("Charging and Melee 6", "Only elephants roll to charge; %s charges without one.", u.Label())
	case !u.OnBoard():
		return engine.Refuse("", "%s is not on the board.", u.Label())
	case u.Rolled:
		return engine.Refuse("Charging and Melee 6", "%s has rolled to charge this turn already; the roll stands.", u.Label())
	case u.Moved:
		return engine.Refuse("Charging and Melee 6", "%s has moved this turn.", u.Label())
	case s.Ordered:
		return engine.Refuse("Charging and Melee 6", "Elephants roll before movement, and the %s have begun to move this turn; %s may not charge now.", s.armyName(side), u.Label())
	}
	tx.Why(u.Label() + "'s roll to charge")
	return tx.Emit(ElephantRolled{Unit: u.ID, Label: u.Label(), Roll: tx.Roll(engine.D6)})
}

// enemyWithin reports whether an enemy unit stands within reach squares
// of u, counted as moves are.
func (s *State) enemyWithin(u *Unit, reach float64) bool {
	for i := range s.Units {
		o := &s.Units[i]
		if o.Side == u.Side.Other() && o.OnBoard() && engine.MoveCost(u.At, o.At) <= reach+1e-9 {
			return true
		}
	}
	return false
}

func (b Faced) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Facing = b.Facing
	return nil
}

func (b FellBack) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil || len(b.Path) == 0 {
		return fmt.Errorf("sweet: bad retreat of %q: %v", b.Unit, err)
	}
	u.At = b.Path[len(b.Path)-1]
	u.Off = b.Off
	if b.Morale {
		u.Moved = true
	}
	for _, id := range b.Captured {
		c, err := s.mustUnit(id)
		if err != nil {
			return err
		}
		c.Side = u.Side
	}
	return nil
}

// fellBack is the event of u falling back along path, taking the
// catapults it finds unguarded where it stops (Melee Procedure).
func (s *State) fellBack(u *Unit, path []engine.Square, off, morale bool) FellBack {
	b := FellBack{Unit: u.ID, Label: u.Label(), Path: path, Off: off, Morale: morale}
	if off || u.Type.IsCatapult() {
		return b
	}
	end := path[len(path)-1]
	for _, o := range s.At(end) {
		if o.Type.IsCatapult() && o.Side != u.Side && (o.Side == Nobody || !s.held(end, o.Side)) {
			b.Captured = append(b.Captured, o.ID)
			b.CapLabels = append(b.CapLabels, o.Label())
		}
	}
	return b
}

var moveCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move one of your units (the attacker, in movement); into an enemy's square is a charge (Movement).", Example: "/move unit:ROM-2 to:E5 facing:N", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the unit; a catapult moves with a stand of its square", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "the square it ends in, like E5", Kind: engine.OptPoint, Required: true},
		{Name: "facing", Help: "its facing at the end: N, NE, E… (type A: a side only); default its facing now"},
		{Name: "ride", Help: "no to spare a lone stand of foot (Morale 3): it stops the unit as any enemy; default yes", Choices: []string{"yes", "no"}},
		{Name: "with", Help: "moving a catapult: the stand of its square that takes it along; default the first that may", Kind: engine.OptElement},
	}}, Run: move},
	{CommandSpec: engine.CommandSpec{Name: "elephant", Help: "Roll for an elephant you mean to charge with this turn, before any of your units moves: on 5 or 6 it stays put (Charging and Melee 6).", Example: "/elephant unit:CAR-3", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the elephant", Kind: engine.OptElement, Required: true},
	}}, Run: rollElephant},
	{CommandSpec: engine.CommandSpec{Name: "face", Help: "Turn a unit: in your movement, when declaring supports, or after its melee (Movement 6).", Example: "/face unit:ROM-2 facing:NE", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
		{Name: "facing", Help: "N, NE, E, SE, S, SW, W or NW (type A: a side only)", Required: true},
	}}, Run: face},
}

// runDownVictim returns what mover may ride down in q: a single enemy
// stand of foot, or of a foot crew, alone on open ground (Morale 3); nil
// when there is none.
func (s *State) runDownVictim(mover *Unit, q engine.Square) *Unit {
	if !mover.Type.Mounted() || s.terrain(q) == Protected {
		return nil
	}
	var victim *Unit
	for _, o := range s.At(q) {
		if o.Side == mover.Side || o.Type.IsCatapult() {
			continue
		}
		f := o.Type.spec().Family
		if victim != nil || o.Stands != 1 || (f != Foot && o.Type != FootCrew) {
			return nil
		}
		victim = o
	}
	return victim
}

// route finds the cheapest path for u from its square to dest within
// allowance (in squares), passing no enemy (save stands it rides down)
// and never slipping between two enemies. onlyRoad keeps it to road
// squares. It returns the path and its cost, or nil.
func (s *State) route(u *Unit, dest engine.Square, allowance float64, onlyRoad bool) ([]engine.Square, float64) {
	return s.routeRiding(u, dest, allowance, onlyRoad, true)
}

// routeRiding is route, riding lone stands down on the way only when
// ride is true; otherwise they stop the unit as any enemy does.
func (s *State) routeRiding(u *Unit, dest engine.Square, allowance float64, onlyRoad, ride bool) ([]engine.Square, float64) {
	enemy := func(q engine.Square) bool { return s.held(q, u.Side.Other()) }
	victim := func(q engine.Square) *Unit {
		if !ride {
			return nil
		}
		return s.runDownVictim(u, q)
	}
	budget := int(allowance * 2)
	dist := map[engine.Square]int{u.At: 0}
	prev := map[engine.Square]engine.Square{}
	pq := &squareHeap{}
	heap.Push(pq, squareCost{u.At, 0})
	for pq.Len() > 0 {
		cur := heap.Pop(pq).(squareCost)
		if cur.cost > dist[cur.q] {
			continue
		}
		if cur.q == dest {
			break
		}
		if cur.q != u.At && enemy(cur.q) {
			if victim(cur.q) == nil {
				continue // a contact square ends the move
			}
		}
		for _, d := range engine.Dirs8 {
			n := cur.q.Step(d)
			if !s.onBoard(n) || s.terrain(n) == Impassable || (onlyRoad && s.terrain(n) != Road) {
				continue
			}
			if d.Diagonal() && engine.Squeezes(cur.q, n, enemy) {
				continue
			}
			if enemy(n) && n != dest && victim(n) == nil {
				continue
			}
			step := 2
			if d.Diagonal() {
				step = 3
			}
			c := cur.cost + step
			if c > budget {
				continue
			}
			if old, ok := dist[n]; !ok || c < old {
				dist[n], prev[n] = c, cur.q
				heap.Push(pq, squareCost{n, c})
			}
		}
	}
	c, ok := dist[dest]
	if !ok || dest == u.At {
		return nil, 0
	}
	path := []engine.Square{dest}
	for q := dest; q != u.At; {
		q = prev[q]
		path = append([]engine.Square{q}, path...)
	}
	return path, float64(c) / 2
}

type squareCost struct {
	q    engine.Square
	cost int
}

// squareHeap orders squares by cost, then by column and row, so that
// equal paths are always chosen the same way.
type squareHeap []squareCost

func (h squareHeap) Len() int { return len(h) }
func (h squareHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	if h[i].q.Row != h[j].q.Row {
		return h[i].q.Row < h[j].q.Row
	}
	return h[i].q.Col < h[j].q.Col
}
func (h squareHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *squareHeap) Push(x any)   { *h = append(*h, x.(squareCost)) }
func (h *squareHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func move(tx *engine.Tx, s *State, c engine.Command) error {
	side, u, dest, err := s.moveOrder(c)
	if err != nil {
		return err
	}
	facing := u.Facing
	if c.Has("facing") {
		if facing, err = parseFacing(u, c.Opt("facing")); err != nil {
			return err
		}
	}
	if c.Has("with") && !u.Type.IsCatapult() {
		return engine.Refuse("Movement 5", "with: names the stand that takes a catapult along; %s moves by itself.", u.Label())
	}
	allowance := float64(u.Type.spec().Move)
	var mover *Unit // the stand that takes a catapult along
	if u.Type.IsCatapult() {
		if mover, err = s.catapultMover(c, u); err != nil {
			return err
		}
		allowance = min(allowance, float64(mover.Type.spec().Move))
	}
	// Riding down is the rider's choice (Morale 3: it "may"); ride:no
	// declines it, and a lone stand then stops the unit as any enemy.
	ride := !strings.EqualFold(c.Opt("ride"), "no")
	victimAt := func(q engine.Square) *Unit {
		if !ride {
			return nil
		}
		return s.runDownVictim(u, q)
	}
	enemyThere := s.held(dest, side.Other())
	charge := enemyThere && victimAt(dest) == nil
	if charge {
		if err := s.canCharge(u, dest); err != nil {
			return err
		}
		for _, o := range s.At(dest) {
			if o.Side == side {
				if err := sharing(u, o, dest); err != nil {
					return err
				}
			}
		}
	}
	path, cost := s.routeRiding(u, dest, allowance, false, ride)
	road := false
	if path == nil && s.terrain(u.At) == Road && s.terrain(dest) == Road {
		path, cost = s.routeRiding(u, dest, allowance+1, true, ride)
		road = path != nil
	}
	if path == nil {
		return engine.Refuse("Movement 1, 4", "%s cannot reach %s this turn: it moves %g squares (a diagonal step costs 1.5), and no enemy may be passed or slipped between.", u.Label(), dest, allowance)
	}
	b := Moved{Unit: u.ID, Label: u.Label(), Side: side, Path: path, Facing: facing, Cost: cost, Road: road, Charge: charge}
	for _, q := range path[1:] {
		if v := victimAt(q); v != nil {
			b.RunDown = append(b.RunDown, v.ID)
			b.RunLabels = append(b.RunLabels, v.Label())
		}
	}
	if !charge {
		if err := s.takeCatapults(&b, u, mover, dest); err != nil {
			return err
		}
	}
	if mover != nil {
		// The catapult is the unit named; the stand with it goes along.
		b.Towed = u.ID
		b.Unit, b.Label = mover.ID, mover.Label()
		if c.Has("facing") {
			// The catapult named turns as it is told; the stand with
			// it too, unless it is type A and told a corner.
			b.TowedFacing = facing
		}
		if mover.Type.spec().Support == SupportA && facing.Diagonal() {
			b.Facing = mover.Facing
		}
	}
	return tx.Emit(b)
}

// moveOrder reads a move order: the attacker's side in the movement
// stage, one of its units that may still move, and a square of the board
// it is not in already.
func (s *State) moveOrder(c engine.Command) (Side, *Unit, engine.Square, error) {
	if s.Stage != Movement {
		return 0, nil, engine.Square{}, engine.Refuse("Turn Sequence 3", "Units move in the movement stage; it is now the %s stage.", s.Stage)
	}
	side, err := s.actingSide(c)
	if err != nil {
		return 0, nil, engine.Square{}, err
	}
	if side != s.Attacker || s.Armies[side].Done {
		return 0, nil, engine.Square{}, engine.Refuse("Turn Sequence 3", "Only the attacker moves, and this turn that is the %s until they are /done.", s.armyName(s.Attacker))
	}
	u, err := s.ownUnit(c, "unit", side)
	if err != nil {
		return 0, nil, engine.Square{}, err
	}
	dest, err := parseSquare("to", c.Opt("to"))
	if err != nil {
		return 0, nil, engine.Square{}, err
	}
	switch {
	case s.shaken(u):
		err = engine.Refuse("Morale 1", "%s is down to one stand and may only fall back toward its own edge, which it does by itself as your movement begins; it takes no other order.", u.Label())
	case u.Balked:
		err = engine.Refuse("Charging and Melee 6", "%s would not charge and stays where it is this turn.", u.Label())
	case u.Moved:
		err = engine.Refuse("Movement", "%s has moved this turn.", u.Label())
	case s.inMelee(u):
		err = engine.Refuse("Charging and Melee 2", "%s is in a melee this turn and cannot move.", u.Label())
	case !s.onBoard(dest):
		err = engine.Refuse("", "%s is off the board.", dest)
	case dest == u.At:
		err = engine.Refuse("", "%s is already in %s; /face turns it.", u.Label(), dest)
	}
	return side, u, dest, err
}

// catapultMover is the stand of the catapult u's square that takes it
// along, at the slower rate of the two (Movement 5): the one c names
// (with:), or else the first that may.
func (s *State) catapultMover(c engine.Command, u *Unit) (*Unit, error) {
	if c.Has("with") {
		return s.namedMover(c, u)
	}
	var shaken *Unit
	for _, o := range s.At(u.At) {
		switch {
		case o.Side != u.Side || o.Type.IsCatapult() || o.Moved || o.Balked:
		case s.shaken(o):
			// It only falls back (Morale 1); towing is a move of its own.
			shaken = o
		default:
			return o, nil
		}
	}
	if shaken != nil {
		return nil, engine.Refuse("Morale 1", "%s is down to one stand and may only fall back toward its own edge, so it cannot take %s along; no other stand of its square may.", shaken.Label(), u.Label())
	}
	return nil, engine.Refuse("Movement 5", "%s has no stand in its square that has not moved, to move it.", u.Label())
}

// namedMover is the stand c names (with:) to take the catapult u along,
// refused when it may not.
func (s *State) namedMover(c engine.Command, u *Unit) (*Unit, error) {
	o, err := s.ownUnit(c, "with", u.Side)
	if err != nil {
		return nil, err
	}
	switch {
	case o == u:
		return nil, engine.Refuse("Movement 5", "A catapult is taken along by another stand of its square; give that stand as with:.")
	case o.At != u.At:
		return nil, engine.Refuse("Movement 5", "%s is in %s, not in %s with %s, so it cannot take it along.", o.Label(), o.At, u.At, u.Label())
	case o.Type.IsCatapult():
		return nil, engine.Refuse("Movement 5", "%s is a catapult itself and cannot take another along.", o.Label())
	case s.shaken(o):
		return nil, engine.Refuse("Morale 1", "%s is down to one stand and may only fall back toward its own edge, so it cannot take %s along.", o.Label(), u.Label())
	case o.Balked:
		return nil, engine.Refuse("Charging and Melee 6", "%s would not charge and stays where it is this turn, so it cannot take %s along.", o.Label(), u.Label())
	case o.Moved:
		return nil, engine.Refuse("Movement 5", "%s has moved this turn, so it cannot take %s along.", o.Label(), u.Label())
	}
	return o, nil
}

// takeCatapults notes the enemy catapults left alone in dest that a move
// of u (with the stand mover, when u is a catapult) takes, and refuses a
// move that would leave a square holding what it may not.
func (s *State) takeCatapults(b *Moved, u, mover *Unit, dest engine.Square) error {
	// A stand ridden down in dest no longer guards its catapult: the
	// catapult is left with no stand of its side (Morale 3, Melee
	// Procedure).
	guarded := func(side Side) bool {
		for _, o := range s.At(dest) {
			if o.Side == side && !o.Type.IsCatapult() && !slices.Contains(b.RunDown, o.ID) {
				return true
			}
		}
		return false
	}
	for _, o := range s.At(dest) {
		if o.Type.IsCatapult() && o.Side != u.Side && !guarded(o.Side) {
			b.Captured = append(b.Captured, o.ID)
			b.CapLabels = append(b.CapLabels, o.Label())
		}
	}
	if len(b.Captured) > 0 && u.Type.IsCatapult() {
		// Taking the catapult there would put two in one square.
		return engine.Refuse("Movement 2", "A square holds one catapult: %s must be taken by a stand that brings no catapult of its own.", strings.Join(b.CapLabels, ", "))
	}
	if err := s.canStandAfter(u, dest); err != nil {
		return err
	}
	if mover != nil {
		if err := s.canStandAfter(mover, dest); err != nil {
			return err
		}
	}
	return nil
}

// canCharge reports why u may not charge into dest (nil when it may).
func (s *State) canCharge(u *Unit, dest engine.Square) error {
	switch {
	case u.Type.IsCatapult():
		return engine.Refuse("Charging and Melee", "A catapult does not charge.")
	case s.shaken(u):
		return engine.Refuse("Morale 1", "%s is down to one stand and may not start a melee.", u.Label())
	case u.Type.Elephant() && !u.Rolled:
		return engine.Refuse("Charging and Melee 6", "%s was not rolled for before movement began (/elephant), so it may not charge this turn; it may move elsewhere.", u.Label())
	}
	// One unit of a side fills a contact square; a commander shares it,
	// whether he charges in before that unit or after it (Movement 2).
	if o := s.bodyOf(dest, u.Side); o != nil && u.Body() {
		return engine.Refuse("Movement 2", "%s of yours has charged %s already; one unit to a square, besides a commander (others may support from beside it).", o.ID, dest)
	}
	if u.Type.Cavalry() {
		for _, o := range s.At(dest) {
			if (o.Type == Legionaries || o.Type == Phalangites) && o.Stands == 4 {
				return engine.Refuse("Charging and Melee 7", "Cavalry may not charge %s: four stands of %s hold it.", o.Label(), o.Type.Name())
			}
		}
	}
	return nil
}

// canStandAfter checks the end of a move that is not a charge: enemies
// there are a stand ridden down or catapults taken, and the friends there
// must have room for u (Movement 2).
func (s *State) canStandAfter(u *Unit, dest engine.Square) error {
	if s.terrain(dest) == Impassable {
		return engine.Refuse("", "%s is impassable.", dest)
	}
	for _, o := range s.At(dest) {
		if o != u && o.Side == u.Side {
			if err := sharing(u, o, dest); err != nil {
				return err
			}
		}
	}
	return nil
}

func face(tx *engine.Tx, s *State, c engine.Command) error {
	side, err := s.actingSide(c)
	if err != nil {
		return err
	}
	u, err := s.ownUnit(c, "unit", side)
	if err != nil {
		return err
	}
	facing, err := parseFacing(u, c.Opt("facing"))
	if err != nil {
		return err
	}
	allowed := false
	switch {
	case s.Stage == Deploying && !s.Armies[side].Done:
		allowed = true
	case s.Stage == Movement && side == s.Attacker && !s.Armies[side].Done:
		allowed = true
	case u.Fought == s.Turn && s.Stage == Melees && !s.inUnresolved(u):
		allowed = true
	case u.Fought == s.Turn-1 && u.Fought > 0 && (s.Stage == Catapults || s.Stage == Missiles):
		allowed = true
	case u.Fought == s.Turn-1 && u.Fought > 0 && s.Stage == Movement && !s.Ordered:
		// The free turn after a melee (Melee Procedure) lasts until the
		// next turn's movement begins with the attacker's first order;
		// when both shooting stages pass at once, this is the only time
		// the defender's units have to take it.
		allowed = true
	}
	if !allowed && s.Stage == Supports {
		return engine.Refuse("Movement 6", "When supports are declared a unit turns only to face the melee it supports, which /support does; what it may support is judged from the facing it had before.")
	}
	if !allowed {
		return engine.Refuse("Movement 6", "%s may turn during your own movement, when supports are declared, or after a melee it fought (until the next turn's movement begins with the attacker's first order).", u.Label())
	}
	if facing == u.Facing {
		return engine.Refuse("", "%s already faces %s.", u.Label(), facing)
	}
	return tx.Emit(Faced{Unit: u.ID, Label: u.Label(), Facing: facing})
}

// inUnresolved reports whether u still waits on a melee this turn.
func (s *State) inUnresolved(u *Unit) bool {
	for _, m := range s.Melees {
		if !m.Resolved && (m.At == u.At || containsID(m.Supports[u.Side], u.ID)) {
			return true
		}
	}
	return false
}

// fallBack works out a retreat of steps squares toward u's baseline: each
// step straight back if it can, else diagonally back, the left before the
// right as the unit retreats. A step may pass friends but no enemy, no
// impassable square, and not slip between two enemies. A unit that steps
// over its own edge leaves the board (Morale 2). When extra is true a
// unit whose retreat ends on a friend's square goes on, up to two squares
// more, to a free one; when it brings a catapult, catapult is not nil,
// and a square for which it reports a catapult already (one standing
// there, or one another retreat takes there) is not free either
// (Movement 2). For a commander a square with another commander of his
// side is not free either (Movement 2). It returns the path, whether the
// unit left the board, and whether it was stopped.
func (s *State) fallBack(u *Unit, steps int, extra bool, catapult func(engine.Square) bool) (path []engine.Square, off, stopped bool) {
	enemy := func(q engine.Square) bool { return s.held(q, u.Side.Other()) }
	back := u.Side.Back()
	cur := u.At
	path = []engine.Square{cur}
	free := func(q engine.Square) bool {
		if catapult != nil && catapult(q) {
			return false
		}
		if u.Type.IsLeader() {
			// One commander or sub-commander to a square (Movement 2).
			return !slices.ContainsFunc(s.At(q), func(o *Unit) bool { return o != u && o.Side == u.Side && o.Type.IsLeader() })
		}
		if !u.Body() {
			return true
		}
		b := s.bodyAt(q)
		return b == nil || b == u
	}
	// A retreat that would end on a friend goes on through friends until
	// it finds a free square or leaves the board; only impassable ground
	// and enemies stop it (Melee Procedure, Morale 2).
	// A unit falling back by morale (extra false) steps into a free square,
	// straight back or diagonally, before one held by a friend.
	for i := 0; i < steps || (extra && !free(cur)); i++ {
		var next []engine.Square
		for _, d := range []engine.Dir8{back, back.Turn(1), back.Turn(-1)} {
			n := cur.Step(d)
			if s.onBoard(n) && (s.terrain(n) == Impassable || enemy(n) || (d.Diagonal() && engine.Squeezes(cur, n, enemy))) {
				continue
			}
			next = append(next, n)
		}
		if len(next) == 0 {
			return path, false, true
		}
		// A step off a side edge of the board is the last way back,
		// taken only when no square back on the board is open.
		sideExit := func(q engine.Square) bool { return !s.onBoard(q) && q.Row >= 0 && q.Row < s.Options.Rows }
		var ways, exits []engine.Square
		for _, q := range next {
			if sideExit(q) {
				exits = append(exits, q)
			} else {
				ways = append(ways, q)
			}
		}
		next = append(ways, exits...)
		cur = next[0]
		if !extra {
			if k := slices.IndexFunc(next, func(q engine.Square) bool { return s.onBoard(q) && free(q) || !s.onBoard(q) && !sideExit(q) }); k >= 0 {
				cur = next[k]
			}
		}
		path = append(path, cur)
		if !s.onBoard(cur) {
			return path, true, false
		}
	}
	if !free(cur) {
		return path, false, true
	}
	return path, false, false
}

// moraleRetreats falls back every unit of the attacker down to one stand
// of a standard type, its full move, at the start of its side's movement
// (Morale 1). A unit that cannot go farther stops.
func moraleRetreats(tx *engine.Tx, s *State) error {
	for i := range s.Units {
		u := &s.Units[i]
		if u.Side != s.Attacker || !s.shaken(u) || s.inMelee(u) {
			continue
		}
		path, off, _ := s.fallBack(u, u.Type.spec().Move, false, nil)
		for len(path) > 1 && !off && s.bodyAt(path[len(path)-1]) != nil && s.bodyAt(path[len(path)-1]) != u {
			path = path[:len(path)-1] // it stops behind a friend
		}
		if len(path) < 2 {
			continue
		}
		if err := tx.Emit(s.fellBack(u, path, off, true)); err != nil {
			return err
		}
	}
	return nil
}

func containsID(ids []UnitID, id UnitID) bool {
	for _, x := range ids {
		if strings.EqualFold(string(x), string(id)) {
			return true
		}
	}
	return false
}
