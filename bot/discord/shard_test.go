package discord

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestShardOf holds the owner of a guild to Discord's formula, (guild ID
// >> 22) mod the number of shards, with what comes from no guild on
// shard 0.
func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		guild        string
		count, owner int
	}{
		{"", 4, 0},
		{"600000000000000001", 1, 0},
		{fmt.Sprint(uint64(5) << 22), 4, 1},
		{fmt.Sprint(uint64(5)<<22 | 0x3FFFFF), 4, 1}, // the low 22 bits do not count
		{fmt.Sprint(uint64(7) << 22), 8, 7},
		{"197038439483310086", 2, int((uint64(197038439483310086) >> 22) % 2)},
		{"not a snowflake", 4, 0},
	} {
		if got := ShardOf(c.guild, c.count); got != c.owner {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", c.guild, c.count, got, c.owner)
		}
	}
	// Every guild has exactly one owner among the shards.
	for i := range uint64(200) {
		g := fmt.Sprint(i<<22 | i)
		owners := 0
		for id := range 3 {
			if (Shard{ID: id, Count: 3}).Owns(g) {
				owners++
			}
		}
		if owners != 1 {
			t.Fatalf("guild %s has %d owners among 3 shards", g, owners)
		}
	}
}

// TestParseShard reads --shard and --shards, asking Discord for the
// recommended count with auto, and has the session identify as the shard.
func TestParseShard(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v10/gateway/bot" || r.Header.Get("Authorization") != "Bot test-token" {
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		fmt.Fprint(w, `{"url":"wss://gateway.discord.gg","shards":3,"session_start_limit":{"total":1000,"remaining":999,"reset_after":0,"max_concurrency":1}}`)
	}))
	defer srv.Close()
	saved := discordgo.EndpointGatewayBot
	discordgo.EndpointGatewayBot = srv.URL + "/api/v10/gateway/bot"
	defer func() { discordgo.EndpointGatewayBot = saved }()
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id    int
		count string
		want  Shard
		err   string
	}{
		{0, "1", Shard{0, 1}, ""},
		{1, "2", Shard{1, 2}, ""},
		{2, "auto", Shard{2, 3}, ""},
		{3, "auto", Shard{}, "not one of the 3 shards"},
		{2, "2", Shard{}, "not one of the 2 shards"},
		{-1, "2", Shard{}, "not one of"},
		{0, "0", Shard{}, "--shards takes"},
		{0, "many", Shard{}, "--shards takes"},
	} {
		got, err := ParseShard(s, c.id, c.count)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseShard(%d, %q) = %v, %v; want an error saying %q", c.id, c.count, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseShard(%d, %q) = %v, %v; want %v", c.id, c.count, got, err, c.want)
		}
	}
}
