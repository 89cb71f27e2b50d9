-- 0003: what keeps books moving over weeks (bot/games.go, bot/reminders.go,
-- bot/away.go): settings of players, books and servers; the calls of
-- players to act, with when they acted; and the reminders sent, each
-- once whichever process sends it. As store/migrations/0006_campaigns.sql.

CREATE TABLE settings (
	guild   TEXT NOT NULL,
	subject TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (guild, subject)
);

CREATE TABLE calls (
	game_id BIGINT NOT NULL REFERENCES games (id),
	guild   TEXT   NOT NULL,
	channel TEXT   NOT NULL,
	player  TEXT   NOT NULL,
	seq     BIGINT NOT NULL CHECK (seq >= 0),
	called  BIGINT NOT NULL,
	acted   BIGINT NOT NULL DEFAULT 0,
	ended    BOOLEAN NOT NULL DEFAULT false,
	unseated BOOLEAN NOT NULL DEFAULT false,
	PRIMARY KEY (game_id, player, seq)
);

CREATE INDEX calls_open ON calls (guild) WHERE acted = 0;
-- A step closes the open calls of its players: found without reading the
-- calls they answered before.
CREATE INDEX calls_answer ON calls (game_id, player) WHERE acted = 0;
CREATE INDEX calls_player ON calls (guild, player);

CREATE TABLE reminders (
	game_id BIGINT NOT NULL REFERENCES games (id),
	player  TEXT   NOT NULL,
	seq     BIGINT NOT NULL,
	rung    TEXT   NOT NULL,
	PRIMARY KEY (game_id, player, seq, rung)
);

-- Work done once per server across instances (a dead book's report at
-- one step, a week's digest), claimed by name: the first to insert the
-- name does it.
CREATE TABLE claims (
	name    TEXT   PRIMARY KEY,
	claimed BIGINT NOT NULL
);
