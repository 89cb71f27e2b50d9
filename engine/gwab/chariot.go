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
	// crew is the chariot as it will be driven, once any mount is made.
	crew := *ch
	var mounted *Mounted
	used := 0.0 // the share of the mounting figure's turn spent reaching and mounting
	if o.mount != nil {
		m, u, err := s.planMount(cl, o.mount, ch)
		if err != nil {
			return err
		}
		mounted, used = &m, u
		crew.Clan, crew.Rider, crew.Runaway = cl.Tag, o.mount.ID, false
	} else if ch.Clan != cl.Tag {
		return s.notTheirs(ch, cl)
	}
	budget := chariotMove * (1 - used)
	plan := route{path: drivePath{start: ch.Base}}
	if o.moving() {
		if !crew.manned() {
			return engine.Refuse("8.7", "No one is aboard %s to drive it; a Hero or Companion must mount it first (/mount, or /drive … mount:).", ch.Label())
		}
		if foe := s.foeTouching(&crew, crew.Base); foe != nil {
			return engine.Refuse("10", "%s is in melee contact with %s and cannot drive away; only an impact or a joker breaks contact.", ch.Label(), foe.Label())
		}
		p, clamp, err := s.pathFor(&crew, o, budget)
		if err != nil {
			return err
		}
		if p.length() > budget+moveSlack {
			return overBudget(&crew, route{path: p}, budget, mounted)
		}
		if plan, err = s.planDrive(&crew, p, budget, clamp); err != nil {
			return err
		}
		if plan.path.length() > budget+moveSlack {
			return overBudget(&crew, plan, budget, mounted)
		}
		if plan.path.length() < 0.005 {
			return engine.Refuse("8", "%s would not move at all.", ch.Label())
		}
	}
	load := s.Options.Javelins
	refill := -1.0
	if load > 0 && o.moving() {
		refill = s.refillAt(&crew, plan.path)
	}
	var throw *JavelinThrown
	var thrower, victim *Element
	if o.javelin != nil {
		t, th, v, err := s.planThrow(&crew, plan, o.javelin, o.at, refill)
		if err != nil {
			return err
		}
		throw, thrower, victim = &t, th, v
		throw.Moving = o.moving()
	}
	// A reload is told only when it gives the chariot javelins it lacked.
	reloads := refill >= 0 && (crew.Thrown > 0 || throw != nil && throw.Thrown == 0)
	var dismounted *Dismounted
	if o.dismount != nil {
		d, err := s.planDismount(&crew, o.dismount, used, plan, o.alight, o.alightFacing)
		if err != nil {
			return err
		}
		dismounted = &d
	}

	// Exactly one event ends the clan's turn: the drive, else the throw,
	// else the mount, else the dismount.
	if mounted != nil {
		mounted.Acted = !o.moving() && throw == nil
		if err := tx.Emit(*mounted); err != nil {
			return err
		}
		if err := chariotHonor(tx, s, mounted); err != nil {
			return err
		}
	}
	if o.moving() {
		p := plan.path
		var contacts []string
		for i := range s.Elements {
			e := &s.Elements[i]
			crushed := slices.ContainsFunc(plan.crushed, func(k crush) bool { return k.el == e })
			if e.ID != ch.ID && !crushed && e.inPlay() && s.Antagonists(ch.Clan, e.Clan) && p.end().Touches(e.Base) {
				contacts = append(contacts, e.Label())
			}
		}
		if err := tx.Emit(Driven{
			Clan: cl.Tag, Chariot: ch.ID, Label: ch.Label(), From: p.start, To: p.end(),
			Wheel: p.wheel, Run: p.run, Turn: p.turn, Strides: round1(p.length()),
			Halt: plan.halt, Refill: reloads, Load: load, Contacts: contacts,
		}); err != nil {
			return err
		}
		for _, k := range plan.crushed {
			if err := tx.Emit(RodeDown{Chariot: ch.ID, ChariotLabel: ch.Label(), Element: k.el.ID, Label: k.el.Label()}); err != nil {
				return err
			}
		}
	}
	if throw != nil {
		throw.Acted = !o.moving()
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
		if throw.Hit && victim.Status == Standing {
			why := fmt.Sprintf("a javelin, %s at %s range", throw.Card, rangeName(throw.Long))
			if err := wound(tx, s, victim, thrower, why, false); err != nil {
				return err
			}
		}
	}
	if dismounted != nil && s.Element(dismounted.Figure).Aboard == ch.ID {
		dismounted.Acted = !o.moving() && throw == nil && mounted == nil
		if err := tx.Emit(*dismounted); err != nil {
			return err
		}
	}
	return afterAction(tx)
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
			if o.ID != fig.ID && o.ID != ch.ID && o.Clan != fig.Clan && o.Status == Standing && o.Placed && o.Base.BlocksLine(fig.Base.Center, ch.Base.Center) {
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
		if o.ID != ch.ID && o.Clan != fig.Clan && o.Base.BlocksLine(end.Center, fb.Center) {
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

// Drives.

// drivePath is a chariot's way across the table (8.4): a wheel about a
// front corner, a straight run (backwards when negative, 8.5), and a last
// wheel. A wheel is measured by the arc of the outer front corner.
type drivePath struct {
	start engine.Base
	wheel float64 // degrees, positive to the right
	run   float64 // strides
	turn  float64 // degrees, positive to the right
}

func (p drivePath) arc1() float64           { return p.start.WheelDistance(p.wheel) }
func (p drivePath) arc2() float64           { return p.start.WheelDistance(p.turn) }
func (p drivePath) length() float64         { return p.arc1() + math.Abs(p.run) + p.arc2() }
func (p drivePath) afterWheel() engine.Base { return p.start.Wheel(p.wheel) }

func (p drivePath) afterRun() engine.Base {
	b := p.afterWheel()
	return b.WithCenter(b.Center.Add(b.Facing.Vec().Scale(p.run)))
}

func (p drivePath) end() engine.Base { return p.afterRun().Wheel(p.turn) }

// at is the chariot's base when it has gone d strides along the path.
func (p drivePath) at(d float64) engine.Base {
	if a := p.arc1(); d < a {
		return p.start.Wheel(p.wheel * d / a)
	} else {
		d -= a
	}
	b := p.afterWheel()
	if r := math.Abs(p.run); d < r {
		return b.WithCenter(b.Center.Add(b.Facing.Vec().Scale(math.Copysign(d, p.run))))
	} else {
		d -= r
	}
	b = p.afterRun()
	a := p.arc2()
	if a == 0 {
		return b
	}
	return b.Wheel(p.turn * math.Min(d/a, 1))
}

// wheelToward finds the wheel after which point p lies straight ahead of
// the chariot's front centre, the cheaper if there are two, and the run
// that then reaches p. It reports false when no wheel does.
func wheelToward(b engine.Base, p engine.Vec) (deg, run float64, ok bool) {
	if b.FrontCenter().Dist(p) < 1e-9 {
		return 0, 0, true
	}
	off := func(deg float64) (float64, bool) {
		w := b.Wheel(deg)
		fc := w.FrontCenter()
		return w.Facing.Diff(engine.HeadingTo(fc, p)), p.Sub(fc).Dot(w.Facing.Vec()) > 0
	}
	best := math.Inf(1)
	consider := func(d float64) {
		w := b.Wheel(d)
		r := w.FrontCenter().Dist(p)
		if cost := b.WheelDistance(d) + r; cost < best-1e-9 {
			best, deg, run, ok = cost, d, r, true
		}
	}
	// Wheels of more than a half turn are allowed: a point close behind
	// the chariot is reached no other way.
	const step, most = 0.5, 360.0
	prevD := -most
	prevV, prevAhead := off(prevD)
	for d := -most + step; d <= most+1e-9; d += step {
		v, ahead := off(d)
		switch {
		case ahead && v == 0:
			consider(d)
		case ahead && prevAhead && prevV*v < 0 && math.Abs(prevV-v) < 90:
			lo, hi := prevD, d
			for i := 0; i < 60; i++ {
				mid := (lo + hi) / 2
				if mv, _ := off(mid); (mv < 0) == (prevV < 0) {
					lo = mid
				} else {
					hi = mid
				}
			}
			consider((lo + hi) / 2)
		}
		prevD, prevV, prevAhead = d, v, ahead
	}
	if ok && math.Abs(deg) < 1e-6 {
		deg, run = 0, b.FrontCenter().Dist(p)
	}
	return deg, run, ok
}

// pathFor turns an order into the path it asks for, and reports whether
// the run stops at whatever it meets (toward:) rather than being refused.
func (s *State) pathFor(ch *Element, o order, budget float64) (drivePath, bool, error) {
	p := drivePath{start: ch.Base}
	clamp := false
	switch {
	case o.back:
		p.run = -backStride
	case o.to != nil:
		deg, run, ok := wheelToward(ch.Base, *o.to)
		if !ok {
			return p, false, engine.Refuse("8.4", "No wheel of %s leaves %s straight ahead of it; wheel first with facing:, then drive.", ch.Label(), *o.to)
		}
		p.wheel, p.run = deg, run
	case o.toward != nil:
		deg, _, ok := wheelToward(ch.Base, o.toward.Base.Center)
		if !ok {
			return p, false, engine.Refuse("8.4", "No wheel of %s brings it to face %s; wheel first with facing:.", ch.Label(), o.toward.Label())
		}
		p.wheel, clamp = deg, true
	}
	if o.facing != nil {
		p.turn = p.afterWheel().Facing.Diff(*o.facing)
	}
	if o.toward != nil {
		p.run = o.strides
		if p.run == 0 {
			p.run = math.Max(budget-p.arc1()-p.arc2(), 0)
		}
	}
	return p, clamp, nil
}

// route is a drive as the table allows it.
type route struct {
	path drivePath
	// halt says why the chariot stopped short of, or went on past, where
	// it was sent.
	halt    string
	crushed []crush
}

// crush is a skirmish stand ridden down at distance at along the drive.
type crush struct {
	el *Element
	at float64
}

func (r route) crushedSet() map[ElementID]bool {
	m := map[ElementID]bool{}
	for _, k := range r.crushed {
		m[k.el.ID] = true
	}
	return m
}

// planDrive checks path against the table and works out where the drive
// really ends (8, 13.1): wheels may strike nothing, not even the chariot's
// own stands, nor swing onto terrain; the straight run passes through its
// own clan's stands and halts beyond them (8.3), halts at the bank of a
// stream, or crosses one it stands at and halts on the far bank (13.1.2);
// another clan's stand, ground a chariot may not enter, or the table's
// edge stop it (when clamp is set) or refuse the drive. Other clans'
// skirmishers on the way are ridden down (8.8).
func (s *State) planDrive(ch *Element, p drivePath, budget float64, clamp bool) (route, error) {
	var own, solid, prey []*Element
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.ID == ch.Rider || o.Status != Standing || !o.Placed {
			continue
		}
		switch {
		case o.Clan == ch.Clan:
			own = append(own, o)
		case o.Kind == Warband && o.Weapon.Skirmisher():
			prey = append(prey, o)
		default:
			solid = append(solid, o)
		}
	}
	r := route{path: p}
	if p.wheel != 0 {
		if err := s.checkWheel(ch, p.start, p.wheel, append(slices.Clone(solid), own...)); err != nil {
			return r, err
		}
		r.crushWheel(p.start, p.wheel, 0, prey)
	}

	// The straight run.
	b0 := p.afterWheel()
	sign := 1.0
	if p.run < 0 {
		sign = -1
	}
	want := math.Abs(p.run)
	reach := want // how far the run may be carried on to clear a stand or a stream
	if p.run > 0 {
		reach = math.Max(want, budget-p.arc1())
	}
	dir := b0.Facing.Vec().Scale(sign)
	runAt := func(d float64) engine.Base { return b0.WithCenter(b0.Center.Add(dir.Scale(d))) }

	// Hard stops.
	type stop struct {
		at            float64
		refusal, rule string
		halt          string
	}
	hard := stop{at: math.Inf(1)}
	if reach > 0 {
		if f, hit := b0.Sweep(runAt(reach).Center, bases(solid)...); hit >= 0 {
			hard = stop{at: f * reach, rule: "8.8",
				refusal: fmt.Sprintf("%s would run into %s; a chariot rides down only skirmishers.", ch.Label(), solid[hit].Label())}
		}
		if before, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return s.barring(b) != nil }); found && before < hard.at {
			f := s.barring(runAt(after))
			verb := "enter"
			if f.Kind == Obstacle {
				verb = "cross"
			}
			hard = stop{at: before, rule: "13.1.1", refusal: fmt.Sprintf("Chariots may not %s %s.", verb, f.Name()),
				halt: fmt.Sprintf("It halts at the edge of %s (13.1.1).", f.Name())}
		}
		if before, _, found := scan(0, reach, runAt, func(b engine.Base) bool { return !s.Board.holds(b) }); found && before < hard.at {
			hard = stop{at: before, rule: "8", refusal: fmt.Sprintf("That would take %s off the table.", ch.Label()),
				halt: "It halts at the table's edge."}
		}
	}

	// What makes the chariot halt: the first of a stream's bank, a stream
	// it is crossing, and its own stands.
	end, halt, trigger := want, "", math.Inf(1)
	var streams, crossing []*Feature
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.Kind == Stream {
			if f.touches(p.start) && f.touches(b0) {
				crossing = append(crossing, f)
			} else {
				streams = append(streams, f)
			}
		}
	}
	if reach > 0 {
		if before, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return onAny(b, streams) != nil }); found && before < want-1e-6 && before < trigger {
			f := onAny(runAt(after), streams)
			end, trigger, halt = before, before, fmt.Sprintf("It halts at the bank of %s, to cross on its next drive (13.1.2).", f.Name())
		}
		if _, after, found := scan(0, reach, runAt, func(b engine.Base) bool { return onAny(b, crossing) != nil }); found && after < want-1e-6 && after < trigger {
			f := onAny(runAt(after), crossing)
			_, out, clear := scan(after, reach, runAt, func(b engine.Base) bool { return !f.on(b) })
			if !clear {
				return r, engine.Refuse("13.1.2", "%s cannot get across %s within its %s.", ch.Label(), f.Name(), strideText(budget))
			}
			end, trigger, halt = out, after, fmt.Sprintf("It crosses %s and halts on the far bank (13.1.2).", f.Name())
		}
		if f, hit := b0.Sweep(runAt(reach).Center, bases(own)...); hit >= 0 && f*reach < want-1e-6 && f*reach < trigger {
			in := f * reach
			ownBases := bases(own)
			_, out, clear := scan(in+1e-4, reach, runAt, func(b engine.Base) bool { return !overlapsExactly(b, ownBases) })
			if !clear {
				return r, engine.Refuse("8.3", "%s cannot clear %s within its %s; a chariot that drives through its own stands halts beyond them.", ch.Label(), own[hit].Label(), strideText(budget))
			}
			var names []string
			for _, o := range own {
				if _, h := b0.Sweep(runAt(out).Center, o.Base); h >= 0 {
					names = append(names, o.Label())
				}
			}
			if len(names) > 0 {
				end, trigger, halt = out, in, fmt.Sprintf("It passes through %s and halts beyond (8.3).", engine.JoinAnd(names))
			}
		}
	}
	if hard.at < end-1e-6 {
		// A place typed a hair past first contact stops in contact, as
		// a foot move does.
		if hard.rule == "8.8" && halt == "" && end-hard.at <= engine.ContactTolerance {
			clamp = true
		}
		if !clamp || hard.at > trigger {
			return r, engine.Refuse(hard.rule, "%s", hard.refusal)
		}
		end, halt = hard.at, hard.halt
	}
	r.path.run = sign * end
	r.halt = halt
	if end > 0 {
		for _, k := range prey {
			if r.crushedSet()[k.ID] {
				continue
			}
			if f, hit := b0.Sweep(runAt(end).Center, k.Base); hit >= 0 {
				r.crushed = append(r.crushed, crush{el: k, at: p.arc1() + f*end})
			}
		}
	}

	// The last wheel.
	if r.path.turn != 0 {
		if r.halt != "" {
			return r, engine.Refuse("8.4", "%s %s; it cannot then wheel to face %s.", ch.Label(), strings.TrimSuffix(lowerFirst(strings.TrimPrefix(r.halt, "It ")), "."), r.path.end().Facing)
		}
		if err := s.checkWheel(ch, r.path.afterRun(), r.path.turn, append(slices.Clone(solid), own...)); err != nil {
			return r, err
		}
		r.crushWheel(r.path.afterRun(), r.path.turn, r.path.arc1()+end, prey)
	}

	slices.SortStableFunc(r.crushed, func(a, b crush) int { return cmpFloat(a.at, b.at) })

	// Where it ends.
	fin := r.path.end()
	gone := r.crushedSet()
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID != ch.ID && o.ID != ch.Rider && o.Status == Standing && o.Placed && !gone[o.ID] && fin.Clashes(o.Base) {
			return r, engine.Refuse("8.3", "%s cannot end its drive on top of %s.", ch.Label(), o.Label())
		}
	}
	if f := s.barring(fin); f != nil {
		return r, engine.Refuse("13.1.1", "Chariots may not stand on %s.", f.Name())
	}
	if f := onAny(fin, s.streams()); f != nil {
		return r, engine.Refuse("13.1.2", "%s cannot end its drive in %s.", ch.Label(), f.Name())
	}
	if !s.Board.holds(fin) {
		return r, engine.Refuse("8", "That would take %s off the table.", ch.Label())
	}
	return r, nil
}

