package sweet

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Opening a game, mustering the two armies (a sample list or one built to
// a points total from the unit table) and deploying them on the grid.

// Board and game defaults: a 16 by 12 grid (a six by four foot table at
// 4.5 inch squares), 200 points an army as in the sample lists, and twelve
// turns.
const (
	defaultCols   = 16
	defaultRows   = 12
	defaultPoints = 200
	defaultTurns  = 12
	zoneDepth     = 3 // rows of each side's deployment zone
)

// BookOpened opens the game.
type BookOpened struct {
	Master  engine.PlayerID `json:"master"`
	Options Options         `json:"options"`
	// Bots are the players the bot holds the armies to come as
	// (/book open opponent:bot), each picking its army at once.
	Bots []engine.PlayerID `json:"bots,omitempty"`
}

// ArmyMustered brings one side's army to the game.
type ArmyMustered struct {
	Side  Side   `json:"side"`
	Army  Army   `json:"army"`
	Units []Unit `json:"units"`
}

// UnitPlaced sets a unit on the board: in deployment, or where a scenario
// wants it (#place).
type UnitPlaced struct {
	Unit     UnitID        `json:"unit"`
	Label    string        `json:"label"`
	At       engine.Square `json:"at"`
	Facing   engine.Dir8   `json:"facing"`
	Scenario bool          `json:"scenario,omitempty"`
}

// TerrainLaid marks squares with terrain (#terrain).
type TerrainLaid struct {
	Ground  TerrainKind     `json:"ground"`
	Squares []engine.Square `json:"squares"`
	Name    string          `json:"name,omitempty"`
}

// StandsSet gives a unit a number of stands for a scenario (#stands).
type StandsSet struct {
	Unit   UnitID `json:"unit"`
	Label  string `json:"label"`
	Stands int    `json:"stands"`
}

func (BookOpened) Kind() string   { return "sweet.book-opened" }
func (ArmyMustered) Kind() string { return "sweet.army-mustered" }
func (UnitPlaced) Kind() string   { return "sweet.unit-placed" }
func (TerrainLaid) Kind() string  { return "sweet.terrain-laid" }
func (StandsSet) Kind() string    { return "sweet.stands-set" }

var setupBodies = engine.BodyTypes{
	BookOpened{}.Kind():   engine.Decoder[BookOpened](),
	ArmyMustered{}.Kind(): engine.Decoder[ArmyMustered](),
	UnitPlaced{}.Kind():   engine.Decoder[UnitPlaced](),
	TerrainLaid{}.Kind():  engine.Decoder[TerrainLaid](),
	StandsSet{}.Kind():    engine.Decoder[StandsSet](),
}

func (b BookOpened) Apply(s *State) error {
	s.Master, s.Options, s.Stage, s.Bots = b.Master, b.Options, Mustering, b.Bots
	return nil
}

func (b ArmyMustered) Apply(s *State) error {
	if int(b.Side) != len(s.Armies) {
		return fmt.Errorf("sweet: army %d mustered as side %d", len(s.Armies), b.Side)
	}
	s.Armies = append(s.Armies, b.Army)
	s.Units = append(s.Units, b.Units...)
	if len(s.Armies) == 2 {
		s.Stage = Deploying
	}
	return nil
}

func (b UnitPlaced) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.At, u.Facing, u.Placed, u.Off, u.Gone = b.At, b.Facing, true, false, false
	if b.Scenario {
		// A scenario sets the unit down fresh for the rest of the turn.
		u.Moved, u.Charged, u.Balked = false, false, false
	}
	return nil
}

func (b TerrainLaid) Apply(s *State) error {
	for _, q := range b.Squares {
		s.Terrain = slicesDeleteCell(s.Terrain, q)
		if b.Ground != Open {
			s.Terrain = append(s.Terrain, Cell{At: q, Kind: b.Ground, Name: b.Name})
		}
	}
	return nil
}

func slicesDeleteCell(cells []Cell, q engine.Square) []Cell {
	out := cells[:0]
	for _, c := range cells {
		if c.At != q {
			out = append(out, c)
		}
	}
	return out
}

