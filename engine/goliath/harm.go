package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Dice and damage: a handful of D6 against a target number, and how hits
// become figures lost when figures take several hits (Figures, item 3).

// maxDice bounds a handful, so that a referee's giant type cannot roll
// thousands.
const maxDice = 600

// pool throws n six-sided dice.
func pool(tx *engine.Tx, n int) []int {
	n = min(n, maxDice)
	out := make([]int, n)
	for i := range out {
		out[i] = tx.Roll(engine.D6)
	}
	return out
}

// count is how many dice score need or better after adding mod to each;
// a natural 6 always scores (RULINGS.md, goliath, "a six always hits").
func count(rolls []int, need, mod int) int {
	n := 0
	for _, r := range rolls {
		if r == 6 || r+mod >= need {
			n++
		}
	}
	return n
}

// dice writes rolls for the log: "[6 4 1]".
func dice(rolls []int) string {
	if len(rolls) > 40 {
		c := [7]int{}
		for _, r := range rolls {
			c[r]++
		}
		return fmt.Sprintf("[%d dice: %d ones, %d twos, %d threes, %d fours, %d fives, %d sixes]", len(rolls), c[1], c[2], c[3], c[4], c[5], c[6])
	}
	parts := make([]string, len(rolls))
	for i, r := range rolls {
		parts[i] = fmt.Sprint(r)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Harm is what hits do to a unit: figures killed, hits left on a figure
// of several HT, figures paralyzed, and enemy dead risen in the
// attacker's ranks. The event that strikes records it, so a replay
// applies what was decided.
type Harm struct {
	Hits      int  `json:"hits"`
	Kills     int  `json:"kills,omitempty"`
	Damage    int  `json:"damage,omitempty"` // hits carried by a figure afterwards
	Paralyzed int  `json:"paralyzed,omitempty"`
	Risen     int  `json:"risen,omitempty"`
	Immune    bool `json:"immune,omitempty"` // SA 11: this attacker cannot hurt it
	Wasted    int  `json:"wasted,omitempty"` // hits short of a multi-HT figure, lost
}

// harm works out what hits scored by att do to def. touch is set in
// melee, where paralysis and the rising dead apply.
func harm(att, def *Unit, hits int, touch bool) Harm {
	h := Harm{Hits: hits}
	if hits == 0 {
		h.Damage = def.Damage
		return h
	}
	if def.Profile.Has(Charmed) && !att.Profile.Slayer {
		h.Immune, h.Damage = true, def.Damage
		return h
	}
	ht := max(1, def.Profile.HT)
	if att.Profile.HT <= 1 && ht > 1 {
		// One-HT attackers must score a figure's hits at once. Hits go
		// to one figure at a time, the wounded first: the first figure
		// they remove is the one carrying hits, and its hits go with it.
		h.Kills, h.Wasted, h.Damage = hits/ht, hits%ht, def.Damage
		if h.Kills > 0 {
			h.Damage = 0
		}
	} else {
		total := def.Damage + hits
		h.Kills, h.Damage = total/ht, total%ht
	}
	if h.Kills >= def.Figures {
		h.Kills, h.Damage = def.Figures, 0
	}
	if touch && (att.Profile.Has(Paralyzes) || att.Profile.Has(Numbs)) && !def.Profile.Elf {
		h.Paralyzed, h.Kills = h.Kills, 0
	}
	if touch && att.Profile.Has(Infects) {
		h.Risen = h.Kills
	}
	return h
}

// apply folds the harm into the two units. def's figures paralyzed stay
// in its ranks; a unit left with no figure able to fight is destroyed.
func (h Harm) apply(att, def *Unit, turn int) {
	if h.Immune || def.Status == Gone {
		return
	}
	def.Damage = h.Damage
	if h.Paralyzed > 0 {
		def.Figures -= h.Paralyzed
		def.Paralyzed += h.Paralyzed
		if att != nil && att.Profile.Has(Numbs) && !att.Profile.Has(Paralyzes) {
			// Figures numbed on a turn are held through the next; those
			// numbed a turn after the others wear off a turn later.
			if def.Numb > 0 && def.Numbed <= turn {
				def.Later += h.Paralyzed
			} else {
				def.Numbed = turn + 1
			}
			def.Numb += h.Paralyzed
		}
	}
	def.kill(h.Kills)
	if def.Figures == 0 && def.Status != Gone {
		def.kill(0)
	}
	if def.Status == Routed {
		def.Attacked = true
	}
	if att != nil && h.Risen > 0 && att.In() {
		att.Figures += h.Risen
		att.Raised += h.Risen
		att.reshape()
	}
}

// say writes the harm for the log.
func (h Harm) say(def string) string {
	switch {
	case h.Immune:
		return fmt.Sprintf("%s cannot be hurt by such as these (SA 11)", def)
	case h.Hits == 0:
		return "no hits"
	}
	var parts []string
	parts = append(parts, plural(h.Hits, "hit", "hits"))
	if h.Kills > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s slain", plural(h.Kills, "figure", "figures"), def))
	}
	if h.Paralyzed > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s paralyzed (SA 7)", plural(h.Paralyzed, "figure", "figures"), def))
	}
	if h.Wasted > 0 {
		parts = append(parts, fmt.Sprintf("%s short of a whole figure, lost (one-HT attackers must score a figure's hits at once)", plural(h.Wasted, "hit", "hits")))
	}
	if h.Damage > 0 {
		parts = append(parts, fmt.Sprintf("a figure of %s carries %s", def, plural(h.Damage, "hit", "hits")))
	}
	if h.Risen > 0 {
		parts = append(parts, fmt.Sprintf("%s rise in the attackers' ranks (SA 12)", plural(h.Risen, "dead", "dead")))
	}
	return strings.Join(parts, "; ")
}