// checkWheel refuses a wheel of deg from base from that would strike one
// of others, swing onto terrain, or swing off the table (8.4, 13.1).
func (s *State) checkWheel(ch *Element, from engine.Base, deg float64, others []*Element) error {
	if _, hit := from.SweepWheel(deg, bases(others)...); hit >= 0 {
		return engine.Refuse("8.4", "Wheeling %s, %s would strike %s.", angleText(deg), ch.Label(), others[hit].Label())
	}
	arc := from.WheelDistance(deg)
	at := func(d float64) engine.Base { return from.Wheel(deg * d / arc) }
	if _, after, found := scan(0, arc, at, func(b engine.Base) bool { return s.terrainUnder(b) != nil }); found {
		return engine.Refuse("13.1", "Wheeling %s, %s would swing onto %s.", angleText(deg), ch.Label(), s.terrainUnder(at(after)).Name())
	}
	if _, _, found := scan(0, arc, at, func(b engine.Base) bool { return !s.Board.holds(b) }); found {
		return engine.Refuse("8", "Wheeling %s, %s would swing off the table.", angleText(deg), ch.Label())
	}
	return nil
}

// crushWheel adds the skirmishers a wheel of deg from base from passes
// over, the wheel beginning at distance d0 of the drive.
func (r *route) crushWheel(from engine.Base, deg, d0 float64, prey []*Element) {
	gone := r.crushedSet()
	for _, k := range prey {
		if gone[k.ID] {
			continue
		}
		if f, hit := from.SweepWheel(deg, k.Base); hit >= 0 {
			r.crushed = append(r.crushed, crush{el: k, at: d0 + f*from.WheelDistance(deg)})
		}
	}
}

