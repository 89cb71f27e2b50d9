-- 0001: games, their event logs, and snapshots of their state.
--
-- Times are UTC text in RFC 3339 form with nanoseconds. JSON columns hold
-- text, so SQLite's json functions can read them.

CREATE TABLE games (
	id      INTEGER PRIMARY KEY,
	guild   TEXT    NOT NULL,
	channel TEXT    NOT NULL,
	ruleset TEXT    NOT NULL,
	head    INTEGER NOT NULL DEFAULT 0 CHECK (head >= 0),
	ended   INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
	created TEXT    NOT NULL
) STRICT;

-- A channel has at most one game that has not ended.
CREATE UNIQUE INDEX games_active_channel ON games (guild, channel) WHERE ended = 0;

-- LatestGame and Games look games up by guild and channel, newest first.
CREATE INDEX games_guild_channel ON games (guild, channel, id);

CREATE TABLE events (
	game_id     INTEGER NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	kind        TEXT    NOT NULL CHECK (kind <> ''),
	actor       TEXT    NOT NULL DEFAULT '',
	draws       TEXT    CHECK (draws IS NULL OR json_valid(draws)),
	discards    TEXT    CHECK (discards IS NULL OR json_valid(discards)),
	payload     TEXT    NOT NULL CHECK (json_valid(payload)),
	recorded_at TEXT    NOT NULL,
	PRIMARY KEY (game_id, seq)
) STRICT;

CREATE TABLE snapshots (
	game_id INTEGER NOT NULL REFERENCES games (id),
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	version TEXT    NOT NULL,
	data    BLOB    NOT NULL,
	created TEXT    NOT NULL,
	PRIMARY KEY (game_id, seq, version)
) STRICT;
