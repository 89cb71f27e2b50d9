package bot

import (
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// Request is a player's command as any transport delivers it.
type Request struct {
	Guild   string
	Channel string
	User    engine.PlayerID
	// Roles are the IDs of the user's roles in the guild, as the
	// transport knows them (a saga's Herald role, the game-master role),
	// and Admin says whether he may manage the server; the local table
	// leaves them empty.
	Roles   []string
	Admin   bool
	Command engine.Command
	// AtSeq, when set, is the last event of the game the command was
	// meant for: should the game have moved past it, the command is
	// refused rather than decided on the new position (a deadline's
	// stand-in).
	AtSeq engine.Seq
	// Seen, when set, is the last event of the game when the command was
	// offered to its player (a button): should he have made a step since,
	// the command is refused, so that a button pressed twice, or pressed
	// after he acted otherwise, does not act for his next clan or turn.
	// Other players' steps since leave it to the rules.
	Seen engine.Seq
	// Interaction, when set, is the transport's own ID for this delivery
	// (a Discord interaction): a request delivered again under the same
	// ID makes no second step and gets the first answer again.
	Interaction string
	// Name is the user's display name as the transport knows it, for the
	// board pictures, which cannot show a mention; empty, his ID serves.
	Name string
	// Made, when set, is when the player gave the command, by the
	// transport's account (a Discord interaction's creation time); left
	// out, it is when the router was handed the request. A command that
	// names no piece acts only if its player could have seen the answer
	// to his own last step by then (Config.SeenAfter).
	Made time.Time

	// arrived is when the router was handed the request.
	arrived time.Time
}

// Reply is one message the transport must deliver. An ephemeral reply is
// for User alone; the others are for the whole channel.
type Reply struct {
	User      engine.PlayerID
	Ephemeral bool
	Text      string
	// Image is a PNG picture of the board after the step, when the step
	// changed the board and a renderer is configured.
	Image []byte
	// Channel, when set, makes the reply an ordinary message posted to
	// that channel of the request's guild rather than an answer to the
	// command (Herald announcements, turn calls, deadline notices).
	Channel string
	// Mentions are the players the message calls: the transport pings
	// them, and no one else.
	Mentions []engine.PlayerID
	// Buttons are choices offered with the message, for transports that
	// show them.
	Buttons []engine.Button
	// Seq is the game's last event when the reply was made: a button
	// pressed later acts only if the game still stands there (AtSeq).
	Seq engine.Seq
	// Again marks the answer to an interaction delivered before, given
	// again from the store without its picture, for a transport that must
	// answer this delivery too: it shows it only as the first answer's
	// words, never over that answer's picture or buttons, and sends no
	// second copy of anything. An Again reply with no text says there is
	// nothing to show: leave the first delivery's response as it is.
	Again bool `json:",omitempty"`

	// refused marks the answer to a command the table refused, which
	// changed nothing.
	refused bool
}
