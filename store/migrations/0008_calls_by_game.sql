-- 0008: one tree fewer written by a step that calls a player. A player's
-- calls across a guild (/me) are found through the guild's games
-- (games_guild_channel) and each game's calls of that player, which the
-- calls table's own key (game_id, player, seq) orders; calls_player,
-- which every new call also wrote, is gone. Rows are as they were.

DROP INDEX calls_player;
