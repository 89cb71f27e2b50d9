package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Settings that keep books moving over weeks, kept in the store as JSON
// under a subject per guild: a player's ("player:ID": time zone, quiet
// hours, how he is called, his absence), a book's ("book:N": its reminder
// ladder) and the server's ("server": the default ladder). Every instance
// reads them from the store, so several agree.

// CallStore is what calls, reminders, absences and the settings behind
// them need of the store; [store.Store] is the implementation. A router
// whose store lacks it keeps none of them.
type CallStore interface {
	PutSetting(ctx context.Context, guild, subject string, value []byte) error
	Setting(ctx context.Context, guild, subject string) ([]byte, error)
	OpenCalls(ctx context.Context, guild string) ([]store.Call, error)
	PlayerCalls(ctx context.Context, guild string, player engine.PlayerID) ([]store.Call, error)
	GameCalls(ctx context.Context, game store.GameID, last int) ([]store.Call, error)
	LastStep(ctx context.Context, game store.GameID, player engine.PlayerID, after engine.Seq) (engine.Seq, time.Time, error)
	ClaimReminder(ctx context.Context, game store.GameID, player engine.PlayerID, seq engine.Seq, rung string) (bool, error)
	Claim(ctx context.Context, name string, now time.Time) (bool, error)
}

var _ CallStore = (*store.Store)(nil)

func (r *Router) callStore() (CallStore, bool) {
	cs, ok := r.cfg.Store.(CallStore)
	return cs, ok
}

// playerSettings are what a player set with /me set and /away.
type playerSettings struct {
	// Zone is a time zone: an IANA name (Europe/Paris) or UTC±H.
	Zone string `json:"zone,omitempty"`
	// QuietFrom and QuietTo are the hours (0-23, in Zone) between which
	// no reminder reaches him; equal, he has no quiet hours.
	QuietFrom int `json:"quiet_from,omitempty"`
	QuietTo   int `json:"quiet_to,omitempty"`
	// Direct says he is called by direct message rather than pinged in
	// the channel.
	Direct bool `json:"direct,omitempty"`
	// Before says he wants a word when the player called before him in a
	// book starts his turn.
	Before bool `json:"before,omitempty"`
	// AwayUntil, when after now, is when he is back; AwayNote what he
	// told the others.
	AwayUntil time.Time `json:"away_until,omitzero"`
	AwayNote  string    `json:"away_note,omitempty"`
}

// bookSettings are what a book's game master set for it.
type bookSettings struct {
	Ladder *ladder `json:"ladder,omitempty"`
}

// serverSettings are what the server's game masters set for every book.
type serverSettings struct {
	Ladder *ladder `json:"ladder,omitempty"`
	// DeadDays is how many days without a step make a book dead; 0,
	// never (dead.go).
	DeadDays int `json:"dead_days,omitempty"`
	// Digest is the channel of the weekly digest, "" for none, and
	// DigestNext when the next goes out (digest.go); DigestSeen is each
	// game's last event the last digest covered.
	Digest     string                `json:"digest,omitempty"`
	DigestNext time.Time             `json:"digest_next,omitzero"`
	DigestSeen map[string]engine.Seq `json:"digest_seen,omitempty"`
}

func playerSubject(p engine.PlayerID) string { return "player:" + string(p) }
func bookSubject(id store.GameID) string     { return fmt.Sprintf("book:%d", id) }

const serverSubject = "server"

// getSetting reads guild's subject into v; an unset one leaves v as it is.
func getSetting(ctx context.Context, cs CallStore, guild, subject string, v any) error {
	b, err := cs.Setting(ctx, guild, subject)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("setting %s of %s: %w", subject, guild, err)
	}
	return nil
}

func putSetting(ctx context.Context, cs CallStore, guild, subject string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return cs.PutSetting(ctx, guild, subject, b)
}

// player returns p's settings in guild; a router without a call store,
// or a player who set nothing, has the zero settings.
func (r *Router) player(ctx context.Context, guild string, p engine.PlayerID) (playerSettings, error) {
	var ps playerSettings
	cs, ok := r.callStore()
	if !ok {
		return ps, nil
	}
	return ps, getSetting(ctx, cs, guild, playerSubject(p), &ps)
}

// away reports whether the player is away at now.
func (ps playerSettings) away(now time.Time) bool { return ps.AwayUntil.After(now) }

// location returns the player's time zone, UTC when he set none.
func (ps playerSettings) location() *time.Location {
	if loc, err := parseZone(ps.Zone); err == nil {
		return loc
	}
	return time.UTC
}

// quiet reports whether now falls in the player's quiet hours.
func (ps playerSettings) quiet(now time.Time) bool {
	if ps.QuietFrom == ps.QuietTo {
		return false
	}
	h := now.In(ps.location()).Hour()
	if ps.QuietFrom < ps.QuietTo {
		return h >= ps.QuietFrom && h < ps.QuietTo
	}
	return h >= ps.QuietFrom || h < ps.QuietTo // over midnight
}

// parseZone reads a time zone: UTC, UTC+2, UTC-5, or an IANA name such as
// Europe/Paris.
func parseZone(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "utc") || strings.EqualFold(s, "gmt") {
		return time.UTC, nil
	}
	up := strings.ToUpper(s)
	for _, p := range []string{"UTC", "GMT"} {
		if rest, ok := strings.CutPrefix(up, p); ok && rest != "" && (rest[0] == '+' || rest[0] == '-') {
			h, err := strconv.Atoi(rest)
			if err != nil || h < -12 || h > 14 {
				return nil, fmt.Errorf("bad offset")
			}
			return time.FixedZone(fmt.Sprintf("UTC%+d", h), h*3600), nil
		}
	}
	if strings.Contains(s, "/") {
		if loc, err := time.LoadLocation(s); err == nil {
			return loc, nil
		}
	}
	return nil, fmt.Errorf("unknown zone")
}

// parseQuiet reads quiet hours as FROM-TO in whole hours (22-7), or off.
func parseQuiet(s string) (from, to int, err error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "off" || s == "none" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(s, "-")
	from, err1 := strconv.Atoi(strings.TrimSpace(a))
	to, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || from < 0 || from > 23 || to < 0 || to > 23 || from == to {
		return 0, 0, engine.Refuse("", "quiet: give two hours from 0 to 23 as FROM-TO, like 22-7 (from ten at night to seven in the morning), or off.")
	}
	return from, to, nil
}

// yesNo reads a yes/no option; def when it is not given.
func yesNo(c engine.Command, name string, def bool) (bool, error) {
	if !c.Has(name) {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(c.Opt(name))) {
	case "yes", "on", "true":
		return true, nil
	case "no", "off", "false":
		return false, nil
	}
	return false, engine.Refuse("", "%s: answer yes or no.", name)
}
