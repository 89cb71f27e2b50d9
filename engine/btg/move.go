package btg

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Movement (§1): a unit moves on its card, once a turn, by the movement
// table for the slowest ground it crosses; it stops at the edge of water,
// walls and buildings and crosses or enters them the next turn (1.E). A
// charge doubles the move over open ground (1.D) and ends in contact, the
// charger and the charged each checking morale first (3.B). Routs, falls
// back, avoided charges and rampages are moves the rules make.

// MoveKind says why a unit moved.
type MoveKind string

const (
	Walk    MoveKind = "move"
	Reform  MoveKind = "reform"
	Charges MoveKind = "charge"
	Halt    MoveKind = "halt"     // a charger that stopped at its morale check
	Routs   MoveKind = "rout"     // one full move toward its own edge
	Back    MoveKind = "fallback" // one full move back, facing the enemy
	Avoid   MoveKind = "avoid"    // cavalry getting out of a charge's way
	Rampage MoveKind = "rampage"  // elephants out of control
	Diplo   MoveKind = "diplomat" // sent back by an enemy diplomat (§6)
	Rally   MoveKind = "rally"    // a routed unit faces the enemy again
)

// Moved moves a unit from one base to another.
type Moved struct {
	Unit  string      `json:"unit"`
	Label string      `json:"label"`
	Why   MoveKind    `json:"why"`
	From  engine.Base `json:"from"`
	To    engine.Base `json:"to"`
	Ranks int         `json:"ranks"`
	Dist  float64     `json:"dist,omitempty"`
	Allow float64     `json:"allow,omitempty"`
	// Over names the slowest ground crossed; Stop why the move ended
	// short of where it was sent.
	Over string `json:"over,omitempty"`
	Stop string `json:"stop,omitempty"`
	// Card is set for a move made on the card in play: it spends one of
	// the card's moves.
	Card bool `json:"card,omitempty"`
	// Contact is the enemy a charge reached (impact, §5.D); Fled is set
	// when the move took the unit off the table.
	Contact string `json:"contact,omitempty"`
	Fled    bool   `json:"fled,omitempty"`
}

// ChargeDeclared is a charge on cavalry or camelry, which may try to get
// out of its way (5.A): the game waits for the target's answer.
type ChargeDeclared struct {
	Charger string      `json:"charger"`
	Target  string      `json:"target"`
	Label   string      `json:"label"`
	To      engine.Base `json:"to"`
	Dist    float64     `json:"dist"`
	Player  engine.PlayerID
}

// Answered is the charged unit's answer.
type Answered struct {
	Target string `json:"target"`
	Avoid  bool   `json:"avoid"`
}

// LeaderMoved moves a lone leader (a black face card, §1.A), or attaches
// him to a unit, or sets him apart from it.
type LeaderMoved struct {
	Leader string     `json:"leader"`
	From   engine.Vec `json:"from"`
	To     engine.Vec `json:"to"`
	Facing engine.Heading
	Attach string `json:"attach,omitempty"`
	Detach string `json:"detach,omitempty"`
	Card   bool   `json:"card,omitempty"`
	// Overrun names the enemy unit whose move ran into him alone: he
	// rode out of its way to the unit he joins (RULINGS.md, btg,
	// "Leaders").
	Overrun string `json:"overrun,omitempty"`
}

// LeaderAttached attaches a leader to a unit at deployment.
type LeaderAttached struct {
	Leader string `json:"leader"`
	Unit   string `json:"unit"`
}

func (Moved) Kind() string          { return "btg.moved" }
func (ChargeDeclared) Kind() string { return "btg.charge-declared" }
func (Answered) Kind() string       { return "btg.answered" }
func (LeaderMoved) Kind() string    { return "btg.leader-moved" }
func (LeaderAttached) Kind() string { return "btg.leader-attached" }

var moveBodies = engine.BodyTypes{
	Moved{}.Kind():          engine.Decoder[Moved](),
	ChargeDeclared{}.Kind(): engine.Decoder[ChargeDeclared](),
	Answered{}.Kind():       engine.Decoder[Answered](),
	LeaderMoved{}.Kind():    engine.Decoder[LeaderMoved](),
	LeaderAttached{}.Kind(): engine.Decoder[LeaderAttached](),
}

func (b Moved) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	s.noteEdges(u, b.From, b.To)
	u.Base, u.Ranks = b.To, b.Ranks
	if b.Card {
		// The card counts units, not moves (1.A): a unit that moves
		// twice (Mystical Speed, §6) makes its second move on the card
		// of its first without spending another of its moves.
		again := s.secondOnCard(u)
		u.Moves++
		u.OnCard = s.Drawn
		if !again && s.Card != nil && s.Card.Units > 0 {
			s.Card.Units--
		}
	} else if b.Why != Rally && b.To != b.From {
		u.Forced = true
	}
	switch b.Why {
	case Routs:
		u.Shaken, u.Ran = "", s.Turn
		if u.Status != Rampaging {
			u.Status = Routed
		}
	case Rampage:
		u.Status, u.Shaken, u.Ran = Rampaging, "", s.Turn
	case Rally:
		u.Status = Steady
	}
	if b.Contact != "" {
		u.meet(s.Turn, b.Contact)
		if t := s.Unit(b.Contact); t != nil {
			t.meet(s.Turn, u.ID)
		}
	}
	if b.Fled {
		s.remove(u, Fled)
	}
	return nil
}

