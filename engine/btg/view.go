package btg

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// view describes the battle for a picture: terrain, each unit's block to
// scale with its figures left, morale colour, state and leader, lone
// leaders, and what the last step did (moves, shots with hits, melee
// results, removals).
func view(s *State, last []engine.Event) engine.View {
	v := engine.View{
		Kind: engine.OpenTable, Width: s.Options.Width, Depth: s.Options.Depth, Unit: "inches", Pips: "figure",
		Title: fmt.Sprintf("Turn %d, %s — By the Gods!", s.Turn, s.Stage),
	}
	switch {
	case s.Stage == Over:
		v.Caption = "The battle is over: " + s.Result
	case s.pending() != nil:
		v.Caption = s.pending().(*engine.Refusal).Text
	default:
		v.Caption = book.Caption(s)
	}
	for i, a := range s.Armies {
		v.Groups = append(v.Groups, engine.Group{Name: a.Name, Player: string(a.Player), Side: i})
	}
	if s.Stage <= Deploying {
		d := s.Options.Deploy
		v.Zones = []engine.Zone{
			{Label: "black deployment", Max: engine.Vec{X: s.Options.Width, Y: d}, Side: 0},
			{Label: "red deployment", Min: engine.Vec{Y: s.Options.Depth - d}, Max: engine.Vec{X: s.Options.Width, Y: s.Options.Depth}, Side: 1},
		}
	}
	for _, f := range s.Terrain {
		c := f.Area.Corners()
		kind := engine.Rough
		switch g := f.ground(); {
		case g == Water:
			kind = engine.Stream
		case g == Wood || g == Swamp || g.IsBuilding():
			kind = engine.Protected
		}
		label := f.Name
		if f.Ground.Structure() && f.Full > 0 {
			label = fmt.Sprintf("%s %d/%d DV", f.Name, f.DV, f.Full)
			if !f.Standing() {
				label = f.Name + " (rubble)"
			}
		}
		v.Terrain = append(v.Terrain, engine.Terrain{Kind: kind, Label: label, Outline: c[:]})
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() {
			continue
		}
		crew := []string{fmt.Sprintf("%d/%d left", u.Figures, u.Start), u.Morale.String()}
		switch u.Status {
		case Routed:
			crew = append(crew, "ROUTED")
		case Rampaging:
			crew = append(crew, "RAMPAGING")
		}
		if en := s.touching(u); len(en) > 0 {
			crew = append(crew, "in melee")
		}
		if l := s.leaderOf(u); l != nil {
			crew = append(crew, "led by "+l.ID)
		}
		if u.Class.Siege() {
			crew = append(crew, fmt.Sprintf("%d DV", u.DV))
		}
		v.Pieces = append(v.Pieces, engine.Piece{Label: u.ID, Kind: kindCode(u), Group: int(u.Side), Base: u.Base,
			Wounds: u.Start - u.Figures, Limit: u.Start, Crew: strings.Join(crew, ", ")})
	}
	for i := range s.Leaders {
		l := &s.Leaders[i]
		if !l.Placed || l.Gone || l.Unit != "" {
			continue
		}
		kind := "L"
		if l.Supreme {
			kind = "G"
		}
		v.Pieces = append(v.Pieces, engine.Piece{Label: l.ID, Kind: kind, Group: int(l.Side), Base: l.Base(), Wounds: l.Hits, Limit: 2})
	}
	for _, e := range last {
		v.Marks = append(v.Marks, s.marks(e)...)
	}
	return v
}

// kindCode is the code drawn on a unit's base.
func kindCode(u *Unit) string {
	return map[Class]string{LightInfantry: "LI", HeavyInfantry: "HI", Phalanx: "Ph", Legion: "Lg", Templar: "Tm",
		LightCavalry: "LC", Cavalry: "Cv", Camelry: "Cm", Chariot: "Ch", Elephant: "El",
		StoneThrower: "ST", Catapult: "Ca", HeavyCatapult: "HC", Ballista: "Ba", Helepolis: "He"}[u.Class]
}

// marks draws what one event of the last step did.
func (s *State) marks(e engine.Event) []engine.Mark {
	center := func(id string) engine.Vec {
		if u := s.Unit(id); u != nil {
			return u.Base.Center
		}
		return engine.Vec{}
	}
	side := func(id string) int {
		if u := s.Unit(id); u != nil {
			return int(u.Side)
		}
		return 0
	}
	switch b := e.Body.(type) {
	case Moved:
		if b.From.Center == b.To.Center {
			return nil
		}
		label := ""
		if b.Why != Walk {
			label = string(b.Why)
		}
		return []engine.Mark{{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Label: label, Group: side(b.Unit)}}
	case Fired:
		return []engine.Mark{{Kind: engine.FireMark, From: center(b.Firer), To: center(b.Target), Hit: b.Lost > 0, Label: fmt.Sprintf("%d hit, -%d", b.Hits, b.Lost), Group: side(b.Firer)}}
	case SiegeFired:
		to := center(b.Target)
		if b.Structure != "" {
			for _, f := range s.Terrain {
				if f.Name == b.Structure {
					to = f.Area.Center
				}
			}
		}
		return []engine.Mark{{Kind: engine.FireMark, From: center(b.Firer), To: to, Hit: b.Damage > 0, Label: fmt.Sprintf("-%d DV", b.Damage), Group: side(b.Firer)}}
	case Fought:
		if s.Unit(b.Unit) == nil {
			return nil
		}
		return []engine.Mark{{Kind: engine.MeleeMark, From: center(b.Unit), To: center(b.Opponent), Label: fmt.Sprintf("%s -%d", b.Opponent, b.Lost), Group: side(b.Unit)}}
	case Removed:
		return []engine.Mark{{Kind: engine.KillMark, From: center(b.Unit), Label: b.Unit + " " + string(b.Loss), Group: side(b.Unit)}}
	case FiguresSet:
		if b.Figures == 0 {
			return []engine.Mark{{Kind: engine.KillMark, From: center(b.Unit), Label: b.Unit, Group: side(b.Unit)}}
		}
	case LeaderMoved:
		if l := s.Leader(b.Leader); l != nil {
			return []engine.Mark{{Kind: engine.MoveMark, From: b.From, To: b.To, Group: int(l.Side)}}
		}
	}
	return nil
}
