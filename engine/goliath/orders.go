package goliath

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rhapsode/rhapsode/engine"
)

// Written orders (Turn sequence, Method 2): each side writes an order for
// each unit, possibly conditional, in a small vocabulary the bot can
// carry out; anything else goes to the referee. Orders are sealed until
// both sides are done, then revealed together and carried out at once:
// turns and formations, moves, charges, then all missiles and spells at
// once with the figures each unit had, then melee with both sides
// striking at once (RULINGS.md, goliath, "written orders").

// StepKind is one thing an order tells a unit to do.
type StepKind string

const (
	HoldStep      StepKind = "hold"
	MoveStep      StepKind = "move"
	ChargeStep    StepKind = "charge"
	FireStep      StepKind = "fire"
	FaceStep      StepKind = "face"
	FormationStep StepKind = "formation"
	CastStep      StepKind = "cast"
)

// Step is one step of an order.
type Step struct {
	Kind     StepKind        `json:"kind"`
	To       *engine.Vec     `json:"to,omitempty"`
	Facing   *engine.Heading `json:"facing,omitempty"`
	Air      bool            `json:"air,omitempty"`
	Target   string          `json:"target,omitempty"`
	Indirect bool            `json:"indirect,omitempty"`
	Frontage int             `json:"frontage,omitempty"`
	Spell    Spell           `json:"spell,omitempty"`
}

func (st Step) String() string {
	switch st.Kind {
	case MoveStep:
		verb := "move to "
		if st.Air {
			verb = "fly to "
		}
		t := verb + st.To.String()
		if st.Facing != nil {
			t += " facing " + st.Facing.String()
		}
		return t
	case ChargeStep:
		return "charge " + st.Target
	case FireStep:
		if st.Indirect {
			return "fire overhead at " + st.Target
		}
		return "fire at " + st.Target
	case FaceStep:
		return "face " + st.Facing.String()
	case FormationStep:
		return fmt.Sprintf("formation %d across", st.Frontage)
	case CastStep:
		if st.To != nil {
			return fmt.Sprintf("cast %s at %s", st.Spell, st.To)
		}
		return fmt.Sprintf("cast %s at %s", st.Spell, st.Target)
	}
	return "hold"
}

// Order is one unit's written order.
type Order struct {
	Unit string `json:"unit"`
	Side Side   `json:"side"`
	Text string `json:"text"` // as written
	// Within, when above 0, makes the order conditional: Steps if an
	// enemy unit is within that many inches as the orders are carried
	// out, Else if not.
	Within float64 `json:"within,omitempty"`
	Steps  []Step  `json:"steps,omitempty"`
	Else   []Step  `json:"else,omitempty"`
	// Referee marks an order the bot cannot carry out.
	Referee bool `json:"referee,omitempty"`
	// Run is what the unit does, once the condition is judged.
	Run []Step `json:"run,omitempty"`
}

// Understood writes the order as the bot reads it.
func (o Order) Understood() string {
	if o.Referee {
		return fmt.Sprintf("for the referee: %q", o.Text)
	}
	seq := func(steps []Step) string {
		var parts []string
		for _, st := range steps {
			parts = append(parts, st.String())
		}
		if len(parts) == 0 {
			return "hold"
		}
		return strings.Join(parts, ", then ")
	}
	if o.Within > 0 {
		return fmt.Sprintf("if an enemy is within %s: %s; otherwise: %s", inches(o.Within), seq(o.Steps), seq(o.Else))
	}
	return seq(o.Steps)
}

// OrderWritten is one unit's sealed order.
type OrderWritten struct {
	Turn  int    `json:"turn"`
	Side  Side   `json:"side"`
	Army  string `json:"army"`
	Order Order  `json:"order"`
}

// OrdersRevealed lays both sides' orders open, with what each unit will
// do now that the conditions are judged.
type OrdersRevealed struct {
	Turn   int     `json:"turn"`
	Orders []Order `json:"orders"`
	Keys   []string
}

// RefereeAsked hands orders the bot cannot carry out to the referee.
type RefereeAsked struct {
	Units []string `json:"units"`
}

