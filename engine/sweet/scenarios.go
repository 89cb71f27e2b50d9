package sweet

import (
	"maps"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Setting the table by command: what the local table's #terrain and
// #place directives do, for a game master on any transport, before the
// first turn. Scenarios are scripts of these commands (engine.Scenario):
// a few prepared grounds, and any game's set-up written back by
// /scenario save.

var setupCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "setup terrain", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Give squares their ground before the first turn: road, protected (woods, buildings), impassable, or open to clear them (Movement 1; Missile Fire 3; Charging and Melee 8). Game master only.",
		Example: `/setup terrain kind:protected where:"F5 G5" name:"the farm"`,
		Options: []engine.OptionSpec{
			{Name: "kind", Help: "road, protected, impassable, or open to clear", Required: true, Choices: []string{"road", "protected", "impassable", "open"}},
			{Name: "where", Help: "the squares, like F5 G5", Required: true},
			{Name: "name", Help: "what the table calls it, like the farm"},
		}}, Run: setupTerrain},
	{CommandSpec: engine.CommandSpec{Name: "setup place", Flags: engine.MasterOnly | engine.SetsUp,
		Help:    "Set a unit on any square before the first turn, where a scenario wants it. Game master only.",
		Example: "/setup place piece:ROM-3 at:D4 facing:N",
		Options: []engine.OptionSpec{
			{Name: "piece", Help: "the unit to place", Kind: engine.OptElement, Required: true},
			{Name: "at", Help: "the square, like D4", Kind: engine.OptPoint, Required: true},
			{Name: "facing", Help: "N, NE, E…; left out, toward the enemy's edge"},
		}}, Run: setupPlace},
}

// beforeBattle refuses setting the table once the first turn has begun.
func beforeBattle(s *State) error {
	if s.Turn > 0 {
		return engine.Refuse("", "The table is set before the first turn; this battle has begun. A game master changes a unit in play with /ruling.")
	}
	return nil
}

func setupTerrain(tx *engine.Tx, s *State, c engine.Command) error {
	if err := beforeBattle(s); err != nil {
		return err
	}
	return lay(tx, s, c.Opt("kind"), strings.Fields(c.Opt("where")), c.Opt("name"))
}

func setupPlace(tx *engine.Tx, s *State, c engine.Command) error {
	if err := beforeBattle(s); err != nil {
		return err
	}
	args := []string{c.Opt("piece"), c.Opt("at")}
	if c.Has("facing") {
		args = append(args, c.Opt("facing"))
	}
	return placeOne(tx, s, args)
}

// setUp writes the game's set-up as the commands that lay it out again:
// its ground, kind by kind and name by name, then every unit on the board.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	for _, k := range []TerrainKind{Road, Protected, Impassable} {
		named := map[string][]string{}
		for _, c := range s.Terrain {
			if c.Kind == k {
				named[c.Name] = append(named[c.Name], c.At.String())
			}
		}
		for _, name := range slices.Sorted(maps.Keys(named)) {
			sq := named[name]
			slices.Sort(sq)
			opts := map[string]string{"kind": k.String(), "where": strings.Join(sq, " ")}
			if name != "" {
				opts["name"] = name
			}
			out = append(out, engine.Command{Name: "setup terrain", Options: opts})
		}
	}
	for _, u := range s.Units {
		if u.OnBoard() {
			out = append(out, engine.Command{Name: "setup place", Options: map[string]string{"piece": string(u.ID), "at": u.At.String(), "facing": u.Facing.String()}})
		}
	}
	return out
}

// scenarios are the prepared grounds of /scenario load, laid in the
// middle rows of the smallest grid the game opens (10 by 8 squares), out
// of both deployment zones.
var scenarios = []engine.Scenario{
	{Name: "village", Help: "a walled village and a wood in the middle of the field",
		Script: `/setup terrain kind:protected where:"E4 F4 E5 F5" name:village; /setup terrain kind:protected where:"H4 H5" name:wood`},
	{Name: "road", Help: "a road across the field from west to east, past a wood",
		Script: `/setup terrain kind:road where:"A5 B5 C5 D5 E5 F5 G5 H5 I5 J5" name:road; /setup terrain kind:protected where:"C4 D4" name:wood`},
	{Name: "marsh", Help: "an impassable marsh on one flank and broken ground on the other",
		Script: `/setup terrain kind:impassable where:"A4 B4 A5 B5" name:marsh; /setup terrain kind:protected where:"I4 J4" name:scrub`},
}
