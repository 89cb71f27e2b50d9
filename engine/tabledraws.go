package engine

import (
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
)

// Draws from the table. A book opened with dice:table (or switched by
// /dice from:table) has its players roll their own dice and draw from
// their own decks. When a command needs a draw the table has not entered,
// its transaction stops at the event that would have used it; nothing of
// the command is recorded but an [Asked] event that names the command and
// what it needs. The players answer with /roll and /draw ([Entered]
// events, checked against what was asked); when every draw asked is in,
// the command is decided again with the entered values, and its events
// record them as any draw is recorded, each marked as entered at the
// table. A replay applies those events and never decides again, so the
// log alone rebuilds the game, as it does for the bot's own draws.

// DiceFrom says where the book's draws come from from now on: the table
// (the players' own dice and cards) or the bot.
type DiceFrom struct {
	Table bool `json:"table"`
}

// Need is one draw the table is asked for: Count cards of Deck, or Count
// rolls of Die, and why, as the rule system said it ([Tx.Why]).
type Need struct {
	Deck  DeckName `json:"deck,omitempty"`
	Die   Die      `json:"die,omitempty"`
	Count int      `json:"count"`
	Why   string   `json:"why,omitempty"`
	// For is the player who rolls or draws it, when the rules name one;
	// he or the game master enters it.
	For PlayerID `json:"for,omitempty"`
	// Entered are the values entered for it so far: none, or Count.
	Entered []Draw `json:"entered,omitempty"`
}

// Open reports whether n still waits for its values.
func (n Need) Open() bool { return len(n.Entered) < n.Count }

// What writes the need for a prompt: "roll 4 d6", "draw 1 combat card",
// after its reason when it has one.
func (n Need) What() string {
	s := n.action()
	switch {
	case n.Why != "" && n.For != "":
		return fmt.Sprintf("%s (%s): %s", n.Why, n.For, s)
	case n.Why != "":
		return n.Why + ": " + s
	}
	return s
}

// action is what the table must do for n: "roll 4d6".
func (n Need) action() string {
	var s string
	switch {
	case n.Die == TwoD6:
		s = "roll " + Plural(n.Count, "2d6 (enter the total)", "2d6 (enter each total)")
	case n.Die == D0to9:
		s = "roll " + Plural(n.Count, "ten-sided die (read 0 to 9)", "ten-sided dice (read 0 to 9)")
	case n.Die != NoDie:
		s = fmt.Sprintf("roll %d%s", n.Count, n.Die)
	case n.Deck == "cards" || n.Deck == "":
		s = "draw " + Plural(n.Count, "card", "cards")
	default:
		s = "draw " + Plural(n.Count, string(n.Deck)+" card", string(n.Deck)+" cards")
	}
	return s
}

// AwaitedDraws returns whom the table's draws wait for, one [Await] for
// each draw still open that names its player, and whether a command waits
// for draws at all. A draw has no stand-in: a deadline only reminds.
func (g *Game) AwaitedDraws() ([]Await, bool) {
	a := g.Table.Asked
	if a == nil {
		return nil, false
	}
	var out []Await
	for _, n := range a.Needs {
		if n.Open() && n.For != "" {
			task := n.action() + " and enter it"
			if n.Why != "" {
				task = n.action() + " for " + n.Why + " and enter it"
			}
			out = append(out, Await{Player: n.For, Who: n.Why, Task: task})
		}
	}
	return out, true
}

// Asked is a command waiting for draws from the table: Needs are what
// its next event needs, and Done what was entered for its earlier events
// in earlier rounds, used again in order when it is decided again.
// While a command waits, the table takes nothing but the answers, the
// commands that only read, and /undo.
type Asked struct {
	Command Command `json:"command"`
	Needs   []Need  `json:"needs"`
	Done    []Draw  `json:"done,omitempty"`
	// Secret is set when the command laid down a secret choice before
	// its draw: then its options are not shown to others (see Public).
	Secret bool `json:"secret,omitempty"`
}