// RefereeDone is the referee's /done after carrying them out.
type RefereeDone struct{}

// OrderFailed is a step that could not be carried out.
type OrderFailed struct {
	Unit string `json:"unit"`
	Step string `json:"step"`
	Why  string `json:"why"`
}

// VolleysBegan opens Method 2's missile fire: every unit shoots with the
// figures it has now.
type VolleysBegan struct {
	Turn int `json:"turn"`
}

func (OrderWritten) Kind() string   { return "goliath.order-written" }
func (OrdersRevealed) Kind() string { return "goliath.orders-revealed" }
func (RefereeAsked) Kind() string   { return "goliath.referee-asked" }
func (RefereeDone) Kind() string    { return "goliath.referee-done" }
func (OrderFailed) Kind() string    { return "goliath.order-failed" }
func (VolleysBegan) Kind() string   { return "goliath.volleys-began" }

var orderBodies = engine.BodyTypes{
	OrderWritten{}.Kind():   engine.Decoder[OrderWritten](),
	OrdersRevealed{}.Kind(): engine.Decoder[OrdersRevealed](),
	RefereeAsked{}.Kind():   engine.Decoder[RefereeAsked](),
	RefereeDone{}.Kind():    engine.Decoder[RefereeDone](),
	OrderFailed{}.Kind():    engine.Decoder[OrderFailed](),
	VolleysBegan{}.Kind():   engine.Decoder[VolleysBegan](),
}

var (
	_ engine.Sealed   = OrderWritten{}
	_ engine.Revealer = OrdersRevealed{}
)

func orderKey(turn int, unit string) string { return fmt.Sprintf("orders/%d/%s", turn, unit) }

// Key names the secret: the turn and the unit.
func (b OrderWritten) Key() string { return orderKey(b.Turn, b.Order.Unit) }

// Public is the order face down: only that one was written.
func (b OrderWritten) Public() engine.Body {
	b.Order = Order{Side: b.Side}
	return b
}

// Reveals names every order of the turn.
func (b OrdersRevealed) Reveals() []string { return b.Keys }

func (b OrderWritten) Apply(s *State) error {
	s.Orders = slices.DeleteFunc(s.Orders, func(o Order) bool { return o.Unit == b.Order.Unit })
	s.Orders = append(s.Orders, b.Order)
	return nil
}

// Text tells the table only that an order was written, never which unit
// or what.
func (b OrderWritten) Text() string {
	return fmt.Sprintf("%s write an order.", engine.Capital(b.Army))
}

func (b OrdersRevealed) Apply(s *State) error {
	s.Orders = b.Orders
	return nil
}

func (b OrdersRevealed) Text() string {
	var lines []string
	for _, o := range b.Orders {
		lines = append(lines, fmt.Sprintf("- %s: %s", o.Unit, o.Understood()))
	}
	if len(lines) == 0 {
		return fmt.Sprintf("Turn %d: the orders are revealed. No unit has any; all hold.", b.Turn)
	}
	return fmt.Sprintf("Turn %d: the orders are revealed (units without one hold):\n%s", b.Turn, strings.Join(lines, "\n"))
}

func (b RefereeAsked) Apply(s *State) error {
	s.Stage, s.Pending = Referee, b.Units
	return nil
}

func (b RefereeAsked) Text() string {
	return fmt.Sprintf("The bot cannot carry out the orders of %s: the referee does (/ruling), then /done, and the turn goes on.", strings.Join(b.Units, ", "))
}

func (b RefereeDone) Apply(s *State) error {
	s.Stage, s.Pending = Orders, nil
	return nil
}

func (b RefereeDone) Text() string {
	return "The referee has carried out the orders; the turn goes on."
}

func (b OrderFailed) Apply(s *State) error { return nil }

func (b OrderFailed) Text() string {
	return fmt.Sprintf("%s cannot %s: %s", b.Unit, b.Step, strings.TrimSuffix(b.Why, ".")) + "."
}

