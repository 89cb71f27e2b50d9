package sgboh

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Setting up: the map, its terrain, the two armies with their leaders
// and units, and the players who take the sides. The set-up commands
// are also the scenario file format.

const (
	maxMap   = 60 // the most columns or rows a map may have
	maxUnits = 200
)

// The set-up events.
type (
	// BookOpened opens a battle; its game master lays it out.
	BookOpened struct {
		Master   engine.PlayerID `json:"master"`
		Scenario string          `json:"scenario,omitempty"`
		// Bots are the players the bot holds sides as (opponent:bot or
		// bots): each takes the side left to it.
		Bots []engine.PlayerID `json:"bots,omitempty"`
	}
	// MapLaid sets the map's size, clearing its terrain.
	MapLaid struct {
		Cols int `json:"cols"`
		Rows int `json:"rows"`
	}
	// GroundLaid lays a named stretch of terrain, or a hill's level.
	GroundLaid struct{ Feature Feature }
	// ArmyRaised adds a side.
	ArmyRaised struct{ Army Army }
	// LeaderPlaced sets a leader on the map.
	LeaderPlaced struct{ Leader Leader }
	// UnitPlaced sets a combat unit on the map.
	UnitPlaced struct{ Unit Unit }
	// SideTaken gives a side to a player.
	SideTaken struct {
		Side   int             `json:"side"`
		Player engine.PlayerID `json:"player"`
	}
)

func (BookOpened) Kind() string   { return "sgboh.book-opened" }
func (MapLaid) Kind() string      { return "sgboh.map-laid" }
func (GroundLaid) Kind() string   { return "sgboh.ground-laid" }
func (ArmyRaised) Kind() string   { return "sgboh.army-raised" }
func (LeaderPlaced) Kind() string { return "sgboh.leader-placed" }
func (UnitPlaced) Kind() string   { return "sgboh.unit-placed" }
func (SideTaken) Kind() string    { return "sgboh.side-taken" }

var setupBodies = engine.BodyTypes{
	BookOpened{}.Kind():   engine.Decoder[BookOpened](),
	MapLaid{}.Kind():      engine.Decoder[MapLaid](),
	GroundLaid{}.Kind():   engine.Decoder[GroundLaid](),
	ArmyRaised{}.Kind():   engine.Decoder[ArmyRaised](),
	LeaderPlaced{}.Kind(): engine.Decoder[LeaderPlaced](),
	UnitPlaced{}.Kind():   engine.Decoder[UnitPlaced](),
	SideTaken{}.Kind():    engine.Decoder[SideTaken](),
}

func (b BookOpened) Apply(s *State) error {
	s.Master, s.Scenario, s.Bots = b.Master, b.Scenario, b.Bots
	return nil
}

func (b BookOpened) Text() string {
	what := "a battle of Simple GBoH"
	if b.Scenario != "" {
		what = "Simple GBoH: " + b.Scenario + ","
	}
	t := fmt.Sprintf("%s opens %s and is its game master. Players take a side with /side take; the game master gives /start when both are taken.", b.Master, what)
	return t + engine.OpenedFor(b.Bots, "The bot (%s) takes the side left once the other is taken.", "The bot takes both sides (%s).")
}

func (b MapLaid) Apply(s *State) error {
	s.newMap(b.Cols, b.Rows)
	return nil
}

func (b MapLaid) Text() string {
	return fmt.Sprintf("The map is %d hexes across by %d down, from 0101 to %02d%02d.", b.Cols, b.Rows, b.Cols, b.Rows)
}

func (b GroundLaid) Apply(s *State) error { return s.lay(b.Feature) }

func (b GroundLaid) Text() string {
	f := b.Feature
	what := f.Ground.String()
	if f.Level > 0 {
		what = fmt.Sprintf("ground of level %d", f.Level)
	}
	return fmt.Sprintf("%s: %s in %s.", f.Name, what, hexList(f.Hexes))
}

func hexList(hs []engine.Hex) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.String()
	}
	return strings.Join(parts, " ")
}

func (b ArmyRaised) Apply(s *State) error {
	s.Armies = append(s.Armies, b.Army)
	return nil
}

func (b ArmyRaised) Text() string {
	a := b.Army
	first := ""
	if a.First {
		first = "; they move first (Alexander is present)"
	}
	return fmt.Sprintf("%s take the field, fleeing toward the %s edge when routed; they withdraw at %d rout points%s.", a.Name, edgeWord(a.Edge), a.Withdraw, first)
}