// cell is one cell of the melee table: X dice for every Y attacking
// figures, each hitting on R or better.
type cell struct{ x, y, r int }

// matrix is the melee table (Melee), by attack rating then defence
// rating.
var matrix = [6][6]cell{
	LI: {{1, 1, 6}, {1, 2, 6}, {1, 3, 6}, {1, 2, 6}, {1, 3, 6}, {1, 4, 6}},
	MI: {{1, 1, 5}, {1, 1, 6}, {1, 2, 6}, {1, 2, 6}, {1, 3, 6}, {1, 4, 6}},
	HI: {{1, 1, 4}, {1, 1, 5}, {1, 1, 6}, {1, 1, 6}, {1, 2, 6}, {1, 3, 6}},
	LC: {{2, 1, 5}, {2, 1, 6}, {1, 1, 6}, {1, 1, 6}, {1, 2, 6}, {1, 3, 6}},
	MC: {{2, 1, 4}, {2, 1, 5}, {2, 1, 6}, {1, 1, 5}, {1, 1, 6}, {1, 1, 6}},
	HC: {{4, 1, 5}, {3, 1, 5}, {2, 1, 5}, {2, 1, 5}, {1, 1, 5}, {1, 1, 6}},
}

// rung brings a rating moved by steps back onto the ladder: a step past
// HC is +1 on each die, a step below LI -1 (Figures, item 4: "HC gets +1
// on each die"; RULINGS.md, goliath, "below LI").
func rung(r Rating, steps int) (Rating, int) {
	v := int(r) + steps
	switch {
	case v > int(HC):
		return HC, v - int(HC)
	case v < int(LI):
		return LI, v - int(LI)
	}
	return Rating(v), 0
}

// meleeDice is the handful figs attacking figures of rating ar throw at
// rating dr, and what each die needs: X per Y figures, rounded down but
// never below one die (RULINGS.md, goliath, "rounding the melee table").
func meleeDice(ar, dr Rating, arSteps, drSteps, figs int) (n, need, mod int) {
	a, am := rung(ar, arSteps)
	d, dm := rung(dr, drSteps)
	c := matrix[a][d]
	n = figs * c.x / c.y
	if n == 0 && figs > 0 {
		n = 1
	}
	return n, c.r, am - dm
}
