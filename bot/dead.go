package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Dead books. A server that sets /server set dead:N has every book that
// has seen no step (no call and no answer) for N days reported to its
// game master, once per position of the book (claimed in the store, so
// one instance reports it): a message in the book's channel that pings
// him, with buttons to remind the players awaited (/book nudge), to read
// how to hand their seats to others (/seat hand) and, where the rules have
// /book end, to end it. An ended book keeps its log and its pages.
// [Router.CheckDeadBooks] does it; RunDeadlines calls it.

var nudgeSpec = engine.CommandSpec{Name: "book nudge", Help: "Remind now every player this book waits for, in the channel or by direct message as each asked. Game master only.", Flags: engine.MasterOnly}

// nudge answers /book nudge.
func (r *Router) nudge(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book is open in this channel. Open one with /book open.")
	}
	if err != nil {
		return nil, err
	}
	g, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	if err := r.permit(g, req); err != nil {
		return nil, err
	}
	waiting := awaited(g)
	if len(waiting) == 0 {
		return nil, engine.Refuse("", "The book waits for no one in particular: there is no one to remind.")
	}
	now := r.cfg.Now()
	var out []Reply
	var away []string
	for _, a := range waiting {
		ps, err := r.player(ctx, key.guild, a.Player)
		if err != nil {
			return nil, err
		}
		if ps.away(now) {
			away = append(away, fmt.Sprintf("%s, %s", a.Player, awayNote(ps, time.UTC)))
			continue
		}
		out = append(out, r.callReply(key.channel, a.Player, ps,
			fmt.Sprintf("%s, the game master reminds you: the book in %s waits for you to %s.", a.Player, r.channelLink(key.guild, key.channel), a.Task)))
	}
	text := fmt.Sprintf("The game master reminds %s.", whoList(waiting))
	if len(away) > 0 {
		text += " Away, and not reminded: " + strings.Join(away, "; ") + "."
	}
	return append([]Reply{{User: req.User, Text: text}}, out...), nil
}

// allGames is what CheckDeadBooks needs of the store beyond Store: every
// game of every server. [store.Store] has it.
type allGames interface {
	AllGames(ctx context.Context) ([]store.Game, error)
}

// CheckDeadBooks reports the books idle past their server's limit to
// their game masters, and returns the reports, each with its Channel set.
func (r *Router) CheckDeadBooks(ctx context.Context) ([]Reply, error) {
	cs, ok := r.callStore()
	ag, ok2 := r.cfg.Store.(allGames)
	if !ok || !ok2 {
		return nil, nil
	}
	games, err := ag.AllGames(ctx)
	if err != nil {
		return nil, fmt.Errorf("bot: dead books: %w", err)
	}
	servers := map[string]serverSettings{}
	var out []Reply
	var errs []error
	for _, info := range games {
		if info.Ended || isCampaign(r, info.Ruleset) {
			continue
		}
		ss, ok := servers[info.Guild]
		if !ok {
			if err := getSetting(ctx, cs, info.Guild, serverSubject, &ss); err != nil {
				errs = append(errs, err)
				continue
			}
			servers[info.Guild] = ss
		}
		if ss.DeadDays == 0 {
			continue
		}
		rep, err := r.deadBook(ctx, cs, info, ss.DeadDays)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot: dead book %d: %w", info.ID, err))
		}
		out = append(out, rep...)
	}
	return out, errors.Join(errs...)
}

func (r *Router) deadBook(ctx context.Context, cs CallStore, info store.Game, days int) ([]Reply, error) {
	idle, err := r.idle(ctx, cs, info)
	if err != nil || idle < time.Duration(days)*24*time.Hour {
		return nil, err
	}
	rs, ok := r.rules[info.Ruleset]
	if !ok {
		return nil, nil
	}
	if ok, err := cs.Claim(ctx, fmt.Sprintf("dead:%d:%d", info.ID, info.Head), r.cfg.Now()); err != nil || !ok {
		return nil, err
	}
	g, err := Load(ctx, r.cfg.Store, rs, info.ID)
	if err != nil {
		return nil, err
	}
	var master engine.PlayerID
	if m, ok := rs.(engine.Mastered); ok {
		master = m.Master(g.State)
	}
	text := fmt.Sprintf("This book has had no step for %s", lasting(idle))
	if w := awaited(g); len(w) > 0 {
		text += fmt.Sprintf("; it waits for %s", whoList(w))
	}
	text += ". Its game master may remind the players, hand their seats to others with /seat hand, or end it; an ended book keeps its log and its pages."
	buttons := []engine.Button{
		{Label: "Remind them", For: master, Command: engine.Command{Name: nudgeSpec.Name}},
		{Label: "Hand seats over", For: master, Command: engine.Command{Name: helpSpec.Name, Options: map[string]string{"command": seatSpec.Name}}},
	}
	if spec, ok := g.Spec("book end"); ok {
		end := engine.Command{Name: spec.Name}
		if _, ok := spec.Option("reason"); ok {
			end.Options = map[string]string{"reason": fmt.Sprintf("no step for %s", lasting(idle))}
		}
		buttons = append(buttons, engine.Button{Label: "End the book", For: master, Command: end})
	}
	rep := Reply{Channel: info.Channel, User: master, Text: text, Buttons: buttons, Seq: g.Seq}
	if master != "" {
		rep.Mentions = []engine.PlayerID{master}
		rep.Text = fmt.Sprintf("%s, %s", master, strings.ToLower(text[:1])+text[1:])
	}
	return []Reply{rep}, nil
}
