package gwab

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/rhapsode/rhapsode/engine"
)

// Base sizes in strides (2.4, 2.5: 30 mm to the stride). Heroes and
// Companions stand on 20 mm by 30 mm bases (RULINGS.md, 2.4).
const (
	warbandWidth, warbandDepth       = 2.0, 1.0
	chariotWidth, chariotDepth       = 2.0, 8.0 / 3
	individualWidth, individualDepth = 2.0 / 3, 1.0
)

// Table and deployment (7.2; RULINGS.md): a table 40 strides deep with the
// two sides' fronts 20 strides apart, 12 strides of edge for each clan on
// a side and never less than 60.
const (
	boardDepth     = 40.0
	frontGap       = 20.0
	slotWidth      = 12.0
	minBoardWidth  = 60.0
	maxClans       = 16
	firstHeroClass = 2
	firstHeroHonor = 100
)

// bookCommands open, fill, start and end a book.
var bookCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "book open", Help: "Open a book in this channel; you keep it as its game master.", Flags: engine.Opens, Options: append([]engine.OptionSpec{
		{Name: "mode", Help: "battle, raid or practice; left out, it follows the number of players at /book start", Choices: []string{"battle", "raid", "practice"}},
		{Name: "terrain", Help: "on to play with terrain, laid with #terrain (13.1)", Choices: []string{"on", "off"}},
		{Name: "javelins", Help: "the javelins a chariot carries, 3 or 4 recommended (13.2); left out or 0, no limit", Kind: engine.OptInt},
	}, engine.BotOpenOptions...)}, Run: openBook},
	{CommandSpec: engine.CommandSpec{Name: "clan raise", Help: "Raise a clan: a Hero, two Companions, a chariot and 3 or 4 warbands (2.3).", Example: "/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin", Options: append([]engine.OptionSpec{
		{Name: "name", Help: "the clan's name", Required: true},
		{Name: "hero", Help: "the Hero's name; in a saga, left out for the clan's Hero of the saga"},
		{Name: "side", Help: "protagonist or antagonist", Required: true, Choices: []string{"protagonist", "antagonist"}},
		{Name: "warbands", Help: "3 or 4 of spear, sword, javelin, sling, bow, comma-separated", Required: true},
		{Name: "companions", Help: "the two Companions' names, comma-separated"},
		{Name: "tag", Help: "a 2 to 4 letter code for the clan's element names"},
		{Name: "armed", Help: "which of the Hero and Companions carry javelins on foot: hero, c1, c2 or all, comma-separated (9.1)"},
	}, engine.BotSetUpOptions...)}, Run: raiseClan},
	{CommandSpec: engine.CommandSpec{Name: "book start", Help: "Deploy every clan in its huddle and deal the first round (7, 6.1). Game master only.", Flags: engine.MasterOnly}, Run: startBook},
	{CommandSpec: engine.BookEndSpec("End the book now, by consent (6.2). Game master only.", "book"), Run: endBook},
}

func openBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Master != "" {
		return engine.Refuse("", "A book is already open here.")
	}
	ev := BookOpened{Master: c.Actor}
	if m := c.Opt("mode"); m != "" && s.Saga != nil {
		return engine.Refuse("4", "This book belongs to the saga %q, where the players present decide whether it is a battle, a raid or practice; leave mode: out.", s.Saga.Saga)
	} else if m != "" {
		mode, ok := parseMode(m)
		if !ok {
			return engine.Refuse("12", "mode:%s is not a kind of book; choose battle, raid or practice.", m)
		}
		ev.Mode, ev.ModeSet = mode, true
	}
	var err error
	if ev.Options, err = bookOptions(c); err != nil {
		return err
	}
	if ev.Bots, err = engine.OpenBots(c); err != nil {
		return err
	}
	if len(ev.Bots) > 0 && s.Saga != nil {
		return engine.Refuse("", "A saga's clans are its players' own; the bot takes a seat in it only from a player, with /seat hand.")
	}
	return tx.Emit(ev)
}

