package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Where am I awaited. With every step the router records in the store
// the changes it makes to who is awaited (a call, store.Call): a player
// is called when he becomes awaited, and his call is closed when he
// stops being awaited, when his seat is handed to another, or when the
// game ends. A step after which its player is still awaited (he moves
// one unit of several, say) changes no call, and so writes no call row,
// a page fewer in its commit: in btg, goliath and sweet most steps are
// such (BenchmarkSystemsPages).
// So /games can say, over every book of the server, who is awaited
// where and since when, the reminders know when each wait began, and
// /me stats how long each player keeps a book waiting, from his call to
// when the book stopped waiting for him. Since a call spans all of a
// player's steps while he stays awaited, the reminders and /games count
// his wait from the later of his call and his last step
// (store.Store.LastStep, read only then, not at every step), so that a
// player who is acting is not told he has kept the book waiting. Every
// instance records and reads the same calls.

var gamesSpec = engine.CommandSpec{Name: "games", Help: "List the books of this server where you are awaited or play: what each waits for, since when, its deadline. server:yes lists every book, for game masters.", Flags: engine.Private | engine.Reads,
	Options: []engine.OptionSpec{
		{Name: "server", Help: "yes: every book of the server, its state, how long idle and who holds it up (game masters)", Choices: []string{"yes", "no"}},
	}, Example: "/games"}

// callingAppender is a store that records a step's calls with the step
// itself, in one transaction; [store.Store] is one.
type callingAppender interface {
	AppendCalling(ctx context.Context, id store.GameID, expect engine.Seq, recs []engine.Record, end bool, calls store.CallChange) (store.Game, error)
}

var _ callingAppender = (*store.Store)(nil)

// callingCreator is a store that records the calls of a new book's
// first step with the book itself; [store.Store] is one.
type callingCreator interface {
	CreateGameCalling(ctx context.Context, guild, channel, ruleset string, recs []engine.Record, calls store.CallChange) (store.Game, error)
}

var _ callingCreator = (*store.Store)(nil)

// append appends a step's records, from g to next, after info's head,
// with the calls the step makes when the store keeps them: so a step
// costs one commit however many players it calls. A campaign's steps call
// no one.
func (r *Router) append(ctx context.Context, info store.Game, recs []engine.Record, g, next *engine.Game, t turn) (store.Game, error) {
	end := next.State.Over()
	ca, ok := r.cfg.Store.(callingAppender)
	if !ok || isCampaign(r, info.Ruleset) || len(recs) == 0 {
		return r.cfg.Store.Append(ctx, info.ID, g.Seq, recs, end)
	}
	return ca.AppendCalling(ctx, info.ID, g.Seq, recs, end, r.callChange(g, next, t, recs[0].Actor))
}

// callChange says what the step of actor from before to after, of turn
// t, does to the game's calls: anyone awaited before and not after is
// done (answered); a player whose seat went to another leaves his call
// unanswered, and is called again if he is still awaited; anyone awaited
// anew is called; and at the end of the game the actor's call is
// answered and every other call still open ends. A player awaited before
// and after keeps his call, whether or not he is the actor: the step
// changes nothing of it, and the store writes no call.
func (r *Router) callChange(before, after *engine.Game, t turn, actor engine.PlayerID) store.CallChange {
	c := store.CallChange{At: r.cfg.Now(), Unseated: unseated(before, after)}
	prev := players(t.was)
	if after.State.Over() {
		if slices.Contains(prev, actor) {
			c.Acted = []engine.PlayerID{actor}
		}
		c.Ended = true
		return c
	}
	next := players(t.now)
	for _, p := range prev {
		if !slices.Contains(next, p) {
			c.Acted = append(c.Acted, p)
		}
	}
	for _, p := range next {
		if !slices.Contains(prev, p) || slices.Contains(c.Unseated, p) {
			c.Called = append(c.Called, p)
		}
	}
	return c
}

