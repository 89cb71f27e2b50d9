package goliath

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Opening a battle, defining types, raising the two armies, laying out
// terrain and deploying.

// Table defaults (RULINGS.md, goliath, "scale and bases"): a six by four
// foot table with deployment zones 10" deep.
const (
	defaultWidth  = 72
	defaultDepth  = 48
	defaultDeploy = 10
)

// BookOpened opens the battle.
type BookOpened struct {
	Master  engine.PlayerID `json:"master"`
	Options Options         `json:"options"`
	// Bots are the players the bot holds the armies to come as
	// (opponent:bot or bots): each raises its own at once.
	Bots []engine.PlayerID `json:"bots,omitempty"`
}

// TypeDefined adds the referee's own troop type.
type TypeDefined struct {
	Type Type `json:"type"`
}

// ArmyRaised brings one side's army to the battle.
type ArmyRaised struct {
	Side  Side   `json:"side"`
	Army  Army   `json:"army"`
	Units []Unit `json:"units"`
}

// UnitPlaced sets a unit on the table, or refits its formation.
type UnitPlaced struct {
	Unit     string      `json:"unit"`
	Label    string      `json:"label"`
	Base     engine.Base `json:"base"`
	Frontage int         `json:"frontage"`
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

func (BookOpened) Kind() string     { return "goliath.book-opened" }
func (TypeDefined) Kind() string    { return "goliath.type-defined" }
func (ArmyRaised) Kind() string     { return "goliath.army-raised" }
func (UnitPlaced) Kind() string     { return "goliath.unit-placed" }
func (TerrainLaid) Kind() string    { return "goliath.terrain-laid" }
func (TerrainCleared) Kind() string { return "goliath.terrain-cleared" }
func (Deployed) Kind() string       { return "goliath.deployed" }

var setupBodies = engine.BodyTypes{
	BookOpened{}.Kind():     engine.Decoder[BookOpened](),
	TypeDefined{}.Kind():    engine.Decoder[TypeDefined](),
	ArmyRaised{}.Kind():     engine.Decoder[ArmyRaised](),
	UnitPlaced{}.Kind():     engine.Decoder[UnitPlaced](),
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
	var terms []string
	terms = append(terms, fmt.Sprintf("turns by %s (Method %d)", o.Method, o.Method))
	if o.Points > 0 {
		terms = append(terms, fmt.Sprintf("armies of up to %s points", engine.Decimal(o.Points)))
	}
	if o.Turns > 0 {
		terms = append(terms, plural(o.Turns, "turn", "turns"))
	}
	if o.Night {
		terms = append(terms, "by night")
	}
	t := fmt.Sprintf("%s opens a battle of Goliath on a table of %s by %s, and referees it: %s. Each side raises an army (/army raise, or /army pick); the first deploys on the south edge, the second on the north.",
		b.Master, inches(o.Width), inches(o.Depth), strings.Join(terms, ", "))
	return t + engine.OpenedFor(b.Bots, "The bot (%s) leads the other side and raises its army now.", "The bot leads both sides (%s), and raises their armies now.")
}

func (b TypeDefined) Apply(s *State) error {
	for i, t := range s.Custom {
		if t.Type == b.Type.Type {
			s.Custom[i] = b.Type
			return nil
		}
	}
	s.Custom = append(s.Custom, b.Type)
	return nil
}

func (b TypeDefined) Text() string {
	return "The referee defines a troop type. " + describeType(b.Type.Profile) + "."
}

func (b ArmyRaised) Apply(s *State) error {
	if int(b.Side) != len(s.Armies) {
		return fmt.Errorf("goliath: army %d raised as side %d", len(s.Armies), b.Side)
	}
	s.Armies = append(s.Armies, b.Army)
	s.Units = append(s.Units, b.Units...)
	if len(s.Armies) == 2 {
		s.Stage = Deploying
	}
	return nil
}

func (b ArmyRaised) Text() string {
	var units []string
	for _, u := range b.Units {
		name := u.Profile.Name
		if u.Start == 1 {
			name = singular(name)
		}
		units = append(units, fmt.Sprintf("%s %d %s", u.ID, u.Start, name))
	}
	return fmt.Sprintf("%s leads %s (%s points) from the %s edge: %s.",
		b.Army.Player, b.Army.Name, engine.Decimal(b.Army.Points), b.Side, strings.Join(units, "; "))
}

func (b UnitPlaced) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Base, u.Frontage, u.Placed = b.Base, b.Frontage, true
	return nil
}

