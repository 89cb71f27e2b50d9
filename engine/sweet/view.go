package sweet

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// view describes the board for a picture: the grid, terrain, deployment
// zones, every unit on its square with its facing and lost stands, and
// what the last step did. It shows nothing of a choice still face down.
func view(s *State, last []engine.Event) engine.View {
	if len(s.Armies) < 2 {
		return engine.View{Kind: engine.SquareGrid} // nothing to draw before both armies muster
	}
	v := engine.View{
		Kind:    engine.SquareGrid,
		Width:   float64(s.Options.Cols),
		Depth:   float64(s.Options.Rows),
		Title:   fmt.Sprintf("de Gre / Sweet ancients — turn %d", s.Turn),
		Caption: s.awaited(),
		Pips:    "stand",
	}
	if s.Turn == 0 {
		v.Title = "de Gre / Sweet ancients — deployment"
	}
	for i, a := range s.Armies {
		v.Groups = append(v.Groups, engine.Group{Name: a.Name, Player: string(a.Player), Side: i})
	}
	cols, rows := float64(s.Options.Cols-1), float64(s.Options.Rows)
	v.Zones = []engine.Zone{
		{Label: s.Armies[South].Name, Min: engine.Vec{}, Max: engine.Vec{X: cols, Y: zoneDepth - 1}, Side: 0},
		{Label: s.Armies[North].Name, Min: engine.Vec{Y: rows - zoneDepth}, Max: engine.Vec{X: cols, Y: rows - 1}, Side: 1},
	}
	kinds := map[TerrainKind]engine.TerrainKind{Road: engine.Road, Protected: engine.Protected, Impassable: engine.Rough}
	for _, patch := range patches(s.Terrain) {
		t := engine.Terrain{Kind: kinds[patch.kind], Label: patch.kind.String()}
		if patch.rect {
			// One feature over the whole rectangle, its label in the
			// middle: the corners' squares (one point for one square,
			// two for a line).
			lo, hi := patch.cells[0], patch.cells[len(patch.cells)-1] // opposite corners
			t.Outline = []engine.Vec{vec(lo), vec(engine.Square{Col: hi.Col, Row: lo.Row}), vec(hi), vec(engine.Square{Col: lo.Col, Row: hi.Row})}
			t.Outline = slices.CompactFunc(t.Outline, func(a, b engine.Vec) bool { return a == b })
			v.Terrain = append(v.Terrain, t)
			continue
		}
		// Any other shape square by square, named once.
		for j, c := range patch.cells {
			u := t
			if j != patch.named {
				u.Label = ""
			}
			u.Outline = []engine.Vec{vec(c)}
			v.Terrain = append(v.Terrain, u)
		}
	}
	for i := range s.Units {
		u := &s.Units[i]
		if !u.OnBoard() {
			continue
		}
		group := int(u.Side)
		crew := ""
		if u.Side == Nobody {
			group, crew = -1, "abandoned"
		}
		if u.Guard {
			crew = "guard"
		}
		v.Pieces = append(v.Pieces, engine.Piece{
			Label: string(u.ID), Kind: u.Type.String(), Group: group,
			Base:   engine.Base{Center: vec(u.At), Facing: u.Facing.Heading()},
			Wounds: u.Full - u.Stands, Limit: u.Full, Crew: crew,
		})
	}
	// A destroyed unit leaves a mark where it fell.
	for i := range s.Units {
		if u := &s.Units[i]; u.Gone && u.Placed && !u.Off && u.Side != Nobody && s.onBoard(u.At) {
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.BodyToken, Label: string(u.ID), At: vec(u.At), Group: int(u.Side)})
		}
	}
	for _, m := range s.Melees {
		if !m.Resolved {
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.MarkerToken, Label: "melee waits", At: vec(m.At), Group: int(m.Attacker)})
		}
	}
	v.Marks = s.marks(last)
	return v
}

func vec(q engine.Square) engine.Vec { return engine.Vec{X: float64(q.Col), Y: float64(q.Row)} }

// meleeLabel says on the board who won melee b and the stands each side
// lost: "ROM won: ROM -1, MAC -3".
func (s *State) meleeLabel(b MeleeResolved) string {
	tag := func(sd Side) string {
		if a := s.army(sd); a != nil && a.Tag != "" {
			return a.Tag
		}
		return b.Names[sd]
	}
	var lost [2]int
	for _, r := range b.Removed {
		if u := s.Unit(r.Unit); u != nil && (u.Side == South || u.Side == North) {
			lost[u.Side] += r.Stands
		}
	}
	var head string
	switch b.Verdict.Kind {
	case Superior:
		head = tag(b.Verdict.Side) + " won"
	case Withdraws:
		head = tag(b.Verdict.Side) + " withdrew"
	case BothWithdraw:
		head = "both withdrew"
	default:
		head = "even"
	}
	return fmt.Sprintf("%s: %s -%d, %s -%d", head, tag(South), lost[South], tag(North), lost[North])
}

