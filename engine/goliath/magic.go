package goliath

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Wizards (Troop Types, note ***; Spells) and dragon fire (SA 10): bolts
// and fireballs up to 24" kill the figures they hit unless their MR is
// above 0 and they save on 2D6 + MR >= 10; spells are cast by wizards
// who have not moved and are not under attack, may be countered by an
// enemy wizard on 2D6 >= 7, and are saved against like bolts; a wizard
// casts seven times a battle (RULINGS.md, goliath, "wizards").

// Spell is what a caster casts.
type Spell string

const (
	Bolt     Spell = "bolt"     // a lightning bolt: up to 6 figures of the front rank
	Fireball Spell = "fireball" // up to 9 figures
	Breath   Spell = "breath"   // a dragon's fire, as a fireball, 9" (SA 10)
	Lamp     Spell = "light"    // lights a 3" circle: reveals the invisible, lifts darkness
	Darkness Spell = "darkness" // darkens a 3" circle for those who cannot see in it
	Haste    Spell = "haste"    // a friendly unit's moves double
	Slow     Spell = "slow"     // an enemy unit's moves halve
	Fear     Spell = "fear"     // an enemy unit checks morale
	Other    Spell = "other"    // anything else, for the referee
)

var spells = []Spell{Bolt, Fireball, Breath, Lamp, Darkness, Haste, Slow, Fear, Other}

func spellNames() []string {
	out := make([]string, len(spells))
	for i, s := range spells {
		out[i] = string(s)
	}
	return out
}

const (
	wizardRange = 24 // bolts, fireballs and spells
	breathRange = 9  // a dragon's fire (RULINGS.md, goliath, "dragon fire")
	spellRadius = 3  // light and darkness
	boltFigures = 6
	ballFigures = 9
)

// castLimit is how many times a caster casts in a battle: seven for a
// wizard, three breaths for a dragon.
func castLimit(p *Profile) int {
	if p.Wizard {
		return 7
	}
	if p.Breath {
		return 3
	}
	return 0
}

// Counter is an enemy wizard's counterspell.
type Counter struct {
	Wizard string `json:"wizard"`
	Roll   int    `json:"roll"`
}

// Cast is one casting.
type Cast struct {
	Caster  string     `json:"caster"`
	Label   string     `json:"label"`
	Spell   Spell      `json:"spell"`
	Target  string     `json:"target,omitempty"`
	At      engine.Vec `json:"at,omitzero"`
	Counter *Counter   `json:"counter,omitempty"`
	// Saves are the 2D6 of each figure hit with MR above 0, or the one
	// save of a unit a spell is cast on; Killed the figures slain.
	Hit    int   `json:"hit,omitempty"`
	Saves  []int `json:"saves,omitempty"`
	Killed int   `json:"killed,omitempty"`
	Saved  bool  `json:"saved,omitempty"`
	// Cover halves the figures a bolt or fireball hits (Missile Fire,
	// L136), rounding down; Reached is how many it would have hit in the
	// open.
	Cover   bool   `json:"cover,omitempty"`
	Reached int    `json:"reached,omitempty"`
	Immune  bool   `json:"immune,omitempty"`
	Says    string `json:"says,omitempty"`  // what a referee's spell does
	Tired   bool   `json:"tired,omitempty"` // the target's MR was one lower for fatigue
	// Deferred marks a failed save against fear under written orders:
	// the morale check waits until every volley and casting has gone
	// (Turn sequence, Method 2).
	Deferred bool `json:"deferred,omitempty"`
	// Steadfast marks a target of fear with MR +4, which never checks
	// morale (Figures, item 6), whatever its save.
	Steadfast bool `json:"steadfast,omitempty"`
}

func (Cast) Kind() string { return "goliath.cast" }

var magicBodies = engine.BodyTypes{Cast{}.Kind(): engine.Decoder[Cast]()}

func (b Cast) Apply(s *State) error {
	c, err := s.mustUnit(b.Caster)
	if err != nil {
		return err
	}
	c.Spells++
	c.Cast = true
	if b.Counter != nil {
		w, err := s.mustUnit(b.Counter.Wizard)
		if err != nil {
			return err
		}
		w.Spells++
		w.Cast = true
		if b.Counter.Roll >= 7 {
			return nil
		}
	}
	var t *Unit
	if b.Target != "" {
		if t, err = s.mustUnit(b.Target); err != nil {
			return err
		}
		if t.Status == Routed {
			t.Attacked = true
		}
	}
	switch b.Spell {
	case Bolt, Fireball, Breath:
		// The hits a big figure carries go only with the figures slain.
		if b.Killed > 0 && !b.Immune {
			s.keepingRear(t, func() {
				t.Damage = 0
				t.kill(b.Killed)
			})
		}
	case Lamp:
		s.Lights = append(s.Lights, Area{At: b.At, Radius: spellRadius, Until: s.Turn + 1})
	case Darkness:
		s.Darkness = append(s.Darkness, Area{At: b.At, Radius: spellRadius, Until: s.Turn + 1})
	case Haste:
		t.Haste = s.Turn + 1
	case Slow:
		if !b.Saved {
			t.Slow = s.Turn + 1
		}
	case Fear:
		if b.Deferred {
			t.Afraid = true
		}
	}
	return nil
}