func (b StandsSet) Apply(s *State) error {
	u, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	u.Stands = b.Stands
	u.Gone = b.Stands == 0
	return nil
}

var openCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a game in this channel; you keep it as its game master.", Flags: engine.Opens, Options: append([]engine.OptionSpec{
		{Name: "points", Help: "the points an army built with /army build may spend (default 200)", Kind: engine.OptInt},
		{Name: "turns", Help: "the agreed number of turns (default 12)", Kind: engine.OptInt},
		{Name: "size", Help: "the grid, columns x rows (default 16x12)"},
	}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "army pick", Help: "Lead one of the seven sample armies; the first army takes the south edge, the second the north (Sample Army Compositions).", Options: append([]engine.OptionSpec{
		{Name: "list", Help: "the sample army", Required: true, Choices: listKeys()},
	}, engine.BotSetUpOptions...)}, Run: pickArmy},
	{CommandSpec: engine.CommandSpec{Name: "army build", Help: "Lead an army built from the unit table to the game's points, like units:\"1 CMD, 4 HI, 1 HI guard, 3 LI\".", Example: "/army build name:Romans units:\"1 CMD, 4 HI, 1 HI guard, 3 LI\"", Options: append([]engine.OptionSpec{
		{Name: "units", Help: "comma-separated: a count, a type code, and guard for guards", Required: true},
		{Name: "name", Help: "the army's name", Required: true},
		{Name: "tag", Help: "2 to 4 letters for its unit names (default: from its name)"},
	}, engine.BotSetUpOptions...)}, Run: buildArmy},
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "Deploy a unit in your zone, the three rows at your edge; unit:all lays out the rest.", Example: "/place unit:ROM-1 at:C2 facing:N", Options: []engine.OptionSpec{
		{Name: "unit", Help: "the unit, or all", Kind: engine.OptElement, Required: true},
		{Name: "at", Help: "the square, like C2", Kind: engine.OptPoint},
		{Name: "facing", Help: "N, NE, E, SE, S, SW, W or NW (heavy troops face a side only); default toward the enemy"},
	}}, Run: placeUnit},
}

var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place UNIT SQUARE [FACING]: set a unit anywhere on the board (several: UNIT SQUARE FACING ...)"}, Run: placeDirective},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND SQUARE... [name]: road, protected (woods, buildings), impassable or open"}, Run: layTerrain},
	{CommandSpec: engine.CommandSpec{Name: "stands", Help: "#stands UNIT N [UNIT N ...]: give units N stands (0 removes one)"}, Run: setStands},
}

func openBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Master != "" {
		return engine.Refuse("", "This game is already open.")
	}
	o := Options{Cols: defaultCols, Rows: defaultRows, Points: defaultPoints, Turns: defaultTurns}
	var err error
	if o.Points, err = c.Int("points", defaultPoints); err != nil {
		return err
	}
	if o.Turns, err = c.Int("turns", defaultTurns); err != nil {
		return err
	}
	if o.Points < 10 || o.Points > 2000 {
		return engine.Refuse("", "points: must be from 10 to 2000.")
	}
	if o.Turns < 1 || o.Turns > 100 {
		return engine.Refuse("Morale 4", "turns: must be from 1 to 100.")
	}
	if c.Has("size") {
		w, h, ok := strings.Cut(strings.ToLower(c.Opt("size")), "x")
		cols, err1 := strconv.Atoi(strings.TrimSpace(w))
		rows, err2 := strconv.Atoi(strings.TrimSpace(h))
		if !ok || err1 != nil || err2 != nil || cols < 6 || rows < 8 || cols > 40 || rows > 40 {
			return engine.Refuse("", "size: is columns x rows, 6 to 40 columns and 8 to 40 rows, like 16x12.")
		}
		o.Cols, o.Rows = cols, rows
	}
	bots, err := engine.OpenBots(c)
	if err != nil {
		return err
	}
	return tx.Emit(BookOpened{Master: c.Actor, Options: o, Bots: bots})
}

