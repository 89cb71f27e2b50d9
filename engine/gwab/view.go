package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// view describes the book's table for a picture: every clan's elements on
// their bases, the deployment zones, and what the last step did.
func view(s *State, last []engine.Event) engine.View {
	v := engine.View{
		Kind:  engine.OpenTable,
		Width: s.Board.Width, Depth: s.Board.Depth,
		Unit: "strides",
		// The round first: where the title is cut to fit, the rules'
		// name goes, not the round.
		Title: fmt.Sprintf("Round %d, %s book — Gang Warfare in the Age of Bronze", s.Round, s.Mode),
	}
	switch cur := s.Current(); {
	case s.Phase == Ended:
		v.Caption = "The book has ended " + s.Result + "."
	case s.inChallenge() != nil:
		v.Caption = s.inChallenge().(*engine.Refusal).Text
	case s.Fight != nil && s.Fight.Impact != nil:
		c := s.Clan(s.Element(s.Fight.Impact.Victor).Clan)
		v.Caption = fmt.Sprintf("Waiting for %s to spend %s impact", c.Player, possessive(c.Name))
	case cur != nil:
		v.Caption = fmt.Sprintf("Next: the %s (%s)", cur.Name, cur.Player)
	}
	group := map[ClanTag]int{}
	for i, cl := range s.Clans {
		group[cl.Tag] = i
		v.Groups = append(v.Groups, engine.Group{Name: cl.Name, Player: string(cl.Player), Side: int(cl.Side)})
	}
	front := s.Board.Depth/2 - frontGap/2
	v.Zones = []engine.Zone{
		{Label: "protagonists", Min: engine.Vec{}, Max: engine.Vec{X: s.Board.Width, Y: front}, Side: int(Protagonist)},
		{Label: "antagonists", Min: engine.Vec{Y: s.Board.Depth - front}, Max: engine.Vec{X: s.Board.Width, Y: s.Board.Depth}, Side: int(Antagonist)},
	}
	for i := range s.Elements {
		el := &s.Elements[i]
		if !el.Placed {
			continue
		}
		switch el.Status {
		case Standing, Withdrawing:
			v.Pieces = append(v.Pieces, engine.Piece{
				Label: string(el.ID), Kind: kindCode(el), Group: group[el.Clan],
				Base: el.Base, Wounds: int(el.Wounds), Limit: s.woundLimit(el), Crew: s.crewLabel(el),
			})
		case Fallen:
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.BodyToken, Label: el.Name, At: el.Base.Center, Group: group[el.Clan]})
		}
		if el.ArmorDown {
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.ArmorToken, Label: "armor of " + el.Name, At: el.ArmorAt, Group: group[el.Clan]})
		}
	}
	v.Marks = s.marks(last, group)
	v.Terrain = s.terrainView() // 13.1
	// A challenge issued or accepted links the two Heroes (10.2).
	if ch := s.Challenge; ch != nil {
		a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
		if a != nil && b != nil && a.Placed && b.Placed {
			label := "challenge"
			if ch.Accepted {
				label = "single combat"
			}
			v.Marks = append(v.Marks, engine.Mark{Kind: engine.MeleeMark, From: a.Base.Center, To: b.Base.Center, Label: label, Group: group[a.Clan]})
		}
	}
	for _, e := range last {
		v.Marks = append(v.Marks, s.chariotMarks(e.Body, group)...)
	}
	return v
}

// marks draws what the step did: moves, shots, melee pairings and their
// results, impacts and eliminations.
func (s *State) marks(last []engine.Event, group map[ClanTag]int) []engine.Mark {
	var marks []engine.Mark
	center := func(id ElementID) engine.Vec {
		if el := s.Element(id); el != nil {
			return el.Base.Center
		}
		return engine.Vec{}
	}
	clanOf := func(id ElementID) int {
		if el := s.Element(id); el != nil {
			return group[el.Clan]
		}
		return 0
	}
	var pairings []Pairing
	for _, e := range last {
		switch b := e.Body.(type) {
		case Moved:
			marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Group: group[b.Clan]})
		case Escaped:
			marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: b.From.Center, To: b.To.Center, Group: clanOf(b.Element)})
		case Fired:
			label := b.Card.String() + " miss"
			if b.Hit {
				label = b.Card.String() + " hit"
			}
			marks = append(marks, engine.Mark{Kind: engine.FireMark, From: center(b.Firer), To: center(b.Target), Hit: b.Hit, Label: label, Group: group[b.Clan]})
		case MeleeDrawn:
			pairings = b.Pairings
		case ImpactSpent:
			for _, sh := range b.Shifts {
				kind := engine.ImpactMark
				if sh.Forward {
					kind = engine.MoveMark
				}
				marks = append(marks, engine.Mark{Kind: kind, From: sh.From.Center, To: sh.To.Center, Group: clanOf(sh.Element)})
			}
		case Wounded:
			if b.Falls() {
				marks = append(marks, engine.Mark{Kind: engine.KillMark, From: center(b.Element), Label: b.Label, Group: clanOf(b.Element)})
			}
		case DuelClosed:
			if b.Blocked == "" {
				marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Group: clanOf(b.Hero)})
			}
		case DuelThrow:
			label := b.Card.String() + " miss"
			if b.Hit {
				label = b.Card.String() + " hit"
			}
			marks = append(marks, engine.Mark{Kind: engine.FireMark, From: center(b.Firer), To: center(b.Target), Hit: b.Hit, Label: label, Group: clanOf(b.Firer)})
		case Withdrew:
			for _, w := range b.Stands {
				marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: w.From.FrontCenter(), To: w.To.FrontCenter(), Group: group[b.Clan]})
			}
		case Ruled:
			// A ruling shows where it put a piece, or where it took one
			// off the table.
			if b.To != nil && b.From != nil {
				marks = append(marks, engine.Mark{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Label: "ruling", Group: clanOf(b.Element)})
			}
			if b.Status != nil && *b.Status == Removed {
				marks = append(marks, engine.Mark{Kind: engine.KillMark, From: center(b.Element), Label: b.Label, Group: clanOf(b.Element)})
			}
		}
	}
	for _, p := range pairings {
		winner, _, win, lose, out, strides := p.Judge()
		var label string
		switch {
		case out == NoEffect && winner != "": // the fury of Ares has struck (10.1.3 item 2)
			label = fmt.Sprintf("%s>%s fury", win, lose)
		case out == NoEffect:
			label = fmt.Sprintf("%s=%s", win, lose)
		case out == Wound:
			label = fmt.Sprintf("%s>%s wound", win, lose)
		case out == Impact:
			label = fmt.Sprintf("%s>%s impact %d", win, lose, strides)
		}
		marks = append(marks, engine.Mark{Kind: engine.MeleeMark, From: center(p.A), To: center(p.B), Label: label, Group: clanOf(p.A)})
	}
	return marks
}

// kindCode is the letter drawn on an element's base.
func kindCode(el *Element) string {
	switch el.Kind {
	case Hero:
		return "H"
	case Companion:
		return "C"
	case Chariot:
		return "CH"
	}
	return map[Weapon]string{Spear: "Sp", Sword: "Sw", Javelin: "Jv", Sling: "Sl", Bow: "Bw"}[el.Weapon]
}