func (b Moved) Text() string {
	to := fmt.Sprintf("to %s facing %s", b.To.FrontCenter(), b.To.Facing)
	var t string
	switch b.Why {
	case Walk:
		t = fmt.Sprintf("%s moves %s %s", b.Label, inches(b.Dist), to)
		if b.Over != "" {
			t += fmt.Sprintf(" (%s: at most %s)", b.Over, inches(b.Allow))
		}
		if b.Ranks != 0 && b.From.Width != b.To.Width {
			t += fmt.Sprintf(", %s deep", plural(b.Ranks, "rank", "ranks"))
		}
	case Reform:
		t = fmt.Sprintf("%s reforms %s deep, facing %s", b.Label, plural(b.Ranks, "rank", "ranks"), b.To.Facing)
	case Charges:
		t = fmt.Sprintf("%s charges %s, %s", b.Label, inches(b.Dist), to)
		if b.Contact != "" {
			t += fmt.Sprintf(", and crashes into %s (§1.D)", b.Contact)
		} else {
			t += ", taking the ground the enemy left"
		}
	case Halt:
		return fmt.Sprintf("%s stops where it stands and does not charge (§3).", b.Label)
	case Routs:
		t = fmt.Sprintf("%s routs %s toward its own edge (§3)", b.Label, inches(b.Dist))
	case Back:
		t = fmt.Sprintf("%s falls back %s (§3)", b.Label, inches(b.Dist))
	case Avoid:
		t = fmt.Sprintf("%s gets out of the charge's way, %s back (5.A)", b.Label, inches(b.Dist))
	case Rampage:
		if b.Dist == 0 && b.Contact != "" {
			return fmt.Sprintf("%s rampage on against %s, the nearest unit, which they still touch (§3).", b.Label, b.Contact)
		}
		t = fmt.Sprintf("%s rampage %s toward the nearest unit (§3)", b.Label, inches(b.Dist))
		if b.Contact != "" {
			t += " and fall upon " + b.Contact
		}
	case Diplo:
		t = fmt.Sprintf("%s withdraws %s toward its own edge, talked round by a diplomat (§6)", b.Label, inches(b.Dist))
	case Rally:
		return fmt.Sprintf("%s rallies and faces %s again (§3).", b.Label, b.To.Facing)
	}
	if b.Stop != "" {
		t += "; " + b.Stop
	}
	if b.Fled {
		t += "; it leaves the table and is out of the battle"
	}
	return t + "."
}

func (b ChargeDeclared) Apply(s *State) error {
	s.Await = &Charge{Charger: b.Charger, Target: b.Target, To: b.To, Dist: b.Dist}
	return nil
}

func (b ChargeDeclared) Text() string {
	return fmt.Sprintf("%s charges %s. Mounted troops may try to avoid a charge (5.A): %s, answer with /avoid (a morale check) or /stand (receive it).", b.Charger, b.Label, b.Player)
}

func (b ChargeDeclared) Buttons() []engine.Button {
	return []engine.Button{
		{Label: "Avoid", For: b.Player, Command: engine.Command{Name: "avoid"}},
		{Label: "Stand", For: b.Player, Command: engine.Command{Name: "stand"}},
	}
}

func (b Answered) Apply(s *State) error {
	s.Await = nil
	return nil
}

func (b Answered) Text() string {
	if b.Avoid {
		return fmt.Sprintf("%s tries to avoid the charge.", b.Target)
	}
	return fmt.Sprintf("%s stands to receive the charge.", b.Target)
}

func (b LeaderMoved) Apply(s *State) error {
	l, err := s.mustLeader(b.Leader)
	if err != nil {
		return err
	}
	if b.Detach != "" {
		if u := s.Unit(b.Detach); u != nil && u.Leader == l.ID {
			u.Leader = ""
		}
	}
	l.At, l.Facing, l.Unit, l.Placed = b.To, b.Facing, "", true
	if b.Card {
		l.Moved = true
	}
	if b.Attach != "" {
		u, err := s.mustUnit(b.Attach)
		if err != nil {
			return err
		}
		u.Leader, l.Unit = l.ID, u.ID
	}
	return nil
}

func (b LeaderMoved) Text() string {
	switch {
	case b.Overrun != "":
		return fmt.Sprintf("%s, alone in the way of %s, rides out of it to %s and takes command of it.", b.Leader, b.Overrun, b.Attach)
	case b.Attach != "":
		return fmt.Sprintf("%s rides to %s and takes command of it.", b.Leader, b.Attach)
	case b.Detach != "":
		return fmt.Sprintf("%s leaves %s and stands alone at %s.", b.Leader, b.Detach, b.To)
	}
	return fmt.Sprintf("%s moves %s to %s.", b.Leader, inches(b.From.Dist(b.To)), b.To)
}

func (b LeaderAttached) Apply(s *State) error {
	l, err := s.mustLeader(b.Leader)
	if err != nil {
		return err
	}
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	if old := s.Unit(l.Unit); old != nil && old.Leader == l.ID {
		old.Leader = ""
	}
	u.Leader, l.Unit, l.Placed = l.ID, u.ID, true
	return nil
}

func (b LeaderAttached) Text() string {
	return fmt.Sprintf("%s takes command of %s.", b.Leader, b.Unit)
}

var moveCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move a unit on your card (§1): to where its front centre goes, turning and reforming as it goes; or a lone leader on a black face.",
		Example: "/move unit:GRE-1 to:30,14 facing:N", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit or lone leader", Kind: engine.OptElement, Required: true},
			{Name: "to", Help: "where its front centre goes, x,y in inches; left out, it turns or reforms in place", Kind: engine.OptPoint},
			{Name: "facing", Help: "N, NE, E… or degrees; default as it faces now"},
			{Name: "ranks", Help: "ranks deep: reforming costs half its move", Kind: engine.OptInt},
		}}, Run: moveCommand},
	{CommandSpec: engine.CommandSpec{Name: "charge", Help: "Charge an enemy unit over open ground at double the move (1.D): cavalry, camelry, chariots, phalanxes and legions.",
		Example: "/charge unit:ROM-7 target:GRE-2", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the charging unit", Kind: engine.OptElement, Required: true},
			{Name: "target", Help: "the enemy unit", Kind: engine.OptElement, Required: true},
		}}, Run: chargeCommand},
	{CommandSpec: engine.CommandSpec{Name: "avoid", Help: "Your charged cavalry or camelry try to get out of the way, with a morale check (5.A)."}, Run: func(tx *engine.Tx, s *State, c engine.Command) error { return answer(tx, s, c, true) }},
	{CommandSpec: engine.CommandSpec{Name: "stand", Help: "Your charged cavalry or camelry stand and receive the charge (5.A)."}, Run: func(tx *engine.Tx, s *State, c engine.Command) error { return answer(tx, s, c, false) }},
	{CommandSpec: engine.CommandSpec{Name: "attach", Help: "Put a leader in command of a unit: in deployment, or a lone leader on a black face card who reaches it.",
		Example: "/attach leader:GRE-L1 unit:GRE-3", Options: []engine.OptionSpec{
			{Name: "leader", Help: "the leader", Kind: engine.OptElement, Required: true},
			{Name: "unit", Help: "the unit he joins", Kind: engine.OptElement, Required: true},
		}}, Run: attachCommand},
	{CommandSpec: engine.CommandSpec{Name: "detach", Help: "Take a leader out of his unit on a black face card, to stand alone.",
		Example: "/detach leader:GRE-L1 to:30,12", Options: []engine.OptionSpec{
			{Name: "leader", Help: "the leader", Kind: engine.OptElement, Required: true},
			{Name: "to", Help: "where he stands, within his move of the unit", Kind: engine.OptPoint, Required: true},
		}}, Run: detachCommand},
}

