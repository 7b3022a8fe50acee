-- 0006 (PostgreSQL, issue 19 point 1): match records, as SQLite's 0006 (read its comments).
CREATE TABLE match_records (
    match_key TEXT    NOT NULL,
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    entry     TEXT    NOT NULL,
    PRIMARY KEY (match_key, seq)
);
