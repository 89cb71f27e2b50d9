package btg

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Opening a battle, raising the two armies (a sample army or a unit list
// typed in one line, with a civilization), laying out the terrain and
// deploying.

// Table defaults: a six by four foot table, eight turns, six movement
// cards a turn (RULINGS.md, btg, "deck"), and deployment zones 8" deep.
const (
	defaultWidth  = 72
	defaultDepth  = 48
	defaultTurns  = 8
	defaultCards  = 6
	defaultDeploy = 8
)

// BookOpened opens the battle.
type BookOpened struct {
	Master  engine.PlayerID `json:"master"`
	Options Options         `json:"options"`
	// Bots are the players the bot holds the armies to come as
	// (opponent:bot or bots): each picks its own at once.
	Bots []engine.PlayerID `json:"bots,omitempty"`
}

// ArmyRaised brings one side's army to the battle, each unit's base
// morale rolled on 2D6 (§3).
type ArmyRaised struct {
	Side    Side     `json:"side"`
	Army    Army     `json:"army"`
	Units   []Unit   `json:"units"`
	Leaders []Leader `json:"leaders"`
	Rolls   []int    `json:"rolls"` // the 2D6 of each unit's base morale
	Alias   string   `json:"alias,omitempty"`
}

// UnitPlaced sets a unit on the table: in deployment, or where a scenario
// or the game master wants it.
type UnitPlaced struct {
	Unit  string      `json:"unit"`
	Label string      `json:"label"`
	Base  engine.Base `json:"base"`
	Ranks int         `json:"ranks"`
}

// LeaderPlaced sets a lone leader on the table.
type LeaderPlaced struct {
	Leader string         `json:"leader"`
	At     engine.Vec     `json:"at"`
	Facing engine.Heading `json:"facing"`
}

// TerrainLaid lays a feature; TerrainCleared takes one off again.
type TerrainLaid struct {
	Feature Feature `json:"feature"`
}

type TerrainCleared struct {
	Name  string `json:"name"`
	Index int    `json:"index"`
}

// Deployed ends a side's deployment.
type Deployed struct {
	Side Side   `json:"side"`
	Army string `json:"army"`
}

func (BookOpened) Kind() string     { return "btg.book-opened" }
func (ArmyRaised) Kind() string     { return "btg.army-raised" }
func (UnitPlaced) Kind() string     { return "btg.unit-placed" }
func (LeaderPlaced) Kind() string   { return "btg.leader-placed" }
func (TerrainLaid) Kind() string    { return "btg.terrain-laid" }
func (TerrainCleared) Kind() string { return "btg.terrain-cleared" }
func (Deployed) Kind() string       { return "btg.deployed" }

var setupBodies = engine.BodyTypes{
	BookOpened{}.Kind():     engine.Decoder[BookOpened](),
	ArmyRaised{}.Kind():     engine.Decoder[ArmyRaised](),
	UnitPlaced{}.Kind():     engine.Decoder[UnitPlaced](),
	LeaderPlaced{}.Kind():   engine.Decoder[LeaderPlaced](),
	TerrainLaid{}.Kind():    engine.Decoder[TerrainLaid](),
	TerrainCleared{}.Kind(): engine.Decoder[TerrainCleared](),
	Deployed{}.Kind():       engine.Decoder[Deployed](),
}

func (b BookOpened) Apply(s *State) error {
	s.Master, s.Options, s.Stage, s.Bots = b.Master, b.Options, Mustering, b.Bots
	return nil
}

func (b BookOpened) Text() string {
	o := b.Options
	t := fmt.Sprintf("%s opens a battle of By the Gods! on a table of %s by %s: %s, %s a turn. Each side raises an army (/army pick, or /army build with a civilization); the first plays black and deploys on the south edge, the second red on the north.",
		b.Master, inches(o.Width), inches(o.Depth), plural(o.Turns, "turn", "turns"), plural(o.Cards, "movement card", "movement cards"))
	return t + engine.OpenedFor(b.Bots, "The bot (%s) leads the other side and picks its army now.", "The bot leads both sides (%s), and picks their armies now.")
}

func (b ArmyRaised) Apply(s *State) error {
	if int(b.Side) != len(s.Armies) {
		return fmt.Errorf("btg: army %d raised as side %d", len(s.Armies), b.Side)
	}
	s.Armies = append(s.Armies, b.Army)
	s.Units = append(s.Units, b.Units...)
	s.Leaders = append(s.Leaders, b.Leaders...)
	if len(s.Armies) == 2 {
		s.Stage = Deploying
	}
	return nil
}

func (b ArmyRaised) Text() string {
	cv, _ := CivByKey(b.Army.Civ)
	var units []string
	for _, u := range b.Units {
		units = append(units, fmt.Sprintf("%s %s %s", u.ID, u.Describe(), u.Morale))
	}
	civ := fmt.Sprintf("%s (%s)", cv.Name, cv.Attribute)
	if b.Alias != "" {
		civ = fmt.Sprintf("%s as the nearest listed people to the %s (§8a: %s)", cv.Name, b.Alias, cv.Attribute)
	}
	var leaders []string
	for _, l := range b.Leaders {
		leaders = append(leaders, l.Label())
	}
	return fmt.Sprintf("%s leads the %s, %s, playing %s from the %s edge. Base morale by 2D6 (§3): %s. Leaders: %s.",
		b.Army.Player, b.Army.Name, civ, b.Side, map[Side]string{BlackSide: "south", RedSide: "north"}[b.Side],
		strings.Join(units, "; "), strings.Join(leaders, ", "))
}

func (b UnitPlaced) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Base, u.Ranks, u.Placed = b.Base, b.Ranks, true
	return nil
}

