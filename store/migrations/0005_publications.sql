-- 0005: the games whose pages are public (a saga, or a single book),
-- each under an address of its own that cannot be guessed. A game is
-- published at most once; withdrawing it deletes its row.

CREATE TABLE publications (
	token   TEXT    PRIMARY KEY,
	guild   TEXT    NOT NULL,
	game_id INTEGER NOT NULL UNIQUE REFERENCES games (id),
	created TEXT    NOT NULL
) STRICT;