func raiseClan(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Phase != Gathering {
		return engine.Refuse("2.2", "Clans are raised before the book starts; this one has started.")
	}
	side, ok := parseSide(c.Opt("side"))
	if !ok {
		return engine.Refuse("2.2", "side:%s is not a side; choose protagonist or antagonist.", c.Opt("side"))
	}
	holder, newBot, err := s.clanHolder(c, side)
	if err != nil {
		return err
	}
	for _, cl := range s.PlayerClans(holder) {
		if cl.Side == side && !newBot {
			return engine.Refuse("2.2", "You already lead the %s on the %s side; each player raises one clan on each side.", cl.Name, side)
		}
	}
	if len(s.Clans) >= maxClans {
		return engine.Refuse("", "This book already has %d clans, as many as the table holds.", maxClans)
	}
	name := strings.TrimSpace(c.Opt("name"))
	hero := strings.TrimSpace(c.Opt("hero"))
	honor := firstHeroHonor
	if name == "" {
		return engine.Refuse("2.3", "A clan needs a name and a Hero.")
	}
	if s.Saga != nil {
		var err error
		if hero, honor, err = s.sagaHero(holder, name, hero); err != nil {
			return err
		}
	} else if hero == "" {
		return engine.Refuse("2.3", "A clan needs a name and a Hero.")
	}
	var weapons []Weapon
	for _, w := range strings.Split(c.Opt("warbands"), ",") {
		wp, ok := parseWeapon(w)
		if !ok {
			return engine.Refuse("2.3", "%q is not a warband; a warband is spear, sword, javelin, sling or bow.", strings.TrimSpace(w))
		}
		weapons = append(weapons, wp)
	}
	if len(weapons) < 3 || len(weapons) > 4 {
		return engine.Refuse("2.3", "A clan has 3 or 4 warbands, not %d.", len(weapons))
	}
	comps := []string{"", ""}
	if v := c.Opt("companions"); v != "" {
		parts := strings.Split(v, ",")
		if len(parts) != 2 {
			return engine.Refuse("2.3", "A clan has two Companions; name both, separated by a comma.")
		}
		for i, p := range parts {
			comps[i] = strings.TrimSpace(p)
		}
	}
	for _, n := range append([]string{name, hero}, comps...) {
		if n != "" && s.nameTaken(n) {
			return engine.Refuse("", "The name %q is already used in this book.", n)
		}
	}
	tag, err := s.clanTag(name, c.Opt("tag"))
	if err != nil {
		return err
	}
	if newBot {
		// The bot, new at the table: it is marked with this clan's tag.
		holder = engine.BotSeat(level(c), nil, engine.Seat{ID: string(tag)})
	}
	clan := Clan{Tag: tag, Name: name, Player: holder, Side: side, Hero: elementID(tag, "H")}
	els := []Element{{ID: clan.Hero, Clan: tag, Kind: Hero, Name: hero, Class: int16(min(classFor(max(honor, firstHeroHonor)), 4)), Honor: honor}}
	for i, n := range comps {
		id := elementID(tag, fmt.Sprintf("C%d", i+1))
		if n == "" {
			n = fmt.Sprintf("Companion %d of the %s", i+1, name)
		}
		els = append(els, Element{ID: id, Clan: tag, Kind: Companion, Name: n})
	}
	els = append(els, Element{ID: elementID(tag, "CH"), Clan: tag, Kind: Chariot, Name: hero + "'s chariot", Driver: true})
	for i, w := range weapons {
		els = append(els, Element{ID: elementID(tag, fmt.Sprintf("W%d", i+1)), Clan: tag, Kind: Warband, Weapon: w, Name: w.Troops()})
	}
	if v := strings.TrimSpace(c.Opt("armed")); v != "" {
		if err := armHeroes(els, v); err != nil {
			return err
		}
	}
	for i := range els {
		els[i].Base = baseFor(els[i].Kind)
	}
	return tx.Emit(ClanRaised{Clan: clan, Elements: els})
}

