package sweet

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Supports and melee (Charging and Melee 2 to 8, Melee Procedure).

// SupportDeclared is a unit facing into a contact square to support its
// side's melee there.
type SupportDeclared struct {
	At     engine.Square `json:"at"`
	Unit   UnitID        `json:"unit"`
	Label  string        `json:"label"`
	Side   Side          `json:"side"`
	Facing engine.Dir8   `json:"facing"`
}

// MDIChosen is one side's secret choice for a melee. It is sealed: its
// narration, the board and exports of the log do not show Choice until
// the melee is resolved ([MeleeResolved] reveals it).
type MDIChosen struct {
	Turn   int           `json:"turn"`
	At     engine.Square `json:"at"`
	Side   Side          `json:"side"`
	Name   string        `json:"name"`
	Choice MDI           `json:"choice"`
}

// StandLoss is stands a unit lost in a melee.
type StandLoss struct {
	Unit   UnitID `json:"unit"`
	Label  string `json:"label"`
	Stands int    `json:"stands"`
}

// MeleeResolved is a melee fought out: the two indicators revealed, the
// points, the losses and what follows. Retreats, destruction and
// catapults changing hands come after it as their own events.
type MeleeResolved struct {
	Turn     int           `json:"turn"`
	At       engine.Square `json:"at"`
	Attacker Side          `json:"attacker"`
	Names    [2]string     `json:"names"`
	Choices  [2]MDI        `json:"choices"`
	Verdict  Verdict       `json:"verdict"`
	Points   [2]float64    `json:"points"`
	Losses   [2]float64    `json:"losses"`
	Removed  []StandLoss   `json:"removed,omitempty"`
	// Odd are the d6 rolls for a loss that no whole stand matched: 4 to
	// 6 takes one stand more, 1 to 3 lets it go (Melee Procedure).
	Odd       [2][]int   `json:"odd,omitempty"`
	After     [2]float64 `json:"after"`
	Retreat   [2]bool    `json:"retreat"`
	Destroyed [2]bool    `json:"destroyed"`
	Fighters  []UnitID   `json:"fighters"`
}

// Destroyed is units removed: destroyed in melee at 3:1, or unable to
// retreat (Melee Procedure).
type Destroyed struct {
	Units  []UnitID `json:"units"`
	Labels []string `json:"labels"`
	Why    string   `json:"why"`
}

// CatapultChanged is a catapult left in a contact square changing hands:
// taken by the enemy or abandoned to nobody (Melee Procedure).
type CatapultChanged struct {
	Unit  UnitID `json:"unit"`
	Label string `json:"label"`
	Side  Side   `json:"side"`
	Name  string `json:"name,omitempty"`
}

func (SupportDeclared) Kind() string { return "sweet.support-declared" }
func (MDIChosen) Kind() string       { return "sweet.mdi-chosen" }
func (MeleeResolved) Kind() string   { return "sweet.melee-resolved" }
func (Destroyed) Kind() string       { return "sweet.destroyed" }
func (CatapultChanged) Kind() string { return "sweet.catapult-changed" }

var meleeBodies = engine.BodyTypes{
	SupportDeclared{}.Kind(): engine.Decoder[SupportDeclared](),
	MDIChosen{}.Kind():       engine.Decoder[MDIChosen](),
	MeleeResolved{}.Kind():   engine.Decoder[MeleeResolved](),
	Destroyed{}.Kind():       engine.Decoder[Destroyed](),
	CatapultChanged{}.Kind(): engine.Decoder[CatapultChanged](),
}

var (
	_ engine.Sealed   = MDIChosen{}
	_ engine.Revealer = MeleeResolved{}
)

func secretKey(turn int, at engine.Square, side Side) string {
	return fmt.Sprintf("mdi/%d/%s/%s", turn, at, side)
}

// Key names the secret: the turn, the contact square and the side.
func (b MDIChosen) Key() string { return secretKey(b.Turn, b.At, b.Side) }

// Public is the choice face down.
func (b MDIChosen) Public() engine.Body { b.Choice = NoMDI; return b }

// Reveals names both sides' choices for the melee.
func (b MeleeResolved) Reveals() []string {
	return []string{secretKey(b.Turn, b.At, South), secretKey(b.Turn, b.At, North)}
}

func (b SupportDeclared) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	m := s.melee(b.At)
	if m == nil {
		return fmt.Errorf("sweet: no melee at %s", b.At)
	}
	u.Facing = b.Facing
	m.Supports[b.Side] = append(m.Supports[b.Side], b.Unit)
	return nil
}

