package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Campaigns (a gwab saga) are kept per guild, stored like games under a
// channel key of their own that no Discord channel can have. Their
// commands go to the guild's running campaign; a book opened while one
// runs enlists in it; and after every step of such a book the campaign
// follows the step's events and announces what they changed.

// campaignKey is the channel key a campaign of ch is stored under.
func campaignKey(ch engine.Chronicle) string { return "~" + ch.ID() }

// bookRef is how a campaign names one of its books: the book's game ID.
func bookRef(id store.GameID) string { return strconv.FormatInt(int64(id), 10) }

// chronicleFor returns the campaign rule system that has the command
// name, if any.
func (r *Router) chronicleFor(name string) (engine.Chronicle, bool) {
	for _, ch := range r.chronicles {
		if slices.ContainsFunc(ch.Commands(), func(s engine.CommandSpec) bool { return s.Name == name }) {
			return ch, true
		}
	}
	return nil, false
}

// opening returns the command that begins a campaign of ch (flag
// engine.Opens).
func opening(ch engine.Chronicle) engine.CommandSpec {
	for _, s := range ch.Commands() {
		if s.Is(engine.Opens) {
			return s
		}
	}
	return engine.CommandSpec{}
}

// campaign runs a campaign command. The one flagged engine.Opens begins
// one; the rest go to the guild's running campaign, or, for those
// that only read, to its last one.
func (r *Router) campaign(ctx context.Context, guild string, ch engine.Chronicle, req Request) ([]Reply, error) {
	key := channelKey{guild, campaignKey(ch)}
	lock := r.channelLock(key)
	lock.Lock()
	defer lock.Unlock()
	if opening(ch).Name == req.Command.Name {
		return r.beginCampaign(ctx, key, ch, req)
	}
	if name := req.Command.Opt("saga"); name != "" {
		return r.earlierCampaign(ctx, key, name, req)
	}
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		info, err = r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No saga has been started on this server; the Herald starts one with /%s.", opening(ch).Name)
	}
	if err != nil {
		return nil, err
	}
	var caught []Reply
	if !info.Ended {
		if caught, err = r.catchUpBooks(ctx, info, req.Channel); err != nil {
			return nil, err
		}
	}
	replies, err := r.run(ctx, info, req, false)
	if err != nil {
		return nil, err
	}
	// What changed the campaign is announced; what only read it is not.
	if now, err := r.cfg.Store.Game(ctx, info.ID); err == nil && now.Head > info.Head {
		replies = r.herald(ctx, info, req.Channel, replies)
	}
	return append(caught, replies...), nil
}

// earlierCampaign answers a command that reads the guild's campaign
// called name, the newest of that name.
func (r *Router) earlierCampaign(ctx context.Context, key channelKey, name string, req Request) ([]Reply, error) {
	games, err := r.cfg.Store.Games(ctx, key.guild)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, info := range slices.Backward(games) {
		if info.Channel != key.channel {
			continue
		}
		g, err := r.load(ctx, info)
		if err != nil {
			return nil, err
		}
		t, ok := g.State.(engine.Titled)
		if !ok {
			continue
		}
		if strings.EqualFold(t.Title(), strings.TrimSpace(name)) {
			return r.run(ctx, info, req, false)
		}
		names = append(names, fmt.Sprintf("%q", t.Title()))
	}
	if len(names) == 0 {
		return nil, engine.Refuse("", "No saga has been started on this server yet.")
	}
	return nil, engine.Refuse("", "This server has no saga called %q; it has had %s.", name, strings.Join(names, ", "))
}

