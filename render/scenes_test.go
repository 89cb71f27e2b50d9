package render

import (
	"fmt"
	"math/rand/v2"

	"github.com/rhapsode/rhapsode/engine"
)

// The scenes of the golden pictures and benchmarks, built the way the
// rule systems build their views.

// Gwab's base sizes in strides (GWAB 2.4).
var (
	warband = engine.Base{Width: 2, Depth: 1}
	chariot = engine.Base{Width: 2, Depth: 8.0 / 3}
	single  = engine.Base{Width: 2.0 / 3, Depth: 1}
)

func at(b engine.Base, x, y float64, facing engine.Heading) engine.Base {
	b.Center, b.Facing = engine.Vec{X: x, Y: y}, facing
	return b
}

// gwabZones are gwab's deployment zones on a table width by 40.
func gwabZones(width float64) []engine.Zone {
	return []engine.Zone{
		{Label: "protagonists", Min: engine.Vec{}, Max: engine.Vec{X: width, Y: 10}, Side: 0},
		{Label: "antagonists", Min: engine.Vec{Y: 30}, Max: engine.Vec{X: width, Y: 40}, Side: 1},
	}
}

// skirmish is a small open-table fight between two clans, with one step
// of every kind of mark drawn on it.
func skirmish() engine.View {
	v := engine.View{
		Kind: engine.OpenTable, Width: 60, Depth: 40, Unit: "strides",
		Title:   "Gang Warfare in the Age of Bronze — Raid, round 3",
		Caption: "Next: the Myrmidons (alice)",
		Groups: []engine.Group{
			{Name: "Myrmidons", Player: "alice", Side: 0},
			{Name: "Trojans", Player: "bob", Side: 1},
		},
		Zones: gwabZones(60),
		Terrain: []engine.Terrain{
			{Kind: engine.Rough, Label: "rocks", Outline: []engine.Vec{{X: 8, Y: 16}, {X: 14, Y: 15}, {X: 16, Y: 19}, {X: 12, Y: 23}, {X: 7, Y: 21}}},
			{Kind: engine.Protected, Label: "grove", Outline: []engine.Vec{{X: 44, Y: 14}, {X: 52, Y: 13}, {X: 54, Y: 20}, {X: 47, Y: 22}}},
			{Kind: engine.Stream, Label: "Scamander", Outline: []engine.Vec{{X: 0, Y: 24}, {X: 20, Y: 26}, {X: 38, Y: 25}, {X: 60, Y: 28}, {X: 60, Y: 29.5}, {X: 38, Y: 26.5}, {X: 20, Y: 27.5}, {X: 0, Y: 25.5}}},
			{Kind: engine.Road, Label: "road to Troy", Outline: []engine.Vec{{X: 29, Y: 0}, {X: 31, Y: 0}, {X: 31, Y: 40}, {X: 29, Y: 40}}},
		},
		Pieces: []engine.Piece{
			{Label: "MYR-H", Kind: "H", Group: 0, Base: at(single, 24.7, 18.5, 0), Wounds: 1, Limit: 3},
			{Label: "MYR-C1", Kind: "C", Group: 0, Base: at(single, 21, 16, 20), Limit: 2},
			{Label: "MYR-C2", Kind: "C", Group: 0, Base: at(single, 33, 14, 0), Wounds: 1, Limit: 2},
			{Label: "MYR-CH", Kind: "CH", Group: 0, Base: at(chariot, 18, 9, 30), Crew: "driver, Companion"},
			{Label: "MYR-W1", Kind: "Sp", Group: 0, Base: at(warband, 26, 12, 0)},
			{Label: "MYR-W2", Kind: "Sw", Group: 0, Base: at(warband, 36, 17, 315)},
			{Label: "MYR-W3", Kind: "Jv", Group: 0, Base: at(warband, 41, 10, 0)},
			{Label: "TRO-H", Kind: "H", Group: 1, Base: at(single, 24.7, 19.5, 180), Wounds: 2, Limit: 3},
			{Label: "TRO-C2", Kind: "C", Group: 1, Base: at(single, 27, 22, 200), Limit: 2},
			{Label: "TRO-CH", Kind: "CH", Group: 1, Base: at(chariot, 40, 31, 180), Crew: "driver, Hero"},
			{Label: "TRO-W1", Kind: "Sp", Group: 1, Base: at(warband, 33.5, 19.5, 135)},
			{Label: "TRO-W2", Kind: "Bw", Group: 1, Base: at(warband, 19, 33, 180)},
			{Label: "TRO-W3", Kind: "Sl", Group: 1, Base: at(warband, 48, 27, 225)},
		},
		Tokens: []engine.Token{
			{Kind: engine.BodyToken, Label: "Deiphobus", At: engine.Vec{X: 29.5, Y: 21}, Group: 1},
			{Kind: engine.ArmorToken, Label: "armour", At: engine.Vec{X: 22.5, Y: 21}, Group: 1},
		},
		Marks: []engine.Mark{
			{Kind: engine.MoveMark, From: engine.Vec{X: 24.7, Y: 14}, To: engine.Vec{X: 24.7, Y: 19}, Group: 0},
			{Kind: engine.MoveMark, From: engine.Vec{X: 36, Y: 12}, To: engine.Vec{X: 35.65, Y: 17.35}, Group: 0},
			{Kind: engine.FireMark, From: engine.Vec{X: 19, Y: 32.5}, To: engine.Vec{X: 21, Y: 16}, Hit: true, Group: 1},
			{Kind: engine.FireMark, From: engine.Vec{X: 48, Y: 26.5}, To: engine.Vec{X: 41, Y: 10.5}, Hit: false, Group: 1},
			{Kind: engine.MeleeMark, From: engine.Vec{X: 24.7, Y: 18.5}, To: engine.Vec{X: 24.7, Y: 19.5}, Label: "KS>7H wound", Group: 0},
			{Kind: engine.MeleeMark, From: engine.Vec{X: 36, Y: 17}, To: engine.Vec{X: 33.5, Y: 19.5}, Label: "9C>4D impact 5", Group: 0},
			{Kind: engine.ImpactMark, From: engine.Vec{X: 32, Y: 21}, To: engine.Vec{X: 29, Y: 24}, Group: 1},
			{Kind: engine.KillMark, From: engine.Vec{X: 29.5, Y: 21}, Group: 1},
		},
	}
	return v
}