func (b MDIChosen) Apply(s *State) error {
	m := s.melee(b.At)
	if m == nil {
		return fmt.Errorf("sweet: no melee at %s", b.At)
	}
	if b.Choice == NoMDI {
		// Only an export's sealed copy has no choice; it does not replay.
		return fmt.Errorf("sweet: the %s choice at %s is sealed", b.Side, b.At)
	}
	m.Choice[b.Side] = b.Choice
	return nil
}

func (b MeleeResolved) Apply(s *State) error {
	m := s.melee(b.At)
	if m == nil {
		return fmt.Errorf("sweet: no melee at %s", b.At)
	}
	m.Choice, m.Resolved = b.Choices, true
	for _, r := range b.Removed {
		if err := s.lose(r.Unit, r.Stands); err != nil {
			return err
		}
	}
	for _, id := range b.Fighters {
		if u := s.Unit(id); u != nil {
			u.Fought = b.Turn
		}
	}
	return nil
}

func (b Destroyed) Apply(s *State) error {
	for _, id := range b.Units {
		u, err := s.mustUnit(id)
		if err != nil {
			return err
		}
		u.Stands, u.Gone = 0, true
	}
	return nil
}

func (b CatapultChanged) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Side = b.Side
	return nil
}

var meleeCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "support", Help: "Face a unit into a contact square beside it to support that melee, the attacker's side first (Charging and Melee 2 to 4).", Example: "/support unit:ROM-3 melee:E5", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the supporting unit", Kind: engine.OptElement, Required: true},
		{Name: "melee", Help: "the contact square, when more than one is beside it", Kind: engine.OptPoint},
	}}, Run: support},
	{CommandSpec: engine.CommandSpec{Name: "mdi", Help: "Choose your melee deployment indicator, in secret: only you see it until both sides have chosen (Melee Procedure).", Flags: engine.Private, Example: "/mdi choice:pincers melee:E5", Options: []engine.OptionSpec{
		{Name: "choice", Help: "line, column, square, flanking, pincers or withdrawal", Required: true, Choices: mdiChoices()},
		{Name: "melee", Help: "the contact square, when more than one melee waits", Kind: engine.OptPoint},
	}}, Run: chooseMDI},
}

