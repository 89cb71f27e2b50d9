package bot

import (
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Draws from the table. A book opened with dice:table has its players
// roll and draw for themselves: the engine asks for each draw a command
// needs and takes the answers (/roll, /draw), and /dice switches a book
// between the bot's draws and the table's (engine/tabledraws.go). The
// router adds nothing of its own but the commands and the option: the
// prompt, the answers and the command decided again are events like any
// other, recorded, replayed and exported the same way.

// tableDrawCommands are the commands for the table's draws, which every
// book knows whatever its rules.
func tableDrawCommands() []engine.CommandSpec { return engine.TableCommands() }

// withDiceOption adds the dice: option to a command that opens a book.
func withDiceOption(s engine.CommandSpec) engine.CommandSpec {
	s.Options = append(s.Options, engine.DiceOption)
	return s
}

// answersTable reports whether c answers the draws g waits for. Such an
// answer pressed on a button (a d6's faces) stands however many answers
// came since the button was offered: the engine checks it against what is
// still asked.
func answersTable(g *engine.Game, c engine.Command) bool {
	if g.Table.Asked == nil || c.Directive {
		return false
	}
	return slices.ContainsFunc(engine.TableCommands(), func(s engine.CommandSpec) bool {
		return s.Name == c.Name && !s.Is(engine.MasterOnly)
	})
}

// bareAnswer reads an answer typed with its values bare, "/roll 3 5 6 1"
// or "/draw KS", as the named option ("/roll dice:3 5 6 1"), which is
// how a table types what it rolled.
func bareAnswer(c *engine.Command) {
	name, rest, ok := strings.Cut(c.Name, " ")
	if !ok || c.Directive || len(c.Options) > 0 {
		return
	}
	option := map[string]string{"roll": "dice", "draw": "cards"}[name]
	if option == "" {
		return
	}
	c.Name, c.Options = name, map[string]string{option: rest}
}
