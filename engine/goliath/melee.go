package goliath

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Melee (Melee): units in contact fight by the table, X dice for every Y
// attacking figures each needing R; HT multiplies a figure's attacks;
// flank and rear attacks fight one rung up, and troops attacked from the
// rear do not strike back. In Method 1 hits are taken off at once, so
// who strikes first matters: chargers, then the side that moved first,
// then the other. In Method 2 both strike at once.

// Fought is one unit's attack in melee.
type Fought struct {
	Unit     string `json:"unit"`
	Opponent string `json:"opponent"`
	Label    string `json:"label"`
	Figures  int    `json:"figures"`
	Dice     int    `json:"dice"`
	Need     int    `json:"need"`
	Mod      int    `json:"mod,omitempty"`
	AR       Rating `json:"ar"`
	DR       Rating `json:"dr"`
	Notes    string `json:"notes,omitempty"`
	Rolls    []int  `json:"rolls"`
	Harm     Harm   `json:"harm"`
}

// MeleeBegan opens the melee phase.
type MeleeBegan struct {
	Turn         int  `json:"turn"`
	Simultaneous bool `json:"simultaneous,omitempty"`
}

func (Fought) Kind() string     { return "goliath.fought" }
func (MeleeBegan) Kind() string { return "goliath.melee-began" }

var meleeBodies = engine.BodyTypes{
	Fought{}.Kind():     engine.Decoder[Fought](),
	MeleeBegan{}.Kind(): engine.Decoder[MeleeBegan](),
}

func (b MeleeBegan) Apply(s *State) error {
	for i := range s.Units {
		s.Units[i].Volley = s.Units[i].Figures
	}
	return nil
}

func (b MeleeBegan) Text() string {
	if b.Simultaneous {
		return fmt.Sprintf("Turn %d, melee: both sides strike at once (Method 2).", b.Turn)
	}
	return fmt.Sprintf("Turn %d, melee: hits come off at once, chargers striking first, then the side that moved first.", b.Turn)
}

func (b Fought) Apply(s *State) error {
	a, err := s.mustUnit(b.Unit)
	if err != nil {
		return err
	}
	d, err := s.mustUnit(b.Opponent)
	if err != nil {
		return err
	}
	a.Fought, d.Fought = true, true
	// Losses come off the rear rank; when the blow falls on the rear and
	// nothing touches the front, the rear stays against the attackers and
	// the unit closes up on them, so that the melee goes on (Morale
	// Check: 6 or more, the melee continues).
	s.keepingRear(d, func() { b.Harm.apply(a, d, s.Turn) })
	return nil
}

// keepingRear runs hurt, which takes figures off u. Losses come off the
// rear rank; when an enemy touches u's rear and none its front, the rear
// stays against that enemy and the unit closes up on it, so that the
// melee goes on (Morale Check: 6 or more, the melee continues).
func (s *State) keepingRear(u *Unit, hurt func()) {
	behind, ahead := false, false
	for _, e := range s.touching(u) {
		switch u.Base.ContactSide(e.Base) {
		case engine.Rear:
			behind = true
		case engine.Front:
			ahead = true
		}
	}
	rear := u.Base.Center.Add(u.Base.Facing.Vec().Scale(-u.Base.Depth / 2))
	hurt()
	if behind && !ahead && u.In() {
		u.Base = u.Base.WithCenter(rear.Add(u.Base.Facing.Vec().Scale(u.Base.Depth / 2)))
	}
}

func (b Fought) Text() string {
	notes := ""
	if b.Notes != "" {
		notes = " (" + b.Notes + ")"
	}
	return fmt.Sprintf("%s strikes %s: %s as %s against %s%s, %s needing %s %s: %s.",
		b.Label, b.Opponent, plural(b.Figures, "figure", "figures"), b.AR, b.DR, notes,
		plural(b.Dice, "die", "dice"), needText(b.Need, b.Mod), dice(b.Rolls), b.Harm.say(b.Opponent))
}

// strike is one attack the melee phase will make.
type strike struct {
	a, d  *Unit
	order int
	// n is, in a simultaneous melee, how many figures strike: counted
	// before any blow lands, on the ranks the unit stood in then, since
	// the slain still return the attack (Turn sequence, Method 2, L102).
	n int
}

// meleeFigures is how many of a's figures fight d: the front rank's files
// that face d when d is at a's front, the end of each rank when d is at
// its flank, none when d is behind it (RULINGS.md, goliath, "who fights
// in melee").
func meleeFigures(a, d *Unit, figs int) int {
	switch a.Base.ContactSide(d.Base) {
	case engine.Front:
		fw, _ := a.Profile.figureSize()
		right := a.Base.Facing.Add(90).Vec()
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range d.Base.Corners() {
			x := c.Sub(a.Base.Center).Dot(right)
			lo, hi = min(lo, x), max(hi, x)
		}
		w := math.Min(hi, a.Base.Width/2) - math.Max(lo, -a.Base.Width/2)
		files := int(math.Ceil(w/fw - 1e-6))
		return max(1, min(files, a.Frontage, figs))
	case engine.Left, engine.Right:
		return min(ranks(figs, a.Frontage), figs)
	}
	return 0
}

