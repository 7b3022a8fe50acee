-- 0005 (PostgreSQL, issue 19 point 3): skill ratings, as SQLite's 0005 (read its comments).
CREATE TABLE player_ratings (
    guild_id      BIGINT           NOT NULL,  -- 0 = all servers
    mode          TEXT             NOT NULL,
    user_id       BIGINT           NOT NULL,
    mu            DOUBLE PRECISION NOT NULL,
    sigma         DOUBLE PRECISION NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,  -- mu - 3 sigma (openskill's ordinal)
    matches       INTEGER          NOT NULL,
    last_match_id BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, mode, user_id)
);
CREATE INDEX player_ratings_rank ON player_ratings (guild_id, mode, rating DESC, user_id);

CREATE TABLE rating_changes (
    guild_id     BIGINT           NOT NULL,
    mode         TEXT             NOT NULL,
    user_id      BIGINT           NOT NULL,
    match_id     BIGINT           NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, mode, user_id, match_id)
);
CREATE INDEX rating_changes_match ON rating_changes (match_id);
