package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Succession (10.1.3): when a clan's Hero falls, its owner designates
// which of the Companions still standing takes his place. With one
// standing there is nothing to choose. With two, the book waits for the
// owner's /successor (offered as buttons); at a deadline the first
// Companion of the clan stands in. While the choice waits, no clan acts,
// as while an impact waits to be spent.

// SuccessionAsked is a clan's player asked to name its new Hero.
type SuccessionAsked struct {
	Clan       ClanTag         `json:"clan"`
	ClanName   string          `json:"clan_name"`
	Player     engine.PlayerID `json:"player"`
	Fallen     string          `json:"fallen"`
	Companions []ElementID     `json:"companions"`
	Names      []string        `json:"names"`
}

func (SuccessionAsked) Kind() string { return "gwab.succession-asked" }

var successionBodies = engine.BodyTypes{SuccessionAsked{}.Kind(): engine.Decoder[SuccessionAsked]()}

func (b SuccessionAsked) Apply(s *State) error {
	c, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	for _, id := range b.Companions {
		if _, err := s.mustElement(id); err != nil {
			return err
		}
	}
	c.Successors = slices.Clone(b.Companions)
	return nil
}

func (b SuccessionAsked) Text() string {
	return fmt.Sprintf("With %s fallen, %s designates which Companion leads the %s: %s, with /successor companion: (10.1.3).",
		b.Fallen, b.Player, b.ClanName, strings.Join(b.Names, " or "))
}

func (b SuccessionAsked) Buttons() []engine.Button {
	out := make([]engine.Button, len(b.Companions))
	for i, id := range b.Companions {
		out[i] = engine.Button{Label: string(id) + " leads", For: b.Player, Command: cmd("successor", "companion", string(id))}
	}
	return out
}

var successionCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "successor", Help: "Name which Companion takes your fallen Hero's place (10.1.3).", Example: "/successor companion:MYR-C2", Options: []engine.OptionSpec{
		{Name: "companion", Help: "the Companion who leads the clan now", Kind: engine.OptElement, Required: true},
	}}, Run: nameSuccessor},
}

// awaitingSuccessor returns a clan whose player must name its new Hero.
func (s *State) awaitingSuccessor() *Clan {
	for i := range s.Clans {
		if len(s.Clans[i].Successors) > 0 {
			return &s.Clans[i]
		}
	}
	return nil
}

func nameSuccessor(tx *engine.Tx, s *State, c engine.Command) error {
	el, err := s.findElement(c.Opt("companion"))
	if err != nil {
		return err
	}
	cl := s.Clan(el.Clan)
	switch {
	case len(cl.Successors) == 0:
		return engine.Refuse("10.1.3", "The %s have no Hero to replace: a successor is named when a clan's Hero has fallen.", cl.Name)
	case cl.Player != c.Actor:
		return engine.Refuse("10.1.3", "The %s are %s to lead; their player names their new Hero.", cl.Name, string(cl.Player)+"'s")
	case !slices.Contains(cl.Successors, el.ID):
		return engine.Refuse("10.1.3", "%s is not one of %s Companions standing: name one of %s.", el.Label(), engine.Possessive("the "+cl.Name), joinIDs(cl.Successors))
	}
	if err := tx.Emit(HeroSucceeded{Clan: cl.Tag, ClanName: cl.Name, Fallen: s.Element(cl.Hero).ID, Heir: el.ID, Name: el.Name}); err != nil {
		return err
	}
	sayNext(tx, s)
	return nil
}

func joinIDs(ids []ElementID) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = string(id)
	}
	return engine.JoinAnd(out)
}