func (b VolleysBegan) Apply(s *State) error {
	for i := range s.Units {
		// A unit that left the field before the volleys (it fled, or
		// surrendered, when charged) has no figures to shoot with.
		if u := &s.Units[i]; u.In() {
			u.Volley = u.Figures
		} else {
			u.Volley = 0
		}
	}
	return nil
}

func (b VolleysBegan) Text() string {
	return fmt.Sprintf("Turn %d, missiles and spells: all at once, each unit with the figures it has now.", b.Turn)
}

var orderCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "orders", Help: "Write a unit's sealed order for this turn (written-orders battles); a later order replaces it.",
		Example: `/orders unit:KIN-1 order:"if enemy within 12: charge ORC-2 else move to 30,20"`, Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit", Kind: engine.OptElement, Required: true},
			{Name: "order", Help: "hold; move to X,Y [facing F] [air]; charge UNIT; fire at UNIT [indirect]; face F; formation N; cast SPELL at UNIT|X,Y; joined by then; if enemy within N: … else …", Required: true},
		}}, Run: ordersCommand},
}

func ordersCommand(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Options.Method != WrittenOrders {
		return engine.Refuse("Turn sequence", "This battle is played move/countermove (Method 1); units are moved by /move, /charge and /fire.")
	}
	if s.Stage != Orders {
		return engine.Refuse("Turn sequence", "Orders are written at the start of a turn; it is %s now.", s.Stage)
	}
	u, err := s.own(c.Actor, c.Opt("unit"))
	if err != nil {
		return err
	}
	if s.Armies[u.Side].Done {
		return engine.Refuse("Turn sequence", "%s have already given in their orders this turn.", engine.Capital(s.armyName(u.Side)))
	}
	if !u.In() {
		return engine.Refuse("", "%s is not on the table.", u.ID)
	}
	o, err := s.parseOrder(u, c.Opt("order"))
	if err != nil {
		return err
	}
	if err := tx.Emit(OrderWritten{Turn: s.Turn, Side: u.Side, Army: s.armyName(u.Side), Order: o}); err != nil {
		return err
	}
	tx.Say(engine.Message{To: c.Actor, Text: fmt.Sprintf("Your order for %s, sealed until both sides are done: %s.", u.ID, o.Understood())})
	return nil
}

var (
	condRe = regexp.MustCompile(`^if (?:an )?enem(?:y|ies) (?:is |are |comes? )?within ([0-9.]+)"? ?(?:inches)?\s*(?::|,|then)\s*(.+?)(?:\s+(?:else|otherwise)\s*:?\s*(.+))?$`)
	thenRe = regexp.MustCompile(`\s*(?:;|\bthen\b|,\s*then\b)\s*`)
)

// maxOrder is the most characters of one written order; the bot's
// router takes as many (bot.MaxOrder).
const maxOrder = 300

// parseOrder reads an order; text outside the vocabulary becomes an
// order for the referee.
func (s *State) parseOrder(u *Unit, text string) (Order, error) {
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return Order{}, engine.Refuse("Turn sequence", "An order needs words: what %s is to do (/help orders lists them).", u.Label())
	case n > maxOrder:
		return Order{}, engine.Refuse("Turn sequence", "An order may have at most %d characters; this one has %d.", maxOrder, n)
	}
	o := Order{Unit: u.ID, Side: u.Side, Text: text}
	l := strings.ToLower(text)
	main, alt := l, ""
	if m := condRe.FindStringSubmatch(l); m != nil {
		n, err := strconv.ParseFloat(m[1], 64)
		if err != nil || n <= 0 || n > 100 {
			return Order{}, engine.Refuse("", "The distance in a condition is inches, like \"if enemy within 12: charge ORC-2\".")
		}
		o.Within, main, alt = n, m[2], m[3]
	} else if strings.HasPrefix(l, "if ") {
		o.Referee = true
		return o, nil
	}
	var err error
	if o.Steps, err = s.parseSteps(u, main); err != nil {
		if _, ok := err.(vocabErr); ok {
			return Order{Unit: u.ID, Side: u.Side, Text: text, Referee: true}, nil
		}
		return Order{}, err
	}
	if alt != "" {
		if o.Else, err = s.parseSteps(u, alt); err != nil {
			if _, ok := err.(vocabErr); ok {
				return Order{Unit: u.ID, Side: u.Side, Text: text, Referee: true}, nil
			}
			return Order{}, err
		}
	}
	return o, nil
}