// Entered is one answer from the table: the values of need Need of the
// waiting command.
type Entered struct {
	Need  int    `json:"need"`
	Draws []Draw `json:"draws"`
}

func (DiceFrom) Kind() string { return "table.dice-from" }
func (Asked) Kind() string    { return "table.asked" }
func (Entered) Kind() string  { return "table.entered" }

var _ Sealed = Asked{}

// Key names the secret of a waiting command: a secret choice's options
// stay out of exports.
func (a Asked) Key() string { return "table-asked" }

// Public is the waiting command without its options when it holds a
// secret choice.
func (a Asked) Public() Body {
	if a.Secret {
		a.Command.Options, a.Command.Args = nil, nil
	}
	return a
}

// with returns a copy of a with the values e entered.
func (a *Asked) with(e Entered) *Asked {
	b := *a
	b.Needs = append([]Need(nil), a.Needs...)
	b.Needs[e.Need].Entered = e.Draws
	return &b
}

// complete reports whether every need has its values.
func (a *Asked) complete() bool {
	for _, n := range a.Needs {
		if n.Open() {
			return false
		}
	}
	return true
}

// entered returns every value entered for the command, in the order its
// draws will use them.
func (a *Asked) entered() []Draw {
	out := append([]Draw(nil), a.Done...)
	for _, n := range a.Needs {
		out = append(out, n.Entered...)
	}
	return out
}

// open lists what is still asked, for a sentence.
func (a *Asked) open() string {
	var parts []string
	for _, n := range a.Needs {
		if n.Open() {
			parts = append(parts, n.What())
		}
	}
	return strings.Join(parts, "; ")
}

// The table's commands for its draws.
var (
	rollSpec = CommandSpec{Name: "roll", Help: "Enter the dice the table rolled when the bot asks for them.", Options: []OptionSpec{
		{Name: "dice", Help: "the faces rolled, one number a die, like 3 5 6 1", Required: true},
	}, Example: "/roll dice:3 5 6 1"}
	drawSpec = CommandSpec{Name: "draw", Help: "Enter the cards the table drew when the bot asks for them.", Options: []OptionSpec{
		{Name: "cards", Help: "the cards drawn, rank then suit, like KS 7H 10D", Required: true},
		{Name: "deck", Help: "which deck they come from, when cards of two decks are asked"},
	}, Example: "/draw cards:KS"}
	diceSpec = CommandSpec{Name: "dice", Help: "Choose who draws from now on: the players at the table, or the bot.", Flags: MasterOnly, Options: []OptionSpec{
		{Name: "from", Help: "table (the players roll and draw and enter it) or bot", Required: true, Choices: []string{"table", "bot"}},
	}, Example: "/dice from:table"}
)

// DiceOption is the option of every command that opens a book which
// chooses where its draws come from.
var DiceOption = OptionSpec{Name: "dice", Help: "who rolls and draws: bot (default) or table (the players enter their own)", Choices: []string{"bot", "table"}}

// TableCommands are the commands every book understands for draws from
// the table: /roll, /draw and /dice.
func TableCommands() []CommandSpec { return []CommandSpec{rollSpec, drawSpec, diceSpec} }

func tableSpec(name string) (CommandSpec, bool) {
	for _, s := range TableCommands() {
		if s.Name == name {
			return s, true
		}
	}
	return CommandSpec{}, false
}

// maxAsked bounds the draws one event asks of the table.
const maxAsked = 60

// errDrawsNeeded stops a transaction at the first event whose draws the
// table has not entered.
var errDrawsNeeded = errors.New("engine: the table has draws to enter")

// Why says what the next draws are for, in the words of a prompt to the
// table ("Myrmidons: combat card", "the slingers' fire"). A rule system
// says it before drawing; it holds until the next event is emitted.
func (tx *Tx) Why(s string) { tx.why, tx.whose = s, "" }

