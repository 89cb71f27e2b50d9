// Package guard bounds what a client of the bot's HTTP servers (Discord's
// interactions endpoint in bot/discord, the published pages in bot/web)
// can hold: deadlines on reading a request's headers and body, on writing
// the answer and on idling between requests, and a cap on the connections
// open at once. Past the cap the listener does not make newcomers wait (a
// few thousand slow clients would then starve everyone): it sheds the
// connection that has waited longest without a request in hand, one still
// dribbling its headers or idling between requests, so that a client that
// sends a whole request at once is served.
//
// [Server] makes a server with the deadlines; [Serve] serves it on a
// listener with the cap.
package guard
