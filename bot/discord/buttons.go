package discord

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/engine"
)

// A button carries its choice in its custom ID, written the way the local
// table reads a line after the game's sequence number when it was
// offered: "rh 42 @PLAYER /answer reply:accept", the player being the
// only one who may press it (left out when anyone may). Nothing else is
// kept, so a button pressed after a restart, or on another instance,
// works the same. The sequence number lets the router refuse a button
// whose player has acted since; IDs without one (older messages) are
// still read.

const buttonPrefix = "rh "

// Discord's limits on components.
const (
	maxCustomID    = 100
	maxButtonLabel = 80
	buttonsPerRow  = 5
	maxRows        = 5
)

// customID writes b's custom ID, offered when the game stood at seq; ok
// is false when it does not fit.
func customID(b engine.Button, seq engine.Seq) (string, bool) {
	id := buttonPrefix
	if seq > 0 {
		id += strconv.FormatUint(uint64(seq), 10) + " "
	}
	if b.For != "" {
		id += "@" + string(b.For) + " "
	}
	id += b.Command.String()
	return id, len(id) <= maxCustomID && !b.Command.Directive
}

// parseCustomID reads a custom ID written by customID.
func parseCustomID(id string) (who engine.PlayerID, c engine.Command, seq engine.Seq, err error) {
	rest, ok := strings.CutPrefix(id, buttonPrefix)
	if !ok {
		return "", engine.Command{}, 0, fmt.Errorf("not one of Rhapsode's buttons: %q", id)
	}
	if num, after, ok := strings.Cut(rest, " "); ok && num != "" && strings.Trim(num, "0123456789") == "" {
		n, err := strconv.ParseUint(num, 10, 63)
		if err != nil || n == 0 {
			return "", engine.Command{}, 0, fmt.Errorf("a button with a bad sequence number: %q", id)
		}
		seq, rest = engine.Seq(n), after
	}
	line, err := engine.ParseLine(rest)
	if err != nil {
		return "", engine.Command{}, 0, err
	}
	if line.Empty || line.Command.Directive {
		return "", engine.Command{}, 0, fmt.Errorf("a button without a command: %q", id)
	}
	return line.User, line.Command, seq, nil
}

// components lays buttons offered at seq out in rows, leaving out any
// that do not fit and any that repeats another (Discord refuses a message
// whose custom IDs are not unique, and two such buttons do one thing).
func components(buttons []engine.Button, seq engine.Seq) []discordgo.MessageComponent {
	var rows []discordgo.MessageComponent
	var row discordgo.ActionsRow
	seen := map[string]bool{}
	for i, b := range buttons {
		id, ok := customID(b, seq)
		if !ok || seen[id] {
			continue
		}
		seen[id] = true
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
