package btg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Stage is where a battle stands: mustering the armies, deploying them,
// one phase of a turn (§ sequence of play), or over. Morale, melee and
// the rally/rout phase run by themselves when both sides end their fire,
// so a game never waits in them.
type Stage uint8

const (
	Mustering Stage = iota // the book is open; the two armies are raised
	Deploying              // both sides set out their units
	Movement               // cards are drawn and units move (§1)
	Fire                   // both sides shoot (§2)
	Over                   // the battle has ended
)

var stageNames = [...]string{"mustering", "deployment", "movement", "fire", "over"}

func (s Stage) String() string { return stageNames[s] }

// Other is the opposing side.
func (s Side) Other() Side { return 1 - s }

// forward is the heading toward the enemy's edge: black deploys on the
// south edge and faces north.
func (s Side) forward() engine.Heading {
	if s == RedSide {
		return engine.HeadingS
	}
	return engine.HeadingN
}

// Status is what a unit is doing beyond standing in good order.
type Status uint8

const (
	Steady    Status = iota
	Routed           // running for its own edge (§3)
	Rampaging        // elephants out of control (§3)
	Gone             // off the table: see Unit.Lost
)

// Loss says how a unit left the battle.
type Loss string

const (
	Destroyed Loss = "destroyed"
	Captured  Loss = "captured"
	Fled      Loss = "fled off the table"
	Left      Loss = "left the field"
)

// Options are the book's terms, fixed when it opens.
type Options struct {
	Width  float64 `json:"width"`  // inches east to west
	Depth  float64 `json:"depth"`  // inches south to north
	Turns  int     `json:"turns"`  // the agreed number of turns
	Cards  int     `json:"cards"`  // cards drawn in each movement phase
	Siege  bool    `json:"siege"`  // the siege expansion (§7) is played
	Deploy float64 `json:"deploy"` // depth of each side's deployment zone
}

// Army is one side's army.
type Army struct {
	Player engine.PlayerID `json:"player"`
	Name   string          `json:"name"`
	Tag    string          `json:"tag"`
	Civ    string          `json:"civ"`            // key of its civilization (§8a)
	List   string          `json:"list,omitempty"` // the unit list it was raised from
	Done   bool            `json:"done,omitempty"` // finished its part of the stage
}

// Effects are what random events give a unit until the end of the turn
// (§6).
type Effects struct {
	Armor     int  `json:"armor,omitempty"`     // Mystical Armor, Vultures
	Bonus     int  `json:"bonus,omitempty"`     // Mystical Ferocity: melee bonus dice
	Kills     int  `json:"kills,omitempty"`     // Bloodthirstiness: melee kills
	HitBonus  int  `json:"hitBonus,omitempty"`  // Marksmen
	Immune    bool `json:"immune,omitempty"`    // Prayer: no missile hits it
	Still     bool `json:"still,omitempty"`     // Prayer, Laziness, Stupid!: may not move
	Twice     bool `json:"twice,omitempty"`     // Mystical Speed
	WoodsFree bool `json:"woodsFree,omitempty"` // Hidden for a Reason
	Ferry     bool `json:"ferry,omitempty"`     // Elephants!: crosses water without a stop
}

