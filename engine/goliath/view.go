package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// view describes the battle for a picture: the terrain and spell areas,
// each unit to scale in its formation with its figures left, its morale
// state, fatigue and paralysis, and what the last step did (moves,
// volleys and spells with their results, melee, morale moves). Sealed
// orders are never shown.
func view(s *State, last []engine.Event) engine.View {
	v := engine.View{
		Kind: engine.OpenTable, Width: s.Options.Width, Depth: s.Options.Depth, Unit: "inches", Pips: "figure",
		Title: fmt.Sprintf("Turn %d, %s — Goliath", s.Turn, s.Stage),
	}
	if s.Options.Night {
		// At night only what a light shows may be shot at: say so where
		// every picture says when it is.
		v.Title = fmt.Sprintf("Turn %d by night, %s — Goliath", s.Turn, s.Stage)
	}
	if s.Stage == Over {
		v.Caption = "The battle is over: " + s.Result
	} else {
		v.Caption = book.Caption(s)
	}
	for i, a := range s.Armies {
		v.Groups = append(v.Groups, engine.Group{Name: a.Name, Player: string(a.Player), Side: i})
	}
	if s.Stage <= Deploying {
		d := s.Options.Deploy
		v.Zones = []engine.Zone{
			{Label: "south deployment", Max: engine.Vec{X: s.Options.Width, Y: d}, Side: 0},
			{Label: "north deployment", Min: engine.Vec{Y: s.Options.Depth - d}, Max: engine.Vec{X: s.Options.Width, Y: s.Options.Depth}, Side: 1},
		}
	}
	for _, f := range s.Terrain {
		c := f.Area.Corners()
		kind := engine.Rough
		switch {
		case f.Ground == Water:
			kind = engine.Stream
		case f.Ground.Covers():
			kind = engine.Protected
		}
		v.Terrain = append(v.Terrain, engine.Terrain{Kind: kind, Label: f.Label(), Outline: c[:]})
	}
	for _, a := range s.Darkness {
		v.Terrain = append(v.Terrain, engine.Terrain{Kind: engine.Dark, Label: "darkness", Outline: circle(a)})
	}
	for _, a := range s.Lights {
		v.Terrain = append(v.Terrain, engine.Terrain{Kind: engine.Road, Label: "light", Outline: circle(a)})
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.In() {
			continue
		}
		notes := []string{fmt.Sprintf("%d/%d", u.Figures, u.Start)}
		if u.Status == Routed {
			notes = append(notes, "ROUTED")
		}
		if s.engaged(u) {
			notes = append(notes, "in melee")
		}
		if u.Tired {
			notes = append(notes, "tired")
		}
		if u.Paralyzed > 0 {
			notes = append(notes, fmt.Sprintf("%d paralyzed", u.Paralyzed))
		}
		if u.Damage > 0 {
			notes = append(notes, fmt.Sprintf("%d hit on a figure", u.Damage))
		}
		if u.Unloaded {
			notes = append(notes, "reloading")
		}
		if s.hidden(&Unit{}, u) != "" && s.Stage > Deploying {
			notes = append(notes, "invisible")
		}
		v.Pieces = append(v.Pieces, engine.Piece{Label: u.ID, Kind: kindCode(u), Group: int(u.Side), Base: u.Base,
			Wounds: u.Start - u.Figures, Limit: u.Start, Crew: strings.Join(notes, ", ")})
	}
	for _, e := range last {
		v.Marks = append(v.Marks, s.marks(e)...)
	}
	return v
}

// circle outlines a spell's area as a polygon.
func circle(a Area) []engine.Vec {
	var out []engine.Vec
	for i := 0; i < 16; i++ {
		out = append(out, a.At.Add(engine.Heading(float64(i)*22.5).Vec().Scale(a.Radius)))
	}
	return out
}

// kindCode is the code drawn on a unit's base: its rating, or the first
// letters of a monster's name.
func kindCode(u *Unit) string {
	switch u.Profile.Type {
	case "dragon", "giants", "trolls", "ogres", "ogrillons", "werewolf", "wizards", "wraiths", "ghouls", "wights", "zombies", "skeletons",
		"hero", "ranger", "super-hero", "elves", "dwarves", "goblins", "orcs", "giant-orcs", "orogs", "halflings":
		n := strings.ToUpper(strings.ReplaceAll(u.Profile.Type, "-", ""))
		return n[:2]
	}
	code := u.Profile.AR.String()
	if u.Profile.Shoots() {
		code = map[Weapon]string{Bow: "Bw", Longbow: "LB", Crossbow: "XB", HeavyCrossbow: "HX", Thrown: "Th"}[u.Profile.Weapon]
		if u.Profile.Cavalry() {
			code = "HA"
		}
	}
	return code
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
		if b.Why == Charges || b.Why == Closing {
			label = "charge"
		}
		return []engine.Mark{{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Label: label, Group: side(b.Unit)}}
	case Shifted:
		return []engine.Mark{{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Label: b.Why, Group: side(b.Unit)}}
	case Fired:
		if b.Missed {
			return nil
		}
		return []engine.Mark{{Kind: engine.FireMark, From: center(b.Firer), To: center(b.Target), Hit: b.Harm.Kills+b.Harm.Paralyzed > 0,
			Label: fmt.Sprintf("%d hit, -%d", b.Harm.Hits, b.Harm.Kills), Group: side(b.Firer)}}
	case Cast:
		to := b.At
		if b.Target != "" {
			to = center(b.Target)
		}
		label := string(b.Spell)
		if b.Killed > 0 {
			label += fmt.Sprintf(" -%d", b.Killed)
		}
		return []engine.Mark{{Kind: engine.FireMark, From: center(b.Caster), To: to, Hit: b.Killed > 0, Label: label, Group: side(b.Caster)}}
	case Fought:
		return []engine.Mark{{Kind: engine.MeleeMark, From: center(b.Unit), To: center(b.Opponent), Label: fmt.Sprintf("%s -%d", b.Opponent, b.Harm.Kills+b.Harm.Paralyzed), Group: side(b.Unit)}}
	case MoraleTested:
		if b.Result == Surrender {
			return []engine.Mark{{Kind: engine.KillMark, From: center(b.Unit), Label: b.Unit + " surrenders", Group: side(b.Unit)}}
		}
	}
	return nil
}
