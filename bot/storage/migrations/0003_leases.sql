-- 0003: leases of live games, so that one process at a time runs a game when several share the database (shards).
-- A lease is held by ``owner`` (a process's own name) until ``expires_at`` (Unix seconds); the owner renews it while it
-- runs the game and releases it on a clean stop; after a crash it expires and another process may take it over.
CREATE TABLE game_leases (
    channel_id INTEGER PRIMARY KEY,
    owner      TEXT    NOT NULL,
    expires_at REAL    NOT NULL
) WITHOUT ROWID;
CREATE INDEX game_leases_owner ON game_leases (owner);
