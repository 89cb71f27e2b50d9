package enginetest

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Table plays a local-table script against games of one rule system in
// memory: the commands of the rules and the table's directives, with no
// store, no pictures and none of the bot's own commands (/help, /log,
// /board, deadlines, campaigns) but the tape measure, /measure, which it
// answers from the rule system as the bot does. It writes what the table says
// exactly as the bot's local table does with its echo on, so that a
// script has one golden whichever plays it.
type Table struct {
	Rules engine.Ruleset
	// Seed seeds each game the table opens; the bot's tests use 1.
	Seed uint64
	// User acts for lines that name no player until a line does.
	User engine.PlayerID
	// Views, when set, keeps after each step what the picture of the
	// board shows (the rule system's [engine.View]) as text, for
	// [Table.ViewLog]: only the lines that changed since the step before.
	Views bool

	game *engine.Game // the channel's open game; nil when none or ended
	// advance, when set, decides as the router does ([AdvanceKeepsPast]),
	// and past keeps each game a step was decided on.
	advance bool
	past    []pastGame
	out     strings.Builder
	// drawn are the cards and dice of every event recorded, in order
	// (twins.go reads them).
	drawn []engine.Draw
	views viewLog
}

// NewTable returns a table of rules as the bot's transcript tests set
// theirs: seed 1, and "player" acting until a line names someone.
func NewTable(rules engine.Ruleset) *Table {
	return &Table{Rules: rules, Seed: 1, User: "player"}
}

// Transcript returns what the table has said so far.
func (t *Table) Transcript() string { return t.out.String() }

// Game returns the game open at the table, or the last one played.
func (t *Table) Game() *engine.Game { return t.game }

// Play plays each line of script and returns the transcript so far. An
// error means the script cannot be played here: it names another rule
// system, or a command only the bot answers.
func (t *Table) Play(script string) (string, error) {
	for _, text := range strings.Split(strings.TrimRight(script, "\n"), "\n") {
		if err := t.line(text); err != nil {
			return t.out.String(), err
		}
	}
	return t.out.String(), nil
}

func (t *Table) line(text string) error {
	line, err := engine.ParseLine(text)
	if err == nil && line.Empty {
		if line.Comment != "" {
			fmt.Fprintln(&t.out, line.Comment)
		}
		return nil
	}
	if line.User != "" {
		t.User = line.User
	}
	fmt.Fprintf(&t.out, "» %s\n", strings.TrimSpace(text))
	if err != nil {
		t.private(t.User, "That line does not read: "+err.Error()+".")
		return nil
	}
	c := line.Command
	c.Actor = t.User
	if !c.Directive && c.Name == "measure" {
		if err := t.measure(c); err != nil {
			ref, ok := engine.IsRefusal(err)
			if !ok {
				return err
			}
			t.private(t.User, ref.Error())
		}
		return nil
	}
	res, err := t.decide(c)
	if err != nil {
		if ref, ok := engine.IsRefusal(err); ok {
			t.private(t.User, ref.Error())
			return nil
		}
		return err
	}
	t.say(c.Actor, res)
	if t.Views && len(res.Events) > 0 {
		var buttons []engine.Button
		for _, e := range res.Events {
			for _, m := range t.Rules.Narrate(e) {
				buttons = append(buttons, m.Buttons...)
			}
		}
		t.views.step(text, t.game, res.Events, buttons)
	}
	return nil
}

// measure answers /measure as the bot's router does: from the last book
// played at the table, to the asker alone. It changes nothing.
func (t *Table) measure(c engine.Command) error {
	if t.game == nil {
		return engine.Refuse("", "No book has been played in this channel yet.")
	}
	m, ok := t.Rules.(engine.Measurer)
	if !ok {
		return engine.Refuse("", "%s has no tape measure here yet.", t.Rules.Title())
	}
	if !c.Has("from") {
		return engine.Refuse("", "/measure needs from: (a piece's name, or a place on the board).")
	}
	text, err := m.Measure(t.game.State, c.Actor, c.Opt("from"), strings.TrimSpace(c.Opt("to")))
	if err != nil {
		return err
	}
	t.private(c.Actor, text)
	return nil
}