// vocabErr marks words outside the vocabulary: the order goes to the
// referee rather than being refused.
type vocabErr struct{ error }

func (s *State) parseSteps(u *Unit, text string) ([]Step, error) {
	var steps []Step
	var moves, shots int
	for _, part := range thenRe.Split(strings.TrimSpace(text), -1) {
		if part == "" {
			continue
		}
		st, err := s.parseStep(u, strings.Fields(part))
		if err != nil {
			return nil, err
		}
		switch st.Kind {
		case MoveStep, ChargeStep, FaceStep, FormationStep:
			moves++
		case FireStep, CastStep:
			shots++
		}
		if moves > 1 || shots > 1 {
			return nil, engine.Refuse("Turn sequence", "An order holds one move (move, charge, face or formation) and one shot or spell.")
		}
		if moves > 0 && shots > 0 && u.Profile.Wizard {
			return nil, engine.Refuse("Spells", "A wizard casts only if he has not moved this turn: an order may move him or have him cast, not both.")
		}
		if st.Kind != HoldStep {
			steps = append(steps, st)
		}
	}
	return steps, nil
}

func (s *State) parseStep(u *Unit, w []string) (Step, error) {
	r := stepReader{s: s, u: u, w: w, vocab: vocabErr{fmt.Errorf("outside the vocabulary")}}
	switch w[0] {
	case "hold", "stand", "halt":
		if len(w) == 1 {
			return Step{Kind: HoldStep}, nil
		}
	case "move", "fly", "advance", "go":
		return r.move()
	case "charge", "attack":
		return r.charge()
	case "fire", "shoot":
		return r.fire()
	case "face", "turn":
		return r.face()
	case "formation", "frontage":
		return r.formation()
	case "cast", "breathe":
		return r.cast()
	}
	return Step{}, r.vocab
}

// stepReader reads one step of an order for u, its words w; a step it
// cannot read is vocab, and goes to the referee.
type stepReader struct {
	s     *State
	u     *Unit
	w     []string
	vocab error
}

// enemy is the enemy unit a step names.
func (r stepReader) enemy(name string) (string, error) {
	t := r.s.Unit(strings.Trim(name, ".,"))
	if t == nil {
		return "", engine.Refuse("", "There is no unit %q.", name)
	}
	if t.Side == r.u.Side {
		return "", engine.Refuse("", "%s is a friend.", t.ID)
	}
	return t.ID, nil
}

// move reads "move [to] X,Y [air] [facing F]" (fly: through the air).
func (r stepReader) move() (Step, error) {
	w, u := r.w, r.u
	rest := w[1:]
	if len(rest) > 0 && rest[0] == "to" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return Step{}, r.vocab
	}
	p, err := engine.ParseVec(rest[0])
	if err != nil {
		return Step{}, engine.Refuse("", "In a move, %s", err)
	}
	st := Step{Kind: MoveStep, To: &p, Air: w[0] == "fly"}
	rest = rest[1:]
	for len(rest) > 0 {
		switch {
		case rest[0] == "air":
			st.Air, rest = true, rest[1:]
		case rest[0] == "facing" && len(rest) > 1:
			h, err := engine.ReadFacing(rest[1])
			if err != nil {
				return Step{}, err
			}
			st.Facing, rest = &h, rest[2:]
		default:
			return Step{}, r.vocab
		}
	}
	if st.Air && u.Profile.Fly == 0 {
		return Step{}, engine.Refuse("Figures", "%s cannot fly.", u.ID)
	}
	return st, nil
}

// charge reads "charge UNIT".
func (r stepReader) charge() (Step, error) {
	if len(r.w) != 2 {
		return Step{}, r.vocab
	}
	id, err := r.enemy(r.w[1])
	if err != nil {
		return Step{}, err
	}
	if r.u.Profile.ChargeMove() <= 0 {
		return Step{}, engine.Refuse("Troop Types", "%s do not move, and so cannot charge.", r.u.Profile.Name)
	}
	return Step{Kind: ChargeStep, Target: id}, nil
}