// Unit is a unit of figures: a rigid block whose base is its files times
// the class's frontage wide and its ranks deep (RULINGS.md, btg, "figures
// on a chat board").
type Unit struct {
	ID      string      `json:"id"`
	Side    Side        `json:"side"`
	Class   Class       `json:"class"`
	Weapon  Weapon      `json:"weapon"`
	Figures int         `json:"figures"`
	Start   int         `json:"start"` // figures when raised
	Armor   int         `json:"armor"`
	Morale  Colour      `json:"morale"`
	Wounds  int         `json:"wounds,omitempty"` // elephants: a figure's first hit (§5.G)
	DV      int         `json:"dv,omitempty"`     // siege engines' damage value (§7)
	Ranks   int         `json:"ranks"`
	Base    engine.Base `json:"base"`
	Placed  bool        `json:"placed,omitempty"`
	Status  Status      `json:"status,omitempty"`
	Lost    Loss        `json:"lost,omitempty"`
	Leader  string      `json:"leader,omitempty"` // the leader attached

	Moves int `json:"moves,omitempty"` // moves made this turn on a card
	// OnCard is the card of the turn (its number, as Drawn counts) its
	// last move on a card was made on.
	OnCard int `json:"onCard,omitempty"`
	// Forced is set when a move it did not choose (a fall back, getting
	// out of a charge's way, an event) took it somewhere this turn: for
	// fire it has moved all the same (2.D).
	Forced bool `json:"forced,omitempty"`
	Fired  bool `json:"fired,omitempty"`  // fired this turn
	Impact int  `json:"impact,omitempty"` // the turn it came into contact by a charge
	// Met lists the units a charge brought it against in turn Impact: its
	// spear's impact die is for those (5.D).
	Met []string `json:"met,omitempty"`
	// Ran is the last turn it made a rout (or rampage) move: the move it
	// makes when it routs stands for that turn's rally/rout phase (§3).
	Ran int `json:"ran,omitempty"`
	// Edge is the last turn a move brought it up against water, a wall
	// or a building it was not touching, and EdgeOf names those: it
	// crosses or enters them in a later turn (1.E, §4).
	Edge   int      `json:"edge,omitempty"`
	EdgeOf []string `json:"edgeOf,omitempty"`
	Reload int      `json:"reload,omitempty"` // siege: the turn it last shot
	// Return is the turn a unit that went for the village's slingers
	// comes back (Lost and Found, §6), and where.
	Return   int        `json:"return,omitempty"`
	ReturnAt engine.Vec `json:"returnAt,omitzero"`
	Effects  Effects    `json:"effects,omitzero"`
	// Volley is the figures it had when the fire phase began: both sides
	// shoot as if at once (RULINGS.md, btg, "fire").
	Volley int `json:"volley,omitempty"`
	// Shaken names what it must check morale for in the next morale
	// phase (§3 A, F, G); empty when nothing.
	Shaken string `json:"shaken,omitempty"`
}

// In reports whether the unit stands on the table.
func (u *Unit) In() bool { return u.Placed && u.Status != Gone }

// Label names the unit for players: "GRE-3 (phalanx, spear, 14/16)".
func (u *Unit) Label() string { return fmt.Sprintf("%s (%s)", u.ID, u.Describe()) }

// Describe says what the unit is: class, weapon and figures.
func (u *Unit) Describe() string {
	if u.Class.Siege() {
		return fmt.Sprintf("%s, %d crew", u.Class, u.Figures)
	}
	return fmt.Sprintf("%s, %s, %d/%d", u.Class, u.Weapon.Key(), u.Figures, u.Start)
}

// UnderHalf reports a unit below half its figures (§3 modifiers).
func (u *Unit) UnderHalf() bool { return 2*u.Figures < u.Start }

// Missile reports a unit that shoots.
func (u *Unit) Missile() bool { return u.Weapon.Missile() || u.Class.Siege() && u.Class != Helepolis }

// Leader is a commander on the table: the army's general, the supreme
// leader, or a minor leader (RULINGS.md, btg, "leaders"). Attached to a
// unit he moves with it; otherwise he stands alone at At.
type Leader struct {
	ID      string         `json:"id"`
	Side    Side           `json:"side"`
	Supreme bool           `json:"supreme,omitempty"`
	Hits    int            `json:"hits,omitempty"` // two kill him (§2.I, §5.G)
	Unit    string         `json:"unit,omitempty"`
	At      engine.Vec     `json:"at"`
	Facing  engine.Heading `json:"facing"`
	Placed  bool           `json:"placed,omitempty"`
	Gone    bool           `json:"gone,omitempty"`
	// Captured is a gone leader the enemy took prisoner.
	Captured bool `json:"captured,omitempty"`
	Moved    bool `json:"moved,omitempty"`
}

// Label names the leader for players.
func (l *Leader) Label() string {
	if l.Supreme {
		return l.ID + " (general)"
	}
	return l.ID + " (leader)"
}

// leaderSize is the side of a lone leader's square base, in inches.
const leaderSize = 1.0

// Base is a lone leader's base.
func (l *Leader) Base() engine.Base {
	return engine.Base{Center: l.At, Width: leaderSize, Depth: leaderSize, Facing: l.Facing}
}