// battle12 is a twelve-clan battle in full swing: six players, each with
// a clan on either side, about 150 elements on a 72-stride table.
func battle12() engine.View {
	rng := rand.New(rand.NewPCG(12, 150))
	names := []struct{ tag, name, player string }{
		{"MYR", "Myrmidons", "alice"}, {"ITH", "Ithacans", "bob"}, {"ARG", "Argives", "carol"},
		{"SPA", "Spartans", "dave"}, {"PYL", "Pylians", "erin"}, {"CRE", "Cretans", "frank"},
		{"TRO", "Trojans", "bob"}, {"DAR", "Dardanians", "carol"}, {"LYC", "Lycians", "dave"},
		{"THR", "Thracians", "erin"}, {"AMA", "Amazons", "frank"}, {"ETH", "Ethiopians", "alice"},
	}
	v := engine.View{
		Kind: engine.OpenTable, Width: 72, Depth: 40, Unit: "strides",
		Title:   "Gang Warfare in the Age of Bronze — Battle, round 7",
		Caption: "Next: the Lycians (dave)",
		Zones:   gwabZones(72),
		Terrain: []engine.Terrain{
			{Kind: engine.Rough, Label: "rocky hill", Outline: []engine.Vec{{X: 4, Y: 17}, {X: 10, Y: 16}, {X: 12, Y: 21}, {X: 6, Y: 23}}},
			{Kind: engine.Protected, Label: "olive grove", Outline: []engine.Vec{{X: 60, Y: 17}, {X: 68, Y: 17}, {X: 68, Y: 23}, {X: 61, Y: 24}}},
			{Kind: engine.Stream, Label: "ford", Outline: []engine.Vec{{X: 30, Y: 19.5}, {X: 40, Y: 19}, {X: 40, Y: 20.5}, {X: 30, Y: 21}}},
		},
	}
	kinds := []string{"Sp", "Sw", "Jv", "Sl", "Bw", "Sp"}
	for g, n := range names {
		side := g / 6
		slot := g % 6
		if side == 1 {
			slot = (slot + 1) % 6
		}
		v.Groups = append(v.Groups, engine.Group{Name: n.name, Player: n.player, Side: side})
		cx := (float64(slot) + 0.5) * 12
		front := 10.0 + 2 + rng.Float64()*4 // the clan has advanced
		var ps []engine.Piece
		for w := 0; w < 6; w++ {
			x := cx - 6 + 2*float64(w) + 1
			ps = append(ps, engine.Piece{Label: fmt.Sprintf("%s-W%d", n.tag, w+1), Kind: kinds[w], Base: at(warband, x, front-0.5, 0)})
		}
		ps = append(ps, engine.Piece{Label: n.tag + "-CH", Kind: "CH", Base: at(chariot, cx-5, front-1-4.0/3, 0), Crew: "driver, Companion"})
		ps = append(ps, engine.Piece{Label: n.tag + "-H", Kind: "H", Base: at(single, cx-3+1.0/3, front-1.5, 0), Limit: 3, Wounds: rng.IntN(3)})
		for c := 0; c < 4; c++ {
			ps = append(ps, engine.Piece{Label: fmt.Sprintf("%s-C%d", n.tag, c+1), Kind: "C", Base: at(single, cx-3+1.0/3+2.0/3*float64(c+1), front-1.5, 0), Limit: 2, Wounds: rng.IntN(2)})
		}
		for i := range ps {
			p := &ps[i]
			p.Group = g
			if side == 1 {
				p.Base.Center = engine.Vec{X: 2*cx - p.Base.Center.X, Y: 40 - p.Base.Center.Y}
				p.Base.Facing = 180
			}
		}
		v.Pieces = append(v.Pieces, ps...)
	}
	// Some elements have wandered off and turned, where there was room.
	for i := range v.Pieces {
		p := &v.Pieces[i]
		if rng.IntN(4) != 0 {
			continue
		}
		b := p.Base
		fwd := b.Facing.Vec().Scale(1.5 + rng.Float64()*2)
		b.Center = b.Center.Add(fwd)
		b.Facing = b.Facing.Add(float64(rng.IntN(5)-2) * 45)
		free := true
		for j := range v.Pieces {
			if j != i && b.Overlaps(v.Pieces[j].Base) {
				free = false
			}
		}
		if free {
			p.Base = b
		}
	}
	v.Pieces = append(v.Pieces, engine.Piece{Label: "SPA-C9", Kind: "C", Group: 3, Base: at(single, 40, 20.5, 90), Limit: 2, Wounds: 1})
	v.Tokens = []engine.Token{
		{Kind: engine.BodyToken, Label: "Sarpedon", At: engine.Vec{X: 50, Y: 21}, Group: 8},
		{Kind: engine.BodyToken, Label: "Patroclus", At: engine.Vec{X: 20, Y: 19.5}, Group: 0},
		{Kind: engine.ArmorToken, At: engine.Vec{X: 21, Y: 19}, Group: 0},
	}
	v.Marks = []engine.Mark{
		{Kind: engine.MoveMark, From: engine.Vec{X: 44, Y: 28}, To: engine.Vec{X: 44, Y: 23}, Group: 8},
		{Kind: engine.MoveMark, From: engine.Vec{X: 47, Y: 28}, To: engine.Vec{X: 46, Y: 23.5}, Group: 8},
		{Kind: engine.FireMark, From: engine.Vec{X: 53, Y: 26}, To: engine.Vec{X: 55, Y: 15}, Hit: true, Group: 8},
		{Kind: engine.FireMark, From: engine.Vec{X: 42, Y: 27}, To: engine.Vec{X: 36, Y: 14}, Group: 8},
		{Kind: engine.MeleeMark, From: engine.Vec{X: 44, Y: 23}, To: engine.Vec{X: 44, Y: 17}, Label: "QH>8S wound", Group: 8},
		{Kind: engine.KillMark, From: engine.Vec{X: 50, Y: 21}, Group: 8},
	}
	return v
}

