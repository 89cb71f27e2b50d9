package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// Discord's limits on application commands.
const (
	maxDescription = 100
	maxOptions     = 25
	maxChoices     = 25
)

// ApplicationCommands declares specs as Discord slash commands. A name of
// two words ("book open") becomes a sub-command of a command named by the
// first ("book"), the help of its first sub-command serving the group.
// Options are typed (whole numbers as integers, players as users),
// choices are offered for fixed values, and options naming elements or
// heroes complete as they are typed. Required options come first, as
// Discord demands. Commands work in servers only.
func ApplicationCommands(specs []engine.CommandSpec) ([]*discordgo.ApplicationCommand, error) {
	var out []*discordgo.ApplicationCommand
	byName := map[string]*discordgo.ApplicationCommand{}
	plain := map[string]bool{}
	for _, s := range specs {
		words := strings.Fields(s.Name)
		if len(words) == 0 || len(words) > 2 {
			return nil, fmt.Errorf("discord: command %q: a command has one or two words", s.Name)
		}
		opts, err := options(s)
		if err != nil {
			return nil, err
		}
		top := byName[words[0]]
		if top == nil {
			top = &discordgo.ApplicationCommand{
				Type:        discordgo.ChatApplicationCommand,
				Name:        words[0],
				Description: describe(s.Help, s.Name),
				Contexts:    &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
			}
			byName[words[0]] = top
			out = append(out, top)
		}
		if len(words) == 1 {
			if plain[s.Name] || len(top.Options) > 0 && top.Options[0].Type == discordgo.ApplicationCommandOptionSubCommand {
				return nil, fmt.Errorf("discord: command %q is both a command and a group", s.Name)
			}
			plain[s.Name] = true
			top.Options = opts
			continue
		}
		if plain[words[0]] {
			return nil, fmt.Errorf("discord: command %q is both a command and a group", words[0])
		}
		if len(top.Options) == maxOptions {
			return nil, fmt.Errorf("discord: group %q has more than %d sub-commands", words[0], maxOptions)
		}
		top.Options = append(top.Options, &discordgo.ApplicationCommandOption{
			Type:        discordgo.ApplicationCommandOptionSubCommand,
			Name:        words[1],
			Description: describe(s.Help, s.Name),
			Options:     opts,
		})
	}
	for _, c := range out {
		if len(c.Options) == 0 || c.Options[0].Type != discordgo.ApplicationCommandOptionSubCommand {
			continue
		}
		subs := make([]string, len(c.Options))
		for i, o := range c.Options {
			subs[i] = o.Name
		}
		c.Description = clip(fmt.Sprintf("%s: %s", c.Name, strings.Join(subs, ", ")), maxDescription)
	}
	return out, nil
}

func options(s engine.CommandSpec) ([]*discordgo.ApplicationCommandOption, error) {
	if len(s.Options) > maxOptions {
		return nil, fmt.Errorf("discord: command %q has %d options, more than %d", s.Name, len(s.Options), maxOptions)
	}
	sorted := s.RequiredFirst()
	out := make([]*discordgo.ApplicationCommandOption, len(sorted))
	for i, o := range sorted {
		opt := &discordgo.ApplicationCommandOption{
			Type:        discordgo.ApplicationCommandOptionString,
			Name:        o.Name,
			Description: describe(o.Help, o.Name),
			Required:    o.Required,
		}
		switch o.Kind {
		case engine.OptInt:
			opt.Type = discordgo.ApplicationCommandOptionInteger
		case engine.OptPlayer:
			opt.Type = discordgo.ApplicationCommandOptionUser
		case engine.OptChannel:
			opt.Type = discordgo.ApplicationCommandOptionChannel
			opt.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText}
		case engine.OptRole:
			opt.Type = discordgo.ApplicationCommandOptionRole
		case engine.OptElement, engine.OptHero, engine.OptFeature:
			opt.Autocomplete = len(o.Choices) == 0
		}
		if opt.Type == discordgo.ApplicationCommandOptionString && len(o.Choices) == 0 {
			opt.MaxLength = bot.OptionLimit(o.Name)
		}
		if len(o.Choices) > maxChoices {
			return nil, fmt.Errorf("discord: option %s of %q has %d choices, more than %d", o.Name, s.Name, len(o.Choices), maxChoices)
		}
		for _, c := range o.Choices {
			if opt.Type == discordgo.ApplicationCommandOptionInteger {
				return nil, fmt.Errorf("discord: option %s of %q: whole-number choices are not supported", o.Name, s.Name)
			}
			opt.Choices = append(opt.Choices, &discordgo.ApplicationCommandOptionChoice{Name: c, Value: c})
		}
		out[i] = opt
	}
	return out, nil
}

// describe fits help into Discord's hundred characters, cutting at a
// word; an empty help says the name.
func describe(help, name string) string {
	help = strings.TrimSpace(help)
	if help == "" {
		return name
	}
	return clip(help, maxDescription)
}

// clip shortens s to at most n characters, cutting at a space where one
// is near and marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := len(r)
	for i := len(r) - 1; i > n/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + "…"
}

// tokenRefused says what to check when Discord refused the bot's token
// (HTTP 401), and returns other errors as they are.
func tokenRefused(err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized {
		//lint:ignore ST1005 the sentence begins with a proper noun and is what the operator reads
		return fmt.Errorf("Discord refused the bot's token (HTTP 401): check DISCORD_TOKEN against the token on the Bot page of the application in Discord's developer portal: %w", err)
	}
	return err
}

// ApplicationID returns the application's ID, asking Discord for it.
func ApplicationID(s *discordgo.Session) (string, error) {
	app, err := s.Application("@me")
	if err != nil {
		return "", fmt.Errorf("discord: look up the application: %w", tokenRefused(err))
	}
	return app.ID, nil
}

// Register declares specs as the application's slash commands, replacing
// any it had: in one guild when guild is set (they change at once there),
// else globally.
func Register(ctx context.Context, s *discordgo.Session, appID, guild string, specs []engine.CommandSpec) ([]*discordgo.ApplicationCommand, error) {
	cmds, err := ApplicationCommands(specs)
	if err != nil {
		return nil, err
	}
	got, err := s.ApplicationCommandBulkOverwrite(appID, guild, cmds, discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("discord: register %d commands: %w", len(cmds), tokenRefused(err))
	}
	return got, nil
}
