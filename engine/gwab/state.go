package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Phase is where a book stands.
type Phase uint8

const (
	Gathering Phase = iota // open, clans being raised
	Playing                // started: rounds are being played
	Ended                  // over
)

func (p Phase) String() string {
	return [...]string{"gathering", "playing", "ended"}[p]
}

// Mode is what kind of book this is (section 12, and the design's rulings).
type Mode uint8

const (
	Practice Mode = iota // not recorded by the Herald
	Raid
	Battle
)

func (m Mode) String() string { return [...]string{"practice", "raid", "battle"}[m] }

func parseMode(s string) (Mode, bool) {
	for m := Practice; m <= Battle; m++ {
		if strings.EqualFold(s, m.String()) {
			return m, true
		}
	}
	return 0, false
}

// Side is the side of the table a clan fights on (2.2).
type Side uint8

const (
	Protagonist Side = iota // deploys along the near edge (y = 0)
	Antagonist              // deploys along the far edge
)

func (s Side) String() string { return [...]string{"protagonist", "antagonist"}[s] }

// Other returns the opposing side.
func (s Side) Other() Side { return 1 - s }

func parseSide(s string) (Side, bool) {
	switch strings.ToLower(s) {
	case "protagonist", "pro", "p":
		return Protagonist, true
	case "antagonist", "ant", "a":
		return Antagonist, true
	}
	return 0, false
}

// Kind is what an element is (3.4).
type Kind uint8

const (
	Warband Kind = iota
	Hero
	Companion
	Chariot
)

func (k Kind) String() string { return [...]string{"warband", "Hero", "Companion", "chariot"}[k] }

// Weapon is what a warband is armed with (2.3).
type Weapon uint8

const (
	NoWeapon Weapon = iota
	Spear
	Sword
	Javelin
	Sling
	Bow
)

var weaponNames = [...]string{"", "spear", "sword", "javelin", "sling", "bow"}
var weaponTroops = [...]string{"", "spearmen", "swordsmen", "javelinmen", "slingers", "bowmen"}

func (w Weapon) String() string { return weaponNames[w] }

// Troops is what the warband's men are called: "spearmen".
func (w Weapon) Troops() string { return weaponTroops[w] }

// Skirmisher reports whether a warband with w is a skirmish stand (12).
func (w Weapon) Skirmisher() bool { return w == Sling || w == Bow }

// Missile reports whether w can shoot (9.1).
func (w Weapon) Missile() bool { return w == Javelin || w == Sling || w == Bow }

func parseWeapon(s string) (Weapon, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for w := Spear; w <= Bow; w++ {
		if s == w.String() || s == w.Troops() {
			return w, true
		}
	}
	switch s {
	case "archer", "archers", "bows":
		return Bow, true
	case "spears":
		return Spear, true
	case "swords":
		return Sword, true
	case "javelins":
		return Javelin, true
	case "slings":
		return Sling, true
	}
	return NoWeapon, false
}

// Status is whether an element is still in play.
type Status uint8

const (
	Standing Status = iota // in play
	Fallen                 // a fallen Hero or Companion: a body on the table
	Removed                // gone from the table
	// Withdrawing: of a clan left with no Hero or Companion, on its way
	// off the table toward its own edge (10.1.3); out of the fight.
	Withdrawing
)

// ClanTag is a clan's short code, used in element names ("MYR").
type ClanTag string

// ElementID is an element's short name, as players type it ("MYR-W2").
type ElementID string

// Clan is one player's clan on one side.
type Clan struct {
	Tag    ClanTag         `json:"tag"`
	Name   string          `json:"name"`
	Player engine.PlayerID `json:"player"`
	Side   Side            `json:"side"`
	// Hero is the element that leads the clan now; it changes when a
	// Companion takes a fallen Hero's place.
	Hero ElementID `json:"hero"`
	// Slot is the clan's place along its deployment edge, from the left.
	Slot int `json:"slot"`
	// Gone is set when the clan has left the field; Retreated when it
	// left by a Joker's dispensation rather than for want of leaders.
	Gone      bool `json:"gone,omitempty"`
	Retreated bool `json:"retreated,omitempty"`
	// Heir is set while a Companion who took the fallen Hero's place
	// awaits the name his player gives him (12).
	Heir bool `json:"heir,omitempty"`
	// Successors are the Companions the clan's player chooses among when
	// its Hero has fallen and more than one could take his place
	// (10.1.3); empty when no choice is awaited.
	Successors []ElementID `json:"successors,omitempty"`
	// Jokers are the jokers the clan keeps as Special Dispensation (11.1).
	Jokers []engine.Card `json:"jokers,omitempty"`
}