// Card is the card in play in the movement phase (§1.A): what it lets
// its side do, and how much of it is left.
type Card struct {
	Card engine.Card `json:"card"`
	Side Side        `json:"side"`
	// Units is how many units the card still moves; Leaders is set while
	// unattached leaders move (both sides, each ending with /done).
	Units   int     `json:"units,omitempty"`
	Leaders bool    `json:"leaders,omitempty"`
	Done    [2]bool `json:"done,omitempty"`
}

// Charge is a charge waiting for its target's answer (§5.A): cavalry and
// camelry may try to avoid it.
type Charge struct {
	Charger string      `json:"charger"`
	Target  string      `json:"target"`
	To      engine.Base `json:"to"`   // where the charger meets it
	Dist    float64     `json:"dist"` // how far the charge goes
}

// Judgement is a random event waiting for the game master (§6).
type Judgement struct {
	Event string `json:"event"`
	Side  Side   `json:"side"`
	Unit  string `json:"unit,omitempty"`
	Ask   string `json:"ask"`
}

// State is a battle of By the Gods!.
type State struct {
	Master  engine.PlayerID `json:"master"`
	Options Options         `json:"options"`
	Stage   Stage           `json:"stage"`
	Turn    int             `json:"turn"`
	Armies  []Army          `json:"armies"`
	Units   []Unit          `json:"units"`
	Leaders []Leader        `json:"leaders"`
	Terrain []Feature       `json:"terrain"`
	// Bots are the players the bot holds the armies to come as, while
	// the battle musters (opponent:bot or bots).
	Bots []engine.PlayerID `json:"bots,omitempty"`
	// Drawn counts the movement cards drawn this turn (event cards drawn
	// to name an event do not count).
	Drawn int        `json:"drawn,omitempty"`
	Card  *Card      `json:"card,omitempty"`
	Await *Charge    `json:"await,omitempty"`
	Judge *Judgement `json:"judge,omitempty"`
	// Side-wide effects of events this turn (§6): Alligators! and Baptism.
	Alligators [2]bool        `json:"alligators,omitempty"`
	Baptism    [2]*engine.Vec `json:"baptism,omitempty"`
	Result     string         `json:"result,omitempty"`
}

// Apply folds an event into the state.
func (s *State) Apply(e engine.Event) error { return engine.Fold(s, e) }

// Clone returns a copy of s that shares nothing with it.
func (s *State) Clone() engine.State { return engine.Copy(s) }

// Over reports whether the battle has ended.
func (s *State) Over() bool { return s.Stage == Over }

// Unit returns the unit id (any case), or nil.
func (s *State) Unit(id string) *Unit {
	for i := range s.Units {
		if strings.EqualFold(s.Units[i].ID, id) {
			return &s.Units[i]
		}
	}
	return nil
}

// Leader returns the leader id (any case), or nil.
func (s *State) Leader(id string) *Leader {
	for i := range s.Leaders {
		if strings.EqualFold(s.Leaders[i].ID, id) {
			return &s.Leaders[i]
		}
	}
	return nil
}

func (s *State) mustUnit(id string) (*Unit, error) {
	if u := s.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("btg: no unit %q", id)
}

func (s *State) mustLeader(id string) (*Leader, error) {
	if l := s.Leader(id); l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("btg: no leader %q", id)
}

// findUnit reads a unit named by a player.
func (s *State) findUnit(name string) (*Unit, error) {
	name = strings.TrimSpace(name)
	if u := s.Unit(name); u != nil {
		return u, nil
	}
	if name == "" {
		return nil, engine.Refuse("", "Name a unit, like GRE-3.")
	}
	return nil, engine.Refuse("", "There is no unit %q in this battle; /status lists them.", name)
}

// army returns side's army, or nil before it is raised.
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

// sideOf returns the side actor leads. A player leading both armies (a
// game master trying the rules alone) acts for prefer.
func (s *State) sideOf(actor engine.PlayerID, prefer Side) (Side, bool) {
	mine := []Side{}
	for i, a := range s.Armies {
		if a.Player == actor {
			mine = append(mine, Side(i))
		}
	}
	switch len(mine) {
	case 0:
		return 0, false
	case 1:
		return mine[0], true
	}
	return prefer, true
}