// terrainUnder returns the first feature base b stands on, or nil.
func (s *State) terrainUnder(b engine.Base) *Feature {
	for i := range s.Terrain {
		if f := &s.Terrain[i]; f.on(b) {
			return f
		}
	}
	return nil
}

func (s *State) streams() []*Feature {
	var out []*Feature
	for i := range s.Terrain {
		if s.Terrain[i].Kind == Stream {
			out = append(out, &s.Terrain[i])
		}
	}
	return out
}

// onAny returns the first of fs that base b stands on, or nil.
func onAny(b engine.Base, fs []*Feature) *Feature {
	for _, f := range fs {
		if f.on(b) {
			return f
		}
	}
	return nil
}

// scan walks d from lo to hi in steps of pathStep and finds where pred
// first holds of at(d), then narrows it by halving: before is the last
// distance seen where pred does not hold, after the first where it does.
func scan(lo, hi float64, at func(float64) engine.Base, pred func(engine.Base) bool) (before, after float64, found bool) {
	if pred(at(lo)) {
		return lo, lo, true
	}
	if !(hi > lo) {
		return hi, hi, false
	}
	prev := lo
	for d := lo; d < hi; {
		d = math.Min(d+pathStep, hi)
		if pred(at(d)) {
			a, b := prev, d
			for b-a > 1e-7 {
				m := (a + b) / 2
				if pred(at(m)) {
					b = m
				} else {
					a = m
				}
			}
			return a, b, true
		}
		prev = d
	}
	return hi, hi, false
}

