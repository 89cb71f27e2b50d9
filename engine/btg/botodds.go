package btg

import "slices"

// The bot's odds: how many hits a roll of dice may score, as a chance for
// each number of hits, so that what a volley or a melee is worth to it
// counts the armor as the rules take it off (2.J: hits less the armor,
// never below nothing). Averaging the hits first and taking the armor
// off after would make two javelin dice at a phalanx worth nothing,
// which they are not: both hit a quarter of the time.

// odds is the chance of each number of hits, from 0 up.
type odds []float64

// none is a roll of no dice: no hits, for certain.
func none() odds { return odds{1} }

// roll adds n dice to o, each hitting with chance p: the odds are
// worked out in place, one die at a time, highest count first.
func (o odds) roll(n int, p float64) odds {
	if n <= 0 || p <= 0 {
		return o
	}
	p = min(p, 1)
	out := make(odds, len(o)+n)
	copy(out, o)
	for k := range n {
		for h := len(o) + k; h > 0; h-- {
			out[h] = out[h]*(1-p) + out[h-1]*p
		}
		out[0] *= 1 - p
	}
	return out
}

// plus is o with k hits more for certain (Bloodthirstiness's kills, §6).
func (o odds) plus(k int) odds {
	if k <= 0 {
		return o
	}
	return append(make(odds, k), o...)
}

// upTo is o with every outcome above n counted as n: no more figures
// fall than a unit has.
func (o odds) upTo(n int) odds {
	if len(o) <= n+1 {
		return o
	}
	out := slices.Clone(o[:n+1])
	for _, c := range o[n+1:] {
		out[n] += c
	}
	return out
}

// tusks is o for an elephant's own dice, tripled on a D6 of 5 or less
// (§8, the melee chart).
func (o odds) tusks() odds {
	out := make(odds, 3*len(o))
	for h, c := range o {
		out[3*h] += c * 5 / 6
		out[h] += c / 6
	}
	return out
}

// beyond is what the hits may be expected to come to above armor, at
// most most: the figures a unit of most figures may expect to lose when
// each hit past its armor kills one (2.J).
func (o odds) beyond(armor, most int) float64 {
	sum := 0.0
	for h, c := range o {
		if k := h - armor; k > 0 {
			sum += c * float64(min(k, most))
		}
	}
	return sum
}

// some is the chance that the hits come to more than armor: that at
// least one figure falls, which sends the unit to a morale check (3.A,
// 3.D).
func (o odds) some(armor int) float64 {
	sum := 0.0
	for h, c := range o {
		if h > armor {
			sum += c
		}
	}
	return sum
}

// fireChance is the chance that one die of a volley hits on b or less
// with mod added: a natural 6 never hits (RULINGS.md, btg), nor does a
// die the modifier pushes past the band (2.H).
func fireChance(b, mod int) float64 {
	n := 0
	for r := 1; r <= 5; r++ {
		if r+mod <= b {
			n++
		}
	}
	return float64(n) / 6
}

// lossTo is what t may expect to lose to hits rolled as o against armor:
// the figures, an elephant's taking two hits each (5.G), and the chance
// that any fall, which sends t to a morale check (3.A, 3.D; an elephant
// checks only for hits through its armor, 3.G).
func lossTo(t *Unit, o odds, armor int) (figures, hurt float64) {
	if t.Class == Elephant {
		return o.beyond(armor, 2*t.Figures) / 2, o.some(armor)
	}
	return o.beyond(armor, t.Figures), o.some(armor)
}

// killed is the chance of each number of figures t loses to hits rolled
// as o against armor (2.J), an elephant taking two hits each (5.G).
func killed(t *Unit, o odds, armor int) odds {
	out := make(odds, max(0, t.Figures)+1)
	for h, c := range o {
		k := max(0, h-armor)
		if t.Class == Elephant {
			k /= 2
		}
		out[min(k, t.Figures)] += c
	}
	return out
}

// and is the odds of the sum of two rolls made apart; nil odds are
// those of no roll at all.
func (o odds) and(p odds) odds {
	switch {
	case len(o) == 0:
		return p
	case len(p) == 0:
		return o
	}
	out := make(odds, len(o)+len(p)-1)
	for i, a := range o {
		for j, b := range p {
			out[i+j] += a * b
		}
	}
	return out
}

// over is the chance that a roll as o comes to more than one as p made
// apart: in the melee, that a unit loses more figures than it kills,
// and so loses the melee (3.D).
func (o odds) over(p odds) float64 {
	if len(p) == 0 {
		p = none()
	}
	sum, below := 0.0, 0.0 // below: the chance that p is less than i
	for i, a := range o {
		if i > 0 && i-1 < len(p) {
			below += p[i-1]
		}
		sum += a * below
	}
	return sum
}

// from is the chance of n hits or more.
func (o odds) from(n int) float64 {
	sum := 0.0
	for h := max(n, 0); h < len(o); h++ {
		sum += o[h]
	}
	return sum
}

// mean is the number to expect.
func (o odds) mean() float64 {
	sum := 0.0
	for i, c := range o {
		sum += float64(i) * c
	}
	return sum
}
