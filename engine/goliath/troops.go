package goliath

import (
	"fmt"
	"slices"
	"strings"
)

// The figure characteristics (Figures) and the troop types (Troop Types).

// Rating is a place on the attack and defence ladder, LI < MI < HI < LC <
// MC < HC: armour class times mount type (Figures, item 4).
type Rating int8

const (
	LI Rating = iota
	MI
	HI
	LC
	MC
	HC
)

var ratingNames = [...]string{"LI", "MI", "HI", "LC", "MC", "HC"}

func (r Rating) String() string {
	switch {
	case r >= LI && r <= HC:
		return ratingNames[r]
	case r > HC:
		// Above the ladder's top: a ranger on heavy horse (Troop Types,
		// "*+1"), which fights as HC with +1 on each die (Figures, item 4).
		return fmt.Sprintf("HC+%d", int8(r-HC))
	}
	return fmt.Sprintf("Rating(%d)", int8(r))
}

func parseRating(s string) (Rating, bool) {
	for i, n := range ratingNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Rating(i), true
		}
	}
	return 0, false
}

// Armor is a figure's armour class.
type Armor int8

const (
	Light Armor = iota
	Medium
	Heavy
)

func (a Armor) String() string {
	switch a {
	case Light:
		return "L"
	case Medium:
		return "M"
	case Heavy:
		return "H"
	}
	return fmt.Sprintf("H+%d", int(a-Heavy))
}

// Armor and Cavalry read a rating's two letters: the armour class, and
// whether the figure is mounted (RULINGS.md, goliath, "armour class and
// mount type": a type's AC and MT are the letters of its DR).
func (r Rating) Armor() Armor  { return Armor(r % 3) }
func (r Rating) Cavalry() bool { return r >= LC }

// rate is the rating of an armour class and mount.
func rate(a Armor, cavalry bool) Rating {
	r := Rating(a)
	if cavalry {
		r += 3
	}
	return r
}

// Weapon is what a type shoots with, which sets its rate of fire
// (Missile Fire).
type Weapon uint8

const (
	NoWeapon      Weapon = iota
	Bow                  // archers: twice a turn standing still
	Longbow              // as bows
	Crossbow             // once a turn
	HeavyCrossbow        // every other turn, +1 to hit
	Thrown               // axes, spears, javelins, stones: once a turn, at chargers always
)

var weaponNames = [...]string{"none", "bow", "longbow", "crossbow", "heavy-crossbow", "thrown"}

func (w Weapon) String() string { return weaponNames[w] }

func parseWeapon(s string) (Weapon, bool) {
	i := slices.Index(weaponNames[:], strings.ToLower(strings.TrimSpace(s)))
	return Weapon(max(i, 0)), i >= 0
}

// Archers reports the weapons that may shoot twice when standing.
func (w Weapon) Archers() bool { return w == Bow || w == Longbow }

// Projectiles cavalry may buy (Missile Fire: extra point cost and range).
var projectiles = []struct {
	weapon Weapon
	pts    float64
	rng    float64
}{
	{Bow, 3, 15},
	{Crossbow, 1.5, 24},
	{Longbow, 4, 21},
}

// Ability is a special ability by its number in the text's table
// (Special Abilities): "1" to "12", with "7a" and "7b".
type Ability string

const (
	Invisible  Ability = "1"  // invisibility
	DarkSight  Ability = "2"  // sees in darkness as in light
	SplitFire  Ability = "3"  // split move and fire
	Inspiring  Ability = "4"  // raises the morale of friends
	Fearsome   Ability = "5"  // makes the enemy check morale
	Detects    Ability = "6"  // detects hidden enemies
	Paralyzes  Ability = "7a" // paralyzes by touch until freed
	Numbs      Ability = "7b" // paralyzes by touch for a turn
	ShapeShift Ability = "8"  // takes animal shapes
	Regenerate Ability = "9"  // regenerates hits
	CastsFire  Ability = "10" // casts fire, stones and the like
	Charmed    Ability = "11" // hurt only by giants, heroes, super heroes, wizards
	Infects    Ability = "12" // those it kills become its kind
)

