package gwab

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Chariots (8, 9.2, 9.3, 9.5, 13.2).
//
// A chariot carries its driver (3.5) and at most one Hero or Companion
// besides. It is driven up to 9 strides (8.1) with /drive: it wheels about
// a front corner to face where it is sent, the outer front corner's arc
// counting against the 9 strides (8.4), then runs straight; a last wheel
// may turn it to a new facing. It may instead back one stride (8.5). It
// passes through its own clan's stands but halts beyond them (8.3), and it
// rides down any other clan's skirmishers in its way (8.8). A Hero or
// Companion riding beside the driver may throw a javelin during the drive,
// from the point of it nearest the target (8.6, 9.2); with a load agreed
// (13.2) the chariot takes on more by passing behind its warbands.
//
// Mounting or dismounting costs the figure one of his 3 strides, and the
// drive is prorated against the rest of his turn (8.2.1): every 3 strides
// driven take one of his. A chariot whose last crewman falls while it is
// moving bolts, and runs on at the start of every round (8.7).
//
// RULINGS.md, "Chariots", records every choice the text leaves open.

const (
	chariotMove = 9.0 // 8.1
	mountStride = 1.0 // 8.2: mounting or dismounting, of the figure's 3
	backStride  = 1.0 // 8.5
	maxJavelins = 20  // 13.2: the largest load a book may agree
	// pathStep is how finely a drive is walked to find where it meets
	// terrain, the table's edge, the line behind the warbands, or the
	// point nearest a javelin's target.
	pathStep = 0.05
)

// manned reports whether anyone is aboard chariot e to drive it: its
// driver, or a Hero or Companion at the reins (9.2).
func (e *Element) manned() bool { return e.Driver || e.Rider != "" }

// fighter is who fights for el in melee (10.1.1): a chariot fights as the
// Hero or Companion riding it, otherwise as its charioteer; every other
// element as itself.
func (s *State) fighter(el *Element) *Element {
	if el != nil && el.Kind == Chariot && el.Rider != "" {
		if r := s.Element(el.Rider); r != nil {
			return r
		}
	}
	return el
}

// chariotOf is el if it is a chariot, the chariot el rides, or nil.
func (s *State) chariotOf(el *Element) *Element {
	switch {
	case el.Kind == Chariot:
		return el
	case el.Aboard != "":
		if ch := s.Element(el.Aboard); ch != nil && ch.Kind == Chariot {
			return ch
		}
	}
	return nil
}

// woundLabel is how a wound's victim reads: a wound on a chariot is a
// wound on its driver (10.1.3).
func woundLabel(el *Element) string {
	if el.Kind == Chariot {
		return owner(string(el.ID)) + " driver"
	}
	return el.Label()
}

// aim resolves what a missile is shot at (9.5): a chariot's rider, unless
// the shooter names its driver with aim:driver; a Hero or Companion riding a
// chariot is shot at in it. It returns the stand shot at, for range and
// blocking, and the one the missile wounds.
func (s *State) aim(target *Element, at string) (shotAt, victim *Element, err error) {
	at = strings.ToLower(strings.TrimSpace(at))
	if at != "" && at != "driver" && at != "rider" {
		return nil, nil, engine.Refuse("9.5", "aim:%s is not allowed; say driver or rider.", at)
	}
	if target.Aboard != "" && target.Status == Standing {
		if ch := s.Element(target.Aboard); ch != nil {
			if at == "driver" {
				return nil, nil, engine.Refuse("9.5", "%s rides %s; to shoot at its driver, name the chariot with aim:driver.", target.Label(), ch.Label())
			}
			return ch, target, nil
		}
	}
	if target.Kind != Chariot {
		if at != "" {
			return nil, nil, engine.Refuse("9.5", "aim: chooses between a chariot's rider and its driver; %s is no chariot.", target.Label())
		}
		return target, target, nil
	}
	rider := s.Element(target.Rider)
	switch {
	case at == "rider" && rider == nil:
		return nil, nil, engine.Refuse("9.5", "No Hero or Companion rides %s; only its driver can be shot at.", target.Label())
	case at == "driver" && target.Driver, rider == nil:
		return target, target, nil
	}
	// The rider by default; with no charioteer left, he is also the one
	// at the reins.
	return target, rider, nil
}

// The events of chariots.

// Mounted is a Hero or Companion walking up to a chariot and mounting it
// (8.2): beside its driver, or at the reins when it has none. A chariot of
// another clan, mounted empty, passes to the mounter's clan (8.2.2).
type Mounted struct {
	Clan         ClanTag   `json:"clan"`
	Figure       ElementID `json:"figure"`
	FigureLabel  string    `json:"figure_label"`
	Chariot      ElementID `json:"chariot"`
	ChariotLabel string    `json:"chariot_label"`
	Walked       float64   `json:"walked,omitempty"`
	// From is the clan the chariot belonged to when that was not the
	// mounter's; Taken is set when it was an antagonist's.
	From     ClanTag `json:"from,omitempty"`
	FromName string  `json:"from_name,omitempty"`
	Taken    bool    `json:"taken,omitempty"`
	Reins    bool    `json:"reins,omitempty"`    // no driver: the figure drives
	Remanned bool    `json:"remanned,omitempty"` // it was running away (8.7)
	// Acted is set when mounting is the whole of the clan's action.
	Acted bool `json:"acted,omitempty"`
}