// pickMelee finds the melee a command means: the one named, or the only
// one that fits.
func (s *State) pickMelee(c engine.Command, fits func(*Melee) bool) (*Melee, error) {
	if c.Has("melee") {
		q, err := parseSquare("melee", c.Opt("melee"))
		if err != nil {
			return nil, err
		}
		m := s.melee(q)
		if m == nil {
			return nil, engine.Refuse("Charging and Melee 1", "There is no melee waiting at %s.", q)
		}
		return m, nil
	}
	var found []*Melee
	for i := range s.Melees {
		if m := &s.Melees[i]; !m.Resolved && fits(m) {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return nil, engine.Refuse("Charging and Melee 1", "There is no melee here for that.")
	case 1:
		return found[0], nil
	}
	var at []string
	for _, m := range found {
		at = append(at, m.At.String())
	}
	return nil, engine.Refuse("", "Say which melee with melee: (%s).", strings.Join(at, ", "))
}

// canSupport reports why u may not support melee m (nil when it may),
// judged from the facing it has before it turns to face the contact
// square (Charging and Melee 2 to 4).
func (s *State) canSupport(u *Unit, m *Melee) error {
	switch {
	case !u.OnBoard() || u.Stands == 0:
		return engine.Refuse("", "%s is not on the board.", u.Label())
	case engine.Chebyshev(u.At, m.At) != 1:
		return engine.Refuse("Charging and Melee 1", "%s is not beside the contact square %s.", u.Label(), m.At)
	case u.Type.IsCatapult():
		return engine.Refuse("Charging and Melee 3", "A catapult does not fight.")
	case u.Type.spec().Support == SupportD:
		return engine.Refuse("Charging and Melee 3", "Catapult crews (type D) never support a melee.")
	case u.Manned:
		return engine.Refuse("Catapult Fire 1", "%s manned a catapult this turn and may not support a melee.", u.Label())
	case s.inMelee(u):
		return engine.Refuse("Charging and Melee 2", "%s fights in another melee this turn.", u.Label())
	}
	dir := engine.SquareDirTo(u.At, m.At)
	// A commander with a unit supports as that unit does (type C).
	judge, as := u, ""
	if u.Type.IsLeader() {
		judge = s.bodyOf(u.At, u.Side)
		if judge != nil {
			as = fmt.Sprintf("%s is with %s and supports as it does: ", u.Label(), judge.ID)
		}
	}
	if judge != nil {
		f := judge.Facing
		if s.Stage == Supports {
			f = judge.SupportFacing
		}
		switch judge.Type.spec().Support {
		case SupportA:
			if dir.Diagonal() || (dir != f && dir != f.Turn(2) && dir != f.Turn(-2)) {
				return engine.Refuse("Charging and Melee 3", "%s%s (type A) supports only to its front or either side, never diagonally; %s is %s of it and it faces %s.", as, judge.Label(), m.At, dir, f)
			}
		case SupportB:
			if dir == f.Opposite() {
				return engine.Refuse("Charging and Melee 3", "%s%s (type B) may not support directly to its rear.", as, judge.Label())
			}
		case SupportD:
			return engine.Refuse("Charging and Melee 3", "%snever, as a catapult crew.", as)
		}
	}
	if u.Type.Mounted() {
		if friend := s.bodyOf(m.At, u.Side); friend != nil && friend.Type.FootOrCrew() {
			from := engine.SquareDirTo(m.At, u.At)
			if from != friend.Facing.Turn(2) && from != friend.Facing.Turn(-2) {
				return engine.Refuse("Charging and Melee 4", "%s may support %s only from directly beside it.", u.Label(), friend.Label())
			}
		}
	}
	return nil
}

func support(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Supports {
		return engine.Refuse("Turn Sequence 3, 4", "Supports are declared after movement; it is now the %s stage.", s.Stage)
	}
	side, err := s.actingSide(c)
	if err != nil {
		return err
	}
	if side != s.Supporting {
		return engine.Refuse("Charging and Melee 2", "The %s declare their supports first.", s.armyName(s.Supporting))
	}
	u, err := s.ownUnit(c, "unit", side)
	if err != nil {
		return err
	}
	m, err := s.pickMelee(c, func(m *Melee) bool { return engine.Chebyshev(u.At, m.At) == 1 })
	if err != nil {
		return err
	}
	if err := s.canSupport(u, m); err != nil {
		return err
	}
	return tx.Emit(SupportDeclared{At: m.At, Unit: u.ID, Label: u.Label(), Side: side, Facing: engine.SquareDirTo(u.At, m.At)})
}

func chooseMDI(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Melees {
		return engine.Refuse("Melee Procedure", "Deployments are chosen once supports are declared; it is now the %s stage.", s.Stage)
	}
	choice, ok := parseMDI(c.Opt("choice"))
	if !ok {
		return engine.Refuse("Melee Procedure", "Choose line, column, square, flanking, pincers or withdrawal.")
	}
	// A player leading both armies chooses for a side still to choose.
	var sides []Side
	for side := South; side <= North; side++ {
		if a := s.army(side); a != nil && a.Player == c.Actor {
			sides = append(sides, side)
		}
	}
	if len(sides) == 0 {
		return engine.Refuse("", "You lead no army in this game.")
	}
	side, m, err := s.mdiFor(c, sides)
	if err != nil {
		return err
	}
	at := m.At
	if err := tx.Emit(MDIChosen{Turn: s.Turn, At: at, Side: side, Name: s.armyName(side), Choice: choice}); err != nil {
		return err
	}
	m = s.melee(at)
	if m.Choice[side.Other()] == NoMDI {
		tx.Say(engine.Message{To: c.Actor, Text: fmt.Sprintf("You chose %s for the melee at %s. It stays face down until the %s choose.", choice, at, s.armyName(side.Other()))})
	} else {
		tx.Say(engine.Message{To: c.Actor, Text: fmt.Sprintf("You chose %s for the melee at %s.", choice, at)})
	}
	return resolveReady(tx, s)
}

// mdiFor finds the melee and the side an /mdi command lays its indicator
// for: the melee named with melee:, or the only one still waiting for one
// of sides. With several waiting and none named it refuses, naming each,
// so that no indicator is laid where its player did not mean it.
func (s *State) mdiFor(c engine.Command, sides []Side) (Side, *Melee, error) {
	open := func(m *Melee, sd Side) bool { return !m.Resolved && m.Choice[sd] == NoMDI }
	if c.Has("melee") {
		m, err := s.pickMelee(c, func(*Melee) bool { return true })
		if err != nil {
			return 0, nil, err
		}
		for _, sd := range sides {
			if open(m, sd) {
				return sd, m, nil
			}
		}
		return 0, nil, engine.Refuse("Melee Procedure", "The %s have already laid their indicator face down for %s; it stands.", s.armyName(sides[len(sides)-1]), m.At)
	}
	var waiting []*Melee
	for i := range s.Melees {
		m := &s.Melees[i]
		for _, sd := range sides {
			if open(m, sd) {
				waiting = append(waiting, m)
				break
			}
		}
	}
	switch len(waiting) {
	case 0:
		return 0, nil, engine.Refuse("Melee Procedure", "The %s have laid an indicator face down for every melee; it stands until the other side chooses.", s.armyName(sides[len(sides)-1]))
	case 1:
		m := waiting[0]
		for _, sd := range sides {
			if open(m, sd) {
				return sd, m, nil
			}
		}
	}
	at := make([]string, len(waiting))
	for i, m := range waiting {
		at[i] = m.At.String()
	}
	return 0, nil, engine.Refuse("Melee Procedure", "%d melees wait for your indicator, at %s: lay one for each, naming its square, e.g. /mdi choice:%s melee:%s.", len(waiting), engine.JoinAnd(at), strings.ToLower(c.Opt("choice")), at[0])
}

// resolveReady fights out, in the order the charges were made, every melee
// whose two choices are in, stopping at the first still waiting.
func resolveReady(tx *engine.Tx, s *State) error {
	for i := range s.Melees {
		m := &s.Melees[i]
		if m.Resolved {
			continue
		}
		if m.Choice[South] == NoMDI || m.Choice[North] == NoMDI {
			break
		}
		if err := resolve(tx, s, i); err != nil {
			return err
		}
		if err := checkEnd(tx, s); err != nil || s.Stage == Over {
			return err
		}
	}
	return advance(tx, s)
}

// fighters are the units of side in melee m: those in the contact square
// (catapults aside), then the supports clockwise from the north.
func (s *State) fighters(m *Melee, side Side) []*Unit {
	var out []*Unit
	for _, u := range s.At(m.At) {
		if u.Side == side && !u.Type.IsCatapult() && u.Stands > 0 {
			out = append(out, u)
		}
	}
	var sup []*Unit
	for _, id := range m.Supports[side] {
		if u := s.Unit(id); u != nil && u.OnBoard() && u.Stands > 0 {
			sup = append(sup, u)
		}
	}
	slices.SortStableFunc(sup, func(a, b *Unit) int {
		return int(engine.SquareDirTo(m.At, a.At)) - int(engine.SquareDirTo(m.At, b.At))
	})
	return append(out, sup...)
}

// lossOrder is the order side's stands fall in melee m (Melee
// Procedure): the first in the contact square, from the unit that fills
// it (or, when there is none, the commander there), then round the
// supports clockwise from the north, and the commander sharing the
// contact square last in each round, since the losses after the first go
// round the melee, spread over its units evenly (RULINGS.md, sweet,
// "Losses").
func lossOrder(m *Melee, units []*Unit) []*Unit {
	var first, rest, shared []*Unit
	for _, u := range units {
		switch {
		case u.At != m.At:
			rest = append(rest, u)
		case first == nil:
			first = append(first, u)
		default:
			shared = append(shared, u)
		}
	}
	return append(append(first, rest...), shared...)
}

// standValue is what one stand of u is worth in melee m with stands left
// in it: phalangites drop to 1 with two stands or fewer; a chariot or
// elephant that charged into the contact square is worth its higher value
// (Charging and Melee 5, the unit table's notes).
func (s *State) standValue(u *Unit, m *Melee, stands int) float64 {
	sp := u.Type.spec()
	v := sp.Melee
	if u.Type == Phalangites && stands <= 2 {
		v = 1
	}
	if sp.Charge > 0 && u.Charged && u.At == m.At {
		v = sp.Charge
	}
	return v
}

// points totals a side's strength in melee m, given each unit's stands;
// the attackers of a protected contact square count one point less
// (Charging and Melee 8).
func (s *State) points(m *Melee, side Side, units []*Unit, stands map[UnitID]int) float64 {
	p := 0.0
	for _, u := range units {
		p += float64(stands[u.ID]) * s.standValue(u, m, stands[u.ID])
	}
	if side == m.Attacker && s.terrain(m.At) == Protected {
		p = max(p-1, 0)
	}
	return p
}

// exactLoss looks for stands of units other than next that are worth
// exactly loss together, the fewest units' first in the clockwise order,
// and takes them from stands when it finds them.
func (s *State) exactLoss(m *Melee, units []*Unit, next *Unit, stands map[UnitID]int, loss float64) bool {
	const eps = 1e-9
	start := slices.Index(units, next)
	var others []*Unit
	for k := 1; k < len(units); k++ {
		if u := units[(start+k)%len(units)]; stands[u.ID] > 0 {
			others = append(others, u)
		}
	}
	taken := map[UnitID]int{}
	var search func(i int, left float64) bool
	search = func(i int, left float64) bool {
		if left < eps {
			return true
		}
		if i == len(others) {
			return false
		}
		u := others[i]
		// Take as many of u's stands as fit, then fewer, down to none.
		var values []float64
		for n := stands[u.ID]; n > 0; n-- {
			v := s.standValue(u, m, n)
			if sum := sumOf(values) + v; sum > left+eps {
				break
			}
			values = append(values, v)
		}
		for n := len(values); n >= 0; n-- {
			taken[u.ID] = n
			if search(i+1, left-sumOf(values[:n])) {
				return true
			}
		}
		delete(taken, u.ID)
		return false
	}
	if !search(0, loss) {
		return false
	}
	for id, n := range taken {
		stands[id] -= n
	}
	return true
}

func sumOf(vs []float64) float64 {
	t := 0.0
	for _, v := range vs {
		t += v
	}
	return t
}

// takeLosses removes stands worth loss points from units: the first from
// the contact square, then one at a time round the supports clockwise. A
// remainder smaller than the next stand is made exactly from the other
// units' stands when they allow (for the first stand, only from stands in
// the contact square), and otherwise settled by a d6: 4 to 6 takes the
// stand, 1 to 3 lets it go. It returns the rolls made.
func (s *State) takeLosses(tx *engine.Tx, m *Melee, units []*Unit, stands map[UnitID]int, loss float64) []int {
	const eps = 1e-9
	var rolls []int
	for i := 0; loss > eps; i++ {
		var u *Unit
		for k := range units {
			if c := units[(i+k)%len(units)]; stands[c.ID] > 0 {
				u = c
				i += k
				break
			}
		}
		if u == nil {
			break
		}
		v := s.standValue(u, m, stands[u.ID])
		if loss < v-eps {
			// The next stand is worth more than is left to lose. The
			// die decides only when no stands of the other units make
			// the total exact (Melee Procedure). The first stand lost
			// is always one in the contact square, so before any is
			// lost only the stands there may make the total.
			others := units
			if i == 0 {
				others = slices.DeleteFunc(slices.Clone(units), func(o *Unit) bool { return o.At != m.At })
			}
			if s.exactLoss(m, others, u, stands, loss) {
				break
			}
			r := tx.Roll(engine.D6)
			rolls = append(rolls, r)
			if r >= 4 {
				stands[u.ID]--
			}
			break
		}
		stands[u.ID]--
		loss -= v
	}
	return rolls
}

// resolve fights out melee i.
func resolve(tx *engine.Tx, s *State, i int) error {
	m := &s.Melees[i]
	at := m.At
	b := MeleeResolved{Turn: s.Turn, At: at, Attacker: m.Attacker, Names: [2]string{s.armyName(South), s.armyName(North)}, Choices: m.Choice}
	var sides [2][]*Unit
	stands := map[UnitID]int{}
	for side := South; side <= North; side++ {
		sides[side] = s.fighters(m, side)
		for _, u := range sides[side] {
			stands[u.ID] = u.Stands
			b.Fighters = append(b.Fighters, u.ID)
		}
		b.Points[side] = s.points(m, side, sides[side], stands)
	}
	b.Verdict = Judge(m.Choice[South], m.Choice[North])
	b.Losses = Losses(b.Verdict, b.Points)
	for side := South; side <= North; side++ {
		if len(sides[side]) > 0 {
			b.Odd[side] = s.takeLosses(tx, m, lossOrder(m, sides[side]), stands, b.Losses[side])
		}
		for _, u := range sides[side] {
			if n := u.Stands - stands[u.ID]; n > 0 {
				b.Removed = append(b.Removed, StandLoss{Unit: u.ID, Label: u.Label(), Stands: n})
			}
		}
		b.After[side] = s.points(m, side, sides[side], stands)
	}
	b.Retreat, b.Destroyed = Outcome(b.Verdict, b.Points, b.After)
	if err := tx.Emit(b); err != nil {
		return err
	}
	// Catapults in the contact square, and whose stands are with them.
	var catapults []*Unit
	for _, u := range s.At(at) {
		if u.Type.IsCatapult() {
			catapults = append(catapults, u)
		}
	}
	for side := South; side <= North; side++ {
		if !b.Destroyed[side] {
			continue
		}
		d := Destroyed{Why: fmt.Sprintf("outnumbered three to one at %s", at)}
		for _, u := range sides[side] {
			if u.Stands > 0 && !u.Gone {
				d.Units, d.Labels = append(d.Units, u.ID), append(d.Labels, u.Label())
			}
		}
		if len(d.Units) > 0 {
			if err := tx.Emit(d); err != nil {
				return err
			}
		}
	}
	return retreat(tx, s, at, b.Retreat, sides, catapults)
}

// retreat moves back the sides of the melee at at that must retreat
// (Melee Procedure), as retreats says, with their catapults; sides are
// the melee's fighters and catapults those in its contact square, which
// go back with their side or fall to the side holding the square.
func retreat(tx *engine.Tx, s *State, at engine.Square, retreats [2]bool, sides [2][]*Unit, catapults []*Unit) error {
	// The path of the first unit of each side to leave each square of the
	// melee, the contact square or a supporter's, a commander too: he is
	// a stand, and a catapult goes back with any surviving friendly stand
	// of its square (Melee Procedure). The first to leave a square where
	// its side's catapult stands brings it, and a square holds one
	// catapult (Movement 2).
	type leaving struct {
		side Side
		from engine.Square
	}
	led := map[leaving][]engine.Square{}
	var left []leaving // the keys of led, in the order they were made
	ownCatapult := func(side Side, q engine.Square) bool {
		return slices.ContainsFunc(s.At(q), func(c *Unit) bool { return c.Type.IsCatapult() && c.Side == side })
	}
	// A square a catapult stands in, or one an earlier retreat of this
	// melee takes a catapult to (the catapults move after the units).
	claimed := map[engine.Square]bool{}
	catapultAt := func(q engine.Square) bool {
		return claimed[q] || slices.ContainsFunc(s.At(q), func(c *Unit) bool { return c.Type.IsCatapult() })
	}
	for side := South; side <= North; side++ {
		if !retreats[side] {
			continue
		}
		for _, u := range sides[side] {
			if u.Gone || !u.OnBoard() {
				continue
			}
			k := leaving{side, u.At}
			var towing func(engine.Square) bool
			if led[k] == nil && ownCatapult(side, k.from) {
				towing = catapultAt
			}
			path, off, stopped := s.fallBack(u, 2, true, towing)
			if stopped {
				if err := tx.Emit(Destroyed{Units: []UnitID{u.ID}, Labels: []string{u.Label()}, Why: "with no way to retreat"}); err != nil {
					return err
				}
				continue
			}
			if err := tx.Emit(s.fellBack(u, path, off, false)); err != nil {
				return err
			}
			if led[k] == nil {
				led[k] = path
				left = append(left, k)
				if towing != nil {
					claimed[path[len(path)-1]] = true
				}
			}
		}
	}
	// A catapult in a square a supporter left goes with it; one there
	// whose side has no stand leaving stays, as it stood.
	for _, k := range left {
		if k.from == at {
			continue
		}
		for _, c := range s.At(k.from) {
			if !c.Type.IsCatapult() || c.Side != k.side {
				continue
			}
			path := led[k]
			if err := tx.Emit(FellBack{Unit: c.ID, Label: c.Label(), Path: path, Off: !s.onBoard(path[len(path)-1])}); err != nil {
				return err
			}
		}
	}
	for _, c := range catapults {
		owner := c.Side
		if path := led[leaving{owner, at}]; owner != Nobody && path != nil {
			end := path[len(path)-1]
			off := !s.onBoard(end)
			if err := tx.Emit(FellBack{Unit: c.ID, Label: c.Label(), Path: path, Off: off}); err != nil {
				return err
			}
			continue
		}
		if owner != Nobody && s.held(at, owner) {
			continue // its own side holds the square still
		}
		next := Nobody
		for side := South; side <= North; side++ {
			if s.held(at, side) {
				next = side
			}
		}
		if next != owner {
			if err := tx.Emit(CatapultChanged{Unit: c.ID, Label: c.Label(), Side: next, Name: s.armyName(next)}); err != nil {
				return err
			}
		}
	}
	return nil
}
