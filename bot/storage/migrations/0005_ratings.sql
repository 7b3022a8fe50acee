-- 0005 (issue 19 point 3): skill ratings. One rating per human player, game mode and scope (guild_id = the server,
-- or 0 for all servers), from the openskill package's Plackett-Luce model (bot/storage/_ratings.py), updated in the
-- transaction that records a completed match with at least two human seats; AI seats and abandoned matches are never
-- rated. Both tables are recomputable from matches and match_players (Store.rebuild_ratings; python -m
-- bot.storage.ratings). Matches recorded before this version are rated by a rebuild.
CREATE TABLE player_ratings (
    guild_id      INTEGER NOT NULL,  -- 0 = all servers
    mode          TEXT    NOT NULL,  -- a game mode (no all-modes scope: a rating is per game)
    user_id       INTEGER NOT NULL,
    mu            REAL    NOT NULL,
    sigma         REAL    NOT NULL,
    rating        REAL    NOT NULL,  -- mu - 3 sigma (openskill's ordinal): the leaderboard order
    matches       INTEGER NOT NULL,  -- rated matches played in this scope
    last_match_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, mode, user_id)
) WITHOUT ROWID;
CREATE INDEX player_ratings_rank ON player_ratings (guild_id, mode, rating DESC, user_id);

-- Every change of a rating, append-only: the trend of /uno stats and the rating change of a match.
CREATE TABLE rating_changes (
    guild_id     INTEGER NOT NULL,
    mode         TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    PRIMARY KEY (guild_id, mode, user_id, match_id)
) WITHOUT ROWID;
CREATE INDEX rating_changes_match ON rating_changes (match_id);
