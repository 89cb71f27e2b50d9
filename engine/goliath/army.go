package goliath

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Raising an army from a list typed in one line: items COUNT TYPE, with
// missiles bought for cavalry ("+bow") and a hero's armour and mount
// ("hero heavy horse"), each item one unit (Troop Types, Point Cost).

// maxFigures bounds a unit, so that a typo cannot raise ten thousand.
const maxFigures = 200

// ParseUnits reads a unit list against the roster and the referee's own
// types. Each item becomes one unit's profile and figures; the points are
// the list's total. A mistake is refused naming the item.
func ParseUnits(custom []Type, list string) ([]Profile, []int, float64, error) {
	var profs []Profile
	var counts []int
	total := 0.0
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		p, n, err := parseItem(custom, item)
		if err != nil {
			return nil, nil, 0, err
		}
		profs, counts = append(profs, p), append(counts, n)
		total += p.Pts * float64(n)
	}
	if len(profs) == 0 {
		return nil, nil, 0, engine.Refuse("Troop Types", "The list has no units: write items like \"30 light infantry, 12 heavy cavalry+bow, 1 hero\".")
	}
	if len(profs) > 26 {
		return nil, nil, 0, engine.Refuse("", "An army may have at most 26 units; this list has %d.", len(profs))
	}
	return profs, counts, total, nil
}

func parseItem(custom []Type, item string) (Profile, int, error) {
	words := strings.Fields(strings.ToLower(item))
	n, err := strconv.Atoi(words[0])
	if err != nil || n < 1 || n > maxFigures {
		return Profile{}, 0, engine.Refuse("Troop Types", "%q must begin with how many figures, 1 to %d.", item, maxFigures)
	}
	words = words[1:]
	// Bought missiles are written "+bow", as a word or joined to the type.
	var missile string
	var rest []string
	for _, w := range words {
		if i := strings.Index(w, "+"); i >= 0 {
			if missile != "" {
				return Profile{}, 0, engine.Refuse("Missile Fire", "%q buys missiles twice.", item)
			}
			missile = w[i+1:]
			if w = w[:i]; w == "" {
				continue
			}
		}
		rest = append(rest, w)
	}
	// The longest run of words that names a type.
	var t Type
	found := 0
	for k := len(rest); k > 0; k-- {
		if tt, ok := findType(custom, strings.Join(rest[:k], " ")); ok {
			t, found = tt, k
			break
		}
	}
	if found == 0 {
		return Profile{}, 0, engine.Refuse("Troop Types", "%q names no troop type; the types are %s, and any the referee defined.", item, strings.Join(typeNames(), ", "))
	}
	p := t.Profile
	p.SA = append([]Ability(nil), p.SA...)
	armor, cavalry, chose := Medium, false, false
	for _, w := range rest[found:] {
		switch w {
		case "light", "medium", "heavy":
			armor, chose = map[string]Armor{"light": Light, "medium": Medium, "heavy": Heavy}[w], true
		case "foot", "infantry":
			cavalry, chose = false, true
		case "horse", "mounted", "cavalry":
			cavalry, chose = true, true
		default:
			return Profile{}, 0, engine.Refuse("Troop Types", "In %q, %q means nothing: after the type come +bow, +crossbow or +longbow for cavalry, and light, medium or heavy with foot or horse for a hero, ranger or super hero.", item, w)
		}
	}
	if chose && !t.Star {
		return Profile{}, 0, engine.Refuse("Troop Types", "In %q: only heroes, rangers and super heroes choose their armour and mount; %s have theirs.", item, t.Name)
	}
	if t.Star {
		p.DR = rate(armor, cavalry)
		// A ranger's AR is a rung above what he wears, past HC on heavy
		// horse: each rung above HC is +1 on each die (Troop Types "*+1";
		// Figures, item 4).
		p.AR = p.DR + Rating(t.Step)
		p.Name += fmt.Sprintf(" (%s)", p.DR)
	}
	if missile != "" {
		if !t.Mounts {
			return Profile{}, 0, engine.Refuse("Troop Types", "In %q: only the cavalry types (light, medium and heavy cavalry) may buy missiles.", item)
		}
		ok := false
		for _, pr := range projectiles {
			if pr.weapon.String() == missile {
				p.Weapon, p.Mss, p.Pts, ok = pr.weapon, pr.rng, p.Pts+pr.pts, true
			}
		}
		if !ok {
			return Profile{}, 0, engine.Refuse("Missile Fire", "In %q: cavalry may buy a bow, crossbow or longbow, not %q.", item, missile)
		}
		p.Name += " with " + missile + "s"
	}
	return p, n, nil
}

