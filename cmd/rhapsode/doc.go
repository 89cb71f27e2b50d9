// Command rhapsode is the Rhapsode game-master bot.
//
// Usage:
//
//	rhapsode                 with DISCORD_TOKEN set, serve Discord; without it, open the local table
//	rhapsode local [flags]   play at the local table in this terminal (or from a script on stdin)
//	rhapsode export [flags]  write a channel's game log as JSON
//
// Flags of local: --db PATH (default ./rhapsode.db), --channel NAME,
// --json (one JSON object per reply), --boards DIR (write board pictures).
// Flags of export: --db PATH, --channel NAME.
//
// main only wires the packages together: the rules are in engine, the
// table in bot, the database in store.
package main
