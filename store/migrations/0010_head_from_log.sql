-- 0010: a step writes no row of the games table. A game's head, the
-- number of its last event, is read from its log (the events table's key
-- finds it in one look), instead of being kept in the game's row, which
-- every step rewrote: a page more for each commit to write and sync. What
-- the head's update checked, the append now checks otherwise: the game's
-- row is read (not written) by the insert itself, that the game has not
-- ended; the events table's key refuses a number taken twice; and the
-- trigger below refuses a number that does not follow the one before it,
-- so that a game's events are always numbered 1, 2, 3 ... without gaps,
-- as the head's check kept them. Only a step that ends its game writes its
-- row, to set ended.

ALTER TABLE games DROP COLUMN head;

CREATE TRIGGER events_numbered_in_order BEFORE INSERT ON events
	WHEN NEW.seq > 1 AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = NEW.game_id AND seq = NEW.seq - 1)
BEGIN
	SELECT RAISE(ABORT, 'an event numbered past the end of its game''s log');
END;
