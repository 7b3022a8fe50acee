"""The PostgreSQL store (asyncpg): the same settings, live games, results, leaderboards and leases as the SQLite store,
for several bot processes (shards) on one or more machines. Implements :class:`bot.storage.Store`; opened by
:func:`bot.storage.open_store` for a ``postgresql://…`` address. asyncpg is an optional extra (``.[postgres]``): this
module is imported only then.

Connections
    An asyncpg pool (1–10 connections, ``command_timeout`` 30 s). Every method takes a connection for one statement or
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
    Read committed. A match's totals are upserted with ``x = x + excluded.x`` (row-locked, so concurrent processes
    never lose an update) under a transaction advisory lock (:data:`TOTALS_LOCK`) taken just before them: every
    finish touches the shared rank cells (migration 0001), and one order of those cell locks means no deadlock.
    Finishes therefore commit their totals one at a time across all processes (a few milliseconds each); the match,
    player and round rows are written before the lock. :meth:`rebuild_aggregates` takes the same lock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from types import TracebackType
from typing import Any, Final

import asyncpg

from ._common import (
    ALL_GUILDS,
    ALL_MODES,
    RANK_COLUMNS,
    SETTINGS_COLUMNS,
    Corrupt,
    live_game_from_row,
    merge_settings,
    prefs_changes,
    prefs_from_row,
    scope,
    settings_changes,
    settings_from_row,
    settings_row,
    totals_rows,
)
from ._migrations import POSTGRES, Migration, available, refuse_newer
from ._models import (
    RANK_ORDER,
    UNSET,
    GuildSettings,
    Held,
    InvalidInputError,
    LeaderboardRow,
    LiveGame,
    MatchResult,
    OptionsValidator,
    PlayerStats,
    Shards,
    StorageError,
    StorageUnavailable,
    UserPrefs,
    WriteRefused,
    _Unset,
    check_id,
    check_ids,
    check_live_game,
    check_match_result,
    check_optional_guild,
    check_optional_mode,
    check_owner,
    check_page,
    check_shards,
    check_ttl,
    check_version,
    redact_database,
    shard_keys,
)

log = logging.getLogger(__name__)

MIGRATION_LOCK: Final = 0x554E4F5F4D494752
"""``pg_advisory_lock`` key held while migrations are checked and applied ('UNO_MIGR')."""
TOTALS_LOCK: Final = 0x554E4F5F544F5453
"""``pg_advisory_xact_lock`` key held while a transaction changes the leaderboard totals ('UNO_TOTS')."""
CONNECT_TIMEOUT: Final = 5.0
"""Seconds to open a connection (or wait for a free one of the pool) before :class:`StorageUnavailable`."""
COMMAND_TIMEOUT: Final = 30.0
"""Seconds a statement may run (``rebuild_aggregates`` has none)."""

_UNAVAILABLE: Final = (
    asyncpg.PostgresConnectionError,  # class 08, and a connection closed under a call
    asyncpg.exceptions.OperatorInterventionError,  # 57: admin shutdown, pg_terminate_backend, starting up, timeout
    asyncpg.exceptions.InsufficientResourcesError,  # 53: too many connections, disk full
    OSError,  # refused, reset, unreachable
    TimeoutError,
)

_SELECT_SETTINGS = f"SELECT {SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = $1"


def _now(param: int) -> str:
    """The database's clock in Unix seconds (issue 16 point 6); parameter ``$param`` is NULL except under a test's
    ``db_clock``, whose reading it then is."""
    return f"coalesce(${param}::float8, extract(epoch FROM clock_timestamp())::float8)"


# Fenced (issue 16 point 5): written only if $8 (NULL = unfenced) holds the channel's lease by the database's clock,
# the lease row locked until the commit (a takeover waits for it, then loads what it wrote), and if the stored game is
# at version $9 (NULL = any). RETURNING tells a write from a refusal.
_FENCED_GAME = f"""
WITH fence AS (
    SELECT 1 FROM game_leases WHERE channel_id = $1 AND owner = $8::text AND expires_at > {_now(10)} FOR UPDATE
)
INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at)
SELECT $1::bigint, $2::bigint, $3::text, $4::text, $5::bigint, $6::text, $7::float8
WHERE ($8::text IS NULL OR EXISTS (SELECT 1 FROM fence))
  AND ($9::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM live_games WHERE channel_id = $1 AND version <> $9::bigint))
ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, mode = excluded.mode, status = excluded.status,
    version = excluded.version, snapshot = excluded.snapshot, updated_at = excluded.updated_at
