package btg

import "testing"

// §3: D6 + base + modifiers; 1–2 rout, 3–4 fall back, 5–6 hold.
func TestMoraleCheck(t *testing.T) {
	cases := []struct {
		d6   int
		base Colour
		m    MoraleMod
		want Check
	}{
		{1, Red, MoraleMod{}, Rout},
		{2, Red, MoraleMod{}, FallBack},
		{1, Green, MoraleMod{Leader: true, Charging: true}, Hold},
		{4, Blue, MoraleMod{UnderHalf: true}, Hold},
		{2, Blue, MoraleMod{UnderHalf: true}, FallBack},
		{2, Green, MoraleMod{FacingElephant: true, Class: HeavyInfantry}, FallBack},
		{1, Green, MoraleMod{FacingElephant: true, Class: HeavyInfantry}, Rout},
		{1, Blue, MoraleMod{FacingElephant: true, Class: Phalanx}, FallBack},
		{1, Green, MoraleMod{Class: Templar}, FallBack},
	}
	for i, c := range cases {
		if got := MoraleCheck(c.d6, c.base, c.m); got != c.want {
			t.Errorf("case %d: %d, want %d", i, got, c.want)
		}
	}
}
