-- 0003: a game's deadline for each turn, so that a player who does not
-- answer in time is stood for, even across restarts of the bot.
--
-- Times here are Unix milliseconds, so that the scheduler's query can
-- compare them; 0 means unset. due is when the player now awaited runs
-- out of time, remind when he is reminded; seq is the step of the game at
-- which the clock was last set, so that a deadline fires only for the
-- position it was set for.

CREATE TABLE deadlines (
	game_id  INTEGER PRIMARY KEY REFERENCES games (id),
	guild    TEXT    NOT NULL,
	channel  TEXT    NOT NULL,
	minutes  INTEGER NOT NULL CHECK (minutes > 0),
	seq      INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0),
	due      INTEGER NOT NULL DEFAULT 0,
	remind   INTEGER NOT NULL DEFAULT 0,
	reminded INTEGER NOT NULL DEFAULT 0 CHECK (reminded IN (0, 1))
) STRICT;

-- The scheduler looks for deadlines whose time has come.
CREATE INDEX deadlines_due ON deadlines (due) WHERE due > 0;