// leaderMove is how far a lone leader goes on a black face card
// (RULINGS.md, btg, "leaders").
const leaderMove = 12

// canMove says why u may not move now (nil when it may).
func (s *State) canMove(u *Unit) error {
	switch {
	case !u.In():
		return engine.Refuse("", "%s is not on the table.", u.ID)
	case u.Status == Routed:
		return engine.Refuse("§3", "%s is routed: it moves only in the rally/rout phase.", u.ID)
	case u.Status == Rampaging:
		return engine.Refuse("§3", "%s are rampaging out of control.", u.ID)
	case u.Effects.Still:
		return engine.Refuse("§6", "%s may not move this turn.", u.ID)
	case u.Moves > 1 || u.Moves == 1 && !u.Effects.Twice:
		return engine.Refuse("1.A", "%s has already moved this turn.", u.ID)
	case s.engaged(u):
		return engine.Refuse("5.A", "%s is locked in melee with %s and cannot move out.", u.ID, strings.Join(sortedIDs(s.touching(u)), ", "))
	}
	return nil
}

// secondOnCard reports whether u, which may move twice this turn
// (Mystical Speed, §6), has made its first move on the card in play:
// its second move on that card is the same unit moving, and spends
// none of the card's moves (1.A; RULINGS.md, btg, "Mystical Speed").
func (s *State) secondOnCard(u *Unit) bool {
	return u.Effects.Twice && u.Moves == 1 && u.OnCard == s.Drawn && s.Card != nil && !s.Card.Leaders
}

// cardMovers lists the units of the card's side that may move on it
// now: any that may move while it has moves left, and once they are
// spent only a unit making its second move on it.
func (s *State) cardMovers(c *Card) []*Unit {
	us := s.movable(c.Side)
	if c.Units > 0 {
		return us
	}
	return slices.DeleteFunc(us, func(u *Unit) bool { return !s.secondOnCard(u) })
}

// cardLeft says what the number card c still moves, to follow "may
// move": so many units more, or, its moves spent, a unit that moves
// twice, again.
func (s *State) cardLeft(c *Card) string {
	if c.Units > 0 {
		return plural(c.Units, "unit", "units") + " more"
	}
	var ids []string
	for _, u := range s.cardMovers(c) {
		ids = append(ids, u.ID)
	}
	return strings.Join(ids, " or ") + " again"
}

// cardFor refuses a move of u unless a card of its colour with moves
// left is in play and u is the actor's.
func (s *State) cardFor(actor engine.PlayerID, u *Unit) error {
	side := u.Side
	if err := s.pending(); err != nil {
		return err
	}
	if s.Stage != Movement {
		return engine.Refuse("1.A", "Units move in the movement phase; this is the %s phase.", s.Stage)
	}
	c := s.Card
	if c == nil || c.Leaders {
		return engine.Refuse("1.A", "No card of yours is in play: units move on a number card of their colour.")
	}
	mine := func(sd Side) bool { a := s.army(sd); return a != nil && a.Player == actor }
	switch {
	case c.Side != side && mine(c.Side):
		// The card is the actor's: what is wrong is the unit.
		return engine.Refuse("1.A", "%s is a unit of the %s, not yours: the card in play is yours, for one of your own units.", u.ID, s.armyName(side))
	case c.Side != side:
		return engine.Refuse("1.A", "The card in play is for the %s (%s).", s.armyName(c.Side), c.Side)
	case !mine(side):
		return engine.Refuse("", "%s is a unit of the %s, not yours to move.", u.ID, s.armyName(side))
	case c.Units <= 0 && !s.secondOnCard(u):
		return engine.Refuse("1.A", "The %s has moved all the units it may; only a unit moving twice this turn may make its second move on it.", c.Card.Name())
	}
	return nil
}

// allowance is how far u moves over the ground its path and new base
// touch, with the name of the slowest ground; 0 when it may not go there.
func (s *State) allowance(u *Unit, from engine.Vec, to engine.Base, charge bool) (float64, string) {
	worst, over := Level, ""
	for _, f := range s.crossed(from, to) {
		t := f.ground().Movement()
		// Hidden for a Reason's clearing runs through trees (§6): it
		// frees woods, not a swamp of the same movement row.
		if f.ground() == Wood && u.Effects.WoodsFree {
			t = Level
		}
		if t > worst {
			worst, over = t, f.Label()
		}
	}
	m := float64(s.civ(u.Side).Move(u.Class, worst))
	if charge {
		m *= 2
	}
	if s.inside(u.Base) != nil {
		m /= 2 // out of a building by the nearest door, at half move (§4)
	}
	return m, over
}

// turnCost is what turning from one facing to another costs a base:
// the arc its front corners travel turning about its centre.
func turnCost(width float64, from, to engine.Heading) float64 {
	return width / 2 * math.Abs(from.Diff(to)) * math.Pi / 180
}

// shape returns u's base in ranks r facing h, with its front centre at p.
func (u *Unit) shape(r int, h engine.Heading, p engine.Vec) engine.Base {
	w, d := u.Class.size(u.Figures, r)
	return engine.Base{Width: w, Depth: d, Facing: h}.WithFrontCenter(p)
}

func moveCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if l := s.Leader(c.Opt("unit")); l != nil {
		return moveLeader(tx, s, c, l)
	}
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if err := s.cardFor(c.Actor, u); err != nil {
		return err
	}
	if err := s.canMove(u); err != nil {
		return err
	}
	if !c.Has("to") && !c.Has("facing") && !c.Has("ranks") {
		return engine.Refuse("", "Say where it goes (to:), which way it faces (facing:) or how deep it stands (ranks:).")
	}
	p := u.Base.FrontCenter()
	if c.Has("to") {
		if p, err = engine.ReadPoint("to", c.Opt("to"), "inches"); err != nil {
			return err
		}
	}
	h, err := engine.ReadFacingOr(c.Opt("facing"), u.Base.Facing)
	if err != nil {
		return err
	}
	r, err := parseRanks(u, c.Opt("ranks"))
	if err != nil {
		return err
	}
	b, crossing, err := s.planMove(u, p, h, r)
	if err != nil {
		return err
	}
	stop := b.Stop
	if err := s.emitMove(tx, b); err != nil {
		return err
	}
	// The alligators take any unit that crosses, of either side: the text
	// says "any unit" where Baptism says "your units" (§6).
	if crossing != nil && (s.Alligators[BlackSide] || s.Alligators[RedSide]) && stop == "" {
		n := tx.Roll(engine.D6)
		if err := tx.Emit(FiguresSet{Unit: u.ID, Label: u.Label(), Figures: max(0, u.Figures-n), Was: u.Figures, Why: fmt.Sprintf("alligators in %s take %d (Alligators!, §6)", crossing.Name, n), Harm: true}); err != nil {
			return err
		}
	}
	return afterMove(tx, s)
}

// planMove works out u's move on a card to front centre p, facing h, r
// ranks deep, or says why the rules refuse it (§1, 1.B, 1.D, 1.E, §4):
// the move, and the water it crosses.
func (s *State) planMove(u *Unit, p engine.Vec, h engine.Heading, r int) (Moved, *Feature, error) {
	from := u.Base
	to := u.shape(r, h, p)
	start := u.shape(r, h, from.FrontCenter())
	dist := from.FrontCenter().Dist(p) + turnCost(from.Width, from.Facing, h)
	allow, over := s.allowance(u, from.Center, to, false)
	why := Walk
	if r != u.Ranks {
		dist += allow / 2
		if p == from.FrontCenter() {
			why = Reform
		}
	}
	if allow == 0 {
		return Moved{}, nil, engine.Refuse("§1", "%s cannot enter %s.", u.Label(), over)
	}
	if dist > allow+0.01 {
		if over == "" {
			over = "level ground"
		}
		return Moved{}, nil, engine.Refuse("§1", "%s moves at most %s over %s; that move is %s.", u.ID, inches(allow), over, inches(dist))
	}
	if !s.onTable(to) {
		return Moved{}, nil, engine.Refuse("", "%s would go off the table.", u.ID)
	}
	b := Moved{Unit: u.ID, Label: u.Label(), Why: why, From: from, To: to, Ranks: r, Dist: dist, Allow: allow, Card: true}
	if over != "" {
		b.Over = over
	}
	// Obstacles: stop at the edge of what it was not touching when it set
	// out (1.E).
	stopped, stop, crossing, err := s.obstacles(u, start, to)
	if err != nil {
		return Moved{}, nil, err
	}
	if stop != "" {
		b.To, b.Stop = stopped, stop
		b.Dist = from.FrontCenter().Dist(stopped.FrontCenter()) + turnCost(from.Width, from.Facing, h)
	}
	if err := s.clear(u, start, b.To); err != nil {
		return Moved{}, nil, err
	}
	if err := s.canStand(u, b.To); err != nil {
		return Moved{}, nil, err
	}
	return b, crossing, nil
}

// obstacles finds the first water, wall or building in the way of a base
// going from start to to that the unit was not already touching, and
// returns where it stops at that edge (1.E). crossing is water it
// crosses. A wall is never crossed by horse, chariots, elephants or
// engines (§4).
func (s *State) obstacles(u *Unit, start, to engine.Base) (stopped engine.Base, stop string, crossing *Feature, err error) {
	frac, hit := 1.0, -1
	for i := range s.Terrain {
		f := &s.Terrain[i]
		g := f.ground()
		if !g.Obstacle() {
			continue
		}
		touching := u.Base.Gap(f.Area) <= 2*engine.ContactTolerance
		into := f.Area.SegmentGap(start.Center, to.Center) <= 0 || f.Area.Overlaps(to)
		if g.IsWall() && !u.Class.Foot() && (touching || into) {
			return to, "", nil, engine.Refuse("§4", "%s cannot cross %s: only infantry climb walls.", u.Label(), f.Label())
		}
		// It crosses or goes in the turn after the one it came up to
		// the edge (1.E, §4), even with a second move this turn.
		if touching && into && u.reached(s.Turn, f.Name) && !(g == Water && u.Effects.Ferry) {
			what := "cross it"
			if g.IsBuilding() {
				what = "go in"
			}
			return to, "", nil, engine.Refuse("1.E", "%s came up to %s this turn; it may %s next turn.", u.ID, f.Label(), what)
		}
		if g == Water && into {
			if p := s.Baptism[u.Side]; p != nil && segDist(*p, start.Center, to.Center) <= baptismReach {
				return to, "", nil, engine.Refuse("§6", "A shaman is baptising peasants at %s: your units may not cross the water near it this turn (Baptism).", *p)
			}
			if touching || u.Effects.Ferry {
				crossing = f
				continue
			}
		}
		if touching {
			continue
		}
		if t, ok := sweepFrac(start, to.Center, f.Area); ok && t < frac {
			frac, hit = t, i
		}
	}
	if hit < 0 {
		return to, "", crossing, nil
	}
	f := s.Terrain[hit]
	stopped = start.WithCenter(start.Center.Lerp(to.Center, frac))
	what := "cross it"
	if f.ground().IsBuilding() {
		what = "go in"
	}
	return stopped, fmt.Sprintf("it stops at the edge of %s and may %s next turn (1.E)", f.Label(), what), nil, nil
}

// noteEdges records the water, walls and buildings a move from one base
// to another brings u up against, which it was not touching before: it
// crosses or enters them only in a later turn (1.E, §4).
func (s *State) noteEdges(u *Unit, from, to engine.Base) {
	for i := range s.Terrain {
		f := &s.Terrain[i]
		if !f.ground().Obstacle() || to.Gap(f.Area) > 2*engine.ContactTolerance || from.Gap(f.Area) <= 2*engine.ContactTolerance {
			continue
		}
		if u.Edge != s.Turn {
			u.Edge, u.EdgeOf = s.Turn, nil
		}
		u.EdgeOf = append(u.EdgeOf, f.Name)
	}
}

