package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// exported is a game's whole log as `rhapsode export` writes it.
type exported struct {
	Game   exportedGame    `json:"game"`
	Events []engine.Record `json:"events"`
}

type exportedGame struct {
	ID      store.GameID `json:"id"`
	Guild   string       `json:"guild"`
	Channel string       `json:"channel"`
	Rules   string       `json:"rules"`
	Created time.Time    `json:"created"`
	Ended   bool         `json:"ended"`
	Head    engine.Seq   `json:"head"`
}

// ExportOptions chooses what [Export] writes.
type ExportOptions struct {
	// Game is the game to export, which must be played in the channel;
	// zero, the channel's newest.
	Game store.GameID
}

// Export writes the whole event log of one game of the channel, its newest
// unless opt names another, as JSON:
// every event with its sequence number, kind, acting player, the cards and
// dice it drew and discarded, and its payload. A secret still sealed (an
// [engine.Sealed] body no later event reveals) is written in its public
// form, so that an export shows no player what another chose in secret.
// rulesets are the rule systems that can read the game's events (their
// campaigns' too). Every key is written in snake_case, and the seed, and
// any whole number too large for a JavaScript number, as a string.
func Export(ctx context.Context, st Store, rulesets []engine.Ruleset, guild, channel string, opt ExportOptions, w io.Writer) error {
	var info store.Game
	var err error
	if opt.Game != 0 {
		info, err = st.Game(ctx, opt.Game)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("there is no game %d in this database; rhapsode export --list shows the channel's games", opt.Game)
		}
		if err == nil && (info.Guild != guild || info.Channel != channel) {
			return fmt.Errorf("export: game %d is played in %s/%s, not %s/%s", opt.Game, info.Guild, info.Channel, guild, channel)
		}
	} else {
		info, err = st.LatestGame(ctx, guild, channel)
		if errors.Is(err, store.ErrNotFound) {
			return noGame(ctx, st, guild, channel)
		}
	}
	if err != nil {
		return fmt.Errorf("export %s/%s: %w", guild, channel, err)
	}
	recs, err := st.Events(ctx, info.ID, 0, 0)
	if err != nil {
		return fmt.Errorf("export game %d: %w", info.ID, err)
	}
	if recs == nil {
		recs = []engine.Record{}
	}
	known := slices.Clone(rulesets)
	for _, rs := range rulesets {
		if cr, ok := rs.(engine.Campaigner); ok {
			known = append(known, cr.Campaign())
		}
	}
	i := slices.IndexFunc(known, func(rs engine.Ruleset) bool { return rs.ID() == info.Ruleset })
	if i < 0 {
		// Without its rules no one can tell what in the log is secret.
		return fmt.Errorf("export game %d: it is played by %q, which this bot does not know", info.ID, info.Ruleset)
	}
	if recs, err = engine.Redact(known[i], recs); err != nil {
		return fmt.Errorf("export game %d: %w", info.ID, err)
	}
	raw, err := json.Marshal(exported{
		Game: exportedGame{ID: info.ID, Guild: info.Guild, Channel: info.Channel, Rules: info.Ruleset,
			Created: info.Created, Ended: info.Ended, Head: info.Head},
		Events: recs,
	})
	if err != nil {
		return fmt.Errorf("export game %d: %w", info.ID, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("export game %d: %w", info.ID, err)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(portable(doc, ""))
}

// ExportList writes one line for each game played in the channel, oldest
// first: what `rhapsode export --game` takes.
func ExportList(ctx context.Context, st Store, guild, channel string, w io.Writer) error {
	games, err := st.Games(ctx, guild)
	if err != nil {
		return fmt.Errorf("export %s/%s: %w", guild, channel, err)
	}
	n := 0
	for _, g := range games {
		if g.Channel != channel {
			continue
		}
		n++
		state := "open"
		if g.Ended {
			state = "ended"
		}
		fmt.Fprintf(w, "game %d: %s, begun %s, %d events, %s\n", g.ID, g.Ruleset, g.Created.UTC().Format("2006-01-02 15:04"), g.Head, state)
	}
	if n == 0 {
		return noGame(ctx, st, guild, channel)
	}
	return nil
}

// noGame says that channel has no game yet, and which channels of the
// guild have one, to name with --channel.
func noGame(ctx context.Context, st Store, guild, channel string) error {
	games, err := st.Games(ctx, guild)
	if err != nil {
		return fmt.Errorf("export %s/%s: %w", guild, channel, err)
	}
	var others []string
	for _, g := range games {
		if !slices.Contains(others, g.Channel) {
			others = append(others, g.Channel)
		}
	}
	if len(others) == 0 {
		return fmt.Errorf("there is no game yet in channel %s, nor in any other channel of this database: a game begins with /book open", channel)
	}
	slices.Sort(others)
	return fmt.Errorf("there is no game yet in channel %s; the channels with games are %s (name one with --channel)", channel, strings.Join(others, ", "))
}

// maxSafe is the largest whole number a JavaScript number holds exactly.
const maxSafe = 1<<53 - 1

// portable rewrites a decoded JSON document for readers in any language:
// keys in snake_case ("Center" becomes "center"), and the seed and any
// whole number beyond maxSafe as strings. key is the key v stands under.
func portable(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			k = snake(k)
			out[k] = portable(val, k)
		}
		return out
	case []any:
		for i := range x {
			x[i] = portable(x[i], key)
		}
		return x
	case json.Number:
		if key == "seed" {
			return x.String()
		}
		if n, err := x.Int64(); err == nil && (n > maxSafe || n < -maxSafe) {
			return x.String()
		}
		if _, err := x.Int64(); err != nil && !strings.ContainsAny(x.String(), ".eE") {
			return x.String() // a whole number beyond int64
		}
		return x
	}
	return v
}

// snake writes a key in snake_case: "FrontCenter" is "front_center",
// "X" is "x"; a key already in snake_case is kept.
func snake(k string) string {
	var b strings.Builder
	for i, r := range k {
		if unicode.IsUpper(r) {
			if i > 0 && !unicode.IsUpper(rune(k[i-1])) && k[i-1] != '_' {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
