package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Reminders. A book's game master (or, for every book of the server, a
// member who may manage it) sets a ladder of reminders: some before the
// deadline ("24h 4h"), and, for a book without a deadline, one every so
// often ("every 12h"). Each rung reminds only the players the book awaits,
// once per call to act (claimed in the store, so of several instances one
// alone sends it), and none reaches a player in his quiet hours or while
// he is away: a rung that falls in them waits for them to end.
// [Router.CheckReminders] does what is due; RunDeadlines calls it.

// ladder is a reminder ladder.
type ladder struct {
	// Before are how long before the deadline each reminder goes, the
	// longest first.
	Before []time.Duration `json:"before,omitempty"`
	// Every is how often a player is reminded in a book without a
	// deadline; 0, never.
	Every time.Duration `json:"every,omitempty"`
}

func (l *ladder) empty() bool { return l == nil || (len(l.Before) == 0 && l.Every == 0) }

// maxRung bounds a rung: four weeks.
const maxRung = 28 * 24 * time.Hour

// parseLadder reads a ladder such as "24h 4h every 12h" or "2d every 1d";
// "off" is the empty ladder.
func parseLadder(s string) (*ladder, error) {
	words := strings.Fields(strings.ToLower(s))
	l := &ladder{}
	bad := engine.Refuse("", "ladder: give the times before the deadline and, for books without one, every how long, in hours or days, like \"24h 4h every 12h\"; or off.")
	if len(words) == 1 && (words[0] == "off" || words[0] == "none") {
		return l, nil
	}
	if len(words) == 0 {
		return nil, bad
	}
	for i := 0; i < len(words); i++ {
		every := words[i] == "every"
		if every {
			i++
			if i == len(words) || l.Every != 0 {
				return nil, bad
			}
		}
		d, err := parseSpan(words[i])
		if err != nil || d > maxRung {
			return nil, bad
		}
		if every {
			l.Every = d
		} else if !slices.Contains(l.Before, d) {
			l.Before = append(l.Before, d)
		}
	}
	slices.SortFunc(l.Before, func(a, b time.Duration) int { return int(b - a) })
	return l, nil
}

// parseSpan reads a whole number of hours (12h) or days (2d).
func parseSpan(w string) (time.Duration, error) {
	unit := time.Hour
	switch {
	case strings.HasSuffix(w, "d"):
		unit = 24 * time.Hour
	case strings.HasSuffix(w, "h"):
	default:
		return 0, fmt.Errorf("no unit")
	}
	n, err := strconv.Atoi(w[:len(w)-1])
	if err != nil || n <= 0 || n > 100_000 {
		// (a bound far above any use, that keeps the product in range)
		return 0, fmt.Errorf("not a count")
	}
	return time.Duration(n) * unit, nil
}

// String writes the ladder as /book reminders reads it.
func (l *ladder) String() string {
	if l.empty() {
		return "off"
	}
	var parts []string
	for _, d := range l.Before {
		parts = append(parts, span(d))
	}
	if l.Every > 0 {
		parts = append(parts, "every "+span(l.Every))
	}
	return strings.Join(parts, " ")
}

func span(d time.Duration) string {
	if d%(24*time.Hour) == 0 && d >= 48*time.Hour {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return fmt.Sprintf("%dh", d/time.Hour)
}

// describe says the ladder in words.
func (l *ladder) describe() string {
	if l.empty() {
		return "no reminders"
	}
	var parts []string
	if len(l.Before) > 0 {
		var bs []string
		for _, d := range l.Before {
			bs = append(bs, lasting(d))
		}
		parts = append(parts, "a reminder "+strings.Join(bs, " and ")+" before the deadline")
	}
	if l.Every > 0 {
		parts = append(parts, "one every "+lasting(l.Every)+" in a book without a deadline")
	}
	return strings.Join(parts, ", and ")
}

// rungs returns the rungs of the ladder due at now for a player called at
// called, in a book whose deadline (zero: none) is due: every rung before
// the deadline whose time has come since the call, and the latest of the
// "every" ones. The last is the one to say.
func (l *ladder) rungs(called, due, now time.Time) []string {
	var out []string
	if !due.IsZero() {
		if !now.Before(due) {
			return nil
		}
		for _, b := range l.Before {
			if at := due.Add(-b); at.After(called) && !at.After(now) {
				out = append(out, "before-"+span(b))
			}
		}
		return out
	}
	if l.Every > 0 {
		if k := int(now.Sub(called) / l.Every); k >= 1 {
			out = append(out, fmt.Sprintf("every-%d", k))
		}
	}
	return out
}

var remindersSpec = engine.CommandSpec{Name: "book reminders", Help: "Set when the players a book awaits are reminded: before its deadline, or every so often without one. Game master only.", Flags: engine.MasterOnly,
	Options: []engine.OptionSpec{
		{Name: "ladder", Help: "times before the deadline and every how long without one, like \"24h 4h every 12h\"; or off", Required: true},
		{Name: "default", Help: "yes: the server's ladder, for every book that sets none (server game masters)", Choices: []string{"yes", "no"}},
	}, Example: `/book reminders ladder:"24h 4h every 12h"`}

// setReminders answers /book reminders.
func (r *Router) setReminders(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	if err := remindersSpec.Check(req.Command); err != nil {
		return nil, err
	}
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no reminders.")
	}
	l, err := parseLadder(req.Command.Opt("ladder"))
	if err != nil {
		return nil, err
	}
	server, err := yesNo(req.Command, "default", false)
	if err != nil {
		return nil, err
	}
	if server {
		if !r.serverMaster(req) {
			return nil, engine.Refuse("", "Only a member who may manage the server, or holds its game-master role, sets the server's reminders.")
		}
		var ss serverSettings
		if err := getSetting(ctx, cs, key.guild, serverSubject, &ss); err != nil {
			return nil, err
		}
		ss.Ladder = l
		if err := putSetting(ctx, cs, key.guild, serverSubject, ss); err != nil {
			return nil, err
		}
		return []Reply{{User: req.User, Text: fmt.Sprintf("Every book of the server that sets no reminders of its own now has %s (%s).", l.describe(), l)}}, nil
	}
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book is open in this channel. Open one with /book open, or give default:yes to set the server's reminders.")
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
	if err := putSetting(ctx, cs, key.guild, bookSubject(info.ID), bookSettings{Ladder: l}); err != nil {
		return nil, err
	}
	return []Reply{{User: req.User, Text: fmt.Sprintf("The game master sets this book's reminders: %s (%s). Each goes once to the players awaited, never in their quiet hours nor while they are away.", l.describe(), l)}}, nil
}

