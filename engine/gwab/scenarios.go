package gwab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Setting the table by command: what the local table's #terrain and
// #place directives do, for a game master on any transport, before the
// book starts. Scenarios are scripts of these commands (engine.Scenario):
// a few prepared ones, and any book's set-up written back by /scenario
// save.

// TerrainCleared takes a piece of terrain off the table before the book
// starts.
type TerrainCleared struct {
	Label string `json:"label"`
	Index int    `json:"index"` // its place among the features laid
}

func (TerrainCleared) Kind() string { return "gwab.terrain-cleared" }

func (b TerrainCleared) Apply(s *State) error {
	if b.Index < 0 || b.Index >= len(s.Terrain) {
		return fmt.Errorf("gwab: no terrain feature %d to clear", b.Index)
	}
	s.Terrain = slices.Delete(slices.Clip(s.Terrain), b.Index, b.Index+1)
	return nil
}

func (b TerrainCleared) Text() string {
	return fmt.Sprintf("Terrain: %s is taken off the table.", b.Label)
}

var setupCommandBodies = engine.BodyTypes{TerrainCleared{}.Kind(): engine.Decoder[TerrainCleared]()}

var setupCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "setup terrain", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Lay a piece of terrain before the start, in a book opened with terrain:on: rough ground, an obstacle or a stream (13.1). Game master only.",
		Example: `/setup terrain kind:stream where:"0,19 60,19 60,21 0,21" name:Scamander`,
		Options: []engine.OptionSpec{
			{Name: "kind", Help: "rough (woods, rocks), obstacle (a wall, a ditch) or stream", Required: true, Choices: []string{"rough", "obstacle", "stream"}},
			{Name: "where", Help: "an area's corners in order around it, or an obstacle's points along it, each x,y in strides", Required: true},
			{Name: "name", Help: "what the table calls it, like the Scamander"},
		}}, Run: setupTerrain},
	{CommandSpec: engine.CommandSpec{Name: "setup clear", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Take a piece of terrain off the table before the start. Game master only.",
		Example: "/setup clear name:Scamander",
		Options: []engine.OptionSpec{
			{Name: "name", Help: "the terrain's name, as the table called it", Kind: engine.OptFeature, Required: true},
		}}, Run: setupClear},
	{CommandSpec: engine.CommandSpec{Name: "setup place", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Place an element before the start, where a scenario wants it rather than in its clan's huddle (7). Game master only.",
		Example: "/setup place piece:MYR-W1 at:20,15 facing:N",
		Options: []engine.OptionSpec{
			{Name: "piece", Help: "the element to place", Kind: engine.OptElement, Required: true},
			{Name: "at", Help: "where its front centre stands, as x,y in strides", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "N, NE, E… or degrees; left out, toward the enemy's edge"},
		}}, Run: setupPlace},
}

// beforeStart refuses setting the table once the book has started: the
// clans are deployed then (7).
func beforeStart(s *State) error {
	if s.Phase != Gathering {
		return engine.Refuse("7", "The table is set before the book starts; this one has started. A game master changes a position in play with /ruling.")
	}
	return nil
}

func setupTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if err := beforeStart(s); err != nil {
		return err
	}
	if !s.Options.Terrain {
		return engine.Refuse("13.1", "This book was opened without terrain; open one with /book open terrain:on to lay it out.")
	}
	return lay(tx, c.Opt("kind"), strings.Fields(c.Opt("where")), c.Opt("name"),
		`Write where: as points x,y with spaces between, like where:"10,12 14,12 14,15 10,15".`)
}

func setupClear(tx *engine.Tx, s *State, c engine.Command) error {
	if err := beforeStart(s); err != nil {
		return err
	}
	name := strings.TrimSpace(c.Opt("name"))
	var names []string
	for i, f := range s.Terrain {
		if strings.EqualFold(f.Label, name) || strings.EqualFold(f.Name(), name) {
			return tx.Emit(TerrainCleared{Label: f.Name(), Index: i})
		}
		names = append(names, f.Name())
	}
	if len(names) == 0 {
		return engine.Refuse("13.1", "There is no terrain on the table.")
	}
	return engine.Refuse("13.1", "There is no terrain called %q; the table has %s.", name, engine.JoinAnd(names))
}

func setupPlace(tx *engine.Tx, s *State, c engine.Command) error {
	if err := beforeStart(s); err != nil {
		return err
	}
	return placeAt(tx, s, c.Opt("piece"), c.Opt("at"), c.Opt("facing"))
}

// setUp writes the book's set-up as the commands that lay it out again:
// its terrain, then every element placed, by its front centre and facing.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	for _, f := range s.Terrain {
		pts := make([]string, len(f.Points))
		for i, p := range f.Points {
			pts[i] = p.String()
		}
		c := engine.Command{Name: "setup terrain", Options: map[string]string{"kind": f.Kind.String(), "where": strings.Join(pts, " ")}}
		if f.Label != "" {
			c.Options["name"] = f.Label
		}
		out = append(out, c)
	}
	for _, el := range s.Elements {
		if !el.Placed || el.Status == Removed || el.Aboard != "" {
			continue
		}
		out = append(out, engine.Command{Name: "setup place", Options: map[string]string{
			"piece": string(el.ID), "at": el.Base.FrontCenter().String(),
			"facing": strconv.FormatFloat(float64(el.Base.Facing), 'f', -1, 64),
		}})
	}
	return out
}

