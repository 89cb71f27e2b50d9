package sweet

import (
	"fmt"
	"strings"
)

// Type is a troop type of the unit table (section "Unit type" of the
// rules, after the turn sequence). The zero Type is no type.
type Type uint8

const (
	NoType Type = iota
	LightInfantry
	Velites
	Peltasts
	HeavyInfantry
	Legionaries
	Phalangites
	Hypaspists
	AssyrianArchers // Assyrian heavy (foot) archers
	IndianArchers   // Indian medium archers
	LightCavalry
	Numidians
	HeavyCavalry
	Companions
	MountedArchers // Assyrian heavy mounted archers
	Chariots
	LightChariots // Egyptian or Assyrian light chariots
	HeavyChariots // Assyrian heavy chariots
	Elephants
	ShootingElephants // Carthaginian or Indian elephants, with a firing range
	LightCatapult
	HorseCrew
	HeavyCatapult
	FootCrew
	Commander
	SubCommander
	numTypes
)

// Support is a unit's support type (Charging and Melee 3).
type Support uint8

const (
	NoSupport Support = iota // catapults: they do not fight
	SupportA                 // heavy troops, chariots, elephants
	SupportB                 // light troops
	SupportC                 // commanders
	SupportD                 // catapult crews
)

func (s Support) String() string { return [...]string{"-", "A", "B", "C", "D"}[s] }

// Family groups the types the way the rules speak of them: foot, mounted
// (cavalry, chariots, elephants), crews, catapults and commanders.
type Family uint8

const (
	Foot Family = iota
	Mounted
	Crew
	Engine
	Leader
)

// TargetClass is a row of the missile table (Missile Fire 5).
type TargetClass uint8

const (
	TargetLight      TargetClass = iota // light infantry, foot crews
	TargetHeavyFoot                     // heavy infantry, light cavalry, horse crews
	TargetHeavyHorse                    // heavy cavalry
	TargetBig                           // chariots, elephants (and, by our ruling, catapults)
	TargetLeader                        // commanders
)

// spec is one row of the unit table. Values are per stand; Charge is the
// higher value of a chariot or elephant that charges into the contact
// square (Charging and Melee 5), 0 when there is none.
type spec struct {
	Code    string  // what players type and the board shows
	Name    string  // the row's name
	Move    int     // squares
	Melee   float64 // per stand
	Charge  float64
	Range   float64 // squares; 0 for none
	Support Support
	Points  int // per stand, by our ruling
	Stands  int
	Family  Family
	Target  TargetClass
	// Standard marks the bold standard types that the single-stand
	// morale rule binds (Morale 1).
	Standard bool
}

var specs = [numTypes]spec{
	LightInfantry:     {"LI", "light infantry", 3, 0.5, 0, 3, SupportB, 3, 3, Foot, TargetLight, false},
	Velites:           {"VEL", "Roman velites", 3, 1, 0, 2, SupportB, 3, 3, Foot, TargetLight, false},
	Peltasts:          {"PEL", "Macedonian peltasts", 3, 0.75, 0, 2, SupportB, 3, 3, Foot, TargetLight, false},
	HeavyInfantry:     {"HI", "heavy infantry", 2, 1, 0, 0, SupportA, 3, 4, Foot, TargetHeavyFoot, true},
	Legionaries:       {"LEG", "Roman legionaries", 2, 1.5, 0, 1.5, SupportA, 4, 4, Foot, TargetHeavyFoot, false},
	Phalangites:       {"PHA", "Macedonian phalangites", 2, 1.5, 0, 0, SupportA, 3, 4, Foot, TargetHeavyFoot, false},
	Hypaspists:        {"HYP", "Macedonian hypaspists", 3, 1, 0, 0, SupportA, 4, 4, Foot, TargetHeavyFoot, false},
	AssyrianArchers:   {"AHA", "Assyrian heavy archers", 2, 1, 0, 3, SupportA, 4, 3, Foot, TargetHeavyFoot, false},
	IndianArchers:     {"IMA", "Indian medium archers", 2, 1, 0, 3, SupportA, 4, 4, Foot, TargetLight, false},
	LightCavalry:      {"LC", "light cavalry", 5, 0.5, 0, 2.5, SupportB, 5, 3, Mounted, TargetHeavyFoot, true},
	Numidians:         {"NLC", "Numidian light cavalry", 6, 0.75, 0, 3, SupportB, 6, 3, Mounted, TargetHeavyFoot, false},
	HeavyCavalry:      {"HC", "heavy cavalry", 4, 1, 0, 0, SupportA, 5, 4, Mounted, TargetHeavyHorse, true},
	Companions:        {"COM", "Macedonian companions", 4, 1.5, 0, 0, SupportA, 6, 4, Mounted, TargetHeavyHorse, false},
	MountedArchers:    {"AMA", "Assyrian heavy mounted archers", 4, 1, 0, 3, SupportB, 6, 3, Mounted, TargetHeavyHorse, false},
	Chariots:          {"CH", "chariots", 4, 2, 3, 0, SupportA, 10, 1, Mounted, TargetBig, false},
	LightChariots:     {"LCH", "light chariots", 5, 2, 3, 3, SupportB, 9, 2, Mounted, TargetBig, false},
	HeavyChariots:     {"HCH", "Assyrian heavy chariots", 4, 3, 0, 3, SupportA, 12, 1, Mounted, TargetBig, false},
	Elephants:         {"EL", "elephants", 4, 2, 4, 0, SupportA, 10, 1, Mounted, TargetBig, false},
	ShootingElephants: {"SEL", "Carthaginian or Indian elephants", 4, 2, 4, 3, SupportA, 10, 1, Mounted, TargetBig, false},
	LightCatapult:     {"LCAT", "light catapult", 3, 0, 0, 4, NoSupport, 6, 1, Engine, TargetBig, false},
	HorseCrew:         {"HCR", "horse crew", 3, 1, 0, 0, SupportD, 3, 1, Crew, TargetHeavyFoot, false},
	HeavyCatapult:     {"HCAT", "heavy catapult", 2, 0, 0, 6, NoSupport, 8, 1, Engine, TargetBig, false},
	FootCrew:          {"FCR", "foot crew", 2, 0.5, 0, 0, SupportD, 2, 2, Crew, TargetLight, false},
	Commander:         {"CMD", "commander", 2, 2, 0, 0, SupportC, 10, 1, Leader, TargetLeader, false},
	SubCommander:      {"SUB", "sub-commander", 3, 1.5, 0, 0, SupportC, 5, 1, Leader, TargetLeader, false},
}

