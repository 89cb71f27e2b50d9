// Package discord is Rhapsode's Discord transport: it declares the
// router's commands as Discord application commands, turns interactions
// into [bot.Request] values, and delivers the router's [bot.Reply] values
// as interaction responses, follow-ups and channel messages.
//
// Two ways in share one [Bot]: the gateway ([Gateway], its
// INTERACTION_CREATE events) and the HTTP interactions endpoint
// ([Endpoint]), which checks every request's Ed25519 signature and
// answers the first response in the HTTP reply. Either way
// a command's answer is awaited for a moment (AnswerWithin): when it comes
// in time the response is deferred with the answer's own visibility, else
// with the command's (private for /status, /mdi and the like, see
// answersPrivately), so that Discord's three seconds never run out while
// a board is drawn. The answer is then written into the deferred
// response (the picture replacing, never joining, any earlier one)
// before any follow-up, since Discord gives the first follow-up after a
// deferral the deferral's visibility; later messages go out as
// follow-ups or, past the interaction's lifetime, as ordinary channel
// messages. The router takes each interaction ID once in the store, so
// an interaction delivered twice, here or to another instance, makes one
// step and is answered the same.
//
// The parts: commands.go maps command specs to application commands;
// interaction.go reads requests out of interactions; message.go shapes
// replies to Discord's limits (2,000 characters of content, 4,096 of an
// embed's description) and mentions; buttons.go carries a choice's
// command in a button; bot.go handles one interaction from first
// response to last follow-up (a button that only reads, like the bot's
// Why?, is answered privately and stays on its message); gateway.go (with socket.go, one
// connection to the gateway) and http.go are the two ways in; shard.go
// says which guilds' events a gateway process receives.
//
// The gateway's websocket is Rhapsode's own (gorilla/websocket), not
// discordgo's Session.Open, whose loops cannot keep a session the way
// Discord documents (gateway.go says where they fall short); discordgo
// serves the REST API and the event types. A [Gateway] resumes its
// session through READY's resume_gateway_url after a dropped connection,
// op 7, op 9 with d true, a close code that allows it, or a heartbeat
// left unacknowledged for an interval (closing with 4000, which keeps
// the session), so that Discord replays what it missed; after op 9 with
// d false, 4007 or 4009 it identifies on a new connection. Waits between
// connections grow and are jittered. Close codes 4004 and 4010 to 4014,
// or a first connection that fails, end [Gateway.Run] with a sentence
// saying what to check; [Gateway.Health] answers 503 whenever no session
// is held. An interaction delivered to the gateway twice is answered once.
package discord