// scenarios are the prepared tables of /scenario load, drawn for the
// smallest table (60 by 40 strides, 7): each side deploys along its own
// long edge, so the terrain lies between and beside the huddles.
var scenarios = []engine.Scenario{
	{Name: "river", Help: "a stream across the middle of the table, with a grove on each bank",
		Script: `/setup terrain kind:stream where:"0,19 60,19 60,21 0,21" name:"river"; ` +
			`/setup terrain kind:rough where:"8,12 16,12 16,16 8,16" name:"south grove"; ` +
			`/setup terrain kind:rough where:"44,24 52,24 52,28 44,28" name:"north grove"`},
	{Name: "walls", Help: "two broken walls across the middle, with a gap between them",
		Script: `/setup terrain kind:obstacle where:"10,20 26,20" name:"west wall"; ` +
			`/setup terrain kind:obstacle where:"34,20 50,20" name:"east wall"`},
	{Name: "rocks", Help: "outcrops of rock scattered between the two sides",
		Script: `/setup terrain kind:rough where:"12,17 17,17 17,23 12,23" name:"west rocks"; ` +
			`/setup terrain kind:rough where:"27,15 33,15 33,19 27,19" name:"middle rocks"; ` +
			`/setup terrain kind:rough where:"43,21 48,21 48,26 43,26" name:"east rocks"`},
}

// completeTerrain offers the table's terrain by name (/setup clear).
func (s *State) completeTerrain(typed string) []engine.Completion {
	var cands []engine.Candidate
	for _, f := range s.Terrain {
		value := f.Label
		if value == "" {
			value = f.Name()
		}
		cands = append(cands, engine.Candidate{
			Completion: engine.Completion{Value: value, Label: fmt.Sprintf("%s (%s)", f.Name(), f.Kind)},
			Names:      []string{f.Label, f.Kind.String()},
		})
	}
	return engine.Ranked(typed, cands)
}

// Scenario directives beyond #place: the state a club wants to rehearse
// from. They are table directives, recorded like everything else, and
// never honor or wounds won in play.

// HonorSet puts a Hero's honor where a scenario wants it (#honor). It is
// not honor gained in the book (6.2.2).
type HonorSet struct {
	Hero  ElementID `json:"hero"`
	Name  string    `json:"name"`
	Total int       `json:"total"`
}

func (HonorSet) Kind() string { return "gwab.honor-set" }

func (b HonorSet) Apply(s *State) error {
	el, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	el.Honor = b.Total
	return nil
}

func (b HonorSet) Text() string {
	return fmt.Sprintf("%s honor is set at %d: %s.", engine.Possessive(b.Name), b.Total, rankName(classFor(b.Total)))
}

var scenarioBodies = engine.BodyTypes{HonorSet{}.Kind(): engine.Decoder[HonorSet]()}

// directives are the scenario directives of this rule system.
var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place ELEMENT x,y [facing]: put an element's front centre at x,y"}, Run: place},
	{CommandSpec: engine.CommandSpec{Name: "honor", Help: "#honor HERO N: set a Hero's honor points"}, Run: setHonor},
	{CommandSpec: engine.CommandSpec{Name: "wound", Help: "#wound ELEMENT [N]: deal an element N wounds (1 when left out)"}, Run: setWounds},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND x,y x,y… [name]: lay rough ground, an obstacle or a stream (13.1; the book opened with terrain:on)"}, Run: layTerrain},
}

// setHonor is #honor HERO POINTS.
func setHonor(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) != 2 {
		return engine.Refuse("", "#honor takes a Hero and his points: #honor Hector 320")
	}
	el, err := s.findElement(c.Args[0])
	if err != nil {
		return err
	}
	if !s.isHero(el) {
		return engine.Refuse("4", "Only a clan's Hero has honor; %s is not one.", el.Label())
	}
	n, err := strconv.Atoi(c.Args[1])
	if err != nil || n < 0 {
		return engine.Refuse("4.3", "Honor is a whole number, never below zero, not %q.", c.Args[1])
	}
	return tx.Emit(HonorSet{Hero: el.ID, Name: el.Name, Total: n})
}

// setWounds is #wound ELEMENT [N]: N wounds (1 if left out), with all that
// follows from them, dealt by no one.
func setWounds(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 1 || len(c.Args) > 2 {
		return engine.Refuse("", "#wound takes an element and how many wounds: #wound TRO-W1 2")
	}
	el, err := s.findElement(c.Args[0])
	if err != nil {
		return err
	}
	n := 1
	if len(c.Args) == 2 {
		if n, err = strconv.Atoi(c.Args[1]); err != nil || n < 1 {
			return engine.Refuse("", "#wound takes a number of wounds from 1, not %q.", c.Args[1])
		}
	}
	if s.Phase != Playing {
		return engine.Refuse("", "Wounds are dealt once the book has started.")
	}
	for range n {
		if el.Status != Standing {
			break
		}
		if err := wound(tx, s, el, nil, "set by the table", false); err != nil {
			return err
		}
	}
	if ended, err := checkEnd(tx, s); ended || err != nil {
		return err
	}
	if s.Current() == nil && s.Fight == nil && s.Challenge == nil && len(s.Order) > 0 {
		return afterAction(tx)
	}
	return nil
}