// reached reports whether a move of this turn brought u up against the
// feature named name.
func (u *Unit) reached(turn int, name string) bool {
	return u.Edge == turn && slices.Contains(u.EdgeOf, name)
}

// sweepFrac is the fraction of the way from b to to at which b first
// meets o.
func sweepFrac(b engine.Base, to engine.Vec, o engine.Base) (float64, bool) {
	frac, hit := b.Sweep(to, o)
	return frac, hit >= 0
}

// clear refuses a move from start to to that runs into another unit: only
// a charge brings a unit into contact (1.B, 1.D).
func (s *State) clear(u *Unit, start, to engine.Base) error {
	bs, us := s.others(u)
	frac, hit := start.Sweep(to.Center, bs...)
	if hit >= 0 && frac < 1 {
		return engine.Refuse("1.B", "%s would run into %s on the way; only a charge goes into contact, and units do not pass through each other.", u.ID, us[hit].ID)
	}
	for i, o := range bs {
		if to.Touches(o) && us[i].Side != u.Side {
			return engine.Refuse("1.D", "%s would end touching %s; only a charge goes into contact.", u.ID, us[i].ID)
		}
	}
	return nil
}

func moveLeader(tx *engine.Tx, s *State, c engine.Command, l *Leader) error {
	if err := s.leaderCard(c.Actor, l); err != nil {
		return err
	}
	if l.Unit != "" {
		return engine.Refuse("1.A", "%s commands %s and moves with it; /detach sets him apart first.", l.ID, l.Unit)
	}
	if !c.Has("to") {
		return engine.Refuse("", "Say where he goes: to:x,y.")
	}
	p, err := engine.ReadPoint("to", c.Opt("to"), "inches")
	if err != nil {
		return err
	}
	if d := l.At.Dist(p); d > leaderMove+0.01 {
		return engine.Refuse("1.A", "A lone leader moves at most %s; that is %s.", inches(leaderMove), inches(d))
	}
	h, err := engine.ReadFacingOr(c.Opt("facing"), l.Facing)
	if err != nil {
		return err
	}
	nb := engine.Base{Center: p, Width: leaderSize, Depth: leaderSize, Facing: h}
	if !s.onTable(nb) {
		return engine.Refuse("", "%s would go off the table.", l.ID)
	}
	for _, u := range s.Units {
		if u.In() && nb.Overlaps(u.Base) {
			return engine.Refuse("", "%s would stand on %s; /attach puts him in command of a friendly unit.", l.ID, u.ID)
		}
	}
	return tx.Emit(LeaderMoved{Leader: l.ID, From: l.At, To: p, Facing: h, Card: true})
}

// leaderCard refuses moving leader l unless a black face card is in play
// and his side has not finished with it.
func (s *State) leaderCard(actor engine.PlayerID, l *Leader) error {
	if err := s.pending(); err != nil {
		return err
	}
	if a := s.army(l.Side); a == nil || a.Player != actor {
		return engine.Refuse("", "%s is not yours to move.", l.ID)
	}
	if s.Stage != Movement || s.Card == nil || !s.Card.Leaders {
		return engine.Refuse("1.A", "Lone leaders move when a black face card is drawn.")
	}
	if s.Card.Done[l.Side] {
		return engine.Refuse("1.A", "Your leaders have finished moving on this card.")
	}
	if l.Moved {
		return engine.Refuse("1.A", "%s has already moved on this card.", l.ID)
	}
	if l.Gone || !l.Placed {
		return engine.Refuse("", "%s is not on the table.", l.ID)
	}
	return nil
}

func attachCommand(tx *engine.Tx, s *State, c engine.Command) error {
	l := s.Leader(c.Opt("leader"))
	if l == nil {
		return engine.Refuse("", "There is no leader %q; /status lists yours.", c.Opt("leader"))
	}
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if u.Side != l.Side || !u.In() {
		return engine.Refuse("", "%s may only command a unit of his own army on the table.", l.ID)
	}
	if u.Leader != "" && u.Leader != l.ID && s.leaderOf(u) != nil {
		return engine.Refuse("", "%s is already led by %s.", u.ID, u.Leader)
	}
	if u.Class.Siege() {
		return engine.Refuse("§7", "A leader commands fighting units, not siege engines.")
	}
	if s.Stage == Deploying {
		if a := s.army(l.Side); a == nil || a.Player != c.Actor {
			return engine.Refuse("", "%s is not yours.", l.ID)
		}
		return tx.Emit(LeaderAttached{Leader: l.ID, Unit: u.ID})
	}
	if err := s.leaderCard(c.Actor, l); err != nil {
		return err
	}
	if l.Unit != "" {
		return engine.Refuse("1.A", "%s already commands %s.", l.ID, l.Unit)
	}
	if d := u.Base.Gap(l.Base()); d > leaderMove+0.01 {
		return engine.Refuse("1.A", "%s is %s away; a lone leader moves at most %s.", u.ID, inches(d), inches(leaderMove))
	}
	return tx.Emit(LeaderMoved{Leader: l.ID, From: l.At, To: u.Base.Center, Facing: u.Base.Facing, Attach: u.ID, Card: true})
}