func (t Type) spec() spec {
	if t <= NoType || t >= numTypes {
		return spec{}
	}
	return specs[t]
}

// Valid reports whether t is a troop type of the table.
func (t Type) Valid() bool { return t > NoType && t < numTypes }

// String is the type's code ("HI").
func (t Type) String() string {
	if !t.Valid() {
		return fmt.Sprintf("Type(%d)", t)
	}
	return specs[t].Code
}

// Name is the type's name in narration ("heavy infantry").
func (t Type) Name() string { return t.spec().Name }

// MarshalText writes the type's code.
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a type's code.
func (t *Type) UnmarshalText(b []byte) error {
	v, ok := parseType(string(b))
	if !ok {
		return fmt.Errorf("sweet: %q is not a troop type", b)
	}
	*t = v
	return nil
}

func parseType(s string) (Type, bool) {
	s = strings.TrimSpace(s)
	for t := Type(1); t < numTypes; t++ {
		if strings.EqualFold(specs[t].Code, s) || strings.EqualFold(specs[t].Name, s) {
			return t, true
		}
	}
	return NoType, false
}

// typeList lists the codes and names of every type, for refusals and help.
func typeList() string {
	var parts []string
	for t := Type(1); t < numTypes; t++ {
		parts = append(parts, fmt.Sprintf("%s (%s)", specs[t].Code, specs[t].Name))
	}
	return strings.Join(parts, ", ")
}

// IsCatapult reports whether t is a catapult: a model that shoots but
// neither fights nor supports, moved by a stand in its square (Movement 5).
func (t Type) IsCatapult() bool { return t == LightCatapult || t == HeavyCatapult }

// IsLeader reports whether t is a commander or sub-commander.
func (t Type) IsLeader() bool { return t == Commander || t == SubCommander }

// Sharer reports whether a unit of type t may share a square with a
// friendly unit (Movement 2): commanders and catapults.
func (t Type) Sharer() bool { return t.IsLeader() || t.IsCatapult() }

// Mounted reports whether t is cavalry, chariots or elephants.
func (t Type) Mounted() bool { return t.spec().Family == Mounted }

// Cavalry reports whether t is cavalry (horse, not chariots or elephants).
func (t Type) Cavalry() bool {
	switch t {
	case LightCavalry, Numidians, HeavyCavalry, Companions, MountedArchers:
		return true
	}
	return false
}

// Elephant reports whether t is an elephant.
func (t Type) Elephant() bool { return t == Elephants || t == ShootingElephants }

// FootOrCrew reports whether t is infantry or a catapult crew: what
// mounted troops may support only from the side (Charging and Melee 4).
func (t Type) FootOrCrew() bool { f := t.spec().Family; return f == Foot || f == Crew }
