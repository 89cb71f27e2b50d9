package btg

// Class is the troop class of a unit. The rule text's tables use different
// classes (movement, morale and weapons); every class here says which row of
// each table it takes (see RULINGS.md, btg, "troop classes").
type Class int

// The classes of the army-list vocabulary.
const (
	LightInfantry Class = iota
	HeavyInfantry
	Phalanx
	Legion
	Templar
	LightCavalry
	Cavalry
	Camelry
	Chariot
	Elephant
	// Siege engines (§7): a crew of figures working one engine.
	StoneThrower
	Catapult
	HeavyCatapult
	Ballista
	Helepolis
)

// Terrain is a kind of ground for the movement table (§1).
type Terrain int

// The three rows of the movement table.
const (
	Level Terrain = iota
	Rough         // rough ground or hills
	Woods         // woods or swamp
)

type classInfo struct {
	key     string
	name    string
	move    [3]int // inches on level, rough/hills, woods/swamp; 0 = cannot enter
	mounted bool
	charges bool // may charge (§1.D)
	morale  int  // row of the base-morale table (§3)
	weapons []Weapon
}

// Base-morale rows (§3 "base morale").
const (
	moraleInfantry = iota
	moraleTemplar
	moraleMounted
	moralePhalanx
)

var classes = map[Class]classInfo{
	LightInfantry: {"lt-inf", "light infantry", [3]int{8, 6, 6}, false, false, moraleInfantry, []Weapon{Club, Axe, Spear, Sword, Javelin, Sling, ShortBow, CompositeBow}},
	HeavyInfantry: {"hvy-inf", "heavy infantry", [3]int{6, 4, 3}, false, false, moraleInfantry, []Weapon{Club, Axe, Spear, Sword}},
	Phalanx:       {"phalanx", "phalanx", [3]int{6, 4, 3}, false, true, moralePhalanx, []Weapon{Spear}},
	Legion:        {"legion", "legion", [3]int{6, 4, 3}, false, true, moralePhalanx, []Weapon{Sword}},
	Templar:       {"templar", "templars", [3]int{6, 4, 3}, false, false, moraleTemplar, []Weapon{Sword, Spear, Axe}},
	LightCavalry:  {"lt-cav", "light cavalry", [3]int{16, 13, 10}, true, true, moraleMounted, []Weapon{Javelin, ShortBow, CompositeBow, Spear, Sword}},
	Cavalry:       {"cav", "cavalry", [3]int{14, 12, 10}, true, true, moraleMounted, []Weapon{Spear, Sword, Axe, CompositeBow, ShortBow}},
	Camelry:       {"camel", "camelry", [3]int{14, 12, 10}, true, true, moraleMounted, []Weapon{Spear, Sword, ShortBow, CompositeBow}},
	Chariot:       {"chariot", "chariots", [3]int{12, 6, 0}, true, true, moraleMounted, []Weapon{Spear, ShortBow, CompositeBow, Javelin}},
	Elephant:      {"elephant", "elephants", [3]int{8, 4, 0}, true, false, moraleMounted, []Weapon{Tusks, ShortBow, CompositeBow, Javelin}},
	// Siege engines move as their crews drag them (RULINGS.md, btg,
	// "siege"): 4" on level ground, 2" over rough, never into woods; the
	// helepolis, a wheeled tower, 3" on level ground only.
	StoneThrower:  {"stone-thrower", "stone thrower", [3]int{4, 2, 0}, false, false, moraleInfantry, []Weapon{Engine}},
	Catapult:      {"catapult", "catapult", [3]int{4, 2, 0}, false, false, moraleInfantry, []Weapon{Engine}},
	HeavyCatapult: {"hvy-catapult", "heavy catapult", [3]int{4, 2, 0}, false, false, moraleInfantry, []Weapon{Engine}},
	Ballista:      {"ballista", "ballista", [3]int{4, 2, 0}, false, false, moraleInfantry, []Weapon{Engine}},
	Helepolis:     {"helepolis", "helepolis", [3]int{3, 0, 0}, false, false, moraleInfantry, []Weapon{Engine}},
}

// Siege tells a siege engine (§7).
func (c Class) Siege() bool { return c >= StoneThrower }

// Foot tells infantry: neither mounted nor a siege engine.
func (c Class) Foot() bool { return !classes[c].mounted && !c.Siege() }

// Key is the class's word in a unit list, e.g. "lt-cav".
func (c Class) Key() string { return classes[c].key }

// String names the class for players.
func (c Class) String() string { return classes[c].name }

// Move is the class's move in inches over the terrain (§1 movement table),
// before any civilization bonus; 0 means the class cannot enter it.
func (c Class) Move(t Terrain) int { return classes[c].move[t] }

// Mounted tells a class that takes the mounted row of the morale table.
func (c Class) Mounted() bool { return classes[c].mounted }

// CanCharge tells whether the class may charge (§1.D): cavalry, camelry,
// chariots and phalanxes or legions. Light cavalry counts as cavalry.
func (c Class) CanCharge() bool { return classes[c].charges }

// Weapon is what a unit fights or shoots with.
type Weapon int

