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
// A book whose dice and cards come from the players at the table (opened
// with dice:table) needs nothing more of the router than its commands:
// table_draws.go adds /roll, /draw, /dice and the dice: option of /book
// open, and the engine asks for each draw and takes the answers as events
// like any other.
package bot
