package gwab

import "github.com/rhapsode/rhapsode/engine"

// Taking back a step (/undo) is the engine's (engine/undo.go): a book
// lists the command, and the engine keeps the book as it stood before its
// last step, unless that step showed a card, a die or a secret.
var undoCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "undo", Help: "Take back the last step, if it dealt no card. Game master only.", Flags: engine.TakesBack | engine.MasterOnly}, Run: nil},
}

// Resume says whose turn it is once a step is taken back.
func (Rules) Resume(tx *engine.Tx) { sayNext(tx, tx.State().(*State)) }