// beginCampaign starts a campaign, handing it the guild's last one, which
// refuses it while that one still runs.
func (r *Router) beginCampaign(ctx context.Context, key channelKey, ch engine.Chronicle, req Request) ([]Reply, error) {
	var previous engine.State
	if last, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel); err == nil {
		g, err := r.load(ctx, last)
		if err != nil {
			return nil, err
		}
		previous = g.State
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	g := engine.NewGame(ch)
	opened := g.Open(req.User, r.cfg.Seed())
	if err := g.Apply(opened); err != nil {
		return nil, err
	}
	res, err := g.Begin(req.Command, previous)
	if err != nil {
		return nil, err
	}
	info, err := r.create(ctx, key, ch, g, append([]engine.Event{opened}, res.Events...), res.Events)
	if errors.Is(err, store.ErrConflict) {
		return nil, engine.Refuse("", "Another saga was started on this server a moment ago.")
	}
	if err != nil {
		return nil, err
	}
	return r.herald(ctx, info, req.Channel, r.replies(ctx, req, g, res)), nil
}

// create records a new game whose first events are events, of which
// rest have not yet been applied to g, and caches it.
func (r *Router) create(ctx context.Context, key channelKey, rs engine.Ruleset, g *engine.Game, events, rest []engine.Event) (store.Game, error) {
	if r.cfg.ReadOnly {
		return store.Game{}, errReadOnly
	}
	recs := make([]engine.Record, len(events))
	for i, e := range events {
		var err error
		if recs[i], err = e.Record(); err != nil {
			return store.Game{}, err
		}
	}
	for _, e := range rest {
		if err := g.Apply(e); err != nil {
			return store.Game{}, err
		}
	}
	var info store.Game
	var err error
	if cc, ok := r.cfg.Store.(callingCreator); ok && !isCampaign(r, rs.ID()) {
		// The players the new book awaits are called from its first
		// step (games.go).
		info, err = cc.CreateGameCalling(ctx, key.guild, key.channel, rs.ID(), recs, store.CallChange{At: r.cfg.Now(), Called: players(awaited(g))})
	} else {
		info, err = r.cfg.Store.CreateGame(ctx, key.guild, key.channel, rs.ID(), recs)
	}
	if err != nil {
		return store.Game{}, err
	}
	r.remember(info.ID, g)
	return info, nil
}

// herald copies a campaign's public replies to its herald channel, when
// it has one other than the channel the command came from.
func (r *Router) herald(ctx context.Context, info store.Game, from string, replies []Reply) []Reply {
	to := r.heraldChannel(ctx, info)
	if to == "" || to == from {
		return replies
	}
	out := slices.Clone(replies)
	for _, rep := range replies {
		if !rep.Ephemeral && rep.Channel == "" && rep.Text != "" {
			out = append(out, Reply{User: rep.User, Channel: to, Text: rep.Text})
		}
	}
	return out
}

func (r *Router) heraldChannel(ctx context.Context, info store.Game) string {
	g, err := r.load(ctx, info)
	if err != nil {
		return ""
	}
	if h, ok := g.State.(engine.Heralded); ok {
		return h.HeraldChannel()
	}
	return ""
}

// enlist records in g, a book just opened in the guild, what it takes
// from the guild's running campaign, if its rules have campaigns and
// one runs.
func (r *Router) enlist(ctx context.Context, guild string, g *engine.Game) ([]engine.Event, error) {
	cr, ok := g.Rules.(engine.Campaigner)
	if !ok {
		return nil, nil
	}
	info, err := r.cfg.Store.ActiveGame(ctx, guild, campaignKey(cr.Campaign()))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cg, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	res, err := g.Enlist(cg, bookRef(info.ID))
	if err != nil {
		return nil, err
	}
	for _, e := range res.Events {
		if err := g.Apply(e); err != nil {
			return nil, err
		}
	}
	return res.Events, nil
}

