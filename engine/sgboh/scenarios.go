package sgboh

import (
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A scenario is a battle written as set-up commands, one a line: the
// map, its terrain, the two armies, their leaders and units. The same
// format is what /scenario save writes and /scenario load reads, so a
// club writes its own battles in it.
type scenario struct {
	Name   string // what /book open scenario: takes
	Title  string // the battle's name
	Help   string // one line about it
	Script string
}

func scenarioNames() []string {
	out := make([]string, len(preparedBattles))
	for i, sc := range preparedBattles {
		out[i] = sc.Name
	}
	return out
}

func findScenario(name string) *scenario {
	for i := range preparedBattles {
		if strings.EqualFold(preparedBattles[i].Name, strings.TrimSpace(name)) {
			return &preparedBattles[i]
		}
	}
	return nil
}

// engineScenarios offers the prepared battles to /scenario load as well,
// for a book opened without one.
func engineScenarios() []engine.Scenario {
	out := make([]engine.Scenario, len(preparedBattles))
	for i, sc := range preparedBattles {
		out[i] = engine.Scenario{Name: sc.Name, Help: sc.Title + ": " + sc.Help, Script: sc.Script}
	}
	return out
}

// setUp writes a battle's set-up as the commands that lay it out again,
// each unit and leader where it stands now.
func setUp(s *State) []engine.Command {
	var out []engine.Command
	cmd := func(name string, opts map[string]string) {
		out = append(out, engine.Command{Name: name, Options: opts})
	}
	if s.Cols == 0 {
		return nil
	}
	cmd("setup map", map[string]string{"size": strconv.Itoa(s.Cols) + "x" + strconv.Itoa(s.Rows)})
	for _, f := range s.Features {
		o := map[string]string{"kind": f.Ground.String(), "hexes": hexList(f.Hexes), "name": f.Name}
		if f.Level > 0 {
			o["kind"], o["level"] = "hill", strconv.Itoa(f.Level)
		}
		cmd("setup terrain", o)
	}
	for _, a := range s.Armies {
		o := map[string]string{"name": a.Name, "edge": a.Edge, "withdraw": strconv.Itoa(a.Withdraw)}
		if a.First {
			o["first"] = "yes"
		}
		cmd("setup side", o)
	}
	yes := func(o map[string]string, k string, b bool) {
		if b {
			o[k] = "yes"
		}
	}
	for _, wing := range []bool{true, false} {
		for i := range s.Leaders {
			l := &s.Leaders[i]
			if !l.In() || (l.Under == "") != wing {
				continue
			}
			o := map[string]string{"id": l.ID, "name": l.Name, "side": strconv.Itoa(l.Side + 1), "at": l.Hex.String(),
				"initiative": strconv.Itoa(l.Initiative), "range": strconv.Itoa(l.Range), "move": strconv.Itoa(l.MA)}
			yes(o, "elite", l.Elite)
			yes(o, "wing", l.Wing)
			if l.Under != "" {
				o["under"] = l.Under
			}
			cmd("setup leader", o)
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.On() {
			continue
		}
		o := map[string]string{"id": u.ID, "name": u.Name, "type": u.Type.String(), "side": strconv.Itoa(u.Side + 1), "at": u.Hex.String(),
			"facing": u.Facing.String(), "line": u.Line, "tq": strconv.Itoa(u.TQ), "size": strconv.Itoa(u.Size), "ma": strconv.Itoa(u.MA),
			"missile": u.Missile.String()}
		yes(o, "star", u.Star)
		yes(o, "cataphract", u.Cataphract)
		yes(o, "deep", u.Deep)
		cmd("setup unit", o)
	}
	return out
}
