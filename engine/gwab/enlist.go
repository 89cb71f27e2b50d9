package gwab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// A book in a saga. A book opened while its guild runs a saga belongs to
// it: it records, in its first events, the saga's roll of clans and their
// Heroes with their honor, so that it replays without the saga at hand.
// Its clans then take the field under the saga's Heroes (4.1, 7.4), its
// kind is settled by the players present against the saga's quorum (4),
// and the player of a clan whose Hero fell names the Companion who took
// his place (12, Hero).

// Enlistment is what a book took from its saga when it opened.
type Enlistment struct {
	// Ref is the saga's name in the store, and Saga its title.
	Ref    string `json:"ref"`
	Saga   string `json:"saga"`
	Quorum int    `json:"quorum"`
	// Roll is every clan of the saga whose player may raise it.
	Roll []Enrolled `json:"roll,omitempty"`
	// Retired are names no new Hero may take (5.2).
	Retired []string `json:"retired,omitempty"`
}

// Enrolled is a clan of the saga and the Hero who leads it now.
type Enrolled struct {
	Player engine.PlayerID `json:"player"`
	Clan   string          `json:"clan"`
	// Hero is "" when the clan lost its last leader and its player must
	// name a new Hero when he raises it.
	Hero  string `json:"hero,omitempty"`
	Honor int    `json:"honor"`
}

// SagaJoined records that the book belongs to a saga.
type SagaJoined struct {
	Enlistment
}

// HeroNamed is a player naming the Companion who took a fallen Hero's place.
type HeroNamed struct {
	Clan    ClanTag   `json:"clan"`
	Element ElementID `json:"element"`
	Was     string    `json:"was"`
	Name    string    `json:"name"`
}

func (SagaJoined) Kind() string { return "gwab.saga-joined" }
func (HeroNamed) Kind() string  { return "gwab.hero-named" }

var enlistBodies = engine.BodyTypes{
	SagaJoined{}.Kind(): engine.Decoder[SagaJoined](),
	HeroNamed{}.Kind():  engine.Decoder[HeroNamed](),
}

func (b SagaJoined) Apply(s *State) error {
	e := b.Enlistment
	s.Saga = &e
	return nil
}

func (b SagaJoined) Text() string {
	return fmt.Sprintf("This book belongs to the saga %q: its Heroes keep their honor, and the players present against a quorum of %d decide whether it is a battle or a raid (4).", b.Saga, b.Quorum)
}

func (b HeroNamed) Apply(s *State) error {
	el, err := s.mustElement(b.Element)
	if err != nil {
		return err
	}
	c, err := s.mustClan(b.Clan)
	if err != nil {
		return err
	}
	el.Name, c.Heir = b.Name, false
	return nil
}

func (b HeroNamed) Text() string {
	return fmt.Sprintf("%s, who took up the fallen Hero's place, is named %s.", b.Was, b.Name)
}

// Campaign returns the ref of the saga the book belongs to, or "".
func (s *State) Campaign() string {
	if s.Saga == nil {
		return ""
	}
	return s.Saga.Ref
}

var _ engine.Enlisted = (*State)(nil)

// Enlist records in a book just opened the roll of the running saga.
func (Rules) Enlist(tx *engine.Tx, campaign engine.State, ref string) error {
	sg, ok := campaign.(*Saga)
	if !ok || sg.Over() {
		return nil
	}
	return tx.Emit(SagaJoined{Enlistment: sg.enlistment(ref)})
}

var enlistCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "hero name", Help: "Name the Companion who took your fallen Hero's place (10.1.3).", Options: []engine.OptionSpec{
		{Name: "name", Help: "the new Hero's name", Required: true},
		{Name: "clan", Help: "which of your clans, when both lost their Hero"},
	}}, Run: nameHero},
}

