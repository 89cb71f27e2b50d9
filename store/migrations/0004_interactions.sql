-- 0004: each request a transport delivers under an ID of its own (a
-- Discord interaction), so that the same request delivered twice, to one
-- process or two, before a restart or after, is acted on once and
-- answered the same way. taken is Unix milliseconds; answer is what the
-- transport answered, NULL while the request is still in hand.

CREATE TABLE interactions (
	id     TEXT    PRIMARY KEY,
	taken  INTEGER NOT NULL,
	answer BLOB
) STRICT;

-- Old entries are dropped by age.
CREATE INDEX interactions_taken ON interactions (taken);