// waitingSince returns since when the player of open call c has kept its
// book waiting: from the call, or from his last step since it, when he
// has acted and is still awaited (such a step writes no new call); and
// the number of that call or step, which names the wait (a reminder's
// rungs are claimed under it, so a step starts them afresh).
func waitingSince(ctx context.Context, cs CallStore, c store.Call) (time.Time, engine.Seq, error) {
	seq, at, err := cs.LastStep(ctx, c.Game, c.Player, c.Seq)
	if err != nil {
		return time.Time{}, 0, err
	}
	if seq == 0 || !at.After(c.Called) {
		return c.Called, c.Seq, nil
	}
	return at, seq, nil
}

// unseated returns the players who held a seat in before that another
// holds in after: the step handed it over.
func unseated(before, after *engine.Game) []engine.PlayerID {
	b, ok1 := before.State.(engine.Seater)
	a, ok2 := after.State.(engine.Seater)
	if !ok1 || !ok2 {
		return nil
	}
	now := map[string]engine.PlayerID{}
	for _, s := range a.Seats() {
		now[s.ID] = s.Player
	}
	var out []engine.PlayerID
	for _, s := range b.Seats() {
		if p, ok := now[s.ID]; ok && p != s.Player && !slices.Contains(out, s.Player) {
			out = append(out, s.Player)
		}
	}
	return out
}

func isCampaign(r *Router, ruleset string) bool {
	_, ok := r.rules[ruleset].(engine.Chronicle)
	return ok
}

// players returns the players of awaits, each once, in order.
func players(as []engine.Await) []engine.PlayerID {
	var out []engine.PlayerID
	for _, a := range as {
		if !slices.Contains(out, a.Player) {
			out = append(out, a.Player)
		}
	}
	return out
}

// bookLine is what /games says of one book.
type bookLine struct {
	info    store.Game
	rules   engine.Ruleset
	waits   []engine.Await
	since   map[engine.PlayerID]time.Time
	due     time.Time
	idle    time.Duration
	master  engine.PlayerID
	players []engine.PlayerID
}

// games answers /games.
func (r *Router) games(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	server, err := yesNo(req.Command, "server", false)
	if err != nil {
		return nil, err
	}
	lines, err := r.bookLines(ctx, key.guild)
	if err != nil {
		return nil, err
	}
	now := r.cfg.Now()
	me, err := r.player(ctx, key.guild, req.User)
	if err != nil {
		return nil, err
	}
	loc := me.location()
	var b strings.Builder
	if server {
		if !r.serverMaster(req) && !slices.ContainsFunc(lines, func(l bookLine) bool { return l.master == req.User }) {
			return nil, engine.Refuse("", "/games server:yes is for game masters: a member who may manage the server, its game-master role, or the game master of a book here. /games lists your own books.")
		}
		if len(lines) == 0 {
			return []Reply{{User: req.User, Ephemeral: true, Text: "No book is open in this server."}}, nil
		}
		fmt.Fprintf(&b, "Every open book of the server (%d):\n", len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "- %s, %s, game master %s: ", r.channelLink(key.guild, l.info.Channel), l.rules.Title(), l.master)
			if len(l.waits) == 0 {
				fmt.Fprintf(&b, "waits for no one in particular")
			} else {
				fmt.Fprintf(&b, "held up by %s", r.waitList(ctx, key.guild, l, now, loc))
			}
			fmt.Fprintf(&b, "; idle for %s", lasting(l.idle))
			if !l.due.IsZero() {
				fmt.Fprintf(&b, "; deadline %s", when(l.due, now, loc))
			}
			b.WriteString(".\n")
		}
		return []Reply{{User: req.User, Ephemeral: true, Text: strings.TrimRight(b.String(), "\n")}}, nil
	}
	var mine []bookLine
	for _, l := range lines {
		if slices.Contains(l.players, req.User) || l.master == req.User {
			mine = append(mine, l)
		}
	}
	if len(mine) == 0 {
		return []Reply{{User: req.User, Ephemeral: true, Text: "You are in no open book of this server."}}, nil
	}
	// The books that wait for the asker come first.
	slices.SortStableFunc(mine, func(a, b bookLine) int {
		return boolRank(awaitsPlayer(b, req.User)) - boolRank(awaitsPlayer(a, req.User))
	})
	fmt.Fprintf(&b, "Your books in this server (%d):\n", len(mine))
	for _, l := range mine {
		fmt.Fprintf(&b, "- %s, %s: ", r.channelLink(key.guild, l.info.Channel), l.rules.Title())
		var yours []string
		for _, a := range l.waits {
			if a.Player == req.User {
				yours = append(yours, a.Task)
			}
		}
		switch {
		case len(yours) > 0:
			fmt.Fprintf(&b, "waits for you to %s", strings.Join(yours, ", and to "))
			if t, ok := l.since[req.User]; ok {
				fmt.Fprintf(&b, ", for %s", lasting(now.Sub(t)))
			}
		case len(l.waits) > 0:
			fmt.Fprintf(&b, "you play; it waits for %s", r.waitList(ctx, key.guild, l, now, loc))
		default:
			b.WriteString("you play; it waits for no one in particular")
		}
		if !l.due.IsZero() {
			fmt.Fprintf(&b, "; deadline %s", when(l.due, now, loc))
		}
		b.WriteString(".\n")
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: strings.TrimRight(b.String(), "\n")}}, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func awaitsPlayer(l bookLine, p engine.PlayerID) bool {
	return slices.ContainsFunc(l.waits, func(a engine.Await) bool { return a.Player == p })
}