// follow has the campaign that book belongs to, if any, record the
// book's events it has not yet followed, and returns what it announces.
// The book's step is already recorded: a campaign that cannot follow it
// now catches up at the book's next step, or at its next command, since
// it follows the book's stored log and not this step alone.
func (r *Router) follow(ctx context.Context, book store.Game, g *engine.Game, from string) []Reply {
	en, ok := g.State.(engine.Enlisted)
	if !ok || en.Campaign() == "" {
		return nil
	}
	id, err := strconv.ParseInt(en.Campaign(), 10, 64)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "book names no campaign", "game", book.ID, "campaign", en.Campaign())
		return nil
	}
	info, err := r.cfg.Store.Game(ctx, store.GameID(id))
	if err == nil && info.Ended {
		return nil
	}
	var replies []Reply
	if err == nil {
		lock := r.channelLock(channelKey{info.Guild, info.Channel})
		lock.Lock()
		replies, err = r.followBook(ctx, info, book, from)
		lock.Unlock()
	}
	if err != nil {
		r.cfg.Logger.WarnContext(ctx, "campaign did not follow its book yet", "game", book.ID, "campaign", id, "err", err)
		return nil
	}
	return replies
}

// catchUpBooks follows the books the campaign has not seen end, so that
// what a crash kept it from following is recorded before it answers. The
// caller holds the campaign's lock.
func (r *Router) catchUpBooks(ctx context.Context, info store.Game, from string) ([]Reply, error) {
	cg, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	following, ok := cg.State.(engine.Following)
	if !ok {
		return nil, nil
	}
	var out []Reply
	for _, ref := range following.Following() {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("campaign %d follows a book called %q", info.ID, ref)
		}
		book, err := r.cfg.Store.Game(ctx, store.GameID(id))
		if err != nil {
			return nil, err
		}
		replies, err := r.followBook(ctx, info, book, from)
		if err != nil {
			return nil, err
		}
		out = append(out, replies...)
	}
	return out, nil
}

// followBook has the campaign info follow the stored events of book that
// it has not followed yet, and returns its announcements: in its herald
// channel if it has one, otherwise in the book's channel (from is the
// channel the command came from). The caller holds the campaign's lock.
func (r *Router) followBook(ctx context.Context, info, book store.Game, from string) ([]Reply, error) {
	rs, ok := r.rules[book.Ruleset]
	if !ok {
		return nil, nil
	}
	ref := bookRef(book.ID)
	for attempt := 0; ; attempt++ {
		cg, err := r.load(ctx, info)
		if err != nil {
			return nil, err
		}
		following, ok := cg.State.(engine.Following)
		if !ok || cg.State.Over() {
			return nil, nil
		}
		after := following.Followed(ref)
		recs, err := r.cfg.Store.Events(ctx, book.ID, after, 0)
		if err != nil {
			return nil, err
		}
		events := make([]engine.Event, 0, len(recs))
		for _, rec := range recs {
			e, err := engine.DecodeRecord(rs, rec)
			if err != nil {
				return nil, err
			}
			events = append(events, e)
		}
		res, err := cg.Follow(ref, events)
		if err != nil || len(res.Events) == 0 {
			return nil, err
		}
		next, _, err := r.commit(ctx, info, cg, res, turn{})
		if errors.Is(err, store.ErrConflict) && attempt < conflictRetries {
			info.Head = 0 // another writer moved it: catch up from the store
			if err := backoff(ctx, attempt); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		to := book.Channel
		if h, ok := next.State.(engine.Heralded); ok && h.HeraldChannel() != "" {
			to = h.HeraldChannel()
		}
		if to == from {
			to = ""
		}
		return announce(next, res, to), nil
	}
}

// announce turns what a campaign recorded while following a book into
// one public message for channel.
func announce(g *engine.Game, res engine.Result, channel string) []Reply {
	var msgs []engine.Message
	for _, e := range res.Events {
		msgs = append(msgs, g.Rules.Narrate(e)...)
	}
	msgs = append(msgs, res.Messages...)
	var lines []string
	for _, m := range msgs {
		if m.Text != "" && !m.Private() {
			lines = append(lines, m.Text)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return []Reply{{Channel: channel, Text: strings.Join(lines, "\n")}}
}