// Driven is a chariot's drive (8): a wheel, a straight run (negative when
// it backs, 8.5) and a last wheel, in strides of the 9 (8.1, 8.4).
type Driven struct {
	Clan    ClanTag     `json:"clan"`
	Chariot ElementID   `json:"chariot"`
	Label   string      `json:"label"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
	Wheel   float64     `json:"wheel,omitempty"`
	Run     float64     `json:"run,omitempty"`
	Turn    float64     `json:"turn,omitempty"`
	Strides float64     `json:"strides"`
	// Halt says why the drive ended short of where it was sent.
	Halt string `json:"halt,omitempty"`
	// Refill is set when the chariot passed behind its warbands and took
	// on a fresh load of Load javelins (13.2).
	Refill bool `json:"refill,omitempty"`
	Load   int  `json:"load,omitempty"`
	// Contacts names the antagonist elements the drive ends touching,
	// whose melee is fought at the end of the round (5, 10).
	Contacts []string `json:"contacts,omitempty"`
}

// RodeDown is a skirmish stand ridden down by a chariot and dispersed for
// the rest of the book (8.8).
type RodeDown struct {
	Chariot      ElementID `json:"chariot"`
	ChariotLabel string    `json:"chariot_label"`
	Element      ElementID `json:"element"`
	Label        string    `json:"label"`
}

// JavelinThrown is a javelin thrown from a chariot by the Hero or
// Companion riding it (8.6, 9.2), from the point of the drive nearest the
// target.
type JavelinThrown struct {
	Clan         ClanTag     `json:"clan"`
	Chariot      ElementID   `json:"chariot"`
	ChariotLabel string      `json:"chariot_label"`
	Thrower      ElementID   `json:"thrower"`
	ThrowerLabel string      `json:"thrower_label"`
	Target       ElementID   `json:"target"`
	TargetLabel  string      `json:"target_label"`
	At           engine.Vec  `json:"at"`
	Moving       bool        `json:"moving,omitempty"`
	Distance     float64     `json:"distance"`
	Long         bool        `json:"long,omitempty"`
	Card         engine.Card `json:"card"`
	Hit          bool        `json:"hit"`
	Kept         []Kept      `json:"kept,omitempty"`
	// Thrown is how many of its Load the chariot has thrown after this
	// throw (13.2); Load is 0 when the book sets no limit.
	Thrown int  `json:"thrown,omitempty"`
	Load   int  `json:"load,omitempty"`
	Acted  bool `json:"acted,omitempty"`
}

// Dismounted is a Hero or Companion getting down from a chariot and
// walking what is left of his turn (8.2, 8.2.1).
type Dismounted struct {
	Clan         ClanTag     `json:"clan"`
	Figure       ElementID   `json:"figure"`
	FigureLabel  string      `json:"figure_label"`
	Chariot      ElementID   `json:"chariot"`
	ChariotLabel string      `json:"chariot_label"`
	Base         engine.Base `json:"base"`
	Walked       float64     `json:"walked,omitempty"`
	Acted        bool        `json:"acted,omitempty"`
}

// ThrownOut is a rider who fell in his chariot: his body lies behind it.
type ThrownOut struct {
	Chariot      ElementID   `json:"chariot"`
	ChariotLabel string      `json:"chariot_label"`
	Figure       ElementID   `json:"figure"`
	FigureLabel  string      `json:"figure_label"`
	Base         engine.Base `json:"base"`
}

// Bolted is a moving chariot left with no one aboard: it runs on (8.7).
type Bolted struct {
	Chariot ElementID `json:"chariot"`
	Label   string    `json:"label"`
}

// RanAway is a runaway chariot's run at the start of a round (8.7).
type RanAway struct {
	Chariot ElementID   `json:"chariot"`
	Label   string      `json:"label"`
	From    engine.Base `json:"from"`
	To      engine.Base `json:"to"`
	Strides float64     `json:"strides"`
	// Off is set when it ran off the table; Stop says what else stopped
	// it, and Against names what it struck or the ground it halted at.
	Off     bool    `json:"off,omitempty"`
	Stop    RunStop `json:"stop,omitempty"`
	Against string  `json:"against,omitempty"`
}

// RunStop is what stopped a runaway chariot short of its full run (8.7).
type RunStop uint8

const (
	RanFree      RunStop = iota // it ran its whole 9 strides, or off the table
	StruckStand                 // it struck a stand, and stands there
	HaltedAtEdge                // it halted at the edge of rough ground or water
)

// UnmarshalJSON reads a run, including those logged before the stop was
// a fact of its own, when a sentence said it ("strikes X", "halts at the
// edge of Y").
func (b *RanAway) UnmarshalJSON(data []byte) error {
	type plain RanAway
	var v struct {
		plain
		Halt string `json:"halt"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*b = RanAway(v.plain)
	if b.Stop == RanFree && v.Halt != "" {
		if name, ok := strings.CutPrefix(v.Halt, "strikes "); ok {
			b.Stop, b.Against = StruckStand, name
		} else {
			b.Stop, b.Against = HaltedAtEdge, strings.TrimPrefix(v.Halt, "halts at the edge of ")
		}
	}
	return nil
}

func (Mounted) Kind() string       { return "gwab.mounted" }
func (Driven) Kind() string        { return "gwab.driven" }
func (RodeDown) Kind() string      { return "gwab.rode-down" }
func (JavelinThrown) Kind() string { return "gwab.javelin-thrown" }
func (Dismounted) Kind() string    { return "gwab.dismounted" }
func (ThrownOut) Kind() string     { return "gwab.thrown-out" }
func (Bolted) Kind() string        { return "gwab.bolted" }
func (RanAway) Kind() string       { return "gwab.ran-away" }

var chariotBodies = engine.BodyTypes{
	Mounted{}.Kind():       engine.Decoder[Mounted](),
	Driven{}.Kind():        engine.Decoder[Driven](),
	RodeDown{}.Kind():      engine.Decoder[RodeDown](),
	JavelinThrown{}.Kind(): engine.Decoder[JavelinThrown](),
	Dismounted{}.Kind():    engine.Decoder[Dismounted](),
	ThrownOut{}.Kind():     engine.Decoder[ThrownOut](),
	Bolted{}.Kind():        engine.Decoder[Bolted](),
	RanAway{}.Kind():       engine.Decoder[RanAway](),
}

// mustChariot returns the chariot id, or an error when the log names
// something else.
func (s *State) mustChariot(id ElementID) (*Element, error) {
	ch, err := s.mustElement(id)
	if err != nil {
		return nil, err
	}
	if ch.Kind != Chariot {
		return nil, fmt.Errorf("gwab: %s is not a chariot", id)
	}
	return ch, nil
}

func (b Mounted) Apply(s *State) error {
	fig, err := s.mustElement(b.Figure)
	if err != nil {
		return err
	}
	ch, err := s.mustChariot(b.Chariot)
	if err != nil {
		return err
	}
	if _, err := s.mustClan(b.Clan); err != nil {
		return err
	}
	fig.Placed, fig.Aboard = false, ch.ID
	ch.Rider, ch.Clan, ch.Runaway = fig.ID, b.Clan, false
	if b.Acted {
		return s.acted(b.Clan)
	}
	return nil
}