// fire reads "fire [at] UNIT [indirect]".
func (r stepReader) fire() (Step, error) {
	rest := r.w[1:]
	if len(rest) > 0 && (rest[0] == "at" || rest[0] == "on") {
		rest = rest[1:]
	}
	if !(len(rest) == 1 || len(rest) == 2 && (rest[1] == "indirect" || rest[1] == "overhead")) {
		return Step{}, r.vocab
	}
	id, err := r.enemy(rest[0])
	if err != nil {
		return Step{}, err
	}
	if !r.u.Profile.Shoots() {
		return Step{}, engine.Refuse("Missile Fire", "%s have no missiles.", r.u.Profile.Name)
	}
	return Step{Kind: FireStep, Target: id, Indirect: len(rest) == 2}, nil
}

// face reads "face F".
func (r stepReader) face() (Step, error) {
	if len(r.w) != 2 {
		return Step{}, r.vocab
	}
	h, err := engine.ReadFacing(r.w[1])
	if err != nil {
		return Step{}, err
	}
	return Step{Kind: FaceStep, Facing: &h}, nil
}

// formation reads "formation N".
func (r stepReader) formation() (Step, error) {
	if len(r.w) != 2 {
		return Step{}, r.vocab
	}
	n, err := strconv.Atoi(r.w[1])
	if err != nil || n < 1 {
		return Step{}, engine.Refuse("Facing and Formation", "A formation is how many figures across, like formation 6.")
	}
	return Step{Kind: FormationStep, Frontage: n}, nil
}

// cast reads "cast SPELL [at] UNIT-OR-X,Y" and "breathe [at] UNIT".
func (r stepReader) cast() (Step, error) {
	w := r.w
	rest := w[1:]
	sp := Breath
	if w[0] == "cast" {
		if len(rest) == 0 {
			return Step{}, r.vocab
		}
		sp, rest = Spell(rest[0]), rest[1:]
		if !slices.Contains(spells, sp) || sp == Other {
			return Step{}, r.vocab
		}
	}
	if len(rest) > 0 && (rest[0] == "at" || rest[0] == "on") {
		rest = rest[1:]
	}
	if len(rest) != 1 {
		return Step{}, r.vocab
	}
	if err := castsSpell(&r.u.Profile, sp); err != nil {
		return Step{}, err
	}
	st := Step{Kind: CastStep, Spell: sp}
	p, err := engine.ParseVec(rest[0])
	switch t := r.s.Unit(rest[0]); {
	case err == nil && sp != Lamp && sp != Darkness:
		return Step{}, engine.Refuse("Spells", "%s is cast at a unit, not at a point.", engine.Capital(string(sp)))
	case err == nil:
		st.To = &p
	case t == nil:
		return Step{}, engine.Refuse("", "There is no unit %q.", rest[0])
	case sp == Haste && t.Side != r.u.Side:
		return Step{}, engine.Refuse("Spells", "Haste is cast on a friendly unit.")
	case sp != Haste && sp != Lamp && sp != Darkness && t.Side == r.u.Side:
		return Step{}, engine.Refuse("Spells", "%s is a friend.", t.ID)
	default:
		st.Target = t.ID
	}
	return st, nil
}

func ordersDone(tx *engine.Tx, s *State, c engine.Command) error {
	next := South
	if s.Armies[South].Done {
		next = North
	}
	side, ok := s.sideOf(c.Actor, next)
	if !ok {
		return engine.Refuse("", "You lead no army in this battle.")
	}
	if s.Armies[side].Done {
		return engine.Refuse("Turn sequence", "%s have already given in their orders.", engine.Capital(s.armyName(side)))
	}
	if err := tx.Emit(SideDone{Side: side, Army: s.armyName(side), Stage: Orders}); err != nil {
		return err
	}
	if !s.Armies[side.Other()].Done {
		return nil
	}
	return s.reveal(tx)
}