// squareScene is an army game on a square grid.
func squareScene() engine.View {
	v := engine.View{
		Kind: engine.SquareGrid, Width: 12, Depth: 8,
		Title:   "Sweet de Gre — Zama, turn 4",
		Caption: "Next: Carthage (hannibal) deploys in secret",
		Groups: []engine.Group{
			{Name: "Rome", Player: "scipio", Side: 0},
			{Name: "Carthage", Player: "hannibal", Side: 1},
			{Name: "Numidian allies", Player: "masinissa", Side: 0},
		},
		Zones: []engine.Zone{
			{Label: "Roman lines", Min: engine.Vec{X: 0, Y: 0}, Max: engine.Vec{X: 11, Y: 1}, Side: 0},
			{Label: "Punic lines", Min: engine.Vec{X: 0, Y: 6}, Max: engine.Vec{X: 11, Y: 7}, Side: 1},
		},
		Terrain: []engine.Terrain{
			{Kind: engine.Rough, Label: "hill", Outline: []engine.Vec{{X: 1, Y: 3}, {X: 2, Y: 3}, {X: 2, Y: 4}, {X: 1, Y: 4}}},
			{Kind: engine.Protected, Label: "wood", Outline: []engine.Vec{{X: 9, Y: 4}}},
			{Kind: engine.Stream, Label: "brook", Outline: []engine.Vec{{X: 5, Y: 2}, {X: 5, Y: 5}}},
		},
	}
	sq := func(s string) engine.Vec {
		q, err := engine.ParseSquare(s)
		if err != nil {
			panic(err)
		}
		return engine.Vec{X: float64(q.Col), Y: float64(q.Row)}
	}
	piece := func(label, kind string, g int, cell string, d engine.Dir8) engine.Piece {
		return engine.Piece{Label: label, Kind: kind, Group: g, Base: engine.Base{Center: sq(cell), Facing: d.Heading()}}
	}
	v.Pieces = []engine.Piece{
		piece("R1", "HI", 0, "C2", engine.North),
		piece("R2", "HI", 0, "D3", engine.North),
		piece("R3", "HI", 0, "E2", engine.North),
		piece("R4", "LI", 0, "G3", engine.NorthEast),
		piece("R5", "Cav", 0, "J2", engine.NorthWest),
		piece("N1", "LC", 2, "A3", engine.East),
		piece("N2", "LC", 2, "A3", engine.North),
		piece("C1", "El", 1, "D4", engine.South),
		piece("C2", "HI", 1, "E7", engine.South),
		piece("C3", "MI", 1, "F7", engine.SouthWest),
		piece("C4", "Cav", 1, "K6", engine.West),
		piece("C5", "LI", 1, "H5", engine.South),
	}
	v.Pieces[1].Wounds, v.Pieces[1].Limit = 1, 3
	v.Pieces[7].Wounds, v.Pieces[7].Limit = 2, 4
	v.Tokens = []engine.Token{{Kind: engine.MarkerToken, Label: "rout", At: sq("H6"), Group: 1}}
	v.Marks = []engine.Mark{
		{Kind: engine.MoveMark, From: sq("D5"), To: sq("D4"), Group: 1},
		{Kind: engine.MeleeMark, From: sq("D3"), To: sq("D4"), Label: "rock beats scissors", Group: 1},
		{Kind: engine.FireMark, From: sq("H5"), To: sq("G3"), Hit: true, Group: 1},
		{Kind: engine.ImpactMark, From: sq("H5"), To: sq("H6"), Group: 0},
		{Kind: engine.KillMark, From: sq("I4"), Group: 1},
	}
	return v
}