// marks draws what the step did.
func (s *State) marks(last []engine.Event) []engine.Mark {
	var marks []engine.Mark
	side := func(id UnitID) int {
		if u := s.Unit(id); u != nil && u.Side != Nobody {
			return int(u.Side)
		}
		return 0
	}
	at := func(id UnitID) engine.Vec {
		if u := s.Unit(id); u != nil {
			return vec(u.At)
		}
		return engine.Vec{}
	}
	for _, e := range last {
		switch b := e.Body.(type) {
		case Moved:
			for i := 1; i < len(b.Path); i++ {
				marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: vec(b.Path[i-1]), To: vec(b.Path[i]), Group: int(b.Side)})
			}
		case FellBack:
			end := b.Path[len(b.Path)-1]
			marks = append(marks, engine.Mark{Kind: engine.ImpactMark, From: vec(b.Path[0]), To: vec(end), Group: side(b.Unit)})
		case CatapultFired:
			marks = append(marks, engine.Mark{Kind: engine.FireMark, From: at(b.Catapult), To: vec(b.Landed), Hit: b.Victim != "", Label: fmt.Sprintf("d6 %d", b.Roll), Group: side(b.Catapult)})
		case MissilesFired:
			marks = append(marks, engine.Mark{Kind: engine.FireMark, From: at(b.Unit), To: vec(b.At), Hit: b.Hits > 0, Label: fmt.Sprintf("%d down", b.Hits), Group: side(b.Unit)})
		case SupportDeclared:
			marks = append(marks, engine.Mark{Kind: engine.MeleeMark, From: at(b.Unit), To: vec(b.At), Label: string(b.Unit) + " supports", Group: int(b.Side)})
		case MeleeResolved:
			label := s.meleeLabel(b)
			marks = append(marks, engine.Mark{Kind: engine.MeleeMark, From: vec(b.At), To: vec(b.At), Label: label, Group: int(b.Attacker)})
		case Destroyed:
			for _, id := range b.Units {
				marks = append(marks, engine.Mark{Kind: engine.KillMark, From: at(id), Group: side(id)})
			}
		case Ruled:
			// A ruling shows where it put a unit, or that it took one
			// from the field.
			if b.From != nil && b.To != nil {
				marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: vec(*b.From), To: vec(*b.To), Label: "ruling", Group: side(b.Unit)})
			}
			if b.Stands != nil && *b.Stands == 0 {
				marks = append(marks, engine.Mark{Kind: engine.KillMark, From: at(b.Unit), Label: "ruling", Group: side(b.Unit)})
			}
		}
	}
	return marks
}

// awaited says what the game waits for, naming no secret.
func (s *State) awaited() string {
	name := s.armyName
	switch s.Stage {
	case Mustering:
		return "Waiting for the armies to muster"
	case Deploying:
		return waitingFor(s, "to deploy")
	case Catapults:
		return waitingFor(s, "to finish catapult fire")
	case Missiles:
		return waitingFor(s, "to finish missile fire")
	case Movement:
		return fmt.Sprintf("The %s move", name(s.Attacker))
	case Supports:
		return fmt.Sprintf("The %s declare supports", name(s.Supporting))
	case Melees:
		var w []string
		open := 0
		for _, m := range s.Melees {
			if !m.Resolved {
				open++
			}
		}
		for side := South; side <= North; side++ {
			if at := s.waitingMelees(side); len(at) == 1 && open == 1 {
				w = append(w, "the "+name(side))
			} else if len(at) > 0 {
				w = append(w, fmt.Sprintf("the %s (at %s)", name(side), engine.JoinAnd(at)))
			}
		}
		if open == 1 {
			for _, m := range s.Melees {
				if !m.Resolved {
					return fmt.Sprintf("Melee at %s: waiting for %s to choose with /mdi", m.At, strings.Join(w, " and "))
				}
			}
		}
		return fmt.Sprintf("%d melees wait: %s to choose, each with /mdi melee:SQUARE", open, strings.Join(w, " and "))
	case Over:
		return s.Result
	}
	return ""
}

// standsText writes a unit's stands left of its full strength: "3/4
// stands".
func standsText(u *Unit) string {
	return fmt.Sprintf("%d/%d stands", u.Stands, u.Full)
}

func waitingFor(s *State, what string) string {
	var w []string
	for i, a := range s.Armies {
		if !a.Done {
			w = append(w, s.armyName(Side(i)))
		}
	}
	return fmt.Sprintf("Waiting for the %s %s", strings.Join(w, " and the "), what)
}

