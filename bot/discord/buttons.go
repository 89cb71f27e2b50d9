package discord

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// A button carries its choice in its custom ID, written the way the local
// table reads a line: "rh @PLAYER /answer reply:accept", the player being
// the only one who may press it (left out when anyone may). Nothing else
// is kept, so a button pressed after a restart, or on another instance,
// works the same.

const buttonPrefix = "rh "

// Discord's limits on components.
const (
	maxCustomID    = 100
	maxButtonLabel = 80
	buttonsPerRow  = 5
	maxRows        = 5
)

// customID writes b's custom ID; ok is false when it does not fit.
func customID(b engine.Button) (string, bool) {
	id := buttonPrefix
	if b.For != "" {
		id += "@" + string(b.For) + " "
	}
	id += b.Command.String()
	return id, len(id) <= maxCustomID && !b.Command.Directive
}

// parseCustomID reads a custom ID written by customID.
func parseCustomID(id string) (who engine.PlayerID, c engine.Command, err error) {
	rest, ok := strings.CutPrefix(id, buttonPrefix)
	if !ok {
		return "", engine.Command{}, fmt.Errorf("not one of Rhapsode's buttons: %q", id)
	}
	line, err := bot.ParseLine(rest)
	if err != nil {
		return "", engine.Command{}, err
	}
	if line.Empty || line.Command.Directive {
		return "", engine.Command{}, fmt.Errorf("a button without a command: %q", id)
	}
	return line.User, line.Command, nil
}

// components lays buttons out in rows, leaving out any that do not fit.
func components(buttons []engine.Button) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	var row discordgo.ActionsRow
	for i, b := range buttons {
		id, ok := customID(b)
		if !ok {
			continue
		}
		style := discordgo.SecondaryButton
		if i == 0 {
			style = discordgo.PrimaryButton
		}
		row.Components = append(row.Components, discordgo.Button{Label: clip(b.Label, maxButtonLabel), Style: style, CustomID: id})
		if len(row.Components) == buttonsPerRow {
			rows = append(rows, row)
			row = discordgo.ActionsRow{}
		}
	}
	if len(row.Components) > 0 {
		rows = append(rows, row)
	}
	if len(rows) > maxRows {
		rows = rows[:maxRows]
	}
	return rows
}
