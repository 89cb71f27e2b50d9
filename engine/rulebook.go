package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Told is an event body that says what it means to the table; "" says
// nothing. A sealed body's text never tells its secret.
type Told interface {
	Body
	Text() string
}

// Offering is an event body whose message offers choices as buttons.
type Offering interface {
	Buttons() []Button
}

// Rule is one command a rule system understands, with the function that
// decides it against the game's state S. Run is nil only for the command
// the engine runs itself (flag [TakesBack]).
type Rule[S State] struct {
	CommandSpec
	Run func(tx *Tx, s S, c Command) error
}

// Rulebook is the frame every rule system shares: what it is called, what
// it plays with, the events it records, and its commands and directives
// with the rules that decide them. It implements [Ruleset] and
// [Directiver]; a rule system declares one and embeds it in the type that
// adds what is its own (its pictures, completions, turns).
//
// Event bodies say what they do through methods the Rulebook looks for:
// Apply(S) error folds the event into the state (see [Fold]), [Told]
// says what it means to the table, and [Offering] adds choices to it.
type Rulebook[S State] struct {
	Key       string     // the short name a game records ("gwab")
	Name      string     // the rule system's full title
	DeckSpecs []DeckSpec // the decks it plays with
	// Version changes whenever the encoding of S changes, so that old
	// snapshots are ignored rather than misread.
	Version int
	// Blank returns the state of a game before its first event.
	Blank  func() S
	Bodies BodyTypes
	// CommandRules are the commands players give, in the order /help
	// lists them; DirectiveRules are the local table's scenario
	// directives ("#place ...").
	CommandRules   []Rule[S]
	DirectiveRules []Rule[S]
	// Scenarios are the prepared set-ups /scenario load knows by name,
	// and SetUp writes a game's set-up as the commands (flagged SetsUp)
	// that lay it out again, for /scenario save. A rulebook with either
	// has the two commands.
	Scenarios []Scenario
	SetUp     func(s S) []Command
	// Ended, when set, is the refusal a command given after the game has
	// ended gets (once s.Over(), only commands flagged [Reads] are
	// answered); a rulebook without it takes commands to the end (a
	// saga's Herald still corrects its ledger).
	Ended func(s S) error

	// Referee returns who referees a game: its game master, who alone
	// may take steps back, end the game early and set its deadlines
	// ([Mastered]). MasterTitle is what the rules call him in help
	// ("game master" when left empty; Goliath's "referee").
	Referee     func(s S) PlayerID
	MasterTitle string
	// Waits returns the players a game waits for now ([Awaiter]), none
	// when it waits on no one in particular. The engine writes each
	// timeout's actor (the awaited player), and [Rulebook.Caption] says
	// the wait in one line for a picture.
	Waits func(s S) []Await
	// Completions offers values for an option as a player types it
	// ([Completer]).
	Completions func(s S, actor PlayerID, command, option, typed string) []Completion
	// Undo, when set, gives the rulebook the engine's /undo, listed
	// before the set-up commands: it says what a step must not have done
	// to be taken back, in words that follow "if it" ("rolled no die").
	// AfterUndo, when set, speaks once a step is taken back (whose turn
	// it is again).
	Undo      string
	AfterUndo func(tx *Tx, s S)

	// specs are the command and directive specs, listed once.
	once                 sync.Once
	commands, directives []CommandSpec
}

var (
	_ Ruleset    = (*Rulebook[State])(nil)
	_ Directiver = (*Rulebook[State])(nil)
)

func (b *Rulebook[S]) ID() string        { return b.Key }
func (b *Rulebook[S]) Title() string     { return b.Name }
func (b *Rulebook[S]) Decks() []DeckSpec { return b.DeckSpecs }
func (b *Rulebook[S]) StateVersion() int { return b.Version }
func (b *Rulebook[S]) NewState() State   { return b.Blank() }

// Commands lists the commands, with /scenario load and /scenario save
// for a rulebook that has scenarios. The list is made once and shared:
// callers must not change it.
func (b *Rulebook[S]) Commands() []CommandSpec {
	b.once.Do(b.list)
	return b.commands
}

// Directives describes the scenario directives.
func (b *Rulebook[S]) Directives() []CommandSpec {
	b.once.Do(b.list)
	return b.directives
}

func (b *Rulebook[S]) list() {
	cmds := specs(b.CommandRules)
	if b.Undo != "" {
		at := slices.IndexFunc(cmds, func(c CommandSpec) bool { return c.Is(SetsUp) })
		if at < 0 {
			at = len(cmds)
		}
		cmds = slices.Insert(cmds, at, b.undoSpec())
	}
	b.commands = append(cmds, b.scenarioSpecs()...)
	b.directives = specs(b.DirectiveRules)
}

func specs[S State](rules []Rule[S]) []CommandSpec {
	out := make([]CommandSpec, len(rules))
	for i, r := range rules {
		out[i] = r.CommandSpec
	}
	return out
}

// DecodeState reads a state written by json.Marshal. The decoder grows
// the state's lists as it reads them, leaving them room to spare; the
// state returned is a copy that holds each list at its length, as it is
// kept in a cached game.
func (b *Rulebook[S]) DecodeState(data []byte) (State, error) {
	s := b.Blank()
	if err := json.Unmarshal(data, s); err != nil {
		return nil, err
	}
	return Copy(s), nil
}

