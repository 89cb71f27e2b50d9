package discord

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/engine"
)

// RunGateway connects to Discord's gateway and answers interactions until
// ctx ends; then it disconnects and waits for the interactions under way
// to be answered. Interactions are handled in work, which should outlive
// ctx so that a step in hand is finished.
func (b *Bot) RunGateway(ctx, work context.Context) error {
	s := b.Session
	s.Identify.Intents = discordgo.IntentsGuilds
	remove := s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		if b.Shard.Count > 1 && !b.Shard.Owns(ic.GuildID) {
			// Discord sends a guild's events to the shard that owns it;
			// one that arrives elsewhere means two processes disagree on
			// the shards. It is answered all the same: the interaction's
			// ID keeps it from being answered twice.
			b.Logger.WarnContext(ctx, "an interaction of a guild another shard owns", "guild", ic.GuildID, "owner", ShardOf(ic.GuildID, b.Shard.Count))
		}
		b.Handle(work, ic.Interaction, func(ctx context.Context, resp *discordgo.InteractionResponse) error {
			return s.InteractionRespond(ic.Interaction, resp, discordgo.WithContext(ctx))
		})
	})
	defer remove()
	if err := s.Open(); err != nil {
		return fmt.Errorf("discord: open the gateway: %w", err)
	}
	b.Logger.InfoContext(ctx, "connected to the gateway")
	<-ctx.Done()
	err := s.Close()
	b.Close()
	if err != nil {
		return fmt.Errorf("discord: close the gateway: %w", err)
	}
	return nil
}

// ApplicationID returns the application's ID, asking Discord for it.
func ApplicationID(s *discordgo.Session) (string, error) {
	app, err := s.Application("@me")
	if err != nil {
		return "", fmt.Errorf("discord: look up the application: %w", err)
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
		return nil, fmt.Errorf("discord: register %d commands: %w", len(cmds), err)
	}
	return got, nil
}