func (b Driven) Apply(s *State) error {
	ch, err := s.mustChariot(b.Chariot)
	if err != nil {
		return err
	}
	ch.Base, ch.LastDriven, ch.Runaway = b.To, int16(s.Round), false
	if b.Refill {
		ch.Thrown = 0
	}
	return s.acted(b.Clan)
}

func (b RodeDown) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	el.Status = Removed
	return nil
}

func (b JavelinThrown) Apply(s *State) error {
	ch, err := s.mustChariot(b.Chariot)
	if err != nil {
		return err
	}
	if _, err := s.mustElement(b.Target); err != nil {
		return err
	}
	if err := s.keep(b.Kept); err != nil {
		return err
	}
	if b.Load > 0 {
		ch.Thrown = int16(b.Thrown)
	}
	if b.Acted {
		return s.acted(b.Clan)
	}
	return nil
}

func (b Dismounted) Apply(s *State) error {
	if err := s.alight(b.Figure, b.Chariot, b.Base); err != nil {
		return err
	}
	if b.Acted {
		return s.acted(b.Clan)
	}
	return nil
}

func (b ThrownOut) Apply(s *State) error { return s.alight(b.Figure, b.Chariot, b.Base) }

// alight puts a figure off its chariot onto the table at base.
func (s *State) alight(figure, chariot ElementID, base engine.Base) error {
	fig, err := s.mustElement(figure)
	if err != nil {
		return err
	}
	ch, err := s.mustChariot(chariot)
	if err != nil {
		return err
	}
	fig.Aboard, fig.Placed, fig.Base = "", true, base
	if ch.Rider == fig.ID {
		ch.Rider = ""
	}
	return nil
}

func (b Bolted) Apply(s *State) error {
	ch, err := s.mustChariot(b.Chariot)
	if err != nil {
		return err
	}
	ch.Runaway = true
	return nil
}

func (b RanAway) Apply(s *State) error {
	ch, err := s.mustChariot(b.Chariot)
	if err != nil {
		return err
	}
	ch.Base = b.To
	switch {
	case b.Off:
		ch.Status, ch.Runaway = Removed, false
	case b.Stop != RanFree:
		ch.Runaway = false
	}
	return nil
}

// The commands.

var chariotCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "drive", Help: "Drive a chariot of your clan up to 9 strides, wheeling to turn; its rider may throw a javelin on the way (8, 9.2).", Example: "/drive element:ACH-CH to:30,20", Options: []engine.OptionSpec{
		{Name: "element", Help: "the chariot, or the Hero or Companion riding it", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "where its front centre ends, as x,y: it wheels to face the place, then drives straight there", Kind: engine.OptPoint},
		{Name: "toward", Help: "an element to wheel toward and drive at, halting at contact", Kind: engine.OptElement},
		{Name: "strides", Help: "with toward:, how far to drive (default: as far as it can)", Kind: engine.OptInt},
		{Name: "facing", Help: "a last wheel to face N, NE, E… or degrees; given alone, a wheel where it stands"},
		{Name: "back", Help: "1: back one stride straight behind (8.5)", Kind: engine.OptInt},
		{Name: "javelin", Help: "an antagonist element the rider throws at, from the point of the drive nearest it (8.6)", Kind: engine.OptElement},
		{Name: "aim", Help: "when the javelin is thrown at a chariot: its rider (the default) or its driver (9.5)", Choices: []string{"rider", "driver"}},
		{Name: "mount", Help: "a Hero or Companion of your clan who walks up and mounts first; the drive is shorter (8.2.1)", Kind: engine.OptElement},
		{Name: "dismount", Help: "the rider, who gets down at the end of the drive (8.2.1)", Kind: engine.OptElement},
		{Name: "alight", Help: "with dismount:, where the rider's front centre ends, as x,y (default: just behind the chariot)", Kind: engine.OptPoint},
	}}, Run: driveChariot},
	{CommandSpec: engine.CommandSpec{Name: "mount", Help: "A Hero or Companion walks up to a chariot and mounts it, spending 1 of his 3 strides (8.2).", Example: "/mount element:ACH-H chariot:ACH-CH", Options: []engine.OptionSpec{
		{Name: "element", Help: "the Hero or Companion", Kind: engine.OptElement, Required: true},
		{Name: "chariot", Help: "the chariot he mounts", Kind: engine.OptElement, Required: true},
	}}, Run: mountChariot},
	{CommandSpec: engine.CommandSpec{Name: "dismount", Help: "A Hero or Companion gets down from his chariot, spending 1 of his 3 strides, and may walk the other 2 (8.2).", Example: "/dismount element:ACH-H to:30,24", Options: []engine.OptionSpec{
		{Name: "element", Help: "the Hero or Companion riding", Kind: engine.OptElement, Required: true},
		{Name: "to", Help: "where his front centre ends, as x,y (default: just behind the chariot)", Kind: engine.OptPoint},
		{Name: "facing", Help: "his facing at the end (default: the chariot's)"},
	}}, Run: dismountChariot},
}

// order is what a player asks of a chariot and its crew in one action.
type order struct {
	chariot      *Element
	to           *engine.Vec
	toward       *Element
	strides      float64 // with toward:; 0 for as far as it can go
	facing       *engine.Heading
	back         bool
	javelin      *Element
	at           string
	mount        *Element
	dismount     *Element
	alight       *engine.Vec
	alightFacing *engine.Heading
}

func (o order) moving() bool { return o.to != nil || o.toward != nil || o.back || o.facing != nil }