// Element is one stand on the table (3.4). A big battle has about a
// hundred, and a cached game keeps them all, so the counts that stay
// small (wounds, class, blessings, javelins thrown, rounds) are kept in
// 16 bits; their JSON is the same as an int's.
type Element struct {
	ID     ElementID   `json:"id"`
	Clan   ClanTag     `json:"clan"`
	Kind   Kind        `json:"kind"`
	Weapon Weapon      `json:"weapon,omitempty"`
	Name   string      `json:"name"`
	Base   engine.Base `json:"base"`
	Placed bool        `json:"placed,omitempty"`
	Wounds int16       `json:"wounds,omitempty"`
	Status Status      `json:"status,omitempty"`
	// Class is a Hero's class (4.5) as the book began; 0 for every other
	// element. The class in play follows Honor (see heroClass).
	Class int16 `json:"class,omitempty"`
	// Honor is a Hero's honor points, and Gained what he has won or lost
	// in this book (4, 6.2.2).
	Honor  int `json:"honor,omitempty"`
	Gained int `json:"gained,omitempty"`
	// The gods (11): a Hero who has called on them, the blessings he
	// holds, and the jokers' dispensations on any element.
	Invoked bool  `json:"invoked,omitempty"`
	Fury    bool  `json:"fury,omitempty"`
	Aegis   int16 `json:"aegis,omitempty"`
	Blessed bool  `json:"blessed,omitempty"`
	Shield  bool  `json:"shield,omitempty"`
	Doubled bool  `json:"doubled,omitempty"`
	Extra   bool  `json:"extra,omitempty"`
	// Bodies and armor (8.9, 10.3): what an element carries or is
	// looting, and for a fallen warrior, when he fell and what became of
	// his body and armor.
	Carrying   ElementID  `json:"carrying,omitempty"`
	Armor      ElementID  `json:"armor,omitempty"`
	Looting    ElementID  `json:"looting,omitempty"`
	LootRound  int16      `json:"loot_round,omitempty"`
	FellRound  int16      `json:"fell_round,omitempty"`
	WasHero    bool       `json:"was_hero,omitempty"`
	Saved      bool       `json:"saved,omitempty"`
	ArmorTaken bool       `json:"armor_taken,omitempty"`
	ArmorDown  bool       `json:"armor_down,omitempty"` // his armor lies at ArmorAt
	ArmorAt    engine.Vec `json:"armor_at,omitzero"`
	ArmorWonBy ClanTag    `json:"armor_won_by,omitempty"`
	// Driver reports that a chariot's driver is aboard (3.5).
	Driver bool `json:"driver,omitempty"`
	// Chariots (8): the Hero or Companion a chariot carries besides its
	// driver (or who drives it alone), the chariot a Hero or Companion
	// rides, the round its clan last drove it, whether it is running away
	// with no one aboard (8.7), and the javelins it has thrown since its
	// last load (13.2). See chariot.go.
	Rider      ElementID `json:"rider,omitempty"`
	Aboard     ElementID `json:"aboard,omitempty"`
	LastDriven int16     `json:"last_driven,omitempty"`
	Runaway    bool      `json:"runaway,omitempty"`
	Thrown     int16     `json:"thrown,omitempty"`
}

// Label is how the element reads in text: its short name and what it is.
func (e *Element) Label() string {
	switch e.Kind {
	case Warband:
		return fmt.Sprintf("%s (%s)", e.ID, e.Weapon.Troops())
	case Chariot:
		return fmt.Sprintf("%s (chariot)", e.ID)
	}
	return fmt.Sprintf("%s (%s)", e.Name, e.ID)
}

// Board is the size of the table in strides (2.5): x runs along the
// protagonists' edge from their left, y from their edge toward the
// antagonists'.
type Board struct {
	Width float64 `json:"width"`
	Depth float64 `json:"depth"`
}

// State is a book of GWAB.
type State struct {
	Phase   Phase           `json:"phase"`
	Mode    Mode            `json:"mode"`
	ModeSet bool            `json:"mode_set,omitempty"` // the opener chose the mode
	Master  engine.PlayerID `json:"master"`
	// Bots are the players the bot holds seats as, who raise their clans
	// while the book gathers (BookOpened).
	Bots     []engine.PlayerID `json:"bots,omitempty"`
	Board    Board             `json:"board"`
	Clans    []Clan            `json:"clans"`
	Elements []Element         `json:"elements"`
	Round    int               `json:"round"`
	// Order is this round's sequence: clans by the card they were dealt,
	// highest first (6.1).
	Order []Dealt `json:"order,omitempty"`
	// Turn indexes Order: the clan whose turn it is.
	Turn   int    `json:"turn"`
	Result string `json:"result,omitempty"`
	// ChampionFell names a Class 4 Hero killed in combat (6.2.1).
	ChampionFell string `json:"champion_fell,omitempty"`
	// Challenge is a challenge being answered or fought; Called lists
	// every challenge issued in this book (10.2).
	Challenge *Challenge `json:"challenge,omitempty"`
	Called    []Called   `json:"called,omitempty"`
	// Fight is the round's melee while it is being resolved.
	Fight   *Fight  `json:"fight,omitempty"`
	Options Options `json:"options"`
	// Terrain is the terrain laid on the table (13.1; terrain.go).
	Terrain []Feature `json:"terrain,omitempty"`
	// Saga is the saga the book belongs to, if any (enlist.go).
	Saga *Enlistment `json:"saga,omitempty"`
}

