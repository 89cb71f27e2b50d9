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
package bot
