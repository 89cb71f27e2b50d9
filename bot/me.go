package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// A player's own settings and figures: /me set chooses his time zone,
// his quiet hours, whether he is called by direct message, and whether
// he hears when the player before him starts; /me stats says how quickly
// he answers and how his books ended.

var (
	meSetSpec = engine.CommandSpec{Name: "me set", Help: "Set how the table calls you: your time zone, quiet hours without reminders, direct messages instead of pings, a word when the player before you starts.", Flags: engine.Private,
		Options: []engine.OptionSpec{
			{Name: "zone", Help: "your time zone: Europe/Paris, America/New_York, UTC+2 …"},
			{Name: "quiet", Help: "hours without reminders, FROM-TO in your zone, like 22-7; or off"},
			{Name: "dm", Help: "yes: call and remind you by direct message rather than a ping in the channel", Choices: []string{"yes", "no"}},
			{Name: "before", Help: "yes: tell you when the player called before you in a book starts his turn", Choices: []string{"yes", "no"}},
		}, Example: "/me set zone:Europe/Paris quiet:22-7 dm:yes"}
	meStatsSpec = engine.CommandSpec{Name: "me stats", Help: "Your figures in this server: how long you take to answer a call (median and 90th percentile), books finished and abandoned.", Flags: engine.Private | engine.Reads}
)

// meSet answers /me set; with no option it says what is set.
func (r *Router) meSet(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no settings.")
	}
	if err := meSetSpec.Check(req.Command); err != nil {
		return nil, err
	}
	ps, err := r.player(ctx, key.guild, req.User)
	if err != nil {
		return nil, err
	}
	c := req.Command
	if c.Has("zone") {
		loc, err := parseZone(c.Opt("zone"))
		if err != nil {
			return nil, engine.Refuse("", "zone: %q is no time zone I know; give a name like Europe/Paris or America/New_York, or UTC+2.", c.Opt("zone"))
		}
		ps.Zone = loc.String()
	}
	if c.Has("quiet") {
		if ps.QuietFrom, ps.QuietTo, err = parseQuiet(c.Opt("quiet")); err != nil {
			return nil, err
		}
	}
	if ps.Direct, err = yesNo(c, "dm", ps.Direct); err != nil {
		return nil, err
	}
	if ps.Before, err = yesNo(c, "before", ps.Before); err != nil {
		return nil, err
	}
	if len(c.Options) > 0 {
		if err := putSetting(ctx, cs, key.guild, playerSubject(req.User), ps); err != nil {
			return nil, err
		}
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: describeSettings(ps, r.cfg.Now())}}, nil
}

// describeSettings says a player's settings back to him.
func describeSettings(ps playerSettings, now time.Time) string {
	loc := ps.location()
	var b strings.Builder
	fmt.Fprintf(&b, "Your time zone is %s (it is %s there).", loc, now.In(loc).Format("Mon 15:04"))
	if ps.QuietFrom != ps.QuietTo {
		fmt.Fprintf(&b, " No reminder reaches you from %d:00 to %d:00.", ps.QuietFrom, ps.QuietTo)
	} else {
		b.WriteString(" You have no quiet hours.")
	}
	if ps.Direct {
		b.WriteString(" You are called by direct message.")
	} else {
		b.WriteString(" You are called by a ping in the book's channel.")
	}
	if ps.Before {
		b.WriteString(" You hear when the player before you starts.")
	}
	if ps.away(now) {
		fmt.Fprintf(&b, " You are %s.", awayNote(ps, loc))
	}
	return b.String()
}

// Stats are a player's figures in a server, from his calls (/me stats,
// and the saga's public page): how many calls he answered, the median and
// 90th percentile of the time he took, and how many of the books that
// called him and have ended he finished and abandoned. A call lasts from
// when a book began to await him to when it stopped (games.go): the time
// he took is how long he kept the book waiting, all the steps he gave
// while it still awaited him included.
type Stats struct {
	Answered            int
	Median, P90         time.Duration
	Finished, Abandoned int
}

type callStats = Stats

// statsOf works out the figures of a player's calls: how long he took to
// answer each call he answered, and of the books that called him and
// have ended, how many he abandoned (his seat was handed to another while
// the book waited for him) and how many he finished (the others).
func statsOf(calls []store.Call, ended func(store.GameID) bool) callStats {
	var waits []time.Duration
	books := map[store.GameID]bool{} // book → abandoned
	for _, c := range calls {
		if !c.Acted.IsZero() && !c.Ended {
			waits = append(waits, c.Acted.Sub(c.Called))
		}
		books[c.Game] = books[c.Game] || c.Unseated
	}
	var s callStats
	for id, abandoned := range books {
		switch {
		case abandoned:
			s.Abandoned++
		case ended(id):
			s.Finished++
		}
	}
	s.Answered = len(waits)
	if len(waits) > 0 {
		slices.Sort(waits)
		s.Median, s.P90 = rank(waits, 50), rank(waits, 90)
	}
	return s
}

// Lasting says a span of time in words, as /me stats does.
func Lasting(d time.Duration) string { return lasting(d) }

// rank is the p-th percentile of sorted, by the nearest rank.
func rank(sorted []time.Duration, p int) time.Duration {
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(i, 0)]
}

// meStats answers /me stats.
func (r *Router) meStats(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no figures.")
	}
	s, err := PlayerStats(ctx, r.cfg.Store, cs, key.guild, req.User)
	if err != nil {
		return nil, err
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: describeStats("You", s)}}, nil
}

// PlayerStats works out player p's figures in guild from the calls cs
// keeps and the games st keeps.
func PlayerStats(ctx context.Context, st Store, cs CallStore, guild string, p engine.PlayerID) (Stats, error) {
	calls, err := cs.PlayerCalls(ctx, guild, p)
	if err != nil {
		return callStats{}, err
	}
	ended := map[store.GameID]bool{}
	for _, c := range calls {
		if _, ok := ended[c.Game]; ok {
			continue
		}
		g, err := st.Game(ctx, c.Game)
		if err != nil {
			return callStats{}, err
		}
		ended[c.Game] = g.Ended
	}
	return statsOf(calls, func(id store.GameID) bool { return ended[id] }), nil
}

// describeStats says a player's figures; who is "You" or his name.
func describeStats(who string, s callStats) string {
	if s.Answered == 0 && s.Finished+s.Abandoned == 0 {
		return who + " have answered no call here yet."
	}
	var b strings.Builder
	if s.Answered > 0 {
		fmt.Fprintf(&b, "%s answered %s: half within %s, nine in ten within %s.", who, plural(s.Answered, "call"), lasting(s.Median), lasting(s.P90))
	}
	fmt.Fprintf(&b, " Books ended: %d finished, %d abandoned.", s.Finished, s.Abandoned)
	return strings.TrimSpace(b.String())
}