func driveChariot(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	el, err := s.findElement(c.Opt("element"))
	if err != nil {
		return err
	}
	ch := s.chariotOf(el)
	if ch == nil {
		return engine.Refuse("8", "%s is no chariot and rides in none; foot elements walk with /move.", el.Label())
	}
	o := order{chariot: ch}
	ways := 0
	for _, k := range []string{"to", "toward", "back"} {
		if c.Has(k) {
			ways++
		}
	}
	if ways > 1 {
		return engine.Refuse("", "Give one of to:, toward: or back:, not more.")
	}
	if c.Has("to") {
		p, err := engine.ReadPoint("to", c.Opt("to"), "strides")
		if err != nil {
			return err
		}
		o.to = &p
	}
	if c.Has("toward") {
		t, err := s.findElement(c.Opt("toward"))
		if err != nil {
			return err
		}
		switch {
		case t.ID == ch.ID || t.ID == ch.Rider:
			return engine.Refuse("", "A chariot cannot drive toward itself.")
		case !t.Placed || t.Status == Removed:
			return engine.Refuse("", "%s is not on the table.", t.Label())
		}
		o.toward = t
	}
	if c.Has("strides") {
		if !c.Has("toward") {
			return engine.Refuse("", "strides: goes with toward:; with to: the place says how far.")
		}
		n, err := c.Int("strides", 0)
		if err != nil {
			return err
		}
		if n < 1 || float64(n) > chariotMove {
			return engine.Refuse("8.1", "strides: must be from 1 to %g for a chariot.", chariotMove)
		}
		o.strides = float64(n)
	}
	if c.Has("back") {
		n, err := c.Int("back", 0)
		if err != nil {
			return err
		}
		if n != 1 {
			return engine.Refuse("8.5", "A chariot backs one stride in a turn, no more: back:1.")
		}
		if c.Has("facing") {
			return engine.Refuse("8.5", "A chariot backs straight, without wheeling; leave out facing:.")
		}
		o.back = true
	}
	if c.Has("facing") {
		h, err := engine.ReadFacing(c.Opt("facing"))
		if err != nil {
			return err
		}
		o.facing = &h
	}
	if c.Has("javelin") {
		if o.javelin, err = s.findElement(c.Opt("javelin")); err != nil {
			return err
		}
		o.at = c.Opt("aim")
	} else if c.Has("aim") {
		return engine.Refuse("9.5", "aim: goes with javelin:.")
	}
	if c.Has("mount") {
		if o.mount, err = s.findElement(c.Opt("mount")); err != nil {
			return err
		}
	}
	if c.Has("dismount") {
		if o.dismount, err = s.findElement(c.Opt("dismount")); err != nil {
			return err
		}
	}
	if c.Has("alight") {
		if o.dismount == nil {
			return engine.Refuse("8.2", "alight: goes with dismount:.")
		}
		p, err := engine.ReadPoint("alight", c.Opt("alight"), "strides")
		if err != nil {
			return err
		}
		o.alight = &p
	}
	if !o.moving() && o.javelin == nil && o.mount == nil && o.dismount == nil {
		return engine.Refuse("", "Say what %s does: to:, toward:, back:1 or facing: to drive; javelin: to throw; mount: or dismount:.", ch.Label())
	}
	return runOrder(tx, s, cl, o)
}

func mountChariot(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	fig, err := s.findElement(c.Opt("element"))
	if err != nil {
		return err
	}
	ch, err := s.findElement(c.Opt("chariot"))
	if err != nil {
		return err
	}
	if ch.Kind != Chariot {
		return engine.Refuse("8.2", "%s is not a chariot.", ch.Label())
	}
	return runOrder(tx, s, cl, order{chariot: ch, mount: fig})
}

func dismountChariot(tx *engine.Tx, s *State, c engine.Command) error {
	cl, err := actingClan(s, c.Actor)
	if err != nil {
		return err
	}
	fig, err := s.findElement(c.Opt("element"))
	if err != nil {
		return err
	}
	ch := s.chariotOf(fig)
	if ch == nil || fig.Kind == Chariot {
		return engine.Refuse("8.2", "%s rides no chariot.", fig.Label())
	}
	o := order{chariot: ch, dismount: fig}
	if c.Has("to") {
		p, err := engine.ReadPoint("to", c.Opt("to"), "strides")
		if err != nil {
			return err
		}
		o.alight = &p
	}
	if c.Has("facing") {
		h, err := engine.ReadFacing(c.Opt("facing"))
		if err != nil {
			return err
		}
		o.alightFacing = &h
	}
	return runOrder(tx, s, cl, o)
}

// fireFromChariot is /fire given to a chariot or to the Hero or Companion
// riding it: he throws a javelin where the chariot stands (9.2).
func fireFromChariot(tx *engine.Tx, s *State, c engine.Command, cl *Clan, ch *Element) error {
	target, err := s.findElement(c.Opt("target"))
	if err != nil {
		return err
	}
	return runOrder(tx, s, cl, order{chariot: ch, javelin: target, at: c.Opt("aim")})
}

// runOrder checks a chariot's action whole, then records it: the mount,
// the drive and what it rides down, the javelin, the dismount, in that
// order, and then what follows a clan's action.
func runOrder(tx *engine.Tx, s *State, cl *Clan, o order) error {
	ch := o.chariot
	switch {
	case ch.Status != Standing:
		return engine.Refuse("8", "%s is out of the fight.", ch.Label())
	case !ch.Placed:
		return engine.Refuse("7", "%s is not on the table.", ch.Label())
	}
	p, err := s.planOrder(cl, o)
	if err != nil {
		return err
	}

	// Exactly one event ends the clan's turn: the drive, else the throw,
	// else the mount, else the dismount.
	if p.mounted != nil {
		p.mounted.Acted = !o.moving() && p.throw == nil
		if err := tx.Emit(*p.mounted); err != nil {
			return err
		}
		if err := chariotHonor(tx, s, p.mounted); err != nil {
			return err
		}
	}
	if o.moving() {
		if err := emitDrive(tx, s, cl, ch, p); err != nil {
			return err
		}
	}
	if p.throw != nil {
		p.throw.Acted = !o.moving()
		if err := throwJavelin(tx, s, cl, p); err != nil {
			return err
		}
	}
	if d := p.dismounted; d != nil && s.Element(d.Figure).Aboard == ch.ID {
		d.Acted = !o.moving() && p.throw == nil && p.mounted == nil
		if err := tx.Emit(*d); err != nil {
			return err
		}
	}
	return afterAction(tx)
}

// chariotPlan is a chariot order checked before anything is drawn: the
// chariot as it will be driven (crew, once any mount is made), the
// mount, the drive, the throw and the dismount it makes, and its load
// of javelins.
type chariotPlan struct {
	crew            Element
	mounted         *Mounted
	used            float64 // the share of the mounting figure's turn spent reaching and mounting
	plan            route
	load            int
	reloads         bool
	throw           *JavelinThrown
	thrower, victim *Element
	dismounted      *Dismounted
}