func (b Cast) Text() string {
	var t strings.Builder
	what := map[Spell]string{Bolt: "a lightning bolt at", Fireball: "a fireball at", Breath: "fire at", Lamp: "light", Darkness: "darkness",
		Haste: "haste on", Slow: "slow on", Fear: "fear on", Other: "a spell"}[b.Spell]
	verb := "casts"
	if b.Spell == Breath {
		verb = "breathes"
	}
	fmt.Fprintf(&t, "%s %s %s", b.Label, verb, what)
	switch {
	case b.Target != "" && b.Spell != Other:
		fmt.Fprintf(&t, " %s", b.Target)
	case b.Spell == Lamp || b.Spell == Darkness:
		fmt.Fprintf(&t, " over %s", b.At)
	}
	if b.Counter != nil {
		fmt.Fprintf(&t, "; %s counters on 2D6 %d", b.Counter.Wizard, b.Counter.Roll)
		if b.Counter.Roll >= 7 {
			t.WriteString(": the spell fails.")
			return t.String()
		}
		t.WriteString(", not enough")
	}
	switch b.Spell {
	case Bolt, Fireball, Breath:
		if b.Immune {
			fmt.Fprintf(&t, ": %s cannot be hurt by it (SA 11).", b.Target)
			return t.String()
		}
		t.WriteString(": ")
		if b.Cover {
			fmt.Fprintf(&t, "%d in its way, halved for cover: ", b.Reached)
		}
		fmt.Fprintf(&t, "%s hit", plural(b.Hit, "figure", "figures"))
		if b.Tired {
			t.WriteString(" (tired: MR one lower)")
		}
		if len(b.Saves) > 0 {
			fmt.Fprintf(&t, ", saving on 2D6 + MR >= 10 %s", dice(b.Saves))
		}
		fmt.Fprintf(&t, ": %s slain.", plural(b.Killed, "figure", "figures"))
	case Lamp:
		fmt.Fprintf(&t, ": %s around it are lit to the end of next turn, the invisible seen and darkness lifted.", inches(spellRadius))
	case Darkness:
		fmt.Fprintf(&t, ": %s around it are dark to the end of next turn for those who cannot see in darkness.", inches(spellRadius))
	case Haste:
		t.WriteString(": its moves and charges are doubled to the end of next turn.")
	case Slow, Fear:
		fmt.Fprintf(&t, "; its save on 2D6 + MR >= 10")
		if b.Tired {
			t.WriteString(" (tired: MR one lower)")
		}
		fmt.Fprintf(&t, ": %s", dice(b.Saves))
		switch {
		case b.Saved:
			t.WriteString(", saved.")
		case b.Spell == Slow:
			t.WriteString(", failed: its moves and charges are halved to the end of next turn.")
		case b.Steadfast:
			fmt.Fprintf(&t, ", failed; but %s never checks morale (MR +4), so nothing follows.", b.Target)
		case b.Deferred:
			t.WriteString(", failed: it checks morale once every volley and spell has gone.")
		default:
			t.WriteString(", failed.")
		}
	case Other:
		fmt.Fprintf(&t, ": %q. The referee decides what it does (/ruling).", b.Says)
	}
	return t.String()
}

var magicCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "cast", Help: "A wizard casts a bolt, fireball or spell, or a dragon breathes fire, in the missile phase.",
		Example: "/cast unit:ELF-5 spell:fireball target:ORC-1", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the wizard or dragon", Kind: engine.OptElement, Required: true},
			{Name: "spell", Help: "bolt, fireball, breath, light, darkness, haste, slow, fear, or other", Required: true, Choices: spellNames()},
			{Name: "target", Help: "the unit it is cast at or on", Kind: engine.OptElement},
			{Name: "at", Help: "for light or darkness, the point it lies on, x,y", Kind: engine.OptPoint},
			{Name: "text", Help: "for other, what the spell is meant to do; the referee rules on it"},
		}}, Run: castCommand},
}