RETURNING 1
"""
_FENCE = f"""
SELECT ($2::text IS NULL OR EXISTS (SELECT 1 FROM game_leases WHERE channel_id = $1 AND owner = $2::text
        AND expires_at > {_now(4)} FOR UPDATE))
   AND ($3::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM live_games WHERE channel_id = $1 AND version <> $3::bigint))
"""

_UPSERT_GAME = """
INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, mode = excluded.mode, status = excluded.status,
    version = excluded.version, snapshot = excluded.snapshot, updated_at = excluded.updated_at
"""

_UPSERT_TOTALS = """
INSERT INTO player_totals AS t
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
VALUES ($1, $2, $3, $4, $5, $6::int, $7::int, $8, $9, $10,
        CASE WHEN $7::int > 0 THEN $6::int::float8 / $7::int ELSE 0 END)
ON CONFLICT (guild_id, mode, user_id) DO UPDATE SET
    display_name = CASE WHEN excluded.last_match_id >= t.last_match_id
                        THEN excluded.display_name ELSE t.display_name END,
    last_match_id = greatest(t.last_match_id, excluded.last_match_id),
    wins = t.wins + excluded.wins,
    played = t.played + excluded.played,
    abandoned = t.abandoned + excluded.abandoned,
    rounds_won = t.rounds_won + excluded.rounds_won,
    points = t.points + excluded.points,
    win_rate = CASE WHEN t.played + excluded.played > 0
                    THEN (t.wins + excluded.wins)::float8 / (t.played + excluded.played) ELSE 0 END
"""

# As SQLite's (bot.storage._sqlite): one statement, the rank summed from the rank tables of migration 0001.
_PLAYER_STATS = """
SELECT t.user_id, t.display_name, t.wins, t.played, t.abandoned, t.win_rate, t.rounds_won, t.points,
    CASE WHEN t.played > 0 THEN 1
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins > t.wins)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_played AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins
           AND CASE WHEN t.wins > 0 THEN r.played < t.played ELSE r.played > t.played END)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_bucket AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins AND r.played = t.played
           AND r.bucket < t.user_id >> 52)
      + (SELECT count(*) FROM player_totals AS o
         WHERE o.guild_id = t.guild_id AND o.mode = t.mode AND o.wins = t.wins
           AND o.win_rate = t.win_rate AND o.played = t.played
           AND o.user_id >= (t.user_id >> 52) << 52 AND o.user_id < t.user_id)
    END,
    (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r WHERE r.guild_id = t.guild_id AND r.mode = t.mode)