// overlapsExactly reports whether b overlaps any of others at all.
func overlapsExactly(b engine.Base, others []engine.Base) bool {
	for _, o := range others {
		if b.Overlaps(o) {
			return true
		}
	}
	return false
}

func bases(els []*Element) []engine.Base {
	out := make([]engine.Base, len(els))
	for i, e := range els {
		out[i] = e.Base
	}
	return out
}

func overBudget(ch *Element, r route, budget float64, mounted *Mounted) error {
	var parts []string
	p := r.path
	if p.wheel != 0 {
		parts = append(parts, fmt.Sprintf("wheeling %s costs %s", angleText(p.wheel), strideText(p.arc1())))
	}
	if p.run != 0 {
		parts = append(parts, fmt.Sprintf("the run %s", strideText(math.Abs(p.run))))
	}
	if p.turn != 0 {
		parts = append(parts, fmt.Sprintf("the last wheel of %s %s", angleText(p.turn), strideText(p.arc2())))
	}
	has := fmt.Sprintf("%s has %s", ch.Label(), strideText(budget))
	rule := "8.4"
	if mounted != nil {
		has += fmt.Sprintf(" left once %s has mounted", mounted.FigureLabel)
		rule = "8.2.1"
	}
	why := ""
	if r.halt != "" {
		why = " " + r.halt
	}
	return engine.Refuse(rule, "%s; %s: %s in all.%s", has, engine.JoinAnd(parts), strideText(p.length()), why)
}

