-- 0003 (PostgreSQL): leases of live games, as SQLite's 0003: one process at a time runs a game.
CREATE TABLE game_leases (
    channel_id BIGINT           PRIMARY KEY,
    owner      TEXT             NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL  -- Unix seconds
);
CREATE INDEX game_leases_owner ON game_leases (owner);
