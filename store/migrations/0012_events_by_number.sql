-- 0012: a step's records go at the end of one tree, in the fewest pages.
-- The events table keeps its rows by a number of their own, key, which is
-- the game's number times 2^32 plus the record's: each game's records are
-- still together and in order, found by a range of key, and a record's
-- number is still taken once (the key is the table's own). But the tree is
-- now a table's, keyed by an integer, rather than an index's keyed by two
-- columns (0007): SQLite puts a row that comes last in a page of its own
-- rather than splitting its page in two, reads an integer key without
-- decoding a record, and keeps rows of up to some 4,000 bytes in their
-- page where an index's spilled those over some 1,000 into pages of their
-- own. Columns, checks and rows are as they were.

CREATE TABLE events_numbered (
	key         INTEGER PRIMARY KEY CHECK (key = game_id * 4294967296 + seq),
	game_id     INTEGER NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 1 AND seq < 4294967296),
	kind        TEXT    NOT NULL CHECK (kind <> ''),
	actor       TEXT    NOT NULL DEFAULT '',
	draws       TEXT,
	discards    TEXT,
	payload     TEXT    NOT NULL,
	recorded_at TEXT    NOT NULL,
	step        INTEGER NOT NULL DEFAULT 0 CHECK (step IN (0, 1))
) STRICT;

INSERT INTO events_numbered (key, game_id, seq, kind, actor, draws, discards, payload, recorded_at, step)
	SELECT game_id * 4294967296 + seq, game_id, seq, kind, actor, draws, discards, payload, recorded_at, step FROM events ORDER BY game_id, seq;
DROP TABLE events;
ALTER TABLE events_numbered RENAME TO events;
