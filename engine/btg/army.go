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
	for c := LightInfantry; c <= Elephant; c++ {
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

// ParseUnits reads a unit list typed in one line, items separated by commas,
// each "COUNT CLASS WEAPON FIGURES", e.g. "4 phalanx spear 16, 2 lt-cav
// javelin 8". Every mistake gets an answer naming the item and what is wrong.
func ParseUnits(line string) ([]UnitSpec, error) {
	if strings.TrimSpace(line) == "" {
		return nil, fmt.Errorf("the unit list is empty: give items like \"4 phalanx spear 16, 2 lt-cav javelin 8\"")
	}
	var out []UnitSpec
	total := 0
	for i, item := range strings.Split(line, ",") {
		n := i + 1
		f := strings.Fields(strings.ToLower(item))
		if len(f) == 0 {
			return nil, fmt.Errorf("item %d is empty: remove the extra comma", n)
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("item %d %q needs four words: count, class, weapon, figures (e.g. \"4 phalanx spear 16\")", n, strings.TrimSpace(item))
		}
		count, err := strconv.Atoi(f[0])
		if err != nil || count < 1 {
			return nil, fmt.Errorf("item %d: %q is not a number of units (1 or more)", n, f[0])
		}
		c, ok := classByKey(f[1])
		if !ok {
			return nil, fmt.Errorf("item %d: no troop class %q; the classes are %s", n, f[1], classKeys())
		}
		w, ok := weaponByKey(f[2])
		if !ok {
			return nil, fmt.Errorf("item %d: no weapon %q; %s may carry %s", n, f[2], c, weaponKeys(classes[c].weapons))
		}
		allowed := false
		for _, a := range classes[c].weapons {
			allowed = allowed || a == w
		}
		if !allowed {
			return nil, fmt.Errorf("item %d: %s cannot carry %s; they may carry %s", n, c, w.Key(), weaponKeys(classes[c].weapons))
		}
		figs, err := strconv.Atoi(f[3])
		if err != nil {
			return nil, fmt.Errorf("item %d: %q is not a number of figures", n, f[3])
		}
		if figs < MinFigures || figs > MaxFigures {
			return nil, fmt.Errorf("item %d: a unit has %d to %d figures, not %d", n, MinFigures, MaxFigures, figs)
		}
		total += count
		if total > MaxUnitsPerLine {
			return nil, fmt.Errorf("item %d: an army has at most %d units; this list has %d so far", n, MaxUnitsPerLine, total)
		}
		out = append(out, UnitSpec{Count: count, Class: c, Weapon: w, Figures: figs})
	}
	return out, nil
}

// SampleArmy is a ready army a club can raise at once.
type SampleArmy struct {
	Name  string
	Civ   string
	Units string
}

// SampleArmies lists a few ready armies from the civilizations of §8a.
var SampleArmies = []SampleArmy{
	{"Greek hoplites", "greek", "4 phalanx spear 16, 2 lt-inf javelin 8, 1 lt-cav javelin 8"},
	{"Roman legion", "roman", "4 legion sword 16, 2 lt-inf javelin 8, 1 cav spear 8"},
	{"Carthaginian host", "carthaginian", "2 elephant tusks 2, 3 hvy-inf spear 12, 2 lt-inf sling 8, 2 cav spear 8"},
	{"Egyptian chariotry", "egyptian", "3 chariot bow 4, 3 hvy-inf axe 12, 2 lt-inf bow 8"},
	{"Persian empire", "persian", "1 elephant tusks 2, 2 hvy-inf spear 12, 3 lt-inf bow 10, 2 cav composite 8"},
}
