-- 0006 (PostgreSQL, issue 19 point 1): match records, as SQLite's 0006 (read its comments).
CREATE TABLE match_records (
    match_key TEXT    NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    entry     TEXT    NOT NULL,
    PRIMARY KEY (match_key, seq)
);

CREATE INDEX match_players_user ON match_players (user_id, match_id) WHERE user_id IS NOT NULL;