// reveal lays the orders open, judges their conditions, and carries them
// out (or hands some to the referee first).
func (s *State) reveal(tx *engine.Tx) error {
	b := OrdersRevealed{Turn: s.Turn}
	for i := range s.Units {
		u := &s.Units[i]
		o := s.order(u.ID)
		if o == nil {
			continue
		}
		r := *o
		r.Run = r.Steps
		if r.Within > 0 {
			near := false
			for _, e := range s.inPlay(u.Side.Other()) {
				if e.Base.Gap(u.Base) <= r.Within+1e-6 {
					near = true
				}
			}
			if !near {
				r.Run = r.Else
			}
		}
		b.Orders = append(b.Orders, r)
		b.Keys = append(b.Keys, orderKey(s.Turn, u.ID))
	}
	if err := tx.Emit(b); err != nil {
		return err
	}
	var ref []string
	for _, o := range s.Orders {
		if o.Referee {
			ref = append(ref, o.Unit)
		}
	}
	if len(ref) > 0 {
		return tx.Emit(RefereeAsked{Units: ref})
	}
	return s.carryOut(tx)
}

// order returns the unit's order this turn, or nil.
func (s *State) order(id string) *Order {
	for i := range s.Orders {
		if s.Orders[i].Unit == id {
			return &s.Orders[i]
		}
	}
	return nil
}

// ordersMove reports a unit whose written order this turn moves or
// charges it. Under written orders every unit moves at once, so such a
// unit is on the move while the others pass it, whichever the bot moves
// first, and gives no pass-through fire (Missile Fire, L128; RULINGS.md,
// goliath, "carrying out orders simultaneously").
func (s *State) ordersMove(u *Unit) bool { return s.ordered(u, MoveStep, ChargeStep) }

// ordersShot reports a unit whose written order this turn, as revealed,
// is to shoot or cast.
func (s *State) ordersShot(u *Unit) bool { return s.ordered(u, FireStep, CastStep) }

// ordered reports whether u's written order this turn has a step of one
// of kinds.
func (s *State) ordered(u *Unit, kinds ...StepKind) bool {
	if o := s.order(u.ID); o != nil {
		for _, st := range o.Run {
			if slices.Contains(kinds, st.Kind) {
				return true
			}
		}
	}
	return false
}

// chargesMet reports two units ordered to charge each other, t's charge
// carried out first and now touching u: under written orders the two
// charges went in at once and met (RULINGS.md, goliath, "carrying out
// orders simultaneously").
func (s *State) chargesMet(u, t *Unit) bool {
	o := s.order(t.ID)
	if o == nil || !t.Charged || !u.Able() || !slices.Contains(s.touching(u), t) {
		return false
	}
	return slices.ContainsFunc(o.Run, func(st Step) bool { return st.Kind == ChargeStep && st.Target == u.ID })
}

