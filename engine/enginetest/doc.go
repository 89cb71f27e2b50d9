// Package enginetest plays rule systems without a store, for their own
// tests: an in-memory local table that plays the same scripts as the
// bot's and writes the same transcripts, the golden comparison of a
// folder of scripts, a fuzz harness for any rule system's turns, a
// check that a game's state copies share nothing, a stacked script's
// twin at a table whose players enter their own draws ([TableTwin]), and
// [PlayBots], which lets the bot play every seat of a game to its end and
// checks what must hold of it.
//
// A fuzz target plays its set-up once, keeps it with [Prepare], and plays
// each input on a copy ([Prepared.Player]) with [Fuzz], whose replay
// check starts from the prepared game restored from its snapshot.
//
// A rule system's package keeps its scripts in testdata/transcripts and
// runs them with [Transcripts]; the bot plays the same scripts once more
// through its router and a real database. [ViewGoldens] plays them again
// keeping what each step's picture shows (the rule system's view, as
// text: what came and went) beside them as NAME.views, so that a wrong
// caption, pip count or mark is seen without drawing a picture.
// [AdvanceKeepsPast] plays them as the bot's router decides, each step by
// [engine.Game.Advance] with the game after it kept, and checks that no
// step changes the game it was decided on or any earlier one (what a
// state whose copies share what never changes, such as a map, must
// keep).
// [DeadlineGoldens] lets the deadlines of a game under way pass one after
// another, keeping what they said as NAME.deadlines. [UnusedOptions]
// lists the commands and options of a rule system that no script of the
// repository plays, [Unexplained] those /help would show without help,
// and [MasterOnlyUnsaid] those whose help and flags disagree on whether
// only the game master may give them.
package enginetest
