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

// Deadlines. A book's game master may give each turn a time limit with
// /book deadline hours:N. The clock starts whenever the game comes to wait
// for someone new; a reminder goes out when a quarter of the time is left;
// when it runs out, the rules' stand-in command is given for the player
// (a GWAB clan stands aloof) and the table is told. Deadlines live in the
// store, so a restarted bot keeps them; [Router.CheckDeadlines] does what
// is due, and [Router.RunDeadlines] calls it on a ticker.

// DeadlineStore is what deadlines need of the store; [store.Store] is the
// implementation. A router whose store lacks it keeps no deadlines.
type DeadlineStore interface {
	PutDeadline(ctx context.Context, d store.Deadline) error
	RemoveDeadline(ctx context.Context, game store.GameID) error
	GameDeadline(ctx context.Context, game store.GameID) (store.Deadline, error)
	DueDeadlines(ctx context.Context, now time.Time) ([]store.Deadline, error)
	ClaimDeadline(ctx context.Context, game store.GameID, seq engine.Seq, due bool) (bool, error)
}

var _ DeadlineStore = (*store.Store)(nil)

// maxDeadlineHours bounds /book deadline: two weeks a turn.
const maxDeadlineHours = 14 * 24

var deadlineSpec = engine.CommandSpec{Name: "book deadline", Help: "Give each turn a time limit; when it runs out, the table acts for the late player, passing or taking the most cautious choice. Game master only.", Flags: engine.MasterOnly,
	Options: []engine.OptionSpec{
		{Name: "hours", Help: "hours allowed each turn, 1 to 336; 0 lifts the deadline", Kind: engine.OptInt, Required: true},
	}}

func (r *Router) deadlineStore() (DeadlineStore, bool) {
	ds, ok := r.cfg.Store.(DeadlineStore)
	return ds, ok
}

// arm sets d's clock for game g, which waits for now; the clock starts
// when the last of them who is away comes back (away.go).
func (r *Router) arm(ctx context.Context, d *store.Deadline, g *engine.Game, now []engine.Await) {
	d.Seq, d.Due, d.Remind, d.Reminded = g.Seq, time.Time{}, time.Time{}, false
	if len(now) > 0 {
		d.Due = r.clockStart(ctx, d.Guild, now).Add(d.Per)
		d.Remind = d.Due.Add(-d.Per / 4)
	}
}

// rearm starts the clock of info's deadline again, if it has one, for the
// game g now is, and removes it once g is over.
func (r *Router) rearm(ctx context.Context, info store.Game, g *engine.Game, now []engine.Await) error {
	ds, ok := r.deadlineStore()
	if !ok || !info.Deadline {
		return nil
	}
	d, err := ds.GameDeadline(ctx, info.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if g.State.Over() {
		return ds.RemoveDeadline(ctx, info.ID)
	}
	r.arm(ctx, &d, g, now)
	return ds.PutDeadline(ctx, d)
}

// setDeadline answers /book deadline.
func (r *Router) setDeadline(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	if err := deadlineSpec.Check(req.Command); err != nil {
		return nil, err
	}
	hours, err := req.Command.Int("hours", 0)
	if err != nil {
		return nil, err
	}
	if hours < 0 || hours > maxDeadlineHours {
		return nil, engine.Refuse("", "hours: must be from 1 to %d, or 0 to lift the deadline.", maxDeadlineHours)
	}
	ds, ok := r.deadlineStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no deadlines.")
	}
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
	if hours == 0 {
		if err := ds.RemoveDeadline(ctx, info.ID); err != nil {
			return nil, err
		}
		return []Reply{{User: req.User, Text: "The game master lifts the deadline: turns take as long as they take."}}, nil
	}
	d := store.Deadline{Game: info.ID, Guild: key.guild, Channel: key.channel, Per: time.Duration(hours) * time.Hour}
	now := awaited(g)
	r.arm(ctx, &d, g, now)
	if err := ds.PutDeadline(ctx, d); err != nil {
		return nil, err
	}
	text := fmt.Sprintf("The game master gives each turn %s. When a player lets it run out, the rules act for him as the rulings say (a GWAB clan stands aloof).", plural(hours, "hour"))
	if len(now) > 0 {
		text += fmt.Sprintf(" The clock starts now for %s.", whoList(now))
	}
	return []Reply{{User: req.User, Text: text}}, nil
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func whoList(as []engine.Await) string {
	names := make([]string, len(as))
	for i, a := range as {
		names[i] = fmt.Sprintf("%s (%s)", a.Who, a.Player)
	}
	return strings.Join(names, " and ")
}

func mentions(as []engine.Await) []engine.PlayerID {
	out := make([]engine.PlayerID, len(as))
	for i, a := range as {
		out[i] = a.Player
	}
	return out
}

// CheckDeadlines does what the deadlines due by the router's clock call
// for, and returns the messages to post, each with its Channel set:
// reminders, and for time run out the notice and the table's answer to
// the stand-in command (its public part; what the rules would tell the
// late player alone is not sent).
func (r *Router) CheckDeadlines(ctx context.Context) ([]Reply, error) {
	ds, ok := r.deadlineStore()
	if !ok {
		return nil, nil
	}
	now := r.cfg.Now()
	due, err := ds.DueDeadlines(ctx, now)
	if err != nil {
		return nil, fmt.Errorf("bot: due deadlines: %w", err)
	}
	var out []Reply
	var errs []error
	for _, d := range due {
		rs, err := r.deadline(ctx, ds, d, now)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot: deadline of game %d: %w", d.Game, err))
		}
		out = append(out, rs...)
	}
	return out, errors.Join(errs...)
}