// Javelins.

// planThrow checks a javelin thrown by the rider of ch during route r at
// target (8.6, 9.2, 9.3, 9.5, 9.6, 13.2). The throw is made from the point
// of the drive nearest the target at which the chariot touches no enemy. It
// returns the event (without its card), the thrower and who the javelin
// would wound. refill is where the drive first passes behind the clan's
// warbands and takes on a fresh load (-1 for nowhere).
func (s *State) planThrow(ch *Element, r route, target *Element, at string, refill float64) (JavelinThrown, *Element, *Element, error) {
	fail := func(rule, format string, args ...any) (JavelinThrown, *Element, *Element, error) {
		return JavelinThrown{}, nil, nil, engine.Refuse(rule, format, args...)
	}
	thrower := s.Element(ch.Rider)
	switch {
	case thrower == nil:
		return fail("9.2", "No Hero or Companion rides %s, and its driver cannot throw.", ch.Label())
	case !ch.Driver:
		return fail("9.2", "%s drives %s alone, with no charioteer, and so cannot throw.", thrower.Label(), ch.Label())
	}
	shotAt, victim, err := s.aim(target, at)
	if err != nil {
		return JavelinThrown{}, nil, nil, err
	}
	gone := r.crushedSet()
	switch {
	case shotAt.ID == ch.ID:
		return fail("9", "No one throws at his own chariot.")
	case gone[shotAt.ID]:
		return fail("8.8", "%s rides %s down on the way; there is nothing left to throw at.", ch.Label(), shotAt.Label())
	case !shotAt.inPlay():
		return fail("9", "%s is not in the fight.", shotAt.Label())
	case !s.Antagonists(ch.Clan, shotAt.Clan):
		if s.Clan(ch.Clan).Player == s.Clan(shotAt.Clan).Player {
			return fail("7.3", "%s belongs to your own other clan; a player's two clans never fight each other.", shotAt.Label())
		}
		return fail("9", "%s is not an enemy: missiles are thrown only at antagonist clans.", shotAt.Label())
	}
	if foe := s.engagedWith(shotAt); foe != nil {
		return fail("9.6", "%s is in melee with %s; no one throws into a melee.", shotAt.Label(), foe.Label())
	}
	total := r.path.length()
	// The point of the drive nearest the target at which the chariot does
	// not touch it. A chariot in contact with another enemy may still
	// throw: 9.6 forbids throwing into a melee, not out of one.
	best, bestGap := -1.0, math.Inf(1)
	var from engine.Base
	for d := 0.0; ; d = math.Min(d+pathStep, total) {
		b := r.path.at(d)
		if g := b.Gap(shotAt.Base); g > engine.ContactTolerance && g < bestGap-1e-9 {
			best, bestGap, from = d, g, b
		}
		if d >= total {
			break
		}
	}
	switch {
	case best < 0:
		return fail("9.6", "%s is in contact with %s all the way; no javelin is thrown into a melee.", ch.Label(), shotAt.Label())
	}
	if b := s.throwBlocker(ch, from, shotAt, gone); b != nil {
		return fail("9.1", "%s blocks the throw at %s.", b.Label(), shotAt.Label())
	}
	ev := JavelinThrown{Clan: ch.Clan, Chariot: ch.ID, ChariotLabel: ch.Label(), Thrower: thrower.ID, ThrowerLabel: thrower.Label(),
		Target: shotAt.ID, TargetLabel: shotAt.Label(), At: from.FrontCenter(), Distance: round1(bestGap), Long: bestGap > chariotShort}
	if load := s.Options.Javelins; load > 0 {
		thrown := int(ch.Thrown)
		if refill >= 0 && refill <= best {
			thrown = 0
		}
		if thrown >= load {
			return fail("13.2", "%s has thrown all %d of its javelins; it takes on more by passing behind its own warbands.", ch.Label(), load)
		}
		thrown++
		if refill > best {
			thrown = 0
		}
		ev.Thrown, ev.Load = thrown, load
	}
	return ev, thrower, victim, nil
}

