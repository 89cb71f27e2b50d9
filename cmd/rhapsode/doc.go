// Command rhapsode is the Rhapsode game-master bot.
//
// Usage:
//
//	rhapsode [COMMAND] [flags]
//
// With no command, rhapsode connects to Discord's gateway when
// DISCORD_TOKEN is set, and opens the local table when it is not.
// "rhapsode -h" lists every command with its flags, and "rhapsode
// COMMAND -h" one command's.
//
// The commands and their flags:
//
//	local     play at a table in this terminal, one command a line
//	          (or a script on stdin): --db PATH (default rhapsode.db),
//	          --channel NAME (default table), --user NAME (who acts until
//	          a line names a player with @name), --json (one JSON object
//	          per reply), --boards DIR (write each board picture as a PNG,
//	          numbered on from those an earlier run left there), --demo
//	          (play a short demonstration book and write its pictures),
//	          --rules KEY (the system --demo plays: btg, goliath, gwab,
//	          sgboh or sweet; refused without --demo), --web ADDR (serve
//	          the pages published at this table while it runs)
//	export    write a channel's game, every step of it, as JSON: --db,
//	          --guild (default local), --channel, --game N (default the
//	          channel's newest), --list (list the channel's games)
//	gateway   connect to Discord's gateway with DISCORD_TOKEN and play:
//	          --db, --health ADDR (GET /healthz, 503 while the gateway
//	          holds no session), --no-register (leave the slash commands
//	          as they are), --shard N and --shards N|auto (share the
//	          gateway among processes), --web ADDR (the published pages)
//	serve     answer Discord's HTTP interactions endpoint
//	          (DISCORD_PUBLIC_KEY): --db, --interactions ADDR (POST
//	          /interactions and GET /healthz), --health ADDR, --web ADDR
//	register  declare the slash commands with Discord (DISCORD_TOKEN):
//	          --guild ID (default DISCORD_GUILD; empty, globally)
//	migrate   copy every game of one database into another, empty one:
//	          --from and --to, each a SQLite file or a postgres:// URL
//	arena     play games between two programs and print the score and
//	          the bot's decision times: --rules (a system the arena sets
//	          a table for; "rhapsode arena -h" lists them), --scenario
//	          NAME, --games N, --cores N (games at once; default every
//	          core), --a and --b (bot:easy, bot:normal, bot:hard, random
//	          or greedy), --seed N (the first game's seed, so that a
//	          second run plays new games), --clock wall|cpu (time each
//	          decision on the wall clock, or in the thinking thread's
//	          processor time, which a busy machine does not inflate),
//	          --by-command (split the decision times by the command
//	          decided), --log FILE; an answer given in parts (Goliath's
//	          written orders) is timed whole too
//	health    ask a running bot's health endpoint, for a container's
//	          HEALTHCHECK: --url (default http://127.0.0.1:8081/healthz)
//	version   print the version
//
// --db names a SQLite file or a postgres:// URL; any other URL is refused
// with the schemes understood. gateway and serve take --health's default
// from RHAPSODE_HEALTH, which the Docker image sets to :8081.
//
// The environment: DISCORD_TOKEN (the bot's token), DISCORD_APP_ID (the
// application, looked up with the token when left out),
// DISCORD_PUBLIC_KEY (serve's check of Discord's signatures),
// DISCORD_GUILD (register's default guild), RHAPSODE_GM_ROLE (a role
// whose members are game master at every table), RHAPSODE_WEB_URL (the
// address the published pages are reached at from outside, which the
// bot's answers give in full), RHAPSODE_DISCORD_REST (an address Discord's REST calls go to
// instead of discord.com) and RHAPSODE_HEALTH.
//
// When Discord refuses the bot for good (a wrong token, shard or intents)
// or the first connection to the gateway fails, gateway logs one sentence
// saying what to check, as JSON like its other lines, and exits 1.
//
// main only wires the packages together: the rules are in engine and its
// five rule systems (gwab, sweet, btg, goliath, sgboh), the table in bot,
// Discord in bot/discord, the published pages in bot/web, the HTTP
// servers' limits in bot/guard, the pictures in render and the database
// in store (SQLite) and store/postgres.
package main