// planOrder checks every part of the order o given to cl's chariot.
func (s *State) planOrder(cl *Clan, o order) (*chariotPlan, error) {
	ch := o.chariot
	p := &chariotPlan{crew: *ch}
	if o.mount != nil {
		m, u, err := s.planMount(cl, o.mount, ch)
		if err != nil {
			return nil, err
		}
		p.mounted, p.used = &m, u
		p.crew.Clan, p.crew.Rider, p.crew.Runaway = cl.Tag, o.mount.ID, false
	} else if ch.Clan != cl.Tag {
		return nil, s.notTheirs(ch, cl)
	}
	budget := chariotMove * (1 - p.used)
	p.plan = route{path: drivePath{start: ch.Base}}
	if o.moving() {
		plan, err := s.planOrderedDrive(&p.crew, o, budget, p.mounted)
		if err != nil {
			return nil, err
		}
		p.plan = plan
	}
	p.load = s.Options.Javelins
	refill := -1.0
	if p.load > 0 && o.moving() {
		refill = s.refillAt(&p.crew, p.plan.path)
	}
	if o.javelin != nil {
		t, th, v, err := s.planThrow(&p.crew, p.plan, o.javelin, o.at, refill)
		if err != nil {
			return nil, err
		}
		p.throw, p.thrower, p.victim = &t, th, v
		p.throw.Moving = o.moving()
	}
	// A reload is told only when it gives the chariot javelins it lacked.
	p.reloads = refill >= 0 && (p.crew.Thrown > 0 || p.throw != nil && p.throw.Thrown == 0)
	if o.dismount != nil {
		d, err := s.planDismount(&p.crew, o.dismount, p.used, p.plan, o.alight, o.alightFacing)
		if err != nil {
			return nil, err
		}
		// The rider may not get down where the chariot touches an enemy,
		// at the end of a drive into contact or where it stands, and
		// leave the driver there alone: that would put the charioteer in
		// a melee he may fight only in defence (3.5).
		left := p.crew
		left.Rider = ""
		if foe := s.chargedByDriver(&left, p.plan); foe != nil {
			if o.moving() {
				return nil, engine.Refuse("3.5", "%s would be left in contact with %s with only its driver, who fights only to defend himself: %s must stay aboard, or get down short of the enemy.", ch.Label(), foe.Label(), o.dismount.Label())
			}
			return nil, engine.Refuse("3.5", "%s is in contact with %s: if %s got down, its driver would be left alone in a melee he may fight only to defend himself. %s stays aboard until the contact is broken.", ch.Label(), foe.Label(), o.dismount.Label(), o.dismount.Name)
		}
		p.dismounted = &d
	}
	return p, nil
}

// planOrderedDrive checks the drive of an order: someone aboard to drive,
// no melee to leave, and a way within the budget of strides.
func (s *State) planOrderedDrive(crew *Element, o order, budget float64, mounted *Mounted) (route, error) {
	ch := o.chariot
	if !crew.manned() {
		return route{}, engine.Refuse("8.7", "No one is aboard %s to drive it; a Hero or Companion must mount it first (/mount, or /drive … mount:).", ch.Label())
	}
	if foe := s.foeTouching(crew, crew.Base); foe != nil {
		return route{}, engine.Refuse("10", "%s is in melee contact with %s and cannot drive away; only an impact or a joker breaks contact.", ch.Label(), foe.Label())
	}
	p, clamp, err := s.pathFor(crew, o, budget)
	if err != nil {
		return route{}, err
	}
	if p.length() > budget+moveSlack {
		return route{}, overBudget(crew, route{path: p}, budget, mounted)
	}
	plan, err := s.planDrive(crew, p, budget, clamp)
	if err != nil {
		return route{}, err
	}
	if plan.path.length() > budget+moveSlack {
		return route{}, overBudget(crew, plan, budget, mounted)
	}
	if plan.path.length() < 0.005 {
		return route{}, engine.Refuse("8", "%s would not move at all.", ch.Label())
	}
	if foe := s.chargedByDriver(crew, plan); foe != nil {
		return route{}, engine.Refuse("3.5", "%s carries only its driver, who fights only to defend himself: it may not be driven into contact with %s. A Hero or Companion must ride it to charge.", ch.Label(), foe.Label())
	}
	return plan, nil
}

// chargedByDriver returns the antagonist stand a drive of a chariot that
// carries its driver and no Hero or Companion would end touching, or nil:
// the charioteer melees only to defend himself (3.5), so he may not drive
// into contact, though a stand that comes to him is fought.
func (s *State) chargedByDriver(crew *Element, plan route) *Element {
	if !crew.Driver || crew.Rider != "" {
		return nil
	}
	end := plan.path.end()
	for i := range s.Elements {
		o := &s.Elements[i]
		crushed := slices.ContainsFunc(plan.crushed, func(k crush) bool { return k.el == o })
		if o.ID != crew.ID && !crushed && o.inPlay() && s.Antagonists(crew.Clan, o.Clan) && end.Touches(o.Base) {
			return o
		}
	}
	return nil
}

// emitDrive records the drive of ch by p and the stands it rode down.
func emitDrive(tx *engine.Tx, s *State, cl *Clan, ch *Element, p *chariotPlan) error {
	path := p.plan.path
	var contacts []string
	for i := range s.Elements {
		e := &s.Elements[i]
		crushed := slices.ContainsFunc(p.plan.crushed, func(k crush) bool { return k.el == e })
		if e.ID != ch.ID && !crushed && e.inPlay() && s.Antagonists(ch.Clan, e.Clan) && path.end().Touches(e.Base) {
			contacts = append(contacts, e.Label())
		}
	}
	if err := tx.Emit(Driven{
		Clan: cl.Tag, Chariot: ch.ID, Label: ch.Label(), From: path.start, To: path.end(),
		Wheel: path.wheel, Run: path.run, Turn: path.turn, Strides: round1(path.length()),
		Halt: p.plan.halt, Refill: p.reloads, Load: p.load, Contacts: contacts,
	}); err != nil {
		return err
	}
	for _, k := range p.plan.crushed {
		if err := tx.Emit(RodeDown{Chariot: ch.ID, ChariotLabel: ch.Label(), Element: k.el.ID, Label: k.el.Label()}); err != nil {
			return err
		}
	}
	return nil
}

