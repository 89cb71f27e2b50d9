// Package storetest is the suite of tests every Rhapsode event store
// passes, whatever its database: the embedded SQLite store (package
// store) and the PostgreSQL one (package store/postgres) run it from
// their own tests, each on databases of its own.
//
// The suite holds a store to what the bot relies on: records read back
// as written; an append names the head it expects, so that of two
// writers, in one process or two, exactly one wins; a channel has one
// game open at a time; snapshots are found by sequence and version;
// deadlines are kept, listed when due and claimed once by whichever
// instance asks first; an interaction is taken once, across instances.
// What is particular to one database (SQLite's pragmas and busy timeout,
// PostgreSQL's dropped connections) is tested beside that store. The
// suite also holds calls, reminders, settings, publications and whole
// games copied from one database into another (storetest.go); [Bench]
// measures appends and loads (bench.go).
package storetest
