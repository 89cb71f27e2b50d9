package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// dice it drew and discarded, and its payload.
func Export(ctx context.Context, st Store, guild, channel string, w io.Writer) error {
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(exported{
		Game: exportedGame{ID: info.ID, Guild: info.Guild, Channel: info.Channel, Rules: info.Ruleset,
			Created: info.Created, Ended: info.Ended, Head: info.Head},
		Events: recs,
	})
}