// carryOut does what the revealed orders say, then the melee and the end
// of the turn.
func (s *State) carryOut(tx *engine.Tx) error {
	if s.Stage == Referee {
		if err := tx.Emit(RefereeDone{}); err != nil {
			return err
		}
	}
	steps := func(kinds ...StepKind) [][2]any {
		var by [2][][2]any
		for _, o := range s.Orders {
			for _, st := range o.Run {
				if slices.Contains(kinds, st.Kind) {
					by[o.Side] = append(by[o.Side], [2]any{o.Unit, st})
				}
			}
		}
		// The sides take turns, the south first on odd turns.
		first := South
		if s.Turn%2 == 0 {
			first = North
		}
		var out [][2]any
		for i := 0; i < len(by[0]) || i < len(by[1]); i++ {
			for _, side := range []Side{first, first.Other()} {
				if i < len(by[side]) {
					out = append(out, by[side][i])
				}
			}
		}
		return out
	}
	run := func(list [][2]any, simultaneous bool) error {
		for _, x := range list {
			if s.Stage == Over {
				return nil
			}
			u, st := s.Unit(x[0].(string)), x[1].(Step)
			if err := s.execute(tx, u, st, simultaneous); err != nil {
				return err
			}
		}
		return nil
	}
	if err := run(steps(FaceStep, FormationStep), false); err != nil {
		return err
	}
	if err := run(steps(MoveStep), false); err != nil {
		return err
	}
	if err := run(steps(ChargeStep), false); err != nil {
		return err
	}
	shots := steps(FireStep, CastStep)
	if len(shots) > 0 {
		if err := tx.Emit(VolleysBegan{Turn: s.Turn}); err != nil {
			return err
		}
		if err := run(shots, true); err != nil {
			return err
		}
		var hit []string
		for _, x := range shots {
			if st := x[1].(Step); st.Target != "" {
				hit = append(hit, st.Target)
			}
		}
		// Those who failed their save against fear check morale now,
		// once each, in the order the spells were cast.
		feared := map[string]bool{}
		for _, id := range hit {
			if t := s.Unit(id); t != nil && t.Afraid && !feared[id] {
				feared[id] = true
				if _, err := s.test(tx, t, "under a spell of fear", false); err != nil {
					return err
				}
			}
		}
		if _, err := s.checkHeavy(tx, hit...); err != nil {
			return err
		}
	}
	if over, err := s.verdict(tx, false); over || err != nil {
		return err
	}
	if err := s.meleePhase(tx, true); err != nil {
		return err
	}
	return s.endTurn(tx)
}

// execute carries out one step of an order. A step the rules refuse is
// reported, and the turn goes on.
func (s *State) execute(tx *engine.Tx, u *Unit, st Step, simultaneous bool) error {
	fail := func(err error) error {
		if r, ok := engine.IsRefusal(err); ok {
			return tx.Emit(OrderFailed{Unit: u.ID, Step: st.String(), Why: r.Text})
		}
		return err
	}
	if err := s.canMove(u); err != nil && st.Kind != FireStep && st.Kind != CastStep {
		return fail(err)
	}
	target := func() (*Unit, error) { return s.findUnit(st.Target) }
	if simultaneous && u.Volley == 0 && (u.Figures == 0 || !u.In()) {
		return nil // gone before the volleys began: nothing left to carry out
	}
	switch st.Kind {
	case FaceStep:
		return fail(s.face(tx, u, *st.Facing))
	case FormationStep:
		return fail(s.reform(tx, u, st.Frontage))
	case MoveStep:
		n := tx.Emitted()
		if err := s.move(tx, u, *st.To, st.Facing, st.Air, true); err != nil {
			return fail(err)
		}
		if tx.Emitted() == n {
			return tx.Emit(OrderFailed{Unit: u.ID, Step: st.String(), Why: "the way is too long, blocked or off its facing, and it cannot go any part of it"})
		}
		return nil
	case ChargeStep:
		t, err := target()
		if err != nil {
			return fail(err)
		}
		if s.chargesMet(u, t) {
			// The charges went in at once, so t was charged as well as
			// u: it checks morale too (Morale Check, L176).
			_, err := s.test(tx, t, "on being charged by "+u.ID+", whose charge met its own", false)
			return err
		}
		return fail(s.charge(tx, u, t))
	case FireStep:
		t, err := target()
		if err != nil {
			return fail(err)
		}
		sh := shot{indirect: st.Indirect, simultaneous: simultaneous}
		if err := s.canShoot(u, t, t.Base, sh); err != nil {
			return fail(err)
		}
		if err := s.shoot(tx, u, t, sh); err != nil {
			return err
		}
		// Archers that stood still loose their second volley at the same
		// target, if it still stands (Missile Fire, Rate of Fire).
		if n, _, _ := s.shotsAllowed(u); u.Shots < n && t.In() && s.canShoot(u, t, t.Base, sh) == nil {
			return s.shoot(tx, u, t, sh)
		}
		return nil
	case CastStep:
		var t *Unit
		if st.Target != "" {
			var err error
			if t, err = target(); err != nil {
				return fail(err)
			}
		}
		return fail(s.cast(tx, u, st.Spell, t, st.To, "", true))
	}
	return nil
}