func (b UnitPlaced) Text() string {
	return fmt.Sprintf("%s is placed with its front centre at %s, facing %s, %s deep.", b.Label, b.Base.FrontCenter(), b.Base.Facing, plural(b.Ranks, "rank", "ranks"))
}

func (b LeaderPlaced) Apply(s *State) error {
	l, err := s.mustLeader(b.Leader)
	if err != nil {
		return err
	}
	if u := s.Unit(l.Unit); u != nil && u.Leader == l.ID {
		u.Leader = ""
	}
	l.At, l.Facing, l.Placed, l.Unit = b.At, b.Facing, true, ""
	return nil
}

func (b LeaderPlaced) Text() string {
	return fmt.Sprintf("%s stands alone at %s.", b.Leader, b.At)
}

func (b TerrainLaid) Apply(s *State) error {
	s.Terrain = append(s.Terrain, b.Feature)
	return nil
}

func (b TerrainLaid) Text() string {
	f := b.Feature
	w, d := f.Area.Width, f.Area.Depth
	owner := ""
	if f.Side != nil {
		owner = fmt.Sprintf(", raised by the %s side's builders", *f.Side)
	}
	return fmt.Sprintf("Terrain: %s, %s by %s, centred at %s%s.", f.Label(), inches(w), inches(d), f.Area.Center, owner)
}

func (b TerrainCleared) Apply(s *State) error {
	if b.Index < 0 || b.Index >= len(s.Terrain) {
		return fmt.Errorf("btg: no terrain %d to clear", b.Index)
	}
	s.Terrain = slices.Delete(slices.Clip(s.Terrain), b.Index, b.Index+1)
	return nil
}

func (b TerrainCleared) Text() string {
	return fmt.Sprintf("Terrain: %s is taken off the table.", b.Name)
}

func (b Deployed) Apply(s *State) error {
	s.Armies[b.Side].Done = true
	return nil
}

func (b Deployed) Text() string { return fmt.Sprintf("The %s have finished their deployment.", b.Army) }

var openCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a battle in this channel; you keep it as its game master.", Flags: engine.Opens, Options: append([]engine.OptionSpec{
		{Name: "turns", Help: "the agreed number of turns (default 8)", Kind: engine.OptInt},
		{Name: "size", Help: "the table in inches, width x depth (default 72x48)"},
		{Name: "cards", Help: "movement cards drawn each turn (default 6)", Kind: engine.OptInt},
	}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "army pick", Help: "Lead one of the sample armies; the first army plays black from the south edge, the second red from the north.", Options: append([]engine.OptionSpec{
		{Name: "list", Help: "the sample army", Required: true, Choices: sampleKeys()},
	}, engine.BotSetUpOptions...)}, Run: pickArmy},
	{CommandSpec: engine.CommandSpec{Name: "army build", Help: "Lead an army from a unit list typed in one line, with its civilization (§8a).",
		Example: `/army build name:Spartans civ:greek units:"4 phalanx spear 16, 2 lt-inf javelin 8, 2 leaders"`, Options: append([]engine.OptionSpec{
			{Name: "units", Help: "items COUNT CLASS WEAPON FIGURES [armor N], and N leaders, separated by commas", Required: true},
			{Name: "name", Help: "the army's name", Required: true},
			{Name: "civ", Help: "its civilization, or the people it is nearest (§8a)"},
			{Name: "tag", Help: "2 to 4 letters for its unit names (default: from its name)"},
		}, engine.BotSetUpOptions...)}, Run: buildArmy},
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "Deploy a unit or leader in your zone, by where its front centre stands; unit:all lays out the rest.", Example: "/place unit:GRE-1 at:30,6 facing:N ranks:4", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the unit or leader, or all", Kind: engine.OptElement, Required: true},
		{Name: "at", Help: "where its front centre stands, x,y in inches", Kind: engine.OptPoint},
		{Name: "facing", Help: "N, NE, E… or degrees; default toward the enemy"},
		{Name: "ranks", Help: "how many ranks deep it stands", Kind: engine.OptInt},
	}}, Run: placeCommand},
}

var setupCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "setup terrain", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Lay terrain before the first turn: two opposite corners of an area, or a wall's two ends. Game master only.",
		Example: `/setup terrain kind:woods where:"20,18 30,26" name:"the sacred grove"`,
		Options: []engine.OptionSpec{
			{Name: "kind", Help: "hill, rough, woods, swamp, water, building, barracks, wall, tower…", Required: true, Choices: groundKeys()},
			{Name: "where", Help: "two points x,y: an area's opposite corners, or a wall's ends", Required: true},
			{Name: "name", Help: "what the table calls it, like the sacred grove", Required: true},
			{Name: "side", Help: "for a structure, whose builders raised it (black or red): their civilization may double its damage value", Choices: []string{"black", "red"}},
		}}, Run: setupTerrain},
	{CommandSpec: engine.CommandSpec{Name: "setup clear", Flags: engine.MasterOnly | engine.SetsUp,
		Help: "Take a piece of terrain off the table before the first turn. Game master only.", Example: "/setup clear name:\"the sacred grove\"",
		Options: []engine.OptionSpec{
			{Name: "name", Help: "the terrain's name", Kind: engine.OptFeature, Required: true},
		}}, Run: setupClear},
	{CommandSpec: engine.CommandSpec{Name: "setup place", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Set a unit or leader anywhere before the first turn, where a scenario wants it. Game master only.",
		Example: "/setup place piece:GRE-1 at:30,20 facing:N",
		Options: []engine.OptionSpec{
			{Name: "piece", Help: "the unit or leader to place", Kind: engine.OptElement, Required: true},
			{Name: "at", Help: "where its front centre stands, x,y in inches", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "N, NE, E… or degrees; default toward the enemy"},
			{Name: "ranks", Help: "how many ranks deep it stands", Kind: engine.OptInt},
		}}, Run: setupPlace},
}

var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place PIECE X,Y [FACING] [RANKS]: set a unit or leader anywhere, at any time"}, Run: placeDirective},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND X,Y X,Y NAME [black|red]: lay terrain"}, Run: terrainDirective},
	{CommandSpec: engine.CommandSpec{Name: "figures", Help: "#figures UNIT N: give a unit N figures"}, Run: figuresDirective},
}

func openBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Master != "" {
		return engine.Refuse("", "This battle is already open.")
	}
	o := Options{Width: defaultWidth, Depth: defaultDepth, Deploy: defaultDeploy}
	var err error
	if o.Turns, err = c.Int("turns", defaultTurns); err != nil {
		return err
	}
	if o.Cards, err = c.Int("cards", defaultCards); err != nil {
		return err
	}
	if o.Turns < 1 || o.Turns > 50 {
		return engine.Refuse("", "turns: must be from 1 to 50.")
	}
	if o.Cards < 1 || o.Cards > 30 {
		return engine.Refuse("", "cards: must be from 1 to 30 a turn.")
	}
	if c.Has("size") {
		if o.Width, o.Depth, err = engine.ParseTableSize(c.Opt("size")); err != nil {
			return err
		}
	}
	bots, err := engine.OpenBots(c)
	if err != nil {
		return err
	}
	return tx.Emit(BookOpened{Master: c.Actor, Options: o, Bots: bots})
}

func sampleKeys() []string {
	var out []string
	for _, a := range SampleArmies {
		out = append(out, a.Key())
	}
	return out
}

// Key is the sample army's name as a player types it: "greek-hoplites".
func (a SampleArmy) Key() string { return strings.ReplaceAll(strings.ToLower(a.Name), " ", "-") }

func pickArmy(tx *engine.Tx, s *State, c engine.Command) error {
	key := strings.ToLower(strings.TrimSpace(c.Opt("list")))
	for _, a := range SampleArmies {
		if a.Key() == key {
			return raise(tx, s, c, a.Name, "", a.Civ, a.Units, a.Key())
		}
	}
	return engine.Refuse("", "There is no sample army %q; the lists are %s.", c.Opt("list"), strings.Join(sampleKeys(), ", "))
}

func buildArmy(tx *engine.Tx, s *State, c engine.Command) error {
	return raise(tx, s, c, strings.TrimSpace(c.Opt("name")), c.Opt("tag"), c.Opt("civ"), c.Opt("units"), "")
}

// raise musters an army: its units with their base morale rolled, its
// general and minor leaders.
func raise(tx *engine.Tx, s *State, c engine.Command, name, tag, civName, list, key string) error {
	if s.Stage != Mustering {
		return engine.Refuse("", "Both armies are already on the field.")
	}
	if name == "" {
		return engine.Refuse("", "An army needs a name.")
	}
	cv, alias, err := FindCiv(civName)
	if err != nil {
		return engine.Refuse("§8a", "civ: %s", err)
	}
	specs, minors, err := ParseArmy(list)
	if err != nil {
		return engine.Refuse("", "units: %s.", err)
	}
	tag, err = engine.ArmyTag(tag, name)
	if err != nil {
		return err
	}
	level, bot, err := engine.SetUpForBot(c, s.Master)
	if err != nil {
		return err
	}
	for _, o := range s.Armies {
		if o.Tag == tag {
			tag = tag[:min(len(tag), 3)] + "X"
		}
		if o.Player == c.Actor && c.Actor != s.Master {
			return engine.Refuse("", "You already lead the %s.", o.Name)
		}
	}
	side := Side(len(s.Armies))
	player := c.Actor
	if bot {
		// The bot leads it, marked with its tag, apart from any other.
		player = engine.BotSeat(level, nil, engine.Seat{ID: tag})
	}
	b := ArmyRaised{Side: side, Army: Army{Player: player, Name: name, Tag: tag, Civ: cv.Key, List: key}, Alias: alias}
	n := 0
	for _, sp := range specs {
		for range sp.Count {
			n++
			roll := tx.Roll(engine.TwoD6)
			w, d := sp.Class.size(sp.Figures, sp.Class.defaultRanks())
			u := Unit{ID: fmt.Sprintf("%s-%d", tag, n), Side: side, Class: sp.Class, Weapon: sp.Weapon,
				Figures: sp.Figures, Start: sp.Figures, Armor: sp.Armor, Morale: BaseMorale(sp.Class, roll),
				Ranks: sp.Class.defaultRanks(), Base: engine.Base{Width: w, Depth: d, Facing: side.forward()}}
			if sp.Class.Siege() {
				u.DV = DamageValues["siege weapon"]
			}
			b.Units = append(b.Units, u)
			b.Rolls = append(b.Rolls, roll)
		}
	}
	b.Leaders = append(b.Leaders, Leader{ID: tag + "-G", Side: side, Supreme: true, Facing: side.forward()})
	for i := range minors {
		b.Leaders = append(b.Leaders, Leader{ID: fmt.Sprintf("%s-L%d", tag, i+1), Side: side, Facing: side.forward()})
	}
	return tx.Emit(b)
}

