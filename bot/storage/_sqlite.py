"""The SQLite dialect: one file behind the store (the embedded default). Holds connections, transactions, errors and
the statements whose SQL must differ from PostgreSQL's; every behaviour is :class:`bot.storage._store.SqlStore`'s.
:func:`bot.storage.open_store` opens it for a file path.

Transactions and concurrency
    Three aiosqlite connections (each runs its queries in its own thread), in autocommit mode with explicit
    transactions. The *writer* does every write, under an :class:`asyncio.Lock` held for the whole transaction
    (``BEGIN IMMEDIATE … COMMIT``, or a single statement), so concurrent callers are serialised in arrival order and
    never join or interleave with each other's transaction. The *reader* (``query_only``) answers every read, each in
    one statement; in WAL mode it sees the last committed state, never a half-done transaction, and a slow read never
    holds up a snapshot write. The third runs WAL checkpoints in the background (see ``SqliteDialect._committed``).
    Another process (a second bot, a CLI) waits up to 5 s for a lock (``busy_timeout``).

Durability
    ``journal_mode=WAL`` with ``synchronous=NORMAL``: when a write method returns, its transaction is in the WAL file.
    That survives the process being killed (``kill -9``, a crash) because the data has been handed to the operating
    system; only a power cut or kernel crash can lose the last commits (it never corrupts the file).
    ``synchronous=FULL`` would close that gap at the price of an fsync per commit.

The database's clock
    SQL calls ``uno_now()``, which is ``db_clock`` if given (tests) else ``clock``: the clock of this process, since
    SQLite runs inside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from . import _migrations
from ._dialect import Now, Row, SeasonKey, numbered_to_sqlite
from ._models import OptionsValidator, StorageError, StorageUnavailable
from ._store import SqlStore

log = logging.getLogger(__name__)

_WAL_AUTOCHECKPOINT = 4000
_TRANSIENT = ("locked", "busy", "disk i/o", "full", "unable to open", "readonly", "read-only")
"""Words of the ``sqlite3.OperationalError`` messages that mean the file cannot be used right now."""
_WRITES_ONLY = ("full", "readonly", "read-only")
"""Of those, the words that mean only writes fail ("database or disk is full", "attempt to write a readonly
database"): reads still work (:attr:`StorageUnavailable.writes_only`)."""
_NUMBERED = re.compile(r"\?(\d+)")
_FRAGMENTS = {
    "now": Now("uno_now()"),
    "for_update": "",
    "greatest": "max",
    "raw_snapshot": "CAST(snapshot AS BLOB)",
    "same": "IS",
    # as migration 0007's backfill: the ISO week of the Thursday of the week (3 days back, then forward to a Thursday)
    "season": SeasonKey(
        {
            "weekly": "(strftime('%Y', {t}, 'unixepoch', '-3 days', 'weekday 4') || '-W' || printf('%02d', "
            "(CAST(strftime('%j', {t}, 'unixepoch', '-3 days', 'weekday 4') AS INTEGER) + 6) / 7))",
            "monthly": "strftime('%Y-%m', {t}, 'unixepoch')",
            "quarterly": "(strftime('%Y', {t}, 'unixepoch') || '-Q' || "
            "((CAST(strftime('%m', {t}, 'unixepoch') AS INTEGER) + 2) / 3))",
        }
    ),
}

# rebuild_aggregates: with a single max() in a GROUP BY, SQLite takes the bare column display_name from the row holding
# that max (documented behaviour), i.e. from the most recently recorded match, as the incremental upsert does.
_REBUILD_FINEST = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points,
       CASE WHEN played > 0 THEN wins * 1.0 / played ELSE 0.0 END
FROM (
    SELECT m.guild_id, m.mode, p.user_id, p.display_name, max(m.id) AS last_match_id,
           sum(m.status = 'completed' AND p.placement = 1) AS wins,
           sum(m.status = 'completed') AS played,
           sum(m.status = 'abandoned') AS abandoned,
           sum(p.rounds_won) AS rounds_won,
           sum(p.points_scored) AS points
    FROM match_players AS p JOIN matches AS m ON m.id = p.match_id
    WHERE p.user_id IS NOT NULL AND p.is_ai = 0
    GROUP BY m.guild_id, m.mode, p.user_id
)
"""
_REBUILD_WIDER = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT scope_guild, scope_mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points,
       CASE WHEN played > 0 THEN wins * 1.0 / played ELSE 0.0 END
FROM (
    SELECT {guild} AS scope_guild, {mode} AS scope_mode, user_id, display_name, max(last_match_id) AS last_match_id,
           sum(wins) AS wins, sum(played) AS played, sum(abandoned) AS abandoned, sum(rounds_won) AS rounds_won,
           sum(points) AS points
    FROM player_totals
    WHERE guild_id != 0 AND mode != '*'
    GROUP BY {group}user_id
)
"""
# No data-modifying WITH in SQLite: two statements, in one transaction (the writer is in-process).
_ACQUIRE_LEASES = (
    "INSERT INTO game_leases (channel_id, owner, expires_at) "
    "SELECT value, $2, {now:4} + $3 FROM json_each($1) WHERE true "
    "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
    "WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= {now:4}",
    "SELECT channel_id, owner FROM game_leases WHERE channel_id IN (SELECT value FROM json_each($1))",
)
_RENEW_LEASES = (
    "UPDATE game_leases SET expires_at = {now:3} + $2 WHERE owner = $1 RETURNING channel_id, NULL, NULL",
    "UPDATE shard_locks SET expires_at = {now:3} + $2 WHERE owner = $1 RETURNING NULL, shard_count, shard_id",
)


def _raise_unavailable(e: sqlite3.OperationalError) -> None:
    """Raise :class:`StorageUnavailable` from ``e`` when it says the file is locked or cannot be written now."""
    text = str(e).lower()
    if any(word in text for word in _TRANSIENT):
        writes_only = any(word in text for word in _WRITES_ONLY)
        raise StorageUnavailable(f"the SQLite database cannot be used right now: {e}", writes_only=writes_only) from e


@functools.lru_cache(maxsize=1024)
def _sql(template: str) -> str:
    return numbered_to_sqlite(template.format_map(_FRAGMENTS))


@functools.lru_cache(maxsize=1024)
def _params(template: str) -> int:
    """How many parameters the statement binds: its highest ``?N``."""
    return max((int(n) for n in _NUMBERED.findall(_sql(template))), default=0)


def _bind(sql: str, args: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
    """The statement in SQLite's SQL with the first parameters it names (see bot.storage._dialect)."""
    return _sql(sql), args[: _params(sql)]


class _Tx:
    """A transaction on the writer."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any, slow: bool = False) -> Sequence[Row]:
        return list(await self._db.execute_fetchall(*_bind(sql, args)))

    async def execute(self, sql: str, *args: Any, slow: bool = False) -> int:
        cur = await self._db.execute(*_bind(sql, args))
        return int(cur.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(_sql(sql), rows)


class SqliteDialect:
    """The SQLite file's connections (see the module text) and its SQL (:class:`bot.storage._dialect.Dialect`)."""

    name: str = "sqlite"
    save_chunk: int = 400  # rows per statement: 9 parameters each, far below SQLite's limit
    totals_lock: str | None = None
    renew_statements: tuple[str, ...] = _RENEW_LEASES
    acquire_statements: tuple[str, ...] = _ACQUIRE_LEASES
    rebuild_finest: str = _REBUILD_FINEST
    rebuild_wider: str = _REBUILD_WIDER

    def __init__(
        self, writer: aiosqlite.Connection, reader: aiosqlite.Connection, checkpointer: aiosqlite.Connection
    ) -> None:
        self.writer = writer
        self.reader = reader
        self.checkpointer = checkpointer
        self._lock = asyncio.Lock()  # the writer: one transaction at a time (every read is one statement)
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._commits_since_checkpoint = 0
        self._last_checkpoint = time.monotonic()
        #: Writes committed that changed rows (so reached the file): a database whose writes failed (a full disk) is
        #: seen back by one of them, not by a read (issue 20, point 7; :class:`~bot.storage.OutageLog`).
        self.writes = 0

    def sql(self, template: str) -> str:
        return _sql(template)

    def id_list(self, ids: list[int]) -> Any:
        return json.dumps(ids)

    def shift(self) -> float | None:
        return None  # uno_now() reads the test's db_clock itself

    async def read(self, sql: str, *args: Any) -> Sequence[Row]:
        try:
            return list(await self.reader.execute_fetchall(*_bind(sql, args)))
        except sqlite3.OperationalError as e:
            _raise_unavailable(e)
            raise

    async def write(self, sql: str, *args: Any) -> Sequence[Row]:
        """One statement on the writer in autocommit mode: a single trip to the writer thread."""
        async with self._lock:
            changes = self.writer.total_changes
            try:
                rows = list(await self.writer.execute_fetchall(*_bind(sql, args)))
            except sqlite3.OperationalError as e:
                _raise_unavailable(e)
                raise
            self._wrote(changes)
        self._committed()
        return rows

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Tx]:
        """Hold the writer and run the body in one ``BEGIN IMMEDIATE`` transaction; roll back on any exception."""
        async with self._lock:
            changes = self.writer.total_changes
            try:
                # Inside the try: a caller cancelled while BEGIN is queued must still roll back (aiosqlite runs every
                # queued statement, in order, whatever happens to the task that queued it).
                await self.writer.execute("BEGIN IMMEDIATE")
                yield _Tx(self.writer)
                await self.writer.execute("COMMIT")
                self._wrote(changes)
            except BaseException as e:
                # Suppressed: after a cancelled COMMIT (or BEGIN failing) there may be no transaction to roll back.
                with contextlib.suppress(sqlite3.Error):
                    await self.writer.execute("ROLLBACK")
                if isinstance(e, sqlite3.OperationalError):
                    _raise_unavailable(e)
                raise
        self._committed()

    @contextlib.asynccontextmanager
    async def without_triggers(self, tx: Any) -> AsyncIterator[None]:
        """Drop the triggers of ``player_totals`` and create them again from their own stored SQL before the commit."""
        triggers = await tx.fetch(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'player_totals'"
        )
        for name, _ in triggers:
            await tx.execute(f'DROP TRIGGER "{name}"')
        yield
        for _, sql in triggers:
            await self.writer.execute(sql)  # as stored: not shared SQL

    def _wrote(self, changes: int) -> None:
        """A write was committed; it reached the file when it changed rows (``changes``: the writer's
        ``total_changes`` before it): count it in :attr:`writes`."""
        if self.writer.total_changes != changes:
            self.writes += 1

    def _committed(self) -> None:
        """Start a background WAL checkpoint now and then, so that commits do not pay for one.

        Left to itself the committing connection copies the WAL back into the database (and fsyncs it) every
        1000 pages, which makes an unlucky commit tens of milliseconds slow. Instead a third connection runs a
        ``PASSIVE`` checkpoint (it never blocks the writer or the reader) after every 16 commits or 1 s, one at a time;
        the writer's own autocheckpoint stays as a safety net at 4000 pages.
        """
        self._commits_since_checkpoint += 1
        if self._checkpoint_task is not None and not self._checkpoint_task.done():
            return
        now = time.monotonic()
        if self._commits_since_checkpoint >= 16 or now - self._last_checkpoint >= 1.0:
            self._commits_since_checkpoint = 0
            self._last_checkpoint = now
            self._checkpoint_task = asyncio.create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await self.checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as e:
            log.warning("background WAL checkpoint failed: %s", e)

    async def close(self) -> None:
        async with self._lock:  # reads already queued on the reader run before its close
            if self._checkpoint_task is not None:
                await self._checkpoint_task
            await self.checkpointer.close()
            await self.reader.close()
            await self.writer.close()  # the last connection to close checkpoints and removes the WAL file


class SqliteStore(SqlStore):
    """The store in one SQLite file (see the module text and :class:`~bot.storage._store.SqlStore`).

    Open with ``store = await SqliteStore.open(path)`` (or ``async with await SqliteStore.open(path) as store``) and
    close with :meth:`close`. A file that stays locked (another process, 5 s) or cannot be written (disk full, I/O
    error) raises :class:`StorageUnavailable`; other database failures raise ``sqlite3.Error`` after rolling back.
    """

    def __init__(
        self,
        db: SqliteDialect,
        path: Path,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> None:
        """Use :meth:`open`."""
        super().__init__(db, validate_options, clock, db_clock or clock)
        self.path = path
        self._sqlite = db

    @property
    def writes(self) -> int:
        """Writes committed that changed rows (:attr:`SqliteDialect.writes`; :class:`~bot.storage.OutageLog` reads
        it)."""
        return self._sqlite.writes

    @property
    def _writer(self) -> aiosqlite.Connection:
        """The writer connection (tests reach it to simulate a full disk or a short busy timeout)."""
        return self._sqlite.writer

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> SqliteStore:
        """Open (creating it and its parent folder if needed) the database at ``path`` and bring its schema up to date.

        ``validate_options`` checks a server's ``default_options`` when they are saved and when they are read (the bot
        passes ``bot.engine.options.Options.from_dict``; storage itself knows nothing of the rules).

        Raises :class:`SchemaTooNewError` if the file was written by a newer bot, :class:`StorageError` if it is not an
        SQLite database or cannot be opened; in both cases the file is left as it was.
        """
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        now = db_clock or clock
        try:
            writer = await _connect(p, opened, now)
            mode = await writer.execute_fetchall("PRAGMA journal_mode = WAL")
            if str(next(iter(mode))[0]).lower() != "wal":
                raise StorageError(f"cannot switch {p} to WAL mode")
            await writer.execute("PRAGMA synchronous = NORMAL")
            await writer.execute("PRAGMA foreign_keys = ON")
            await writer.execute(f"PRAGMA wal_autocheckpoint = {_WAL_AUTOCHECKPOINT}")
            await _migrations.migrate(writer)
            reader = await _connect(p, opened, now)
            await reader.execute("PRAGMA query_only = ON")
            checkpointer = await _connect(p, opened, now)
        except BaseException as e:
            for db in reversed(opened):
                await db.close()
            if isinstance(e, sqlite3.DatabaseError):
                raise StorageError(f"cannot use database {p}: {e}") from e
            raise
        return cls(SqliteDialect(writer, reader, checkpointer), p, validate_options, clock, db_clock)


async def _connect(path: Path, opened: list[aiosqlite.Connection], now: Callable[[], float]) -> aiosqlite.Connection:
    """A connection in autocommit mode (transactions are explicit) that waits up to 5 s for another process's lock;
    appended to ``opened`` so that the caller can close it if a later step fails. SQL on it may call ``uno_now()``,
    the database's clock in Unix seconds (``now``)."""
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open database {path}: {e}") from e
    opened.append(db)
    await db.execute("PRAGMA busy_timeout = 5000")
    await db.create_function("uno_now", 0, lambda: float(now()))
    return db
