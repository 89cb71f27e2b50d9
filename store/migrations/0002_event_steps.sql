-- 0002: mark the first event of each command, so that what one command did
-- can be told apart in the log (for /undo and for reading the log).

ALTER TABLE events ADD COLUMN step INTEGER NOT NULL DEFAULT 0 CHECK (step IN (0, 1));
