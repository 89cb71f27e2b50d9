package gwab

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The honor chart of section 4, by the fixed rulings: two columns, Battle
// and Raid; kills and wounds by the victim's class, a Companion, warband
// or charioteer counting as a Class 1 Hero. A practice book keeps its
// tally by the Raid column (RULINGS.md).

type column [2]int // Battle, Raid

var (
	killPoints   = map[int]column{4: {40, 20}, 3: {30, 15}, 2: {20, 10}, 1: {10, 5}}
	woundPoints  = map[int]column{4: {5, 1}, 3: {4, 1}, 2: {3, 1}, 1: {2, 1}}
	refusePoints = map[int]column{4: {-10, -3}, 3: {-5, -2}, 2: {-2, -1}, 1: {-1, 0}}
	chariotWon   = column{50, 25}
	chariotLost  = column{-50, -25}
	armorWon     = column{15, 7}
	absentPoints = column{-10, -3}
)

func (m Mode) column() int {
	if m == Battle {
		return 0
	}
	return 1
}

// ColumnName is the name of the chart column m uses.
func (m Mode) ColumnName() string {
	if m == Battle {
		return "Battle"
	}
	return "Raid"
}

// classFor is the class a Hero with points holds (4.5, fixed ruling):
// 0–99 Class 1, 100–200 Class 2, 201–300 Class 3, 301–400 Class 4, and
// 401 up Homeric, counted here as 5.
func classFor(points int) int {
	switch {
	case points >= 401:
		return 5
	case points >= 301:
		return 4
	case points >= 201:
		return 3
	case points >= 100:
		return 2
	}
	return 1
}

// classOf is the class el counts as for the honor chart: a Hero's own,
// Class 1 for everyone else.
func (s *State) classOf(el *Element) int {
	if s.isHero(el) {
		return min(classFor(el.Honor), 4)
	}
	return 1
}

// isHero reports whether el leads its clan now.
func (s *State) isHero(el *Element) bool {
	c := s.Clan(el.Clan)
	return c != nil && c.Hero == el.ID
}

// Cause is the kind of deed an honor change is for, as the saga's ledger
// files it; the chart of section 4 has a row for each.
type Cause string

const (
	Killing   Cause = "kill"
	Wounding  Cause = "wound"
	Chariots  Cause = "chariot"
	Armor     Cause = "armor"
	Refusing  Cause = "refused challenge" // the Hero who would not fight
	Refused   Cause = "challenge refused" // the Hero whose challenge was refused
	Divine    Cause = "divine intervention"
	Absence   Cause = "absence"
	Adjusted  Cause = "adjustment"
	Minimum   Cause = "new book minimum" // 4.3, 7.4
	TakenBack Cause = "step taken back"
	Ruling    Cause = "game master's ruling"
	Enrolling Cause = "entering the saga" // 4.3, 5.2
	Carried   Cause = "carried over"      // 13.3
)

// HonorChanged is a line of the book's honor: a Hero gains or loses
// points, and why (4).
type HonorChanged struct {
	Hero   ElementID `json:"hero"`
	Name   string    `json:"name"`
	Points int       `json:"points"`
	Cause  Cause     `json:"cause,omitempty"`
	// Captured marks the honor a Hero wins by taking another clan's
	// chariot (8.2.2), a deed the saga counts.
	Captured bool   `json:"captured,omitempty"`
	Reason   string `json:"reason"`
	Column   string `json:"column"`
	Round    int    `json:"round,omitempty"`
	Total    int    `json:"total"`
	// Class and WasClass are the Hero's class after and before.
	Class    int `json:"class"`
	WasClass int `json:"was_class"`
}

func (HonorChanged) Kind() string { return "gwab.honor-changed" }

// UnmarshalJSON reads an honor change, including those logged before a
// capture was a fact of its own, when only the reason ("taking X's
// chariot") told it.
func (b *HonorChanged) UnmarshalJSON(data []byte) error {
	type plain HonorChanged
	if err := json.Unmarshal(data, (*plain)(b)); err != nil {
		return err
	}
	if !b.Captured && b.Cause == Chariots && b.Points > 0 && strings.HasPrefix(b.Reason, "taking ") {
		b.Captured = true
	}
	return nil
}

func (b HonorChanged) Apply(s *State) error {
	el, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	el.Honor = b.Total
	if b.Cause != Minimum { // the floor of a new book is not won in it (6.2.2)
		el.Gained += b.Points
	}
	return nil
}

// award gives hero the chart's points for a deed of the kind cause,
// told as reason. Honor never goes below zero (4.3).
func award(tx *engine.Tx, s *State, hero *Element, c column, cause Cause, reason string) error {
	return changeHonor(tx, s, hero, c[s.Mode.column()], cause, reason)
}

// changeHonor changes hero's honor by pts, never below zero (4.3). A
// Hero whose loss takes him to a class whose wound limit his wounds
// reach falls (10.1.3).
func changeHonor(tx *engine.Tx, s *State, hero *Element, pts int, cause Cause, reason string) error {
	if pts == 0 {
		return nil
	}
	if err := tx.Emit(honorChange(s, hero, pts, cause, reason)); err != nil {
		return err
	}
	return weakened(tx, s, hero)
}

// honorChange is the event that changes hero's honor by pts, never below
// zero (4.3).
func honorChange(s *State, hero *Element, pts int, cause Cause, reason string) HonorChanged {
	total := max(hero.Honor+pts, 0)
	return HonorChanged{
		Hero: hero.ID, Name: hero.Name, Points: total - hero.Honor, Cause: cause, Reason: reason,
		Column: s.Mode.ColumnName(), Round: s.Round, Total: total, Class: classFor(total), WasClass: classFor(hero.Honor),
	}
}

func describeHonor(b HonorChanged) string {
	sign := "gains"
	pts := b.Points
	if pts < 0 {
		sign, pts = "loses", -pts
	}
	line := fmt.Sprintf("%s %s %d honor for %s (%s column), now %d.", b.Name, sign, pts, b.Reason, b.Column, b.Total)
	if b.Cause == Ruling {
		line = fmt.Sprintf("By the game master's ruling %s %s %d honor, now %d. Reason: %s.", b.Name, sign, pts, b.Total, strings.TrimSuffix(b.Reason, "."))
	}
	if b.Class != b.WasClass {
		line += fmt.Sprintf(" %s is now %s.", b.Name, rankName(b.Class))
	}
	return line
}

// rankName is the title of a class (4.5).
func rankName(class int) string {
	switch class {
	case 5:
		return "a Homeric Hero"
	case 4:
		return "a Class 4 Hero, a Champion"
	case 3:
		return "a Class 3 Hero, an Esquire"
	case 2:
		return "a Class 2 Hero, a Leader of Men"
	}
	return "a Class 1 Hero"
}