func pickArmy(tx *engine.Tx, s *State, c engine.Command) error {
	l, ok := findList(c.Opt("list"))
	if !ok {
		return engine.Refuse("Sample Army Compositions", "There is no sample army %q; the lists are %s.", c.Opt("list"), strings.Join(listKeys(), ", "))
	}
	entries := withCrews(l.Entries)
	return muster(tx, s, c, Army{Name: l.Name, Tag: l.Tag, Points: cost(entries)}, entries)
}

func buildArmy(tx *engine.Tx, s *State, c engine.Command) error {
	entries, err := parseEntries(c.Opt("units"))
	if err != nil {
		return engine.Refuse("", "units: %s.", err)
	}
	n := cost(entries)
	if n > s.Options.Points {
		return engine.Refuse("", "That army costs %d points; this game allows %d.", n, s.Options.Points)
	}
	name := strings.TrimSpace(c.Opt("name"))
	tag, err := engine.ArmyTag(c.Opt("tag"), name)
	if err != nil {
		return err
	}
	return muster(tx, s, c, Army{Name: name, Tag: tag, Points: n}, entries)
}

func muster(tx *engine.Tx, s *State, c engine.Command, a Army, entries []entry) error {
	if s.Stage != Mustering {
		return engine.Refuse("", "Both armies are already on the field.")
	}
	if a.Name == "" {
		return engine.Refuse("", "An army needs a name.")
	}
	level, bot, err := engine.SetUpForBot(c, s.Master)
	if err != nil {
		return err
	}
	for _, o := range s.Armies {
		if o.Tag == a.Tag {
			a.Tag = a.Tag[:min(len(a.Tag), 3)] + "2"
		}
		if o.Player == c.Actor && c.Actor != s.Master {
			return engine.Refuse("", "You already lead the %s.", o.Name)
		}
	}
	side := Side(len(s.Armies))
	a.Player = c.Actor
	if bot {
		// The bot leads it, marked with its tag, apart from any other.
		a.Player = engine.BotSeat(level, nil, engine.Seat{ID: a.Tag})
	}
	return tx.Emit(ArmyMustered{Side: side, Army: a, Units: units(entries, side, a.Tag)})
}

// zone reports whether q lies in side's deployment zone.
func (s *State) zone(side Side, q engine.Square) bool {
	if !s.onBoard(q) {
		return false
	}
	if side == South {
		return q.Row < zoneDepth
	}
	return q.Row >= s.Options.Rows-zoneDepth
}

// forward is the direction toward the enemy's edge.
func (side Side) forward() engine.Dir8 { return side.Back().Opposite() }

func placeUnit(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Stage != Deploying {
		return engine.Refuse("", "Units are placed in deployment, after both armies are mustered and before the first turn.")
	}
	side, ok := s.sideOf(c.Actor, s.nextToDeploy())
	if !ok {
		return engine.Refuse("", "You lead no army in this game.")
	}
	if s.Armies[side].Done {
		return engine.Refuse("", "The %s have finished deploying.", s.Armies[side].Name)
	}
	if strings.EqualFold(c.Opt("unit"), "all") {
		return placeAll(tx, s, side)
	}
	u, err := s.findUnit(c.Opt("unit"))
	if err != nil {
		return err
	}
	if u.Side != side {
		return engine.Refuse("", "%s is not yours to place.", u.Label())
	}
	q, err := parseSquare("at", c.Opt("at"))
	if err != nil {
		return err
	}
	if !s.zone(side, q) {
		return engine.Refuse("", "%s is outside your deployment zone, the %d rows at your edge.", q, zoneDepth)
	}
	facing := side.forward()
	if c.Has("facing") {
		if facing, err = parseFacing(u, c.Opt("facing")); err != nil {
			return err
		}
	}
	if err := s.canStand(u, q); err != nil {
		return err
	}
	return tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), At: q, Facing: facing})
}

// nextToDeploy is the side a player leading both armies places for.
func (s *State) nextToDeploy() Side {
	if len(s.Armies) == 2 && s.Armies[South].Done {
		return North
	}
	return South
}

