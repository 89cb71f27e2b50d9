package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

var _ engine.Viewer = Rules{}

// View describes the book's table for a picture: every clan's elements on
// their bases, the deployment zones, and what the last step did.
func (Rules) View(g *engine.Game, last []engine.Event) engine.View {
	s := g.State.(*State)
	v := engine.View{
		Kind:  engine.OpenTable,
		Width: s.Board.Width, Depth: s.Board.Depth,
		Unit:  "strides",
		Title: fmt.Sprintf("Gang Warfare in the Age of Bronze — %s, round %d", s.Mode, s.Round),
	}
	switch cur := s.Current(); {
	case s.Phase == Ended:
		v.Caption = "The book has ended " + s.Result + "."
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
		case Standing:
			v.Pieces = append(v.Pieces, engine.Piece{
				Label: string(el.ID), Kind: kindCode(el), Group: group[el.Clan],
				Base: el.Base, Wounds: el.Wounds, Limit: s.woundLimit(el),
			})
		case Fallen:
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.BodyToken, Label: el.Name, At: el.Base.Center, Group: group[el.Clan]})
		}
		if el.ArmorAt != nil {
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.ArmorToken, Label: "armor of " + el.Name, At: *el.ArmorAt, Group: group[el.Clan]})
		}
	}
	for _, e := range last {
		switch b := e.Body.(type) {
		case Moved:
			v.Marks = append(v.Marks, engine.Mark{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Group: group[b.Clan]})
		}
	}
	return v
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