// Weapons of the melee chart (§8b) and the missile table (§2.H).
const (
	Club Weapon = iota
	Axe
	Spear
	Sword
	Tusks // an elephant's own melee line
	Javelin
	Sling
	ShortBow
	CompositeBow
	Engine // a siege engine's own shot (§7)
)

type weaponInfo struct {
	key      string
	meleeHit int // melee hits on 1..meleeHit (§8b); missile troops fight as clubs
	missile  bool
	short    int // short range ends here (inches)
	long     int // long range ends here
	shortHit int // hits on 1..shortHit at short range
	longHit  int // hits on 1..longHit at long range
}

var weapons = map[Weapon]weaponInfo{
	Club:         {"club", 2, false, 0, 0, 0, 0},
	Axe:          {"axe", 3, false, 0, 0, 0, 0},
	Spear:        {"spear", 5, false, 0, 0, 0, 0},
	Sword:        {"sword", 4, false, 0, 0, 0, 0},
	Tusks:        {"tusks", 5, false, 0, 0, 0, 0},
	Javelin:      {"javelin", 2, true, 6, 8, 3, 2},
	Sling:        {"sling", 2, true, 6, 8, 3, 2},
	ShortBow:     {"bow", 2, true, 7, 14, 4, 3},
	CompositeBow: {"composite", 2, true, 8, 16, 5, 4},
	Engine:       {"engine", 2, false, 0, 0, 0, 0},
}

// Key is the weapon's word in a unit list.
func (w Weapon) Key() string { return weapons[w].key }

// Missile tells a shooting weapon.
func (w Weapon) Missile() bool { return weapons[w].missile }

// MeleeHit is the highest D6 roll that hits in melee (§8b): club 2, axe 3,
// sword 4, spear and elephant 5. Missile troops fight as clubs.
func (w Weapon) MeleeHit() int { return weapons[w].meleeHit }

// FireHit is the highest D6 roll that hits at the given distance in inches
// (§2.H), before modifiers, and false when the target is out of range. A
// distance exactly at the end of short range is short range.
func (w Weapon) FireHit(inches float64) (int, bool) {
	wi := weapons[w]
	switch {
	case !wi.missile:
		return 0, false
	case inches <= float64(wi.short):
		return wi.shortHit, true
	case inches <= float64(wi.long):
		return wi.longHit, true
	}
	return 0, false
}

// Dice is the number of D6 a unit of the given figures rolls, for fire
// (§2.F) or melee (§5.E): one per two figures, rounded up.
func Dice(figures int) int { return (figures + 1) / 2 }

// Colour is a unit's base morale shown as a colour (§3).
type Colour int

// Base morale 1 to 4.
const (
	Red Colour = iota + 1
	Green
	Blue
	Gold
)

func (c Colour) String() string {
	return [...]string{"", "red", "green", "blue", "gold"}[c]
}

// BaseMorale is the base morale from a 2D6 total for the class (§3):
// infantry 2→1, 3–8→2, 9–12→3; Templars 2–6→2, 7–11→3, 12→4; mounted 2→2,
// 3–8→3, 9–12→4; phalanx or legion 2–7→3, 8–12→4.
func BaseMorale(c Class, twoD6 int) Colour {
	switch classes[c].morale {
	case moraleTemplar:
		switch {
		case twoD6 <= 6:
			return Green
		case twoD6 <= 11:
			return Blue
		}
		return Gold
	case moraleMounted:
		switch {
		case twoD6 <= 2:
			return Green
		case twoD6 <= 8:
			return Blue
		}
		return Gold
	case moralePhalanx:
		if twoD6 <= 7 {
			return Blue
		}
		return Gold
	}
	switch {
	case twoD6 <= 2:
		return Red
	case twoD6 <= 8:
		return Green
	}
	return Blue
}

// Check is the outcome of a morale check.
type Check int

// Morale-check results (§3): 1–2 rout, 3–4 fall back (or stop if moving),
// 5–6 hold. A total of 0 or less routs; 7 or more holds (RULINGS.md, btg).
const (
	Rout Check = iota
	FallBack
	Hold
)

// MoraleResult reads a morale-check total (D6 + base + modifiers).
func MoraleResult(total int) Check {
	switch {
	case total <= 2:
		return Rout
	case total <= 4:
		return FallBack
	}
	return Hold
}

// SiegeResult is the damage-table line (§7) for a modified D6 (heavy catapult
// +1, stone thrower or ballista −1): damage value lost and figures killed.
// A modified 0 or less reads as 1; 7 or more as 6 (RULINGS.md, btg).
func SiegeResult(roll int) (damage, kills int) {
	switch {
	case roll <= 1:
		return 1, 0
	case roll <= 3:
		return 2, 1
	case roll <= 5:
		return 3, 1
	}
	return 3, 2
}

// Damage values of siege targets (§7).
var DamageValues = map[string]int{
	"siege weapon":   6,
	"small wall":     10,
	"small building": 10,
	"medium wall":    15,
	"large building": 15,
	"city wall":      20,
	"barracks":       20,
	"small tower":    25,
	"large tower":    30,
	"ballista tower": 30,
}
