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

// Absence. /away until: marks a player away in every book of the server:
// turn calls and /games say so to the others, no reminder reaches him,
// and the deadline of every book that waits for him stops: the time he
// had left runs again from his return, at the date or at /back, whichever
// comes first. (No stand-in plays his seat meanwhile by itself: the game
// master may hand it to the bot or a member with /seat hand.)

var (
	awaySpec = engine.CommandSpec{Name: "away", Help: "Say you are away until a date: the others are told, reminders stop, and the deadlines of books that wait for you pause until you are back (no stand-in plays your seat yet).", Flags: engine.Private,
		Options: []engine.OptionSpec{
			{Name: "until", Help: "when you are back: a date (2026-12-24, in your /me zone) or how long (3d, 36h), at most 60 days", Required: true},
			{Name: "note", Help: "a word for the others, shown with your absence"},
		}, Example: `/away until:2026-12-03 note:"at sea"`}
	backSpec = engine.CommandSpec{Name: "back", Help: "Say you are back before the date you gave /away: deadlines run again from now.", Flags: engine.Private}
)

// maxAway bounds an absence.
const maxAway = 60 * 24 * time.Hour

// parseUntil reads when a player is back: a date in loc (the start of that
// day), or a span from now.
func parseUntil(s string, now time.Time, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if d, err := parseSpan(s); err == nil {
		return now.Add(d), nil
	}
	if t, err := time.ParseInLocation("2006-01-02", s, loc); err == nil {
		return t, nil
	}
	return time.Time{}, engine.Refuse("", "until: give the date you are back as YEAR-MONTH-DAY (2026-12-24), or how long you are away in days or hours (3d, 36h).")
}

// awayNote says a player's absence in the words that follow "he is":
// "away until Wed 25 Nov 13:00 UTC (at sea)".
func awayNote(ps playerSettings, loc *time.Location) string {
	s := "away until " + ps.AwayUntil.In(loc).Format("Mon 2 Jan 15:04 MST")
	if ps.AwayNote != "" {
		s += " (" + ps.AwayNote + ")"
	}
	return s
}

// away answers /away.
func (r *Router) away(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	if err := awaySpec.Check(req.Command); err != nil {
		return nil, err
	}
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no absences.")
	}
	ps, err := r.player(ctx, key.guild, req.User)
	if err != nil {
		return nil, err
	}
	now := r.cfg.Now()
	until, err := parseUntil(req.Command.Opt("until"), now, ps.location())
	if err != nil {
		return nil, err
	}
	if !until.After(now) {
		return nil, engine.Refuse("", "until: that is already past; give a date or span to come.")
	}
	if until.Sub(now) > maxAway {
		return nil, engine.Refuse("", "until: an absence lasts at most 60 days; a longer one is for the game master to hand your seats over.")
	}
	from := now
	if ps.away(now) {
		from = ps.AwayUntil // already away: the clocks stopped then stay stopped
	}
	ps.AwayUntil, ps.AwayNote = until, strings.TrimSpace(req.Command.Opt("note"))
	if err := putSetting(ctx, cs, key.guild, playerSubject(req.User), ps); err != nil {
		return nil, err
	}
	n, err := r.shiftDeadlines(ctx, cs, key.guild, req.User, from, until)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("You are %s. No reminder will reach you", awayNote(ps, ps.location()))
	if n > 0 {
		text += fmt.Sprintf(", and the deadlines of %s waiting for you pause until then", plural(n, "book"))
	}
	text += "; /back ends it sooner."
	return []Reply{{User: req.User, Ephemeral: true, Text: text}}, nil
}

// back answers /back.
func (r *Router) back(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no absences.")
	}
	ps, err := r.player(ctx, key.guild, req.User)
	if err != nil {
		return nil, err
	}
	now := r.cfg.Now()
	if !ps.away(now) {
		return nil, engine.Refuse("", "You are not away: /away until: says you are.")
	}
	was := ps.AwayUntil
	ps.AwayUntil, ps.AwayNote = time.Time{}, ""
	if err := putSetting(ctx, cs, key.guild, playerSubject(req.User), ps); err != nil {
		return nil, err
	}
	n, err := r.shiftDeadlines(ctx, cs, key.guild, req.User, was, now)
	if err != nil {
		return nil, err
	}
	text := "Welcome back: reminders reach you again"
	if n > 0 {
		text += fmt.Sprintf(", and the deadlines of %s waiting for you run again from now", plural(n, "book"))
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: text + "."}}, nil
}

// shiftDeadlines moves the running deadline of every book of guild that
// waits for player by to minus from: the time left at from is left at
// to. It returns how many it moved.
func (r *Router) shiftDeadlines(ctx context.Context, cs CallStore, guild string, player engine.PlayerID, from, to time.Time) (int, error) {
	ds, ok := r.deadlineStore()
	if !ok {
		return 0, nil
	}
	calls, err := cs.OpenCalls(ctx, guild)
	if err != nil {
		return 0, err
	}
	seen := map[store.GameID]bool{}
	n := 0
	for _, c := range calls {
		if c.Player != player || seen[c.Game] {
			continue
		}
		seen[c.Game] = true
		d, err := ds.GameDeadline(ctx, c.Game)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return n, err
		}
		if d.Due.IsZero() || !d.Due.After(from) {
			continue
		}
		shift := to.Sub(from)
		d.Due = d.Due.Add(shift)
		if !d.Remind.IsZero() {
			d.Remind = d.Remind.Add(shift)
		}
		if err := ds.PutDeadline(ctx, d); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// clockStart returns when a deadline's clock starts for the players
// awaited: now, or when the last of them who is away comes back.
func (r *Router) clockStart(ctx context.Context, guild string, waiting []engine.Await) time.Time {
	start := r.cfg.Now()
	for _, p := range players(waiting) {
		ps, err := r.player(ctx, guild, p)
		if err != nil {
			r.cfg.Logger.WarnContext(ctx, "player settings not read", "player", p, "err", err)
			continue
		}
		if ps.away(start) && ps.AwayUntil.After(start) {
			start = ps.AwayUntil
		}
	}
	return start
}
