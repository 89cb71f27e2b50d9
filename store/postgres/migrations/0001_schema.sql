-- 0001: the whole schema as the SQLite store has it after its four
-- migrations: games, their event logs, snapshots, deadlines and
-- interactions. Times of games, events and snapshots are timestamptz;
-- deadlines and interactions keep Unix milliseconds (0 = unset), as the
-- scheduler compares them.

CREATE TABLE games (
	id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	guild   TEXT        NOT NULL,
	channel TEXT        NOT NULL,
	ruleset TEXT        NOT NULL,
	head    BIGINT      NOT NULL DEFAULT 0 CHECK (head >= 0),
	ended   BOOLEAN     NOT NULL DEFAULT false,
	created TIMESTAMPTZ NOT NULL
);

-- A channel has at most one game that has not ended.
CREATE UNIQUE INDEX games_active_channel ON games (guild, channel) WHERE NOT ended;
CREATE INDEX games_guild_channel ON games (guild, channel, id);

CREATE TABLE events (
	game_id     BIGINT      NOT NULL REFERENCES games (id),
	seq         BIGINT      NOT NULL CHECK (seq >= 1),
	kind        TEXT        NOT NULL CHECK (kind <> ''),
	actor       TEXT        NOT NULL DEFAULT '',
	step        BOOLEAN     NOT NULL DEFAULT false,
	draws       TEXT,
	discards    TEXT,
	payload     TEXT        NOT NULL,
	recorded_at TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game_id, seq)
);

CREATE TABLE snapshots (
	game_id BIGINT      NOT NULL REFERENCES games (id),
	seq     BIGINT      NOT NULL CHECK (seq >= 0),
	version TEXT        NOT NULL,
	data    BYTEA       NOT NULL,
	created TIMESTAMPTZ NOT NULL,
	PRIMARY KEY (game_id, seq, version)
);

CREATE TABLE deadlines (
	game_id  BIGINT  PRIMARY KEY REFERENCES games (id),
	guild    TEXT    NOT NULL,
	channel  TEXT    NOT NULL,
	minutes  BIGINT  NOT NULL CHECK (minutes > 0),
	seq      BIGINT  NOT NULL DEFAULT 0 CHECK (seq >= 0),
	due      BIGINT  NOT NULL DEFAULT 0,
	remind   BIGINT  NOT NULL DEFAULT 0,
	reminded BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX deadlines_due ON deadlines (due) WHERE due > 0;

CREATE TABLE interactions (
	id     TEXT   PRIMARY KEY,
	taken  BIGINT NOT NULL,
	answer BYTEA
);
CREATE INDEX interactions_taken ON interactions (taken);