// Ask is Why with the player who rolls or draws: at a table, he (or the
// game master) enters it.
func (tx *Tx) Ask(who PlayerID, why string) { tx.why, tx.whose = why, who }

// need asks for one more draw like d and returns a stand-in value for the
// rest of the trial, which is thrown away.
func (tx *Tx) need(d Draw) {
	tx.asked++
	if tx.asked > maxAsked {
		// A rule that draws until a result comes would draw for ever
		// from stand-ins: stop the trial and ask for what it has.
		panic(errDrawsNeeded)
	}
	if k := len(tx.needs) - 1; k >= 0 && tx.needs[k].Deck == d.Deck && tx.needs[k].Die == d.Die && tx.needs[k].Why == tx.why && tx.needs[k].For == tx.whose {
		tx.needs[k].Count++
		return
	}
	tx.needs = append(tx.needs, Need{Deck: d.Deck, Die: d.Die, Count: 1, Why: tx.why, For: tx.whose})
}

// fromTable takes the next entered value of the same deck or die as d.
func (tx *Tx) fromTable(d Draw) (Draw, bool) {
	for i, e := range tx.entered {
		if e.Deck == d.Deck && e.Die == d.Die {
			tx.entered = append(tx.entered[:i:i], tx.entered[i+1:]...)
			return e, true
		}
	}
	return Draw{}, false
}

// drawsNeeded is what a stopped transaction asks of the table.
type drawsNeeded struct {
	needs  []Need
	secret bool
}

func (*drawsNeeded) Error() string { return errDrawsNeeded.Error() }

// decideTable decides c, which the table's draws may stop: a stopped
// command records only that it waits (Asked). open, when set, is emitted
// first (the opening of a book with dice:table).
func (g *Game) decideTable(c Command, done []Draw, first Body, decide func(tx *Tx) error) (Result, error) {
	res, err := g.transactWith(c.Actor, true, done, func(tx *Tx) error {
		if first != nil {
			if err := tx.Emit(first); err != nil {
				return err
			}
		}
		return decide(tx)
	})
	var need *drawsNeeded
	if !errors.As(err, &need) {
		return res, err
	}
	return g.transact(c.Actor, func(tx *Tx) error {
		if first != nil {
			if err := tx.Emit(first); err != nil {
				return err
			}
		}
		return tx.Emit(Asked{Command: c, Needs: need.needs, Done: done, Secret: need.secret})
	})
}

// decideOpening decides a command that opens a book, with its dice:
// option taken off and recorded as where the draws come from.
func (g *Game) decideOpening(c Command) (Result, error) {
	from := strings.ToLower(c.Opt(DiceOption.Name))
	c.Options = maps.Clone(c.Options)
	delete(c.Options, DiceOption.Name)
	spec, _ := g.Spec(c.Name)
	if err := spec.Check(c); err != nil {
		return Result{}, err
	}
	switch from {
	case "table":
	case "bot", "":
		return g.Decide(c)
	default:
		return Result{}, Refuse("", "dice:%s is not a choice; the draws come from the bot or the table (dice:table).", from)
	}
	return g.decideTable(c, nil, DiceFrom{Table: true}, func(tx *Tx) error { return g.Rules.Decide(tx, c) })
}

