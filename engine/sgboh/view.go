package sgboh

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// view describes the battle for a picture: the hex map and its terrain,
// each counter with its type, facing, status and missile hits, the
// leaders, the activated leader's command range, and what the last step
// did.
func view(s *State, last []engine.Event) engine.View {
	v := engine.View{Kind: engine.HexGrid, Width: float64(s.Cols), Depth: float64(s.Rows), Pips: "missile hit"}
	v.Title = "Simple GBoH"
	if s.Scenario != "" {
		v.Title = s.Scenario + " — Simple GBoH"
	}
	if s.Flow.Count > 0 {
		v.Title += fmt.Sprintf(", activation %d", s.Flow.Count)
	}
	if s.Flow.Stage == Over {
		v.Caption = "The battle is over: " + s.Result
	} else {
		v.Caption = book.Caption(s)
	}
	if s.Cols == 0 {
		v.Width, v.Depth = 1, 1
		return v
	}
	for i, a := range s.Armies {
		v.Groups = append(v.Groups, engine.Group{Name: a.Name, Player: string(a.Player), Side: i})
	}
	v.Terrain = s.terrainView()
	s.activationView(&v)
	s.unitPieces(&v)
	s.leaderPieces(&v)
	v.Marks = lastMarks(last)
	return v
}

// terrainView is the map's terrain, each feature a hex at a time and
// named on its middle hex.
func (s *State) terrainView() []engine.Terrain {
	var out []engine.Terrain
	for f := range s.Features.All() {
		kind := engine.Rough
		label := f.Name
		switch {
		case f.Level > 0:
			kind, label = engine.Road, fmt.Sprintf("%s (level %d)", f.Name, f.Level)
		case f.Ground == Woods:
			kind = engine.Protected
		case f.Ground == River || f.Ground == Stream || f.Ground == Marsh:
			kind = engine.Stream
		}
		mid := len(f.Hexes) / 2
		for i, h := range f.Hexes {
			t := engine.Terrain{Kind: kind, Outline: []engine.Vec{cellVec(h)}}
			if i == mid {
				t.Label = label
			}
			out = append(out, t)
		}
	}
	return out
}

// activationView frames the activated leader and the units he commands,
// and shades his command range.
func (s *State) activationView(v *engine.View) {
	if s.Flow.Stage == Acting {
		// Frame a picture with no marks on the activated leader and the
		// units he commands.
		if l := s.leader(s.Flow.Leader); l != nil {
			v.Focus = append(v.Focus, cellVec(l.Hex))
		}
		for i := range s.Units {
			if u := &s.Units[i]; u.Act && u.On() {
				v.Focus = append(v.Focus, cellVec(u.Hex))
			}
		}
	}
	if l := s.leader(s.Flow.Leader); l != nil && s.Flow.Stage == Acting {
		for _, h := range engine.HexesWithin(l.Hex, l.Range) {
			if s.onMap(h) {
				p := cellVec(h)
				v.Zones = append(v.Zones, engine.Zone{Min: p, Max: p, Side: l.Side})
			}
		}
	}
}

// unitPieces adds the counters: on the map with their notes and hits,
// and aside those pursuing off it.
func (s *State) unitPieces(v *engine.View) {
	for i := range s.Units {
		u := &s.Units[i]
		if u.OffMap && !u.Gone {
			v.Aside = append(v.Aside, engine.Piece{Label: u.ID, Kind: u.Type.String(), Group: u.Side, Crew: "pursuing, back on a continuity roll of 0 or 1"})
		}
		if !u.On() {
			continue
		}
		var notes []string
		switch u.Status {
		case Disordered:
			notes = append(notes, "disordered")
		case Routed:
			notes = append(notes, "ROUTED")
		}
		if u.Engaged {
			notes = append(notes, "engaged")
		}
		if u.Act && s.Flow.Stage == Acting {
			notes = append(notes, "active")
		}
		kind := u.Type.String()
		if u.Star {
			kind += "*"
		}
		p := engine.Piece{Label: u.ID, Kind: kind, Group: u.Side, Crew: strings.Join(notes, ", "),
			Base: engine.Base{Center: cellVec(u.Hex), Facing: u.Facing.Heading()}}
		if u.Hits > 0 {
			// Pips only where there are hits: filled for each, hollow for
			// those the unit may still take (more than TQ eliminate it;
			// a routed unit's TQ is 1, and it may have more already).
			p.Wounds, p.Limit = u.Hits, max(u.Hits, u.quality())+1
		}
		v.Pieces = append(v.Pieces, p)
	}
}

// leaderPieces adds the leaders still in the battle.
func (s *State) leaderPieces(v *engine.View) {
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if !l.In() {
			continue
		}
		crew := ""
		if l.ID == s.Flow.Leader && s.Flow.Stage == Acting {
			crew = fmt.Sprintf("activated, range %d", l.Range)
		}
		v.Pieces = append(v.Pieces, engine.Piece{Label: l.ID, Kind: "L", Group: l.Side, Crew: crew,
			Base: engine.Base{Center: cellVec(l.Hex), Facing: engine.FacingNNE.Heading()}})
	}
}

// lastMarks are the marks of what the last step did.
func lastMarks(last []engine.Event) []engine.Mark {
	var out []engine.Mark
	for _, e := range last {
		step, ok := e.Body.(interface{ effects() Effects })
		if !ok {
			continue
		}
		fx := step.effects()
		for _, m := range fx.Marks {
			out = append(out, engine.Mark{Kind: m.Kind, From: cellVec(m.From), To: cellVec(m.To), Hit: m.Hit, Label: m.Label, Group: m.Side})
		}
	}
	return out
}

// cellVec is a hex as the picture places it: printed column and row.
func cellVec(h engine.Hex) engine.Vec {
	c, r := h.Offset()
	return engine.Vec{X: float64(c), Y: float64(r)}
}