FROM player_totals AS t
WHERE t.guild_id = $1 AND t.mode = $2 AND t.user_id = $3
"""

_REBUILD_FINEST = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT m.guild_id, m.mode, p.user_id,
       (array_agg(p.display_name ORDER BY m.id DESC))[1],
       max(m.id),
       count(*) FILTER (WHERE m.status = 'completed' AND m.winner_seat = p.seat),
       count(*) FILTER (WHERE m.status = 'completed'),
       count(*) FILTER (WHERE m.status = 'abandoned'),
       sum(p.rounds_won),
       sum(p.points_scored),
       CASE WHEN count(*) FILTER (WHERE m.status = 'completed') > 0
            THEN (count(*) FILTER (WHERE m.status = 'completed' AND m.winner_seat = p.seat))::float8
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
_RANK_TABLES = {
    "rank_by_wins": "guild_id, mode, wins",
    "rank_by_played": "guild_id, mode, wins, played",
    "rank_by_bucket": "guild_id, mode, wins, played, user_id >> 52",
}


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


def _refused(channel_id: int, owner: str | None, version: int | None) -> WriteRefused:
    return WriteRefused(
        f"the write of the game in channel {channel_id} was refused: {owner or 'the writer'} does not hold its lease"
        + ("" if version is None else f" or it is no longer at version {version}")
    )


def _count(status: str) -> int:
    """The row count of a command status such as ``"DELETE 3"``."""
    return int(status.rsplit(" ", 1)[-1])


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


class PostgresStore:
    """Settings, live games, match results, leaderboards and leases in a PostgreSQL database (see the module text).

    Open with ``await PostgresStore.open(url)`` (or :func:`bot.storage.open_store`) and :meth:`close` at the end.
    Bad arguments raise :class:`InvalidInputError` before anything is written; a server that cannot be reached raises
    :class:`StorageUnavailable`; other database failures raise asyncpg's error after the transaction rolled back.
    The server's clock decides every lease and shard lock (issue 16 point 6: processes sharing it need no synchronised
    clocks); ``db_clock`` (tests only) replaces it. ``clock`` is this process's clock.
    A fenced write that is refused raises :class:`WriteRefused`.
    """

    def __init__(
        self,
        pool: asyncpg.Pool,
        url: str,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> None:
        """Use :meth:`open`."""
        self._pool = pool
        self._validate_options = validate_options
        self.url = url
        self.clock = clock
        self.db_clock = db_clock

    def _shift(self) -> float | None:
        """What lease SQL reads instead of the server's clock: nothing (None), except under a test's ``db_clock``."""
        return None if self.db_clock is None else self.db_clock()

    # --- lifecycle ------------------------------------------------------------------------------------------------

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
        return cls(pool, url, validate_options, clock, db_clock)

    async def close(self) -> None:
        """Wait for the running calls to give their connections back, then close the pool."""
        await self._pool.close()

    async def __aenter__(self) -> PostgresStore:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool; a lost or unreachable server becomes :class:`StorageUnavailable`.

        A connection that failed that way (or closed under the call) is dropped, so the pool opens a new one. Giving
        the connection back (the pool resets it: one more round trip) cannot fail a call that is over: a server lost
        right after it answered (issue 16 point 9: a restart) had committed the write, and reporting it unsaved would
        put the game back behind the database."""
        try:
            conn = await self._pool.acquire(timeout=CONNECT_TIMEOUT)
        except Exception as e:
            if _is_unavailable(e):
                raise _unavailable(e) from e
            raise
        try:
            yield conn
        except Exception as e:
            if not (_is_unavailable(e) or _closed(conn)):
                raise
            with contextlib.suppress(Exception):  # the pool may have let go of it already
                conn.terminate()
            raise _unavailable(e) from e
        finally:
            try:
                await self._pool.release(conn)
            except Exception as e:  # the call's own result (or error) stands; the pool drops the connection
                log.debug("a connection could not be reset after its call and was dropped: %s", e)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection inside one transaction, committed at the end of the block, rolled back on any exception."""
        async with self._conn() as conn, conn.transaction():
            yield conn

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self._conn() as conn:
            rows: list[asyncpg.Record] = await conn.fetch(sql, *args)
            return rows

    async def _execute(self, sql: str, *args: Any) -> str:
        async with self._conn() as conn:
            status: str = await conn.execute(sql, *args)
            return status

    # --- server settings ------------------------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; defaults when it never changed any (a damaged value reads as its default)."""
        check_id("guild_id", guild_id)
        rows = await self._fetch(_SELECT_SETTINGS, guild_id)
        return settings_from_row(guild_id, rows[0] if rows else None, self._validate_options)

    async def update_settings(
        self,
        guild_id: int,
        *,
        default_mode: str | _Unset = UNSET,
        turn_timer: int | _Unset = UNSET,
        language: str | _Unset | None = UNSET,
        text_only: bool | _Unset = UNSET,
        default_target_score: int | _Unset = UNSET,
        turn_pings: bool | _Unset = UNSET,
        game_threads: bool | _Unset = UNSET,
        default_options: dict[str, Any] | _Unset = UNSET,
    ) -> GuildSettings:
        """Change some of a server's settings (the others keep their value) and return them all; see
        :meth:`bot.storage.SqliteStore.update_settings`. Concurrent updates of one server apply one after the other."""
        check_id("guild_id", guild_id)
        changes = settings_changes(
            self._validate_options,
            default_mode=default_mode,
            turn_timer=turn_timer,
            language=language,
            text_only=text_only,
            default_target_score=default_target_score,
            turn_pings=turn_pings,
            game_threads=game_threads,
            default_options=default_options,
        )
        async with self._transaction() as conn:
            # the row exists (with the defaults if it did not) and is locked until the commit
            await conn.execute(
                f"INSERT INTO guild_settings (guild_id, {SETTINGS_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (guild_id) DO NOTHING",
                *settings_row(GuildSettings(guild_id)),
            )
            row = await conn.fetchrow(_SELECT_SETTINGS + " FOR UPDATE", guild_id)
            new = merge_settings(settings_from_row(guild_id, row, self._validate_options), changes)
            await conn.execute(
                "UPDATE guild_settings SET default_mode = $2, turn_timer = $3, language = $4, text_only = $5, "
                "default_target_score = $6, turn_pings = $7, game_threads = $8, default_options = $9 "
                "WHERE guild_id = $1",
                *settings_row(new),
            )
        return new

    # --- user preferences -----------------------------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences; defaults when they never changed any (a damaged value reads as its default)."""
        check_id("user_id", user_id)
        rows = await self._fetch("SELECT text_only, large_cards FROM user_prefs WHERE user_id = $1", user_id)
        return prefs_from_row(user_id, rows[0] if rows else None)

    async def update_prefs(
        self, user_id: int, *, text_only: bool | _Unset = UNSET, large_cards: bool | _Unset = UNSET
    ) -> UserPrefs:
        """Change some of a user's preferences (the others keep their value) and return them all."""
        check_id("user_id", user_id)
        changes = prefs_changes(text_only, large_cards)
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO user_prefs (user_id, text_only, large_cards) VALUES ($1, 0, 0) "
                "ON CONFLICT (user_id) DO NOTHING",
                user_id,
            )
            row = await conn.fetchrow(
                "SELECT text_only, large_cards FROM user_prefs WHERE user_id = $1 FOR UPDATE", user_id
            )
            new = dataclasses.replace(prefs_from_row(user_id, row), **changes)
            await conn.execute(
                "UPDATE user_prefs SET text_only = $2, large_cards = $3 WHERE user_id = $1",
                user_id,
                int(new.text_only),
                int(new.large_cards),
            )
        return new

    # --- live games -----------------------------------------------------------------------------------------------

    async def save_game(self, game: LiveGame, *, owner: str | None = None, expected_version: int | None = None) -> None:
        """Insert or replace the live game of ``game.channel_id``; returns once it is committed. Of two saves of one
        channel running at once, the one committed last stays (the adapter saves a channel one change at a time).
        Fenced by ``owner``'s lease and ``expected_version`` as :meth:`SqliteStore.save_game`
        (:class:`WriteRefused`)."""
        row = check_live_game(game)
        if owner is None and expected_version is None:
            await self._execute(_UPSERT_GAME, *row)
            return
        if owner is not None:
            check_owner(owner)
        version = check_version(expected_version)
        if not await self._fetch(_FENCED_GAME, *row, owner, version, self._shift()):
            raise _refused(row[0], owner, version)

    async def delete_game(self, channel_id: int, *, owner: str | None = None) -> bool:
        """Remove the channel's live game; ``False`` if there was none. With ``owner``: fenced on its lease
        (:class:`WriteRefused`, nothing deleted, when it does not hold it)."""
        check_id("channel_id", channel_id)
        if owner is None:
            return _count(await self._execute("DELETE FROM live_games WHERE channel_id = $1", channel_id)) > 0
        check_owner(owner)
        async with self._transaction() as conn:
            if not await conn.fetchval(_FENCE, channel_id, owner, None, self._shift()):
                raise _refused(channel_id, owner, None)
            return _count(await conn.execute("DELETE FROM live_games WHERE channel_id = $1", channel_id)) > 0

    async def load_games(
        self, validate: Callable[[dict[str, Any]], object] | None = None, *, shards: Shards | None = None
    ) -> list[LiveGame]:
        """All live games by channel id; with ``shards``, only those of the guilds it owns. Rows that cannot be loaded
        are set aside in ``quarantined_games`` with one warning each, as in :meth:`SqliteStore.load_games`."""
        sql = "SELECT channel_id, guild_id, mode, status, version, snapshot, updated_at FROM live_games "
        args: tuple[Any, ...] = ()
        shards = check_shards(shards)
        if shards is not None:
            sql += "WHERE (guild_id >> 22) % $1 = ANY($2::bigint[]) "
            args = (shards.count, sorted(shards.ids))
        rows = await self._fetch(sql + "ORDER BY channel_id", *args)
        games: list[LiveGame] = []
        bad: list[tuple[int, str, str]] = []
        for channel_id, guild_id, mode, status, version, raw, updated_at in rows:
            try:
                game = live_game_from_row(channel_id, guild_id, mode, status, version, raw, updated_at)
                if validate is not None:
                    try:
                        validate(game.snapshot)
                    except Exception as e:
                        raise Corrupt(f"rejected by validator: {type(e).__name__}: {e}") from None
            except Corrupt as e:
                bad.append((channel_id, raw, str(e)))
                continue
            games.append(game)
        if bad:
            await self._quarantine(bad)
        return games

    async def _quarantine(self, bad: Iterable[tuple[int, str, str]]) -> None:
        now = time.time()
        async with self._transaction() as conn:
            for channel_id, raw, reason in bad:
                # only if the row is still the one that was read (a save_game may have replaced it meanwhile)
                moved = await conn.execute(
                    "WITH gone AS (DELETE FROM live_games WHERE channel_id = $1 AND snapshot = $2 RETURNING *) "
                    "INSERT INTO quarantined_games "
                    "(channel_id, guild_id, mode, status, version, snapshot, updated_at, reason, quarantined_at) "
                    "SELECT channel_id, guild_id, mode, status, version, snapshot, updated_at, $3, $4 FROM gone",
                    channel_id,
                    raw,
                    reason,
                    now,
                )
                if _count(moved):
                    log.warning(
                        "set aside the live game of channel %s (moved to quarantined_games): %s", channel_id, reason
                    )

    # --- leases ---------------------------------------------------------------------------------------------------

    async def acquire_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Take or extend the lease until the server's clock + ``ttl``; ``True`` if ``owner`` holds it now. Of owners
        racing for one channel exactly one wins (the row lock of the upsert decides)."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        rows = await self._fetch(
            f"INSERT INTO game_leases (channel_id, owner, expires_at) VALUES ($1, $2, {_now(4)} + $3) "
            "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
            f"WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= {_now(4)} RETURNING 1",
            channel_id,
            owner,
            ttl,
            self._shift(),
        )
        return bool(rows)

    async def acquire_leases(self, channel_ids: Iterable[int], owner: str, ttl: float) -> dict[int, str]:
        """Take (or extend) every lease of ``channel_ids`` that is free, expired or ``owner``'s until the server's clock
        + ``ttl``, in one statement (in channel order: two owners taking overlapping sets cannot deadlock); returns
        each channel's lease owner now (``owner`` where it got it; one taken by another owner at that very moment is
        missing)."""
        channels = check_ids("channel_id", channel_ids)
        check_owner(owner)
        ttl = check_ttl(ttl)
        if not channels:
            return {}
        rows = await self._fetch(
            "WITH k AS (SELECT unnest($1::bigint[]) AS channel_id), "
            "up AS (INSERT INTO game_leases (channel_id, owner, expires_at) "
            f"SELECT channel_id, $2, {_now(4)} + $3 FROM k ORDER BY channel_id "
            "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
            f"WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= {_now(4)} RETURNING channel_id) "
            "SELECT channel_id, $2::text FROM up UNION ALL "
            "SELECT l.channel_id, l.owner FROM game_leases AS l JOIN k USING (channel_id) "
            "WHERE l.channel_id NOT IN (SELECT channel_id FROM up)",
            channels,
            owner,
            ttl,
            self._shift(),
        )
        return {int(c): str(o) for c, o in rows}

    async def renew_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Extend ``owner``'s lease until the server's clock + ``ttl``; ``False`` if ``owner`` no longer holds it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        status = await self._execute(
            f"UPDATE game_leases SET expires_at = {_now(4)} + $1 WHERE channel_id = $2 AND owner = $3",
            ttl,
            channel_id,
            owner,
            self._shift(),
        )
        return _count(status) > 0

    async def renew_leases(self, owner: str, ttl: float) -> Held:
        """Extend every lease and shard lock of ``owner`` in one statement, one round trip (issue 16 point 7); returns
        which it still holds."""
        check_owner(owner)
        ttl = check_ttl(ttl)
        rows = await self._fetch(
            f"WITH g AS (UPDATE game_leases SET expires_at = {_now(3)} + $2 WHERE owner = $1 RETURNING channel_id), "
            f"s AS (UPDATE shard_locks SET expires_at = {_now(3)} + $2 WHERE owner = $1 "
            "RETURNING shard_count, shard_id) "
            "SELECT channel_id, NULL::int, NULL::int FROM g "
            "UNION ALL SELECT NULL::bigint, shard_count, shard_id FROM s",
            owner,
            ttl,
            self._shift(),
        )
        channels = sorted(int(r[0]) for r in rows if r[0] is not None)
        shards = sorted((int(r[1]), int(r[2])) for r in rows if r[0] is None)
        return Held(channels, shards)

    async def release_lease(self, channel_id: int, owner: str) -> bool:
        """Give up ``owner``'s lease of the channel; ``False`` if ``owner`` did not hold it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        status = await self._execute("DELETE FROM game_leases WHERE channel_id = $1 AND owner = $2", channel_id, owner)
        return _count(status) > 0

    async def release_leases(self, owner: str) -> int:
        """Give up every lease and shard lock of ``owner`` (a clean stop); returns how many game leases it held."""
        check_owner(owner)
        async with self._transaction() as conn:
            count = _count(await conn.execute("DELETE FROM game_leases WHERE owner = $1", owner))
            await conn.execute("DELETE FROM shard_locks WHERE owner = $1", owner)
        return count

    async def lease_owner(self, channel_id: int) -> str | None:
        """The owner of the channel's unexpired lease, or ``None``."""
        check_id("channel_id", channel_id)
        rows = await self._fetch(
            f"SELECT owner FROM game_leases WHERE channel_id = $1 AND expires_at > {_now(2)}",
            channel_id,
            self._shift(),
        )
        return str(rows[0][0]) if rows else None

    async def acquire_shards(self, shards: Shards | None, owner: str, ttl: float) -> dict[tuple[int, int], str]:
        """Take (or extend) every free, expired or own lock of ``shards`` in one statement; returns each one's owner now
        (see :meth:`SqliteStore.acquire_shards`)."""
        keys = shard_keys(check_shards(shards))
        check_owner(owner)
        ttl = check_ttl(ttl)
        counts, ids = [c for c, _ in keys], [i for _, i in keys]
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO shard_locks (shard_count, shard_id, owner, expires_at) "
                f"SELECT c, i, $3, {_now(5)} + $4 FROM unnest($1::int[], $2::int[]) AS k(c, i) "
                "ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
                "expires_at = excluded.expires_at "
                f"WHERE shard_locks.owner = excluded.owner OR shard_locks.expires_at <= {_now(5)}",
                counts,
                ids,
                owner,
                ttl,
                self._shift(),
            )
            rows = await conn.fetch(
                "SELECT l.shard_count, l.shard_id, l.owner FROM shard_locks AS l "
                "JOIN unnest($1::int[], $2::int[]) AS k(c, i) ON l.shard_count = k.c AND l.shard_id = k.i",
                counts,
                ids,
            )
        return {(int(c), int(i)): str(o) for c, i, o in rows}

    # --- match results --------------------------------------------------------------------------------------------

    async def finish_match(
        self,
        result: MatchResult,
        *,
        replace_with: LiveGame | None = None,
        owner: str | None = None,
        expected_version: int | None = None,
    ) -> bool:
        """Record a finished match and end its live game in one transaction; see :meth:`SqliteStore.finish_match`
        (fenced the same way by ``owner`` and ``expected_version``: :class:`WriteRefused`).

        Two processes recording the same ``match_key`` at once: one records it, the other gets ``False``.
        """
        check_match_result(result)
        game_row = None
        if replace_with is not None:
            game_row = check_live_game(replace_with)
            if replace_with.channel_id != result.channel_id:
                raise InvalidInputError("replace_with must be the live game of the match's channel")
        if owner is not None:
            check_owner(owner)
        version = check_version(expected_version)
        async with self._transaction() as conn:
            if (owner is not None or version is not None) and not await conn.fetchval(
                _FENCE, result.channel_id, owner, version, self._shift()
            ):
                raise _refused(result.channel_id, owner, version)
            match_id = await conn.fetchval(
                "INSERT INTO matches (match_key, mode, guild_id, channel_id, status, target_score, rounds_played, "
                "winner_seat, started_at, ended_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
                "ON CONFLICT (match_key) DO NOTHING RETURNING id",
                result.match_key,
                str(result.mode),
                result.guild_id,
                result.channel_id,
                result.status,
                result.target_score,
                len(result.rounds),
                result.winner_seat,
                float(result.started_at),
                float(result.ended_at),
            )
            if match_id is None:
                return False  # already recorded; the transaction commits nothing
            await conn.executemany(
                "INSERT INTO match_players (match_id, seat, user_id, display_name, is_ai, final_score, placement, "
                "rounds_won, points_scored) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    (
                        match_id,
                        p.seat,
                        p.user_id,
                        p.display_name,
                        p.is_ai,
                        p.final_score,
                        p.placement,
                        p.rounds_won,
                        p.points_scored,
                    )
                    for p in result.players
                ],
            )
            if result.rounds:
                await conn.executemany(
                    "INSERT INTO match_rounds (match_id, number, winner_seat, points) VALUES ($1, $2, $3, $4)",
                    [(match_id, r.number, r.winner_seat, r.points) for r in result.rounds],
                )
            totals = totals_rows(result, match_id)
            if totals:
                await conn.execute("SELECT pg_advisory_xact_lock($1)", TOTALS_LOCK)
                await conn.executemany(_UPSERT_TOTALS, totals)
            if game_row is None:
                await conn.execute("DELETE FROM live_games WHERE channel_id = $1", result.channel_id)
            else:
                await conn.execute(_UPSERT_GAME, *game_row)
        return True

    # --- leaderboards ---------------------------------------------------------------------------------------------

    async def leaderboard(
        self, *, guild_id: int | None, mode: str | None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a leaderboard, in :data:`RANK_ORDER`; see :meth:`SqliteStore.leaderboard`."""
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        limit, offset = check_page(limit, offset)
        rows = await self._fetch(
            f"SELECT {RANK_COLUMNS} FROM player_totals WHERE guild_id = $1 AND mode = $2 AND played > 0 "
            f"ORDER BY {RANK_ORDER} LIMIT $3 OFFSET $4",
            *key,
            limit,
            offset,
        )
        return [LeaderboardRow(offset + i, *row) for i, row in enumerate(rows, start=1)]

    async def leaderboard_count(self, *, guild_id: int | None, mode: str | None) -> int:
        """How many players the leaderboard lists."""
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._fetch(
            "SELECT coalesce(sum(players), 0) FROM rank_by_wins WHERE guild_id = $1 AND mode = $2", *key
        )
        return int(rows[0][0])

    async def player_stats(self, user_id: int, *, guild_id: int | None, mode: str | None) -> PlayerStats | None:
        """A player's totals and rank in one scope; see :meth:`SqliteStore.player_stats`."""
        check_id("user_id", user_id)
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._fetch(_PLAYER_STATS, *key, user_id)
        if not rows:
            return None
        uid, name, wins, played, abandoned, rate, rounds_won, points, rank, ranked = rows[0]
        return PlayerStats(
            uid,
            name,
            guild_id,
            mode,
            None if rank is None else int(rank),
            int(ranked),
            wins,
            played,
            abandoned,
            rate,
            rounds_won,
            points,
        )

    async def rebuild_aggregates(self) -> None:
        """Recompute every total and rank table from the raw match tables in one transaction, under the totals lock
        (finishes wait; readers see the old totals until the commit). The rank trigger is off for the bulk work."""
        async with self._conn() as conn, conn.transaction():
            await rebuild_aggregates(conn)


async def rebuild_aggregates(conn: asyncpg.Connection) -> None:
    """:meth:`PostgresStore.rebuild_aggregates` inside the caller's transaction on ``conn``."""
    await conn.execute("SELECT pg_advisory_xact_lock($1)", TOTALS_LOCK)
    await conn.execute("ALTER TABLE player_totals DISABLE TRIGGER USER")
    for table in ("player_totals", *_RANK_TABLES):
        await conn.execute(f"DELETE FROM {table}", timeout=None)
    await conn.execute(_REBUILD_FINEST, timeout=None)
    for guild, mode, group in (
        ("guild_id", f"'{ALL_MODES}'", "guild_id, "),
        (str(ALL_GUILDS), "mode", "mode, "),
        (str(ALL_GUILDS), f"'{ALL_MODES}'", ""),
    ):
        await conn.execute(_REBUILD_WIDER.format(guild=guild, mode=mode, group=group), timeout=None)
    for table, keys in _RANK_TABLES.items():
        await conn.execute(
            f"INSERT INTO {table} SELECT {keys}, count(*) FROM player_totals WHERE played > 0 GROUP BY {keys}",
            timeout=None,
        )
    await conn.execute("ALTER TABLE player_totals ENABLE TRIGGER USER")
