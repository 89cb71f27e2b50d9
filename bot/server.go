package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
)

// The server's own settings, for its game masters (members who may
// manage the server, or hold the game-master role): after how many days
// without a step a book is reported dead (dead.go), and the channel of the
// weekly digest (digest.go). The default reminder ladder is set with
// /book reminders default:yes.

var serverSetSpec = engine.CommandSpec{Name: "server set", Help: "The server's settings for long games: after how many idle days a book is reported to its game master, and where the weekly digest goes. Server game masters.",
	Options: []engine.OptionSpec{
		{Name: "dead", Help: "days without a step before a book is reported to its game master, 1 to 90; 0 never", Kind: engine.OptInt},
		{Name: "digest", Help: "the channel of the weekly digest; off stops it", Kind: engine.OptChannel},
	}, Example: "/server set dead:14 digest:#news"}

// maxDeadDays bounds /server set dead:.
const maxDeadDays = 90

// digestEvery is how often the digest goes out.
const digestEvery = 7 * 24 * time.Hour

// serverSet answers /server set; with no option it says what is set.
func (r *Router) serverSet(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if r.cfg.ReadOnly {
		return nil, errReadOnly
	}
	cs, ok := r.callStore()
	if !ok {
		return nil, engine.Refuse("", "This table keeps no settings.")
	}
	if err := serverSetSpec.Check(req.Command); err != nil {
		return nil, err
	}
	if !r.serverMaster(req) {
		return nil, engine.Refuse("", "Only a member who may manage the server, or holds its game-master role, changes the server's settings.")
	}
	var ss serverSettings
	if err := getSetting(ctx, cs, key.guild, serverSubject, &ss); err != nil {
		return nil, err
	}
	c := req.Command
	if c.Has("dead") {
		n, err := c.Int("dead", 0)
		if err != nil || n < 0 || n > maxDeadDays {
			return nil, engine.Refuse("", "dead: give a number of days from 1 to %d, or 0 never to report idle books.", maxDeadDays)
		}
		ss.DeadDays = n
	}
	if c.Has("digest") {
		ch := strings.TrimPrefix(strings.TrimSpace(c.Opt("digest")), "#")
		switch {
		case ch == "":
			return nil, engine.Refuse("", "digest: name a channel, or off.")
		case strings.EqualFold(ch, "off"):
			ss.Digest, ss.DigestNext = "", time.Time{}
		default:
			ss.Digest = ch
			ss.DigestNext = r.cfg.Now().Add(digestEvery)
			// The first digest tells the week from now on.
			heads, err := r.heads(ctx, key.guild)
			if err != nil {
				return nil, err
			}
			ss.DigestSeen = heads
		}
	}
	if len(c.Options) > 0 {
		if err := putSetting(ctx, cs, key.guild, serverSubject, ss); err != nil {
			return nil, err
		}
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: r.describeServer(key.guild, ss)}}, nil
}

func (r *Router) describeServer(guild string, ss serverSettings) string {
	var b strings.Builder
	if ss.DeadDays > 0 {
		fmt.Fprintf(&b, "A book with no step for %s is reported to its game master.", plural(ss.DeadDays, "day"))
	} else {
		b.WriteString("Idle books are not reported.")
	}
	if ss.Digest != "" {
		fmt.Fprintf(&b, " The weekly digest goes to %s; the next on %s.", r.channelLink(guild, ss.Digest), ss.DigestNext.UTC().Format("Mon 2 Jan 15:04 MST"))
	} else {
		b.WriteString(" There is no weekly digest.")
	}
	fmt.Fprintf(&b, " Reminders by default: %s.", ss.Ladder.describe())
	return b.String()
}
