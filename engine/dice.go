package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Die is a kind of die roll. The zero Die is no die.
type Die uint8

const (
	NoDie Die = iota
	D6        // one six-sided die, 1–6
	D10       // one ten-sided die, 1–10
	TwoD6     // two six-sided dice added, 2–12
	D0to9     // a ten-sided die read 0–9
)

var dieNames = [...]string{NoDie: "", D6: "d6", D10: "d10", TwoD6: "2d6", D0to9: "d0-9"}

// String returns the die as written in logs and scenarios: d6, d10, 2d6, d0-9.
func (d Die) String() string {
	if int(d) < len(dieNames) {
		return dieNames[d]
	}
	return fmt.Sprintf("Die(%d)", d)
}

// ParseDie reads a die written as [Die.String] writes it.
func ParseDie(s string) (Die, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	for d, n := range dieNames {
		if n != "" && n == l {
			return Die(d), nil
		}
	}
	return NoDie, fmt.Errorf("%q is not a die: use d6, d10, 2d6 or d0-9", s)
}

// Range returns the lowest and highest results of d.
func (d Die) Range() (lo, hi int) {
	switch d {
	case D6:
		return 1, 6
	case D10:
		return 1, 10
	case TwoD6:
		return 2, 12
	case D0to9:
		return 0, 9
	}
	return 0, 0
}

// roll throws d with r.
func (d Die) roll(r *rand.Rand) int {
	switch d {
	case TwoD6:
		return 2 + r.IntN(6) + r.IntN(6)
	}
	lo, hi := d.Range()
	return lo + r.IntN(hi-lo+1)
}

// MarshalText writes the die as [Die.String] does.
func (d Die) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a die as [ParseDie] does.
func (d *Die) UnmarshalText(b []byte) error {
	v, err := ParseDie(string(b))
	*d = v
	return err
}
