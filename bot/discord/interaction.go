package discord

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// errNoGuild is an interaction from outside a server.
//
//lint:ignore ST1005 this error is the sentence the player reads
var errNoGuild = errors.New("Rhapsode plays in the channels of a server, not in direct messages.")

// requestOf reads who acted where out of an interaction; the command is
// left for the caller.
func requestOf(i *discordgo.Interaction) (bot.Request, error) {
	if i.GuildID == "" || i.Member == nil || i.Member.User == nil {
		return bot.Request{}, errNoGuild
	}
	perms := i.Member.Permissions
	return bot.Request{
		Guild:   i.GuildID,
		Channel: i.ChannelID,
		User:    engine.PlayerID(i.Member.User.ID),
		Roles:   i.Member.Roles,
		Admin:   perms&discordgo.PermissionManageGuild != 0 || perms&discordgo.PermissionAdministrator != 0,
		// Discord may deliver one interaction more than once; the router
		// acts on it once.
		Interaction: i.ID,
		Name:        displayName(i.Member.User),
		Made:        madeAt(i.ID),
	}, nil
}

// SeenAfter is how long after a step is recorded its player may first have
// seen its answer on Discord (bot.Config.SeenAfter): the answer's way to
// his screen, a skew between Discord's clock and the bot's, and the least
// time in which a person reads it and gives another command.
const SeenAfter = 1500 * time.Millisecond

// madeAt is when the interaction id was made, by Discord's clock: the
// time in its snowflake. (The router takes its arrival instead when that
// is far off.)
func madeAt(id string) time.Time {
	t, err := discordgo.SnowflakeTimestamp(id)
	if err != nil {
		return time.Time{}
	}
	return t
}

// commandOf reads a slash command out of an application command's data:
// its name with any sub-command ("book open"), its options as text, and
// the name of the option being typed, for autocomplete.
func commandOf(d discordgo.ApplicationCommandInteractionData) (c engine.Command, focused string, err error) {
	c.Name = d.Name
	opts := d.Options
	for len(opts) == 1 && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
		c.Name += " " + opts[0].Name
		opts = opts[0].Options
	}
	for _, o := range opts {
		v, err := optionText(o)
		if err != nil {
			return engine.Command{}, "", fmt.Errorf("option %s: %w", o.Name, err)
		}
		if c.Options == nil {
			c.Options = map[string]string{}
		}
		c.Options[o.Name] = v
		if o.Focused {
			focused = o.Name
		}
	}
	return c, focused, nil
}

// optionText writes an option's value as the local table would type it.
func optionText(o *discordgo.ApplicationCommandInteractionDataOption) (string, error) {
	switch v := o.Value.(type) {
	case string:
		return v, nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	case bool:
		return strconv.FormatBool(v), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("a value of type %T", o.Value)
}

// displayName is how the board pictures name a user: his display name,
// else his username. (A server nickname is left out: the same player's
// picture in another server would show it.)
func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}