// throwBlocker returns a stand in the way of a javelin from the chariot
// standing at from, or nil (9.1.1, 9.1.2): any stand of its own clan
// across the line, as for javelinmen, and any other nearer the target
// than the chariot.
func (s *State) throwBlocker(ch *Element, from engine.Base, target *Element, gone map[ElementID]bool) *Element {
	fc, tc := from.FrontCenter(), target.Base.Center
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.ID == ch.Rider || o.ID == target.ID || gone[o.ID] || o.Status != Standing || !o.Placed || !o.Base.BlocksLine(fc, tc) {
			continue
		}
		if o.Clan == ch.Clan || o.Base.Gap(target.Base) < o.Base.Gap(from) {
			return o
		}
	}
	return nil
}

// behindLine reports whether chariot ch standing at b is behind the line
// of its clan's warbands (13.2): across from one of its standing warbands
// along the table's edge, and wholly on its own side of it.
func (s *State) behindLine(ch *Element, b engine.Base) bool {
	cl := s.Clan(ch.Clan)
	if cl == nil {
		return false
	}
	bx0, bx1, by0, by1 := extent(b)
	for _, w := range s.ClanElements(ch.Clan) {
		if w.Kind != Warband || w.Status != Standing || !w.Placed {
			continue
		}
		wx0, wx1, wy0, wy1 := extent(w.Base)
		if math.Min(bx1, wx1)-math.Max(bx0, wx0) <= 1e-6 {
			continue
		}
		if cl.Side == Protagonist && by1 <= wy0+1e-6 || cl.Side == Antagonist && by0 >= wy1-1e-6 {
			return true
		}
	}
	return false
}

