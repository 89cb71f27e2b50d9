-- 0010: a step writes no row of the games table. A game's head, the
-- number of its last event, is read from its log (the events table's key
-- finds it in one look), instead of being kept in the game's row, which
-- every step rewrote: a page more for each commit to write and sync. What
-- the head's update checked, the append now checks otherwise (Store.Append):
-- the events table's key refuses a number taken twice, and a number past
-- the head is never written, since an append takes the short way only
-- after a head its store has seen, and heads only grow; the game's row is
-- checked, not written, for its end and its deadline. Only a step that
-- ends its game writes its row, to set ended.

ALTER TABLE games DROP COLUMN head;