func detachCommand(tx *engine.Tx, s *State, c engine.Command) error {
	l := s.Leader(c.Opt("leader"))
	if l == nil {
		return engine.Refuse("", "There is no leader %q; /status lists yours.", c.Opt("leader"))
	}
	if l.Unit == "" {
		return engine.Refuse("", "%s commands no unit.", l.ID)
	}
	u := s.Unit(l.Unit)
	if err := s.pending(); err != nil {
		return err
	}
	if a := s.army(l.Side); a == nil || a.Player != c.Actor {
		return engine.Refuse("", "%s is not yours.", l.ID)
	}
	if s.Stage != Movement || s.Card == nil || !s.Card.Leaders || s.Card.Done[l.Side] {
		return engine.Refuse("1.A", "A leader leaves his unit when a black face card is drawn.")
	}
	p, err := engine.ReadPoint("to", c.Opt("to"), "inches")
	if err != nil {
		return err
	}
	if d := u.Base.Center.Dist(p); d > leaderMove+0.01 {
		return engine.Refuse("1.A", "A lone leader moves at most %s; that is %s.", inches(leaderMove), inches(d))
	}
	nb := engine.Base{Center: p, Width: leaderSize, Depth: leaderSize, Facing: u.Base.Facing}
	if !s.onTable(nb) {
		return engine.Refuse("", "%s would go off the table.", l.ID)
	}
	for _, o := range s.Units {
		if o.In() && nb.Overlaps(o.Base) {
			return engine.Refuse("", "%s would stand on %s.", l.ID, o.ID)
		}
	}
	return tx.Emit(LeaderMoved{Leader: l.ID, From: u.Base.Center, To: p, Facing: u.Base.Facing, Detach: u.ID, Card: true})
}

func chargeCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if err := s.cardFor(c.Actor, u); err != nil {
		return err
	}
	if err := s.canMove(u); err != nil {
		return err
	}
	if !u.Class.CanCharge() {
		return engine.Refuse("1.D", "Only cavalry, camelry, chariots, phalanxes and legions charge; %s cannot.", u.Label())
	}
	t, err := s.findUnit(c.Opt("target"))
	if err != nil {
		return err
	}
	if t.Side == u.Side || !t.In() {
		return engine.Refuse("1.D", "%s is not an enemy on the table.", t.ID)
	}
	to, dist, err := s.chargePath(u, t)
	if err != nil {
		return err
	}
	return chargeHome(tx, s, u, t, to, dist)
}

// chargePath finds where u meets t charging straight at it, turned to
// face it, and refuses a charge that is too long, crosses terrain or
// runs into another unit first.
func (s *State) chargePath(u, t *Unit) (engine.Base, float64, error) {
	h := engine.HeadingTo(u.Base.FrontCenter(), t.Base.Center)
	start := u.Base.WithFacing(h)
	start = start.WithFrontCenter(u.Base.FrontCenter())
	from := start
	if start.Clashes(t.Base) {
		// Close to its target and at an angle to it, the charger's
		// turn alone swings its front corners into it: it meets the
		// target where, turned, it first touches it, found by
		// sweeping in from well back along its new facing.
		from = start.WithCenter(start.Center.Sub(h.Vec().Scale(start.Depth + t.Base.Depth + start.Width + t.Base.Width)))
	}
	frac, hit := from.Sweep(t.Base.Center, t.Base)
	if hit < 0 {
		return engine.Base{}, 0, engine.Refuse("1.D", "%s cannot reach %s charging straight at it.", u.ID, t.ID)
	}
	to := from.WithCenter(from.Center.Lerp(t.Base.Center, frac))
	dist := start.Center.Dist(to.Center) + turnCost(u.Base.Width, u.Base.Facing, h)
	allow := 2 * float64(s.civ(u.Side).Move(u.Class, Level))
	if dist > allow+0.01 {
		return to, dist, engine.Refuse("1.D", "%s charges at most %s (twice its move); %s is %s away.", u.ID, inches(allow), t.ID, inches(dist))
	}
	for _, f := range s.crossed(u.Base.Center, to) {
		return to, dist, engine.Refuse("1.D", "A charge goes over open ground only; %s is in the way.", f.Label())
	}
	bs, us := s.others(u)
	for i, o := range us {
		if o == t {
			continue
		}
		if fr, h := start.Sweep(to.Center, bs[i]); h >= 0 && fr < 1 {
			return to, dist, engine.Refuse("1.B", "%s is in the way of the charge.", o.ID)
		}
	}
	return to, dist, nil
}

// chargeHome plays a charge from the charger's morale check (3.B) on.
func chargeHome(tx *engine.Tx, s *State, u, t *Unit, to engine.Base, dist float64) error {
	chk, err := s.check(tx, u, "to charge", MoraleMod{Charging: true, FacingElephant: t.Class == Elephant})
	if err != nil {
		return err
	}
	switch chk {
	case Rout:
		stood := u.Base
		if err := s.routMove(tx, u, true); err != nil {
			return err
		}
		if err := s.routSpreads(tx, u, stood); err != nil {
			return err
		}
		return afterMove(tx, s)
	case FallBack:
		if err := s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Halt, From: u.Base, To: u.Base, Ranks: u.Ranks, Card: true}); err != nil {
			return err
		}
		return afterMove(tx, s)
	}
	if t.Status == Routed {
		// A routed unit that is charged routs again, and it is captured
		// only if the charge still reaches it (§3).
		if err := s.routMove(tx, t, false); err != nil {
			return err
		}
		if err := s.takeGround(tx, u, t, to, dist); err != nil {
			return err
		}
		return afterMove(tx, s)
	}
	if t.Status == Rampaging {
		// Elephants out of control neither check to receive a charge
		// nor give ground: they are met, and owe only the rally/rout
		// phase's check (§3; RULINGS.md, btg, "rampage").
		if err := chargeEnds(tx, s, u, t, to, dist, Hold); err != nil {
			return err
		}
		return afterMove(tx, s)
	}
	// Horse may try to avoid the charge (5.A), unless an event holds
	// them still this turn: getting away is a move (§6).
	if (t.Class == Cavalry || t.Class == LightCavalry || t.Class == Camelry) && t.Status == Steady && !s.engaged(t) && !t.Effects.Still {
		return tx.Emit(ChargeDeclared{Charger: u.ID, Target: t.ID, Label: t.Label(), To: to, Dist: dist, Player: s.Armies[t.Side].Player})
	}
	if err := receive(tx, s, u, t, to, dist); err != nil {
		return err
	}
	return afterMove(tx, s)
}

// receive plays the target's morale check to receive a charge and the
// charge's end (3.B): routed or fallen back, the target leaves the
// charger the ground; holding, the two are locked in melee.
func receive(tx *engine.Tx, s *State, u, t *Unit, to engine.Base, dist float64) error {
	chk, err := s.check(tx, t, "to receive the charge", MoraleMod{FacingElephant: u.Class == Elephant})
	if err != nil {
		return err
	}
	return chargeEnds(tx, s, u, t, to, dist, chk)
}