// decideTableCommand decides /roll, /draw and /dice.
func (g *Game) decideTableCommand(c Command) (Result, error) {
	if c.Name == diceSpec.Name {
		if err := g.Permit(diceSpec, c); err != nil {
			return Result{}, err
		}
		return g.transact(c.Actor, func(tx *Tx) error { return tx.diceFrom(c) })
	}
	a := g.Table.Asked
	if a == nil {
		if !g.Table.FromTable {
			return Result{}, Refuse("", "The bot rolls and draws in this book; /%s is for a book whose dice and cards come from the table (/dice from:table).", c.Name)
		}
		return Result{}, Refuse("", "Nothing is asked of the table now: the bot asks for dice and cards when the rules need them.")
	}
	res, err := g.transact(c.Actor, func(tx *Tx) error { return tx.answer(c) })
	if err != nil || res.After.Table.Asked != nil {
		return res, err
	}
	// Every draw asked is in: the command is decided again with them.
	if e, ok := res.Events[len(res.Events)-1].Body.(Entered); ok {
		a = a.with(e)
	}
	after := res.After
	again, err := after.decideTable(a.Command, a.entered(), nil, func(tx *Tx) error { return after.Rules.Decide(tx, a.Command) })
	if err != nil {
		if ref, ok := IsRefusal(err); ok {
			res.Messages = append(res.Messages, Message{Text: fmt.Sprintf("The draws are in, but %s no longer stands: %s", a.Command, ref.Text)})
			return res, nil
		}
		return Result{}, err
	}
	return Result{Events: append(res.Events, again.Events...), Messages: append(res.Messages, again.Messages...), After: again.After}, nil
}

// diceFrom decides /dice from:table|bot.
func (tx *Tx) diceFrom(c Command) error {
	t := tx.Table()
	if t.Asked != nil {
		return Refuse("", "Waiting for the table: %s. Switch after the command that waits is done.", t.Asked.open())
	}
	table := strings.EqualFold(c.Opt("from"), "table")
	if table == t.FromTable {
		return Refuse("", "The draws already come from the %s.", map[bool]string{true: "table", false: "bot"}[table])
	}
	return tx.Emit(DiceFrom{Table: table})
}

// answer checks /roll or /draw against what is asked and records it.
func (tx *Tx) answer(c Command) error {
	a := tx.Table().Asked
	var draws []Draw
	var kinds []int // the open needs of the answer's kind
	for i, n := range a.Needs {
		if n.Open() && (n.Die != NoDie) == (c.Name == rollSpec.Name) {
			kinds = append(kinds, i)
		}
	}
	what := "dice"
	if c.Name == drawSpec.Name {
		what = "cards"
	}
	if len(kinds) == 0 {
		return Refuse("", "No %s are asked now. Waiting for the table: %s.", what, a.open())
	}
	if c.Name == rollSpec.Name {
		for _, f := range strings.Fields(c.Opt("dice")) {
			n, err := strconv.Atoi(f)
			if err != nil {
				return Refuse("", "%q is not a die's face: enter the numbers rolled, like /roll dice:3 5 6 1.", f)
			}
			draws = append(draws, Draw{Roll: n, Table: true})
		}
	} else {
		for _, f := range strings.Fields(c.Opt("cards")) {
			card, err := ParseCard(f)
			if err != nil {
				return Refuse("", "%s.", strings.TrimPrefix(err.Error(), "engine: "))
			}
			draws = append(draws, Draw{Card: card, Table: true})
		}
	}
	deck := DeckName(strings.ToLower(c.Opt("deck")))
	pick, others := -1, -1
	for _, i := range kinds {
		n := a.Needs[i]
		if deck != "" && n.Deck != deck || n.Count != len(draws) {
			continue
		}
		if n.For != "" && n.For != c.Actor && !tx.game.IsMaster(c) {
			others = i
			continue
		}
		// The asker's own draw first, then one for anyone.
		if pick < 0 || n.For == c.Actor && a.Needs[pick].For != c.Actor {
			pick = i
		}
	}
	if pick < 0 && others >= 0 {
		return Refuse("", "That is for %s to enter (%s), or the game master: nothing was recorded.", a.Needs[others].For, a.Needs[others].What())
	}
	if pick < 0 {
		var asked []string
		for _, i := range kinds {
			asked = append(asked, a.Needs[i].What())
		}
		return Refuse("", "Waiting for the table: %s. You entered %s, which answers none of it: nothing was recorded.", strings.Join(asked, "; "), map[bool]string{true: Plural(len(draws), "die", "dice"), false: Plural(len(draws), "card", "cards")}[what == "dice"])
	}
	n := a.Needs[pick]
	if n.Die != NoDie {
		lo, hi := n.Die.Range()
		for i := range draws {
			draws[i].Die = n.Die
			if r := draws[i].Roll; r < lo || r > hi {
				return Refuse("", "A %s shows %d to %d, not %d: nothing was recorded.", n.Die, lo, hi, r)
			}
		}
	} else if err := tx.checkCards(a, n.Deck, draws); err != nil {
		return err
	}
	return tx.Emit(Entered{Need: pick, Draws: draws})
}

