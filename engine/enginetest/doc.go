// Package enginetest plays rule systems without a store, for their own
// tests: an in-memory local table that plays the same scripts as the
// bot's and writes the same transcripts, the golden comparison of a
// folder of scripts, a fuzz harness for any rule system's turns, a
// check that a game's state copies share nothing, and [PlayBots], which
// lets the bot play every seat of a game to its end and checks what must
// hold of it.
//
// A rule system's package keeps its scripts in testdata/transcripts and
// runs them with [Transcripts]; the bot plays the same scripts once more
// through its router and a real database.
package enginetest