func (b UnitPlaced) Text() string {
	return fmt.Sprintf("%s stands with its front centre at %s, facing %s, %d across.", b.Label, b.Base.FrontCenter(), b.Base.Facing, b.Frontage)
}

func (b TerrainLaid) Apply(s *State) error {
	s.Terrain = append(s.Terrain, b.Feature)
	return nil
}

func (b TerrainLaid) Text() string {
	f := b.Feature
	return fmt.Sprintf("Terrain: %s, %s by %s, centred at %s.", f.Label(), inches(f.Area.Width), inches(f.Area.Depth), f.Area.Center)
}

func (b TerrainCleared) Apply(s *State) error {
	if b.Index < 0 || b.Index >= len(s.Terrain) {
		return fmt.Errorf("goliath: no terrain %d to clear", b.Index)
	}
	s.Terrain = append(s.Terrain[:b.Index:b.Index], s.Terrain[b.Index+1:]...)
	return nil
}

func (b TerrainCleared) Text() string {
	return fmt.Sprintf("Terrain: %s is taken off the table.", b.Name)
}

func (b Deployed) Apply(s *State) error {
	s.Armies[b.Side].Done = true
	return nil
}

func (b Deployed) Text() string {
	return fmt.Sprintf("%s have finished their deployment.", engine.Capital(b.Army))
}

var openCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a battle in this channel; you referee it.", Flags: engine.Opens,
		Example: "/book open rules:goliath method:orders points:200", Options: append([]engine.OptionSpec{
			{Name: "method", Help: "the turn sequence: move (move/countermove) or orders (written orders, at once)", Choices: []string{"move", "orders"}},
			{Name: "points", Help: "each army's most points (default no limit)", Kind: engine.OptInt},
			{Name: "turns", Help: "the agreed number of turns (default none: until a side breaks)", Kind: engine.OptInt},
			{Name: "size", Help: "the table in inches, width x depth (default 72x48)"},
			{Name: "light", Help: "day or night (at night only those who see in the dark shoot far)", Choices: []string{"day", "night"}},
		}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "army type", Flags: engine.MasterOnly, Help: "Define a troop type of your own for the armies to use. Referee only.",
		Example: `/army type name:Centaurs ar:LC dr:MC ht:2 mr:1 mv:18 chg:24 mss:15 weapon:bow pts:8`, Options: []engine.OptionSpec{
			{Name: "name", Help: "the type's name", Required: true},
			{Name: "ar", Help: "attack rating: LI, MI, HI, LC, MC or HC", Required: true},
			{Name: "dr", Help: "defence rating: LI, MI, HI, LC, MC or HC", Required: true},
			{Name: "mv", Help: "move in inches", Required: true},
			{Name: "pts", Help: "points a figure", Required: true},
			{Name: "ht", Help: "hits a figure takes (default 1)", Kind: engine.OptInt},
			{Name: "mr", Help: "morale rating, -4 to +4 (default 0)", Kind: engine.OptInt},
			{Name: "chg", Help: "charge move in inches; without one the type charges at its mv"},
			{Name: "fly", Help: "flying move in inches"},
			{Name: "mss", Help: "missile range in inches"},
			{Name: "weapon", Help: "bow, longbow, crossbow, heavy-crossbow or thrown", Choices: weaponNames[1:]},
			{Name: "sa", Help: "special abilities by number, like 2,7a"},
			{Name: "size", Help: "large for a figure on a 2\" base", Choices: []string{"normal", "large"}},
		}}, Run: defineType},
	{CommandSpec: engine.CommandSpec{Name: "army raise", Help: "Lead an army raised from a list of units, each COUNT TYPE; the first army deploys south, the second north.",
		Example: `/army raise name:Gondor units:"30 medium infantry, 12 heavy cavalry, 12 light cavalry+bow, 1 hero heavy horse"`, Options: append([]engine.OptionSpec{
			{Name: "units", Help: "items COUNT TYPE [+bow|+crossbow|+longbow] [light|medium|heavy foot|horse], separated by commas", Required: true},
			{Name: "name", Help: "the army's name", Required: true},
			{Name: "tag", Help: "2 to 4 letters for its unit names (default: from its name)"},
		}, engine.BotSetUpOptions...)}, Run: raiseCommand},
	{CommandSpec: engine.CommandSpec{Name: "army pick", Help: "Lead one of the sample armies.", Options: append([]engine.OptionSpec{
		{Name: "list", Help: "the sample army", Required: true, Choices: sampleKeys()},
	}, engine.BotSetUpOptions...)}, Run: pickArmy},
	{CommandSpec: engine.CommandSpec{Name: "army types", Help: "The troop types and their characteristics, with the referee's own.", Flags: engine.Private | engine.Reads}, Run: listTypes},
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "Deploy a unit in your zone by where its front centre stands; unit:all lays out the rest.",
		Example: "/place unit:KIN-1 at:30,8 facing:N frontage:10", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit, or all", Kind: engine.OptElement, Required: true},
			{Name: "at", Help: "where its front centre stands, x,y in inches", Kind: engine.OptPoint},
			{Name: "facing", Help: "N, NE, E… or degrees; default toward the enemy"},
			{Name: "frontage", Help: "figures across its front", Kind: engine.OptInt},
		}}, Run: placeCommand},
}

var setupCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "setup terrain", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Lay terrain before the first turn, by two opposite corners. Referee only.",
		Example: `/setup terrain kind:woods where:"20,18 30,26" name:"Mirkwood"`,
		Options: []engine.OptionSpec{
			{Name: "kind", Help: "hill, rugged, woods, difficult, buildings or water", Required: true, Choices: groundNames[:]},
			{Name: "where", Help: "two opposite corners, x,y x,y", Required: true},
			{Name: "name", Help: "what the table calls it", Required: true},
		}}, Run: setupTerrain},
	{CommandSpec: engine.CommandSpec{Name: "setup clear", Flags: engine.MasterOnly | engine.SetsUp,
		Help: "Take a piece of terrain off the table before the first turn. Referee only.", Example: `/setup clear name:Mirkwood`,
		Options: []engine.OptionSpec{
			{Name: "name", Help: "the terrain's name", Kind: engine.OptFeature, Required: true},
		}}, Run: setupClear},
	{CommandSpec: engine.CommandSpec{Name: "setup place", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Set a unit anywhere before the first turn, where a scenario wants it. Referee only.",
		Example: "/setup place piece:KIN-1 at:30,20 facing:N frontage:10",
		Options: []engine.OptionSpec{
			{Name: "piece", Help: "the unit to place", Kind: engine.OptElement, Required: true, Formerly: "unit"},
			{Name: "at", Help: "where its front centre stands, x,y in inches", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "N, NE, E… or degrees; default toward the enemy"},
			{Name: "frontage", Help: "figures across its front", Kind: engine.OptInt},
		}}, Run: setupPlace},
}

var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place UNIT X,Y [FACING] [FRONTAGE]: set a unit anywhere, at any time"}, Run: placeDirective},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND X,Y X,Y NAME: lay terrain"}, Run: terrainDirective},
	{CommandSpec: engine.CommandSpec{Name: "figures", Help: "#figures UNIT N: give a unit N figures"}, Run: figuresDirective},
}

func openBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Master != "" {
		return engine.Refuse("", "This battle is already open.")
	}
	o := Options{Method: MoveCountermove, Width: defaultWidth, Depth: defaultDepth, Deploy: defaultDeploy}
	if c.Opt("method") == "orders" {
		o.Method = WrittenOrders
	}
	o.Night = c.Opt("light") == "night"
	pts, err := c.Int("points", 0)
	if err != nil {
		return err
	}
	if pts < 0 || pts > 100000 {
		return engine.Refuse("", "points: must be from 1 to 100000, or left out for no limit.")
	}
	o.Points = float64(pts)
	if o.Turns, err = c.Int("turns", 0); err != nil {
		return err
	}
	if o.Turns < 0 || o.Turns > 100 {
		return engine.Refuse("", "turns: must be from 1 to 100, or left out for no limit.")
	}
	if c.Has("size") {
		if o.Width, o.Depth, err = engine.ParseTableSize(c.Opt("size")); err != nil {
			return err
		}
		o.Deploy = math.Min(defaultDeploy, math.Floor(o.Depth/4))
	}
	bots, err := engine.OpenBots(c)
	if err != nil {
		return err
	}
	return tx.Emit(BookOpened{Master: c.Actor, Options: o, Bots: bots})
}

func defineType(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Mustering {
		return engine.Refuse("", "Types are defined before both armies are raised.")
	}
	t, err := parseCustom(c)
	if err != nil {
		return err
	}
	for _, r := range roster {
		if r.Type == t.Type {
			return engine.Refuse("Troop Types", "%s is a type of the roster; give yours another name.", r.Name)
		}
	}
	return tx.Emit(TypeDefined{Type: t})
}

func listTypes(tx *engine.Tx, s *State, c engine.Command) error {
	var lines []string
	for _, list := range [][]Type{roster, s.Custom} {
		for _, t := range list {
			line := t.Type + " — " + describeType(t.Profile)
			if t.Star {
				line += " (AR and DR by the armour and mount chosen)"
			}
			if t.Mounts {
				line += " (may buy +bow, +crossbow or +longbow)"
			}
			lines = append(lines, line)
		}
	}
	tx.Say(engine.Message{To: c.Actor, Text: strings.Join(lines, "\n")})
	return nil
}

func raiseCommand(tx *engine.Tx, s *State, c engine.Command) error {
	return raise(tx, s, c, strings.TrimSpace(c.Opt("name")), c.Opt("tag"), c.Opt("units"))
}

func pickArmy(tx *engine.Tx, s *State, c engine.Command) error {
	key := strings.ToLower(strings.TrimSpace(c.Opt("list")))
	for _, a := range samples {
		if a.key == key {
			return raise(tx, s, c, a.name, a.tag, a.units)
		}
	}
	return engine.Refuse("", "There is no sample army %q; the lists are %s.", c.Opt("list"), strings.Join(sampleKeys(), ", "))
}

func raise(tx *engine.Tx, s *State, c engine.Command, name, tag, list string) error {
	if s.Stage != Mustering {
		return engine.Refuse("", "Both armies are already on the field.")
	}
	if name == "" || len(name) > 60 {
		return engine.Refuse("", "An army needs a name of 1 to 60 characters.")
	}
	profs, counts, pts, err := ParseUnits(s.Custom, list)
	if err != nil {
		return err
	}
	if s.Options.Points > 0 && pts > s.Options.Points+1e-9 {
		return engine.Refuse("Figures", "That list costs %s points; this battle allows %s.", engine.Decimal(pts), engine.Decimal(s.Options.Points))
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
			return engine.Refuse("", "You already lead %s.", o.Name)
		}
	}
	side := Side(len(s.Armies))
	player := c.Actor
	if bot {
		// The bot leads it, marked with its tag, apart from any other.
		player = engine.BotSeat(level, nil, engine.Seat{ID: tag})
	}
	b := ArmyRaised{Side: side, Army: Army{Player: player, Name: name, Tag: tag, List: list, Points: pts}}
	for i, p := range profs {
		u := Unit{ID: fmt.Sprintf("%s-%d", tag, i+1), Side: side, Profile: p, Figures: counts[i], Start: counts[i]}
		u.Frontage = defaultFrontage(counts[i])
		u.Base = u.shape(u.Figures, u.Frontage, engine.Vec{}, side.forward())
		b.Units = append(b.Units, u)
	}
	return tx.Emit(b)
}

