package bot

import "github.com/rhapsode/rhapsode/engine"

// Request is a player's command as any transport delivers it.
type Request struct {
	Guild   string
	Channel string
	User    engine.PlayerID
	// Roles are the user's roles in the guild, as the transport knows
	// them (a saga's Herald role).
	Roles   []string
	Command engine.Command
}

// Reply is one message the transport must deliver. An ephemeral reply is
// for User alone; the others are for the whole channel.
type Reply struct {
	User      engine.PlayerID
	Ephemeral bool
	// Channel, when set, makes the reply an ordinary message in that
	// channel of the guild rather than an answer to the command: a
	// Herald's announcement.
	Channel string
	Text    string
	// Image is a PNG picture of the board after the step, when the step
	// changed the board and a renderer is configured.
	Image []byte
}