var abilityNames = map[Ability]string{
	Invisible: "invisibility", DarkSight: "sees in darkness", SplitFire: "split move and fire",
	Inspiring: "raises friends' morale", Fearsome: "makes the enemy check morale", Detects: "detects hidden enemies",
	Paralyzes: "paralyzing touch", Numbs: "numbing touch", ShapeShift: "shape-shifting", Regenerate: "regenerates",
	CastsFire: "casts fire or stones", Charmed: "hurt only by giants, heroes and wizards", Infects: "its dead rise as its kind",
}

// Profile is what a figure of a unit is: the twelve characteristics of
// its type, with the choices made when it was raised (a hero's armour and
// mount, a cavalry unit's bought missiles).
type Profile struct {
	Type   string    `json:"type"` // the type's key
	Name   string    `json:"name"` // the type's name, as players read it
	AR     Rating    `json:"ar"`
	DR     Rating    `json:"dr"`
	HT     int       `json:"ht"`
	MR     int       `json:"mr"`
	MV     float64   `json:"mv"`
	Chg    float64   `json:"chg,omitempty"`
	Fly    float64   `json:"fly,omitempty"`
	Mss    float64   `json:"mss,omitempty"`
	Weapon Weapon    `json:"weapon,omitempty"`
	SA     []Ability `json:"sa,omitempty"`
	Pts    float64   `json:"pts"`
	Large  bool      `json:"large,omitempty"`  // a big figure on a 2" square base
	Wizard bool      `json:"wizard,omitempty"` // casts bolts, fireballs and spells
	Slayer bool      `json:"slayer,omitempty"` // may hurt trolls (SA 11): giants, heroes, super heroes, wizards
	Freer  bool      `json:"freer,omitempty"`  // frees the paralyzed (SA 7a): elves, heroes, super heroes, wizards
	Elf    bool      `json:"elf,omitempty"`    // elves cannot be paralyzed (Figures, item 11)
	Breath bool      `json:"breath,omitempty"` // breathes fire (SA 10 without a missile range)
}

// Has reports whether the figure has the ability.
func (p *Profile) Has(a Ability) bool { return slices.Contains(p.SA, a) }

// Armor is the figure's armour class; Cavalry whether it is a horseman.
func (p *Profile) Armor() Armor  { return p.DR.Armor() }
func (p *Profile) Cavalry() bool { return p.DR.Cavalry() }

// Shoots reports a figure with a missile weapon.
func (p *Profile) Shoots() bool { return p.Weapon != NoWeapon && p.Mss > 0 }

// SplitsMove reports a figure that may stop in its move to shoot: a
// horseman armed with a bow (a longbow is a bow; crossbows are not,
// which the text names apart wherever it means them) or one with SA 3
// (Missile Fire, L126; RULINGS.md, goliath, "split move and fire").
func (p *Profile) SplitsMove() bool {
	return p.Shoots() && (p.Cavalry() && p.Weapon.Archers() || p.Has(SplitFire))
}

// Steadfast reports a figure that never checks morale (Figures, item 6).
func (p *Profile) Steadfast() bool { return p.MR >= 4 }

// Type is one troop type of the roster, or one the referee defines.
type Type struct {
	Profile
	// Star marks the types whose AR and DR follow the armour and mount
	// chosen for them (hero, ranger, super hero); Step is how many rungs
	// AR stands above that (the ranger's "*+1"), past HC if need be.
	Star bool `json:"star,omitempty"`
	Step int  `json:"step,omitempty"`
	// Mounts marks the cavalry types that may buy missiles (Troop Types,
	// note **).
	Mounts bool `json:"mounts,omitempty"`
}

func abilities(s ...string) []Ability {
	out := make([]Ability, len(s))
	for i, a := range s {
		out[i] = Ability(a)
	}
	return out
}

