// Package bot is Rhapsode's table-side: it takes a player's command from
// any transport, runs it against the channel's game, records the result,
// and says what happened.
//
// The [Router] is transport-neutral. A transport turns what a player did
// into a [Request] (guild, channel, user, command) and sends the [Reply]
// values the router returns; the router never sends anything itself. The
// local table ([Local]) is one such transport, reading lines typed the way
// Discord shows a used slash command; the Discord gateway and the HTTP
// interactions endpoint are others.
//
// For each request the router loads the channel's game (the newest
// snapshot and the events after it), asks the game's rule system to decide
// the command, appends the resulting events to the store naming the
// sequence number it expects, and only after that commit replies. When
// another writer got there first, it reloads and decides again; a command
// that the new position no longer allows is refused with that explanation.
// A command that names no piece acts for whatever its player is awaited
// for, so it is refused when it was given before he could have seen the
// answer to his own last step (Request.Made, Config.SeenAfter): a double
// press never plays for his next clan. A request a transport may deliver
// twice (a Discord interaction) makes one step, and every delivery shows
// its one answer (once.go). Text options are checked and cleaned where
// the router takes them (input.go).
//
// Around each step the router does what a table played over days needs
// (turns.go, deadline.go, permissions.go): it asks the rules whom the game
// now awaits and, for chat transports, calls those players by name in a
// message of their own; it keeps each book's deadline clock in the store,
// and [Router.CheckDeadlines] reminds late players and stands in for them
// when their time runs out; and it lets only a book's game master (its
// opener, a member who manages the server, or one of a configured role)
// take steps back, end the book and set deadlines. [Router.Commands] lists
// every command a guild can use, for transports that declare them, and
// [Router.Complete] suggests option values as a player types.
//
// For books played over weeks, several at once per player (settings.go,
// games.go, reminders.go, away.go, me.go, dead.go, digest.go, server.go),
// the router records in the store, with the step that made each change,
// when a book began to await each player and when it stopped
// ([CallStore]; a step that leaves its player awaited records none):
// /games lists where a player is awaited and since when (his call or his
// last step since, the later), and /games server:yes every book with who holds it up;
// [Router.CheckReminders] sends a book's (or the server's) reminder ladder,
// each rung once across instances and never in a player's quiet hours;
// /away pauses the deadlines that wait for a player until /back; /me set
// chooses a player's zone, quiet hours, direct messages and a word when
// the player before him starts; /me stats gives his pace;
// [Router.CheckDeadBooks] reports books idle too long to their game
// masters with buttons; [Router.CheckDigests] posts the server's weekly
// digest. /seat hand (decided by the engine) hands a seat to another member,
// or with bot: to the bot; chair.go plays the bot's steps at once after
// every step (a book opened against the bot included) while the game
// waits for it, offers a Why? button on its message, and answers /why.
//
// A book whose dice and cards come from the players at the table (opened
// with dice:table) needs nothing more of the router than its commands:
// table_draws.go adds /roll, /draw, /dice and the dice: option of /book
// open, and the engine asks for each draw and takes the answers as events
// like any other.
//
// The other parts: request.go is what a transport hands in and gets back;
// router.go decides a request and names the stores it needs; table.go
// the table's own commands (help, the board, the log, the tape measure,
// deadlines) and commands.go every command a guild can give, merged over
// the rule systems; help.go /help and the command a mistyped one most
// likely meant; campaign.go the campaigns (a GWAB saga), kept per guild
// beside its books; names.go the names a picture gives players in place
// of their account IDs; replay.go /book replay, the book as an animated
// picture; publish.go /saga publish and /book publish; export.go the log
// as rhapsode export writes it; local.go the local table and demo.go the
// demonstrations rhapsode local --demo plays.
package bot