// hexScene is a battle on a printed hex map.
func hexScene() engine.View {
	v := engine.View{
		Kind: engine.HexGrid, Width: 20, Depth: 12,
		Title:   "Simple Great Battles — Cannae, turn 2",
		Caption: "Next: Hannibal's leader activation (continuity roll)",
		Groups: []engine.Group{
			{Name: "Rome", Player: "varro", Side: 0},
			{Name: "Carthage", Player: "hannibal", Side: 1},
		},
		Zones: []engine.Zone{
			{Label: "Roman set-up", Min: engine.Vec{X: 1, Y: 10}, Max: engine.Vec{X: 20, Y: 12}, Side: 0},
			{Label: "Punic set-up", Min: engine.Vec{X: 1, Y: 1}, Max: engine.Vec{X: 20, Y: 2}, Side: 1},
		},
		Terrain: []engine.Terrain{
			{Kind: engine.Stream, Label: "Aufidus", Outline: []engine.Vec{{X: 16, Y: 1}, {X: 17, Y: 1}, {X: 19, Y: 6}, {X: 19, Y: 12}, {X: 18, Y: 12}, {X: 18, Y: 6}}},
			{Kind: engine.Rough, Label: "broken ground", Outline: []engine.Vec{{X: 3, Y: 5}, {X: 5, Y: 5}, {X: 5, Y: 7}, {X: 3, Y: 7}}},
			{Kind: engine.Road, Outline: []engine.Vec{{X: 8, Y: 12}, {X: 8, Y: 9}}},
			{Kind: engine.Protected, Label: "village", Outline: []engine.Vec{{X: 13, Y: 9}}},
		},
	}
	hx := func(s string) engine.Vec {
		h, err := engine.ParseHex(s)
		if err != nil {
			panic(err)
		}
		c, r := h.Offset()
		return engine.Vec{X: float64(c), Y: float64(r)}
	}
	piece := func(label, kind string, g int, cell string, f engine.HexFacing) engine.Piece {
		return engine.Piece{Label: label, Kind: kind, Group: g, Base: engine.Base{Center: hx(cell), Facing: f.Heading()}}
	}
	v.Pieces = []engine.Piece{
		piece("HI1", "HI", 0, "0807", engine.FacingNNE),
		piece("HI2", "HI", 0, "0907", engine.FacingNNE),
		piece("HI3", "HI", 0, "1007", engine.FacingNNE),
		piece("VEL", "VL", 0, "0906", engine.FacingNNW),
		piece("RC1", "RC", 0, "0609", engine.FacingW),
		piece("LDR", "Ld", 0, "0908", engine.FacingSSE),
		piece("GI1", "HI", 1, "0805", engine.FacingSSW),
		piece("LI1", "LI", 1, "1105", engine.FacingSSE),
		piece("NUM", "LC", 1, "1404", engine.FacingE),
		piece("CEL", "MI", 1, "0704", engine.FacingSSE),
	}
	v.Pieces[0].Wounds, v.Pieces[0].Limit = 2, 4
	v.Pieces[6].Wounds, v.Pieces[6].Limit = 1, 4
	v.Tokens = []engine.Token{{Kind: engine.MarkerToken, Label: "rallied", At: hx("1206"), Group: 0}}
	v.Marks = []engine.Mark{
		{Kind: engine.MoveMark, From: hx("0802"), To: hx("0805"), Group: 1},
		{Kind: engine.MeleeMark, From: hx("0806"), To: hx("0805"), Label: "shock: 6 hits", Group: 0},
		{Kind: engine.FireMark, From: hx("1105"), To: hx("1007"), Hit: false, Group: 1},
		{Kind: engine.KillMark, From: hx("1206"), Group: 1},
	}
	return v
}
