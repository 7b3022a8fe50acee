-- 0001: settings, live games, finished matches, per-player leaderboard totals.
-- Ids are Discord snowflakes; times are Unix seconds (REAL); booleans are 0/1.

-- One row per server that changed a setting; a missing row means all defaults. Values are checked when read (a bad
-- value falls back to its default), so the columns carry no CHECK constraints.
CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    default_mode TEXT,
    turn_timer   INTEGER,
    language     TEXT,      -- NULL = each user's Discord locale
    text_only    INTEGER
);

-- The game running in a channel (or thread): the adapter's snapshot as JSON text, replaced after every action.
CREATE TABLE live_games (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    mode       TEXT    NOT NULL,
    status     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    snapshot   TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);

-- Live-game rows that could not be loaded, set aside as they were (untyped columns: they may hold anything).
CREATE TABLE quarantined_games (
    id             INTEGER PRIMARY KEY,
    channel_id,
    guild_id,
    mode,
    status,
    version,
    snapshot,
    updated_at,
    reason         TEXT NOT NULL,
    quarantined_at REAL NOT NULL
);

CREATE TABLE matches (
    id            INTEGER PRIMARY KEY,
    match_key     TEXT    NOT NULL UNIQUE,
    mode          TEXT    NOT NULL CHECK (mode IN ('classic', 'flip', 'flex')),
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('completed', 'abandoned')),
    target_score  INTEGER NOT NULL CHECK (target_score >= 0),
    rounds_played INTEGER NOT NULL CHECK (rounds_played >= 0),
    winner_seat   INTEGER,  -- NULL when abandoned
    started_at    REAL    NOT NULL,
    ended_at      REAL    NOT NULL,
    CHECK ((status = 'completed') = (winner_seat IS NOT NULL))
);

CREATE TABLE match_players (
    match_id      INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER,  -- NULL for an AI seat
    display_name  TEXT    NOT NULL,
    is_ai         INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    final_score   INTEGER NOT NULL CHECK (final_score >= 0),
    placement     INTEGER NOT NULL CHECK (placement >= 1),
    rounds_won    INTEGER NOT NULL CHECK (rounds_won >= 0),
    points_scored INTEGER NOT NULL CHECK (points_scored >= 0),
    PRIMARY KEY (match_id, seat),
    CHECK ((is_ai = 1) = (user_id IS NULL))
) WITHOUT ROWID;
CREATE UNIQUE INDEX match_players_one_seat_per_user ON match_players (match_id, user_id) WHERE user_id IS NOT NULL;

CREATE TABLE match_rounds (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    winner_seat INTEGER NOT NULL,
    points      INTEGER NOT NULL CHECK (points >= 0),
    PRIMARY KEY (match_id, number)
) WITHOUT ROWID;

-- Leaderboard totals, kept up to date in the transaction that records a match and recomputable from the three tables
-- above (Store.rebuild_aggregates). Four rows per human player and match: scope guild_id = the server or 0 (all
-- servers) x mode = the mode or '*' (all modes). Humans only: AI seats never get a row.
CREATE TABLE player_totals (
    guild_id      INTEGER NOT NULL,  -- 0 = all servers
    mode          TEXT    NOT NULL,  -- '*' = all modes
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,  -- from last_match_id
    last_match_id INTEGER NOT NULL,  -- the most recently recorded match of this scope
    wins          INTEGER NOT NULL,  -- completed matches won
    played        INTEGER NOT NULL,  -- completed matches played
    abandoned     INTEGER NOT NULL,  -- abandoned matches played
    rounds_won    INTEGER NOT NULL,  -- in all finished matches
    points        INTEGER NOT NULL,  -- in all finished matches
    win_rate      REAL    NOT NULL,  -- wins * 1.0 / played, 0.0 when played = 0
    PRIMARY KEY (guild_id, mode, user_id)
) WITHOUT ROWID;

-- The leaderboard order (bot.storage.RANK_ORDER): top-N reads the first N entries of one (guild_id, mode) range. Only
-- players with a completed match are ranked; the others (played = 0) sort last and the queries skip them.
CREATE INDEX player_totals_rank ON player_totals (guild_id, mode, wins DESC, win_rate DESC, played DESC, user_id);