func chargeEnds(tx *engine.Tx, s *State, u, t *Unit, to engine.Base, dist float64, chk Check) error {
	switch chk {
	case Rout:
		stood := t.Base
		if err := s.routMove(tx, t, false); err != nil {
			return err
		}
		if err := s.takeGround(tx, u, t, to, dist); err != nil {
			return err
		}
		return s.routSpreads(tx, t, stood)
	case FallBack:
		// Falling back gives ground before the charger (§3): straight
		// back when it comes at the front, but straight away from it,
		// along the charge, when it comes at a flank or the rear, where
		// straight back would lead toward it or across its path.
		h := t.Base.Facing.Reverse()
		if t.Base.ContactSide(to) != engine.Front {
			h = to.Facing
		}
		if err := s.fallBack(tx, t, h, Back); err != nil {
			return err
		}
		return s.takeGround(tx, u, t, to, dist)
	}
	return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Charges, From: u.Base, To: to, Ranks: u.Ranks, Dist: dist, Card: true, Contact: t.ID})
}

// takeGround moves charger u on toward where it would have met t, which
// has routed, fallen back or got out of its way (3.B, §3, 5.A): the
// charge stops against the first unit in its path. If it still reaches
// t, whose move was cut short, a routed t is caught and captured (§3),
// and any other is met: the two are locked in melee, and it is the
// charge's impact (5.A, 5.D).
func (s *State) takeGround(tx *engine.Tx, u, t *Unit, to engine.Base, dist float64) error {
	start := u.Base.WithFacing(to.Facing).WithFrontCenter(u.Base.FrontCenter())
	bs, _ := s.others(u)
	// A charger already against a unit in its way (a rout or fall-back
	// cut short by the charger itself) cannot wheel into it: it stays as
	// it stands, still touching.
	if slices.ContainsFunc(bs, func(b engine.Base) bool { return start.Penetration(b) > engine.ContactTolerance }) {
		start = u.Base
	}
	frac, hit := start.Sweep(to.Center, bs...)
	if hit >= 0 && frac < 1 {
		to = start.WithCenter(start.Center.Lerp(to.Center, frac))
		dist = start.Center.Dist(to.Center) + turnCost(u.Base.Width, u.Base.Facing, to.Facing)
	}
	m := Moved{Unit: u.ID, Label: u.Label(), Why: Charges, From: u.Base, To: to, Ranks: u.Ranks, Dist: dist, Card: true}
	caught := t.In() && to.Touches(t.Base)
	if caught && t.Status != Routed {
		m.Contact = t.ID
	}
	if err := s.emitMove(tx, m); err != nil {
		return err
	}
	if caught && t.Status == Routed {
		return tx.Emit(Removed{Unit: t.ID, Label: t.Label(), Loss: Captured, By: u.ID})
	}
	return nil
}

// answer plays a charged cavalry unit's answer (5.A): to avoid it checks
// morale and on 5 or more gets out of the way; on 3 or 4 it must stand;
// on 1 or 2 it routs.
func answer(tx *engine.Tx, s *State, c engine.Command, avoid bool) error {
	w := s.Await
	if w == nil {
		return engine.Refuse("5.A", "No charge waits for an answer.")
	}
	t, u := s.Unit(w.Target), s.Unit(w.Charger)
	if a := s.army(t.Side); a == nil || a.Player != c.Actor {
		return engine.Refuse("5.A", "The charge on %s is for %s to answer.", t.ID, s.Armies[t.Side].Player)
	}
	to, dist := w.To, w.Dist
	if err := tx.Emit(Answered{Target: t.ID, Avoid: avoid}); err != nil {
		return err
	}
	if !avoid {
		if err := receive(tx, s, u, t, to, dist); err != nil {
			return err
		}
		return afterMove(tx, s)
	}
	chk, err := s.check(tx, t, "to avoid the charge", MoraleMod{})
	if err != nil {
		return err
	}
	switch chk {
	case Hold:
		if err := s.avoidMove(tx, t, u); err != nil {
			return err
		}
		// Hemmed in, it may still be caught where it stands.
		if err := s.takeGround(tx, u, t, to, dist); err != nil {
			return err
		}
	case FallBack:
		// It fails to get away and meets the charge where it stands.
		if err := chargeEnds(tx, s, u, t, to, dist, Hold); err != nil {
			return err
		}
	default:
		if err := chargeEnds(tx, s, u, t, to, dist, Rout); err != nil {
			return err
		}
	}
	return afterMove(tx, s)
}

// meet records that a charge brought u against the unit id in turn.
func (u *Unit) meet(turn int, id string) {
	if u.Impact != turn {
		u.Impact, u.Met = turn, nil
	}
	u.Met = append(u.Met, id)
}

// impact reports whether a charge brought u against opp this turn, so
// that its spear has the impact die against it (5.D).
func (s *State) impact(u, opp *Unit) bool {
	return u.Impact == s.Turn && slices.Contains(u.Met, opp.ID)
}

// fullMove is u's move over level ground.
func (s *State) fullMove(u *Unit) float64 {
	return float64(s.civ(u.Side).Move(u.Class, Level))
}

// flee moves u's base b along heading h by up to dist, stopping against
// other units and ground it may not enter; it reports the base reached,
// the distance gone, why it stopped and whether it left the table.
func (s *State) flee(u *Unit, b engine.Base, h engine.Heading, dist float64) (engine.Base, float64, string, bool) {
	target := b.Center.Add(h.Vec().Scale(dist))
	frac, stop := 1.0, ""
	bs, us, behind := s.runningFrom(u, b, h)
	if f, hit := b.Sweep(target, bs...); hit >= 0 && f < frac {
		frac, stop = f, fmt.Sprintf("it is stopped by %s", us[hit].ID)
	}
	for i := range s.Terrain {
		f := &s.Terrain[i]
		g := f.ground()
		if !(g.Obstacle() || u.Class.Move(g.Movement()) == 0) || b.Gap(f.Area) <= 2*engine.ContactTolerance {
			continue
		}
		if fr, ok := sweepFrac(b, target, f.Area); ok && fr < frac {
			frac, stop = fr, fmt.Sprintf("it is stopped at the edge of %s", f.Label())
		}
	}
	to := b.WithCenter(b.Center.Lerp(target, frac))
	for _, o := range behind {
		if to.Clashes(o.Base) {
			// Stopped before it got clear of the unit it turned
			// over: it cannot run at all.
			return b, 0, fmt.Sprintf("it is stopped by %s", o.ID), false
		}
	}
	return to, dist * frac, stop, !s.onTable(to)
}

