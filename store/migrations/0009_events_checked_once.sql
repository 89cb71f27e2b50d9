-- 0009: a step's events have their JSON checked once. The store checks
-- every payload and writes every list of draws itself before it opens a
-- transaction (EncodeRows), for each way events are written (a step, a
-- new game, an imported one); the json_valid checks of the events table
-- parsed the same text again on every insert, a good part of what a
-- step's insert costs. The other checks stay. Columns, rows, key and
-- order are as they were.

CREATE TABLE events_once (
	game_id     INTEGER NOT NULL REFERENCES games (id),
	seq         INTEGER NOT NULL CHECK (seq >= 1),
	kind        TEXT    NOT NULL CHECK (kind <> ''),
	actor       TEXT    NOT NULL DEFAULT '',
	draws       TEXT,
	discards    TEXT,
	payload     TEXT    NOT NULL,
	recorded_at TEXT    NOT NULL,
	step        INTEGER NOT NULL DEFAULT 0 CHECK (step IN (0, 1)),
	PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

INSERT INTO events_once (game_id, seq, kind, actor, draws, discards, payload, recorded_at, step)
	SELECT game_id, seq, kind, actor, draws, discards, payload, recorded_at, step FROM events;
DROP TABLE events;
ALTER TABLE events_once RENAME TO events;