func castCommand(tx *engine.Tx, s *State, c engine.Command) error {
	u, err := s.own(c.Actor, c.Opt("unit"))
	if err != nil {
		return err
	}
	switch {
	case s.Stage == Missile && u.Side == s.Active:
	case s.Stage == Missile:
		return engine.Refuse("Turn sequence", "%s shoot and cast now.", engine.Capital(s.armyName(s.Active)))
	default:
		return engine.Refuse("Turn sequence", "Wizards cast and dragons breathe in the missile phase; it is %s now.", s.Stage)
	}
	var t *Unit
	if c.Has("target") {
		if t, err = s.findUnit(c.Opt("target")); err != nil {
			return err
		}
	}
	var at *engine.Vec
	if c.Has("at") {
		p, err := engine.ReadPoint("at", c.Opt("at"), "inches")
		if err != nil {
			return err
		}
		at = &p
	}
	return s.cast(tx, u, Spell(strings.ToLower(c.Opt("spell"))), t, at, c.Opt("text"), false)
}

// cast checks and carries out a casting.
func (s *State) cast(tx *engine.Tx, u *Unit, sp Spell, t *Unit, at *engine.Vec, text string, ordered bool) error {
	if err := s.mayCast(u, sp, ordered); err != nil {
		return err
	}
	b := Cast{Caster: u.ID, Label: u.Label(), Spell: sp, Says: strings.TrimSpace(text)}
	if err := s.aimSpell(&b, u, t, at); err != nil {
		return err
	}
	// An enemy wizard may counter a spell (not a bolt, fireball or breath),
	// unless his side told him to hold his counterspells (/hold): the
	// text leaves the counter to the opponent's choice (Spells, L261).
	if sp != Bolt && sp != Fireball && sp != Breath {
		for i := range s.Units {
			w := &s.Units[i]
			// A counterspell is cast, so its wizard must not have moved
			// this turn, nor be under attack (Spells, L261), nor be
			// spending the turn rallying (Rout and Rally, L199). Under
			// written orders a wizard slain in this missile phase still
			// casts it, as he still casts his own (L102; mayCast).
			standing := w.Able() && w.Figures > 0 || ordered && w.Volley > 0 && w.Status != Routed
			if w.Side != u.Side && w.Placed && w.Profile.Wizard && !w.HoldFire && standing && !w.Cast && w.Spells < castLimit(&w.Profile) && !s.engaged(w) &&
				!w.Rallying && w.Moved == 0 && !w.Charged && !s.ordersCast(w) && w.Base.Gap(u.Base) <= wizardRange {
				b.Counter = &Counter{Wizard: w.ID, Roll: tx.Roll(engine.TwoD6)}
				break
			}
		}
	}
	countered := b.Counter != nil && b.Counter.Roll >= 7
	if !countered && t != nil {
		spellTakes(tx, &b, &u.Profile, t)
		b.Steadfast = sp == Fear && t.Profile.Steadfast()
		b.Deferred = ordered && sp == Fear && !b.Saved && !b.Steadfast
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	if countered || t == nil {
		return nil
	}
	if sp == Fear && !b.Saved && !ordered {
		if _, err := s.test(tx, t, "under a spell of fear", false); err != nil {
			return err
		}
	}
	// Under written orders the heavy-losses checks wait until every
	// volley and casting has gone (Turn sequence, Method 2: figures
	// return the attack before they are removed); carryOut makes them.
	if b.Killed > 0 && !ordered {
		_, err := s.checkHeavy(tx, t.ID)
		return err
	}
	return nil
}

// ordersCast reports a wizard whose written order this turn is to cast:
// he does that, and does not spend his casting on a counterspell
// (RULINGS.md, goliath, "counterspells").
func (s *State) ordersCast(w *Unit) bool {
	if o := s.order(w.ID); o != nil {
		for _, st := range o.Run {
			if st.Kind == CastStep {
				return true
			}
		}
	}
	return false
}

// mayCast refuses a casting of sp that u may not make now: it casts no
// such spell, is not able, rallies, has cast this turn or has no
// castings left; and a wizard who moved or is under attack casts nothing.
func (s *State) mayCast(u *Unit, sp Spell, ordered bool) error {
	p := &u.Profile
	if err := castsSpell(p, sp); err != nil {
		return err
	}
	switch {
	case (!u.Able() || u.Figures == 0) && !(ordered && u.Volley > 0 && u.Status != Routed):
		return engine.Refuse("", "%s cannot cast now.", u.ID)
	case u.Rallying:
		return engine.Refuse("Rout and Rally", "%s rallied at the start of this turn and spends it rallying: it may neither move nor attack until the next turn.", u.ID)
	case u.Cast:
		return engine.Refuse("Spells", "%s has cast already this turn.", u.ID)
	case u.Spells >= castLimit(p):
		return engine.Refuse("Spells", "%s has used all %d of its castings this battle.", u.ID, castLimit(p))
	}
	if p.Wizard {
		if u.Moved > 0 || u.Charged {
			return engine.Refuse("Spells", "A wizard casts only if he has not moved this turn.")
		}
		if s.engaged(u) {
			return engine.Refuse("Spells", "A wizard under attack cannot cast.")
		}
	}
	return nil
}

// castsSpell refuses a spell p's type never casts: only wizards cast,
// and only dragons (SA 10 without a missile range) breathe.
func castsSpell(p *Profile, sp Spell) error {
	switch {
	case !p.Wizard && !p.Breath:
		return engine.Refuse("Troop Types", "%s cast no spells.", p.Name)
	case p.Breath && sp != Breath:
		return engine.Refuse("Special Abilities", "%s breathe fire (spell:breath); they cast no spells.", p.Name)
	case p.Wizard && sp == Breath:
		return engine.Refuse("Troop Types", "Wizards cast bolts and fireballs, not breath.")
	}
	return nil
}

// aimSpell sets where b's spell falls: a point for lamp and darkness, the
// referee's words for another spell, else a target in range, in sight,
// and friend or foe as the spell wants.
func (s *State) aimSpell(b *Cast, u, t *Unit, at *engine.Vec) error {
	sp := b.Spell
	rng := float64(wizardRange)
	if sp == Breath {
		rng = breathRange
	}
	switch sp {
	case Lamp, Darkness:
		switch {
		case at != nil:
			b.At = *at
		case t != nil:
			b.At = t.Base.Center
		default:
			return engine.Refuse("Spells", "Say where: at:x,y or target:.")
		}
		if d := u.Base.FrontCenter().Dist(b.At); d > rng+1e-6 {
			return engine.Refuse("Spells", "That is %s away; spells reach %s.", inches(d), inches(rng))
		}
		return nil
	case Other:
		if b.Says == "" {
			return engine.Refuse("Spells", "Say what the spell does in text:; the referee rules on it.")
		}
		if t != nil {
			b.Target = t.ID
		}
		return nil
	}
	if t == nil {
		return engine.Refuse("Spells", "%s needs a target:.", sp)
	}
	b.Target = t.ID
	friendly := sp == Haste
	if friendly != (t.Side == u.Side) {
		if friendly {
			return engine.Refuse("Spells", "Haste is cast on a friendly unit.")
		}
		return engine.Refuse("Spells", "%s is a friend.", t.ID)
	}
	if !t.In() {
		return engine.Refuse("", "%s is not on the table.", t.ID)
	}
	if d := u.Base.Gap(t.Base); d > rng+1e-6 {
		return engine.Refuse("Spells", "%s is %s away; it reaches %s.", t.ID, inches(d), inches(rng))
	}
	if !friendly {
		if why := s.hidden(u, t); why != "" {
			return engine.Refuse("Special Abilities", "%s cannot be seen: %s.", t.ID, why)
		}
	}
	if sp == Breath && !u.Base.InArc(t.Base, 45, 45) {
		return engine.Refuse("Special Abilities", "A dragon breathes at what is before it, 45° either side of its facing.")
	}
	if sp == Bolt || sp == Fireball {
		// A wizard throws his bolts at his Mss range (Figures, item 10;
		// Troop Types, note ***): they are his missile attack, held to the
		// arc and line of fire of Missile Fire, never overhead (only bows
		// and longbows shoot so, L134), and halved by cover (L136).
		if err := s.inSight(u, t, t.Base, false); err != nil {
			return err
		}
		b.Cover = s.covered(t.Base)
	}
	return nil
}

// spellTakes rolls what an uncountered spell does to its target t: the
// figures a bolt, fireball or breath kills, each saved by magic
// resistance (none when t is charmed, unless the caster p slays such),
// and the save against slow or fear.
func spellTakes(tx *engine.Tx, b *Cast, p *Profile, t *Unit) {
	// A tired unit's MR is one lower (Fatigue), for its saves and for
	// the MR 0 or less that a bolt kills outright.
	mr := t.moraleRating()
	b.Tired = t.Tired
	save := func() bool {
		r := tx.Roll(engine.TwoD6)
		b.Saves = append(b.Saves, r)
		return r+mr >= 10
	}
	switch b.Spell {
	case Bolt, Fireball, Breath:
		if t.Profile.Has(Charmed) && !p.Slayer {
			b.Immune = true
			return
		}
		b.Hit = min(t.Figures, ballFigures)
		if b.Spell == Bolt {
			b.Hit = min(t.Figures, t.Frontage, boltFigures)
		}
		if b.Cover {
			b.Reached, b.Hit = b.Hit, b.Hit/2
		}
		for range b.Hit {
			if mr <= 0 || !save() {
				b.Killed++
			}
		}
	case Slow, Fear:
		b.Saved = save()
	}
}
