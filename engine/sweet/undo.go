package sweet

import "github.com/rhapsode/rhapsode/engine"

// Taking back a step (/undo) is the engine's (engine/undo.go): a game
// lists the command, and the engine keeps the game as it stood before its
// last step, unless that step showed a card, a die or a secret.
var undoCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "undo", Help: "Take back the last step, if it rolled no die and laid no secret choice. Game master only.", Flags: engine.TakesBack | engine.MasterOnly}, Run: nil},
}