// civ returns side's civilization.
func (s *State) civ(side Side) Civ {
	if a := s.army(side); a != nil {
		if c, ok := CivByKey(a.Civ); ok {
			return c
		}
	}
	return Civ{}
}

// leaderOf returns the leader attached to u, or nil.
func (s *State) leaderOf(u *Unit) *Leader {
	if u.Leader == "" {
		return nil
	}
	l := s.Leader(u.Leader)
	if l == nil || l.Gone {
		return nil
	}
	return l
}

// fileWidth and rankDepth are the inches a figure takes across the front
// and a rank takes front to back (RULINGS.md, btg, "figures on a chat
// board").
func (c Class) fileWidth() float64 {
	switch {
	case c.Siege():
		return 0
	case c == Chariot || c == Elephant:
		return 2
	case c.Mounted():
		return 1
	}
	return 0.75
}

func (c Class) rankDepth() float64 {
	switch {
	case c == Chariot || c == Elephant:
		return 2.5
	case c.Mounted():
		return 1.5
	}
	return 0.75
}

// defaultRanks is the formation a unit takes when none is given: phalanx
// and legion four deep, other foot two, mounted troops and engines one.
func (c Class) defaultRanks() int {
	switch {
	case c == Phalanx || c == Legion:
		return 4
	case c.Foot():
		return 2
	}
	return 1
}

// siegeBase is the size of a siege engine's base, whatever its crew.
const siegeBase = 2.5

// size returns the width and depth of a unit of figs in ranks.
func (c Class) size(figs, ranks int) (w, d float64) {
	if c.Siege() {
		return siegeBase, siegeBase
	}
	ranks = max(1, min(ranks, figs))
	files := (figs + ranks - 1) / ranks
	return float64(max(files, 1)) * c.fileWidth(), float64(ranks) * c.rankDepth()
}

// lose takes n figures from u, and the unit is destroyed at none. Its
// base shrinks, but it stays locked with every unit it fought (5.A, 5.B):
// see refit.
func (s *State) lose(u *Unit, n int) {
	u.Figures = max(0, u.Figures-n)
	if u.Figures == 0 {
		u.Status, u.Lost = Gone, Destroyed
		return
	}
	s.refit(u)
}

// refit fits u's base to its figures. Losses come off the files at the
// ends and the rear rank, the front edge kept where it is; but units in
// contact stay locked until one is destroyed, routs or falls back (5.A,
// 5.B), so a loss must not part them. When taking the files off both
// ends would leave a foe that touched the unit apart from it (a unit
// charged in the flank, a charger that struck with a corner), the files
// come off the other end, or the rank off the front, whichever keeps
// every contact; failing that, a foe left apart steps up to touch again
// (RULINGS.md, btg, "locked in melee"). Figures that join grow the base
// the same way, away from a foe it would otherwise overlap; with no room
// at all the base stays as it was.
func (s *State) refit(u *Unit) {
	was := s.foes(u)
	old := u.Base
	w, d := u.Class.size(max(u.Figures, 1), u.Ranks)
	best, kept := old, -1
	for _, b := range inPlaceOf(old, w, d) {
		n := 0
		for _, o := range was {
			if b.Touches(o.Base) {
				n++
			}
		}
		if n > kept && !s.clashes(u, b) {
			best, kept = b, n
		}
	}
	u.Base = best
	for _, o := range was {
		if !best.Touches(o.Base) {
			s.closeUp(o, u)
		}
	}
}

// inPlaceOf is the bases w wide and d deep, facing as old does, that a
// unit standing on old may take in its place when it re-forms: its front
// edge kept, then its rear edge, each centred on its old front or flush
// with either end of it.
func inPlaceOf(old engine.Base, w, d float64) []engine.Base {
	fwd := old.Facing.Vec()
	right := engine.Vec{X: fwd.Y, Y: -fwd.X}
	front := old.FrontCenter()
	rear := old.Center.Sub(fwd.Scale(old.Depth / 2))
	side := right.Scale((old.Width - w) / 2)
	sized := engine.Base{Width: w, Depth: d, Facing: old.Facing}
	var out []engine.Base
	for _, anchor := range []engine.Vec{front.Sub(fwd.Scale(d / 2)), rear.Add(fwd.Scale(d / 2))} {
		for _, shift := range []engine.Vec{{}, side.Scale(-1), side} {
			out = append(out, sized.WithCenter(anchor.Add(shift)))
		}
	}
	return out
}

