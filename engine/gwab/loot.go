package gwab

import (
	"fmt"
	"iter"

	"github.com/rhapsode/rhapsode/engine"
)

// Bodies and armor (8.9, 10.3).
//
// A fallen Hero or Companion lies where he fell. Any element of his side
// touching the body may take it up (/recover); from then on it carries the
// body at 2 strides a move toward its own edge, or toward a manned chariot
// of its side to load it there, and the body is saved when the carrier
// reaches that edge or touches such a chariot.
// A carrier caught in melee drops the body where it stands.
//
// A fallen Hero's armor is a prize (10.3). A Hero touching the body may
// begin to loot it (/loot), not in the round of the death; if he is still
// touching it, undisturbed, when his clan's turn comes round again, he
// takes the armor (/loot again) and wins honor for it. He then retires
// toward his own edge with it, may hand it to a stand of his clan that
// touches him, or drop it (/drop); the armor is safe once its holder
// reaches his edge. A holder of armor plays no card in melee (10.3.4).

// carryMove is how far a carrier of a body moves (8.9).
const carryMove = 2.0

// BodyTaken is an element taking up a fallen warrior's body.
type BodyTaken struct {
	Clan     ClanTag   `json:"clan"`
	Element  ElementID `json:"element"`
	Label    string    `json:"label"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
	// Driver is set when a chariot's driver got down for the body (3.5).
	Driver bool `json:"driver,omitempty"`
}

// BodySaved is a body carried off the field or loaded on a chariot.
type BodySaved struct {
	Element  ElementID `json:"element"`
	Label    string    `json:"label"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
	Chariot  ElementID `json:"chariot,omitempty"`
}

// BodyDropped is a body set down, by choice or to fight.
type BodyDropped struct {
	Clan     ClanTag   `json:"clan,omitempty"` // set when dropping was the clan's action
	Element  ElementID `json:"element"`
	Label    string    `json:"label"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
}

// LootingBegun is a Hero setting about a fallen Hero's armor.
type LootingBegun struct {
	Clan     ClanTag   `json:"clan"`
	Hero     ElementID `json:"hero"`
	HeroName string    `json:"hero_name"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
	Round    int       `json:"round"`
}

// LootingBroken is looting interrupted.
type LootingBroken struct {
	Hero     ElementID `json:"hero"`
	HeroName string    `json:"hero_name"`
	Why      string    `json:"why"`
}

// ArmorTaken is a fallen Hero's armor in a new holder's hands: stripped
// from the body, or picked up where it was dropped.
type ArmorTaken struct {
	Clan       ClanTag   `json:"clan"`
	Holder     ElementID `json:"holder"`
	HolderName string    `json:"holder_name"`
	Body       ElementID `json:"body"`
	BodyName   string    `json:"body_name"`
	Dropped    bool      `json:"dropped,omitempty"` // picked up, not stripped
}

// ArmorPassed is armor dropped where its holder stands, or handed to a
// stand of his clan (10.3.3, 10.3.4).
type ArmorPassed struct {
	Clan     ClanTag    `json:"clan"`
	Holder   ElementID  `json:"holder"`
	Label    string     `json:"label"`
	Body     ElementID  `json:"body"`
	BodyName string     `json:"body_name"`
	To       ElementID  `json:"to,omitempty"`
	ToLabel  string     `json:"to_label,omitempty"`
	At       engine.Vec `json:"at"`
}

