package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// Bot answers Discord interactions with a router. Its session sends
// everything after the first response: edits of the response, follow-ups
// (which need only the interaction's token) and channel messages (which
// need the bot's token). It is safe for concurrent use; each interaction
// is handled on its own goroutine.
type Bot struct {
	Router  *bot.Router
	Session *discordgo.Session
	Logger  *slog.Logger
	// AnswerWithin is how long a command's answer is waited for before
	// its response is deferred (answerWithin when zero).
	AnswerWithin time.Duration
	// Shard is the part of the gateway this process holds (shard.go);
	// the zero Shard is the whole of it.
	Shard Shard

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

// New returns a bot over router that sends with s.
func New(router *bot.Router, s *discordgo.Session, logger *slog.Logger) *Bot {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Bot{Router: router, Session: s, Logger: logger}
}

// Responder sends the first response to an interaction: through the REST
// API in gateway mode, in the HTTP reply at the interactions endpoint.
type Responder func(ctx context.Context, resp *discordgo.InteractionResponse) error

// answersPrivately reports whether the command's answer is, by nature,
// for the asker alone: its spec is flagged engine.Private. It is the one
// place that decides it.
func (b *Bot) answersPrivately(c engine.Command) bool {
	spec, ok := b.Router.Spec(c.Name)
	return ok && spec.Is(engine.Private)
}

// answerWithin is how long a command's answer is waited for before the
// response is deferred: Discord takes the first response for three
// seconds, and the HTTP endpoint gives up after firstResponseWithin.
const answerWithin = 1500 * time.Millisecond

// maxChoiceText is Discord's limit on a completion's name and value.
const maxChoiceText = 100

// maxCompletions is how many completions Discord shows.
const maxCompletions = 25

// Handle answers one interaction: it sends the first response through
// respond at once, then runs the command and delivers the replies. Errors
// in delivery are logged; the step itself stands once recorded. After
// Close it answers nothing.
func (b *Bot) Handle(ctx context.Context, i *discordgo.Interaction, respond Responder) {
	if !b.take(ctx, i) {
		return
	}
	defer b.inflight.Done()
	b.handle(ctx, i, respond)
}

// take counts the interaction among those being answered, unless the bot
// is closed; the caller then answers it with handle and marks it done. A
// transport that answers on a goroutine of its own takes the interaction
// before starting it, so that Close cannot miss it.
func (b *Bot) take(ctx context.Context, i *discordgo.Interaction) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		b.Logger.WarnContext(ctx, "interaction after shutdown", "interaction", i.ID)
		return false
	}
	b.inflight.Add(1)
	return true
}