func (r *Router) deadline(ctx context.Context, ds DeadlineStore, d store.Deadline, now time.Time) ([]Reply, error) {
	info, err := r.cfg.Store.ActiveGame(ctx, d.Guild, d.Channel)
	if errors.Is(err, store.ErrNotFound) || (err == nil && info.ID != d.Game) {
		return nil, ds.RemoveDeadline(ctx, d.Game)
	}
	if err != nil {
		return nil, err
	}
	g, err := r.locked(ctx, info)
	if err != nil {
		return nil, err
	}
	waiting := awaited(g)
	switch {
	case g.State.Over():
		return nil, ds.RemoveDeadline(ctx, d.Game)
	case len(waiting) == 0:
		r.arm(ctx, &d, g, waiting) // the clock stops until someone is awaited
		return nil, ds.PutDeadline(ctx, d)
	case g.Seq != d.Seq:
		// Steps were taken that did not change whom the game awaits (or
		// whose deadline this router never set): the clock runs on, for
		// the game as it is now. The listing d came from may be older
		// than those steps: should the clock have been claimed or set
		// again since (by another checker's stand-in), it is left to
		// the next check, which reads it fresh.
		cur, err := ds.GameDeadline(ctx, d.Game)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if cur.Seq != d.Seq || !cur.Due.Equal(d.Due) || cur.Reminded != d.Reminded {
			return nil, nil
		}
		d.Seq = g.Seq
		if err := ds.PutDeadline(ctx, d); err != nil {
			return nil, err
		}
	}
	// Of several routers sharing the store, the one that claims what is
	// due acts on it.
	timeUp := !now.Before(d.Due)
	if ok, err := ds.ClaimDeadline(ctx, d.Game, d.Seq, timeUp); err != nil || !ok {
		return nil, err
	}
	if !timeUp {
		left := d.Due.Sub(now).Round(time.Minute)
		return []Reply{{Channel: d.Channel, Mentions: mentions(waiting),
			Text: fmt.Sprintf("Reminder: %s must act within %s, or be stood for.", whoList(waiting), humanDuration(left))}}, nil
	}
	var out []Reply
	for _, a := range waiting {
		if a.Timeout.Name == "" {
			continue
		}
		// The stand-in is for the step the deadline was set at: should a
		// player act first, it is refused and nothing is done. Then the
		// clock stays stopped until the game's next step sets it again.
		replies := r.Handle(ctx, Request{Guild: d.Guild, Channel: d.Channel, User: a.Player, Command: a.Timeout, AtSeq: d.Seq})
		if len(replies) == 1 && replies[0].Ephemeral {
			r.cfg.Logger.WarnContext(ctx, "deadline stand-in refused", "game", d.Game, "seq", d.Seq, "why", replies[0].Text)
			continue
		}
		out = append(out, Reply{Channel: d.Channel, Mentions: []engine.PlayerID{a.Player},
			Text: fmt.Sprintf("Time is up for %s (%s): the table stands in for them with %s.", a.Who, a.Player, a.Timeout.String())})
		for _, rep := range replies {
			if rep.Ephemeral {
				continue
			}
			if rep.Channel == "" {
				rep.Channel = d.Channel
			}
			out = append(out, rep)
		}
	}
	return out, nil
}

// locked loads info's game under its channel's lock.
func (r *Router) locked(ctx context.Context, info store.Game) (*engine.Game, error) {
	lock := r.channelLock(channelKey{info.Guild, info.Channel})
	lock.Lock()
	defer lock.Unlock()
	g, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	return g.Clone(), nil
}

func humanDuration(d time.Duration) string {
	switch {
	case d >= 2*time.Hour:
		return plural(int(d.Round(time.Hour)/time.Hour), "hour")
	case d >= time.Minute:
		return plural(int(d/time.Minute), "minute")
	}
	return "a minute"
}

// RunDeadlines checks the deadlines and reminders every interval until
// ctx ends, and the dead books and digests every slowChecks at most (they
// read every game of every server), handing what is due to post. A check
// under way when ctx ends is finished.
func (r *Router) RunDeadlines(ctx context.Context, every time.Duration, post func(context.Context, []Reply)) {
	t := time.NewTicker(every)
	defer t.Stop()
	var slow time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		step := context.WithoutCancel(ctx)
		out, err := r.CheckDeadlines(step)
		if err != nil {
			r.cfg.Logger.ErrorContext(step, "deadlines", "err", err)
		}
		checks := []check{{"reminders", r.CheckReminders}, {"the bot's steps", r.CheckBots}}
		if now := r.cfg.Now(); now.Sub(slow) >= slowChecks {
			slow = now
			checks = append(checks, check{"dead books", r.CheckDeadBooks}, check{"digests", r.CheckDigests})
		}
		for _, c := range checks {
			more, err := c.do(step)
			if err != nil {
				r.cfg.Logger.ErrorContext(step, c.what, "err", err)
			}
			out = append(out, more...)
		}
		if len(out) > 0 {
			post(step, out)
		}
	}
}

// check is one of the checks RunDeadlines makes.
type check struct {
	what string
	do   func(context.Context) ([]Reply, error)
}

// slowChecks is how often RunDeadlines looks for dead books and digests
// due: each reads the row of every game, and neither is in a hurry.
const slowChecks = 10 * time.Minute
