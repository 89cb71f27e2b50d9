package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// The weekly digest. A server that names a channel with /server set
// digest: gets there, every seven days, the week's news: the books that
// ended and how, the Herald's rank changes, who is awaited where, the
// coming deadlines, and one picture: the most dramatic step of the week.
// A week is what the books recorded since the last digest (each game's
// last event then is kept with the server's settings), so the digest
// reads the logs, not the clocks of the processes that wrote them. Of
// several instances, the one that claims the week in the store sends it.
// [Router.CheckDigests] does it; RunDeadlines calls it.
//
// The most dramatic step is, among the steps the week recorded in the
// server's books, the one that drew the most cards and dice (a melee, a
// volley, a round dealt); of steps that drew as many, the one that
// recorded the most events; of those, the latest. Its book's board after
// it is the picture. A week without a draw has no picture.

// rankKind is the kind of the campaign event a digest reports from the
// Herald: a Hero's rank changed.
const rankKind = "saga.rank-changed"

// heads returns the last event of every game of guild.
func (r *Router) heads(ctx context.Context, guild string) (map[string]engine.Seq, error) {
	games, err := r.cfg.Store.Games(ctx, guild)
	if err != nil {
		return nil, err
	}
	out := map[string]engine.Seq{}
	for _, g := range games {
		out[strconv.FormatInt(int64(g.ID), 10)] = g.Head
	}
	return out, nil
}

// CheckDigests posts the weekly digests that are due, and returns them,
// each with its Channel set.
func (r *Router) CheckDigests(ctx context.Context) ([]Reply, error) {
	cs, ok := r.callStore()
	ag, ok2 := r.cfg.Store.(allGames)
	if !ok || !ok2 {
		return nil, nil
	}
	games, err := ag.AllGames(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: digests: %w", err)
	}
	now := r.cfg.Now()
	seen := map[string]bool{}
	var out []Reply
	var errs []error
	for _, g := range games {
		if seen[g.Guild] {
			continue
		}
		seen[g.Guild] = true
		var ss serverSettings
		if err := getSetting(ctx, cs, g.Guild, serverSubject, &ss); err != nil {
			errs = append(errs, err)
			continue
		}
		if ss.Digest == "" || now.Before(ss.DigestNext) {
			continue
		}
		rep, err := r.digest(ctx, cs, g.Guild, ss, now)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot: digest of %s: %w", g.Guild, err))
		}
		out = append(out, rep...)
	}
	return out, errors.Join(errs...)
}

func (r *Router) digest(ctx context.Context, cs CallStore, guild string, ss serverSettings, now time.Time) ([]Reply, error) {
	if ok, err := cs.Claim(ctx, fmt.Sprintf("digest:%s:%d", guild, ss.DigestNext.UnixMilli()), now); err != nil || !ok {
		return nil, err
	}
	rep, err := r.weekNews(ctx, guild, ss, now)
	if err != nil {
		return nil, err
	}
	heads, err := r.heads(ctx, guild)
	if err != nil {
		return nil, err
	}
	ss.DigestSeen = heads
	for !now.Before(ss.DigestNext) {
		ss.DigestNext = ss.DigestNext.Add(digestEvery)
	}
	if err := putSetting(ctx, cs, guild, serverSubject, ss); err != nil {
		return nil, err
	}
	return []Reply{rep}, nil
}

// dramatic is the week's most dramatic step so far.
type dramatic struct {
	game          store.Game
	rules         engine.Ruleset
	draws, events int
	from, to      engine.Seq
}

func (d dramatic) beats(o dramatic) bool {
	if d.draws != o.draws {
		return d.draws > o.draws
	}
	if d.events != o.events {
		return d.events > o.events
	}
	return true // the later step, as the books are read in order
}

