package sgboh

import (
	"fmt"
	"strings"
)

// Type is a unit's type, as the counters name them (SGBOH 4.2 groups
// units by type; the shock matrix of 8.6 cross-references them).
type Type uint8

// The unit types. HO (hoplites) and MI (medium infantry) and artillery
// (the oxybeles of 9.5) are outside the matrix; RULINGS.md says which
// line and column of it each uses.
const (
	NoType Type = iota
	PH          // phalanx
	HI          // heavy infantry (hypaspists, Cardaces)
	HO          // hoplites
	MI          // medium infantry
	LP          // light phalanx (peltasts)
	LI          // light infantry
	SK          // skirmishers
	HC          // heavy cavalry
	LN          // lancers
	LC          // light cavalry
	EL          // elephants
	CH          // chariots
	AR          // artillery (oxybeles)
)

var typeNames = [...]string{NoType: "", PH: "PH", HI: "HI", HO: "HO", MI: "MI", LP: "LP", LI: "LI", SK: "SK", HC: "HC", LN: "LN", LC: "LC", EL: "EL", CH: "CH", AR: "AR"}

var typeWords = [...]string{NoType: "", PH: "phalanx", HI: "heavy infantry", HO: "hoplites", MI: "medium infantry", LP: "light phalanx",
	LI: "light infantry", SK: "skirmishers", HC: "heavy cavalry", LN: "lancers", LC: "light cavalry", EL: "elephants", CH: "chariots", AR: "artillery"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", t)
}

// Words names the type in full.
func (t Type) Words() string {
	if int(t) < len(typeWords) {
		return typeWords[t]
	}
	return t.String()
}

// MarshalText writes the type by its code.
func (t Type) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a type's code.
func (t *Type) UnmarshalText(b []byte) error {
	v, err := parseType(string(b))
	*t = v
	return err
}

func parseType(s string) (Type, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	for i, n := range typeNames {
		if n != "" && n == u {
			return Type(i), nil
		}
	}
	return NoType, fmt.Errorf("%q is not a unit type: use PH, HI, HO, MI, LP, LI, SK, HC, LN, LC, EL, CH or AR", s)
}

// Cavalry reports whether the type is mounted cavalry (HC, LN, LC): the
// units that retreat before infantry (8.3), pursue, and may not come
// near elephants (9.15).
func (t Type) Cavalry() bool { return t == HC || t == LN || t == LC }

// Infantry reports whether the type fights on foot.
func (t Type) Infantry() bool {
	switch t {
	case PH, HI, HO, MI, LP, LI, SK:
		return true
	}
	return false
}

// Mounted reports whether the type pays the mounted costs of terrain.
func (t Type) Mounted() bool { return t.Cavalry() || t == CH || t == EL }

// Profile is a type's usual counter: what a unit gets when the scenario
// does not say otherwise. These are our own values (RULINGS.md, sgboh,
// "Unit types and counters"); the text keeps the PH's MA at 4 (6.4).
type Profile struct {
	TQ, Size, MA int
	Missile      Missile
}

var profiles = [...]Profile{
	PH: {TQ: 7, Size: 7, MA: 4},
	HI: {TQ: 7, Size: 6, MA: 5},
	HO: {TQ: 6, Size: 6, MA: 5},
	MI: {TQ: 5, Size: 5, MA: 5},
	LP: {TQ: 6, Size: 5, MA: 6},
	LI: {TQ: 5, Size: 4, MA: 6, Missile: Javelin},
	SK: {TQ: 4, Size: 2, MA: 7, Missile: Javelin},
	HC: {TQ: 7, Size: 4, MA: 8},
	LN: {TQ: 6, Size: 4, MA: 8},
	LC: {TQ: 5, Size: 3, MA: 9, Missile: Javelin},
	EL: {TQ: 5, Size: 4, MA: 6},
	CH: {TQ: 4, Size: 3, MA: 8},
	AR: {TQ: 4, Size: 1, MA: 3, Missile: Bolt},
}

// Missile is what a unit shoots (8.1).
type Missile uint8

// The missiles. Bolt is the oxybeles' (9.5).
const (
	NoMissile Missile = iota
	Javelin
	Sling
	Bow
	Bolt
)

var missileNames = [...]string{NoMissile: "none", Javelin: "javelin", Sling: "sling", Bow: "bow", Bolt: "bolt"}

func (m Missile) String() string {
	if int(m) < len(missileNames) {
		return missileNames[m]
	}
	return fmt.Sprintf("missile(%d)", m)
}

// MarshalText writes the missile by name.
func (m Missile) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a missile's name.
func (m *Missile) UnmarshalText(b []byte) error {
	v, err := parseMissile(string(b))
	*m = v
	return err
}

func parseMissile(s string) (Missile, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "j":
		return Javelin, nil
	case "s":
		return Sling, nil
	case "b", "a":
		return Bow, nil
	}
	for i, n := range missileNames {
		if n == t {
			return Missile(i), nil
		}
	}
	return NoMissile, fmt.Errorf("%q is not a missile: use none, javelin, sling, bow or bolt", s)
}

// missileTable is our missile chart (SGBOH 8.6 keeps the standard one,
// which we do not have): for each missile, the highest modified roll
// that hits at each range in hexes, from 1. Fire beyond the last entry
// is out of range.
var missileTable = [...][]int{
	Javelin: {4, 2},
	Sling:   {4, 3, 2},
	Bow:     {4, 3, 3, 2, 1},
	Bolt:    {4, 4, 3, 3, 2, 2, 1, 1},
}

// reach returns the missile's longest range in hexes.
func (m Missile) reach() int {
	if int(m) >= len(missileTable) {
		return 0
	}
	return len(missileTable[m])
}