// DecodeBody reads the body of an event of this rule system.
func (b *Rulebook[S]) DecodeBody(kind string, data []byte) (Body, error) {
	return b.Bodies.Decode(kind, data)
}

// Decide finds the rule for c and runs it.
func (b *Rulebook[S]) Decide(tx *Tx, c Command) error {
	s, ok := tx.State().(S)
	if !ok {
		return fmt.Errorf("engine: %s cannot decide on a %T", b.Key, tx.State())
	}
	if c.Directive {
		for _, d := range b.DirectiveRules {
			if d.Name == c.Name {
				return d.Run(tx, s, c)
			}
		}
		return Refuse("", "Unknown directive #%s; /help lists the directives.", c.Name)
	}
	if ok, err := b.decideScenario(tx, s, c); ok {
		return err
	}
	for _, r := range b.CommandRules {
		if r.Name != c.Name {
			continue
		}
		if b.Ended != nil && !r.Is(Reads) && s.Over() {
			return b.Ended(s)
		}
		if r.Run == nil {
			return Refuse("", "/%s cannot be given here.", c.Name)
		}
		return r.Run(tx, s, c)
	}
	return Refuse("", "There is no /%s command in %s; /help lists them.", c.Name, b.Name)
}

// Narrate says what an event means to the table: the table's own events
// as the engine tells them, the rule system's by their Text.
func (b *Rulebook[S]) Narrate(e Event) []Message {
	if msgs, ok := NarrateTable(e); ok {
		return msgs
	}
	t, ok := e.Body.(Told)
	if !ok {
		return []Message{{Text: fmt.Sprintf("(%s)", e.Body.Kind())}}
	}
	text := t.Text()
	if text == "" {
		return nil
	}
	m := Message{Text: text}
	if o, ok := e.Body.(Offering); ok {
		m.Buttons = o.Buttons()
	}
	return []Message{m}
}

// Fold applies an event to the state s of its rule system, through the
// body's Apply method. A rule system's State.Apply is Fold.
func Fold[S any](s S, e Event) error {
	a, ok := e.Body.(interface{ Apply(S) error })
	if !ok {
		return fmt.Errorf("engine: no rule applies a %s event to a %T", e.Body.Kind(), s)
	}
	return a.Apply(s)
}

var (
	_ Mastered  = (*Rulebook[State])(nil)
	_ Awaiter   = (*Rulebook[State])(nil)
	_ Completer = (*Rulebook[State])(nil)
	_ Resumer   = (*Rulebook[State])(nil)
)

// undoSpec is the engine's /undo, in the words of b's rules.
func (b *Rulebook[S]) undoSpec() CommandSpec {
	return CommandSpec{Name: "undo", Flags: TakesBack | MasterOnly,
		Help: fmt.Sprintf("Take back the last step, if it %s. %s", b.Undo, b.MasterNote())}
}

// MasterNote ends the help of a command only the game master may give:
// "Game master only." in the words of b's rules.
func (b *Rulebook[S]) MasterNote() string { return Capital(b.RefereeTitle()) + " only." }

// RefereeTitle is what b's rules call the one who referees a game: its
// MasterTitle, or "game master".
func (b *Rulebook[S]) RefereeTitle() string {
	if b.MasterTitle == "" {
		return "game master"
	}
	return b.MasterTitle
}

// Master returns who referees the game in state st, through
// [Rulebook.Referee].
func (b *Rulebook[S]) Master(st State) PlayerID {
	s, ok := st.(S)
	if !ok || b.Referee == nil {
		return ""
	}
	return b.Referee(s)
}

// Awaited returns the players the game in state st waits for, through
// [Rulebook.Waits].
func (b *Rulebook[S]) Awaited(st State) []Await {
	s, ok := st.(S)
	if !ok {
		return nil
	}
	return b.Waiting(s)
}

// Waiting returns the players s waits for, each timeout given as the
// awaited player.
func (b *Rulebook[S]) Waiting(s S) []Await {
	if b.Waits == nil {
		return nil
	}
	out := b.Waits(s)
	for i := range out {
		if out[i].Timeout.Name != "" {
			out[i].Timeout.Actor = out[i].Player
		}
	}
	return out
}

// Caption is a picture's default caption: whom s waits for and for what
// ([WaitingCaption]).
func (b *Rulebook[S]) Caption(s S) string { return WaitingCaption(b.Waiting(s)) }

// Complete offers values for an option through [Rulebook.Completions].
func (b *Rulebook[S]) Complete(st State, actor PlayerID, command, option, typed string) []Completion {
	s, ok := st.(S)
	if !ok || b.Completions == nil {
		return nil
	}
	return b.Completions(s, actor, command, option, typed)
}

// Resume speaks once a step is taken back, through [Rulebook.AfterUndo].
func (b *Rulebook[S]) Resume(tx *Tx) {
	if s, ok := tx.State().(S); ok && b.AfterUndo != nil {
		b.AfterUndo(tx, s)
	}
}