// status is the /status answer for player p: the stage and what is
// awaited, every army's units, and p's own face-down choices.
func status(s *State, p engine.PlayerID) string {
	if s.Master == "" {
		return "No game is open."
	}
	var w strings.Builder
	if s.Turn > 0 {
		fmt.Fprintf(&w, "Turn %d of %d, %s stage; the %s attack.\n", s.Turn, s.Options.Turns, s.Stage, s.armyName(s.Attacker))
	} else {
		fmt.Fprintf(&w, "Stage: %s.\n", s.Stage)
	}
	if a := s.awaited(); a != "" {
		fmt.Fprintf(&w, "%s.\n", strings.TrimSuffix(a, "."))
	}
	var types []Type
	for i, a := range s.Armies {
		side := Side(i)
		fmt.Fprintf(&w, "The %s (%s, %s edge), %d points standing:\n", a.Name, a.Player, side, s.standing(side))
		for j := range s.Units {
			u := &s.Units[j]
			if u.Side != side {
				continue
			}
			if !slices.Contains(types, u.Type) {
				types = append(types, u.Type)
			}
			fmt.Fprintf(&w, "  %s %s", u.ID, u.Type)
			switch {
			case u.Joined != "":
				fmt.Fprintf(&w, " reformed with %s", u.Joined)
			case u.Gone:
				w.WriteString(" gone")
			case u.Off:
				fmt.Fprintf(&w, " %s off the board", standsText(u))
			case !u.Placed:
				fmt.Fprintf(&w, " %s not yet placed", standsText(u))
			default:
				fmt.Fprintf(&w, " %s in %s facing %s", standsText(u), u.At, u.Facing)
			}
			w.WriteString("\n")
		}
	}
	if len(types) > 0 {
		keys := make([]string, len(types))
		for i, t := range types {
			keys[i] = fmt.Sprintf("%s %s", t, t.Name())
		}
		fmt.Fprintf(&w, "Types: %s.\n", strings.Join(keys, ", "))
	}
	for _, m := range s.Melees {
		if m.Resolved {
			continue
		}
		fmt.Fprintf(&w, "Melee at %s, charged by the %s.", m.At, s.armyName(m.Attacker))
		for side := South; side <= North; side++ {
			if a := s.army(side); a != nil && a.Player == p && m.Choice[side] != NoMDI {
				fmt.Fprintf(&w, " Your %s indicator lies face down: %s.", a.Name, m.Choice[side])
			}
		}
		w.WriteString("\n")
	}
	for i := range s.Units {
		if u := &s.Units[i]; u.Side == Nobody && u.OnBoard() {
			fmt.Fprintf(&w, "%s stands abandoned in %s.\n", u.Label(), u.At)
		}
	}
	var cells []string
	for _, c := range s.Terrain {
		cells = append(cells, fmt.Sprintf("%s %s", c.At, c.Kind))
	}
	if len(cells) > 0 {
		fmt.Fprintf(&w, "Terrain: %s.\n", strings.Join(cells, ", "))
	}
	return strings.TrimRight(w.String(), "\n")
}

// patch is a stretch of ground of one kind: squares that touch side to
// side, lowest row and column first.
type patch struct {
	kind  TerrainKind
	cells []engine.Square
	rect  bool // the squares fill their bounding rectangle
	named int  // otherwise, the square (in cells) nearest the middle
}

// patches gathers the terrain into patches, so that the picture names a
// wood of four squares once rather than four times over.
func patches(cells []Cell) []patch {
	at := make(map[engine.Square]int, len(cells))
	for i, c := range cells {
		at[c.At] = i
	}
	seen := make([]bool, len(cells))
	var out []patch
	for i := range cells {
		if seen[i] {
			continue
		}
		p := patch{kind: cells[i].Kind, cells: []engine.Square{cells[i].At}}
		seen[i] = true
		for q := 0; q < len(p.cells); q++ {
			c := p.cells[q]
			for _, d := range [...]engine.Square{{Col: 1}, {Col: -1}, {Row: 1}, {Row: -1}} {
				j, ok := at[engine.Square{Col: c.Col + d.Col, Row: c.Row + d.Row}]
				if ok && !seen[j] && cells[j].Kind == p.kind {
					seen[j] = true
					p.cells = append(p.cells, cells[j].At)
				}
			}
		}
		slices.SortFunc(p.cells, func(a, b engine.Square) int {
			if a.Row != b.Row {
				return a.Row - b.Row
			}
			return a.Col - b.Col
		})
		c0, c1 := p.cells[0].Col, p.cells[0].Col
		for _, c := range p.cells {
			c0, c1 = min(c0, c.Col), max(c1, c.Col)
		}
		rows := p.cells[len(p.cells)-1].Row - p.cells[0].Row + 1
		// Squares of one patch are all different, so as many as the
		// rectangle holds fill it.
		p.rect = (c1-c0+1)*rows == len(p.cells)
		var mx, my float64
		for _, c := range p.cells {
			mx += float64(c.Col)
			my += float64(c.Row)
		}
		mx, my = mx/float64(len(p.cells)), my/float64(len(p.cells))
		bd := math.Inf(1)
		for j, c := range p.cells {
			dx, dy := float64(c.Col)-mx, float64(c.Row)-my
			if d := dx*dx + dy*dy; d < bd {
				p.named, bd = j, d
			}
		}
		out = append(out, p)
	}
	return out
}
