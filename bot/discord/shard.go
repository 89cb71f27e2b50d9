package discord

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// A bot that many servers use shares Discord's gateway among several
// processes, each holding one shard of its connection: Discord sends each
// guild's events, interactions among them, to the shard that owns the
// guild, (guild ID >> 22) mod the number of shards, and what comes from
// no guild to shard 0. Every process answers through the same database,
// so the shards need not know of each other.

// Shard is which part of the gateway one process holds.
type Shard struct {
	ID, Count int
}

// Owns reports whether the shard receives the events of guildID ("" for
// none, as in a direct message).
func (sh Shard) Owns(guildID string) bool {
	return ShardOf(guildID, sh.Count) == sh.ID
}

// ShardOf is the shard that owns guildID among count shards.
func ShardOf(guildID string, count int) int {
	if count <= 1 || guildID == "" {
		return 0
	}
	id, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil {
		return 0
	}
	return int((id >> 22) % uint64(count))
}

// ParseShard reads --shard ID and --shards N|auto. With auto the count is
// the one Discord recommends for the bot, asked of s.
func ParseShard(s *discordgo.Session, id int, count string) (Shard, error) {
	var n int
	switch strings.TrimSpace(count) {
	case "auto":
		gb, err := s.GatewayBot()
		if err != nil {
			return Shard{}, fmt.Errorf("discord: ask for the recommended number of shards: %w", err)
		}
		n = max(gb.Shards, 1)
	default:
		v, err := strconv.Atoi(count)
		if err != nil || v < 1 {
			return Shard{}, fmt.Errorf("--shards takes a number of shards (1 or more) or auto, not %q", count)
		}
		n = v
	}
	if id < 0 || id >= n {
		return Shard{}, fmt.Errorf("--shard %d is not one of the %d shards (0 to %d)", id, n, n-1)
	}
	return Shard{ID: id, Count: n}, nil
}
