package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// The empty chair. A seat handed to the bot (/seat hand to:bot) is held
// by a player the engine plays itself (engine.Think). After every step
// the router records, while the game waits for the bot, it plays the
// bot's steps at once, as anyone's: the same narration, posted together
// with one picture at the end, and then the next human is called. /why,
// or the Why? button on the bot's message, shows what the bot weighed
// for its last decision that is not a secret still sealed.

// maxBotSteps bounds the steps of the bot that one request plays, so that
// two bots fighting a whole book do not hold a channel; the book is then
// left for CheckBots, which the deadline loop runs, to play on.
const maxBotSteps = 64

// botWhy is the bot's last decision in a game, for /why.
type botWhy struct {
	seq      engine.Seq // the step it gave
	player   engine.PlayerID
	decision engine.Decision
	// sealed are the keys of the secrets the step sealed (a written
	// order, a melee indicator): until they are revealed, /why tells
	// nothing of the decision, as the table tells nothing of them.
	sealed []string
}

// whySpec is /why.
var whySpec = engine.CommandSpec{Name: "why", Help: "What the bot weighed for its last choice in this channel's book: its best candidates with their scores.", Flags: engine.Private | engine.Reads}

// whyButton rides on the message of the bot's steps when it chose one
// of several in the open: anyone may press it, and is answered privately
// as /why.
var whyButton = engine.Button{Label: "Why?", Command: engine.Command{Name: whySpec.Name}}

// playBots plays the bot's steps while g, just recorded as row, waits for
// it (waits is what g waits for), and returns the replies to post: the
// bot's steps and the calls that follow them.
func (r *Router) playBots(ctx context.Context, row store.Game, g *engine.Game, waits []engine.Await, channel string) []Reply {
	var out []Reply
	var lines []string
	var events []engine.Event
	var player engine.PlayerID
	chose := false
	flush := func() {
		if len(lines) == 0 {
			return
		}
		rep := Reply{User: player, Text: strings.Join(lines, "\n"), Seq: g.Seq}
		if !nothingToDraw(events) {
			rep.Image = r.picture(ctx, g, events)
		}
		if chose {
			rep.Buttons = []engine.Button{whyButton}
		}
		out = append(out, rep)
		lines, events, chose = nil, nil, false
	}
	for range maxBotSteps {
		a, ok := botIn(waits)
		if !ok {
			break
		}
		if a.Player != player {
			flush()
			player = a.Player
		}
		level, _ := engine.IsBot(a.Player)
		d, err := engine.Think(g, a.Player, level)
		c := d.Command
		if err != nil {
			c = a.Timeout
		}
		// As in run: once recorded, res.After takes g's place.
		res, err := g.Advance(c)
		if err != nil && a.Timeout.Name != "" {
			c = a.Timeout
			res, err = g.Advance(c)
		}
		if err != nil || len(res.Events) == 0 {
			r.cfg.Logger.ErrorContext(ctx, "the bot could not act", "game", row.ID, "player", a.Player, "command", c.String(), "err", err)
			break
		}
		t := turn{was: waits, now: awaited(res.After)}
		next, nrow, err := r.commit(ctx, row, g, res, t)
		if err != nil {
			if !errors.Is(err, store.ErrConflict) {
				r.cfg.Logger.ErrorContext(ctx, "the bot's step not recorded", "game", row.ID, "err", err)
			}
			break
		}
		sealed := sealedKeys(res.Events)
		r.rememberWhy(row.ID, botWhy{seq: next.Seq, player: a.Player, decision: d, sealed: sealed}, len(d.Weighed) > 1)
		// The Why? button rides on a choice /why may tell now, not on
		// one sealed until the table reveals it.
		chose = chose || len(d.Weighed) > 1 && len(sealed) == 0
		for _, e := range res.Events {
			for _, m := range g.Rules.Narrate(e) {
				if !m.Private() && m.Text != "" {
					lines = append(lines, m.Text)
				}
			}
		}
		events = append(events, res.Events...)
		g, row, waits = next, nrow, t.now
		if _, still := botIn(waits); !still {
			flush()
		}
		out = append(out, r.afterStep(ctx, row, Request{Channel: channel, User: a.Player, Command: c}, g, t)...)
	}
	flush()
	if _, still := botIn(waits); still && !g.State.Over() {
		r.mu.Lock()
		if r.botsDue == nil {
			r.botsDue = map[channelKey]bool{}
		}
		r.botsDue[channelKey{row.Guild, channel}] = true
		r.mu.Unlock()
	}
	return out
}