func edgeWord(e string) string {
	return map[string]string{"N": "north", "S": "south", "E": "east", "W": "west"}[e]
}

func (b LeaderPlaced) Apply(s *State) error {
	s.Leaders = append(s.Leaders, b.Leader)
	return nil
}

func (b LeaderPlaced) Text() string {
	l := b.Leader
	var extra []string
	if l.Elite {
		extra = append(extra, "elite")
	}
	if l.Wing {
		extra = append(extra, "wing commander")
	}
	if l.Under != "" {
		extra = append(extra, "contingent commander under "+l.Under)
	}
	x := ""
	if len(extra) > 0 {
		x = ", " + strings.Join(extra, ", ")
	}
	return fmt.Sprintf("Leader %s (%s): initiative %d, command range %d, MA %d%s, at %s.", l.ID, l.Name, l.Initiative, l.Range, l.MA, x, l.Hex)
}

func (b UnitPlaced) Apply(s *State) error {
	s.Units = append(s.Units, b.Unit)
	return nil
}

func (b UnitPlaced) Text() string {
	u := b.Unit
	return fmt.Sprintf("%s: %s, line %q, TQ %d, size %d, MA %d%s, at %s facing %s.", u.ID, describe(&u), u.Line, u.TQ, u.Size, u.MA, missileNote(&u), u.Hex, u.Facing)
}

// describe names the unit's counter: "Companions HC (cataphracts)".
func describe(u *Unit) string {
	d := u.Name + " " + u.Type.String()
	if u.Star {
		d += "*"
	}
	switch {
	case u.Cataphract:
		d += " (cataphracts)"
	case u.Deep:
		d += " (double depth)"
	}
	return d
}

func missileNote(u *Unit) string {
	if u.Missile == NoMissile {
		return ""
	}
	return fmt.Sprintf(", %s to %d", u.Missile, u.Missile.reach())
}

func (b SideTaken) Apply(s *State) error {
	if b.Side < 0 || b.Side >= len(s.Armies) {
		return fmt.Errorf("sgboh: no side %d", b.Side)
	}
	s.Armies[b.Side].Player = b.Player
	return nil
}

func (b SideTaken) Text() string {
	return fmt.Sprintf("%s takes side %d.", b.Player, b.Side+1)
}

var openCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a battle in this channel; you are its game master.", Flags: engine.Opens,
		Example: "/book open rules:sgboh scenario:granicus", Options: append([]engine.OptionSpec{
			{Name: "scenario", Help: "a prepared battle: " + strings.Join(scenarioNames(), ", "), Choices: scenarioNames()},
		}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "side take", Help: "Command one of the two armies.", Example: "/side take side:1",
		Options: append([]engine.OptionSpec{{Name: "side", Help: "the army, by its number (1 or 2) or its name", Required: true}}, engine.BotSetUpOptions...)}, Run: takeSide},
	{CommandSpec: engine.CommandSpec{Name: "start", Flags: engine.MasterOnly, Help: "Begin the battle once both sides are taken. Game master only.",
		Example: "/start", Options: []engine.OptionSpec{
			{Name: "first", Help: "rules (the army with Alexander goes first, else a roll) or roll (high roll goes first, if both agree)", Choices: []string{"rules", "roll"}},
		}}, Run: start},
}

var setupCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "setup map", Flags: engine.MasterOnly | engine.SetsUp, Help: "Set the map's size in hexes, clearing its terrain. Game master only.",
		Example: "/setup map size:20x14", Options: []engine.OptionSpec{
			{Name: "size", Help: "columns x rows, each 4 to 60", Required: true},
		}}, Run: setupMap},
	{CommandSpec: engine.CommandSpec{Name: "setup terrain", Flags: engine.MasterOnly | engine.SetsUp, Help: "Lay terrain on hexes, or a hill's level. Game master only.",
		Example: `/setup terrain kind:woods where:"0405 0406 0505" name:"the grove"`, Options: []engine.OptionSpec{
			{Name: "kind", Help: "clear, woods, rocky, marsh, river, stream, bank, abatis, or hill", Required: true},
			{Name: "where", Help: "the hexes, by number, separated by spaces", Required: true, Formerly: "hexes"},
			{Name: "name", Help: "what the map calls it", Required: true},
			{Name: "level", Help: "a hill's level above the plain, 1 to 3 (default 1)", Kind: engine.OptInt},
		}}, Run: setupTerrain},
	{CommandSpec: engine.CommandSpec{Name: "setup side", Flags: engine.MasterOnly | engine.SetsUp, Help: "Raise one of the two armies. Game master only.",
		Example: "/setup side name:Macedonians edge:S withdraw:40 first:yes", Options: []engine.OptionSpec{
			{Name: "name", Help: "the army's name", Required: true},
			{Name: "edge", Help: "the map edge its routed units flee to", Required: true, Choices: []string{"N", "S", "E", "W"}},
			{Name: "withdraw", Help: "rout points at which the army withdraws", Kind: engine.OptInt, Required: true},
			{Name: "first", Help: "yes if Alexander commands it: it goes first (3.3)", Choices: []string{"yes", "no"}},
		}}, Run: setupSide},
	{CommandSpec: engine.CommandSpec{Name: "setup leader", Flags: engine.MasterOnly | engine.SetsUp, Help: "Set a leader on the map. Game master only.",
		Example: "/setup leader id:ALX name:Alexander side:1 at:0812 initiative:7 range:5 elite:yes wing:yes", Options: []engine.OptionSpec{
			{Name: "id", Help: "his short name, 2 to 6 letters or digits", Required: true},
			{Name: "name", Help: "his name", Required: true},
			{Name: "side", Help: "his army, 1 or 2 or its name", Required: true},
			{Name: "at", Help: "his hex", Kind: engine.OptPoint, Required: true},
			{Name: "initiative", Help: "initiative, 0 to 9", Kind: engine.OptInt, Required: true},
			{Name: "range", Help: "command range in hexes, 0 to 12", Kind: engine.OptInt, Required: true},
			{Name: "move", Help: "his movement allowance (default 8)", Kind: engine.OptInt},
			{Name: "elite", Help: "yes for an elite commander", Choices: []string{"yes", "no"}},
			{Name: "wing", Help: "yes for a wing commander with contingent commanders under him", Choices: []string{"yes", "no"}},
			{Name: "under", Help: "a contingent commander's wing commander (5.6)"},
		}}, Run: setupLeader},
	{CommandSpec: engine.CommandSpec{Name: "setup unit", Flags: engine.MasterOnly | engine.SetsUp, Help: "Set a combat unit on the map. Game master only.",
		Example: `/setup unit id:PH1 name:Pezhetairoi type:PH side:1 at:0810 facing:NNE line:Phalanx`, Options: []engine.OptionSpec{
			{Name: "id", Help: "its short name, 2 to 6 letters or digits", Required: true},
			{Name: "name", Help: "the counter's top line: who they are", Required: true},
			{Name: "type", Help: "PH, HI, HO, MI, LP, LI, SK, HC, LN, LC, EL, CH or AR", Required: true},
			{Name: "side", Help: "its army, 1 or 2 or its name", Required: true},
			{Name: "at", Help: "its hex", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "the corner of its hex it faces: NNE, E, SSE, SSW, W or NNW", Required: true, Choices: []string{"NNE", "E", "SSE", "SSW", "W", "NNW"}},
			{Name: "line", Help: "the unit type a leader activates it with (4.2)", Required: true},
			{Name: "tq", Help: "troop quality (default by type)", Kind: engine.OptInt},
			{Name: "size", Help: "size points (default by type)", Kind: engine.OptInt},
			{Name: "ma", Help: "movement allowance (default by type)", Kind: engine.OptInt},
			{Name: "missile", Help: "none, javelin, sling, bow or bolt (default by type)", Choices: missileNames[:]},
			{Name: "star", Help: "yes for SK* that may shock as LI (9.3)", Choices: []string{"yes", "no"}},
			{Name: "cataphract", Help: "yes for cataphracted HC", Choices: []string{"yes", "no"}},
			{Name: "deep", Help: "yes for a double-depth phalanx (9.62)", Choices: []string{"yes", "no"}},
		}}, Run: setupUnit},
}

func openBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Master != "" {
		return engine.Refuse("", "This battle is already open.")
	}
	name := c.Opt("scenario")
	var sc *scenario
	if name != "" {
		if sc = findScenario(name); sc == nil {
			return engine.Refuse("", "There is no prepared battle %q: choose one of %s.", name, strings.Join(scenarioNames(), ", "))
		}
		name = sc.Title
	}
	bots, err := engine.OpenBots(c)
	if err != nil {
		return err
	}
	if err := tx.Emit(BookOpened{Master: c.Actor, Scenario: name, Bots: bots}); err != nil {
		return err
	}
	if sc == nil {
		return nil
	}
	cmds, err := engine.ParseScript(sc.Script)
	if err != nil {
		return fmt.Errorf("sgboh: scenario %s: %w", sc.Name, err)
	}
	for _, sub := range cmds {
		sub.Actor, sub.Master = c.Actor, true
		r, ok := setupRule(sub.Name)
		if !ok {
			return fmt.Errorf("sgboh: scenario %s: /%s is not a set-up command", sc.Name, sub.Name)
		}
		if err := r.Run(tx, tx.State().(*State), sub); err != nil {
			return fmt.Errorf("sgboh: scenario %s: %s: %w", sc.Name, sub, err)
		}
	}
	return nil
}