-- Ranks without counting thousands of index entries: how many ranked players each scope has per number of wins, per
-- (wins, played) and per (wins, played, user-id bucket). In RANK_ORDER, equal wins > 0 order by played ascending (the
-- win rate wins/played falls as played grows), equal wins = 0 by played descending (the rates are all 0), and then by
-- user id, so a player's rank is 1 + the sum of a few rows of each table + a count of the players of their own bucket
-- (bucket = user_id >> 52: about 12 days of Discord account creation). Kept by the triggers below, which run in the
-- transaction that changes player_totals; empty cells are deleted.
CREATE TABLE rank_by_wins (
    guild_id INTEGER NOT NULL,
    mode     TEXT    NOT NULL,
    wins     INTEGER NOT NULL,
    players  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, mode, wins)
) WITHOUT ROWID;

CREATE TABLE rank_by_played (
    guild_id INTEGER NOT NULL,
    mode     TEXT    NOT NULL,
    wins     INTEGER NOT NULL,
    played   INTEGER NOT NULL,
    players  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, mode, wins, played)
) WITHOUT ROWID;

CREATE TABLE rank_by_bucket (
    guild_id INTEGER NOT NULL,
    mode     TEXT    NOT NULL,
    wins     INTEGER NOT NULL,
    played   INTEGER NOT NULL,
    bucket   INTEGER NOT NULL,
    players  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, mode, wins, played, bucket)
) WITHOUT ROWID;

CREATE TRIGGER player_totals_rank_insert AFTER INSERT ON player_totals WHEN NEW.played > 0
BEGIN
    INSERT INTO rank_by_wins VALUES (NEW.guild_id, NEW.mode, NEW.wins, 1)
        ON CONFLICT DO UPDATE SET players = players + 1;
    INSERT INTO rank_by_played VALUES (NEW.guild_id, NEW.mode, NEW.wins, NEW.played, 1)
        ON CONFLICT DO UPDATE SET players = players + 1;
    INSERT INTO rank_by_bucket VALUES (NEW.guild_id, NEW.mode, NEW.wins, NEW.played, NEW.user_id >> 52, 1)
        ON CONFLICT DO UPDATE SET players = players + 1;
END;

CREATE TRIGGER player_totals_rank_delete AFTER DELETE ON player_totals WHEN OLD.played > 0
BEGIN
    UPDATE rank_by_wins SET players = players - 1
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins;
    DELETE FROM rank_by_wins
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND players = 0;
    UPDATE rank_by_played SET players = players - 1
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played;
    DELETE FROM rank_by_played
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played AND players = 0;
    UPDATE rank_by_bucket SET players = players - 1
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played
          AND bucket = OLD.user_id >> 52;
    DELETE FROM rank_by_bucket
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played
          AND bucket = OLD.user_id >> 52 AND players = 0;
END;

CREATE TRIGGER player_totals_rank_update AFTER UPDATE ON player_totals
    WHEN OLD.wins IS NOT NEW.wins OR OLD.played IS NOT NEW.played OR OLD.guild_id IS NOT NEW.guild_id
      OR OLD.mode IS NOT NEW.mode OR OLD.user_id IS NOT NEW.user_id
BEGIN
    -- out of the old cells, if the player was ranked
    UPDATE rank_by_wins SET players = players - 1
        WHERE OLD.played > 0 AND guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins;
    DELETE FROM rank_by_wins
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND players = 0;
    UPDATE rank_by_played SET players = players - 1
        WHERE OLD.played > 0 AND guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins
          AND played = OLD.played;
    DELETE FROM rank_by_played
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played AND players = 0;
    UPDATE rank_by_bucket SET players = players - 1
        WHERE OLD.played > 0 AND guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins
          AND played = OLD.played AND bucket = OLD.user_id >> 52;
    DELETE FROM rank_by_bucket
        WHERE guild_id = OLD.guild_id AND mode = OLD.mode AND wins = OLD.wins AND played = OLD.played
          AND bucket = OLD.user_id >> 52 AND players = 0;
    -- into the new ones, if the player is ranked now (WHERE also keeps INSERT ... SELECT ... ON CONFLICT unambiguous)
    INSERT INTO rank_by_wins SELECT NEW.guild_id, NEW.mode, NEW.wins, 1 WHERE NEW.played > 0
        ON CONFLICT DO UPDATE SET players = players + 1;
    INSERT INTO rank_by_played SELECT NEW.guild_id, NEW.mode, NEW.wins, NEW.played, 1 WHERE NEW.played > 0
        ON CONFLICT DO UPDATE SET players = players + 1;
    INSERT INTO rank_by_bucket SELECT NEW.guild_id, NEW.mode, NEW.wins, NEW.played, NEW.user_id >> 52, 1
        WHERE NEW.played > 0
        ON CONFLICT DO UPDATE SET players = players + 1;
END;
