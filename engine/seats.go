package engine

import (
	"fmt"
	"strings"
)

// Seats. A seat is a place at the table a player holds: a GWAB clan, an
// army, a side. When a player vanishes, the book's game master hands his
// seat to another member with /seat hand, in every rule system alike: the
// engine decides the command (a game master's, with a reason) and records
// a [SeatHanded] table event, which the rule system's state applies by
// changing the seat's holder ([Seater]). Being a step of the log, the
// change is read back by /log, the export and the published pages, and
// taken back by /undo like any step.

// Seat is one place at the table and who holds it.
type Seat struct {
	// ID is how commands name it (a clan's or army's tag); Name how the
	// table says it ("the Myrmidons").
	ID     string
	Name   string
	Player PlayerID
}

// Seater is implemented by the states of rule systems whose seats
// players hold: Seats lists them, HandSeat gives one to another player.
type Seater interface {
	Seats() []Seat
	HandSeat(id string, to PlayerID) error
}

// SeatHanded records that the game master handed a seat from one player
// to another, and why.
type SeatHanded struct {
	Seat   string   `json:"seat"`
	Name   string   `json:"name"`
	From   PlayerID `json:"from"`
	To     PlayerID `json:"to"`
	Reason string   `json:"reason"`
}

func (SeatHanded) Kind() string { return "table.seat-handed" }

// HandSeatSpec is the command that hands a seat over; every rule system
// whose state is a [Seater] takes it, through [Game.Decide].
var HandSeatSpec = CommandSpec{Name: "seat hand", Help: "Hand a player's seat (a clan, an army, a side) to another member, with the reason; it is a logged step. Game master only.",
	Flags: MasterOnly,
	Options: []OptionSpec{
		{Name: "seat", Help: "the seat's tag (a clan's or an army's), or the player who holds it", Required: true},
		{Name: "reason", Help: "why: the table reads it and the log keeps it", Required: true},
		{Name: "to", Help: "the member who takes it", Kind: OptPlayer},
		{Name: "bot", Help: "or the bot takes it, thinking this hard: easy, normal or hard", Choices: []string{"easy", "normal", "hard"}},
	}, Example: `/seat hand seat:MYR to:@carol reason:"alice has gone to sea"`}

// handSeat decides /seat hand.
func (tx *Tx) handSeat(c Command) error {
	st, ok := tx.State().(Seater)
	if !ok {
		return Refuse("", "Seats cannot be handed over in %s.", tx.game.Rules.Title())
	}
	if err := HandSeatSpec.Check(c); err != nil {
		return err
	}
	if tx.game.State.Over() {
		return Refuse("", "The book has ended: its seats stay as they were.")
	}
	// A member may be written as a mention (@carol, <@123>).
	to := PlayerID(strings.TrimLeft(strings.Trim(strings.TrimSpace(c.Opt("to")), "<>"), "@!"))
	switch {
	case to != "" && c.Has("bot"):
		return Refuse("", "/seat hand takes to: (a member) or bot: (the bot), not both.")
	case to == "" && !c.Has("bot"):
		return Refuse("", "/seat hand needs to: (the member who takes the seat) or bot: (the bot takes it, at a level).")
	}
	reason := strings.TrimSpace(c.Opt("reason"))
	if reason == "" {
		return Refuse("", "/seat hand needs reason: (why the seat changes hands), for the log.")
	}
	want := strings.TrimSpace(c.Opt("seat"))
	var found []Seat
	for _, s := range st.Seats() {
		if strings.EqualFold(s.ID, want) || strings.EqualFold(s.Name, want) || strings.EqualFold(string(s.Player), want) {
			found = append(found, s)
		}
	}
	var ids []string
	for _, s := range st.Seats() {
		ids = append(ids, s.ID)
	}
	switch {
	case len(found) == 0 && len(ids) == 0:
		return Refuse("", "No one holds a seat at this table yet.")
	case len(found) == 0:
		return Refuse("", "There is no seat %q here; the seats are %s.", want, JoinAnd(ids))
	case len(found) > 1:
		var which []string
		for _, s := range found {
			which = append(which, s.ID)
		}
		return Refuse("", "%q holds several seats (%s); name one by its tag.", want, JoinAnd(which))
	}
	s := found[0]
	if l, bot := IsBot(to); bot || c.Has("bot") {
		// The bot is written bot: on Discord, where to: takes members
		// only, and may be written to:bot at the local table.
		if c.Has("bot") {
			var err error
			if l, err = ParseLevel(c.Opt("bot")); err != nil {
				return err
			}
		}
		to = BotSeat(l, st.Seats(), s)
	}
	if s.Player == to {
		return Refuse("", "%s already holds %s.", to, s.Name)
	}
	return tx.Emit(SeatHanded{Seat: s.ID, Name: s.Name, From: s.Player, To: to, Reason: reason})
}

// BotSeat is the name the bot takes seat s under, at level l: the
// level's [BotPlayer], marked with the first seat its holder held (in
// the order of seats), so that the bot standing in for one player holds
// all his seats as one player, and bots standing in for two players stay
// two (GWAB's antagonists are clans of different players, 7.3). A seat
// the bot already holds keeps its mark.
func BotSeat(l Level, seats []Seat, s Seat) PlayerID {
	mark := s.ID
	if _, bot := IsBot(s.Player); bot {
		_, mark, _ = strings.Cut(string(s.Player), "#")
	} else if s.Player != "" {
		for _, o := range seats {
			if o.Player == s.Player {
				mark = o.ID
				break
			}
		}
	}
	if mark == "" {
		return BotPlayer(l)
	}
	return PlayerID(string(BotPlayer(l)) + "#" + mark)
}