// weekNews writes the digest of guild's books since ss.DigestSeen.
func (r *Router) weekNews(ctx context.Context, guild string, ss serverSettings, now time.Time) (Reply, error) {
	games, err := r.cfg.Store.Games(ctx, guild)
	if err != nil {
		return Reply{}, err
	}
	var ended, ranks []string
	var best dramatic
	for _, info := range games {
		rs, ok := r.rules[info.Ruleset]
		after := ss.DigestSeen[strconv.FormatInt(int64(info.ID), 10)]
		if !ok || info.Head <= after {
			continue
		}
		recs, err := r.cfg.Store.Events(ctx, info.ID, after, 0)
		if err != nil {
			return Reply{}, err
		}
		if isCampaign(r, info.Ruleset) {
			for _, rec := range recs {
				if rec.Kind != rankKind {
					continue
				}
				e, err := engine.DecodeRecord(rs, rec)
				if err != nil {
					return Reply{}, err
				}
				for _, m := range rs.Narrate(e) {
					if !m.Private() && m.Text != "" {
						ranks = append(ranks, m.Text)
					}
				}
			}
			continue
		}
		var step dramatic
		var last []string // the public lines of the last step
		flush := func() {
			if step.events > 0 && step.draws > 0 && step.beats(best) {
				best = step
			}
		}
		for _, rec := range recs {
			if rec.Step {
				flush()
				step, last = dramatic{game: info, rules: rs, from: rec.Seq}, nil
			}
			step.events++
			step.draws += len(rec.Draws)
			step.to = rec.Seq
			e, err := engine.DecodeRecord(rs, rec)
			if err != nil {
				return Reply{}, err
			}
			for _, m := range rs.Narrate(e) {
				if !m.Private() && m.Text != "" {
					last = append(last, m.Text)
				}
			}
		}
		flush()
		if info.Ended {
			ended = append(ended, fmt.Sprintf("- %s, %s: %s", r.channelLink(guild, info.Channel), rs.Title(), strings.Join(last, " ")))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The week's news, to %s.\n", now.UTC().Format("Mon 2 Jan"))
	if len(ended) > 0 {
		b.WriteString("Books ended:\n" + strings.Join(ended, "\n") + "\n")
	} else {
		b.WriteString("No book ended this week.\n")
	}
	if len(ranks) > 0 {
		b.WriteString("Ranks:\n- " + strings.Join(ranks, "\n- ") + "\n")
	}
	lines, err := r.bookLines(ctx, guild)
	if err != nil {
		return Reply{}, err
	}
	if len(lines) > 0 {
		b.WriteString("Awaited:\n")
		for _, l := range lines {
			fmt.Fprintf(&b, "- %s, %s: ", r.channelLink(guild, l.info.Channel), l.rules.Title())
			if len(l.waits) == 0 {
				b.WriteString("waits for no one in particular")
			} else {
				fmt.Fprintf(&b, "waits for %s", r.waitList(ctx, guild, l, now, time.UTC))
			}
			if !l.due.IsZero() {
				fmt.Fprintf(&b, "; deadline %s", when(l.due, now, time.UTC))
			}
			b.WriteString(".\n")
		}
	}
	rep := Reply{Channel: ss.Digest}
	if best.events > 0 {
		pic, err := r.stepPicture(ctx, best)
		if err != nil {
			r.cfg.Logger.WarnContext(ctx, "digest picture not drawn", "game", best.game.ID, "err", err)
		}
		if pic != nil {
			rep.Image = pic
			fmt.Fprintf(&b, "The picture: the step of the week that drew the most cards and dice, in %s (steps %d to %d).\n", r.channelLink(guild, best.game.Channel), best.from, best.to)
		}
	}
	rep.Text = strings.TrimRight(b.String(), "\n")
	return rep, nil
}

// stepPicture draws d's book after d's step, with the step drawn on it.
func (r *Router) stepPicture(ctx context.Context, d dramatic) ([]byte, error) {
	if r.cfg.Renderer == nil {
		return nil, nil
	}
	g := engine.NewGame(d.rules)
	if err := catchUpTo(ctx, r.cfg.Store, d.game.ID, g, d.from-1); err != nil {
		return nil, err
	}
	recs, err := r.cfg.Store.Events(ctx, d.game.ID, d.from-1, d.to)
	if err != nil {
		return nil, err
	}
	var last []engine.Event
	for _, rec := range recs {
		e, err := engine.DecodeRecord(d.rules, rec)
		if err != nil {
			return nil, err
		}
		if err := g.Apply(e); err != nil {
			return nil, err
		}
		last = append(last, e)
	}
	return r.picture(ctx, g, last), nil
}
