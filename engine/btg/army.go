package btg

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Limits of a unit list (RULINGS.md, btg, "figures on a chat board").
const (
	MaxUnitsPerLine = 40 // units in one army
	MinFigures      = 2
	MaxFigures      = 32
)

// UnitSpec is one line item of an army: how many units of a class, weapon
// and figure count.
type UnitSpec struct {
	Count   int
	Class   Class
	Weapon  Weapon
	Figures int
	Armor   int // armor value (2.J): the class's unless the item gives one
}

// MaxLeaders is the most minor leaders an army may have.
const MaxLeaders = 8

// DefaultArmor is a class's armor value when a unit list gives none: the
// text has no armor table (RULINGS.md, btg, "armor"). Heavy foot and
// horse, chariots and elephants have 1; light troops, camelry and siege
// crews none.
func (c Class) DefaultArmor() int {
	switch c {
	case HeavyInfantry, Phalanx, Legion, Templar, Cavalry, Chariot, Elephant:
		return 1
	}
	return 0
}

func classByKey(key string) (Class, bool) {
	for c, ci := range classes {
		if ci.key == key {
			return c, true
		}
	}
	return 0, false
}

func weaponByKey(key string) (Weapon, bool) {
	for w, wi := range weapons {
		if wi.key == key {
			return w, true
		}
	}
	return 0, false
}

func classKeys() string {
	var ks []string
	for c := LightInfantry; c <= Helepolis; c++ {
		ks = append(ks, c.Key())
	}
	return strings.Join(ks, ", ")
}