// canStand reports why u may not stand in q (nil when it may): one unit
// to a square, besides a commander and a catapult (Movement 2).
func (s *State) canStand(u *Unit, q engine.Square) error {
	if s.terrain(q) == Impassable {
		return engine.Refuse("", "%s is impassable.", q)
	}
	for _, o := range s.At(q) {
		if o == u {
			continue
		}
		if o.Side != u.Side {
			return engine.Refuse("Movement 2", "%s holds %s.", o.Label(), q)
		}
		if err := sharing(u, o, q); err != nil {
			return err
		}
	}
	return nil
}

// sharing reports why u may not join friend o in square q.
func sharing(u, o *Unit, q engine.Square) error {
	switch {
	case u.Body() && o.Body():
		return engine.Refuse("Movement 2", "%s already holds %s; only a commander and a catapult may share a unit's square.", o.Label(), q)
	case u.Type.IsLeader() && o.Type.IsLeader():
		return engine.Refuse("Movement 2", "%s already has %s in it; one commander to a square.", q, o.Label())
	case u.Type.IsCatapult() && o.Type.IsCatapult():
		return engine.Refuse("Movement 2", "%s already has %s in it; one catapult to a square.", q, o.Label())
	}
	return nil
}

// placeAll lays out every unplaced unit of side: bodies along the zone
// from its front row back, from the centre outward; each catapult with
// its crew, commanders with the nearest unit that has none.
func placeAll(tx *engine.Tx, s *State, side Side) error {
	var squares []engine.Square
	cols := s.Options.Cols
	for depth := zoneDepth - 1; depth >= 0; depth-- {
		row := depth
		if side == North {
			row = s.Options.Rows - 1 - depth
		}
		for i := range cols {
			off := (i + 1) / 2
			if i%2 == 1 {
				off = -off
			}
			col := (cols-1)/2 + off
			if col >= 0 && col < cols {
				squares = append(squares, engine.Square{Col: col, Row: row})
			}
		}
	}
	placed := 0
	var order []*Unit // bodies first, so that commanders and catapults find them
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Placed && !u.Gone && u.Body() {
			order = append(order, u)
		}
	}
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == side && !u.Placed && !u.Gone && !u.Body() {
			order = append(order, u)
		}
	}
	// fits says whether u may go to q on a given pass: a catapult looks
	// first for its own kind of crew, then for any crew.
	fits := func(u *Unit, q engine.Square, pass int) bool {
		if s.canStand(u, q) != nil {
			return false
		}
		b := s.bodyAt(q)
		switch {
		case u.Body():
			return true
		case b == nil:
			return false // commanders and catapults go in with a unit
		case !u.Type.IsCatapult():
			return true
		case pass == 0:
			return b.Type == map[Type]Type{HeavyCatapult: FootCrew, LightCatapult: HorseCrew}[u.Type]
		}
		return b.Type.spec().Family == Crew
	}
	for _, u := range order {
		var at engine.Square
		found := false
		for pass := 0; pass < 2 && !found; pass++ {
			for _, q := range squares {
				if fits(u, q, pass) {
					at, found = q, true
					break
				}
			}
		}
		if !found {
			return engine.Refuse("", "There is no room left in your zone for %s; place it by hand.", u.Label())
		}
		if err := tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), At: at, Facing: side.forward()}); err != nil {
			return err
		}
		placed++
	}
	if placed == 0 {
		return engine.Refuse("", "Every unit of yours is already placed.")
	}
	return nil
}

func placeDirective(tx *engine.Tx, s *State, c engine.Command) error {
	groups := [][]string{c.Args}
	if len(c.Args) > 3 && len(c.Args)%3 == 0 {
		// Several units at once: UNIT SQUARE FACING, again and again.
		groups = nil
		for i := 0; i < len(c.Args); i += 3 {
			groups = append(groups, c.Args[i:i+3])
		}
	}
	for _, args := range groups {
		if err := placeOne(tx, s, args); err != nil {
			return err
		}
	}
	return nil
}

