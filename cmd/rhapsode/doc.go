// Command rhapsode is the Rhapsode game-master bot.
//
// Usage:
//
//	rhapsode                 with DISCORD_TOKEN set, serve Discord; without it, open the local table
//	rhapsode local [flags]   play at the local table in this terminal (or from a script on stdin)
//	rhapsode export [flags]  write a channel's game log as JSON
//	rhapsode gateway [flags] connect to Discord's gateway (the default with DISCORD_TOKEN)
//	rhapsode serve --interactions ADDR [flags]
//	                         serve Discord's HTTP interactions (DISCORD_PUBLIC_KEY)
//	rhapsode register [--guild ID]
//	                         declare the slash commands (DISCORD_TOKEN)
//	rhapsode arena --rules R --games N --a bot:normal --b random|greedy|bot:LEVEL
//	                         play the bot against another program on all cores (arena.go);
//	                         --clock cpu times its decisions in processor time (cputime_linux.go)
//
// Flags of local: --db PATH (default ./rhapsode.db), --channel NAME,
// --json (one JSON object per reply), --boards DIR (write board pictures,
// numbered on from those an earlier run left there), --demo with --rules
// KEY (--rules alone is refused). Flags of export: --db PATH, --channel
// NAME, --list. Flags of gateway: --db PATH, --health ADDR (GET /healthz,
// 503 while the gateway holds no session), --no-register, --shard N,
// --shards N|auto, --web ADDR; it needs DISCORD_TOKEN. Flags of serve:
// --db PATH, --interactions ADDR (which also serves GET /healthz), --health
// ADDR. Both take --health's default from RHAPSODE_HEALTH, which the Docker
// image sets to :8081. --db names a SQLite file or a postgres:// URL; any
// other URL is refused with the schemes understood.
//
// When Discord refuses the bot for good (a wrong token, shard or intents)
// or the first connection to the gateway fails, gateway logs one sentence
// saying what to check, as JSON like its other lines, and exits 1.
//
// main only wires the packages together: the rules are in engine, the
// table in bot, Discord in bot/discord, the database in store.
package main