// foe picks whom a strikes: an enemy at its front (the widest there),
// else one at its flank; none if enemies touch only its rear.
func (s *State) foe(a *Unit) *Unit {
	var best *Unit
	bestRank := 9
	for _, e := range s.touching(a) {
		rank := 9
		switch a.Base.ContactSide(e.Base) {
		case engine.Front:
			rank = 0
		case engine.Left, engine.Right:
			rank = 1
		}
		if rank < bestRank {
			best, bestRank = e, rank
		}
	}
	if bestRank == 9 {
		return nil
	}
	return best
}

// meleePhase fights every melee on the table, then has every unit that
// fought check morale.
func (s *State) meleePhase(tx *engine.Tx, simultaneous bool) error {
	var any bool
	for i := range s.Units {
		if u := &s.Units[i]; u.In() && s.engaged(u) {
			any = true
		}
	}
	if !any {
		return nil
	}
	if err := tx.Emit(MeleeBegan{Turn: s.Turn, Simultaneous: simultaneous}); err != nil {
		return err
	}
	// The fearsome (SA 5) make those they touch check first.
	for i := range s.Units {
		u := &s.Units[i]
		if !u.Able() || u.Feared {
			continue
		}
		for _, e := range s.touching(u) {
			if e.Profile.Has(Fearsome) && e.Able() {
				if _, err := s.test(tx, u, fmt.Sprintf("facing %s (SA 5)", e.Profile.Name), false); err != nil {
					return err
				}
				break
			}
		}
	}
	var strikes []strike
	for i := range s.Units {
		a := &s.Units[i]
		if !a.Able() || a.Figures == 0 || a.Rallying {
			continue // a unit rallying this turn may not attack (Rout and Rally)
		}
		d := s.foe(a)
		if d == nil {
			continue
		}
		// Chargers strike first, the side that moved first's before
		// the other's, for their charges went in first; then the rest
		// of the side that moved first, then the rest of the other.
		order := 1
		if a.Side == s.First {
			order = 0
		}
		if !a.Charged {
			order += 2
		}
		st := strike{a: a, d: d, order: order}
		if simultaneous {
			st.order, st.n = 0, meleeFigures(a, d, a.Volley)
		}
		strikes = append(strikes, st)
	}
	slices.SortStableFunc(strikes, func(x, y strike) int { return cmp.Compare(x.order, y.order) })
	for _, st := range strikes {
		a, d, n := st.a, st.d, st.n
		if !simultaneous {
			// Hits are resolved at once (Method 1): a unit strikes with
			// the figures, and so the files, it has left.
			if !a.Able() || a.Figures == 0 || !d.In() {
				continue
			}
			n = meleeFigures(a, d, a.Figures)
		}
		if err := s.fight(tx, a, d, n); err != nil {
			return err
		}
	}
	// Morale after the melee, with heavy losses folded in.
	for i := range s.Units {
		u := &s.Units[i]
		if u.In() && u.Fought && u.Status == Steady {
			if _, err := s.test(tx, u, "after the melee", true); err != nil {
				return err
			}
		}
	}
	return nil
}

// fight rolls a's attack on d with n of its figures.
func (s *State) fight(tx *engine.Tx, a, d *Unit, n int) error {
	if n == 0 {
		return nil
	}
	var notes []string
	arSteps, drSteps := 0, 0
	switch d.Base.ContactSide(a.Base) {
	case engine.Left, engine.Right:
		arSteps++
		notes = append(notes, "flank, AR+1")
	case engine.Rear:
		arSteps++
		notes = append(notes, "rear, AR+1")
	}
	if a.Tired {
		arSteps--
		notes = append(notes, "tired, AR-1")
	}
	if d.Tired {
		drSteps--
		notes = append(notes, d.ID+" tired, DR-1")
	}
	ht := max(1, a.Profile.HT)
	if ht > 1 {
		notes = append(notes, fmt.Sprintf("HT %d: each figure fights as %d", ht, ht))
	}
	nd, need, mod := meleeDice(a.Profile.AR, d.Profile.DR, arSteps, drSteps, n*ht)
	ar, _ := rung(a.Profile.AR, arSteps)
	dr, _ := rung(d.Profile.DR, drSteps)
	if mod != 0 {
		notes = append(notes, fmt.Sprintf("%s on each die", signed(mod)))
	}
	b := Fought{Unit: a.ID, Opponent: d.ID, Label: a.Label(), Figures: n, Dice: nd, Need: need, Mod: mod, AR: ar, DR: dr, Notes: strings.Join(notes, "; ")}
	b.Rolls = pool(tx, nd)
	b.Harm = harm(a, d, count(b.Rolls, need, mod), true)
	return tx.Emit(b)
}