// clanHolder returns who leads the clan c raises on side: its actor, or
// with player:bot (from the game master) the bot — a bot already at the
// table at that level with no clan on that side yet, so that one bot
// leads a clan on each side as a player does (2.2), or with newBot set a
// new one, to be marked with the clan's tag.
func (s *State) clanHolder(c engine.Command, side Side) (holder engine.PlayerID, newBot bool, err error) {
	l, bot, err := engine.SetUpForBot(c, s.Master)
	if err != nil || !bot {
		return c.Actor, false, err
	}
	if s.Saga != nil {
		return "", false, engine.Refuse("", "A saga's clans are its players' own; the bot takes a seat in it only from a player, with /seat hand.")
	}
	for _, cl := range s.Clans {
		if lv, ok := engine.IsBot(cl.Player); !ok || lv != l {
			continue
		}
		if !slices.ContainsFunc(s.PlayerClans(cl.Player), func(o *Clan) bool { return o.Side == side }) {
			return cl.Player, false, nil
		}
	}
	return "", true, nil
}

// level is the bot's level a set-up command asks for (checked already).
func level(c engine.Command) engine.Level {
	l, _ := engine.ParseLevel(c.Opt("level"))
	return l
}

// armHeroes gives a javelin to each of the Hero and Companions that list
// names: "hero", "c1", "c2", "all", or their names (9.1 makes missile fire
// depend on whether the figure carries a missile weapon).
func armHeroes(els []Element, list string) error {
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		found := false
		for i := range els {
			el := &els[i]
			if el.Kind != Hero && el.Kind != Companion {
				continue
			}
			suffix := strings.TrimPrefix(string(el.ID), string(el.Clan)+"-")
			if strings.EqualFold(w, "all") || strings.EqualFold(w, el.Name) || strings.EqualFold(w, suffix) ||
				el.Kind == Hero && strings.EqualFold(w, "hero") {
				el.Weapon, found = Javelin, true
			}
		}
		if !found {
			return engine.Refuse("9.1", "armed:%s names none of the clan's Hero and Companions; give hero, c1, c2, all, or their names.", w)
		}
	}
	return nil
}

func elementID(tag ClanTag, suffix string) ElementID {
	return ElementID(string(tag) + "-" + suffix)
}

func baseFor(k Kind) engine.Base {
	switch k {
	case Warband:
		return engine.Base{Width: warbandWidth, Depth: warbandDepth}
	case Chariot:
		return engine.Base{Width: chariotWidth, Depth: chariotDepth}
	}
	return engine.Base{Width: individualWidth, Depth: individualDepth}
}

func (s *State) nameTaken(n string) bool {
	for _, c := range s.Clans {
		if strings.EqualFold(c.Name, n) {
			return true
		}
	}
	for _, e := range s.Elements {
		if strings.EqualFold(e.Name, n) || strings.EqualFold(string(e.ID), n) {
			return true
		}
	}
	return false
}

// clanTag returns the asked-for tag, checked, or one made from the clan's
// name: its first three letters, or two and a digit when those are taken.
func (s *State) clanTag(name, asked string) (ClanTag, error) {
	if asked != "" {
		t := ClanTag(strings.ToUpper(asked))
		if len(t) < 2 || len(t) > 4 || strings.IndexFunc(string(t), func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			return "", engine.Refuse("", "tag:%s must be 2 to 4 letters or digits.", asked)
		}
		if s.Clan(t) != nil {
			return "", engine.Refuse("", "The tag %s is already taken by the %s.", t, s.Clan(t).Name)
		}
		return t, nil
	}
	var letters []rune
	for _, r := range strings.ToUpper(name) {
		if r < unicode.MaxASCII && unicode.IsLetter(r) {
			letters = append(letters, r)
		}
	}
	for len(letters) < 3 {
		letters = append(letters, 'X')
	}
	if t := ClanTag(letters[:3]); s.Clan(t) == nil {
		return t, nil
	}
	for d := '2'; d <= '9'; d++ {
		if t := ClanTag([]rune{letters[0], letters[1], d}); s.Clan(t) == nil {
			return t, nil
		}
	}
	return "", engine.Refuse("", "Give this clan a tag:, a short code of 2 to 4 letters; its name's letters are all taken.")
}