func weaponKeys(ws []Weapon) string {
	var ks []string
	for _, w := range ws {
		ks = append(ks, w.Key())
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// ParseUnits reads a unit list typed in one line (see ParseArmy); leaders
// are not units and are refused here.
func ParseUnits(line string) ([]UnitSpec, error) {
	units, leaders, err := ParseArmy(line)
	if err == nil && leaders > 0 {
		err = fmt.Errorf("this list is of units only; leaders are raised with the army")
	}
	return units, err
}

// ParseArmy reads an army typed in one line, items separated by commas:
// units "COUNT CLASS WEAPON FIGURES", optionally followed by "armor N", and
// minor leaders "N leaders", e.g. "4 phalanx spear 16, 2 lt-cav javelin 8
// armor 1, 2 leaders". Every mistake gets an answer naming the item and
// what is wrong.
func ParseArmy(line string) (units []UnitSpec, leaders int, err error) {
	if strings.TrimSpace(line) == "" {
		return nil, 0, fmt.Errorf("the unit list is empty: give items like \"4 phalanx spear 16, 2 lt-cav javelin 8\"")
	}
	total := 0
	for i, item := range strings.Split(line, ",") {
		n := i + 1
		f := strings.Fields(strings.ToLower(item))
		if len(f) == 0 {
			return nil, 0, fmt.Errorf("item %d is empty: remove the extra comma", n)
		}
		if len(f) == 2 && (f[1] == "leader" || f[1] == "leaders") {
			k, err := strconv.Atoi(f[0])
			if err != nil || k < 0 {
				return nil, 0, fmt.Errorf("item %d: %q is not a number of leaders", n, f[0])
			}
			leaders += k
			if leaders > MaxLeaders {
				return nil, 0, fmt.Errorf("item %d: an army has at most %d minor leaders besides its general", n, MaxLeaders)
			}
			continue
		}
		armor := -1
		if len(f) == 6 && (f[4] == "armor" || f[4] == "armour") {
			a, err := strconv.Atoi(f[5])
			if err != nil || a < 0 || a > 5 {
				return nil, 0, fmt.Errorf("item %d: armor is a number from 0 to 5, not %q", n, f[5])
			}
			armor, f = a, f[:4]
		}
		if len(f) != 4 {
			return nil, 0, fmt.Errorf("item %d %q needs four words: count, class, weapon, figures (e.g. \"4 phalanx spear 16\"), and may end with armor and a number", n, strings.TrimSpace(item))
		}
		count, err := strconv.Atoi(f[0])
		if err != nil || count < 1 {
			return nil, 0, fmt.Errorf("item %d: %q is not a number of units (1 or more)", n, f[0])
		}
		c, ok := classByKey(f[1])
		if !ok {
			return nil, 0, fmt.Errorf("item %d: no troop class %q; the classes are %s", n, f[1], classKeys())
		}
		w, ok := weaponByKey(f[2])
		if !ok {
			return nil, 0, fmt.Errorf("item %d: no weapon %q; %s may carry %s", n, f[2], c, weaponKeys(classes[c].weapons))
		}
		allowed := false
		for _, a := range classes[c].weapons {
			allowed = allowed || a == w
		}
		if !allowed {
			return nil, 0, fmt.Errorf("item %d: %s cannot carry %s; they may carry %s", n, c, w.Key(), weaponKeys(classes[c].weapons))
		}
		figs, err := strconv.Atoi(f[3])
		if err != nil {
			return nil, 0, fmt.Errorf("item %d: %q is not a number of figures", n, f[3])
		}
		if figs < MinFigures || figs > MaxFigures {
			return nil, 0, fmt.Errorf("item %d: a unit has %d to %d figures, not %d", n, MinFigures, MaxFigures, figs)
		}
		total += count
		if total > MaxUnitsPerLine {
			return nil, 0, fmt.Errorf("item %d: an army has at most %d units; this list has %d so far", n, MaxUnitsPerLine, total)
		}
		if armor < 0 {
			armor = c.DefaultArmor()
		}
		units = append(units, UnitSpec{Count: count, Class: c, Weapon: w, Figures: figs, Armor: armor})
	}
	if len(units) == 0 {
		return nil, 0, fmt.Errorf("the list has leaders but no units")
	}
	return units, leaders, nil
}

// SampleArmy is a ready army a club can raise at once.
type SampleArmy struct {
	Name  string
	Civ   string
	Units string
}

// SampleArmies lists a few ready armies from the civilizations of §8a.
var SampleArmies = []SampleArmy{
	{"Greek hoplites", "greek", "4 phalanx spear 16, 2 lt-inf javelin 8, 1 lt-cav javelin 8, 1 leader"},
	{"Roman legion", "roman", "4 legion sword 16, 2 lt-inf javelin 8, 1 cav spear 8, 1 leader"},
	{"Carthaginian host", "carthaginian", "2 elephant tusks 2, 3 hvy-inf spear 12, 2 lt-inf sling 8, 2 cav spear 8, 1 leader"},
	{"Egyptian chariotry", "egyptian", "3 chariot bow 4, 3 hvy-inf axe 12, 2 lt-inf bow 8, 1 leader"},
	{"Persian empire", "persian", "1 elephant tusks 2, 2 hvy-inf spear 12, 3 lt-inf bow 10, 2 cav composite 8, 1 leader"},
	{"Assyrian siege train", "assyrian", "2 hvy-inf spear 12, 2 lt-inf bow 8, 1 chariot bow 4, 1 catapult engine 4, 1 hvy-catapult engine 6, 1 leader"},
}

// civAliases name peoples the text does not list with the listed
// civilization nearest them (§8a, last line; RULINGS.md, btg).
var civAliases = map[string]string{
	"spartan": "greek", "athenian": "greek", "theban": "greek", "hoplite": "greek",
	"seleucid": "macedonian", "ptolemaic": "macedonian", "successor": "macedonian", "thracian": "barbarian-inf",
	"gaul": "barbarian-inf", "gallic": "barbarian-inf", "celt": "barbarian-inf", "celtic": "barbarian-inf", "german": "barbarian-inf", "briton": "barbarian-inf", "dacian": "barbarian-inf",
	"hun": "barbarian-cav", "scythian": "barbarian-cav", "sarmatian": "barbarian-cav", "parthian": "barbarian-cav", "mongol": "barbarian-cav", "numidian": "barbarian-cav",
	"indian": "persian", "mauryan": "persian", "achaemenid": "persian", "sassanid": "persian",
	"chinese": "shang", "zhou": "shang", "qin": "shang", "han": "shang",
	"japanese": "yamato", "korean": "choson", "goguryeo": "choson",
	"akkadian": "sumerian", "ur": "sumerian", "hebrew": "phoenician", "israelite": "phoenician", "tyrian": "phoenician",
	"arab": "palmyran", "nabataean": "palmyran", "bedouin": "palmyran",
	"cretan": "minoan", "mycenaean": "greek", "nubian": "egyptian", "kushite": "egyptian", "libyan": "carthaginian", "numidian-foot": "carthaginian",
	"etruscan": "roman", "samnite": "roman", "latin": "roman", "byzantine": "roman",
	"median": "assyrian", "elamite": "babylonian", "chaldean": "babylonian", "mitanni": "hittite", "hurrian": "hittite",
}

// FindCiv finds a civilization by key, name, or a people the text does
// not list (returned as alias, with the civilization it is nearest).
func FindCiv(name string) (cv Civ, alias string, err error) {
	k := strings.ToLower(strings.TrimSpace(name))
	if k == "" {
		return Civ{}, "", fmt.Errorf("give the army's civilization: %s", civKeys())
	}
	for _, c := range civs {
		if c.Key == k || strings.EqualFold(c.Name, k) {
			return c, "", nil
		}
	}
	for _, try := range []string{k, strings.TrimSuffix(k, "s"), strings.TrimSuffix(k, "ns") + "n"} {
		if key, ok := civAliases[try]; ok {
			c, _ := CivByKey(key)
			return c, name, nil
		}
	}
	return Civ{}, "", fmt.Errorf("no civilization %q: choose the nearest of %s", name, civKeys())
}

func civKeys() string {
	var ks []string
	for _, c := range civs {
		ks = append(ks, c.Key)
	}
	return strings.Join(ks, ", ")
}
