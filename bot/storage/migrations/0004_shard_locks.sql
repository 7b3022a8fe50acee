-- 0004 (issue 16): one process per Discord shard at a time. A process takes the lock of each shard it runs
-- (``shard_count``, ``shard_id``; a process running every guild takes (1, 0)) before it resumes or opens any game of
-- those guilds, renews it with its game leases and releases it on a clean stop; a second process for a shard already
-- run waits until the lock is free or expired. ``expires_at`` is Unix seconds by the database's clock, as the leases'
-- ``expires_at`` is from this version on (SQLite's ``uno_now()``: the clock of the one process that has the file open).
CREATE TABLE shard_locks (
    shard_count INTEGER NOT NULL,
    shard_id    INTEGER NOT NULL,
    owner       TEXT    NOT NULL,
    expires_at  REAL    NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
) WITHOUT ROWID;
CREATE INDEX shard_locks_owner ON shard_locks (owner);
