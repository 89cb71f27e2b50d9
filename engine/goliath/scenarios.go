package goliath

import (
	"strconv"

	"github.com/rhapsode/rhapsode/engine"
)

// setUp writes the table's set-up as the commands that lay it out again,
// for /scenario save: the terrain, then each placed unit.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	for _, f := range s.Terrain {
		c := f.Area.Corners()
		out = append(out, engine.Command{Name: "setup terrain", Options: map[string]string{
			"kind": f.Ground.String(), "where": c[0].String() + " " + c[2].String(), "name": f.Name}})
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.Placed {
			continue
		}
		out = append(out, engine.Command{Name: "setup place", Options: map[string]string{
			"piece": u.ID, "at": u.Base.FrontCenter().String(), "facing": u.Base.Facing.String(), "frontage": strconv.Itoa(u.Frontage)}})
	}
	return out
}

// scenarios are prepared tables for /scenario load: the text names
// none, so these are the bot's own, each a few pieces of terrain on the
// default 72" by 48" table.
var scenarios = []engine.Scenario{
	{Name: "barrow", Help: "a barrow hill on the south side and an old wood on the north-east",
		Script: `/setup terrain kind:hill where:"30,8 42,14" name:"the barrow"; /setup terrain kind:woods where:"50,22 62,30" name:"the old wood"`},
	{Name: "ford", Help: "a river across the middle with a rugged ford, and a village by it",
		Script: `/setup terrain kind:water where:"0,22 30,26" name:"the river west"; /setup terrain kind:rugged where:"30,22 38,26" name:"the ford"; /setup terrain kind:water where:"38,22 72,26" name:"the river east"; /setup terrain kind:buildings where:"40,27 46,31" name:"the village"`},
	{Name: "marsh", Help: "a marsh on one flank and a wooded ridge on the other",
		Script: `/setup terrain kind:difficult where:"4,18 20,30" name:"the marsh"; /setup terrain kind:hill where:"50,16 66,24" name:"the ridge"; /setup terrain kind:woods where:"54,18 62,22" name:"the ridge wood"`},
}
