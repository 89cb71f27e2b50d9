package bot

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Turns that find their players. After every step the router asks the
// rule system whom the game now waits for; a player it did not wait for
// before is called by name in a message of its own, which a chat
// transport turns into a ping, and the book's deadline clock, if it has
// one, starts again for him.

// awaited returns whom g waits for, or nothing when its rules cannot say.
func awaited(g *engine.Game) []engine.Await {
	if w, ok := g.AwaitedDraws(); ok {
		// A command waits for the table's draws: nothing else goes on.
		return w
	}
	if a, ok := g.Rules.(engine.Awaiter); ok && !g.State.Over() {
		return a.Awaited(g.State)
	}
	return nil
}

// awaitedBy returns what g waits for player to do.
func awaitedBy(g *engine.Game, player engine.PlayerID) []engine.Await {
	return awaitsOf(awaited(g), player)
}

// awaitsOf returns the awaits of player among waits.
func awaitsOf(waits []engine.Await, player engine.PlayerID) []engine.Await {
	var out []engine.Await
	for _, a := range waits {
		if a.Player == player {
			out = append(out, a)
		}
	}
	return out
}

// A turn is what a game waited for before a step and waits for after it.
// A step needs both several times over (for its calls, the turn calls,
// the deadline, the bot's chair), and some rule systems take a while to
// reckon them, so they are reckoned once per step and handed on.
type turn struct {
	was, now []engine.Await
}

// newlyAwaited returns the awaits of after that were not awaits of before.
func newlyAwaited(before, after []engine.Await) []engine.Await {
	var out []engine.Await
	for _, a := range after {
		if !slices.ContainsFunc(before, func(b engine.Await) bool { return a.Same(b) }) {
			out = append(out, a)
		}
	}
	return out
}

// afterStep runs what follows a recorded step that made after, of turn t:
// the turn calls, and the deadline clock set again when the game came to wait
// for someone new (or for the same again in a new round) or ended. A
// deadline that cannot be kept is logged: the step itself is already
// recorded.
func (r *Router) afterStep(ctx context.Context, info store.Game, req Request, after *engine.Game, t turn) []Reply {
	now := t.now
	fresh := newlyAwaited(t.was, now)
	var out []Reply
	if r.cfg.TurnCalls {
		for _, a := range fresh {
			if _, bot := engine.IsBot(a.Player); bot {
				continue // the bot plays at once (chair.go): no one to call
			}
			out = append(out, r.turnCalls(ctx, info.Guild, req.Channel, a)...)
		}
		out = append(out, r.headsUp(ctx, info, fresh, now)...)
	}
	if len(fresh) > 0 || len(now) == 0 || after.State.Over() {
		if err := r.rearm(ctx, info, after, now); err != nil {
			r.cfg.Logger.ErrorContext(ctx, "deadline not set again", "game", info.ID, "seq", after.Seq, "err", err)
		}
	}
	return out
}

// turnCall is the message that calls a player to what the game awaits.
func turnCall(channel string, a engine.Await) Reply {
	return Reply{Channel: channel, User: a.Player, Mentions: []engine.PlayerID{a.Player},
		Text: fmt.Sprintf("%s, the table waits for you to %s.", a.Player, a.Task)}
}

// turnCalls are the messages that call a player to what the game awaits,
// as he asked with /me set and /away: the channel is told whose turn it
// is, and that he is away when he is (then no one pings him); he is
// pinged there, or, when he asked for it, sent a direct message instead.
func (r *Router) turnCalls(ctx context.Context, guild, channel string, a engine.Await) []Reply {
	call := turnCall(channel, a)
	ps, err := r.player(ctx, guild, a.Player)
	if err != nil {
		r.cfg.Logger.WarnContext(ctx, "player settings not read", "player", a.Player, "err", err)
		return []Reply{call}
	}
	now := r.cfg.Now()
	switch {
	case ps.away(now):
		call.Mentions = nil
		call.Text += fmt.Sprintf(" %s is %s; the deadline, if any, waits for his return.", a.Player, awayNote(ps, time.UTC))
		return []Reply{call}
	case ps.Direct:
		call.Mentions = nil
		return []Reply{call, r.callReply(channel, a.Player, ps,
			fmt.Sprintf("The book in %s waits for you to %s.", r.channelLink(guild, channel), a.Task))}
	}
	return []Reply{call}
}