// zone reports whether b lies wholly in side's deployment zone.
func (s *State) zone(side Side, b engine.Base) bool {
	if !s.onTable(b) {
		return false
	}
	for _, c := range b.Corners() {
		if s.edgeDistance(side, c) > s.Options.Deploy+1e-6 {
			return false
		}
	}
	return true
}

func placeCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Deploying {
		return engine.Refuse("", "Units are placed in deployment, after both armies are raised and before the first turn.")
	}
	side, ok := s.sideOf(c.Actor, s.nextToDeploy())
	if !ok {
		return engine.Refuse("", "You lead no army in this battle.")
	}
	if s.Armies[side].Done {
		return engine.Refuse("", "The %s have finished deploying.", s.Armies[side].Name)
	}
	if strings.EqualFold(c.Opt("unit"), "all") {
		return placeAll(tx, s, side)
	}
	if !c.Has("at") {
		return engine.Refuse("", "Give at: where the front centre stands, x,y in inches.")
	}
	return place(tx, s, c.Opt("unit"), c.Opt("at"), c.Opt("facing"), c.Opt("ranks"), &side)
}

// nextToDeploy is the side a player leading both armies places for.
func (s *State) nextToDeploy() Side {
	if len(s.Armies) == 2 && s.Armies[BlackSide].Done {
		return RedSide
	}
	return BlackSide
}

func setupPlace(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "The table is set before the first turn; this battle has begun. A game master moves a unit in play with /ruling.")
	}
	if s.Stage == Mustering {
		return engine.Refuse("", "Units are placed once both armies are raised.")
	}
	return place(tx, s, c.Opt("piece"), c.Opt("at"), c.Opt("facing"), c.Opt("ranks"), nil)
}

func placeDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 2 || len(c.Args) > 4 {
		return engine.Refuse("", "#place takes a piece, a point, and optionally a facing and ranks: #place GRE-1 30,6 N 4")
	}
	if s.Stage == Mustering {
		return engine.Refuse("", "Units are placed once both armies are raised.")
	}
	var facing, ranks string
	if len(c.Args) > 2 {
		facing = c.Args[2]
	}
	if len(c.Args) > 3 {
		ranks = c.Args[3]
	}
	return place(tx, s, c.Args[0], c.Args[1], facing, ranks, nil)
}

