"""The PostgreSQL dialect (asyncpg): the same store as SQLite's, for several bot processes (shards) on one or more
machines. Holds the pool, transactions, errors and the statements whose SQL must differ from SQLite's; every behaviour
is :class:`bot.storage._store.SqlStore`'s. Opened by :func:`bot.storage.open_store` for a ``postgresql://…`` address.
asyncpg is an optional extra (``.[postgres]``): this module is imported only then.

Connections
    An asyncpg pool (0–10 connections, ``command_timeout`` 30 s). Every method takes a connection for one statement or
    one transaction and gives it back. A connection that the server closed (restart, ``pg_terminate_backend``, network)
    fails the call in flight with :class:`StorageUnavailable` and is replaced on the next call; while the server is
    down every call fails the same way after at most :data:`CONNECT_TIMEOUT` seconds, and the first call after it is
    back succeeds. Nothing is retried behind the caller's back.

Schema and migrations
    ``bot/storage/pg_migrations/NNNN_*.sql``, the same schema versions as SQLite's. :meth:`PostgresStore.open` applies
    the missing ones under a session advisory lock (:data:`MIGRATION_LOCK`), so processes starting together apply
    each file once; each file runs in one transaction with its ``schema_migrations`` record. Query parameters of the
    address reach the server as settings: ``?search_path=uno`` keeps the tables in schema ``uno``.

Concurrency
    Read committed. A fenced write locks the lease row it reads until its commit (``FOR UPDATE``): a takeover waits for
    it, then loads what it wrote. A match's totals are upserted with ``x = x + excluded.x`` (row-locked, so concurrent
    processes never lose an update) under a transaction advisory lock (:data:`TOTALS_LOCK`) taken just before them:
    every finish touches the shared rank cells (migration 0001), and one order of those cell locks means no deadlock.
    Finishes therefore commit their totals one at a time across all processes (a few milliseconds each); the match,
    player and round rows are written before the lock. ``rebuild_aggregates`` takes the same lock. Every statement
    that locks several leases (a batch of saves, the renewal, taking and releasing leases) locks them in channel
    order, so they never deadlock each other; a statement PostgreSQL still rolls back (a deadlock or serialization
    failure, SQLSTATE class 40) is tried again (:data:`ROLLBACK_ATTEMPTS`), and a transaction that is rolled back
    raises :class:`StorageUnavailable` (nothing of it was written).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, Final

import asyncpg

from ._dialect import Now, Row, SeasonKey
from ._migrations import POSTGRES, Migration, available, refuse_newer
from ._models import OptionsValidator, StorageError, StorageUnavailable, redact_database
from ._store import SqlStore

log = logging.getLogger(__name__)

MIGRATION_LOCK: Final = 0x554E4F5F4D494752
"""``pg_advisory_lock`` key held while migrations are checked and applied ('UNO_MIGR')."""
TOTALS_LOCK: Final = 0x554E4F5F544F5453
"""``pg_advisory_xact_lock`` key held while a transaction changes the leaderboard totals ('UNO_TOTS')."""
CONNECT_TIMEOUT: Final = 5.0
"""Seconds to open a connection (or wait for a free one of the pool) before :class:`StorageUnavailable`."""
COMMAND_TIMEOUT: Final = 30.0
"""Seconds a statement may run, except the bulk statements of ``rebuild_aggregates`` (:data:`SLOW_TIMEOUT`)."""
ROLLBACK_ATTEMPTS: Final = 3
"""Times one statement is tried when PostgreSQL rolls it back to break a deadlock or a serialization failure (SQLSTATE
class 40: nothing of it was written, so trying again is safe); after the last, :class:`StorageUnavailable`."""
SLOW_TIMEOUT: Final = 3600.0
"""Seconds a bulk statement of ``rebuild_aggregates`` may run (``slow=True``). Not ``timeout=None``: asyncpg reads
that as :data:`COMMAND_TIMEOUT`, and a rebuild of a million matches on a busy machine failed after 30 s."""

_UNAVAILABLE: Final = (
    asyncpg.PostgresConnectionError,  # class 08, and a connection closed under a call
    asyncpg.exceptions.OperatorInterventionError,  # 57: admin shutdown, pg_terminate_backend, starting up, timeout
    asyncpg.exceptions.InsufficientResourcesError,  # 53: too many connections, disk full
    OSError,  # refused, reset, unreachable
    TimeoutError,
)
_FRAGMENTS = {
    "now": Now("extract(epoch FROM clock_timestamp())::float8"),
    "for_update": "FOR UPDATE",
    "greatest": "greatest",
    "raw_snapshot": "snapshot",
    "same": "IS NOT DISTINCT FROM",
    "season": SeasonKey(
        {
            period: f"to_char(to_timestamp({{t}}) AT TIME ZONE 'UTC', '{pattern}')"
            for period, pattern in (("weekly", 'IYYY-"W"IW'), ("monthly", "YYYY-MM"), ("quarterly", 'YYYY-"Q"Q'))
        }
    ),
}

# acquire_leases in one statement, one round trip, in channel order (two owners taking overlapping sets cannot
# deadlock); the owners of the others read in the same statement.
_ACQUIRE_LEASES = (
    "WITH k AS (SELECT unnest($1::bigint[]) AS channel_id), "
    "up AS (INSERT INTO game_leases (channel_id, owner, expires_at) "
    "SELECT channel_id, $2, {now:4} + $3 FROM k ORDER BY channel_id "
    "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
    "WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= {now:4} RETURNING channel_id) "
    "SELECT channel_id, $2::text FROM up UNION ALL "
    "SELECT l.channel_id, l.owner FROM game_leases AS l JOIN k USING (channel_id) "
    "WHERE l.channel_id NOT IN (SELECT channel_id FROM up)",
)
# renew_leases in one statement, one round trip (issue 16 point 7). The owner's leases are locked in channel order
# first, as a batch of saves locks them (SqlStore._flush_saves): an UPDATE alone locks them in the table's order, and
# met a batch locking the same rows the other way round in a deadlock.
_RENEW_LEASES = (
    "WITH l AS (SELECT channel_id FROM game_leases WHERE owner = $1 ORDER BY channel_id FOR UPDATE), "
    "g AS (UPDATE game_leases AS x SET expires_at = {now:3} + $2 FROM l WHERE x.channel_id = l.channel_id "
    "AND x.owner = $1 RETURNING x.channel_id), "
    "s AS (UPDATE shard_locks SET expires_at = {now:3} + $2 WHERE owner = $1 RETURNING shard_count, shard_id) "
    "SELECT channel_id, NULL::int, NULL::int FROM g "
    "UNION ALL SELECT NULL::bigint, shard_count, shard_id FROM s",
)

_REBUILD_FINEST = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT m.guild_id, m.mode, p.user_id,
       (array_agg(p.display_name ORDER BY m.id DESC))[1],
       max(m.id),
       count(*) FILTER (WHERE m.status = 'completed' AND p.placement = 1),
       count(*) FILTER (WHERE m.status = 'completed'),
       count(*) FILTER (WHERE m.status = 'abandoned'),
       sum(p.rounds_won),
       sum(p.points_scored),
       CASE WHEN count(*) FILTER (WHERE m.status = 'completed') > 0
            THEN (count(*) FILTER (WHERE m.status = 'completed' AND p.placement = 1))::float8
                 / count(*) FILTER (WHERE m.status = 'completed')
            ELSE 0 END
FROM match_players AS p JOIN matches AS m ON m.id = p.match_id
WHERE p.user_id IS NOT NULL AND NOT p.is_ai
GROUP BY m.guild_id, m.mode, p.user_id
"""
_REBUILD_WIDER = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT {guild}, {mode}, user_id, (array_agg(display_name ORDER BY last_match_id DESC))[1], max(last_match_id),
       sum(wins), sum(played), sum(abandoned), sum(rounds_won), sum(points),
       CASE WHEN sum(played) > 0 THEN sum(wins)::float8 / sum(played) ELSE 0 END