// throwJavelin draws the card for p's javelin, records the throw and
// wounds the victim it hits.
func throwJavelin(tx *engine.Tx, s *State, cl *Clan, p *chariotPlan) error {
	throw := p.throw
	cards, err := drawCards(tx, s, cl.Tag, 1, &throw.Kept)
	if err != nil {
		return err
	}
	throw.Card = cards[0]
	throw.Hit = hits(throw.Card, throw.Long)
	tx.Discard(CombatDeck, throw.Card)
	if err := tx.Emit(*throw); err != nil {
		return err
	}
	if throw.Hit && p.victim.Status == Standing {
		why := fmt.Sprintf("a javelin, %s at %s range", throw.Card, rangeName(throw.Long))
		if err := wound(tx, s, p.victim, p.thrower, why, false); err != nil {
			return err
		}
	}
	return nil
}

// foeTouching returns a standing enemy that el's base b touches, or nil.
func (s *State) foeTouching(el *Element, b engine.Base) *Element {
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID != el.ID && o.inPlay() && s.Antagonists(el.Clan, o.Clan) && b.Touches(o.Base) {
			return o
		}
	}
	return nil
}

// hasLeaders reports whether a Hero or Companion of clan t still stands.
func (s *State) hasLeaders(t ClanTag) bool {
	for _, el := range s.ClanElements(t) {
		if (el.Kind == Hero || el.Kind == Companion) && el.Status == Standing {
			return true
		}
	}
	return false
}

// planMount checks fig walking up to chariot ch and mounting it (8.2,
// 8.2.2), and returns the event and the share of fig's turn it takes.
func (s *State) planMount(cl *Clan, fig, ch *Element) (Mounted, float64, error) {
	switch {
	case fig.Kind == Warband:
		return Mounted{}, 0, engine.Refuse("8.2", "Warbands do not mount chariots; only a Hero or a Companion does.")
	case fig.Kind != Hero && fig.Kind != Companion:
		return Mounted{}, 0, engine.Refuse("8.2", "Only a Hero or a Companion mounts a chariot.")
	case fig.Clan != cl.Tag:
		return Mounted{}, 0, s.notTheirs(fig, cl)
	case fig.Status != Standing:
		return Mounted{}, 0, engine.Refuse("8", "%s is no longer in the fight.", fig.Label())
	case fig.Aboard == ch.ID:
		return Mounted{}, 0, engine.Refuse("8.2", "%s is already aboard %s.", fig.Label(), ch.Label())
	case fig.Aboard != "":
		return Mounted{}, 0, engine.Refuse("8.2", "%s rides %s; he must get down first.", fig.Label(), fig.Aboard)
	case !fig.Placed:
		return Mounted{}, 0, engine.Refuse("7", "%s is not on the table.", fig.Label())
	case fig.Carrying != "":
		return Mounted{}, 0, engine.Refuse("8.9", "%s is carrying a body and cannot mount with it.", fig.Label())
	case ch.Rider != "":
		return Mounted{}, 0, engine.Refuse("8.2", "%s already carries %s; a chariot holds its driver and one warrior.", ch.Label(), ch.Rider)
	}
	if foe := s.engagedWith(fig); foe != nil {
		return Mounted{}, 0, engine.Refuse("10", "%s is in melee contact with %s and cannot walk away to mount.", fig.Label(), foe.Label())
	}
	m := Mounted{Clan: cl.Tag, Figure: fig.ID, FigureLabel: fig.Label(), Chariot: ch.ID, ChariotLabel: ch.Label(),
		Reins: !ch.Driver, Remanned: ch.Runaway}
	if ch.Clan != fig.Clan {
		from := s.Clan(ch.Clan)
		switch {
		case from.Player == cl.Player:
			return Mounted{}, 0, engine.Refuse("7.3", "%s belongs to your other clan, the %s; a player's two clans take nothing from each other.", ch.Label(), from.Name)
		case ch.manned():
			return Mounted{}, 0, engine.Refuse("8.2.2", "To mount a chariot of another clan its basket must be empty; %s still has its driver aboard.", ch.Label())
		case !s.Antagonists(cl.Tag, from.Tag) && s.hasLeaders(from.Tag):
			return Mounted{}, 0, engine.Refuse("8.2.2", "The %s still have a Hero or Companion standing; an ally's chariot may be saved only when its clan has lost all of them and its driver.", from.Name)
		}
		m.From, m.FromName, m.Taken = from.Tag, from.Name, s.Antagonists(cl.Tag, from.Tag)
	}
	gap := fig.Base.Gap(ch.Base)
	if gap > footMove-mountStride+moveSlack {
		return Mounted{}, 0, engine.Refuse("8.2", "%s is %.1f strides from %s; a figure walks at most %g strides and spends the last mounting.", fig.Label(), gap, ch.Label(), footMove-mountStride)
	}
	if gap > engine.ContactTolerance {
		from := fig.Base.FrontCenter()
		for i := range s.Elements {
			o := &s.Elements[i]
			if o.ID != fig.ID && o.ID != ch.ID && !s.passesThrough(fig, o) && o.Status == Standing && o.Placed && o.Base.BlocksLine(fig.Base.Center, ch.Base.Center) {
				return Mounted{}, 0, engine.Refuse("8.3", "%s stands between %s and %s.", o.Label(), fig.Label(), ch.Label())
			}
		}
		to := from.Add(ch.Base.Center.Sub(from).Unit().Scale(gap))
		if limit, why := s.footLimit(from, to, fig.Base.Depth); limit < 1 {
			return Mounted{}, 0, engine.Refuse("13.1.1", "%s %s before he reaches %s.", fig.Label(), why, ch.Label())
		}
		m.Walked = round1(gap)
	} else {
		gap = 0
	}
	return m, (gap + mountStride) / footMove, nil
}