// waitList names the players l waits for, with how long each has been
// called and, for one away, until when.
func (r *Router) waitList(ctx context.Context, guild string, l bookLine, now time.Time, loc *time.Location) string {
	var parts []string
	for _, p := range players(l.waits) {
		var about []string
		if t, ok := l.since[p]; ok {
			about = append(about, "for "+lasting(now.Sub(t)))
		}
		if ps, err := r.player(ctx, guild, p); err == nil && ps.away(now) {
			about = append(about, awayNote(ps, loc))
		}
		s := string(p)
		if len(about) > 0 {
			s += " (" + strings.Join(about, "; ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// when writes a time to come as a player reads it: how long until it,
// and the day and hour in his zone.
func when(t, now time.Time, loc *time.Location) string {
	if !t.After(now) {
		return "passed"
	}
	return fmt.Sprintf("in %s (%s)", lasting(t.Sub(now).Round(time.Minute)), t.In(loc).Format("Mon 2 Jan 15:04 MST"))
}

// bookLines reads every open book of guild: its rules, whom it waits
// for and since when, its deadline, how long it has been idle, its game
// master and its players (everyone it has called). Books are loaded from
// the store, not the cache, so that no other channel's lock is taken.
func (r *Router) bookLines(ctx context.Context, guild string) ([]bookLine, error) {
	all, err := r.cfg.Store.Games(ctx, guild)
	if err != nil {
		return nil, err
	}
	cs, _ := r.callStore()
	ds, _ := r.deadlineStore()
	var open []store.Call
	if cs != nil {
		if open, err = cs.OpenCalls(ctx, guild); err != nil {
			return nil, err
		}
	}
	var out []bookLine
	for _, info := range all {
		rs, ok := r.rules[info.Ruleset]
		if info.Ended || !ok || isCampaign(r, info.Ruleset) {
			continue
		}
		g, err := Load(ctx, r.cfg.Store, rs, info.ID)
		if err != nil {
			return nil, err
		}
		l := bookLine{info: info, rules: rs, waits: awaited(g), since: map[engine.PlayerID]time.Time{}}
		if m, ok := rs.(engine.Mastered); ok {
			l.master = m.Master(g.State)
		}
		for _, c := range open {
			if c.Game == info.ID {
				since, _, err := waitingSince(ctx, cs, c)
				if err != nil {
					return nil, err
				}
				if t, ok := l.since[c.Player]; !ok || since.Before(t) {
					l.since[c.Player] = since
				}
			}
		}
		if cs != nil {
			if l.players, err = r.bookPlayers(ctx, cs, info, g); err != nil {
				return nil, err
			}
		}
		for _, p := range players(l.waits) {
			if !slices.Contains(l.players, p) {
				l.players = append(l.players, p)
			}
		}
		if info.Deadline && ds != nil {
			d, err := ds.GameDeadline(ctx, info.ID)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			l.due = d.Due
		}
		if l.idle, err = r.idle(ctx, cs, info); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// bookPlayers returns who plays in book g: the holders of its seats, and
// anyone it has lately called to act.
func (r *Router) bookPlayers(ctx context.Context, cs CallStore, info store.Game, g *engine.Game) ([]engine.PlayerID, error) {
	var out []engine.PlayerID
	if st, ok := g.State.(engine.Seater); ok {
		for _, s := range st.Seats() {
			if s.Player != "" && !slices.Contains(out, s.Player) {
				out = append(out, s.Player)
			}
		}
	}
	calls, err := cs.GameCalls(ctx, info.ID, recentCalls)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		if !slices.Contains(out, c.Player) {
			out = append(out, c.Player)
		}
	}
	return out, nil
}

// recentCalls is how many of a book's last calls tell who plays in it,
// in which order players are called, and when it last moved.
const recentCalls = 64

// idle returns how long book info has been idle: since the last time it
// called a player or a player answered (among its recent calls), or its
// last event was recorded, whichever is later (a step that leaves its
// player awaited records no call).
func (r *Router) idle(ctx context.Context, cs CallStore, info store.Game) (time.Duration, error) {
	var last time.Time
	if cs != nil {
		calls, err := cs.GameCalls(ctx, info.ID, recentCalls)
		if err != nil {
			return 0, err
		}
		for _, c := range calls {
			if c.Called.After(last) {
				last = c.Called
			}
			if c.Acted.After(last) {
				last = c.Acted
			}
		}
	}
	at, err := r.cfg.Store.Recorded(ctx, info.ID, max(info.Head-1, 0))
	if err != nil {
		return 0, err
	}
	if len(at) > 0 && at[len(at)-1].After(last) {
		last = at[len(at)-1]
	}
	if last.IsZero() {
		return 0, nil
	}
	return max(r.cfg.Now().Sub(last), 0), nil
}

// headsUp returns the word sent to players who asked (/me set before:yes)
// to hear when the player called before them starts: for each player
// called anew by a step, every other player of the book whose last call
// came right after one of his, and who is not awaited himself now, is
// told that his turn is likely next. Which player comes before whom is
// read from the book's own calls so far, whatever its rules.
func (r *Router) headsUp(ctx context.Context, info store.Game, fresh, now []engine.Await) []Reply {
	cs, ok := r.callStore()
	if !ok || len(fresh) == 0 {
		return nil
	}
	calls, err := cs.GameCalls(ctx, info.ID, recentCalls)
	if err != nil {
		r.cfg.Logger.WarnContext(ctx, "calls not read", "game", info.ID, "err", err)
		return nil
	}
	// after[p] is who was called right before p's last call.
	after := map[engine.PlayerID]engine.PlayerID{}
	var prev engine.PlayerID
	for _, c := range calls {
		if prev != "" && prev != c.Player {
			after[c.Player] = prev
		}
		prev = c.Player
	}
	waiting := players(now)
	var out []Reply
	told := map[engine.PlayerID]bool{}
	for _, x := range players(fresh) {
		for p, before := range after {
			if before != x || slices.Contains(waiting, p) || told[p] {
				continue
			}
			ps, err := r.player(ctx, info.Guild, p)
			if err != nil || !ps.Before || ps.away(r.cfg.Now()) {
				continue
			}
			told[p] = true
			out = append(out, Reply{Channel: info.Channel, User: p, Ephemeral: true,
				Text: fmt.Sprintf("%s has started their turn in %s; yours is likely next.", x, r.channelLink(info.Guild, info.Channel))})
		}
	}
	slices.SortFunc(out, func(a, b Reply) int { return strings.Compare(string(a.User), string(b.User)) })
	return out
}

// seatSpec is /seat hand as the table lists it; the engine decides it in
// every rule system whose seats players hold (engine.HandSeatSpec).
var seatSpec = engine.HandSeatSpec

// handSeat answers /seat hand: a step of the channel's book, decided by
// the engine, so that the log, the export and the pages keep who handed
// which seat to whom, when and why.
func (r *Router) handSeat(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book is open in this channel. Open one with /book open.")
	}
	if err != nil {
		return nil, err
	}
	r.keepActive(info)
	return r.run(ctx, info, req, false)
}
