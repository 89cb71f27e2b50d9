-- 0007: fewer trees written by a step. A step appends events and records
-- calls in every commit, and each tree (table or index) it touches is a
-- page more for the commit to write and sync. The events and calls tables
-- keep their rows in their primary keys' own trees (WITHOUT ROWID) rather
-- than in a table beside a unique index on that key; their rows are small
-- (a step's event is a few hundred bytes), which is what such tables
-- suit. And the open calls of a guild are found through the index of
-- open calls by game and player (calls_answer), read whole and filtered:
-- a call is open only while its player is awaited, so there are few, and
-- calls_open, which each step also rewrote, is gone. Columns, rows and
-- checks are as they were.

CREATE TABLE events_keyed (
	game_id     INTEGER NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	kind        TEXT    NOT NULL CHECK (kind <> ''),
	actor       TEXT    NOT NULL DEFAULT '',
	draws       TEXT    CHECK (draws IS NULL OR json_valid(draws)),
	discards    TEXT    CHECK (discards IS NULL OR json_valid(discards)),
	payload     TEXT    NOT NULL CHECK (json_valid(payload)),
	recorded_at TEXT    NOT NULL,
	step        INTEGER NOT NULL DEFAULT 0 CHECK (step IN (0, 1)),
	PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

INSERT INTO events_keyed (game_id, seq, kind, actor, draws, discards, payload, recorded_at, step)
	SELECT game_id, seq, kind, actor, draws, discards, payload, recorded_at, step FROM events;
DROP TABLE events;
ALTER TABLE events_keyed RENAME TO events;

CREATE TABLE calls_keyed (
	game_id INTEGER NOT NULL REFERENCES games (id),
	guild   TEXT    NOT NULL,
	channel TEXT    NOT NULL,
	player  TEXT    NOT NULL,
	seq     INTEGER NOT NULL CHECK (seq >= 0),
	called  INTEGER NOT NULL,
	acted   INTEGER NOT NULL DEFAULT 0,
	-- ended is 1 when the call was closed without the player acting: the
	-- book ended, or (unseated 1 too) his seat was handed to another.
	ended    INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
	unseated INTEGER NOT NULL DEFAULT 0 CHECK (unseated IN (0, 1)),
	PRIMARY KEY (game_id, player, seq)
) STRICT, WITHOUT ROWID;

INSERT INTO calls_keyed (game_id, guild, channel, player, seq, called, acted, ended, unseated)
	SELECT game_id, guild, channel, player, seq, called, acted, ended, unseated FROM calls;
DROP TABLE calls;
ALTER TABLE calls_keyed RENAME TO calls;

CREATE INDEX calls_answer ON calls (game_id, player) WHERE acted = 0;
CREATE INDEX calls_player ON calls (guild, player);
