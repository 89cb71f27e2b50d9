package btg

// Civ is one of the 18 civilizations of §8a. Its attribute is kept as data
// (which class or weapon it touches and by how much) so the rules read it
// where they need it.
type Civ struct {
	Key  string
	Name string
	// What the attribute does, in game terms, for the army screen.
	Attribute string
	// Inches added to the move of one class (before a charge doubles it).
	MoveClass Class
	MoveBonus int
	// Armor added to one class, all of it or only against missiles.
	ArmorClass   Class
	ArmorBonus   int
	ArmorMissile bool
	ArmorSwords  bool // Choson: only sword-armed infantry
	// Extra melee bonus dice; BonusAll for every melee unit.
	BonusClasses []Class
	BonusAll     bool
	BonusSwords  bool // Roman: sword infantry as well as legions
	BonusDice    int
	// Missile changes: inches added to ranges, hit band widened.
	RangeBonus     int
	RangeComposite bool // Minoan: composite bows only
	HitBonus       int  // Hittite: archers +1 to hit
	// Siege: damage values doubled, reload sooner.
	DoubleBuildings bool
	DoubleWalls     bool
	FastReload      bool
}

var civs = []Civ{
	{Key: "assyrian", Name: "Assyrian", Attribute: "+1 melee bonus die for every melee unit", BonusAll: true, BonusDice: 1},
	{Key: "babylonian", Name: "Babylonian", Attribute: "buildings and towers have double damage value", DoubleBuildings: true},
	{Key: "barbarian-cav", Name: "Barbarian cavalry tribes", Attribute: "light cavalry +2\" movement", MoveClass: LightCavalry, MoveBonus: 2},
	{Key: "barbarian-inf", Name: "Barbarian infantry tribes", Attribute: "light infantry +2\" movement", MoveClass: LightInfantry, MoveBonus: 2},
	{Key: "carthaginian", Name: "Carthaginian", Attribute: "elephants +1 armor", ArmorClass: Elephant, ArmorBonus: 1},
	{Key: "choson", Name: "Choson", Attribute: "sword infantry +1 armor", ArmorClass: HeavyInfantry, ArmorBonus: 1, ArmorSwords: true},
	{Key: "egyptian", Name: "Egyptian", Attribute: "chariots +1 armor", ArmorClass: Chariot, ArmorBonus: 1},
	{Key: "greek", Name: "Greek", Attribute: "phalanx +3\" movement", MoveClass: Phalanx, MoveBonus: 3},
	{Key: "hittite", Name: "Hittite", Attribute: "archers +1 to hit", HitBonus: 1},
	{Key: "macedonian", Name: "Macedonian", Attribute: "phalanx and legion +2 armor against missiles", ArmorClass: Phalanx, ArmorBonus: 2, ArmorMissile: true},
	{Key: "minoan", Name: "Minoan", Attribute: "composite bows +2\" range", RangeBonus: 2, RangeComposite: true},
	{Key: "palmyran", Name: "Palmyran", Attribute: "camelry +3\" movement", MoveClass: Camelry, MoveBonus: 3},
	{Key: "persian", Name: "Persian", Attribute: "elephants +2\" movement", MoveClass: Elephant, MoveBonus: 2},
	{Key: "phoenician", Name: "Phoenician", Attribute: "+1\" on every missile range", RangeBonus: 1},
	{Key: "roman", Name: "Roman", Attribute: "+2 melee bonus dice for legions and sword infantry", BonusClasses: []Class{Legion}, BonusSwords: true, BonusDice: 2},
	{Key: "shang", Name: "Shang", Attribute: "walls have double damage value", DoubleWalls: true},
	{Key: "sumerian", Name: "Sumerian", Attribute: "siege weapons reload one turn sooner", FastReload: true},
	{Key: "yamato", Name: "Yamato", Attribute: "+2 melee bonus dice for cavalry", BonusClasses: []Class{Cavalry, LightCavalry}, BonusDice: 2},
}

// Civs lists the 18 civilizations in the order of §8a.
func Civs() []Civ { return append([]Civ(nil), civs...) }

// CivByKey finds a civilization by its key.
func CivByKey(key string) (Civ, bool) {
	for _, c := range civs {
		if c.Key == key {
			return c, true
		}
	}
	return Civ{}, false
}

// Move is the class's move over the terrain with the civilization's bonus,
// which is added before a charge doubles the distance (RULINGS.md, btg).
// A class that cannot enter the terrain still cannot.
func (cv Civ) Move(c Class, t Terrain) int {
	m := c.Move(t)
	if m == 0 {
		return 0
	}
	if cv.MoveBonus != 0 && cv.MoveClass == c {
		m += cv.MoveBonus
	}
	return m
}

// ExtraArmor is the armor the civilization adds to a unit of the class and
// weapon, against missiles or in melee.
func (cv Civ) ExtraArmor(c Class, w Weapon, missile bool) int {
	if cv.ArmorBonus == 0 || (cv.ArmorMissile && !missile) {
		return 0
	}
	switch {
	case cv.ArmorSwords:
		if w == Sword && (c == HeavyInfantry || c == LightInfantry) {
			return cv.ArmorBonus
		}
	case cv.ArmorMissile:
		// Macedonian: phalanx and legion alike.
		if c == Phalanx || c == Legion {
			return cv.ArmorBonus
		}
	case cv.ArmorClass == c:
		return cv.ArmorBonus
	}
	return 0
}

// ExtraBonusDice is the melee bonus dice the civilization adds to a unit.
func (cv Civ) ExtraBonusDice(c Class, w Weapon) int {
	if cv.BonusDice == 0 {
		return 0
	}
	if cv.BonusAll {
		// The Assyrians' "melee units": those armed to fight hand to
		// hand, not missile troops or siege crews (RULINGS.md, btg).
		if w.Missile() || w == Engine {
			return 0
		}
		return cv.BonusDice
	}
	if cv.BonusSwords && w == Sword && (c == HeavyInfantry || c == LightInfantry) {
		return cv.BonusDice
	}
	for _, b := range cv.BonusClasses {
		if b == c {
			return cv.BonusDice
		}
	}
	return 0
}

// Range is the weapon's short and long range ends in inches with the
// civilization's bonus.
func (cv Civ) Range(w Weapon) (short, long int) {
	wi := weapons[w]
	if !wi.missile {
		return 0, 0
	}
	b := cv.RangeBonus
	if cv.RangeComposite && w != CompositeBow {
		b = 0
	}
	return wi.short + b, wi.long + b
}
