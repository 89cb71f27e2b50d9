package sweet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The seven sample armies (Sample Army Compositions). Each catapult comes
// with its crew, a foot crew for a heavy catapult and a horse crew for a
// light one (our ruling: the lists name the engines only). The lists give
// each army about 200 points; counted by the table at so many points a
// stand, they come out a little different, and the book says what each
// really costs.

// entry is a line of an army list: so many units of a type.
type entry struct {
	N     int
	Type  Type
	Guard bool
}

// sampleList is one of the seven lists.
type sampleList struct {
	Key     string // what players type
	Name    string // the army's name
	Tag     string
	Entries []entry
}

var sampleLists = []sampleList{
	{"egyptian", "Egyptians", "EGY", []entry{
		{1, Commander, false}, {5, HeavyInfantry, false}, {1, HeavyInfantry, true}, {4, LightInfantry, false},
		{1, HeavyCavalry, false}, {3, SubCommander, false}, {4, LightChariots, false},
	}},
	{"assyrian", "Assyrians", "ASY", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {3, HeavyInfantry, false}, {2, AssyrianArchers, false},
		{1, HeavyCavalry, false}, {3, MountedArchers, false}, {1, LightChariots, false}, {2, HeavyChariots, false},
	}},
	{"macedonian", "Macedonians", "MAC", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {1, LightCatapult, false}, {2, LightInfantry, false},
		{2, Peltasts, false}, {4, Phalangites, false}, {1, Hypaspists, false}, {2, Companions, false},
	}},
	{"indian", "Indians", "IND", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {1, LightCatapult, false}, {2, LightInfantry, false},
		{2, HeavyInfantry, false}, {3, IndianArchers, false}, {4, ShootingElephants, false}, {2, HeavyChariots, false},
		{1, HeavyCavalry, false},
	}},
	{"roman", "Romans", "ROM", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {1, LightCatapult, false}, {2, LightInfantry, false},
		{1, Velites, false}, {1, HeavyInfantry, false}, {4, Legionaries, false}, {2, LightCavalry, false},
		{1, HeavyCavalry, false},
	}},
	{"carthaginian", "Carthaginians", "CAR", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {1, LightCatapult, false}, {2, LightInfantry, false},
		{4, HeavyInfantry, false}, {3, ShootingElephants, false}, {2, HeavyCavalry, false}, {2, Numidians, false},
	}},
	{"generic", "Ancients", "ANC", []entry{
		{1, Commander, false}, {1, HeavyCatapult, false}, {1, LightCatapult, false}, {3, LightInfantry, false},
		{4, HeavyInfantry, false}, {1, HeavyInfantry, true}, {2, LightCavalry, false}, {2, HeavyCavalry, false},
		{1, SubCommander, false}, {1, HorseCrew, false},
	}},
}

func listKeys() []string {
	keys := make([]string, len(sampleLists))
	for i, l := range sampleLists {
		keys[i] = l.Key
	}
	return keys
}

func findList(key string) (sampleList, bool) {
	i := slices.IndexFunc(sampleLists, func(l sampleList) bool { return strings.EqualFold(l.Key, key) })
	if i < 0 {
		return sampleList{}, false
	}
	return sampleLists[i], true
}

// withCrews adds each catapult's crew after it.
func withCrews(entries []entry) []entry {
	var out []entry
	for _, e := range entries {
		out = append(out, e)
		switch e.Type {
		case HeavyCatapult:
			out = append(out, entry{e.N, FootCrew, false})
		case LightCatapult:
			out = append(out, entry{e.N, HorseCrew, false})
		}
	}
	return out
}

// cost is what entries cost: each stand at its type's points.
func cost(entries []entry) int {
	n := 0
	for _, e := range entries {
		sp := e.Type.spec()
		n += e.N * sp.Stands * sp.Points
	}
	return n
}

// parseEntries reads an army built by hand: comma-separated lines of a
// count (1 when left out), a type code, and "guard" for guards, like
// "1 CMD, 4 HI, 1 HI guard, 3 LI".
func parseEntries(s string) ([]entry, error) {
	var out []entry
	for _, part := range strings.Split(s, ",") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		e := entry{N: 1}
		if n, err := strconv.Atoi(f[0]); err == nil {
			if n < 1 || n > 40 {
				return nil, fmt.Errorf("%q: a count is 1 to 40", strings.TrimSpace(part))
			}
			e.N = n
			f = f[1:]
		}
		if len(f) == 0 {
			return nil, fmt.Errorf("%q names no troop type", strings.TrimSpace(part))
		}
		t, ok := parseType(f[0])
		if !ok {
			return nil, fmt.Errorf("%q is not a troop type; the types are %s", f[0], typeList())
		}
		e.Type = t
		switch {
		case len(f) == 2 && strings.EqualFold(f[1], "guard"):
			e.Guard = true
		case len(f) > 1:
			return nil, fmt.Errorf("%q: after the type only \"guard\" may follow", strings.TrimSpace(part))
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the army has no units")
	}
	return out, nil
}

// units makes the units of entries for side, numbered after tag.
func units(entries []entry, side Side, tag string) []Unit {
	var out []Unit
	for _, e := range entries {
		for range e.N {
			sp := e.Type.spec()
			out = append(out, Unit{
				ID: UnitID(fmt.Sprintf("%s-%d", tag, len(out)+1)), Type: e.Type, Side: side,
				Stands: sp.Stands, Full: sp.Stands, Guard: e.Guard,
			})
		}
	}
	return out
}