func setupRule(name string) (command, bool) {
	for _, r := range setupCommands {
		if r.Name == name {
			return r, true
		}
	}
	return command{}, false
}

// settingUp refuses set-up once the battle has begun.
func settingUp(s *State) error {
	if s.Flow.Stage != SettingUp {
		return engine.Refuse("", "The battle has begun; the map and the armies are set.")
	}
	return nil
}

func setupMap(tx *engine.Tx, s *State, c engine.Command) error {
	if err := settingUp(s); err != nil {
		return err
	}
	cols, rows, ok := parseSize(c.Opt("size"))
	if !ok {
		return engine.Refuse("", "size: give columns x rows, such as 20x14, each from 4 to %d.", maxMap)
	}
	if len(s.Units) > 0 || len(s.Leaders) > 0 {
		return engine.Refuse("", "The map is set before any leader or unit stands on it.")
	}
	return tx.Emit(MapLaid{Cols: cols, Rows: rows})
}

func parseSize(t string) (int, int, bool) {
	a, b, ok := strings.Cut(strings.ToLower(strings.TrimSpace(t)), "x")
	if !ok {
		return 0, 0, false
	}
	cols, e1 := strconv.Atoi(strings.TrimSpace(a))
	rows, e2 := strconv.Atoi(strings.TrimSpace(b))
	if e1 != nil || e2 != nil || cols < 4 || rows < 4 || cols > maxMap || rows > maxMap {
		return 0, 0, false
	}
	return cols, rows, true
}

// needMap refuses set-up on a battle with no map yet.
func needMap(s *State) error {
	if s.Cols == 0 {
		return engine.Refuse("", "Set the map first: /setup map size:20x14.")
	}
	return nil
}

// parseHexOn reads a hex that must be on the map.
func parseHexOn(s *State, opt, text string) (engine.Hex, error) {
	h, err := engine.ParseHex(text)
	if err != nil {
		return h, engine.Refuse("", "%s: %q is not a hex: give its four-digit number, such as 0412.", opt, text)
	}
	if !s.onMap(h) {
		return h, engine.Refuse("", "%s: %s is off the map, which runs from 0101 to %02d%02d.", opt, h, s.Cols, s.Rows)
	}
	return h, nil
}

func setupTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if err := errorsFirst(settingUp(s), needMap(s)); err != nil {
		return err
	}
	f := Feature{Name: strings.TrimSpace(c.Opt("name"))}
	if f.Name == "" {
		return engine.Refuse("", "name: give the terrain a name.")
	}
	kind := strings.ToLower(c.Opt("kind"))
	if kind == "hill" {
		lv, err := c.Int("level", 1)
		if err != nil {
			return err
		}
		if lv < 1 || lv > 3 {
			return engine.Refuse("", "level: a hill rises 1 to 3 levels.")
		}
		f.Level = lv
	} else {
		g, err := parseGround(kind)
		if err != nil {
			return engine.Refuse("", "kind: %v.", err)
		}
		f.Ground = g
	}
	for _, t := range strings.Fields(strings.NewReplacer(",", " ").Replace(c.Opt("where"))) {
		h, err := parseHexOn(s, "where", t)
		if err != nil {
			return err
		}
		if !slices.Contains(f.Hexes, h) {
			f.Hexes = append(f.Hexes, h)
		}
	}
	if len(f.Hexes) == 0 {
		return engine.Refuse("", "where: list at least one hex.")
	}
	return tx.Emit(GroundLaid{Feature: f})
}

