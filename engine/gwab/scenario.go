package gwab

import (
	"fmt"
	"strconv"

	"github.com/rhapsode/rhapsode/engine"
)

// Scenario directives beyond #place: the state a club wants to rehearse
// from. They are table directives, recorded like everything else, and
// never honor or wounds won in play.

// HonorSet puts a Hero's honor where a scenario wants it (#honor). It is
// not honor gained in the book (6.2.2).
type HonorSet struct {
	Hero  ElementID `json:"hero"`
	Name  string    `json:"name"`
	Total int       `json:"total"`
}

func (HonorSet) Kind() string { return "gwab.honor-set" }

func (b HonorSet) Apply(s *State) error {
	el, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	el.Honor = b.Total
	return nil
}

func (b HonorSet) Text() string {
	return fmt.Sprintf("%s honor is set at %d: %s.", engine.Possessive(b.Name), b.Total, rankName(classFor(b.Total)))
}

var scenarioBodies = engine.BodyTypes{HonorSet{}.Kind(): engine.Decoder[HonorSet]()}

// directives are the scenario directives of this rule system.
var directives = []command{
	{CommandSpec: engine.CommandSpec{Name: "place", Help: "#place ELEMENT x,y [facing]: put an element's front centre at x,y"}, Run: place},
	{CommandSpec: engine.CommandSpec{Name: "honor", Help: "#honor HERO N: set a Hero's honor points"}, Run: setHonor},
	{CommandSpec: engine.CommandSpec{Name: "wound", Help: "#wound ELEMENT [N]: deal an element N wounds (1 when left out)"}, Run: setWounds},
	{CommandSpec: engine.CommandSpec{Name: "terrain", Help: "#terrain KIND x,y x,y… [name]: lay rough ground, an obstacle or a stream (13.1; the book opened with terrain:on)"}, Run: layTerrain},
}

// setHonor is #honor HERO POINTS.
func setHonor(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) != 2 {
		return engine.Refuse("", "#honor takes a Hero and his points: #honor Hector 320")
	}
	el, err := s.findElement(c.Args[0])
	if err != nil {
		return err
	}
	if !s.isHero(el) {
		return engine.Refuse("4", "Only a clan's Hero has honor; %s is not one.", el.Label())
	}
	n, err := strconv.Atoi(c.Args[1])
	if err != nil || n < 0 {
		return engine.Refuse("4.3", "Honor is a whole number, never below zero, not %q.", c.Args[1])
	}
	return tx.Emit(HonorSet{Hero: el.ID, Name: el.Name, Total: n})
}

// setWounds is #wound ELEMENT [N]: N wounds (1 if left out), with all that
// follows from them, dealt by no one.
func setWounds(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 1 || len(c.Args) > 2 {
		return engine.Refuse("", "#wound takes an element and how many wounds: #wound TRO-W1 2")
	}
	el, err := s.findElement(c.Args[0])
	if err != nil {
		return err
	}
	n := 1
	if len(c.Args) == 2 {
		if n, err = strconv.Atoi(c.Args[1]); err != nil || n < 1 {
			return engine.Refuse("", "#wound takes a number of wounds from 1, not %q.", c.Args[1])
		}
	}
	if s.Phase != Playing {
		return engine.Refuse("", "Wounds are dealt once the book has started.")
	}
	for range n {
		if el.Status != Standing {
			break
		}
		if err := wound(tx, s, el, nil, "set by the table", false); err != nil {
			return err
		}
	}
	if ended, err := checkEnd(tx, s); ended || err != nil {
		return err
	}
	if s.Current() == nil && s.Fight == nil && s.Challenge == nil && len(s.Order) > 0 {
		return afterAction(tx)
	}
	return nil
}