// CheckBots plays on, a bounded number of steps each, the books left
// waiting for the bot when a request had played its share, and returns
// the messages to post, each with its Channel set.
func (r *Router) CheckBots(ctx context.Context) ([]Reply, error) {
	r.mu.Lock()
	due := r.botsDue
	r.botsDue = nil
	r.mu.Unlock()
	var out []Reply
	var errs []error
	for key := range due {
		rs, err := r.playOn(ctx, key)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot: the bot in channel %s: %w", key.channel, err))
		}
		for i := range rs {
			if rs[i].Channel == "" {
				rs[i].Channel = key.channel
			}
		}
		out = append(out, rs...)
	}
	return out, errors.Join(errs...)
}

func (r *Router) playOn(ctx context.Context, key channelKey) ([]Reply, error) {
	lock := r.channelLock(key)
	lock.Lock()
	defer lock.Unlock()
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	return r.playBots(ctx, info, g, awaited(g), key.channel), nil
}

// botIn returns the first of waits whose player is the bot.
func botIn(waits []engine.Await) (engine.Await, bool) {
	for _, a := range waits {
		if _, ok := engine.IsBot(a.Player); ok {
			return a, true
		}
	}
	return engine.Await{}, false
}

// maxWhys is how many of the bot's last decisions in a game are kept for
// /why: enough to reach back past a side's sealed orders to the last
// choice the table has seen.
const maxWhys = 32

// rememberWhy keeps w for /why: the bot's decisions that were choices,
// or a forced one when it has made no choice yet in the game.
func (r *Router) rememberWhy(id store.GameID, w botWhy, choice bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.whys == nil {
		r.whys = map[store.GameID][]botWhy{}
	}
	ws := r.whys[id]
	if len(ws) > 0 && !choice {
		return
	}
	if len(ws) == 1 && len(ws[0].decision.Weighed) == 1 {
		ws = nil // a forced step stands only until the first choice
	}
	if len(ws) == maxWhys {
		ws = ws[1:]
	}
	putBounded(r.whys, id, append(slices.Clip(ws), w))
}

// why answers /why from what this router remembers of the bot's last
// decisions in the channel's book: the last one whose secrets, if it
// sealed any, the table has revealed.
func (r *Router) why(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book is open in this channel. Open one with /book open.")
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	ws := r.whys[info.ID]
	r.mu.Unlock()
	if len(ws) == 0 {
		return nil, engine.Refuse("", "The bot has not decided anything in this book since the table last started; ask again after its next step.")
	}
	open, err := r.unrevealed(ctx, info, ws)
	if err != nil {
		return nil, err
	}
	last := len(ws) - 1
	for last >= 0 && slices.ContainsFunc(ws[last].sealed, func(k string) bool { return open[k] }) {
		last--
	}
	hidden := len(ws) - 1 - last
	if last < 0 {
		return nil, engine.Refuse("", "The bot's last choice, at step %d, is sealed, as a player's is, until it is revealed: ask again then.", ws[len(ws)-1].seq)
	}
	text := ws[last].text()
	switch {
	case hidden == 1:
		text += fmt.Sprintf("\nIts choice since, at step %d, is sealed until it is revealed.", ws[last+1].seq)
	case hidden > 1:
		text += fmt.Sprintf("\nIts %d choices since, from step %d, are sealed until they are revealed.", hidden, ws[last+1].seq)
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: text}}, nil
}

// sealedKeys returns the keys of the secrets events seal.
func sealedKeys(events []engine.Event) []string {
	var keys []string
	for _, e := range events {
		if s, ok := e.Body.(engine.Sealed); ok {
			keys = append(keys, s.Key())
		}
	}
	return keys
}