// defaultFrontage stands a unit two ranks deep, at most twelve across;
// small units stand in one rank.
func defaultFrontage(figs int) int {
	if figs <= 4 {
		return figs
	}
	return min(12, (figs+1)/2)
}

// zone reports whether b lies wholly in side's deployment zone.
func (s *State) zone(side Side, b engine.Base) bool {
	if !s.onTable(b) {
		return false
	}
	for _, c := range b.Corners() {
		d := c.Y
		if side == North {
			d = s.Options.Depth - c.Y
		}
		if d > s.Options.Deploy+1e-6 {
			return false
		}
	}
	return true
}

func placeCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Deploying {
		return engine.Refuse("", "Units are placed in deployment, after both armies are raised and before the first turn.")
	}
	next := South
	if len(s.Armies) == 2 && s.Armies[South].Done {
		next = North
	}
	side, ok := s.sideOf(c.Actor, next)
	if !ok {
		return engine.Refuse("", "You lead no army in this battle.")
	}
	if s.Armies[side].Done {
		return engine.Refuse("", "%s have finished deploying.", engine.Capital(s.Armies[side].Name))
	}
	if strings.EqualFold(c.Opt("unit"), "all") {
		return placeAll(tx, s, side)
	}
	if !c.Has("at") {
		return engine.Refuse("", "Give at: where the front centre stands, x,y in inches.")
	}
	return place(tx, s, c.Opt("unit"), c.Opt("at"), c.Opt("facing"), c.Opt("frontage"), &side)
}

func setupPlace(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "The table is set before the first turn; this battle has begun. The referee moves a unit in play with /ruling.")
	}
	if s.Stage == Mustering {
		return engine.Refuse("", "Units are placed once both armies are raised.")
	}
	return place(tx, s, c.Opt("piece"), c.Opt("at"), c.Opt("facing"), c.Opt("frontage"), nil)
}

func placeDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 2 || len(c.Args) > 4 {
		return engine.Refuse("", "#place takes a unit, a point, and optionally a facing and frontage: #place KIN-1 30,8 N 10")
	}
	if s.Stage == Mustering {
		return engine.Refuse("", "Units are placed once both armies are raised.")
	}
	facing, frontage := "", ""
	if len(c.Args) > 2 {
		facing = c.Args[2]
	}
	if len(c.Args) > 3 {
		frontage = c.Args[3]
	}
	return place(tx, s, c.Args[0], c.Args[1], facing, frontage, nil)
}

// place sets a unit with its front centre at `at`. With zone set, the
// unit must stand in that side's deployment zone and be the side's own.
func place(tx *engine.Tx, s *State, name, at, facing, frontage string, zone *Side) error {
	u, err := s.findUnit(name)
	if err != nil {
		return err
	}
	if zone != nil && u.Side != *zone {
		return engine.Refuse("", "%s is not yours to deploy.", u.ID)
	}
	p, err := engine.ReadPoint("at", at, "inches")
	if err != nil {
		return err
	}
	h, err := engine.ReadFacingOr(facing, u.Side.forward())
	if err != nil {
		return err
	}
	f := u.Frontage
	if frontage != "" {
		if f, err = strconv.Atoi(frontage); err != nil || f < 1 {
			return engine.Refuse("Facing and Formation", "frontage: is how many figures stand across the front, 1 or more.")
		}
		f = min(f, u.Total())
	}
	b := u.shape(u.Total(), f, p, h)
	if !s.onTable(b) {
		return engine.Refuse("", "%s would stand off the table there.", u.ID)
	}
	if zone != nil && !s.zone(*zone, b) {
		return engine.Refuse("", "%s must stand wholly within %s of the %s edge.", u.ID, inches(s.Options.Deploy), *zone)
	}
	if err := s.roomFor(u, b); err != nil {
		return err
	}
	return tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), Base: b, Frontage: f})
}