// applySeat applies a SeatHanded event to the game's state.
func (g *Game) applySeat(b SeatHanded) error {
	st, ok := g.State.(Seater)
	if !ok {
		return fmt.Errorf("engine: a %s state has no seats to hand over", g.Rules.ID())
	}
	return st.HandSeat(b.Seat, b.To)
}

func (b SeatHanded) text() string {
	return fmt.Sprintf("The game master hands %s from %s to %s: %s.", b.Name, b.From, b.To, strings.TrimRight(b.Reason, "."))
}

// HandSeatIn gives the seat tagged id among seats to player to, through
// hold, which changes the holder of the i-th seat: the shape of
// [Seater.HandSeat] for a state whose seats are its list of armies, in
// order.
func HandSeatIn(seats []Seat, id string, to PlayerID, hold func(i int, to PlayerID)) error {
	for i, s := range seats {
		if s.ID == id {
			hold(i, to)
			return nil
		}
	}
	return fmt.Errorf("engine: no seat tagged %q", id)
}

// Set-up commands that make a seat (a clan raised, an army picked) may
// make it for the bot instead of the player who gives them: player:bot,
// at level:. Only the game master may do that, as only he hands seats.

// BotSetUpOptions are the options a seat-making set-up command takes to
// make the seat for the bot.
var BotSetUpOptions = []OptionSpec{
	{Name: "player", Help: "bot: the bot takes this seat, not you (game master only)", Choices: []string{"bot"}},
	{Name: "level", Help: "how hard the bot thinks, with player:bot: easy, normal or hard", Choices: []string{"easy", "normal", "hard"}},
}

// BotOpenOptions are the options /book open takes to give the seats it
// will make to the bot: the other side's (opponent:bot) or both
// (opponent:bots, for a club that watches two bots fight).
var BotOpenOptions = []OptionSpec{
	{Name: "opponent", Help: "bot: the bot takes the other side; bots: it takes both, and you watch", Choices: []string{"bot", "bots"}},
	{Name: "level", Help: "how hard the bot thinks, with opponent: easy, normal or hard", Choices: []string{"easy", "normal", "hard"}},
}

// SetUpForBot reads player:bot and level: from a seat-making set-up
// command: whether the seat goes to the bot, and at what level. It
// refuses a player: that is not the bot, a level: without it, and a
// player who is not the game master.
func SetUpForBot(c Command, master PlayerID) (Level, bool, error) {
	p := strings.ToLower(strings.TrimSpace(c.Opt("player")))
	switch {
	case p == "" && c.Has("level"):
		return Normal, false, Refuse("", "level: sets how hard the bot thinks; give it with player:bot.")
	case p == "":
		return Normal, false, nil
	case p != "bot":
		return Normal, false, Refuse("", "player: takes bot (the bot takes this seat); a member takes a seat by giving the command himself.")
	case c.Actor != master:
		return Normal, false, Refuse("", "Only the game master, %s, gives a seat to the bot.", master)
	}
	l, err := ParseLevel(c.Opt("level"))
	return l, err == nil, err
}

// OpenBots reads opponent: and level: from /book open: the players the
// bot holds the book's seats as, none when the opener plays his side
// himself. One bot is its level's [BotPlayer]; two are marked #1 and #2.
func OpenBots(c Command) ([]PlayerID, error) {
	l, err := ParseLevel(c.Opt("level"))
	if err != nil {
		return nil, err
	}
	switch o := strings.ToLower(strings.TrimSpace(c.Opt("opponent"))); o {
	case "":
		if c.Has("level") {
			return nil, Refuse("", "level: sets how hard the bot thinks; give it with opponent:bot or opponent:bots.")
		}
		return nil, nil
	case "bot":
		return []PlayerID{BotPlayer(l)}, nil
	case "bots":
		return []PlayerID{BotPlayer(l) + "#1", BotPlayer(l) + "#2"}, nil
	default:
		return nil, Refuse("", "opponent:%s is not an opponent; choose bot (the bot takes the other side) or bots (it takes both).", o)
	}
}

// OpenedFor is what a book's opening adds when it was opened for bots:
// one, with the bot's name for its %s, when the bot holds one seat;
// two, with both names, when it holds both; nothing otherwise.
func OpenedFor(bots []PlayerID, one, two string) string {
	switch len(bots) {
	case 1:
		return " " + fmt.Sprintf(one, bots[0])
	case 2:
		return " " + fmt.Sprintf(two, JoinAnd([]string{string(bots[0]), string(bots[1])}))
	}
	return ""
}

// AwaitBots returns, while a book musters its sides, the bots it was
// opened for (opponent:bot or bots) that lead none yet, as long as there
// is room for them: seats less those taken. Each makes its own at once,
// by task, or gives timeout (in its own name) at a deadline.
func AwaitBots(bots []PlayerID, leads func(PlayerID) bool, taken, seats int, task string, timeout Command) []Await {
	var out []Await
	for _, b := range bots {
		if leads(b) || taken+len(out) >= seats {
			continue
		}
		t := timeout
		t.Actor = b
		out = append(out, Await{Player: b, Who: string(b), Task: task, Timeout: t})
	}
	return out
}