// startBook checks the gathering is complete, deploys every clan (7) and
// deals the first round (6.1).
func startBook(tx *engine.Tx, s *State, c engine.Command) error {
	if s.Phase != Gathering {
		return engine.Refuse("", "The book has already started.")
	}
	if c.Actor != s.Master && !c.Master {
		return engine.Refuse("", "Only the book's game master (%s) starts it.", s.Master)
	}
	players := s.Players()
	for _, p := range players {
		if cl := s.PlayerClans(p); len(cl) != 2 {
			return engine.Refuse("2.2", "%s leads only the %s; every player raises two clans, one on each side, before the book starts.", p, cl[0].Name)
		}
	}
	if len(players) < 2 {
		return engine.Refuse("7.3", "A book needs at least two players: a player's own two clans never fight each other.")
	}
	mode := modeFor(len(players))
	if s.Saga != nil {
		mode = classify(len(players), s.Saga.Quorum)
	} else if s.ModeSet {
		mode = s.Mode
		if err := checkMode(mode, len(players)); err != nil {
			return err
		}
	}
	board, slots := deploySlots(s)
	ev := BookStarted{Mode: mode, Board: board, Slots: slots}
	slotOf := map[ClanTag]int{}
	for _, cs := range slots {
		slotOf[cs.Clan] = cs.Slot
	}
	perSide := len(players)
	for _, cl := range s.Clans {
		ev.Placements = append(ev.Placements, huddle(s, cl, slotOf[cl.Tag], perSide, board)...)
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if err := reconstitute(tx, s); err != nil {
		return err
	}
	return dealRound(tx)
}

// modeFor is the kind of book a number of players makes (12): five or
// more a battle, three or four a raid, fewer a practice book.
func modeFor(players int) Mode {
	switch {
	case players >= 5:
		return Battle
	case players >= 3:
		return Raid
	}
	return Practice
}

func checkMode(m Mode, players int) error {
	switch {
	case m == Battle && players < 5:
		return engine.Refuse("12", "A battle needs at least 5 players with 10 clans; this book has %d players. Open it as a raid or practice.", players)
	case m == Raid && players < 3:
		return engine.Refuse("12", "A raid needs 3 or 4 players; this book has %d. Open it as practice.", players)
	case m == Raid && players > 4:
		return engine.Refuse("12", "A raid is 3 or 4 players; with %d this book is a battle.", players)
	}
	return nil
}

// deploySlots sizes the table and gives each clan its place along its
// edge: protagonists from the left in the order they were raised, and each
// player's antagonist clan one place to the right of his protagonist clan
// (wrapping round), so that no player's two clans face each other (7.3).
func deploySlots(s *State) (Board, []ClanSlot) {
	players := s.Players()
	n := len(players)
	board := Board{Width: max(minBoardWidth, slotWidth*float64(n)), Depth: boardDepth}
	var slots []ClanSlot
	pos := map[engine.PlayerID]int{}
	i := 0
	for _, cl := range s.Clans {
		if cl.Side == Protagonist {
			pos[cl.Player] = i
			slots = append(slots, ClanSlot{Clan: cl.Tag, Slot: i})
			i++
		}
	}
	for _, cl := range s.Clans {
		if cl.Side == Antagonist {
			slots = append(slots, ClanSlot{Clan: cl.Tag, Slot: (pos[cl.Player] + 1) % n})
		}
	}
	return board, slots
}

// huddle places a clan's elements touching in one huddle (7.1): the
// warbands side by side along the front line, the chariot behind the first
// warband, and the Hero and Companions behind the second. Elements a
// scenario already placed keep their places.
func huddle(s *State, cl Clan, slot, perSide int, b Board) []Placement {
	cx := (float64(slot) + 0.5) * b.Width / float64(perSide)
	front := b.Depth/2 - frontGap/2
	var out []Placement
	var warbands, chariots, people int
	nWarbands := 0
	for _, el := range s.ClanElements(cl.Tag) {
		if el.Kind == Warband {
			nWarbands++
		}
	}
	left := cx - float64(nWarbands)*warbandWidth/2
	for _, el := range s.ClanElements(cl.Tag) {
		if el.Placed {
			continue
		}
		var x, y float64
		switch el.Kind {
		case Warband:
			x = left + warbandWidth*(float64(warbands)+0.5)
			y = front - warbandDepth/2
			warbands++
		case Chariot:
			x = left + chariotWidth*(float64(chariots)+0.5)
			y = front - warbandDepth - chariotDepth/2
			chariots++
		default:
			x = left + warbandWidth + individualWidth*(float64(people)+0.5)
			y = front - warbandDepth - individualDepth/2
			people++
		}
		base := el.Base
		base.Center, base.Facing = engine.Vec{X: x, Y: y}, 0
		if cl.Side == Antagonist {
			base.Center = engine.Vec{X: 2*cx - x, Y: b.Depth - y}
			base.Facing = 180
		}
		out = append(out, Placement{Element: el.ID, Base: base})
	}
	return out
}

// place puts an element where a scenario says (#place ELEMENT x,y [facing]).
func place(tx *engine.Tx, s *State, c engine.Command) error {
	if len(c.Args) < 2 || len(c.Args) > 3 {
		return engine.Refuse("", "#place takes an element, a position x,y and optionally a facing: #place MYR-W1 10,12 N")
	}
	facing := ""
	if len(c.Args) == 3 {
		facing = c.Args[2]
	}
	return placeAt(tx, s, c.Args[0], c.Args[1], facing)
}

// placeAt puts the element named with its front centre at the position
// written x,y, facing as written ("" to keep its facing, or face the
// enemy's edge when it was never placed).
func placeAt(tx *engine.Tx, s *State, name, position, facing string) error {
	el, err := s.findElement(name)
	if err != nil {
		return err
	}
	if el.Aboard != "" {
		return engine.Refuse("8.2", "%s rides %s; /dismount him, or place the chariot.", el.Label(), el.Aboard)
	}
	at, err := engine.ReadPoint("position", position, "strides")
	if err != nil {
		return err
	}
	base := el.Base
	if facing != "" {
		h, err := engine.ReadFacing(facing)
		if err != nil {
			return err
		}
		base.Facing = h
	} else if cl := s.Clan(el.Clan); !el.Placed && cl.Side == Antagonist {
		base.Facing = 180
	}
	base = base.WithFrontCenter(at)
	for i := range s.Elements {
		o := &s.Elements[i]
		if o != el && o.Status == Standing && o.Placed && base.Clashes(o.Base) {
			return engine.Refuse("", "%s would stand on %s there.", el.Label(), o.Label())
		}
	}
	if s.Phase != Gathering && !s.Board.holds(base) {
		return engine.Refuse("", "That is off the table (%g by %g strides).", s.Board.Width, s.Board.Depth)
	}
	return tx.Emit(Placed{Placement: Placement{Element: el.ID, Base: base}, Name: el.Label()})
}

func endBook(tx *engine.Tx, s *State, c engine.Command) error {
	if c.Actor != s.Master && !c.Master {
		return engine.Refuse("6.2", "Only the book's game master (%s) ends it.", s.Master)
	}
	reason := strings.TrimSpace(c.Opt("reason"))
	if reason == "" {
		reason = "by consent of the table"
	}
	discardRound(tx, s)
	if s.Fight != nil {
		for _, p := range s.Fight.Pairings {
			tx.Discard(CombatDeck, p.ACards...)
			tx.Discard(CombatDeck, p.BCards...)
		}
	}
	return tx.Emit(BookEnded{Reason: reason})
}