// routMove turns u toward its own edge and moves it a full move (§3);
// card marks a rout on a charge made on the card in play. Elephants do
// not rout: they rampage. A unit that cannot even turn where it stands
// without standing on another (hemmed in, the enemy at its back) stays
// as it stood: it does not run, and a charge that reaches it captures
// it.
func (s *State) routMove(tx *engine.Tx, u *Unit, card bool) error {
	if u.Class == Elephant {
		return s.rampage(tx, u)
	}
	h := u.Side.forward().Reverse()
	b := u.Base.WithFacing(h).WithCenter(u.Base.Center)
	to, d, stop, off := s.flee(u, b, h, s.fullMove(u))
	if d == 0 && s.clashes(u, to) {
		to = u.Base
	}
	return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Routs, From: u.Base, To: to, Ranks: u.Ranks, Dist: d, Stop: stop, Fled: off, Card: card})
}

// runningFrom is the units in the way of u, about to run along h from b
// (others, with their bases), but for those it leaves behind: a unit
// that turns about its centre to run (a rout, §3) may swing its corners
// over a unit it was only touching, one it fought front to front at an
// angle, and it runs away from that unit, not through it. A unit b
// stands on that u's own base did not, and that the first inch of the
// run takes it out of rather than deeper into, is left behind; so is
// none that u stood on already, nor one in its path.
func (s *State) runningFrom(u *Unit, b engine.Base, h engine.Heading) ([]engine.Base, []*Unit, []*Unit) {
	bs, us := s.others(u)
	var behind []*Unit
	step := b.WithCenter(b.Center.Add(h.Vec().Scale(0.1)))
	for i := 0; i < len(bs); {
		o := bs[i]
		if d := b.Penetration(o); d > engine.ContactTolerance && !u.Base.Clashes(o) && step.Penetration(o) < d {
			behind = append(behind, us[i])
			bs, us = slices.Delete(bs, i, i+1), slices.Delete(us, i, i+1)
			continue
		}
		i++
	}
	return bs, us, behind
}

// fallBack moves u a full move along heading h, keeping its facing:
// straight back, or away from the enemy that touches it or charges it
// in a flank or the rear (§3; RULINGS.md, btg, "results").
func (s *State) fallBack(tx *engine.Tx, u *Unit, h engine.Heading, why MoveKind) error {
	to, d, stop, off := s.flee(u, u.Base, h, s.fullMove(u))
	return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: why, From: u.Base, To: to, Ranks: u.Ranks, Dist: d, Stop: stop, Fled: off})
}

// avoidMove moves u a full move straight away from the charger.
func (s *State) avoidMove(tx *engine.Tx, u, from *Unit) error {
	h := engine.HeadingTo(from.Base.Center, u.Base.Center)
	to, d, stop, off := s.flee(u, u.Base, h, s.fullMove(u))
	return s.emitMove(tx, Moved{Unit: u.ID, Label: u.Label(), Why: Avoid, From: u.Base, To: to, Ranks: u.Ranks, Dist: d, Stop: stop, Fled: off})
}

// emitMove emits a unit's move and then deals with the enemy leaders
// standing alone in its way.
func (s *State) emitMove(tx *engine.Tx, m Moved) error {
	if err := tx.Emit(m); err != nil {
		return err
	}
	return s.overrun(tx, m)
}

// overrun deals with each enemy leader standing alone whom the move m
// runs into or ends against. The text gives a lone leader no rule, and
// he has no men to fight with; but he is one man on a horse, quicker
// than any unit, so he rides out of its way to the nearest friendly
// unit without a leader within his 12" and takes command of it. With
// none in reach he is taken prisoner (RULINGS.md, btg, "Leaders").
func (s *State) overrun(tx *engine.Tx, m Moved) error {
	u := s.Unit(m.Unit)
	if u == nil || m.From.Center == m.To.Center {
		return nil
	}
	for _, l := range s.loneLeaders(u.Side.Other()) {
		lb := l.Base()
		_, hit := m.From.WithFacing(m.To.Facing).Sweep(m.To.Center, lb)
		if hit < 0 && m.To.Gap(lb) > engine.ContactTolerance {
			continue
		}
		if f := s.refuge(l); f != nil {
			if err := tx.Emit(LeaderMoved{Leader: l.ID, From: l.At, To: f.Base.Center, Facing: f.Base.Facing, Attach: f.ID, Overrun: u.ID}); err != nil {
				return err
			}
			continue
		}
		why := fmt.Sprintf("%s, alone in the way of %s with no friendly unit to ride to within %s, is taken prisoner.", l.Label(), u.ID, inches(leaderMove))
		if err := tx.Emit(LeaderLeft{Leader: l.ID, Captured: true, Why: why}); err != nil {
			return err
		}
	}
	return nil
}

// refuge is the friendly unit a lone leader l rides to when an enemy
// runs into him: the nearest within his move that he may command.
func (s *State) refuge(l *Leader) *Unit {
	var best *Unit
	gap := leaderMove + 0.01
	for _, o := range s.inPlay(l.Side) {
		if o.Class.Siege() || s.leaderOf(o) != nil {
			continue
		}
		if d := o.Base.Gap(l.Base()); d <= gap {
			best, gap = o, d
		}
	}
	return best
}

// baptismReach is how near the shaman's point a crossing is barred
// (Baptism, §6; RULINGS.md, btg, "events").
const baptismReach = 4

// segDist is the distance from p to the segment a–b.
func segDist(p, a, b engine.Vec) float64 {
	ab := b.Sub(a)
	l := ab.Dot(ab)
	if l == 0 {
		return p.Dist(a)
	}
	t := max(0, min(1, p.Sub(a).Dot(ab)/l))
	return p.Dist(a.Add(ab.Scale(t)))
}