func parseRanks(u *Unit, v string) (int, error) {
	if strings.TrimSpace(v) == "" {
		return u.Ranks, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > u.Figures || n > 8 {
		return 0, engine.Refuse("1.B", "ranks: %s stands 1 to %d ranks deep.", u.ID, min(8, u.Figures))
	}
	if u.Class.Siege() && n != 1 {
		return 0, engine.Refuse("§7", "A siege engine has no ranks.")
	}
	return n, nil
}

// place sets a unit or leader at at; within is the side whose zone it
// must stand in (nil for the game master, who may set it anywhere).
func place(tx *engine.Tx, s *State, name, at, facing, ranks string, within *Side) error {
	p, err := engine.ReadPoint("at", at, "inches")
	if err != nil {
		return err
	}
	if l := s.Leader(name); l != nil {
		if within != nil && l.Side != *within {
			return engine.Refuse("", "%s is not yours to place.", l.Label())
		}
		h, err := engine.ReadFacingOr(facing, l.Side.forward())
		if err != nil {
			return err
		}
		lb := engine.Base{Center: p, Width: leaderSize, Depth: leaderSize, Facing: h}
		if !s.onTable(lb) || within != nil && !s.zone(*within, lb) {
			return engine.Refuse("", "%s is outside your deployment zone, the %s at your edge.", p, inches(s.Options.Deploy))
		}
		return tx.Emit(LeaderPlaced{Leader: l.ID, At: p, Facing: h})
	}
	u, err := s.findUnit(name)
	if err != nil {
		return err
	}
	if within != nil && u.Side != *within {
		return engine.Refuse("", "%s is not yours to place.", u.Label())
	}
	h, err := engine.ReadFacingOr(facing, u.Side.forward())
	if err != nil {
		return err
	}
	r, err := parseRanks(u, ranks)
	if err != nil {
		return err
	}
	w, d := u.Class.size(u.Figures, r)
	b := engine.Base{Width: w, Depth: d, Facing: h}.WithFrontCenter(p)
	if !s.onTable(b) {
		return engine.Refuse("", "%s would stand partly off the table there.", u.ID)
	}
	if within != nil && !s.zone(*within, b) {
		return engine.Refuse("", "%s would stand outside your deployment zone, the %s at your edge.", u.ID, inches(s.Options.Deploy))
	}
	if err := s.canStand(u, b); err != nil {
		return err
	}
	return tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), Base: b, Ranks: r})
}

// canStand reports why u may not stand at b: on another unit, or on
// ground it may not enter.
func (s *State) canStand(u *Unit, b engine.Base) error {
	bs, us := s.others(u)
	for i, o := range bs {
		if b.Clashes(o) {
			return engine.Refuse("1.B", "%s would stand on %s.", u.ID, us[i].ID)
		}
	}
	for _, f := range s.under(b) {
		g := f.ground()
		if u.Class.Move(g.Movement()) == 0 {
			return engine.Refuse("§1", "%s cannot enter %s.", u.Label(), f.Label())
		}
		if g.IsWall() || g == Water {
			return engine.Refuse("§4", "%s would stand on %s.", u.ID, f.Label())
		}
		if g.IsBuilding() {
			if err := s.mayEnter(u, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// mayEnter says why u may not go into the building f (§4): only small
// infantry hide in buildings; a phalanx or legion only in a barracks, or
// once it has lost more than half its men.
func (s *State) mayEnter(u *Unit, f *Feature) error {
	switch {
	case !u.Class.Foot():
		return engine.Refuse("§4", "Only infantry go into %s.", f.Label())
	case (u.Class == Phalanx || u.Class == Legion) && f.ground() != Barracks && !u.UnderHalf():
		return engine.Refuse("§4", "A %s is too large to hide in %s; only a barracks takes it, until it has lost more than half its men.", u.Class, f.Label())
	case u.Figures > smallUnit && u.Class != Phalanx && u.Class != Legion:
		return engine.Refuse("§4", "%s is too large to hide in %s: a building takes units of %d figures or fewer.", u.ID, f.Label(), smallUnit)
	}
	return nil
}

// smallUnit is the most figures a unit may have to hide in a building
// (RULINGS.md, btg, "buildings").
const smallUnit = 16

// placeAll lays out side's unplaced units in a line across the middle of
// its zone, from the centre outward, and attaches its leaders to the
// first units that have none.
func placeAll(tx *engine.Tx, s *State, side Side) error {
	var todo []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Placed && u.Status != Gone {
			todo = append(todo, u)
		}
	}
	var lone []*Leader
	for i := range s.Leaders {
		if l := &s.Leaders[i]; l.Side == side && !l.Placed && !l.Gone {
			lone = append(lone, l)
		}
	}
	if len(todo) == 0 && len(lone) == 0 {
		return engine.Refuse("", "Every unit of yours is already placed.")
	}
	h := side.forward()
	rowY := func(row int) float64 {
		d := s.Options.Deploy - 1 - float64(row)*4
		if side == RedSide {
			return s.Options.Depth - d
		}
		return d
	}
	// Try each unit at points along rows from the front of the zone back,
	// from the centre outward.
	for _, u := range todo {
		w, d := u.Class.size(u.Figures, u.Ranks)
		placed := false
		for row := 0; row < 4 && !placed; row++ {
			for i := 0; i < 200 && !placed; i++ {
				off := float64((i+1)/2) * 1.0
				if i%2 == 1 {
					off = -off
				}
				p := engine.Vec{X: s.Options.Width/2 + off, Y: rowY(row)}
				b := engine.Base{Width: w, Depth: d, Facing: h}.WithFrontCenter(p)
				bb := b
				bb.Width += 1 // an inch between units
				if s.zone(side, b) && s.canStand(u, bb) == nil {
					if err := tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), Base: b, Ranks: u.Ranks}); err != nil {
						return err
					}
					placed = true
				}
			}
		}
		if !placed {
			return engine.Refuse("", "There is no room left in your zone for %s; place it by hand.", u.Label())
		}
	}
	for _, l := range lone {
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side == side && u.In() && u.Leader == "" && !u.Class.Siege() {
				if err := tx.Emit(LeaderAttached{Leader: l.ID, Unit: u.ID}); err != nil {
					return err
				}
				break
			}
		}
	}
	return nil
}

func setupTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "Terrain is laid before the first turn; this battle has begun.")
	}
	var side *Side
	switch strings.ToLower(c.Opt("side")) {
	case "":
	case "black":
		b := BlackSide
		side = &b
	case "red":
		r := RedSide
		side = &r
	default:
		return engine.Refuse("", "side: is black or red.")
	}
	return lay(tx, s, c.Opt("kind"), strings.Fields(c.Opt("where")), c.Opt("name"), side)
}

func terrainDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 4 || len(c.Args) > 5 {
		return engine.Refuse("", "#terrain takes a kind, two points and a name: #terrain woods 20,18 30,26 grove [black|red]")
	}
	var side *Side
	if len(c.Args) == 5 {
		sd := BlackSide
		if strings.EqualFold(c.Args[4], "red") {
			sd = RedSide
		}
		side = &sd
	}
	return lay(tx, s, c.Args[0], c.Args[1:3], c.Args[3], side)
}

// lay lays a feature of the kind named: a wall along the line between the
// two points, anything else the rectangle they are opposite corners of.
func lay(tx *engine.Tx, s *State, kind string, where []string, name string, side *Side) error {
	g, ok := parseGround(kind)
	if !ok {
		return engine.Refuse("", "%q is not terrain: %s.", kind, strings.Join(groundKeys(), ", "))
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return engine.Refuse("", "Give the terrain a name, so players can speak of it.")
	}
	for _, f := range s.Terrain {
		if strings.EqualFold(f.Name, name) {
			return engine.Refuse("", "The table already has terrain called %s.", f.Name)
		}
	}
	if len(where) != 2 {
		return engine.Refuse("", `where: is two points x,y with a space between, like where:"20,18 30,26".`)
	}
	a, err := engine.ReadPoint("where", where[0], "inches")
	if err != nil {
		return err
	}
	b, err := engine.ReadPoint("where", where[1], "inches")
	if err != nil {
		return err
	}
	var area engine.Base
	if g.IsWall() {
		if a.Dist(b) < 1 {
			return engine.Refuse("§4", "A wall runs at least 1\" between its two ends.")
		}
		area = engine.Base{Center: a.Lerp(b, 0.5), Width: a.Dist(b), Depth: wallThickness, Facing: engine.HeadingTo(a, b).Add(-90)}
	} else {
		w, d := b.X-a.X, b.Y-a.Y
		if w < 0 {
			w = -w
		}
		if d < 0 {
			d = -d
		}
		if w < 1 || d < 1 {
			return engine.Refuse("", "An area is at least 1\" each way: give two opposite corners.")
		}
		area = engine.Base{Center: a.Lerp(b, 0.5), Width: w, Depth: d}
	}
	if !s.onTable(area) {
		return engine.Refuse("", "That terrain would lie partly off the %s by %s table.", inches(s.Options.Width), inches(s.Options.Depth))
	}
	f := Feature{Ground: g, Name: name, Area: area, Side: side}
	if g.Structure() {
		f.Full = s.fullDV(g, side)
		f.DV = f.Full
	}
	return tx.Emit(TerrainLaid{Feature: f})
}