// ArmorSecured is armor carried off the field by its holder.
type ArmorSecured struct {
	Holder   ElementID `json:"holder"`
	Label    string    `json:"label"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
	Clan     ClanTag   `json:"clan"`
}

// ArmorRecovered is a fallen Hero's dropped armor taken back aboard his
// clan's chariot by its driver (3.5): it is off the field, no prize for
// anyone.
type ArmorRecovered struct {
	Clan     ClanTag   `json:"clan"`
	Chariot  ElementID `json:"chariot"`
	Label    string    `json:"label"`
	Body     ElementID `json:"body"`
	BodyName string    `json:"body_name"`
}

func (BodyTaken) Kind() string      { return "gwab.body-taken" }
func (BodySaved) Kind() string      { return "gwab.body-saved" }
func (BodyDropped) Kind() string    { return "gwab.body-dropped" }
func (LootingBegun) Kind() string   { return "gwab.looting-begun" }
func (LootingBroken) Kind() string  { return "gwab.looting-broken" }
func (ArmorTaken) Kind() string     { return "gwab.armor-taken" }
func (ArmorPassed) Kind() string    { return "gwab.armor-passed" }
func (ArmorSecured) Kind() string   { return "gwab.armor-secured" }
func (ArmorRecovered) Kind() string { return "gwab.armor-recovered" }

var lootBodies = engine.BodyTypes{
	BodyTaken{}.Kind():      engine.Decoder[BodyTaken](),
	BodySaved{}.Kind():      engine.Decoder[BodySaved](),
	BodyDropped{}.Kind():    engine.Decoder[BodyDropped](),
	LootingBegun{}.Kind():   engine.Decoder[LootingBegun](),
	LootingBroken{}.Kind():  engine.Decoder[LootingBroken](),
	ArmorTaken{}.Kind():     engine.Decoder[ArmorTaken](),
	ArmorPassed{}.Kind():    engine.Decoder[ArmorPassed](),
	ArmorSecured{}.Kind():   engine.Decoder[ArmorSecured](),
	ArmorRecovered{}.Kind(): engine.Decoder[ArmorRecovered](),
}

var lootCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "recover", Help: "Take up the body of a fallen Hero or Companion of your side to carry it off, or, as a chariot's driver (3.5), take aboard his fallen leader or that leader's dropped armor lying against the chariot (8.9).", Options: []engine.OptionSpec{
		{Name: "element", Help: "the element that takes the body up, or the chariot whose driver gets down", Kind: engine.OptElement, Required: true},
		{Name: "body", Help: "the fallen warrior (his armor, for a driver, when it lies against the chariot)", Kind: engine.OptElement, Required: true},
	}}, Run: recoverBody},
	{CommandSpec: engine.CommandSpec{Name: "loot", Help: "Your Hero loots a fallen Hero's armor: begin, then finish a round later; or pick up dropped armor (10.3).", Options: []engine.OptionSpec{
		{Name: "body", Help: "the fallen Hero whose armor it is", Kind: engine.OptElement, Required: true},
	}}, Run: loot},
	{CommandSpec: engine.CommandSpec{Name: "drop", Help: "Set down a body or armor an element carries, or hand armor to a stand of your clan (6.1, 10.3.3).", Options: []engine.OptionSpec{
		{Name: "element", Help: "the element that carries it", Kind: engine.OptElement, Required: true},
		{Name: "give", Help: "a stand of your clan touching it, to hand the armor to", Kind: engine.OptElement},
	}}, Run: drop},
}

func (b BodyTaken) Apply(s *State) error {
	el, body, err := s.pair(b.Element, b.Body)
	if err != nil {
		return err
	}
	el.Carrying = body.ID
	body.Base.Center = el.Base.Center
	return s.acted(b.Clan)
}

func (b BodySaved) Apply(s *State) error {
	el, body, err := s.pair(b.Element, b.Body)
	if err != nil {
		return err
	}
	el.Carrying = ""
	body.Status, body.Saved = Removed, true
	return nil
}

func (b BodyDropped) Apply(s *State) error {
	el, _, err := s.pair(b.Element, b.Body)
	if err != nil {
		return err
	}
	el.Carrying = ""
	if b.Clan != "" {
		return s.acted(b.Clan)
	}
	return nil
}

func (b LootingBegun) Apply(s *State) error {
	hero, _, err := s.pair(b.Hero, b.Body)
	if err != nil {
		return err
	}
	hero.Looting, hero.LootRound = b.Body, int16(b.Round)
	return s.acted(b.Clan)
}

func (b LootingBroken) Apply(s *State) error {
	hero, err := s.mustElement(b.Hero)
	if err != nil {
		return err
	}
	hero.Looting, hero.LootRound = "", 0
	return nil
}

func (b ArmorTaken) Apply(s *State) error {
	holder, body, err := s.pair(b.Holder, b.Body)
	if err != nil {
		return err
	}
	holder.Armor, holder.Looting, holder.LootRound = body.ID, "", 0
	body.ArmorTaken, body.ArmorDown = true, false
	return s.acted(b.Clan)
}

func (b ArmorPassed) Apply(s *State) error {
	holder, body, err := s.pair(b.Holder, b.Body)
	if err != nil {
		return err
	}
	holder.Armor = ""
	if b.To != "" {
		to, err := s.mustElement(b.To)
		if err != nil {
			return err
		}
		to.Armor = body.ID
	} else {
		at := b.At
		body.ArmorAt, body.ArmorDown = at, true
	}
	return s.acted(b.Clan)
}

func (b ArmorSecured) Apply(s *State) error {
	holder, body, err := s.pair(b.Holder, b.Body)
	if err != nil {
		return err
	}
	holder.Armor = ""
	body.ArmorWonBy = b.Clan
	return nil
}

func (b ArmorRecovered) Apply(s *State) error {
	body, err := s.mustElement(b.Body)
	if err != nil {
		return err
	}
	body.ArmorTaken, body.ArmorDown, body.ArmorWonBy = true, false, b.Clan
	return s.acted(b.Clan)
}

// pair looks up two elements an event names.
func (s *State) pair(a, b ElementID) (*Element, *Element, error) {
	x, err := s.mustElement(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := s.mustElement(b)
	return x, y, err
}

func (b BodyTaken) Text() string {
	if b.Driver {
		return fmt.Sprintf("The driver of %s gets down for the body of %s and drags it aboard (3.5).", b.Label, b.BodyName)
	}
	return fmt.Sprintf("%s takes up the body of %s to carry it off (8.9).", b.Label, b.BodyName)
}

func (b BodySaved) Text() string {
	if b.Chariot == b.Element {
		return fmt.Sprintf("The body of %s is loaded on %s: it is saved (8.9).", b.BodyName, b.Label)
	}
	if b.Chariot != "" {
		return fmt.Sprintf("%s loads the body of %s on the chariot %s: it is saved (8.9).", b.Label, b.BodyName, b.Chariot)
	}
	return fmt.Sprintf("%s carries the body of %s off the field: it is saved (8.9).", b.Label, b.BodyName)
}

func (b BodyDropped) Text() string {
	if b.Clan == "" {
		return fmt.Sprintf("%s sets down the body of %s to defend itself (8.9).", b.Label, b.BodyName)
	}
	return fmt.Sprintf("%s sets down the body of %s.", b.Label, b.BodyName)
}

func (b LootingBegun) Text() string {
	return fmt.Sprintf("%s begins to strip the armor from %s; if none disturbs him, it is his when his turn comes again (10.3.2).", b.HeroName, b.BodyName)
}

func (b LootingBroken) Text() string {
	return fmt.Sprintf("%s is disturbed at his looting: %s.", b.HeroName, b.Why)
}

func (b ArmorTaken) Text() string {
	if b.Dropped {
		return fmt.Sprintf("%s picks up the armor of %s.", b.HolderName, b.BodyName)
	}
	return fmt.Sprintf("%s strips the armor of %s (10.3)!", b.HolderName, b.BodyName)
}

func (b ArmorPassed) Text() string {
	if b.To != "" {
		return fmt.Sprintf("%s hands the armor of %s to %s, who must bear it to their edge (10.3.3).", b.Label, b.BodyName, b.ToLabel)
	}
	return fmt.Sprintf("%s drops the armor of %s at %s (10.3.4).", b.Label, b.BodyName, b.At)
}

func (b ArmorRecovered) Text() string {
	return fmt.Sprintf("The driver of %s gets down for the armor of %s and takes it aboard: it is off the field (3.5).", b.Label, b.BodyName)
}

func (b ArmorSecured) Text() string {
	return fmt.Sprintf("%s carries the armor of %s off the field: it is won (10.3).", b.Label, b.BodyName)
}

// touching reports whether el's base is at a body or token: within
// contact distance of the fallen element's base.
func touching(el *Element, b engine.Base) bool {
	return el.Base.Gap(b) <= engine.ContactTolerance
}

func recoverBody(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	el, err := s.findElement(c.Opt("element"))
	if err != nil {
		return err
	}
	body, err := s.findElement(c.Opt("body"))
	if err != nil {
		return err
	}
	if el.Kind == Chariot && el.Clan == cl.Tag {
		return driverRecovers(tx, s, cl, el, body)
	}
	switch {
	case el.Clan != cl.Tag:
		return s.notTheirs(el, cl)
	case !el.inPlay() || el.Kind == Chariot:
		return engine.Refuse("8.9", "%s cannot carry a body.", el.Label())
	case body.Status != Fallen:
		return engine.Refuse("8.9", "%s is not a fallen warrior lying on the field.", body.Label())
	case s.Clan(body.Clan).Side != cl.Side:
		return engine.Refuse("8.9", "%s fell on the other side; only his own side carries off his body. His armor may be looted (10.3).", body.Name)
	case el.Carrying != "" || el.Armor != "":
		return engine.Refuse("8.9", "%s already carries something; it can carry one thing.", el.Label())
	case s.carrierOf(body) != nil:
		return engine.Refuse("8.9", "%s is already carrying the body of %s.", s.carrierOf(body).Label(), body.Name)
	case !touching(el, body.Base):
		return engine.Refuse("8.9", "%s must touch the body of %s to take it up.", el.Label(), body.Name)
	}
	if foe := s.engagedWith(el); foe != nil {
		return engine.Refuse("8.9", "%s is in melee with %s.", el.Label(), foe.Label())
	}
	if err := tx.Emit(BodyTaken{Clan: cl.Tag, Element: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name}); err != nil {
		return err
	}
	return afterAction(tx)
}

// driverRecovers has the driver of chariot ch get down for his clan's
// fallen leader, his dropped armor, or both, lying against the chariot
// (3.5): a body dragged aboard is loaded on a chariot, and so saved (8.9);
// armor taken aboard is off the field.
func driverRecovers(tx *engine.Tx, s *State, cl *Clan, ch, body *Element) error {
	switch {
	case ch.Status != Standing || !ch.Placed || !ch.Driver:
		return engine.Refuse("3.5", "%s has no driver aboard to get down for a body.", ch.Label())
	case body.Status != Fallen && !body.ArmorDown:
		return engine.Refuse("8.9", "%s is not a fallen warrior lying on the field.", body.Label())
	case body.Clan != ch.Clan || !body.WasHero:
		return engine.Refuse("3.5", "A charioteer gets down only for his own clan's fallen leader; %s is not the %s' fallen Hero.", body.Name, cl.Name)
	}
	takeBody := body.Status == Fallen && s.carrierOf(body) == nil && touching(ch, body.Base)
	takeArmor := body.ArmorDown && touching(ch, armorSpot(body))
	switch {
	case !takeBody && !takeArmor && body.ArmorDown:
		return engine.Refuse("3.5", "Neither the body of %s nor his armor, dropped at %s, lies against %s for its driver to recover.", body.Name, body.ArmorAt, ch.Label())
	case !takeBody && !takeArmor && s.carrierOf(body) != nil:
		return engine.Refuse("8.9", "%s is already carrying the body of %s.", s.carrierOf(body).Label(), body.Name)
	case !takeBody && !takeArmor:
		return engine.Refuse("3.5", "The body of %s must lie against %s for its driver to drag it aboard.", body.Name, ch.Label())
	}
	if foe := s.engagedWith(ch); foe != nil {
		return engine.Refuse("8.9", "%s is in melee with %s.", ch.Label(), foe.Label())
	}
	if takeBody {
		if err := tx.Emit(BodyTaken{Clan: cl.Tag, Element: ch.ID, Label: ch.Label(), Body: body.ID, BodyName: body.Name, Driver: true}); err != nil {
			return err
		}
		if err := tx.Emit(BodySaved{Element: ch.ID, Label: ch.Label(), Body: body.ID, BodyName: body.Name, Chariot: ch.ID}); err != nil {
			return err
		}
	}
	if takeArmor {
		if err := tx.Emit(ArmorRecovered{Clan: cl.Tag, Chariot: ch.ID, Label: ch.Label(), Body: body.ID, BodyName: body.Name}); err != nil {
			return err
		}
	}
	return afterAction(tx)
}

// armorSpot is the token of a fallen Hero's dropped armor (10.3.4).
func armorSpot(body *Element) engine.Base {
	return engine.Base{Center: body.ArmorAt, Width: individualWidth, Depth: individualWidth}
}

func (s *State) carrierOf(body *Element) *Element {
	for i := range s.Elements {
		if s.Elements[i].Carrying == body.ID {
			return &s.Elements[i]
		}
	}
	return nil
}

func loot(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	hero := s.Element(cl.Hero)
	body, err := s.findElement(c.Opt("body"))
	if err != nil {
		return err
	}
	switch {
	case !hero.inPlay():
		return engine.Refuse("10.3.1", "The %s have no Hero standing; only a Hero loots armor.", cl.Name)
	case body.Status == Standing || !body.WasHero:
		return engine.Refuse("10.3.1", "Only a fallen Hero's armor may be looted; %s is not one.", body.Label())
	case hero.Armor != "" || hero.Carrying != "":
		return engine.Refuse("10.3", "%s already carries something.", hero.Name)
	}
	if foe := s.engagedWith(hero); foe != nil {
		return engine.Refuse("10.3.2", "%s is in melee with %s and cannot loot.", hero.Name, foe.Label())
	}
	taken := ArmorTaken{Clan: cl.Tag, Holder: hero.ID, HolderName: hero.Name, Body: body.ID, BodyName: body.Name}
	if body.ArmorDown {
		// Dropped armor is picked up at once.
		if !touching(hero, armorSpot(body)) {
			return engine.Refuse("10.3.4", "%s must stand at the armor of %s, dropped at %s, to pick it up.", hero.Name, body.Name, body.ArmorAt)
		}
		taken.Dropped = true
		if err := tx.Emit(taken); err != nil {
			return err
		}
		return afterAction(tx)
	}
	switch {
	case body.ArmorTaken && body.ArmorWonBy == body.Clan:
		return engine.Refuse("3.5", "The armor of %s is off the field: his clan took it back.", body.Name)
	case body.ArmorTaken:
		return engine.Refuse("10.3", "The armor of %s is already taken.", body.Name)
	case body.Status != Fallen || s.carrierOf(body) != nil:
		return engine.Refuse("10.3", "The body of %s is not lying on the field.", body.Name)
	case !touching(hero, body.Base):
		return engine.Refuse("10.3.2", "%s must touch the body of %s to loot it.", hero.Name, body.Name)
	case int(body.FellRound) == s.Round:
		return engine.Refuse("10.3.2", "%s fell this round; his armor may be looted from the next.", body.Name)
	}
	if hero.Looting != body.ID {
		if err := tx.Emit(LootingBegun{Clan: cl.Tag, Hero: hero.ID, HeroName: hero.Name, Body: body.ID, BodyName: body.Name, Round: s.Round}); err != nil {
			return err
		}
		return afterAction(tx)
	}
	if int(hero.LootRound) == s.Round {
		return engine.Refuse("10.3.2", "%s began looting this round; the armor is his when his clan's turn comes again.", hero.Name)
	}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.inPlay() && o.Clan != cl.Tag && touching(o, body.Base) {
			if err := tx.Emit(LootingBroken{Hero: hero.ID, HeroName: hero.Name, Why: o.Label() + " stands over the body"}); err != nil {
				return err
			}
			return afterAction(tx)
		}
	}
	if err := tx.Emit(taken); err != nil {
		return err
	}
	if err := award(tx, s, hero, armorWon, Armor, "stripping the armor of "+body.Name); err != nil {
		return err
	}
	return afterAction(tx)
}

func drop(tx *engine.Tx, s *State, c engine.Command) error {
	cl, el, err := actingElement(s, c, "element")
	if err != nil {
		return err
	}
	switch {
	case el.Carrying != "":
		if c.Has("give") {
			return engine.Refuse("10.3.3", "Only armor is handed on; a body is set down with /drop.")
		}
		body := s.Element(el.Carrying)
		if err := tx.Emit(BodyDropped{Clan: cl.Tag, Element: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name}); err != nil {
			return err
		}
	case el.Armor != "":
		body := s.Element(el.Armor)
		ev := ArmorPassed{Clan: cl.Tag, Holder: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name, At: el.Base.Center}
		if c.Has("give") {
			to, err := s.findElement(c.Opt("give"))
			if err != nil {
				return err
			}
			switch {
			case to.Clan != el.Clan || !to.inPlay() || to == el || to.Kind == Chariot:
				return engine.Refuse("10.3.3", "Armor is handed only to another stand of the %s on foot.", cl.Name)
			case !el.Base.Touches(to.Base):
				return engine.Refuse("10.3.3", "%s must touch %s to hand over the armor.", to.Label(), el.Label())
			case to.Carrying != "" || to.Armor != "":
				return engine.Refuse("10.3.3", "%s already carries something.", to.Label())
			}
			ev.To, ev.ToLabel = to.ID, to.Label()
		}
		if err := tx.Emit(ev); err != nil {
			return err
		}
	default:
		return engine.Refuse("6.1", "%s carries nothing to drop.", el.Label())
	}
	return afterAction(tx)
}

// burdened adjusts a move for what el carries: a body slows it to 2
// strides (8.9); a body or armor sends it toward its own edge (8.9,
// 10.3.2), though a body may be taken to a chariot of its side.
func (s *State) burdened(el *Element, allowance float64) float64 {
	if el.Carrying != "" {
		return min(allowance, carryMove)
	}
	return allowance
}

// checkBurden refuses a move by a carrier that goes the wrong way.
func (s *State) checkBurden(el *Element, start, end engine.Base) error {
	if el.Carrying == "" && el.Armor == "" {
		return nil
	}
	if el.Carrying != "" && (s.chariotFor(el, end) != nil || s.makesForChariot(el, start, end)) {
		return nil // to load the body on a chariot of its side (8.9)
	}
	if el.Armor != "" && s.isHero(el) && s.nearerOwn(el, start, end) {
		return nil // a Hero with the armor may make for his chariot or his clan (10.3.2)
	}
	if s.towardEnemy(el, start, end) {
		var what string
		if el.Carrying != "" {
			what = "the body of " + s.Element(el.Carrying).Name
		} else {
			what = "the armor of " + s.Element(el.Armor).Name
		}
		if el.Armor != "" && s.isHero(el) {
			return engine.Refuse("10.3.2", "%s bears %s and moves only back toward his own edge, his chariot or other stands of his clan.", el.Label(), what)
		}
		if el.Carrying != "" {
			return engine.Refuse("8.9", "%s bears %s and moves only back toward its own edge, or toward a manned chariot of its side to load it.", el.Label(), what)
		}
		return engine.Refuse("10.3.3", "%s bears %s and moves only back toward its own edge.", el.Label(), what)
	}
	return nil
}

// nearerOwn reports whether a move of el from start to end goes toward
// another standing stand of its clan, its chariot among them: it ends
// nearer that stand, heading within 60 degrees of straight at it (the
// cone an impact's push toward friends uses).
func (s *State) nearerOwn(el *Element, start, end engine.Base) bool {
	for _, o := range s.ClanElements(el.Clan) {
		if o.ID == el.ID || o.Status != Standing || !o.Placed {
			continue
		}
		if headsFor(start, end, o.Base) {
			return true
		}
	}
	return false
}

// makesForChariot reports whether a move of a body's carrier from start
// to end goes toward a chariot of its side, to load the body on it
// (8.9): it ends nearer the chariot, heading within 60 degrees of
// straight at it, as nearerOwn reads a move toward a stand.
func (s *State) makesForChariot(el *Element, start, end engine.Base) bool {
	for o := range s.sideChariots(el) {
		if headsFor(start, end, o.Base) {
			return true
		}
	}
	return false
}

// headsFor reports whether a move from start to end ends nearer the stand
// at b and heads within 60 degrees of straight at its centre.
func headsFor(start, end, b engine.Base) bool {
	step := end.Center.Sub(start.Center)
	to := b.Center.Sub(start.Center)
	return step.Len() >= 1e-9 && to.Len() > 1e-9 && end.Gap(b) < start.Gap(b)-moveSlack && step.Unit().Dot(to.Unit()) >= pushCone
}

// towardEnemy reports whether a move from start to end brings el nearer
// the enemy's edge.
func (s *State) towardEnemy(el *Element, start, end engine.Base) bool {
	dy := end.Center.Y - start.Center.Y
	if s.Clan(el.Clan).Side == Antagonist {
		dy = -dy
	}
	return dy > moveSlack
}

// chariotFor returns a manned chariot of el's side that el touches at b.
func (s *State) chariotFor(el *Element, b engine.Base) *Element {
	for o := range s.sideChariots(el) {
		if b.Gap(o.Base) <= engine.ContactTolerance {
			return o
		}
	}
	return nil
}

// sideChariots yields the chariots in play of el's side, any clan's: those
// a body may be loaded on (8.9).
func (s *State) sideChariots(el *Element) iter.Seq[*Element] {
	side := s.Clan(el.Clan).Side
	return func(yield func(*Element) bool) {
		for i := range s.Elements {
			o := &s.Elements[i]
			if o.Kind == Chariot && o.inPlay() && s.Clan(o.Clan).Side == side && !yield(o) {
				return
			}
		}
	}
}

// atOwnEdge reports whether el's base reaches its side's edge of the table.
func (s *State) atOwnEdge(el *Element) bool {
	for _, p := range el.Base.Corners() {
		if s.Clan(el.Clan).Side == Protagonist && p.Y <= engine.ContactTolerance ||
			s.Clan(el.Clan).Side == Antagonist && p.Y >= s.Board.Depth-engine.ContactTolerance {
			return true
		}
	}
	return false
}

// afterBurdenedMove saves a body or armor its carrier has brought home.
func afterBurdenedMove(tx *engine.Tx, s *State, el *Element) error {
	switch {
	case el.Carrying != "":
		body := s.Element(el.Carrying)
		saved := BodySaved{Element: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name}
		if ch := s.chariotFor(el, el.Base); ch != nil {
			saved.Chariot = ch.ID
			return tx.Emit(saved)
		}
		if s.atOwnEdge(el) {
			return tx.Emit(saved)
		}
	case el.Armor != "" && s.atOwnEdge(el):
		body := s.Element(el.Armor)
		return tx.Emit(ArmorSecured{Holder: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name, Clan: el.Clan})
	}
	return nil
}

// setDownBurdens sets down the body el carries and breaks off its looting,
// when it must fight (8.9, 10.3.2).
func setDownBurdens(tx *engine.Tx, s *State, el *Element) error {
	if el.Carrying != "" {
		body := s.Element(el.Carrying)
		if err := tx.Emit(BodyDropped{Element: el.ID, Label: el.Label(), Body: body.ID, BodyName: body.Name}); err != nil {
			return err
		}
	}
	if el.Looting != "" {
		if err := tx.Emit(LootingBroken{Hero: el.ID, HeroName: el.Name, Why: "he must fight"}); err != nil {
			return err
		}
	}
	return nil
}

// beforeMelee sets down bodies whose carriers must fight and breaks off
// looting by Heroes caught in melee (8.9, 10.3.2).
func beforeMelee(tx *engine.Tx, s *State) error {
	for i := range s.Elements {
		el := &s.Elements[i]
		if el.Carrying == "" && el.Looting == "" || !el.inPlay() || s.engagedWith(el) == nil {
			continue
		}
		if err := setDownBurdens(tx, s, el); err != nil {
			return err
		}
	}
	return nil
}