func errorsFirst(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func setupSide(tx *engine.Tx, s *State, c engine.Command) error {
	if err := settingUp(s); err != nil {
		return err
	}
	if len(s.Armies) == 2 {
		return engine.Refuse("", "Both armies are raised.")
	}
	a := Army{Name: strings.TrimSpace(c.Opt("name")), Edge: strings.ToUpper(c.Opt("edge")), First: c.Opt("first") == "yes"}
	if a.Name == "" {
		return engine.Refuse("", "name: give the army a name.")
	}
	if edgeWord(a.Edge) == "" {
		return engine.Refuse("", "edge: N, S, E or W.")
	}
	w, err := c.Int("withdraw", 0)
	if err != nil {
		return err
	}
	if w < 1 || w > 999 {
		return engine.Refuse("", "withdraw: the rout points at which the army withdraws, 1 to 999.")
	}
	a.Withdraw = w
	for _, o := range s.Armies {
		if strings.EqualFold(o.Name, a.Name) {
			return engine.Refuse("", "There is already an army called %s.", o.Name)
		}
		if o.First && a.First {
			return engine.Refuse("", "first: only one army goes first.")
		}
	}
	return tx.Emit(ArmyRaised{Army: a})
}

// sideNamed reads a side by number or army name.
func (s *State) sideNamed(t string) (int, error) {
	t = strings.TrimSpace(t)
	if n, err := strconv.Atoi(t); err == nil && n >= 1 && n <= len(s.Armies) {
		return n - 1, nil
	}
	for i, a := range s.Armies {
		if strings.EqualFold(a.Name, t) {
			return i, nil
		}
	}
	return 0, engine.Refuse("", "side: %q is no army here; give 1 or 2 or the army's name (/setup side raises them).", t)
}

// validID checks a short name for a leader or unit.
func (s *State) validID(id string) error {
	if len(id) < 2 || len(id) > 6 {
		return engine.Refuse("", "id: 2 to 6 letters or digits.")
	}
	for _, r := range id {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return engine.Refuse("", "id: 2 to 6 letters or digits.")
		}
	}
	if s.unit(id) != nil || s.leader(id) != nil {
		return engine.Refuse("", "id: %s is taken.", id)
	}
	return nil
}

func setupLeader(tx *engine.Tx, s *State, c engine.Command) error {
	if err := errorsFirst(settingUp(s), needMap(s)); err != nil {
		return err
	}
	l := Leader{ID: strings.TrimSpace(c.Opt("id")), Name: strings.TrimSpace(c.Opt("name")), Elite: c.Opt("elite") == "yes", Wing: c.Opt("wing") == "yes"}
	if err := s.validID(l.ID); err != nil {
		return err
	}
	side, err := s.sideNamed(c.Opt("side"))
	if err != nil {
		return err
	}
	l.Side = side
	if l.Hex, err = parseHexOn(s, "at", c.Opt("at")); err != nil {
		return err
	}
	if l.Initiative, err = intIn(c, "initiative", 0, 0, 9); err != nil {
		return err
	}
	if l.Range, err = intIn(c, "range", 0, 0, 12); err != nil {
		return err
	}
	if l.MA, err = intIn(c, "move", 8, 1, 20); err != nil {
		return err
	}
	if u := c.Opt("under"); u != "" {
		wc := s.leader(u)
		if wc == nil || !wc.Wing || wc.Side != side {
			return engine.Refuse("", "under: %s is no wing commander of this army (set him up first, with wing:yes).", u)
		}
		l.Under = wc.ID
	}
	if e := s.at(l.Hex); e != nil && e.Side != side {
		return engine.Refuse("", "at: an enemy unit stands in %s.", l.Hex)
	}
	if name := s.name(side); l.Name == "" {
		return engine.Refuse("", "name: give the leader of %s a name.", name)
	}
	return tx.Emit(LeaderPlaced{Leader: l})
}

func intIn(c engine.Command, opt string, def, lo, hi int) (int, error) {
	n, err := c.Int(opt, def)
	if err != nil {
		return 0, err
	}
	if n < lo || n > hi {
		return 0, engine.Refuse("", "%s: from %d to %d.", opt, lo, hi)
	}
	return n, nil
}