func setupClear(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "Terrain is cleared before the first turn; this battle has begun.")
	}
	f, err := s.feature(c.Opt("name"))
	if err != nil {
		return err
	}
	for i := range s.Terrain {
		if &s.Terrain[i] == f {
			return tx.Emit(TerrainCleared{Name: f.Name, Index: i})
		}
	}
	return nil
}

func figuresDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) != 2 {
		return engine.Refuse("", "#figures takes a unit and a number: #figures GRE-1 8")
	}
	u, err := s.findUnit(c.Args[0])
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Args[1])
	if err != nil || n < 0 || n > MaxFigures {
		return engine.Refuse("", "#figures: give 0 to %d figures.", MaxFigures)
	}
	return tx.Emit(FiguresSet{Unit: u.ID, Label: u.Label(), Figures: n, Why: "the scenario"})
}

// setUp writes the battle's set-up as the commands that lay it out again.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	for _, f := range s.Terrain {
		var where string
		if f.Ground.IsWall() {
			a := f.Area.Center.Add(f.Area.Facing.Add(-90).Vec().Scale(f.Area.Width / 2))
			b := f.Area.Center.Add(f.Area.Facing.Add(90).Vec().Scale(f.Area.Width / 2))
			where = a.String() + " " + b.String()
		} else {
			lo := engine.Vec{X: f.Area.Center.X - f.Area.Width/2, Y: f.Area.Center.Y - f.Area.Depth/2}
			hi := engine.Vec{X: f.Area.Center.X + f.Area.Width/2, Y: f.Area.Center.Y + f.Area.Depth/2}
			where = lo.String() + " " + hi.String()
		}
		c := engine.Command{Name: "setup terrain", Options: map[string]string{"kind": f.Ground.String(), "where": where, "name": f.Name}}
		if f.Side != nil {
			c.Options["side"] = f.Side.String()
		}
		out = append(out, c)
	}
	for _, u := range s.Units {
		if u.In() {
			out = append(out, engine.Command{Name: "setup place", Options: map[string]string{
				"piece": u.ID, "at": u.Base.FrontCenter().String(), "facing": u.Base.Facing.String(), "ranks": strconv.Itoa(u.Ranks)}})
		}
	}
	for _, l := range s.Leaders {
		if l.Placed && l.Unit == "" && !l.Gone {
			out = append(out, engine.Command{Name: "setup place", Options: map[string]string{"piece": l.ID, "at": l.At.String(), "facing": l.Facing.String()}})
		}
	}
	return out
}

// scenarios are prepared tables for /scenario load, laid between the two
// deployment zones of the default table.
var scenarios = []engine.Scenario{
	{Name: "river", Help: "a river across the middle of the field with a ford-side village and a hill",
		Script: `/setup terrain kind:water where:"0,22 72,26" name:river; /setup terrain kind:building where:"40,27 44,31" name:village; /setup terrain kind:hill where:"10,30 22,38" name:hill`},
	{Name: "walled-farm", Help: "a walled farm on one flank and a wood on the other",
		Script: `/setup terrain kind:wall where:"46,18 58,18" name:"farm wall"; /setup terrain kind:building where:"50,20 54,24" name:farmhouse; /setup terrain kind:woods where:"8,18 20,28" name:wood`},
	{Name: "siege", Help: "a city wall with a tower and a barracks behind it, for the siege expansion",
		Script: `/setup terrain kind:city-wall where:"16,32 56,32" name:"city wall" side:red; /setup terrain kind:tower where:"34,33 38,37" name:tower side:red; /setup terrain kind:barracks where:"44,36 52,40" name:barracks side:red`},
}