// extent is the box a base covers: its least and greatest x and y.
func extent(b engine.Base) (x0, x1, y0, y1 float64) {
	x0, y0 = math.Inf(1), math.Inf(1)
	x1, y1 = math.Inf(-1), math.Inf(-1)
	for _, c := range b.Corners() {
		x0, x1 = math.Min(x0, c.X), math.Max(x1, c.X)
		y0, y1 = math.Min(y0, c.Y), math.Max(y1, c.Y)
	}
	return
}

// refillAt is the first point of path at which the chariot is behind
// its warbands' line and takes on a fresh load (13.2), or -1.
func (s *State) refillAt(ch *Element, p drivePath) float64 {
	total := p.length()
	for d := 0.0; ; d = math.Min(d+pathStep, total) {
		if s.behindLine(ch, p.at(d)) {
			return d
		}
		if d >= total {
			return -1
		}
	}
}

// Crew lost and runaways (8.7).

// crewFell follows a wound that felled a chariot's crewman: a rider's body
// falls behind the chariot, and a chariot left with no one aboard bolts if
// its clan drove it in this round or the last.
func crewFell(tx *engine.Tx, s *State, victim *Element, w Wounded) error {
	if !w.Falls() {
		return nil
	}
	ch := victim
	if victim.Kind != Chariot {
		if victim.Aboard == "" {
			return nil
		}
		if ch = s.Element(victim.Aboard); ch == nil || ch.Kind != Chariot {
			return nil
		}
		body := victim.Base
		body.Facing = ch.Base.Facing
		body = body.WithFrontCenter(ch.Base.Center.Sub(ch.Base.Facing.Vec().Scale(ch.Base.Depth / 2)))
		if err := tx.Emit(ThrownOut{Chariot: ch.ID, ChariotLabel: ch.Label(), Figure: victim.ID, FigureLabel: victim.Label(), Base: body}); err != nil {
			return err
		}
	}
	if ch.manned() || ch.Status != Standing || !ch.Placed || ch.LastDriven == 0 || int(ch.LastDriven) < s.Round-1 {
		return nil
	}
	return tx.Emit(Bolted{Chariot: ch.ID, Label: ch.Label()})
}