// chariotHonor awards the chart's honor for a chariot taken or saved
// (4, 8.2.2): the Hero who mounts another clan's empty chariot gains the
// capture; a Hero whose chariot an antagonist takes loses as much.
func chariotHonor(tx *engine.Tx, s *State, m *Mounted) error {
	if m.From == "" {
		return nil
	}
	if fig := s.Element(m.Figure); s.isHero(fig) {
		what := "saving " + possessive(m.FromName) + " chariot"
		if m.Taken {
			what = "taking " + possessive(m.FromName) + " chariot"
		}
		if pts := chariotWon[s.Mode.column()]; pts != 0 {
			won := honorChange(s, fig, pts, Chariots, what)
			won.Captured = m.Taken
			if err := tx.Emit(won); err != nil {
				return err
			}
		}
	}
	if !m.Taken {
		return nil
	}
	if from := s.Clan(m.From); from != nil {
		if h := s.Element(from.Hero); h != nil && h.Status == Standing {
			return award(tx, s, h, chariotLost, Chariots, "the loss of his chariot")
		}
	}
	return nil
}

// planDismount checks fig getting down from the chariot at the end of its
// drive and walking what is left of his turn (8.2.1): used is the share of
// it spent before he boarded, every 3 strides driven take one of his, and
// getting down another.
func (s *State) planDismount(ch, fig *Element, used float64, r route, alight *engine.Vec, facing *engine.Heading) (Dismounted, error) {
	if ch.Rider != fig.ID {
		return Dismounted{}, engine.Refuse("8.2", "%s is not aboard %s.", fig.Label(), ch.Label())
	}
	spent := used + r.path.length()/chariotMove + mountStride/footMove
	left := footMove * (1 - spent)
	if left < -moveSlack {
		return Dismounted{}, engine.Refuse("8.2.1", "After a drive of %s, %s has no time left to get down: every 3 strides driven take one of his 3, and getting down another.",
			strideText(r.path.length()), fig.Label())
	}
	left = math.Max(left, 0)
	end := r.path.end()
	fb := fig.Base
	fb.Facing = end.Facing
	if facing != nil {
		fb.Facing = *facing
	}
	at := end.Center.Sub(end.Facing.Vec().Scale(end.Depth / 2)) // just behind the chariot
	if alight != nil {
		at = *alight
	}
	fb = fb.WithFrontCenter(at)
	gap := end.Gap(fb)
	if gap > left+moveSlack {
		return Dismounted{}, engine.Refuse("8.2.1", "%s can walk %s after getting down; %s is %.1f strides from the chariot.", fig.Label(), strideText(left), at, gap)
	}
	if !s.Board.holds(fb) {
		return Dismounted{}, engine.Refuse("8", "That would put %s off the table.", fig.Label())
	}
	gone := r.crushedSet()
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == fig.ID || o.Status != Standing || !o.Placed || gone[o.ID] {
			continue
		}
		b := o.Base
		if o.ID == ch.ID {
			b = end
		}
		if fb.Clashes(b) {
			return Dismounted{}, engine.Refuse("8.2", "%s cannot get down on top of %s; say where he stands (to: or alight:).", fig.Label(), o.Label())
		}
		if o.ID != ch.ID && !s.passesThrough(fig, o) && o.Base.BlocksLine(end.Center, fb.Center) {
			return Dismounted{}, engine.Refuse("8.3", "%s stands between %s and %s.", o.Label(), ch.Label(), at)
		}
	}
	if limit, why := s.footLimit(end.Center, fb.FrontCenter(), fb.Depth); limit < 1 {
		return Dismounted{}, engine.Refuse("13.1.1", "%s %s.", fig.Label(), why)
	}
	d := Dismounted{Clan: fig.Clan, Figure: fig.ID, FigureLabel: fig.Label(), Chariot: ch.ID, ChariotLabel: ch.Label(), Base: fb}
	if gap > engine.ContactTolerance {
		d.Walked = round1(gap)
	}
	return d, nil
}

// crewNote is what /status adds to an element's line: a chariot's crew
// when it is not just its driver, and its javelins when the book limits
// them, or the chariot a Hero or Companion rides.
func (s *State) crewNote(el *Element) string {
	if el.Status != Standing {
		return ""
	}
	if el.Kind != Chariot {
		if el.Aboard != "" {
			return ", aboard " + string(el.Aboard)
		}
		return ""
	}
	var b strings.Builder
	rider := s.Element(el.Rider)
	switch {
	case el.Driver && rider != nil:
		fmt.Fprintf(&b, ", driver and %s aboard", rider.Name)
	case el.Driver:
	case rider != nil:
		fmt.Fprintf(&b, ", %s at the reins", rider.Name)
	case el.Runaway:
		b.WriteString(", empty and running away")
	default:
		b.WriteString(", empty")
	}
	if n := s.Options.Javelins; n > 0 {
		fmt.Fprintf(&b, ", %d of %d javelins", max(n-int(el.Thrown), 0), n)
	}
	return b.String()
}

// crewLabel is a chariot's crew as the board shows it beside its label,
// with the wounds of its rider, who has no base of his own.
func (s *State) crewLabel(el *Element) string {
	if el.Kind != Chariot {
		return ""
	}
	var parts []string
	if el.Driver {
		parts = append(parts, "driver")
	}
	if r := s.Element(el.Rider); r != nil {
		parts = append(parts, fmt.Sprintf("%s %d/%d", r.Name, r.Wounds, s.woundLimit(r)))
	}
	switch {
	case len(parts) > 0:
	case el.Runaway:
		parts = append(parts, "runaway")
	default:
		parts = append(parts, "empty")
	}
	if n := s.Options.Javelins; n > 0 {
		parts = append(parts, fmt.Sprintf("%d/%d jav", max(n-int(el.Thrown), 0), n))
	}
	return strings.Join(parts, ", ")
}