// roster is the text's table of troop types, in its order, with the
// weapon each missile range is read as (RULINGS.md, goliath, "weapons of
// the roster").
var roster = func() []Type {
	t := func(key, name string, ar, dr Rating, ht, mr int, mv, chg, fly, mss float64, w Weapon, sa []Ability, pts float64) Type {
		return Type{Profile: Profile{Type: key, Name: name, AR: ar, DR: dr, HT: ht, MR: mr, MV: mv, Chg: chg, Fly: fly, Mss: mss, Weapon: w, SA: sa, Pts: pts}}
	}
	types := []Type{
		t("bowmen", "Bowmen", LI, LI, 1, 0, 9, 12, 0, 15, Bow, nil, 4),
		t("crossbowmen", "Crossbowmen", LI, LI, 1, 0, 12, 0, 0, 24, Crossbow, nil, 2.5),
		t("dragon", "Dragon", HC, HC, 4, 4, 9, 15, 24, 0, NoWeapon, abilities("2", "5", "6", "10"), 100),
		t("dwarves", "Dwarves", MI, LI, 1, 0, 6, 9, 0, 0, NoWeapon, abilities("2"), 2.5),
		t("elves", "Elves", MI, MI, 1, 1, 12, 0, 0, 18, Bow, abilities("1", "2", "3"), 4),
		t("ghouls", "Ghouls", LC, HC, 2, 2, 9, 0, 0, 0, NoWeapon, abilities("2", "7a", "12"), 20),
		t("giants", "Giants", MI, HI, 12, 4, 12, 18, 0, 20, Thrown, abilities("2", "10"), 50),
		t("goblins", "Goblins", MI, LI, 1, 0, 6, 9, 0, 0, NoWeapon, abilities("2"), 2.5),
		t("halflings", "Halflings", LI, LI, 1, 0, 12, 0, 0, 15, Bow, abilities("1"), 1),
		t("heavy-cavalry", "Heavy Cavalry", HC, HC, 1, 1, 12, 18, 0, 0, NoWeapon, nil, 5),
		t("heavy-infantry", "Heavy Infantry", HI, HI, 1, 0, 6, 0, 0, 0, NoWeapon, nil, 2.5),
		t("heavy-crossbowmen", "Heavy Crossbowmen", MI, MI, 1, 0, 9, 0, 0, 24, HeavyCrossbow, nil, 4),
		t("hero", "Hero", MI, MI, 4, 4, 12, 15, 0, 18, Bow, abilities("4"), 20),
		t("light-cavalry", "Light Cavalry", LC, LC, 1, 0, 24, 30, 0, 0, NoWeapon, nil, 3),
		t("light-infantry", "Light Infantry", LI, LI, 1, -2, 9, 12, 0, 0, NoWeapon, nil, 1),
		t("longbowmen", "Longbowmen", LI, LI, 1, 0, 12, 15, 0, 21, Longbow, nil, 5),
		t("medium-cavalry", "Medium Cavalry", MC, MC, 1, 0, 18, 24, 0, 0, NoWeapon, nil, 4),
		t("medium-infantry", "Medium Infantry", MI, MI, 1, -1, 9, 12, 0, 0, NoWeapon, nil, 2),
		t("ogres", "Ogres", MI, MI, 6, 1, 9, 12, 0, 0, NoWeapon, abilities("2", "9"), 15),
		t("ogrillons", "Ogrillons", MI, MI, 4, 1, 9, 12, 0, 15, Thrown, abilities("2"), 10),
		t("orcs", "Orcs", MI, MI, 1, 0, 9, 12, 0, 15, Bow, abilities("2"), 2),
		t("giant-orcs", "Orcs, Giant", HI, MI, 1, 0, 9, 12, 0, 15, Bow, abilities("2"), 2.5),
		t("orogs", "Orogs", HI, MI, 2, 0, 9, 12, 0, 15, Bow, abilities("2"), 5),
		t("peasants", "Peasants", LI, LI, 1, -4, 9, 12, 0, 0, NoWeapon, nil, 0.5),
		t("ranger", "Ranger", MI, MI, 4, 4, 12, 15, 0, 18, Bow, abilities("4"), 20.5),
		t("skeletons", "Skeletons", MI, MI, 1, 4, 6, 0, 9, 0, NoWeapon, abilities("2"), 5),
		t("super-hero", "Super Hero", MI, MI, 8, 4, 12, 15, 0, 21, Longbow, abilities("4", "5", "6"), 50),
		t("trolls", "Trolls", HI, HI, 3, 4, 9, 12, 0, 0, NoWeapon, abilities("11"), 75),
		t("werewolf", "Werewolf", HI, MI, 4, 4, 9, 12, 0, 0, NoWeapon, abilities("2", "8"), 20),
		t("wights", "Wights", LC, HC, 1, 1, 9, 0, 0, 0, NoWeapon, abilities("2", "7b"), 7.5),
		t("wizards", "Wizards", HI, HI, 2, 4, 12, 0, 0, 24, NoWeapon, abilities("1", "2", "4", "5", "10"), 100),
		t("wraiths", "Wraiths", MC, MC, 2, 2, 18, 24, 36, 0, NoWeapon, abilities("2", "5", "6", "7a"), 10),
		t("zombies", "Zombies", MI, MI, 1, 4, 6, 0, 9, 0, NoWeapon, abilities("2", "12"), 15),
	}
	for i := range types {
		p := &types[i]
		switch p.Type {
		case "hero", "super-hero":
			p.Star, p.Slayer, p.Freer = true, true, true
		case "ranger":
			p.Star, p.Step = true, 1
		case "heavy-cavalry", "medium-cavalry", "light-cavalry":
			p.Mounts = true
		case "wizards":
			p.Wizard, p.Slayer, p.Freer = true, true, true
		case "giants":
			p.Slayer = true
		case "elves":
			p.Elf, p.Freer = true, true
		case "dragon":
			p.Breath = true
		}
		p.Large = p.Type == "dragon" || p.Type == "giants" || p.Type == "ogres" || p.Type == "trolls"
	}
	return types
}()