// handle answers one interaction that take has counted.
func (b *Bot) handle(ctx context.Context, i *discordgo.Interaction, respond Responder) {
	defer func() {
		// A bug in delivering or completing loses this answer, not the
		// process: the step, if any, is recorded already.
		if p := recover(); p != nil {
			b.Logger.ErrorContext(ctx, "panic while answering an interaction", "interaction", i.ID, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	log := b.Logger.With("interaction", i.ID, "type", int(i.Type), "guild", i.GuildID, "channel", i.ChannelID)
	if i.Member != nil && i.Member.User != nil {
		log = log.With("user", i.Member.User.ID)
	}
	began := time.Now()
	var err error
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		err = b.command(ctx, i, respond)
	case discordgo.InteractionApplicationCommandAutocomplete:
		err = b.complete(ctx, i, respond)
	case discordgo.InteractionMessageComponent:
		err = b.press(ctx, i, respond)
	case discordgo.InteractionPing:
		err = respond(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
	default:
		err = fmt.Errorf("an interaction of type %d, which Rhapsode does not take", int(i.Type))
	}
	if err != nil {
		log.ErrorContext(ctx, "interaction", "err", err, "took", time.Since(began))
		return
	}
	log.InfoContext(ctx, "interaction answered", "took", time.Since(began))
}

// Wait waits until every interaction being handled is answered.
func (b *Bot) Wait() { b.inflight.Wait() }

// Close takes no more interactions and waits until every one being
// handled is answered: the end of a graceful shutdown.
func (b *Bot) Close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.inflight.Wait()
}

func (b *Bot) opts(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{discordgo.WithContext(ctx)}
}

// command runs a slash command. When its answer is ready within
// AnswerWithin, the response is deferred with the visibility of the
// answer's first message and written over at once, so a private answer
// is never shown to the channel. (The answer is not sent as the response
// itself: a reply to Discord's HTTP request cannot carry the board's
// file.) When the answer is late, the response is deferred with the
// command's own visibility and the answer written when it comes.
func (b *Bot) command(ctx context.Context, i *discordgo.Interaction, respond Responder) error {
	data := i.ApplicationCommandData()
	c, _, cerr := commandOf(data)
	done := make(chan []bot.Reply, 1)
	req, err := requestOf(i)
	switch {
	case err != nil:
		done <- []bot.Reply{{Ephemeral: true, Text: err.Error()}}
	case cerr != nil:
		done <- []bot.Reply{{User: req.User, Ephemeral: true, Text: "That command did not read: " + cerr.Error() + "."}}
	default:
		req.Command = c
		go func() {
			defer func() {
				if p := recover(); p != nil {
					b.Logger.ErrorContext(ctx, "panic in a command", "panic", p, "command", c.Name)
					done <- []bot.Reply{{User: req.User, Ephemeral: true, Text: "Rhapsode stumbled on that command; ask the table what stands before you try again."}}
				}
			}()
			done <- b.Router.Handle(ctx, req)
		}()
	}
	within := b.AnswerWithin
	if within <= 0 {
		within = answerWithin
	}
	t := time.NewTimer(within)
	defer t.Stop()
	var replies []bot.Reply
	private := b.answersPrivately(c)
	select {
	case replies = <-done:
		if thread, _ := partition(replies, req.User); len(thread) > 0 {
			private = thread[0].Ephemeral
		}
	case <-t.C:
	}
	var flags discordgo.MessageFlags
	if private {
		flags = discordgo.MessageFlagsEphemeral
	}
	if err := respond(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: flags}}); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	if replies == nil {
		replies = <-done
	}
	if again(replies) {
		return b.deliverAgain(ctx, i, req.User, replies)
	}
	return b.deliver(ctx, i, req.User, private, replies)
}

// again reports whether replies answer an interaction delivered before
// (bot.Reply.Again).
func again(replies []bot.Reply) bool {
	return len(replies) > 0 && replies[0].Again
}

// deliverAgain answers a delivery of an interaction that another delivery
// answered first, here or in another process: it writes the first
// answer's words over the response, in case that delivery stopped before
// it could, and nothing else. The words are the same, so a response the
// first wrote reads as it did; its picture and buttons, which the words
// come without, are left as they are (the edit does not name them), and
// no follow-up or channel message is sent twice. With no words, the
// response is left alone.
func (b *Bot) deliverAgain(ctx context.Context, i *discordgo.Interaction, user engine.PlayerID, replies []bot.Reply) error {
	thread, _ := partition(replies, user)
	if len(thread) == 0 || (thread[0].Content == "" && thread[0].Embed == "") {
		return nil
	}
	first := thread[0]
	content := first.Content
	e := wordsOnly{Content: &content, Embeds: first.embeds(), AllowedMentions: allowed(first.Users)}
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	if _, err := b.Session.RequestWithBucketID(http.MethodPatch, uri, e, discordgo.EndpointWebhookToken("", ""), b.opts(ctx)...); err != nil {
		return fmt.Errorf("edit the response again: %w", err)
	}
	return nil
}

