package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

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

// Export writes the whole event log of the channel's newest game as JSON:
// every event with its sequence number, kind, acting player, the cards and
// dice it drew and discarded, and its payload. A secret still sealed (an
// [engine.Sealed] body no later event reveals) is written in its public
// form, so that an export shows no player what another chose in secret.
// rulesets are the rule systems that can read the game's events (their
// campaigns' too).
func Export(ctx context.Context, st Store, rulesets []engine.Ruleset, guild, channel string, w io.Writer) error {
	info, err := st.LatestGame(ctx, guild, channel)
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(exported{
		Game: exportedGame{ID: info.ID, Guild: info.Guild, Channel: info.Channel, Rules: info.Ruleset,
			Created: info.Created, Ended: info.Ended, Head: info.Head},
		Events: recs,
	})
}
