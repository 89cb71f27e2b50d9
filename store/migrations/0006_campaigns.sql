-- 0006: what keeps books moving over weeks (bot/games.go, bot/reminders.go,
-- bot/away.go): settings of players, books and servers; the calls of
-- players to act, with when they acted; and the reminders sent, each
-- once whichever process sends it.
--
-- A setting's value is the bot's own JSON; subject names what it is for
-- (a player, a book, the server). Times are Unix milliseconds; acted is 0
-- while the call is open.

CREATE TABLE settings (
	guild   TEXT NOT NULL,
	subject TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (guild, subject)
) STRICT;

CREATE TABLE calls (
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
) STRICT;

-- The reminder checker and /games read the open calls.
CREATE INDEX calls_open ON calls (guild) WHERE acted = 0;
-- A step closes the open calls of its players: found without reading the
-- calls they answered before.
CREATE INDEX calls_answer ON calls (game_id, player) WHERE acted = 0;
CREATE INDEX calls_player ON calls (guild, player);

CREATE TABLE reminders (
	game_id INTEGER NOT NULL REFERENCES games (id),
	player  TEXT    NOT NULL,
	seq     INTEGER NOT NULL,
	rung    TEXT    NOT NULL,
	PRIMARY KEY (game_id, player, seq, rung)
) STRICT;

-- Work done once per server across instances (a dead book's report at
-- one step, a week's digest), claimed by name: the first to insert the
-- name does it.
CREATE TABLE claims (
	name    TEXT   PRIMARY KEY,
	claimed INTEGER NOT NULL
) STRICT;
