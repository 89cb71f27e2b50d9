// Package postgres is Rhapsode's store on a PostgreSQL server, for a club
// that runs its bot as several processes, on one machine or several, over
// one database. It keeps the same games, event logs, snapshots, deadlines,
// calls, settings, interaction IDs and publications as package store's
// SQLite file, copies games in and out as it does (copy.go, for rhapsode
// migrate), and makes the same
// promises, method for method, so package bot uses either through its
// interfaces alike; its errors wrap package store's sentinels
// ([store.ErrConflict], [store.ErrNotFound], [store.ErrEnded],
// [store.ErrBusy]).
//
// It is a package of its own, not a second file in package store, so that
// a program that keeps its games in a file does not carry the PostgreSQL
// driver's code paths in its store, and so that each engine's SQL, schema
// files and error mapping sit apart; the types both share (Game, GameID,
// Deadline) and the sentinels live in package store.
//
// The schema is applied by numbered files in migrations/, each once, in a
// transaction holding a session-wide advisory lock, so that two processes
// starting at once on a new database apply it once between them.
//
// Writes take row locks (SELECT … FOR UPDATE) at PostgreSQL's default
// isolation, READ COMMITTED, so a writer that finds the head moved reports
// [store.ErrConflict] rather than a serialization failure. A read that
// fails because the server dropped the connection before the statement was
// sent is tried again; a write whose fate is unknown is reported, never
// repeated.
package postgres