func placeOne(tx *engine.Tx, s *State, args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return engine.Refuse("", "#place takes a unit, a square and a facing: #place ROM-3 D4 N (or several such triples)")
	}
	if s.Stage == Mustering {
		return engine.Refuse("", "Units are placed once both armies are mustered.")
	}
	u, err := s.findUnit(args[0])
	if err != nil {
		return err
	}
	q, err := parseSquare("square", args[1])
	if err != nil {
		return err
	}
	if !s.onBoard(q) {
		return engine.Refuse("", "%s is off the board.", q)
	}
	facing := u.Side.forward()
	if len(args) == 3 {
		if facing, err = parseFacing(u, args[2]); err != nil {
			return err
		}
	}
	if err := s.canStand(u, q); err != nil {
		return err
	}
	return tx.Emit(UnitPlaced{Unit: u.ID, Label: u.Label(), At: q, Facing: facing, Scenario: true})
}

func layTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 2 {
		return engine.Refuse("", "#terrain takes a kind and squares: #terrain protected E5 E6 wood")
	}
	squares, name := c.Args[1:], ""
	if _, err := engine.ParseSquare(squares[len(squares)-1]); err != nil && len(squares) > 1 {
		squares, name = squares[:len(squares)-1], squares[len(squares)-1]
	}
	return lay(tx, s, c.Args[0], squares, name)
}

// lay gives the squares named the ground of the kind named ("open"
// clears them), calling them name.
func lay(tx *engine.Tx, s *State, kind string, squares []string, name string) error {
	k, ok := parseTerrain(kind)
	if !ok && !strings.EqualFold(kind, "open") {
		return engine.Refuse("", "%q is not terrain: road, protected, impassable or open.", kind)
	}
	if len(squares) == 0 {
		return engine.Refuse("", "Name the squares the ground covers, like E5 E6.")
	}
	b := TerrainLaid{Ground: k, Name: strings.TrimSpace(name)}
	for _, a := range squares {
		q, err := engine.ParseSquare(a)
		if err != nil {
			return engine.Refuse("", "%q is not a square.", a)
		}
		if s.Master != "" && s.Options.Cols > 0 && !s.onBoard(q) {
			return engine.Refuse("", "%s is off the board.", q)
		}
		b.Squares = append(b.Squares, q)
	}
	return tx.Emit(b)
}

func setStands(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 2 || len(c.Args)%2 != 0 {
		return engine.Refuse("", "#stands takes a unit and a number, or several such pairs: #stands ROM-3 1 ROM-4 2")
	}
	for i := 0; i < len(c.Args); i += 2 {
		u, err := s.findUnit(c.Args[i])
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(c.Args[i+1])
		if err != nil || n < 0 || n > u.Full {
			return engine.Refuse("", "%s has from 0 to %d stands.", u.Label(), u.Full)
		}
		if err := tx.Emit(StandsSet{Unit: u.ID, Label: u.Label(), Stands: n}); err != nil {
			return err
		}
	}
	return nil
}

// parseSquare reads a square typed as option name.
func parseSquare(name, v string) (engine.Square, error) {
	if v == "" {
		return engine.Square{}, engine.Refuse("", "Give %s: a square, like C4.", name)
	}
	q, err := engine.ParseSquare(v)
	if err != nil {
		return q, engine.Refuse("", "%s:%s is not a square; write the column letter then the row, like C4, as the board's edges read.", name, v)
	}
	return q, nil
}

// parseFacing reads a facing for u: type A troops face a side of their
// square only (Movement 6).
func parseFacing(u *Unit, v string) (engine.Dir8, error) {
	d, err := engine.ParseDir8(v)
	if err != nil {
		return d, engine.Refuse("", "%q is not a facing; use N, NE, E, SE, S, SW, W or NW.", v)
	}
	if d.Diagonal() && u.Type.spec().Support == SupportA {
		return d, engine.Refuse("Movement 6", "%s is a type A unit and faces a side of its square: N, E, S or W.", u.Label())
	}
	return d, nil
}