// clashes reports whether b, a new base for u, stands on another unit.
func (s *State) clashes(u *Unit, b engine.Base) bool {
	for i := range s.Units {
		if o := &s.Units[i]; o != u && o.In() && b.Clashes(o.Base) {
			return true
		}
	}
	return false
}

// closeUp steps o, which touched u before u's losses, straight up to u
// again: forward when its front was the side in contact, else toward
// u's middle. It stays where it is if something else is in the way.
func (s *State) closeUp(o, u *Unit) {
	dir := engine.HeadingTo(o.Base.Center, u.Base.Center).Vec()
	if o.Base.ContactSide(u.Base) == engine.Front || o.Base.SideFacing(u.Base.Center) == engine.Front {
		dir = o.Base.Facing.Vec()
	}
	gap := o.Base.Gap(u.Base)
	frac, hit := o.Base.Sweep(o.Base.Center.Add(dir.Scale(gap+1)), u.Base)
	if hit < 0 {
		return
	}
	b := o.Base.WithCenter(o.Base.Center.Lerp(o.Base.Center.Add(dir.Scale(gap+1)), frac))
	if b.Touches(u.Base) && !s.clashes(o, b) {
		o.Base = b
	}
}

// gain adds n figures to u, up to the most a unit may have. Its base
// grows, keeping its contacts as refit says.
func (s *State) gain(u *Unit, n int) {
	u.Figures = min(MaxFigures, u.Figures+n)
	s.refit(u)
}

// Enemies lists the units of the other side on the table.
func (s *State) inPlay(side Side) []*Unit {
	var out []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && u.In() {
			out = append(out, u)
		}
	}
	return out
}

// touching lists the enemies in contact with u (§5.A): a unit touching an
// enemy is locked in melee.
func (s *State) touching(u *Unit) []*Unit {
	var out []*Unit
	for i := range s.Units {
		o := &s.Units[i]
		if o.Side != u.Side && o.In() && u.Base.Touches(o.Base) {
			out = append(out, o)
		}
	}
	return out
}

// engaged reports whether u is locked in melee.
func (s *State) engaged(u *Unit) bool { return len(s.touching(u)) > 0 }

// obstacles are the bases u's move must not run into: every other unit on
// the table.
func (s *State) others(u *Unit) ([]engine.Base, []*Unit) {
	var bs []engine.Base
	var us []*Unit
	for i := range s.Units {
		o := &s.Units[i]
		if o != u && o.In() {
			bs, us = append(bs, o.Base), append(us, o)
		}
	}
	return bs, us
}

// onTable reports whether b lies wholly on the table.
func (s *State) onTable(b engine.Base) bool { return b.Within(s.Options.Width, s.Options.Depth) }

// edgeDistance is how far p lies from side's own edge.
func (s *State) edgeDistance(side Side, p engine.Vec) float64 {
	if side == RedSide {
		return s.Options.Depth - p.Y
	}
	return p.Y
}

// lost counts side's units out of the battle, and all its units.
func (s *State) lost(side Side) (lost, all int) {
	for _, u := range s.Units {
		if u.Side != side {
			continue
		}
		all++
		if u.Status == Gone && u.Return == 0 {
			lost++
		}
	}
	return lost, all
}

// figuresLost is the share of side's figures lost, from 0 to 1.
func (s *State) figuresLost(side Side) float64 {
	have, start := 0, 0
	for _, u := range s.Units {
		if u.Side != side {
			continue
		}
		start += u.Start
		// A unit gone to the village for slingers keeps its figures
		// and comes back (Lost and Found, §6): they are not lost.
		if u.Status != Gone || u.Return != 0 {
			have += u.Figures
		}
	}
	if start == 0 {
		return 0
	}
	return 1 - float64(have)/float64(start)
}

func inches(f float64) string { return engine.Decimal(f) + "\"" }

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }

// sortedIDs returns ids sorted, for messages that list units.
func sortedIDs(us []*Unit) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.ID)
	}
	slices.Sort(out)
	return out
}
