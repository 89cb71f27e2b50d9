// Package store keeps Rhapsode's games in one SQLite file
// (modernc.org/sqlite, pure Go): each game's event log, snapshots of its
// state, which channel it is played in, and what the bot keeps beside
// them (deadlines, calls to act, settings, interactions taken,
// publications). The types and sentinel errors it declares are shared by
// package store/postgres, which keeps the same on a PostgreSQL server.
//
// A game is a fold of its events (see package engine). The store holds the
// log as [engine.Record] values, numbered 1, 2, 3 ... per game, and never
// rewrites or deletes them. To load a game, take the newest [Store.Snapshot]
// of the state format the program understands, then replay
// [Store.Events] after it. To move a game on, [Store.Append] the new records
// with the number of the last event the caller saw; if anyone else has
// appended since, Append returns [ErrConflict] and the caller reloads and
// tries again (or tells the player the table moved on).
//
// The parts:
//
//   - store.go: [Open], the connection pools, and how SQLite's errors map to
//     [ErrNotFound], [ErrConflict], [ErrEnded] and [ErrBusy].
//   - migrate.go and migrations/: the schema, as numbered SQL files.
//   - games.go: each [Game], and the rule of one active game per channel.
//   - events.go: the log: [Store.Append], [Store.Events], and a player's
//     last step in a game ([Store.LastStep]).
//   - commits.go: the commit queue, which gathers the appends and new
//     games of many goroutines into one transaction and one sync of the
//     disk.
//   - checkpoint.go: the write-ahead log copied into the database file
//     in the background, off the path of any append.
//   - snapshots.go: [Store.PutSnapshot] and [Store.Snapshot].
//   - calls.go: what keeps books moving over weeks: settings of players,
//     books and servers ([Store.PutSetting]), the calls of players to act
//     and when they acted ([Call]), recorded with the step that made them
//     ([Store.AppendCalling], [Store.CreateGameCalling], one commit), and
//     reminders and other work claimed once across processes
//     ([Store.ClaimReminder], [Store.Claim]).
//   - deadlines.go: each game's turn [Deadline], those due at a time, and
//     a deadline's work claimed once ([Store.ClaimDeadline]).
//   - interactions.go: a transport's request taken once, and the answer
//     given to it kept for every later delivery ([Store.TakeInteraction]).
//   - publications.go: the games whose pages are public, each under its
//     token ([Publication], [Store.Publish]).
//   - copy.go: a game as a whole ([GameCopy], [Copy]), written into
//     another database by [Store.ImportGame], for rhapsode migrate.
//
// # Durability
//
// The file is in WAL mode with synchronous=FULL: SQLite syncs the write-ahead
// log on every commit, so once Append (or CreateGame, or PutSnapshot)
// returns nil its records survive a crash of the process or of the machine.
// A call that returns an error has written nothing, with one exception that
// no database avoids: if the disk fails during the commit itself, the caller
// cannot tell whether it landed; reloading the game shows which.
//
// # Concurrency
//
// A Store is safe for use by many goroutines, and many processes on one
// machine may open the same file (WAL mode needs shared memory, so not over
// a network file system). Every write runs in a transaction begun with BEGIN
// IMMEDIATE, which takes the database's single write lock before it reads
// anything. A game's head is the number of its log's last record, read
// from the log itself (the games table keeps no copy for every step to
// rewrite), and the events table's key (the game's number and the
// record's, as one integer) refuses a second record with the same number
// whatever path it comes by. Two
// writers with the same expectation, in one process or in two, therefore
// cannot both succeed: one commits, the other gets ErrConflict. The same
// lock and a partial unique index on (guild, channel) where not ended let
// a channel have only one active game. A store keeps the row of each game
// it has made or read: what never changes in it (its guild, channel, rule
// system and creation), and a head the game has had, which heads only
// grow past. An append after a head no lower than that one cannot leave a
// gap in the log, so it checks only that the game has not ended and has
// a deadline as last seen, in the statement that inserts its first
// records, which inserts nothing when the check fails; then (another
// process ended the game, or set or lifted its deadline), or when the
// append expects a head the store has not seen, the row is read under
// the lock to check the head and say why.
//
// Appends and new games in one process share commits (group commit,
// commits.go): while one transaction syncs, those that arrive wait in a
// queue, and the first of them then commits them all in one transaction,
// each inside a savepoint of its own. Each is checked as if it were alone,
// after those before it in the batch, so two appends to one game at one
// number still give one ErrConflict; a write that fails rolls back to its
// savepoint and fails alone, and a commit that fails fails every write of
// its batch. A write returns only after the commit that holds it, so one
// that returned nil is on disk.
//
// A Store holds two pools of connections to the file:
//
//   - The writer pool has exactly one connection (and _txlock=immediate).
//     Writers in this process wait for it in database/sql, in order, until
//     their context ends, rather than each taking a connection and polling
//     SQLite's lock, and a read can never hold a connection a writer needs.
//     (Appends and new games wait in the commit queue instead, until their
//     context ends; once a batch holds one, it waits for the batch's
//     commit.)
//   - The reader pool has several connections with query_only set. Each read
//     is a single statement, so it sees one committed state of the
//     database (WAL gives every statement a snapshot) and it neither waits
//     for writers nor blocks them. Reads see every write that returned
//     before they began, from this process or another.
//
// Between processes the only arbiter is SQLite's file lock. A connection
// that finds another process holding the write lock retries for up to the
// busy timeout (10 s); if the lock is still held it gives up with [ErrBusy],
// which is not ErrConflict: nothing is known about the game's head, so the
// caller should report a busy table rather than reload.
//
// # Schema
//
// Migrations are embedded SQL files, migrations/NNNN_words.sql, numbered from
// 0001 without gaps. Open applies the ones the file lacks, each in its own
// IMMEDIATE transaction that first checks schema_migrations under the write
// lock, so two processes opening a new file at once apply each step once.
// Open refuses a file that records a migration this program does not have.
// A migration file must never change once released; add a new one instead.
package store