// wordsOnly is an edit of a message's words that leaves its attachments
// and components as they are.
type wordsOnly struct {
	Content         *string                           `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds,omitempty"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
}

// deliver sends the replies to an interaction whose response was deferred
// (privately when private): the asker's messages into the response and
// follow-ups, other players' private ones by direct message, and channel
// messages to their channels. Discord gives the first follow-up after a
// deferral the deferral's visibility, so the response is always written
// over first: with the first message when their visibility agrees, else
// with a word that suits the deferral, the message following it.
func (b *Bot) deliver(ctx context.Context, i *discordgo.Interaction, user engine.PlayerID, private bool, replies []bot.Reply) error {
	thread, later := partition(replies, user)
	var errs []error
	if len(thread) == 0 {
		thread = []message{{Content: "Done.", Ephemeral: private}}
	}
	first := thread[0]
	switch {
	case first.Ephemeral == private:
		errs = append(errs, b.editOriginal(ctx, i, first.edit()))
		thread = thread[1:]
	case !private:
		errs = append(errs, b.editOriginal(ctx, i, message{Content: "Answered privately."}.edit()))
	default:
		errs = append(errs, b.editOriginal(ctx, i, message{Content: "Told to the table.", Ephemeral: true}.edit()))
	}
	for _, m := range thread {
		_, err := b.Session.FollowupMessageCreate(i, true, m.followup(), b.opts(ctx)...)
		errs = append(errs, err)
	}
	for _, rep := range later {
		errs = append(errs, b.postOne(ctx, rep))
	}
	return errors.Join(errs...)
}

// partition parts replies into the messages of the interaction's own thread
// (the asker's, and the table's), and those that go elsewhere after it:
// channel messages, and other players' private ones.
func partition(replies []bot.Reply, asker engine.PlayerID) (thread []message, later []bot.Reply) {
	for _, rep := range replies {
		if rep.Channel != "" || (rep.Ephemeral && rep.User != "" && rep.User != asker) {
			later = append(later, rep)
			continue
		}
		thread = append(thread, shape(rep)...)
	}
	return thread, later
}

// editOriginal writes e over the interaction's response.
func (b *Bot) editOriginal(ctx context.Context, i *discordgo.Interaction, e edit) error {
	uri := discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")
	bucket := discordgo.EndpointWebhookToken("", "")
	var err error
	if len(e.files) > 0 {
		var ct string
		var body []byte
		if ct, body, err = discordgo.MultipartBodyWithJSON(e, e.files); err == nil {
			_, err = b.Session.RequestRaw(http.MethodPatch, uri, ct, body, bucket, 0, b.opts(ctx)...)
		}
	} else {
		_, err = b.Session.RequestWithBucketID(http.MethodPatch, uri, e, bucket, b.opts(ctx)...)
	}
	if err != nil {
		return fmt.Errorf("edit the response: %w", err)
	}
	return nil
}

// post sends a reply as ordinary messages to its channel.
func (b *Bot) post(ctx context.Context, rep bot.Reply) error {
	for _, m := range shape(rep) {
		if _, err := b.Session.ChannelMessageSendComplex(rep.Channel, m.send(), b.opts(ctx)...); err != nil {
			return fmt.Errorf("post to channel %s: %w", rep.Channel, err)
		}
	}
	return nil
}

// direct sends a private reply meant for another player than the asker,
// which an interaction cannot show him, by direct message.
func (b *Bot) direct(ctx context.Context, rep bot.Reply) error {
	ch, err := b.Session.UserChannelCreate(string(rep.User), b.opts(ctx)...)
	if err != nil {
		return fmt.Errorf("direct message to %s: %w", rep.User, err)
	}
	rep.Channel, rep.Ephemeral = ch.ID, false
	return b.post(ctx, rep)
}

// Post delivers replies that answer no interaction (deadline notices,
// reminders): channel messages to their channels, private ones by direct
// message.
func (b *Bot) Post(ctx context.Context, replies []bot.Reply) {
	for _, rep := range replies {
		if err := b.postOne(ctx, rep); err != nil {
			b.Logger.ErrorContext(ctx, "post", "err", err)
		}
	}
}

// postOne delivers one reply that answers no interaction.
func (b *Bot) postOne(ctx context.Context, rep bot.Reply) error {
	if rep.Channel == "" || rep.Ephemeral {
		return b.direct(ctx, rep)
	}
	return b.post(ctx, rep)
}

// complete answers an autocomplete interaction with the router's
// completions, at most 25.
func (b *Bot) complete(ctx context.Context, i *discordgo.Interaction, respond Responder) error {
	var choices []*discordgo.ApplicationCommandOptionChoice
	req, err := requestOf(i)
	if c, focused, cerr := commandOf(i.ApplicationCommandData()); err == nil && cerr == nil && focused != "" {
		req.Command = c
		for _, comp := range b.Router.Complete(ctx, req, focused, c.Opt(focused)) {
			if len(choices) == maxCompletions {
				break
			}
			if utf8.RuneCountInString(comp.Value) > maxChoiceText {
				continue
			}
			label := comp.Label
			if label == "" {
				label = comp.Value
			}
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(label, maxChoiceText), Value: comp.Value})
		}
	}
	if choices == nil {
		choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return respond(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}})
}

// press runs the command a button carries. Only the player it is for may
// press it; anyone else is told so privately and the button stays. A
// button whose choice the table no longer allows is stale: the presser is
// told why, privately, and the message loses its buttons. A choice made
// takes the buttons away too, and the step is told to the table.
func (b *Bot) press(ctx context.Context, i *discordgo.Interaction, respond Responder) error {
	if err := respond(ctx, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
		return fmt.Errorf("defer: %w", err)
	}
	req, err := requestOf(i)
	if err != nil {
		return b.privately(ctx, i, err.Error())
	}
	who, c, seen, err := parseCustomID(i.MessageComponentData().CustomID)
	if err != nil {
		return errors.Join(b.strip(ctx, i), b.privately(ctx, i, "This button no longer does anything."))
	}
	if who != "" && who != req.User {
		return b.privately(ctx, i, mentionText(fmt.Sprintf("This choice is for %s to make.", who), nil))
	}
	if spec, ok := b.Router.Spec(c.Name); ok && spec.Is(engine.Reads) {
		// A button that only reads (the bot's Why?) stays for everyone
		// else to press, and its answer is the presser's alone.
		req.Command = c
		return b.readPrivately(ctx, i, b.Router.Handle(ctx, req))
	}
	req.Command, req.Seen = c, seen
	replies := b.Router.Handle(ctx, req)
	if again(replies) {
		// Pressed once, delivered twice: the first delivery answers.
		return b.strip(ctx, i)
	}
	public := false
	for _, r := range replies {
		public = public || (!r.Ephemeral && r.Channel == "")
	}
	if !public {
		b.Logger.InfoContext(ctx, "stale button", "custom_id", i.MessageComponentData().CustomID, "user", req.User)
	}
	errs := []error{b.strip(ctx, i)}
	thread, later := partition(replies, req.User)
	for _, m := range thread {
		_, err := b.Session.FollowupMessageCreate(i, true, m.followup(), b.opts(ctx)...)
		errs = append(errs, err)
	}
	for _, rep := range later {
		errs = append(errs, b.postOne(ctx, rep))
	}
	return errors.Join(errs...)
}

// readPrivately answers the presser of a button that only reads with
// replies, as private follow-ups, and leaves the message as it was.
func (b *Bot) readPrivately(ctx context.Context, i *discordgo.Interaction, replies []bot.Reply) error {
	var errs []error
	for _, r := range replies {
		if r.Channel != "" {
			continue
		}
		r.Ephemeral = true
		for _, m := range shape(r) {
			_, err := b.Session.FollowupMessageCreate(i, true, m.followup(), b.opts(ctx)...)
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// strip takes the buttons off the message a button was pressed on,
// leaving its text and picture as they were.
func (b *Bot) strip(ctx context.Context, i *discordgo.Interaction) error {
	none := []discordgo.MessageComponent{}
	_, err := b.Session.InteractionResponseEdit(i, &discordgo.WebhookEdit{Components: &none}, b.opts(ctx)...)
	return err
}

// privately tells the presser of a button something no one else sees.
func (b *Bot) privately(ctx context.Context, i *discordgo.Interaction, text string) error {
	_, err := b.Session.FollowupMessageCreate(i, true, message{Content: text, Ephemeral: true}.followup(), b.opts(ctx)...)
	return err
}
