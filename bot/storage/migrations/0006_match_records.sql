-- 0006 (issue 19 point 1): match records. Every match started from this version on keeps what replays it exactly:
-- entry 0 its start (mode, seed, options, seats), then one entry per change of the game (an action applied, a seat
-- removed), numbered by the game's step, each appended in the transaction that commits that change (the live
-- snapshot's save, or the match's result). Append-only: an entry is never changed or deleted. The entries are the
-- adapter's JSON (bot/adapter/records.py), stored as text. A match recorded before has none and keeps its summary.
CREATE TABLE match_records (
    match_key TEXT    NOT NULL,  -- matches.match_key once the match is recorded
    seq       INTEGER NOT NULL CHECK (seq >= 0),
    entry     TEXT    NOT NULL,
    PRIMARY KEY (match_key, seq)
) WITHOUT ROWID;

-- A player's matches, newest first (/uno history, issue 19 point 2): one range of this index per page.
CREATE INDEX match_players_user ON match_players (user_id, match_id) WHERE user_id IS NOT NULL;