FROM player_totals
WHERE guild_id != 0 AND mode != '*'
GROUP BY {group}user_id
"""


def _is_unavailable(e: BaseException) -> bool:
    if isinstance(e, _UNAVAILABLE):
        return True
    # asyncpg reports a connection closed under a call or between calls as an InterfaceError, and a protocol left
    # half-way by a lost connection as an InternalClientError
    if isinstance(e, asyncpg.exceptions.InternalClientError):
        return True
    return isinstance(e, asyncpg.InterfaceError) and "closed" in str(e) and "pool is closed" not in str(e)


def _closed(conn: asyncpg.Connection) -> bool:
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:  # the pool has let go of a connection that closed under the call
        return True


def _unavailable(e: BaseException) -> StorageUnavailable:
    return StorageUnavailable(f"PostgreSQL is not reachable right now: {type(e).__name__}: {e}")


def _rolled_back(e: BaseException) -> StorageUnavailable:
    return StorageUnavailable(f"PostgreSQL rolled the transaction back, nothing of it was written: {e}")


def _count(status: str) -> int:
    """The row count of a command status such as ``"DELETE 3"`` (0 for one without, such as ``"ALTER TABLE"``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def migrate(conn: asyncpg.Connection, migrations: list[Migration] | None = None) -> list[int]:
    """Apply the missing PostgreSQL migrations under :data:`MIGRATION_LOCK`; returns the versions applied now.

    Raises :class:`SchemaTooNewError` for a database newer than ``migrations`` (before touching anything).
    """
    migrations = available(POSTGRES) if migrations is None else migrations
    newest = migrations[-1].version if migrations else 0
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        applied = {r[0]: r[1] for r in await conn.fetch("SELECT version, name FROM schema_migrations")}
        refuse_newer(applied, newest)
        done: list[int] = []
        for mig in migrations:
            if mig.version in applied:
                continue
            async with conn.transaction():
                await conn.execute(mig.sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    mig.version,
                    mig.name,
                    time.time(),
                )
            done.append(mig.version)
            log.info("applied PostgreSQL migration %04d_%s", mig.version, mig.name)
        return done
    finally:
        with contextlib.suppress(Exception):  # a lost connection has released the lock already
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


@functools.lru_cache(maxsize=1024)
def _sql(template: str) -> str:
    return template.format_map(_FRAGMENTS)


class _Tx:
    """A transaction on one connection of the pool."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any, slow: bool = False) -> Sequence[Row]:
        rows: list[asyncpg.Record] = await self.conn.fetch(_sql(sql), *args, timeout=SLOW_TIMEOUT if slow else None)
        return rows

    async def execute(self, sql: str, *args: Any, slow: bool = False) -> int:
        return _count(await self.conn.execute(_sql(sql), *args, timeout=SLOW_TIMEOUT if slow else None))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(_sql(sql), rows)


class PostgresDialect:
    """The pool of a PostgreSQL database (see the module text) and its SQL (:class:`bot.storage._dialect.Dialect`)."""

    name: str = "postgres"
    save_chunk: int = 400  # rows per statement: 9 parameters each, far below PostgreSQL's 32767
    totals_lock: str | None = f"SELECT pg_advisory_xact_lock({TOTALS_LOCK})"
    renew_statements: tuple[str, ...] = _RENEW_LEASES
    acquire_statements: tuple[str, ...] = _ACQUIRE_LEASES
    rebuild_finest: str = _REBUILD_FINEST
    rebuild_wider: str = _REBUILD_WIDER

    def __init__(self, pool: asyncpg.Pool, db_clock: Callable[[], float] | None = None) -> None:
        self.pool = pool
        self.db_clock = db_clock

    def sql(self, template: str) -> str:
        return _sql(template)

    def id_list(self, ids: list[int]) -> Any:
        return ids

    def shift(self) -> float | None:
        """What lease SQL reads instead of the server's clock: nothing (None), except under a test's ``db_clock``."""
        return None if self.db_clock is None else self.db_clock()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool; a lost or unreachable server becomes :class:`StorageUnavailable`.

        A connection that failed that way (or closed under the call) is dropped, so the pool opens a new one. Giving
        the connection back (the pool resets it: one more round trip) cannot fail a call that is over: a server lost
        right after it answered (issue 16 point 9: a restart) had committed the write, and reporting it unsaved would
        put the game back behind the database."""
        try:
            conn = await self.pool.acquire(timeout=CONNECT_TIMEOUT)
        except Exception as e:
            if _is_unavailable(e):
                raise _unavailable(e) from e
            raise
        try:
            yield conn
        except asyncpg.exceptions.TransactionRollbackError as e:  # a deadlock or serialization failure: rolled back
            raise _rolled_back(e) from e
        except Exception as e:
            if not (_is_unavailable(e) or _closed(conn)):
                raise
            with contextlib.suppress(Exception):  # the pool may have let go of it already
                conn.terminate()
            raise _unavailable(e) from e
        finally:
            try:
                await self.pool.release(conn)
            except Exception as e:  # the call's own result (or error) stands; the pool drops the connection
                log.debug("a connection could not be reset after its call and was dropped: %s", e)

    async def read(self, sql: str, *args: Any) -> Sequence[Row]:
        """Run one statement (its own transaction) and return its rows. One that PostgreSQL rolled back to break a
        deadlock or a serialization failure is tried again (:data:`ROLLBACK_ATTEMPTS` in all); raises
        :class:`StorageUnavailable` when the server cannot be reached or the last attempt was rolled back too."""
        for attempt in range(1, ROLLBACK_ATTEMPTS + 1):
            async with self.connection() as conn:
                try:
                    rows: list[asyncpg.Record] = await conn.fetch(_sql(sql), *args)
                    return rows
                except asyncpg.exceptions.TransactionRollbackError as e:
                    if attempt == ROLLBACK_ATTEMPTS:
                        raise
                    log.info("PostgreSQL rolled a statement back (%s); trying it again", type(e).__name__)
            await asyncio.sleep(0.005 * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    write = read  # one statement is one transaction

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Tx]:
        """A connection inside one transaction, committed at the end of the block, rolled back on any exception."""
        async with self.connection() as conn, conn.transaction():
            yield _Tx(conn)

    @contextlib.asynccontextmanager
    async def without_triggers(self, tx: Any) -> AsyncIterator[None]:
        await tx.execute("ALTER TABLE player_totals DISABLE TRIGGER USER")
        yield
        await tx.execute("ALTER TABLE player_totals ENABLE TRIGGER USER")

    async def close(self) -> None:
        """Wait for the running calls to give their connections back, then close the pool."""
        await self.pool.close()


class PostgresStore(SqlStore):
    """The store in a PostgreSQL database (see the module text and :class:`~bot.storage._store.SqlStore`).

    Open with ``await PostgresStore.open(url)`` (or :func:`bot.storage.open_store`) and :meth:`close` at the end.
    A server that cannot be reached raises :class:`StorageUnavailable`; other database failures raise asyncpg's error
    after the transaction rolled back. The server's clock decides every lease and shard lock (issue 16 point 6:
    processes sharing it need no synchronised clocks); ``db_clock`` (tests only) replaces it.
    """

    def __init__(
        self,
        db: PostgresDialect,
        url: str,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> None:
        """Use :meth:`open`."""
        super().__init__(db, validate_options, clock, db_clock)
        self.url = url
        self.dialect = db
        """The pool and SQL (``python -m bot.storage.copy`` writes through its connections)."""

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
        min_size: int = 0,
        max_size: int = 10,
    ) -> PostgresStore:
        """Connect to ``url``, apply the missing migrations (under the advisory lock) and open the pool.

        ``min_size`` 0: a released connection stays open for the next call (asyncpg keeps it 300 s), but the pool does
        not hold a floor of connections; with one, asyncpg retries that floor in the background while the server is
        away and logs a traceback at every attempt (issue 20, point 7: an outage is two log lines).

        ``validate_options`` checks a server's ``default_options`` when saved and read (as for SQLite).
        Raises :class:`StorageUnavailable` when the server cannot be reached, :class:`SchemaTooNewError` for a
        database written by a newer bot, :class:`StorageError` for a refused login or a database that does not exist.
        """
        where = redact_database(url)
        try:
            conn = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT)
        except Exception as e:
            if _is_unavailable(e):
                raise StorageUnavailable(f"cannot reach PostgreSQL at {where}: {e}") from e
            if isinstance(e, asyncpg.PostgresError | asyncpg.InterfaceError | ValueError):
                raise StorageError(f"cannot use PostgreSQL at {where}: {e}") from e
            raise
        try:
            await migrate(conn)
        except Exception as e:
            if _is_unavailable(e):
                raise StorageUnavailable(f"lost PostgreSQL at {where} while migrating: {e}") from e
            raise
        finally:
            await conn.close()
        try:
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, timeout=CONNECT_TIMEOUT, command_timeout=COMMAND_TIMEOUT
            )
        except Exception as e:
            if _is_unavailable(e):
                raise StorageUnavailable(f"cannot reach PostgreSQL at {where}: {e}") from e
            raise
        return cls(PostgresDialect(pool, db_clock), url, validate_options, clock, db_clock)
