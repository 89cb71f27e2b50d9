// Package systems is the one list of the rule systems Rhapsode plays.
//
// The program (cmd/rhapsode) offers exactly these, and every test that
// covers "each rule system" iterates this list rather than writing its
// own, so that a system added here without its scripts, goldens or
// demonstration fails those tests instead of being silently skipped.
//
// Its tests hold the whole command reference of every system in one
// file (testdata/commands.golden: each command's help, example, flags
// and options), so that a change to what players may type shows as a
// diff to read, and that options keep one meaning across systems.
//
// It is the only package that imports every rule system; the engine's
// core and the bot import none of them through it (bot's tests do).
package systems