// unrevealed returns the secrets sealed by the steps of ws that game
// info's events after them have not revealed.
func (r *Router) unrevealed(ctx context.Context, info store.Game, ws []botWhy) (map[string]bool, error) {
	open := map[string]bool{}
	from := engine.Seq(-1)
	for _, w := range ws {
		for _, k := range w.sealed {
			open[k] = true
			if from < 0 {
				from = w.seq
			}
		}
	}
	if len(open) == 0 {
		return open, nil
	}
	rs, ok := r.rules[info.Ruleset]
	if !ok {
		return nil, fmt.Errorf("game %d is played by %q, which this bot does not know", info.ID, info.Ruleset)
	}
	recs, err := r.cfg.Store.Events(ctx, info.ID, from, 0)
	if err != nil {
		return nil, err
	}
	revealed, err := engine.Revealed(rs, recs)
	if err != nil {
		return nil, err
	}
	for k := range revealed {
		delete(open, k)
	}
	return open, nil
}

// choiceFirstOfItsChance returns weighed, listed most likely first, with
// choice moved to the head of the candidates given its chance: drawn from
// several alike (a sample army of six), the one drawn is shown, not left
// among "… and more".
func choiceFirstOfItsChance(weighed []engine.Scored, choice engine.Command) []engine.Scored {
	i := slices.IndexFunc(weighed, func(s engine.Scored) bool { return s.Command.String() == choice.String() })
	if i <= 0 {
		return weighed
	}
	j := slices.IndexFunc(weighed, func(s engine.Scored) bool { return s.Chance == weighed[i].Chance })
	out := slices.Clone(weighed)
	copy(out[j+1:i+1], weighed[j:i])
	out[j] = weighed[i]
	return out
}

// text is what /why says of w: the command the bot gave and the
// candidates it weighed, best first.
func (w botWhy) text() string {
	weighed := w.decision.Weighed
	if len(weighed) == 1 {
		return fmt.Sprintf("At step %d the bot (%s) gave %s, the only command the rules allowed it there.", w.seq, w.player, w.decision.Command)
	}
	var b strings.Builder
	// A choice made in secret while the other side makes its own is
	// drawn by chance from a mix, not scored by playouts.
	mixed := len(weighed) > 0 && weighed[0].Chance > 0
	// A mix that gives one command all the chance is a rule of the
	// bot's play in that position (such as the btg bot keeping its
	// minor leaders out of command), not a draw.
	sure := mixed && weighed[0].Chance >= 1
	if mixed {
		weighed = choiceFirstOfItsChance(weighed, w.decision.Command)
	}
	switch {
	case sure:
		fmt.Fprintf(&b, "At step %d the bot (%s) gave %s, as it always does here: a rule of its play, not a choice weighed by playouts. What it could have given:", w.seq, w.player, w.decision.Command)
	case mixed:
		fmt.Fprintf(&b, "At step %d the bot (%s) gave %s, drawn by chance from a mix, so that no one can count on what it will choose. The chance it gave each:", w.seq, w.player, w.decision.Command)
	default:
		fmt.Fprintf(&b, "At step %d the bot (%s) gave %s. Its best candidates, scored from -1 (a lost game) to +1 (a won one) over the games it played out from each:", w.seq, w.player, w.decision.Command)
	}
	for i, s := range weighed {
		switch {
		case i == 5:
			fmt.Fprintf(&b, "\n… and %s more.", engine.Plural(len(weighed)-i, "candidate", "candidates"))
			return b.String()
		case sure:
			fmt.Fprintf(&b, "\n%d. %s", i+1, s.Command)
		case mixed:
			fmt.Fprintf(&b, "\n%d. %s: %.0f%%", i+1, s.Command, 100*s.Chance)
		case s.Playouts == 0:
			// Left off the shortlist (engine.Think): the playouts
			// went to the candidates that looked best one step ahead.
			fmt.Fprintf(&b, "\n%d. %s: not played out, since it looked weaker one step ahead", i+1, s.Command)
		default:
			fmt.Fprintf(&b, "\n%d. %s: %+.2f over %s", i+1, s.Command, s.Score, engine.Plural(s.Playouts, "playout", "playouts"))
		}
	}
	return b.String()
}