// sample armies a table may take without typing a list.
var samples = []struct {
	key, name, tag, units string
}{
	{"kingdom", "the Kingdom of Men", "KIN", "20 heavy infantry, 20 medium infantry, 16 longbowmen, 12 heavy cavalry, 12 light cavalry+bow, 1 hero heavy horse"},
	{"horde", "the Orc Horde", "ORC", "30 orcs, 20 giant-orcs, 16 goblins, 6 orogs, 2 trolls, 1 ogres"},
	{"elves", "the Elven Host", "ELF", "24 elves, 16 elves, 12 medium cavalry+bow, 1 ranger medium foot, 1 wizards"},
	{"dead", "the Restless Dead", "DED", "30 skeletons, 20 zombies, 8 ghouls, 10 wights, 3 wraiths"},
	{"dwarves", "the Dwarf Holds", "DWA", "24 dwarves, 24 dwarves, 12 heavy-crossbowmen, 12 crossbowmen, 1 super-hero heavy foot"},
}

func sampleKeys() []string {
	out := make([]string, len(samples))
	for i, s := range samples {
		out[i] = s.key
	}
	return out
}

// parseCustom reads a type the referee defines.
func parseCustom(c engine.Command) (Type, error) {
	name := strings.TrimSpace(c.Opt("name"))
	if name == "" || len(name) > 40 {
		return Type{}, engine.Refuse("", "name: must be 1 to 40 characters.")
	}
	t := Type{Profile: Profile{Type: typeKey(name), Name: name}}
	var ok bool
	if t.AR, ok = parseRating(c.Opt("ar")); !ok {
		return Type{}, engine.Refuse("Figures", "ar: is one of LI, MI, HI, LC, MC, HC.")
	}
	if t.DR, ok = parseRating(c.Opt("dr")); !ok {
		return Type{}, engine.Refuse("Figures", "dr: is one of LI, MI, HI, LC, MC, HC.")
	}
	ints := []struct {
		name     string
		to       *int
		def      int
		min, max int
	}{{"ht", &t.HT, 1, 1, 50}, {"mr", &t.MR, 0, -4, 4}}
	for _, f := range ints {
		v, err := c.Int(f.name, f.def)
		if err != nil {
			return Type{}, err
		}
		if v < f.min || v > f.max {
			return Type{}, engine.Refuse("Figures", "%s: must be %d to %d.", f.name, f.min, f.max)
		}
		*f.to = v
	}
	floats := []struct {
		name string
		to   *float64
		max  float64
	}{{"mv", &t.MV, 48}, {"chg", &t.Chg, 60}, {"fly", &t.Fly, 72}, {"mss", &t.Mss, 48}, {"pts", &t.Pts, 1000}}
	for _, f := range floats {
		if !c.Has(f.name) {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(c.Opt(f.name)), "\""), 64)
		if err != nil || v < 0 || v > f.max {
			return Type{}, engine.Refuse("Figures", "%s: must be a number from 0 to %s.", f.name, engine.Decimal(f.max))
		}
		*f.to = v
	}
	if t.MV <= 0 {
		return Type{}, engine.Refuse("Figures", "mv: the type's move in inches is needed.")
	}
	if t.Mss > 0 {
		w, ok := parseWeapon(c.Opt("weapon"))
		if !ok || w == NoWeapon {
			return Type{}, engine.Refuse("Missile Fire", "A type with a missile range needs weapon: bow, longbow, crossbow, heavy-crossbow or thrown.")
		}
		t.Weapon = w
	}
	for _, a := range strings.FieldsFunc(c.Opt("sa"), func(r rune) bool { return r == ',' || r == ' ' }) {
		ab := Ability(strings.ToLower(a))
		if _, ok := abilityNames[ab]; !ok {
			return Type{}, engine.Refuse("Special Abilities", "sa: %q is not a special ability; they are 1 to 12, with 7a and 7b.", a)
		}
		t.SA = append(t.SA, ab)
	}
	t.Large = c.Opt("size") == "large"
	t.Breath = t.Has(CastsFire) && t.Mss == 0
	return t, nil
}

// describeType writes a type's line of characteristics.
func describeType(p Profile) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: AR %s, DR %s, HT %d, MR %s, MV %s", p.Name, p.AR, p.DR, p.HT, signed(p.MR), inches(p.MV))
	if p.Chg > 0 {
		fmt.Fprintf(&b, ", Chg %s", inches(p.Chg))
	}
	if p.Fly > 0 {
		fmt.Fprintf(&b, ", Fly %s", inches(p.Fly))
	}
	switch {
	case p.Wizard:
		fmt.Fprintf(&b, ", Mss %s (bolts and fireballs)", inches(p.Mss))
	case p.Mss > 0:
		fmt.Fprintf(&b, ", Mss %s (%s)", inches(p.Mss), p.Weapon)
	}
	if len(p.SA) > 0 {
		var sa []string
		for _, a := range p.SA {
			sa = append(sa, fmt.Sprintf("%s (%s)", a, abilityNames[a]))
		}
		fmt.Fprintf(&b, ", SA %s", strings.Join(sa, ", "))
	}
	fmt.Fprintf(&b, ", %s %s", engine.Decimal(p.Pts), map[bool]string{true: "pt", false: "pts"}[p.Pts == 1])
	return b.String()
}
