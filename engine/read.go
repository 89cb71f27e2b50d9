package engine

import (
	"fmt"
	"math"
	"strings"
)

// Reading what players type. Every rule system reads a facing and a place
// on an open table through these, so that a bad one is refused in the
// same words wherever it is typed: what was typed and how to write it.
// (Squares and hexes have [ParseSquare] and [ParseHex].)

// ReadFacing reads a facing on an open table: a compass point or degrees
// clockwise from north.
func ReadFacing(v string) (Heading, error) {
	h, err := ParseHeading(v)
	if err != nil {
		return h, Refuse("", "%q is not a facing; use N, NE, E, SE, S, SW, W, NW or degrees clockwise from north.", v)
	}
	return h, nil
}

// ReadFacingOr reads a facing as [ReadFacing] does, giving def when v is
// empty.
func ReadFacingOr(v string, def Heading) (Heading, error) {
	if strings.TrimSpace(v) == "" {
		return def, nil
	}
	return ReadFacing(v)
}

// ReadPoint reads a place on an open table typed as option opt, x,y in
// the table's unit ("strides", "inches").
func ReadPoint(opt, v, unit string) (Vec, error) {
	p, err := ParseVec(v)
	if err != nil {
		return p, Refuse("", "%s:%s is not a place on the table; write x,y in %s, like 30,6, as the board's ruler reads.", opt, v, unit)
	}
	return p, nil
}

// Decimal writes a measure (inches, strides, points) for the table: a
// value exact to three places as it is (6.75, 0.125: moves and costs are
// quarters and halves, and rounding them misstates them), any other to
// the hundredth (a range of 7.03 is not 7), without trailing zeros.
func Decimal(f float64) string {
	places := 2
	if r := math.Round(f * 1000); math.Abs(f*1000-r) < 1e-6 {
		places = 3
	}
	t := strings.TrimRight(fmt.Sprintf("%.*f", places, f), "0")
	t = strings.TrimSuffix(t, ".")
	if t == "-0" {
		return "0"
	}
	return t
}