// Options are the optional rules of section 13 a book plays with.
type Options struct {
	Terrain  bool `json:"terrain,omitempty"`  // 13.1
	Javelins int  `json:"javelins,omitempty"` // 13.2: a chariot's load; 0 for no limit
}

// Dealt is a clan's sequence card for the round.
type Dealt struct {
	Clan ClanTag     `json:"clan"`
	Card engine.Card `json:"card"`
}

var _ engine.State = (*State)(nil)

// Over reports whether the book has ended.
func (s *State) Over() bool { return s.Phase == Ended }

// Clone returns a copy of s that shares nothing with it. The bot copies
// a book for every command it weighs, so this is written out rather than
// left to engine.Copy's reflection, at a fifth of its cost;
// TestClonesShareNothing fills every field to catch one left out.
func (s *State) Clone() engine.State {
	c := *s
	c.Bots = slices.Clone(s.Bots)
	c.Clans = slices.Clone(s.Clans)
	for i := range c.Clans {
		c.Clans[i].Successors = slices.Clone(c.Clans[i].Successors)
		c.Clans[i].Jokers = slices.Clone(c.Clans[i].Jokers)
	}
	c.Elements = slices.Clone(s.Elements)
	c.Order = slices.Clone(s.Order)
	c.Challenge = clonePtr(s.Challenge)
	c.Called = slices.Clone(s.Called)
	if s.Fight != nil {
		f := *s.Fight
		f.Pairings = slices.Clone(f.Pairings)
		for i := range f.Pairings {
			f.Pairings[i].ACards = slices.Clone(f.Pairings[i].ACards)
			f.Pairings[i].BCards = slices.Clone(f.Pairings[i].BCards)
		}
		f.Impact = clonePtr(f.Impact)
		c.Fight = &f
	}
	c.Terrain = slices.Clone(s.Terrain)
	for i := range c.Terrain {
		c.Terrain[i].Points = slices.Clone(c.Terrain[i].Points)
	}
	if s.Saga != nil {
		e := *s.Saga
		e.Roll = slices.Clone(e.Roll)
		e.Retired = slices.Clone(e.Retired)
		c.Saga = &e
	}
	return &c
}

// clonePtr returns a pointer to a copy of *p, or nil for nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// Clan returns the clan tagged t, or nil.
func (s *State) Clan(t ClanTag) *Clan {
	for i := range s.Clans {
		if s.Clans[i].Tag == t {
			return &s.Clans[i]
		}
	}
	return nil
}

// clanFinder finds the clans of many elements in turn: elements lie in
// runs of one clan's, so the last clan found is tried first.
type clanFinder struct {
	clans []Clan
	last  int
}

// index returns the index in the clans of the clan tagged t, or -1.
func (f *clanFinder) index(t ClanTag) int {
	if f.last < len(f.clans) && f.clans[f.last].Tag == t {
		return f.last
	}
	for i := range f.clans {
		if f.clans[i].Tag == t {
			f.last = i
			return i
		}
	}
	return -1
}

// Element returns the element id, or nil.
func (s *State) Element(id ElementID) *Element {
	for i := range s.Elements {
		if s.Elements[i].ID == id {
			return &s.Elements[i]
		}
	}
	return nil
}

// ClanElements returns the elements of clan t in the order they were raised.
func (s *State) ClanElements(t ClanTag) []*Element {
	var out []*Element
	for i := range s.Elements {
		if s.Elements[i].Clan == t {
			out = append(out, &s.Elements[i])
		}
	}
	return out
}

// PlayerClans returns the clans player raised.
func (s *State) PlayerClans(p engine.PlayerID) []*Clan {
	var out []*Clan
	for i := range s.Clans {
		if s.Clans[i].Player == p {
			out = append(out, &s.Clans[i])
		}
	}
	return out
}

// Players returns the players who raised clans, in the order of their
// first clan.
func (s *State) Players() []engine.PlayerID {
	var out []engine.PlayerID
	for _, c := range s.Clans {
		if !slices.Contains(out, c.Player) {
			out = append(out, c.Player)
		}
	}
	return out
}

// Current returns the clan whose turn it is, or nil between rounds and
// outside play.
func (s *State) Current() *Clan {
	if s.Phase != Playing {
		return nil
	}
	for i := s.Turn; i < len(s.Order); i++ {
		if c := s.Clan(s.Order[i].Clan); c != nil && !c.Gone {
			return c
		}
	}
	return nil
}

// acted marks clan t's turn of the round as taken.
func (s *State) acted(t ClanTag) error {
	for i, d := range s.Order {
		if d.Clan == t {
			s.Turn = i + 1
			return nil
		}
	}
	return fmt.Errorf("gwab: the %s hold no card this round", t)
}

// Antagonists reports whether clans a and b are enemies: on opposite
// sides and not owned by the same player (7.3).
func (s *State) Antagonists(a, b ClanTag) bool {
	ca, cb := s.Clan(a), s.Clan(b)
	return ca != nil && cb != nil && ca.Side != cb.Side && ca.Player != cb.Player
}
