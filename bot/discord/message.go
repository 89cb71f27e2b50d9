package discord

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// Discord's limits on a message.
const (
	maxContent = 2000
	maxEmbed   = 4096
)

// imageName is the file name of a message's picture: a board (PNG) or a
// replay (GIF).
func imageName(data []byte) (name, mediaType string) {
	ext, mt := bot.ImageKind(data)
	if ext == "gif" {
		return "replay." + ext, mt
	}
	return "board." + ext, mt
}

// message is one Discord message made from a reply: its text as content
// or, past the content limit, as an embed's description; at most one
// picture; its buttons; and whom it may ping.
type message struct {
	Content    string
	Embed      string
	Image      []byte
	Components []discordgo.MessageComponent
	Users      []string
	Ephemeral  bool
}

// snowflake matches what reads as a Discord user ID in the router's text,
// which names players by their IDs, or one already written as a mention
// (of a user, or of a channel: ChannelLink).
var snowflake = regexp.MustCompile(`<[@#]!?\d+>|\b\d{17,20}\b`)

// mentionText writes the players the text names as mentions, which
// Discord shows as their names, and puts any of pings the text does not
// name in front. Only pings are allowed to notify (see allowed).
func mentionText(text string, pings []engine.PlayerID) string {
	text = snowflake.ReplaceAllStringFunc(text, func(s string) string {
		if strings.HasPrefix(s, "<") {
			return s
		}
		return "<@" + s + ">"
	})
	var front []string
	for _, p := range pings {
		m := "<@" + string(p) + ">"
		if !strings.Contains(text, m) && !strings.Contains(text, "<@!"+string(p)+">") {
			front = append(front, m)
		}
	}
	if len(front) > 0 {
		text = strings.Join(front, " ") + " " + text
	}
	return text
}

// shape turns a reply into the messages that carry it: one when its text
// fits a message's content, else one per embed-sized part. The picture
// goes with the first, the buttons with the last.
func shape(rep bot.Reply) []message {
	text := mentionText(rep.Text, rep.Mentions)
	users := make([]string, len(rep.Mentions))
	for i, p := range rep.Mentions {
		users[i] = string(p)
	}
	var out []message
	if utf8.RuneCountInString(text) <= maxContent {
		out = []message{{Content: text}}
	} else {
		for _, part := range split(text, maxEmbed) {
			out = append(out, message{Embed: part})
		}
	}
	for i := range out {
		out[i].Users = users
		out[i].Ephemeral = rep.Ephemeral
	}
	out[0].Image = rep.Image
	out[len(out)-1].Components = components(rep.Buttons, rep.Seq)
	return out
}

// split cuts text into parts of at most n characters, at line ends where
// it can, else at spaces, else anywhere.
func split(text string, n int) []string {
	var parts []string
	for utf8.RuneCountInString(text) > n {
		// head is text's first n characters, cut at a character's start
		// in text itself (counting an invalid byte as one, as
		// RuneCountInString does).
		end, k := len(text), 0
		for i := range text {
			if k == n {
				end = i
				break
			}
			k++
		}
		head := text[:end]
		cut := strings.LastIndex(head, "\n")
		if cut < len(head)/2 {
			if sp := strings.LastIndex(head, " "); sp >= len(head)/2 {
				cut = sp
			} else {
				cut = len(head)
			}
		}
		parts = append(parts, strings.TrimRight(head[:cut], " \n"))
		text = strings.TrimLeft(text[cut:], " \n")
	}
	if text != "" || len(parts) == 0 {
		parts = append(parts, text)
	}
	return parts
}

// allowed lets a message notify exactly users, and no one else: no roles,
// no @everyone, none of the other players its text names.
func allowed(users []string) *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: slices.Clone(users)}
}

func (m message) embeds() []*discordgo.MessageEmbed {
	if m.Embed == "" {
		return nil
	}
	return []*discordgo.MessageEmbed{{Description: m.Embed}}
}

func (m message) files() []*discordgo.File {
	if m.Image == nil {
		return nil
	}
	name, mt := imageName(m.Image)
	return []*discordgo.File{{Name: name, ContentType: mt, Reader: bytes.NewReader(m.Image)}}
}

func (m message) flags() discordgo.MessageFlags {
	if m.Ephemeral {
		return discordgo.MessageFlagsEphemeral
	}
	return 0
}

// edit is an edit of an earlier message, as sent: discordgo's own
// attachment type writes every field, where an edit lists only the ID
// and name of each attachment to keep.
type edit struct {
	Content         *string                           `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
	Components      []discordgo.MessageComponent      `json:"components"`
	Attachments     []attachmentRef                   `json:"attachments"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	files           []*discordgo.File
}

type attachmentRef struct {
	ID       string `json:"id"`
	Filename string `json:"filename"`
}

// edit writes m over an earlier message. Its attachments are replaced:
// the new picture is the only one kept, and with no picture none is, so
// that an edited response never shows an old board beside a new one.
func (m message) edit() edit {
	content := m.Content
	e := edit{Content: &content, Embeds: m.embeds(), Components: m.Components, Attachments: []attachmentRef{},
		AllowedMentions: allowed(m.Users), files: m.files()}
	if e.Embeds == nil {
		e.Embeds = []*discordgo.MessageEmbed{}
	}
	if e.Components == nil {
		e.Components = []discordgo.MessageComponent{}
	}
	if m.Image != nil {
		name, _ := imageName(m.Image)
		e.Attachments = append(e.Attachments, attachmentRef{ID: "0", Filename: name})
	}
	return e
}

// followup writes m as a follow-up message of an interaction.
func (m message) followup() *discordgo.WebhookParams {
	return &discordgo.WebhookParams{Content: m.Content, Embeds: m.embeds(), Files: m.files(), Components: m.Components,
		AllowedMentions: allowed(m.Users), Flags: m.flags()}
}

// send writes m as an ordinary channel message.
func (m message) send() *discordgo.MessageSend {
	return &discordgo.MessageSend{Content: m.Content, Embeds: m.embeds(), Files: m.files(), Components: m.Components,
		AllowedMentions: allowed(m.Users)}
}

// ChannelLink names a channel in a message as Discord links it: <#ID>,
// which opens the channel at its newest message (bot.Config.ChannelLink).
func ChannelLink(guild, channel string) string { return "<#" + channel + ">" }