// Skeletons and zombies have no charge and a 9" fly, as the text's table
// prints them (RULINGS.md, goliath, "the roster as printed"): they charge
// at their 6" walk (Profile.ChargeMove).

// ChargeMove is how far a figure of the type goes when it charges: its
// Chg where the table gives one ("if applicable", Troop Types), else its
// MV, so that a type with no charge move ("--") still comes to blows, only
// no faster than it walks (RULINGS.md, goliath, "charges").
func (p *Profile) ChargeMove() float64 {
	if p.Chg > 0 {
		return p.Chg
	}
	return p.MV
}

// findType finds a type by key or name, in the roster or among the
// referee's own; the second result says whether it is the referee's.
func findType(custom []Type, name string) (Type, bool) {
	key := typeKey(name)
	for _, list := range [][]Type{custom, roster} {
		for _, t := range list {
			if t.Type == key || typeKey(t.Name) == key {
				return t, true
			}
		}
	}
	// Plurals and singulars: "hero" for "heroes", "bowman" for "bowmen".
	for _, alt := range []string{key + "s", strings.TrimSuffix(key, "s"), strings.TrimSuffix(key, "es"), strings.Replace(key, "man", "men", 1)} {
		for _, list := range [][]Type{custom, roster} {
			for _, t := range list {
				if t.Type == alt {
					return t, true
				}
			}
		}
	}
	return Type{}, false
}

// typeKey writes a name as a type key: lower case, words joined by "-",
// "Orcs, Giant" as giant-orcs.
func typeKey(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "orcs, giant" || n == "orcs giant" || n == "giant orc" {
		return "giant-orcs"
	}
	n = strings.NewReplacer(",", " ", "_", " ").Replace(n)
	return strings.Join(strings.Fields(n), "-")
}

// singular writes a type's name for one figure: "Troll" for "Trolls",
// "Bowman" for "Bowmen", "Elf" for "Elves", "Giant Orc" for "Orcs,
// Giant"; what follows the name ("Hero (HC)", "Light Cavalry with bows")
// is kept, and a name that is no plural ("Heavy Cavalry") stays.
func singular(name string) string {
	base, rest := name, ""
	for _, sep := range []string{" (", " with "} {
		if i := strings.Index(base, sep); i >= 0 {
			base, rest = base[:i], base[i:]+rest
		}
	}
	switch {
	case base == "Orcs, Giant":
		base = "Giant Orc"
	case strings.HasSuffix(base, "men"):
		base = strings.TrimSuffix(base, "men") + "man"
	case strings.HasSuffix(base, "ves"):
		base = strings.TrimSuffix(base, "ves") + "f"
	case strings.HasSuffix(base, "s") && !strings.HasSuffix(base, "ss"):
		base = strings.TrimSuffix(base, "s")
	}
	return base + rest
}

// typeNames lists the roster's type keys, for help.
func typeNames() []string {
	out := make([]string, len(roster))
	for i, t := range roster {
		out[i] = t.Type
	}
	return out
}
