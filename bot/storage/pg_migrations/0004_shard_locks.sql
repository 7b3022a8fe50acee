-- 0004 (PostgreSQL, issue 16): one process per Discord shard at a time, as SQLite's 0004. ``expires_at`` (and the
-- leases' ``expires_at`` from this version on) is Unix seconds by the server's clock (``clock_timestamp()``).
CREATE TABLE shard_locks (
    shard_count INTEGER          NOT NULL,
    shard_id    INTEGER          NOT NULL,
    owner       TEXT             NOT NULL,
    expires_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
CREATE INDEX shard_locks_owner ON shard_locks (owner);
