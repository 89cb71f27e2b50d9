-- 0011: a step writes one tree of calls, not two. A player has at most one
-- open call in a game, his last: calling him again closes the one he had,
-- as answered when the new one is made (the trigger below). So his open
-- call, if any, is found by the calls table's own key, at the end of his
-- run of it, and the open calls of the games not ended are found by one
-- look per player of each (Store.OpenCalls). calls_answer, the index of
-- open calls that every step rewrote (closing one call and opening
-- another), is gone.
--
-- First, the rows are brought to that rule: a call still open that a later
-- call of the same player in the same game followed is closed, as answered
-- when the first of those was made.

UPDATE calls SET acted = (SELECT min(l.called) FROM calls l
		WHERE l.game_id = calls.game_id AND l.player = calls.player AND l.seq > calls.seq)
	WHERE acted = 0 AND EXISTS (SELECT 1 FROM calls l
		WHERE l.game_id = calls.game_id AND l.player = calls.player AND l.seq > calls.seq);

DROP INDEX calls_answer;

CREATE TRIGGER calls_one_open AFTER INSERT ON calls
BEGIN
	UPDATE calls SET acted = NEW.called
		WHERE game_id = NEW.game_id AND player = NEW.player AND acted = 0
		AND seq = (SELECT max(l.seq) FROM calls l WHERE l.game_id = NEW.game_id AND l.player = NEW.player AND l.seq < NEW.seq);
END;