// roomFor refuses a base that would overlap another unit or stand in
// water.
func (s *State) roomFor(u *Unit, b engine.Base) error {
	bases, units := s.others(u)
	for i, o := range bases {
		if b.Clashes(o) {
			return engine.Refuse("", "%s would overlap %s.", u.ID, units[i].ID)
		}
	}
	if u.Profile.Fly == 0 && s.on(b, Water) {
		return engine.Refuse("Terrain", "%s cannot stand in water.", u.ID)
	}
	return nil
}

// placeAll lays out a side's unplaced units along the front of its
// zone, each in the first room from the west, further back when the
// front line is full.
func placeAll(tx *engine.Tx, s *State, side Side) error {
	var todo []*Unit
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Placed {
			todo = append(todo, u)
		}
	}
	if len(todo) == 0 {
		return engine.Refuse("", "Every unit of yours is on the table.")
	}
	for _, u := range todo {
		at, ok := s.roomInZone(u, side)
		if !ok {
			return engine.Refuse("", "There is no room left in your zone for %s; place it by hand.", u.ID)
		}
		b := u.shape(u.Total(), u.Frontage, at, side.forward())
		if err := tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), Base: b, Frontage: u.Frontage}); err != nil {
			return err
		}
	}
	return nil
}

// roomInZone finds where u's front centre may stand in side's zone: the
// front line first, from the west, an inch clear of other units.
func (s *State) roomInZone(u *Unit, side Side) (engine.Vec, bool) {
	h := side.forward()
	for row := 0.5; row < s.Options.Deploy; row += 1 {
		y := s.Options.Deploy - row
		if side == North {
			y = s.Options.Depth - s.Options.Deploy + row
		}
		for x := 0.0; x <= s.Options.Width; x += 0.5 {
			p := engine.Vec{X: x, Y: y}
			b := u.shape(u.Total(), u.Frontage, p, h)
			if !s.zone(side, b) || s.roomFor(u, b) != nil {
				continue
			}
			clear := true
			bases, _ := s.others(u)
			for _, o := range bases {
				if b.Gap(o) < 1 {
					clear = false
					break
				}
			}
			if clear {
				return p, true
			}
		}
	}
	return engine.Vec{}, false
}

func setupTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "Terrain is laid before the first turn.")
	}
	return lay(tx, s, c.Opt("kind"), c.Opt("where"), c.Opt("name"))
}

func terrainDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 4 {
		return engine.Refuse("", "#terrain takes a kind, two corners and a name: #terrain woods 20,18 30,26 Mirkwood")
	}
	return lay(tx, s, c.Args[0], c.Args[1]+" "+c.Args[2], strings.Join(c.Args[3:], " "))
}

func lay(tx *engine.Tx, s *State, kind, where, name string) error {
	g, ok := parseGround(kind)
	if !ok {
		return engine.Refuse("Terrain", "The kinds of terrain are %s.", strings.Join(groundNames[:], ", "))
	}
	area, err := parseArea(where)
	if err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return engine.Refuse("", "Terrain needs a name.")
	}
	if _, f := s.feature(name); f != nil {
		return engine.Refuse("", "There is already terrain called %s.", f.Name)
	}
	return tx.Emit(TerrainLaid{Feature: Feature{Name: name, Ground: g, Area: area}})
}

func setupClear(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage > Deploying {
		return engine.Refuse("", "Terrain is cleared before the first turn.")
	}
	i, f := s.feature(c.Opt("name"))
	if f == nil {
		return engine.Refuse("", "There is no terrain called %q.", c.Opt("name"))
	}
	return tx.Emit(TerrainCleared{Name: f.Name, Index: i})
}

func figuresDirective(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) != 2 {
		return engine.Refuse("", "#figures takes a unit and a number: #figures KIN-1 12")
	}
	u, err := s.findUnit(c.Args[0])
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.Args[1])
	if err != nil || n < 0 || n > maxFigures {
		return engine.Refuse("", "#figures takes 0 to %d figures.", maxFigures)
	}
	return tx.Emit(Ruled{Ruling: engine.Ruling{By: "#figures", Label: u.Label(), Reason: "set by the scenario"}, Unit: u.ID, Figures: &n})
}