func nameHero(tx *engine.Tx, s *State, c engine.Command) error {
	var heirs []*Clan
	for _, cl := range s.PlayerClans(c.Actor) {
		if cl.Heir && (c.Opt("clan") == "" || strings.EqualFold(c.Opt("clan"), cl.Name) || strings.EqualFold(c.Opt("clan"), string(cl.Tag))) {
			heirs = append(heirs, cl)
		}
	}
	switch {
	case len(heirs) == 0:
		return engine.Refuse("12", "None of your clans has a Companion who took a fallen Hero's place and awaits a name.")
	case len(heirs) > 1:
		return engine.Refuse("12", "Both your clans have a new Hero to name; say which with clan:.")
	}
	cl := heirs[0]
	name := strings.TrimSpace(c.Opt("name"))
	if err := s.checkHeroName(name); err != nil {
		return err
	}
	el := s.Element(cl.Hero)
	return tx.Emit(HeroNamed{Clan: cl.Tag, Element: el.ID, Was: el.Name, Name: name})
}

// checkHeroName refuses a name another figure of the book or of the
// saga bears, or one retired with a Homeric Hero.
func (s *State) checkHeroName(name string) error {
	if name == "" {
		return engine.Refuse("12", "A Hero needs a name.")
	}
	if s.nameTaken(name) {
		return engine.Refuse("", "The name %q is already used in this book.", name)
	}
	if s.Saga == nil {
		return nil
	}
	if slices.ContainsFunc(s.Saga.Retired, func(r string) bool { return strings.EqualFold(r, name) }) {
		return engine.Refuse("5.2", "%s reached Homeric rank and his name is retired; choose another.", name)
	}
	if slices.ContainsFunc(s.Saga.Roll, func(e Enrolled) bool { return strings.EqualFold(e.Hero, name) }) {
		return engine.Refuse("", "%s already leads a clan of this saga; choose another name.", name)
	}
	return nil
}

// enrolled returns the saga's entry for the player's clan called name,
// or nil; it refuses a clan of the saga that another player leads.
func (s *State) enrolled(player engine.PlayerID, name string) (*Enrolled, error) {
	if s.Saga == nil {
		return nil, nil
	}
	for i, e := range s.Saga.Roll {
		if !strings.EqualFold(e.Clan, name) {
			continue
		}
		if e.Player != player {
			return nil, engine.Refuse("", "The %s are %s clan in the saga %q.", e.Clan, possessive(string(e.Player)), s.Saga.Saga)
		}
		return &s.Saga.Roll[i], nil
	}
	return nil, nil
}

// sagaHero settles who leads a clan raised in a saga book and with how
// much honor: the saga's Hero of an enrolled clan, or the new Hero the
// player names, who starts at 100 (7.4).
func (s *State) sagaHero(player engine.PlayerID, clan, asked string) (name string, honor int, err error) {
	e, err := s.enrolled(player, clan)
	if err != nil {
		return "", 0, err
	}
	if e != nil && e.Hero != "" {
		if asked != "" && !strings.EqualFold(asked, e.Hero) {
			return "", 0, engine.Refuse("4.1", "In the saga %q the %s are led by %s; leave hero: out, or name him.", s.Saga.Saga, e.Clan, e.Hero)
		}
		return e.Hero, e.Honor, nil
	}
	if asked == "" {
		if e != nil {
			return "", 0, engine.Refuse("7.4", "The %s lost their last leader; name their new Hero with hero:.", e.Clan)
		}
		return "", 0, engine.Refuse("2.3", "A clan needs a name and a Hero.")
	}
	if err := s.checkHeroName(asked); err != nil {
		return "", 0, err
	}
	return asked, firstHeroHonor, nil
}

// classify is the kind of book the players present make in a saga (4):
// a battle at the quorum, a raid from three players, practice below.
func classify(players, quorum int) Mode {
	switch {
	case players >= quorum:
		return Battle
	case players >= 3:
		return Raid
	}
	return Practice
}

// reconstitute brings every Hero below 100 honor up to it as the book
// begins: no Hero starts a book below Class 2 (4.3, 7.4).
func reconstitute(tx *engine.Tx, s *State) error {
	for _, cl := range s.Clans {
		if h := s.Element(cl.Hero); h != nil && h.Honor < firstHeroHonor {
			if err := changeHonor(tx, s, h, firstHeroHonor-h.Honor, Minimum, "the least a Hero brings to a new book (4.3, 7.4)"); err != nil {
				return err
			}
		}
	}
	return nil
}