// ladderFor returns the ladder of book id: its own, or else the server's.
func (r *Router) ladderFor(ctx context.Context, cs CallStore, guild string, id store.GameID) (*ladder, error) {
	var bs bookSettings
	if err := getSetting(ctx, cs, guild, bookSubject(id), &bs); err != nil {
		return nil, err
	}
	if bs.Ladder != nil {
		return bs.Ladder, nil
	}
	var ss serverSettings
	if err := getSetting(ctx, cs, guild, serverSubject, &ss); err != nil {
		return nil, err
	}
	return ss.Ladder, nil
}

// CheckReminders sends the reminders due by the router's clock, and
// returns them, each with its Channel set: a ping in the book's channel,
// or a direct message (Ephemeral, to User) for a player who asked for
// one.
func (r *Router) CheckReminders(ctx context.Context) ([]Reply, error) {
	cs, ok := r.callStore()
	if !ok {
		return nil, nil
	}
	now := r.cfg.Now()
	calls, err := cs.OpenCalls(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("bot: open calls: %w", err)
	}
	ladders := map[store.GameID]*ladder{}
	var out []Reply
	var errs []error
	for _, c := range calls {
		rep, err := r.remind(ctx, cs, c, now, ladders)
		if err != nil {
			errs = append(errs, fmt.Errorf("bot: reminder of %s in game %d: %w", c.Player, c.Game, err))
		}
		out = append(out, rep...)
	}
	return out, errors.Join(errs...)
}

func (r *Router) remind(ctx context.Context, cs CallStore, c store.Call, now time.Time, ladders map[store.GameID]*ladder) ([]Reply, error) {
	l, ok := ladders[c.Game]
	if !ok {
		var err error
		if l, err = r.ladderFor(ctx, cs, c.Guild, c.Game); err != nil {
			return nil, err
		}
		ladders[c.Game] = l
	}
	if l.empty() {
		return nil, nil
	}
	var due time.Time
	if ds, ok := r.deadlineStore(); ok {
		d, err := ds.GameDeadline(ctx, c.Game)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		due = d.Due
	}
	// The wait runs from the call, or from his last step if he has
	// acted since and is still awaited (waitingSince); its rungs are
	// claimed under the number of that call or step.
	since, seq, err := waitingSince(ctx, cs, c)
	if err != nil {
		return nil, err
	}
	rungs := l.rungs(since, due, now)
	if len(rungs) == 0 {
		return nil, nil
	}
	ps, err := r.player(ctx, c.Guild, c.Player)
	if err != nil {
		return nil, err
	}
	if ps.away(now) || ps.quiet(now) {
		return nil, nil // the rung waits for him
	}
	claimed := false
	for _, rung := range rungs {
		ok, err := cs.ClaimReminder(ctx, c.Game, c.Player, seq, rung)
		if err != nil {
			return nil, err
		}
		claimed = claimed || ok
	}
	if !claimed {
		return nil, nil
	}
	text := fmt.Sprintf("Reminder: %s, the book in %s has waited for you for %s.", c.Player, r.channelLink(c.Guild, c.Channel), lasting(now.Sub(since)))
	if !due.IsZero() {
		text += fmt.Sprintf(" Your time runs out in %s.", lasting(due.Sub(now).Round(time.Minute)))
	}
	return []Reply{r.callReply(c.Channel, c.Player, ps, text)}, nil
}

// lasting says a span of time in words, to the minute under two hours,
// to the hour under two days, and in days and hours beyond.
func lasting(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "less than a minute"
	case d == time.Hour:
		return "1 hour"
	case d < 2*time.Hour:
		return plural(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return plural(int(d.Round(time.Hour)/time.Hour), "hour")
	}
	d = d.Round(time.Hour) // 3 days and 23.6 hours is 4 days, not "3 days and 24 hours"
	days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	if hours == 0 {
		return plural(days, "day")
	}
	return plural(days, "day") + " and " + plural(hours, "hour")
}

// callReply is a message calling player in channel: a ping there, or a
// direct message when he asked for one.
func (r *Router) callReply(channel string, player engine.PlayerID, ps playerSettings, text string) Reply {
	if ps.Direct {
		return Reply{Channel: channel, User: player, Ephemeral: true, Text: text}
	}
	return Reply{Channel: channel, User: player, Mentions: []engine.PlayerID{player}, Text: text}
}

// channelLink names a channel in a message, as a link where the
// transport makes one (Config.ChannelLink).
func (r *Router) channelLink(guild, channel string) string {
	if r.cfg.ChannelLink != nil {
		return r.cfg.ChannelLink(guild, channel)
	}
	return "#" + channel
}