// hitsOn returns the highest modified roll that hits at range r, and
// whether r is in range.
func (m Missile) hitsOn(r int) (int, bool) {
	if r < 1 || r > m.reach() {
		return 0, false
	}
	return missileTable[m][r-1], true
}

// armoured reports whether missiles are less effective against the type
// (our missile chart's +1): the close-order heavy foot, elephants,
// chariots and cataphracts.
func (u *Unit) armoured() bool {
	switch u.Type {
	case PH, HI, HO, EL, CH:
		return true
	}
	return u.Type == HC && u.Cataphract
}

// The weapons system matrix (SGBOH 8.6). Columns are the attacker's
// system, rows the defender's; "na" marks the attacks cavalry may not
// make on elephants (9.15). The bracketed cells of HC attacking heavy
// foot become 0 through a flank or the rear.
type system uint8

const (
	sysPH system = iota
	sysHI
	sysLP
	sysLI // LI and SK*, as attackers; LI as defenders
	sysSK // defenders only
	sysHC
	sysLN
	sysLC
	sysEL
	sysCH
)

const na = -99

var systemNames = [...]string{sysPH: "PH", sysHI: "HI", sysLP: "LP", sysLI: "LI", sysSK: "SK", sysHC: "HC", sysLN: "LN", sysLC: "LC", sysEL: "EL", sysCH: "CH"}

// matrix[defender][attacker]; the attacker index runs PH HI LP LI HC LN LC EL CH.
var matrix = [...][9]int{
	sysPH: {0, 0, -2, -4, -3, -2, -4, -2, 0},
	sysHI: {+1, 0, -1, -4, -3, -2, -3, 0, +1},
	sysLP: {+3, +2, 0, -1, -1, -1, -1, +3, +2},
	sysLI: {+3, +3, +1, 0, +1, 0, -1, +3, +2},
	sysSK: {+5, +5, +4, +3, +5, +5, +4, +5, +5},
	sysHC: {+1, +1, 0, -1, 0, -1, -2, +5, +3},
	sysLN: {+1, +1, 0, 0, +2, 0, 0, +5, +4},
	sysLC: {+2, +2, 0, +1, +2, +1, 0, +5, +4},
	sysEL: {-1, -1, -3, -3, na, na, na, 0, 0},
	sysCH: {-1, -1, -2, +2, -3, -3, -4, 0, 0},
}

// column is where an attacking system reads the matrix.
func (s system) column() int {
	switch s {
	case sysPH, sysHI, sysLP, sysLI:
		return int(s)
	case sysHC, sysLN, sysLC, sysEL, sysCH:
		return int(s) - 1
	}
	return -1
}

// bracketed reports whether the cell is one that HC treat as 0 through a
// flank or the rear.
func bracketed(def, att system) bool {
	return att == sysHC && (def == sysPH || def == sysHI || def == sysLP)
}

// attackSystem is the column a unit attacks in: HO as HI, MI as LP, SK*
// as LI (9.3). Artillery and plain SK do not attack.
func (u *Unit) attackSystem() (system, bool) {
	switch u.Type {
	case PH:
		return sysPH, true
	case HI, HO:
		return sysHI, true
	case MI, LP:
		return sysLP, true
	case LI:
		return sysLI, true
	case SK:
		return sysLI, u.Star
	case HC:
		return sysHC, true
	case LN:
		return sysLN, true
	case LC:
		return sysLC, true
	case EL:
		return sysEL, true
	case CH:
		return sysCH, true
	}
	return 0, false
}

// defenceSystem is the row a unit defends in: HO as HI, MI as LP,
// artillery as SK.
func (u *Unit) defenceSystem() system {
	switch u.Type {
	case PH:
		return sysPH
	case HI, HO:
		return sysHI
	case MI, LP:
		return sysLP
	case LI:
		return sysLI
	case HC:
		return sysHC
	case LN:
		return sysLN
	case LC:
		return sysLC
	case EL:
		return sysEL
	case CH:
		return sysCH
	}
	return sysSK
}

// pursuitTable is the cavalry pursuit table (8.3): for TQ 1-4, 5, 6, 7
// and 8-9, the highest roll with which HC, LN and LC pursue.
var pursuitTable = [5][3]int{
	{8, 6, 5},
	{6, 4, 3},
	{5, 3, 2},
	{4, 2, 2},
	{2, 1, 0},
}

func pursuitRow(tq int) int {
	switch {
	case tq <= 4:
		return 0
	case tq >= 8:
		return 4
	}
	return tq - 4
}

// pursuesOn returns the highest roll with which a cavalry unit pursues.
func (u *Unit) pursuesOn() int {
	col := map[Type]int{HC: 0, LN: 1, LC: 2}[u.Type]
	return pursuitTable[pursuitRow(u.TQ)][col]
}

// Rally results (10.27).
type rallyResult uint8

const (
	rallyFull rallyResult = iota
	rallyDisorder
	rallyRout
)

// rallyTable is the new rally table (10.27): for TQ 1-3, 4-5, 6-7 and
// 8-9, the highest roll returning the unit to full status and the
// highest returning it to disorder; higher rolls are R.
var rallyTable = [4][2]int{{1, 3}, {2, 5}, {3, 6}, {4, 8}}

func rallyOn(tq, roll int) rallyResult {
	row := 0
	switch {
	case tq >= 8:
		row = 3
	case tq >= 6:
		row = 2
	case tq >= 4:
		row = 1
	}
	switch {
	case roll <= rallyTable[row][0]:
		return rallyFull
	case roll <= rallyTable[row][1]:
		return rallyDisorder
	}
	return rallyRout
}