func setupUnit(tx *engine.Tx, s *State, c engine.Command) error {
	if err := errorsFirst(settingUp(s), needMap(s)); err != nil {
		return err
	}
	if len(s.Units) >= maxUnits {
		return engine.Refuse("", "A battle holds at most %d units.", maxUnits)
	}
	u := Unit{ID: strings.TrimSpace(c.Opt("id")), Name: strings.TrimSpace(c.Opt("name")), Line: strings.TrimSpace(c.Opt("line"))}
	if err := s.validID(u.ID); err != nil {
		return err
	}
	if u.Name == "" || u.Line == "" {
		return engine.Refuse("", "Give the unit a name and the line it is activated with.")
	}
	t, err := parseType(c.Opt("type"))
	if err != nil {
		return engine.Refuse("", "type: %v.", err)
	}
	u.Type = t
	if u.Side, err = s.sideNamed(c.Opt("side")); err != nil {
		return err
	}
	if u.Hex, err = parseHexOn(s, "at", c.Opt("at")); err != nil {
		return err
	}
	if u.Facing, err = engine.ParseHexFacing(c.Opt("facing")); err != nil {
		return engine.Refuse("", "facing: NNE, E, SSE, SSW, W or NNW.")
	}
	p := profiles[t]
	if u.TQ, err = intIn(c, "tq", p.TQ, 1, 9); err != nil {
		return err
	}
	if u.Size, err = intIn(c, "size", p.Size, 1, 20); err != nil {
		return err
	}
	if u.MA, err = intIn(c, "ma", p.MA, 1, 12); err != nil {
		return err
	}
	if t == PH && u.MA != p.MA {
		return engine.Refuse("6.4", "ma: a phalanx moves %d in Simple GBoH, whatever the standard counter prints.", p.MA)
	}
	u.Missile = p.Missile
	if c.Has("missile") {
		if u.Missile, err = parseMissile(c.Opt("missile")); err != nil {
			return engine.Refuse("", "missile: %v.", err)
		}
	}
	u.Star, u.Cataphract, u.Deep = c.Opt("star") == "yes", c.Opt("cataphract") == "yes", c.Opt("deep") == "yes"
	switch {
	case u.Star && t != SK:
		return engine.Refuse("", "star: only skirmishers are SK*.")
	case u.Cataphract && t != HC:
		return engine.Refuse("", "cataphract: only HC are cataphracted.")
	case u.Deep && t != PH:
		return engine.Refuse("", "deep: only a phalanx stands double deep.")
	}
	if o := s.at(u.Hex); o != nil {
		return engine.Refuse("", "at: %s already stands in %s; one combat unit to a hex (6.91).", o.ID, u.Hex)
	}
	if _, ok := s.cell(u.Hex).Ground.cost(t); !ok {
		return engine.Refuse("", "at: %s may not stand in %s ground.", t.Words(), s.cell(u.Hex).Ground)
	}
	return tx.Emit(UnitPlaced{Unit: u})
}

func takeSide(tx *engine.Tx, s *State, c engine.Command) error {
	if len(s.Armies) < 2 {
		return engine.Refuse("", "The armies are not raised yet (/setup side, or open a prepared battle).")
	}
	side, err := s.sideNamed(c.Opt("side"))
	if err != nil {
		return err
	}
	if p := s.Armies[side].Player; p != "" {
		return engine.Refuse("", "%s already commands %s.", p, s.Armies[side].Name)
	}
	if s.Flow.Stage != SettingUp {
		return engine.Refuse("", "The battle has begun.")
	}
	level, bot, err := engine.SetUpForBot(c, s.Master)
	if err != nil {
		return err
	}
	player := c.Actor
	if bot {
		// The bot takes it, marked with the army's name, apart from any
		// other.
		player = engine.BotSeat(level, nil, engine.Seat{ID: s.Armies[side].Name})
	}
	return tx.Emit(SideTaken{Side: side, Player: player})
}

func start(tx *engine.Tx, s *State, c engine.Command) error {
	if err := settingUp(s); err != nil {
		return err
	}
	if len(s.Armies) < 2 || s.Armies[0].Player == "" || s.Armies[1].Player == "" {
		return engine.Refuse("", "Both sides must be taken first (/side take).")
	}
	for side := range 2 {
		n := 0
		for i := range s.Units {
			if s.Units[i].Side == side {
				n++
			}
		}
		if n == 0 {
			return engine.Refuse("", "%s have no units on the map.", s.name(side))
		}
	}
	w := begin(tx, s)
	first := -1
	for i, a := range s.Armies {
		if a.First && c.Opt("first") != "roll" {
			first = i
			w.say("%s move first: Alexander leads them (3.3).", a.Name)
		}
	}
	for first < 0 {
		r0, r1 := w.roll(), w.roll()
		w.say("Who goes first (3.3): %s roll %d, %s roll %d.", s.name(0), r0, s.name(1), r1)
		switch {
		case r0 > r1:
			first = 0
		case r1 > r0:
			first = 1
		}
	}
	w.Flow = Flow{Stage: Free, Side: first}
	w.say("%s activate any leader first: /activate.", s.name(first))
	return w.emit(func(e Effects) engine.Body { return Started{e} })
}
