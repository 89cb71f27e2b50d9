package btg

// MoraleMod lists the morale-check modifiers of §3.
type MoraleMod struct {
	Leader         bool  // a leader attached: +1
	Charging       bool  // +1
	UnderHalf      bool  // below half its figures: −2
	FacingElephant bool  // non-phalanx/legion facing elephants: −1
	Class          Class // Templars add +1; phalanx and legion ignore elephants
}

// Sum is the total modifier.
func (m MoraleMod) Sum() int {
	s := 0
	if m.Leader {
		s++
	}
	if m.Charging {
		s++
	}
	if m.UnderHalf {
		s -= 2
	}
	if m.FacingElephant && m.Class != Phalanx && m.Class != Legion {
		s--
	}
	if m.Class == Templar {
		s++
	}
	return s
}

// MoraleCheck reads a check (§3): the D6 plus the base morale plus the
// modifiers, through MoraleResult.
func MoraleCheck(d6 int, base Colour, m MoraleMod) Check {
	return MoraleResult(d6 + int(base) + m.Sum())
}