// chariotMarks draws what a chariot's events did on the board.
func (s *State) chariotMarks(body engine.Body, group map[ClanTag]int) []engine.Mark {
	groupOf := func(id ElementID) int {
		if el := s.Element(id); el != nil {
			return group[el.Clan]
		}
		return 0
	}
	switch b := body.(type) {
	case Driven:
		return []engine.Mark{{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Group: group[b.Clan]}}
	case RanAway:
		return []engine.Mark{{Kind: engine.MoveMark, From: b.From.FrontCenter(), To: b.To.FrontCenter(), Group: groupOf(b.Chariot)}}
	case JavelinThrown:
		if t := s.Element(b.Target); t != nil {
			label := b.Card.String() + " miss"
			if b.Hit {
				label = b.Card.String() + " hit"
			}
			return []engine.Mark{{Kind: engine.FireMark, From: b.At, To: t.Base.Center, Hit: b.Hit, Label: label, Group: group[b.Clan]}}
		}
	case RodeDown:
		if el := s.Element(b.Element); el != nil {
			return []engine.Mark{{Kind: engine.KillMark, From: el.Base.Center, Label: b.Label, Group: group[el.Clan]}}
		}
	}
	return nil
}

// Narration.

func (b Mounted) Text() string {
	line := b.FigureLabel
	if b.Walked > 0 {
		line += fmt.Sprintf(" walks %s and", strideText(b.Walked))
	}
	line += " mounts " + b.ChariotLabel
	switch {
	case b.From != "" && b.Taken:
		line += fmt.Sprintf(", taking it from the %s (8.2.2)", b.FromName)
	case b.From != "":
		line += fmt.Sprintf(", saving the %s chariot from the enemy (8.2.2)", owner(b.FromName))
	}
	switch {
	case b.Remanned:
		line += ". He takes the reins of the runaway (8.7)."
	case b.Reins:
		line += ". With no charioteer aboard, he takes the reins himself (9.2)."
	default:
		line += " beside its driver (8.2)."
	}
	return line
}

func (b Driven) Text() string {
	to := b.To.FrontCenter()
	var parts []string
	if b.Wheel != 0 {
		parts = append(parts, "wheels "+angleText(b.Wheel))
	}
	switch {
	case b.Run < 0:
		parts = append(parts, fmt.Sprintf("backs %s to %s", strideText(-b.Run), to))
	case b.Run > 0:
		run := fmt.Sprintf("drives %s to %s", strideText(b.Run), to)
		if b.Wheel != 0 && b.Turn == 0 {
			run += ", facing " + b.To.Facing.String()
		}
		parts = append(parts, run)
	}
	if b.Turn != 0 {
		last := fmt.Sprintf("wheels %s to face %s", angleText(b.Turn), b.To.Facing)
		if b.Run == 0 {
			last += fmt.Sprintf(", its front centre now at %s", to)
		}
		parts = append(parts, last)
	}
	line := b.Label + " " + strings.Join(parts, ", then ")
	if len(parts) > 1 {
		line += fmt.Sprintf(" (%s in all)", strideText(b.Strides))
	}
	line += "."
	if b.Halt != "" {
		line += " " + b.Halt
	}
	if b.Refill {
		line += fmt.Sprintf(" Passing behind its warbands, it takes on a fresh load of %d javelins (13.2).", b.Load)
	}
	if len(b.Contacts) > 0 {
		line += fmt.Sprintf(" It is now in contact with %s; the melee is fought at the end of the round (5, 10).", engine.JoinAnd(b.Contacts))
	}
	return line
}

func (b RodeDown) Text() string {
	return fmt.Sprintf("%s rides down %s: they scatter and are gone for the rest of the book (8.8).", b.ChariotLabel, b.Label)
}

func (b JavelinThrown) Text() string {
	line := ""
	for _, k := range b.Kept {
		line += fmt.Sprintf("The %s draw a Joker and keep it (11.1). ", k.Name)
	}
	result := "misses"
	if b.Hit {
		result = "hits"
	}
	if b.Moving {
		line += fmt.Sprintf("From %s, %s throws a javelin", b.At, b.ThrowerLabel)
	} else {
		line += fmt.Sprintf("%s throws a javelin from %s", b.ThrowerLabel, b.ChariotLabel)
	}
	line += fmt.Sprintf(" at %s, %.1f strides away at %s range: %s %s.", b.TargetLabel, b.Distance, rangeName(b.Long), b.Card, result)
	if b.Load > 0 {
		switch left := b.Load - b.Thrown; left {
		case 0:
			line += fmt.Sprintf(" %s has no javelins left.", b.ChariotLabel)
		case 1:
			line += fmt.Sprintf(" %s has 1 javelin left.", b.ChariotLabel)
		default:
			line += fmt.Sprintf(" %s has %d javelins left.", b.ChariotLabel, left)
		}
	}
	return line
}

func (b Dismounted) Text() string {
	at := b.Base.FrontCenter()
	if b.Walked > 0 {
		return fmt.Sprintf("%s gets down from %s and walks %s to %s.", b.FigureLabel, b.ChariotLabel, strideText(b.Walked), at)
	}
	return fmt.Sprintf("%s gets down from %s at %s.", b.FigureLabel, b.ChariotLabel, at)
}

func (b ThrownOut) Text() string {
	return fmt.Sprintf("%s falls from %s; his body lies behind it.", b.FigureLabel, b.ChariotLabel)
}

func (b Bolted) Text() string {
	return fmt.Sprintf("With no one left aboard, the horses of %s bolt: before anyone acts in each round it will run 9 strides straight ahead, until it leaves the table, strikes a stand or is remanned (8.7).", b.Label)
}

func (b RanAway) Text() string {
	to := b.To.FrontCenter()
	switch {
	case b.Off:
		return fmt.Sprintf("The runaway %s runs %s and off the table; it is gone (8.7).", b.Label, strideText(b.Strides))
	case b.Stop == StruckStand:
		return fmt.Sprintf("The runaway %s runs %s to %s and strikes %s; it stands there until remanned (8.7).", b.Label, strideText(b.Strides), to, b.Against)
	case b.Stop == HaltedAtEdge:
		return fmt.Sprintf("The runaway %s runs %s to %s and halts at the edge of %s; it stands there until remanned (8.7).", b.Label, strideText(b.Strides), to, b.Against)
	}
	return fmt.Sprintf("The runaway %s runs %s to %s (8.7).", b.Label, strideText(b.Strides), to)
}

// angleText writes a wheel: "90° right", "33.7° left".
func angleText(deg float64) string {
	dir := "right"
	if deg < 0 {
		dir = "left"
	}
	return strconv.FormatFloat(math.Round(math.Abs(deg)*10)/10, 'f', -1, 64) + "° " + dir
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