// decide runs c as the bot's router would, and applies what it records.
func (t *Table) decide(c engine.Command) (engine.Result, error) {
	open := t.game != nil && !t.game.State.Over()
	if !c.Directive {
		spec, ok := t.spec(c.Name)
		if !ok {
			return engine.Result{}, fmt.Errorf("enginetest: /%s is not a command of %s; a script that uses the bot's own commands belongs to the bot's transcripts", c.Name, t.Rules.ID())
		}
		if spec.Is(engine.Opens) {
			if open {
				return engine.Result{}, engine.Refuse("", "A book is already open in this channel; it must end (/book end) before another opens.")
			}
			return t.open(c)
		}
	}
	if !open {
		return engine.Result{}, engine.Refuse("", "No book is open in this channel. Open one with /book open.")
	}
	spec, _ := t.game.Spec(c.Name)
	if err := t.game.Permit(spec, c); err != nil {
		return engine.Result{}, err
	}
	if t.advance {
		return t.advanceGame(c)
	}
	res, err := t.game.Decide(c)
	if err != nil {
		return res, err
	}
	for _, e := range res.Events {
		if err := t.game.Apply(e); err != nil {
			return res, fmt.Errorf("enginetest: %s does not apply its own event: %w", c, err)
		}
		t.drawn = append(t.drawn, e.Draws...)
	}
	if err := sameGame(t.game, res.After); err != nil {
		return res, fmt.Errorf("enginetest: %s: %w", c, err)
	}
	return res, nil
}

// open begins a new game with the command that opens one.
func (t *Table) open(c engine.Command) (engine.Result, error) {
	if id := c.Opt("rules"); id != "" && !strings.EqualFold(id, t.Rules.ID()) {
		return engine.Result{}, fmt.Errorf("enginetest: the script opens a game of %s at a table of %s", id, t.Rules.ID())
	}
	c.Options = maps.Clone(c.Options)
	delete(c.Options, "rules")
	g := engine.NewGame(t.Rules)
	if err := g.Apply(g.Open(c.Actor, t.Seed)); err != nil {
		return engine.Result{}, err
	}
	res, err := g.Decide(c)
	if err != nil {
		return res, err
	}
	for _, e := range res.Events {
		if err := g.Apply(e); err != nil {
			return res, err
		}
		t.drawn = append(t.drawn, e.Draws...)
	}
	t.game = g
	return res, nil
}

func (t *Table) spec(name string) (engine.CommandSpec, bool) {
	for _, s := range slices.Concat(t.Rules.Commands(), engine.TableCommands()) {
		if s.Name == name {
			return s, true
		}
	}
	return engine.CommandSpec{}, false
}

// say writes what a step tells the table: its events' narration and its
// messages, the public lines together for the actor, then each player's
// private lines.
func (t *Table) say(actor engine.PlayerID, res engine.Result) {
	var msgs []engine.Message
	for _, e := range res.Events {
		msgs = append(msgs, t.Rules.Narrate(e)...)
	}
	msgs = append(msgs, res.Messages...)
	var public []string
	private := map[engine.PlayerID][]string{}
	var order []engine.PlayerID
	for _, m := range msgs {
		switch {
		case m.Text == "":
		case !m.Private():
			public = append(public, m.Text)
		default:
			if _, ok := private[m.To]; !ok {
				order = append(order, m.To)
			}
			private[m.To] = append(private[m.To], m.Text)
		}
	}
	if len(public) > 0 {
		fmt.Fprintln(&t.out, strings.Join(public, "\n"))
	}
	for _, p := range order {
		t.private(p, strings.Join(private[p], "\n"))
	}
}

func (t *Table) private(to engine.PlayerID, text string) {
	fmt.Fprintf(&t.out, "(to %s only) %s\n", to, strings.ReplaceAll(text, "\n", "\n    "))
}

// Deadline gives, for the first player the game awaits, the command that
// stands for him when his deadline passes, as a transport does, and
// writes it to the transcript as "» (deadline) COMMAND". It reports
// false when the game awaits no one, or its rules say nothing of whom it
// awaits; a refused stand-in is an error, for a deadline must move the
// game on.
func (t *Table) Deadline() (bool, error) {
	if t.game == nil || t.game.State.Over() {
		return false, nil
	}
	a, ok := t.Rules.(engine.Awaiter)
	if !ok {
		return false, nil
	}
	waits := a.Awaited(t.game.State)
	if len(waits) == 0 || waits[0].Timeout.Name == "" {
		return false, nil
	}
	w := waits[0]
	c := w.Timeout
	fmt.Fprintf(&t.out, "» (deadline for %s, to %s) %s\n", w.Player, w.Task, c)
	if c.Actor != w.Player {
		return false, fmt.Errorf("enginetest: the deadline of %s gives a command for %s", w.Player, c.Actor)
	}
	res, err := t.decide(c)
	if err != nil {
		return false, fmt.Errorf("enginetest: the deadline's %s is refused: %w", c, err)
	}
	t.say(c.Actor, res)
	return true, nil
}