// checkCards refuses cards that are not in deck to be drawn: drawn
// earlier and not reshuffled, entered already for this command, or not
// in the deck at all (a joker where there are none).
func (tx *Tx) checkCards(a *Asked, name DeckName, draws []Draw) error {
	d := *tx.Table().Deck(name)
	d.Stacked = nil
	for _, e := range a.entered() {
		if e.Deck == name {
			d.take(e.Card)
		}
	}
	for i := range draws {
		c := draws[i].Card
		draws[i].Deck = name
		spec := tx.spec(name)
		if !d.pool(spec.Shuffled).Has(c) {
			switch {
			case c.IsJoker() && !spec.Jokers:
				return Refuse("", "The %s has no jokers: nothing was recorded.", deckWords(string(name)))
			case spec.Shuffled:
				return Refuse("", "The %s is in play, dealt and not yet discarded, so it is not in the %s to be drawn. Nothing was recorded.", c.Name(), deckWords(string(name)))
			}
			return Refuse("", "The %s is not in the %s to be drawn: it was drawn earlier and not reshuffled. Nothing was recorded.", c.Name(), deckWords(string(name)))
		}
		d.take(c)
	}
	return nil
}

// applyAsked folds the bodies of draws from the table.
func (t *Table) applyAsked(b Body) bool {
	switch b := b.(type) {
	case DiceFrom:
		t.FromTable = b.Table
	case Asked:
		t.Asked = &b
	case Entered:
		if t.Asked == nil || b.Need < 0 || b.Need >= len(t.Asked.Needs) {
			return true
		}
		t.Asked = t.Asked.with(b)
		if t.Asked.complete() {
			t.Asked = nil
		}
	default:
		return false
	}
	return true
}

// narrateAsked tells the bodies of draws from the table.
func narrateAsked(e Event) ([]Message, bool) {
	switch b := e.Body.(type) {
	case DiceFrom:
		if b.Table {
			return []Message{{Text: "From now on the players roll their own dice and draw their own cards, and enter them when the bot asks (/roll, /draw)."}}, true
		}
		return []Message{{Text: "From now on the bot rolls the dice and draws the cards."}}, true
	case Asked:
		m := Message{Text: fmt.Sprintf("Waiting for the table: %s. Answer with %s; nothing goes on until every draw is in.", b.open(), answerWith(b.Needs))}
		for _, n := range b.Needs {
			if n.Die == D6 && n.Count == 1 {
				for f := 1; f <= 6; f++ {
					m.Buttons = append(m.Buttons, Button{Label: strconv.Itoa(f), Command: Command{Name: rollSpec.Name, Options: map[string]string{"dice": strconv.Itoa(f)}}})
				}
				break
			}
		}
		return []Message{m}, true
	case Entered:
		vals := make([]string, len(b.Draws))
		for i, d := range b.Draws {
			if d.Die != NoDie {
				vals[i] = strconv.Itoa(d.Roll)
			} else {
				vals[i] = d.Card.String()
			}
		}
		return []Message{{Text: fmt.Sprintf("Entered at the table: %s.", strings.Join(vals, " "))}}, true
	}
	return nil, false
}

func answerWith(needs []Need) string {
	var dice, cards bool
	for _, n := range needs {
		dice = dice || n.Die != NoDie
		cards = cards || n.Die == NoDie
	}
	switch {
	case dice && cards:
		return "/roll dice: and /draw cards:"
	case dice:
		return "/roll dice:"
	}
	return "/draw cards:"
}