// runawayChariots runs every chariot that has bolted (8.7), before any
// clan acts in the round: straight ahead its full 9 strides, riding down
// other clans' skirmishers, until it leaves the table (and is gone),
// strikes any other stand or reaches terrain (and stands there, parked).
func runawayChariots(tx *engine.Tx) error {
	s := tx.State().(*State)
	if s.Phase != Playing {
		return nil
	}
	for i := range s.Elements {
		ch := &s.Elements[i]
		if ch.Kind != Chariot || !ch.Runaway || ch.Status != Standing || !ch.Placed || ch.manned() {
			continue
		}
		ev, prey := s.runaway(ch)
		if err := tx.Emit(ev); err != nil {
			return err
		}
		for _, k := range prey {
			if err := tx.Emit(RodeDown{Chariot: ch.ID, ChariotLabel: ch.Label(), Element: k.ID, Label: k.Label()}); err != nil {
				return err
			}
		}
	}
	return nil
}

// runaway works out a runaway chariot's run this round.
func (s *State) runaway(ch *Element) (RanAway, []*Element) {
	start := ch.Base
	dir := start.Facing.Vec()
	at := func(d float64) engine.Base { return start.WithCenter(start.Center.Add(dir.Scale(d))) }
	var solid, prey []*Element
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.Status != Standing || !o.Placed {
			continue
		}
		if o.Clan != ch.Clan && o.Kind == Warband && o.Weapon.Skirmisher() {
			prey = append(prey, o)
		} else {
			solid = append(solid, o)
		}
	}
	ev := RanAway{Chariot: ch.ID, Label: ch.Label(), From: start}
	end := chariotMove
	if f, hit := start.Sweep(at(chariotMove).Center, bases(solid)...); hit >= 0 {
		end, ev.Stop, ev.Against = f*chariotMove, StruckStand, solid[hit].Label()
	}
	if before, after, found := scan(0, chariotMove, at, func(b engine.Base) bool { return s.terrainUnder(b) != nil }); found && before < end {
		end, ev.Stop, ev.Against = before, HaltedAtEdge, s.terrainUnder(at(after)).Name()
	}
	if before, _, found := scan(0, chariotMove, at, func(b engine.Base) bool { return !s.Board.holds(b) }); found && before <= end {
		end, ev.Stop, ev.Against, ev.Off = before, RanFree, "", true
	}
	ev.To, ev.Strides = at(end), round1(end)
	var crushed []*Element
	if end > 0 {
		for _, k := range prey {
			if _, hit := start.Sweep(at(end).Center, k.Base); hit >= 0 {
				crushed = append(crushed, k)
			}
		}
	}
	return ev, crushed
}

// Status and view.

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
