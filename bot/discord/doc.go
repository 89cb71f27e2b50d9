// Package discord is Rhapsode's Discord transport: it declares the
// router's commands as Discord application commands, turns interactions
// into [bot.Request] values, and delivers the router's [bot.Reply] values
// as interaction responses, follow-ups and channel messages.
//
// Two ways in share one [Bot]: the gateway (a discordgo session's
// InteractionCreate events; [Bot.RunGateway]) and the HTTP interactions
// endpoint ([Bot.HTTPHandler]), which checks every request's Ed25519
// signature and answers the first response in the HTTP reply. Either way
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
// response to last follow-up; gateway.go and http.go are the two ways in.
package discord
