"""The SQLite store: one file behind settings, live games, match results and leaderboards (the embedded default).

Implements :class:`bot.storage.Store`; :func:`bot.storage.open_store` opens it for a file path.

Transactions and concurrency
    Three aiosqlite connections (each runs its queries in its own thread), in autocommit mode with explicit
    transactions. The *writer* does every write, under an :class:`asyncio.Lock` held for the whole transaction
    (``BEGIN IMMEDIATE … COMMIT``, or a single statement), so concurrent callers are serialised in arrival order and
    never join or interleave with each other's transaction. The *reader* (``query_only``) answers every read, each in
    one statement; in WAL mode it sees the last committed state, never a half-done transaction, and a slow read never
    holds up a snapshot write. The third runs WAL checkpoints in the background (see ``Store._committed``).
    Another process (a second bot, a CLI) waits up to 5 s for a lock (``busy_timeout``).

Durability
    ``journal_mode=WAL`` with ``synchronous=NORMAL``: when a write method returns, its transaction is in the WAL file.
    That survives the process being killed (``kill -9``, a crash) because the data has been handed to the operating
    system; only a power cut or kernel crash can lose the last commits (it never corrupts the file).
    ``synchronous=FULL`` would close that gap at the price of an fsync per commit.

Leaderboards
    Totals per player live in ``player_totals`` for four scopes (server × mode, server × all modes, all servers × mode,
    all servers × all modes) and are updated in the transaction that records a match, so top-N reads a few index entries
    whatever the number of matches; triggers keep small histograms from which a rank is a sum of a few rows
    (migration 0001 explains them). :meth:`Store.rebuild_aggregates` recomputes all of it from the raw match tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from . import _migrations
from ._common import (
    ALL_GUILDS,
    ALL_MODES,
    BUCKET_SHIFT,
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
    shard_keys,
)

log = logging.getLogger(__name__)

_RANK_TABLES = {
    "rank_by_wins": "guild_id, mode, wins",
    "rank_by_played": "guild_id, mode, wins, played",
    "rank_by_bucket": "guild_id, mode, wins, played, user_id >> 52",
}
"""The rank tables of migration 0001 and the player_totals columns they count ranked players by."""
_WAL_AUTOCHECKPOINT = 4000
_BUCKET_SHIFT = BUCKET_SHIFT
_SELECT_SETTINGS = f"SELECT {SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = ?"
_TRANSIENT = ("locked", "busy", "disk i/o", "full", "unable to open", "readonly", "read-only")
"""Words of the ``sqlite3.OperationalError`` messages that mean the file cannot be used right now."""
_WRITES_ONLY = ("full", "readonly", "read-only")
"""Of those, the words that mean only writes fail ("database or disk is full", "attempt to write a readonly
database"): reads still work (:attr:`StorageUnavailable.writes_only`)."""


_RANK_COLUMNS = RANK_COLUMNS

# One statement, so one snapshot. The rank is 1 + how many ranked players come before this one in RANK_ORDER, summed
# from the rank tables (migration 0001): more wins; as many wins and a better win rate, i.e. fewer matches played (or,
# at 0 wins, more matches played); the same (wins, played) and an earlier user-id bucket; and a count of the few index
# entries of the player's own bucket with a smaller user id.
_PLAYER_STATS = f"""
SELECT t.user_id, t.display_name, t.wins, t.played, t.abandoned, t.win_rate, t.rounds_won, t.points,
    CASE WHEN t.played > 0 THEN 1
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins > t.wins)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_played AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins
           AND CASE WHEN t.wins > 0 THEN r.played < t.played ELSE r.played > t.played END)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_bucket AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins AND r.played = t.played
           AND r.bucket < t.user_id >> {_BUCKET_SHIFT})
      + (SELECT count(*) FROM player_totals AS o
         WHERE o.guild_id = t.guild_id AND o.mode = t.mode AND o.wins = t.wins
           AND o.win_rate = t.win_rate AND o.played = t.played
           AND o.user_id >= (t.user_id >> {_BUCKET_SHIFT}) << {_BUCKET_SHIFT} AND o.user_id < t.user_id)
    END,
    (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r WHERE r.guild_id = t.guild_id AND r.mode = t.mode)
FROM player_totals AS t
WHERE t.guild_id = ? AND t.mode = ? AND t.user_id = ?
"""

_UPSERT_GAME = (
    "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "mode = excluded.mode, status = excluded.status, version = excluded.version, snapshot = excluded.snapshot, "
    "updated_at = excluded.updated_at"
)

# Fenced (issue 16 point 5): a row is written only if its writer (column8; NULL = unfenced) holds the channel's lease
# by the database's clock, and (column9; NULL = any) the stored game is still at the version the writer expects.
# RETURNING names the rows written; the others were refused.
_UPSERT_GAMES = (
    "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
    "SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7 FROM (VALUES {values}) AS v "
    "WHERE (v.column8 IS NULL OR EXISTS (SELECT 1 FROM game_leases AS l WHERE l.channel_id = v.column1 "
    "AND l.owner = v.column8 AND l.expires_at > uno_now())) "
    "AND (v.column9 IS NULL OR NOT EXISTS (SELECT 1 FROM live_games AS g WHERE g.channel_id = v.column1 "
    "AND g.version != v.column9)) "
    "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "mode = excluded.mode, status = excluded.status, version = excluded.version, snapshot = excluded.snapshot, "
    "updated_at = excluded.updated_at RETURNING channel_id"
)
_SAVE_CHUNK = 400  # rows per statement: 9 parameters each, far below SQLite's limit
_FENCE = (
    "SELECT (?2 IS NULL OR EXISTS (SELECT 1 FROM game_leases WHERE channel_id = ?1 AND owner = ?2 "
    "AND expires_at > uno_now())) AND (?3 IS NULL OR NOT EXISTS (SELECT 1 FROM live_games "
    "WHERE channel_id = ?1 AND version != ?3))"
)

_UPSERT_TOTALS = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, CASE WHEN ?7 > 0 THEN ?6 * 1.0 / ?7 ELSE 0.0 END)
ON CONFLICT (guild_id, mode, user_id) DO UPDATE SET
    display_name = CASE WHEN excluded.last_match_id >= last_match_id THEN excluded.display_name ELSE display_name END,
    last_match_id = max(last_match_id, excluded.last_match_id),
    wins = wins + excluded.wins,
    played = played + excluded.played,
    abandoned = abandoned + excluded.abandoned,
    rounds_won = rounds_won + excluded.rounds_won,
    points = points + excluded.points,
    win_rate = CASE WHEN played + excluded.played > 0
                    THEN (wins + excluded.wins) * 1.0 / (played + excluded.played) ELSE 0.0 END
"""

# rebuild_aggregates: the finest scope (server x mode) from the raw rows, then the three wider scopes from it. With a
# single max() in a GROUP BY, SQLite takes the bare column display_name from the row holding that max (documented
# behaviour), i.e. from the most recently recorded match, as the incremental upsert does.
_REBUILD_FINEST = """
INSERT INTO player_totals
    (guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points, win_rate)
SELECT guild_id, mode, user_id, display_name, last_match_id, wins, played, abandoned, rounds_won, points,
       CASE WHEN played > 0 THEN wins * 1.0 / played ELSE 0.0 END
FROM (
    SELECT m.guild_id, m.mode, p.user_id, p.display_name, max(m.id) AS last_match_id,
           sum(m.status = 'completed' AND m.winner_seat = p.seat) AS wins,
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


def _refused(channel_id: int, owner: str | None, version: int | None) -> WriteRefused:
    return WriteRefused(
        f"the write of the game in channel {channel_id} was refused: {owner or 'the writer'} does not hold its lease"
        + ("" if version is None else f" or it is no longer at version {version}")
    )


def _raise_unavailable(e: sqlite3.OperationalError) -> None:
    """Raise :class:`StorageUnavailable` from ``e`` when it says the file is locked or cannot be written now."""
    text = str(e).lower()
    if any(word in text for word in _TRANSIENT):
        writes_only = any(word in text for word in _WRITES_ONLY)
        raise StorageUnavailable(f"the SQLite database cannot be used right now: {e}", writes_only=writes_only) from e


class SqliteStore:
    """Settings, live games, match results and leaderboards in one SQLite file (implements :class:`~bot.storage.Store`).

    Open with ``store = await SqliteStore.open(path)`` (or ``async with await SqliteStore.open(path) as store``) and
    close with :meth:`close`. Methods are safe to call from many tasks at once. Bad arguments raise
    :class:`InvalidInputError` (a ``ValueError``) before anything is written; a file that stays locked (another process,
    5 s) or cannot be written (disk full, I/O error) raises :class:`StorageUnavailable`; other database failures raise
    ``sqlite3.Error`` after rolling back.

    The database's clock (issue 16 point 6) decides every lease and shard lock: SQL calls ``uno_now()``, which is
    ``db_clock`` if given (tests) else ``clock`` — the clock of this process, since SQLite runs inside it. A fenced
    write that is refused raises :class:`WriteRefused`.
    """

    def __init__(
        self,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        checkpointer: aiosqlite.Connection,
        path: Path,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> None:
        """Use :meth:`open`."""
        self._validate_options = validate_options
        self._writer = writer
        self._reader = reader
        self._checkpointer = checkpointer
        self._lock = asyncio.Lock()  # the writer: one transaction at a time (every read is one statement)
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._commits_since_checkpoint = 0
        self._last_checkpoint = time.monotonic()
        self._pending_saves: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._saver: asyncio.Task[None] | None = None
        #: Writes committed that changed rows (so reached the file): a database whose writes failed (a full disk) is
        #: seen back by one of them, not by a read (issue 20, point 7; :class:`~bot.storage.OutageLog`).
        self.writes = 0
        self.path = path
        self.clock = clock
        self.db_clock = db_clock or clock

    # --- lifecycle ------------------------------------------------------------------------------------------------

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
        return cls(writer, reader, checkpointer, p, validate_options, clock, db_clock)

    async def close(self) -> None:
        """Wait for the running calls to finish, then close. The store cannot be used afterwards."""
        if self._saver is not None:
            await self._saver
        async with self._lock:  # reads already queued on the reader run before its close
            if self._checkpoint_task is not None:
                await self._checkpoint_task
            await self._checkpointer.close()
            await self._reader.close()
            await self._writer.close()  # the last connection to close checkpoints and removes the WAL file

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the writer for a single-statement transaction (autocommit)."""
        async with self._lock:
            changes = self._writer.total_changes
            try:
                yield self._writer
            except sqlite3.OperationalError as e:
                _raise_unavailable(e)
                raise
            self._wrote(changes)
        self._committed()

    async def _read(self, sql: str, params: Iterable[Any] = ()) -> Iterable[sqlite3.Row]:
        """One read statement on the reader."""
        try:
            return await self._reader.execute_fetchall(sql, tuple(params))
        except sqlite3.OperationalError as e:
            _raise_unavailable(e)
            raise

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the writer and run the body in one ``BEGIN IMMEDIATE`` transaction; roll back on any exception."""
        async with self._lock:
            changes = self._writer.total_changes
            try:
                # Inside the try: a caller cancelled while BEGIN is queued must still roll back (aiosqlite runs every
                # queued statement, in order, whatever happens to the task that queued it).
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writer
                await self._writer.execute("COMMIT")
                self._wrote(changes)
            except BaseException as e:
                # Suppressed: after a cancelled COMMIT (or BEGIN failing) there may be no transaction to roll back.
                with contextlib.suppress(sqlite3.Error):
                    await self._writer.execute("ROLLBACK")
                if isinstance(e, sqlite3.OperationalError):
                    _raise_unavailable(e)
                raise
        self._committed()

    def _wrote(self, changes: int) -> None:
        """A write was committed; it reached the file when it changed rows (``changes``: the writer's
        ``total_changes`` before it): count it in :attr:`writes`."""
        if self._writer.total_changes != changes:
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
            await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as e:
            log.warning("background WAL checkpoint failed: %s", e)

    # --- server settings ------------------------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; defaults when it never changed any. A stored value that is not valid (a damaged or
        hand-edited row) is replaced by its default in the result, with one warning logged per value."""
        check_id("guild_id", guild_id)
        rows = await self._read(_SELECT_SETTINGS, (guild_id,))
        return settings_from_row(guild_id, next(iter(rows), None), self._validate_options)

    async def _read_settings(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        rows = await db.execute_fetchall(_SELECT_SETTINGS, (guild_id,))
        return settings_from_row(guild_id, next(iter(rows), None), self._validate_options)

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
        """Change some of a server's settings (the others keep their value) and return them all.

        ``default_mode`` one of ``classic``/``flip``/``flex``; ``turn_timer`` seconds, 15–600; ``language`` one of
        ``en``/``it``/``es``/``sk`` or ``None`` for each user's Discord locale; ``text_only``, ``turn_pings`` and
        ``game_threads`` ``True``/``False``; ``default_target_score`` 0–100000 (bounds: :mod:`bot.limits`);
        ``default_options`` a dict of rule options (``{}`` = SPEC's defaults) that ``validate_options`` accepts.
        Raises :class:`InvalidInputError` for any bad value, and then changes nothing.
        """
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
        async with self._transaction() as db:
            new = merge_settings(await self._read_settings(db, guild_id), changes)
            await db.execute(
                f"INSERT OR REPLACE INTO guild_settings (guild_id, {SETTINGS_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                settings_row(new),
            )
        return new

    # --- user preferences -----------------------------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences (``/uno prefs``); defaults when they never changed any. A stored value that is not
        valid is replaced by its default in the result, with one warning logged per value."""
        check_id("user_id", user_id)
        return await self._read_prefs(self._reader, user_id)

    @staticmethod
    async def _read_prefs(db: aiosqlite.Connection, user_id: int) -> UserPrefs:
        rows = await db.execute_fetchall("SELECT text_only, large_cards FROM user_prefs WHERE user_id = ?", (user_id,))
        return prefs_from_row(user_id, next(iter(rows), None))

    async def update_prefs(
        self, user_id: int, *, text_only: bool | _Unset = UNSET, large_cards: bool | _Unset = UNSET
    ) -> UserPrefs:
        """Change some of a user's preferences (the others keep their value) and return them all; ``text_only`` and
        ``large_cards`` ``True``/``False``. Raises :class:`InvalidInputError` for a bad value, and then changes
        nothing."""
        check_id("user_id", user_id)
        changes = prefs_changes(text_only, large_cards)
        async with self._transaction() as db:
            new = dataclasses.replace(await self._read_prefs(db, user_id), **changes)
            await db.execute(
                "INSERT OR REPLACE INTO user_prefs (user_id, text_only, large_cards) VALUES (?, ?, ?)",
                (user_id, int(new.text_only), int(new.large_cards)),
            )
        return new

    # --- live games -----------------------------------------------------------------------------------------------

    async def save_game(self, game: LiveGame, *, owner: str | None = None, expected_version: int | None = None) -> None:
        """Insert or replace the live game of ``game.channel_id``; returns once it is committed (the last call wins).

        Fenced (issue 16 point 5): with ``owner``, the write happens only if ``owner`` holds the channel's lease by the
        database's clock; with ``expected_version``, only if the stored game is at that version (or there is none).
        Otherwise nothing is written and :class:`WriteRefused` is raised.

        Group commit: the saves of many games arriving together share one transaction, so a busy bot pays for one
        commit per batch instead of one per action; each caller still returns only after its row is committed.
        Raises :class:`InvalidInputError` for a bad field or a snapshot that is not a JSON-able dict.
        """
        row = check_live_game(game)
        if owner is not None:
            check_owner(owner)
        fenced = (*row, owner, check_version(expected_version))
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending_saves.append((fenced, done))
        if self._saver is None or self._saver.done():
            self._saver = loop.create_task(self._flush_saves(), name="uno-storage-save")
        await done

    async def _flush_saves(self) -> None:
        """Commit the queued saves in batches, in arrival order, until none are left. A channel saved twice in a row
        waits for the next batch with its second save (each save is fenced on the state the one before left)."""
        while self._pending_saves:
            batch: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
            later: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
            seen: set[int] = set()
            for item in self._pending_saves:
                channel = item[0][0]
                if channel in seen:
                    later.append(item)
                else:
                    seen.add(channel)
                    batch.append(item)
            self._pending_saves = later
            # One multi-row statement per chunk: the writer thread binds a whole batch under one hold of the GIL instead
            # of asking for it row by row (a busy event loop makes each of those asks wait a switch interval).
            rows = [row for row, _ in batch]
            written: set[int] = set()
            try:
                for i in range(0, len(rows), _SAVE_CHUNK):
                    chunk = rows[i : i + _SAVE_CHUNK]
                    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
                    # one statement = one transaction in autocommit mode: a single trip to the writer thread
                    async with self._writing() as db:
                        got = await db.execute_fetchall(
                            _UPSERT_GAMES.format(values=values), [v for row in chunk for v in row]
                        )
                    written.update(int(r[0]) for r in got)
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for row, fut in batch:
                if fut.done():
                    continue
                if row[0] in written:
                    fut.set_result(None)
                else:
                    fut.set_exception(_refused(row[0], row[7], row[8]))

    async def _fenced(self, db: aiosqlite.Connection, channel_id: int, owner: str | None, version: int | None) -> None:
        """Inside a transaction on the writer: raise :class:`WriteRefused` unless the fence of a write holds."""
        rows = await db.execute_fetchall(_FENCE, (channel_id, owner, version))
        if not next(iter(rows))[0]:
            raise _refused(channel_id, owner, version)

    async def delete_game(self, channel_id: int, *, owner: str | None = None) -> bool:
        """Remove the channel's live game; ``False`` if there was none. With ``owner``: fenced on its lease (see
        :meth:`save_game`; :class:`WriteRefused` and nothing deleted when it does not hold it)."""
        check_id("channel_id", channel_id)
        if owner is None:
            async with self._writing() as db:
                cur = await db.execute("DELETE FROM live_games WHERE channel_id = ?", (channel_id,))
            return cur.rowcount > 0
        check_owner(owner)
        async with self._transaction() as db:
            await self._fenced(db, channel_id, owner, None)
            cur = await db.execute("DELETE FROM live_games WHERE channel_id = ?", (channel_id,))
        return cur.rowcount > 0

    async def load_games(
        self, validate: Callable[[dict[str, Any]], object] | None = None, *, shards: Shards | None = None
    ) -> list[LiveGame]:
        """All live games by channel id; with ``shards``, only those of the guilds it owns (:meth:`Shards.owns`).

        A row whose snapshot is not a JSON object, whose other columns are malformed, or for which
        ``validate(snapshot)`` raises (any ``Exception``; its return value is ignored) is set aside: moved to
        ``quarantined_games`` with the reason, and one warning is logged. It never stops the others from loading.
        """
        where: str = ""
        params: tuple[int, ...] = ()
        shards = check_shards(shards)
        if shards is not None:
            where = f"WHERE (guild_id >> 22) % ? IN ({', '.join('?' * len(shards.ids))}) "
            params = (shards.count, *sorted(shards.ids))
        rows = await self._read(
            "SELECT channel_id, guild_id, mode, status, version, CAST(snapshot AS BLOB), updated_at "
            f"FROM live_games {where}ORDER BY channel_id",
            params,
        )
        games: list[LiveGame] = []
        bad: list[tuple[object, bytes, str]] = []
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

    async def _quarantine(self, bad: Iterable[tuple[object, bytes, str]]) -> None:
        now = time.time()
        async with self._transaction() as db:
            for channel_id, raw, reason in bad:
                # Only if the row is still the one that was read (a save_game may have replaced it meanwhile).
                cur = await db.execute(
                    "INSERT INTO quarantined_games "
                    "(channel_id, guild_id, mode, status, version, snapshot, updated_at, reason, quarantined_at) "
                    "SELECT channel_id, guild_id, mode, status, version, snapshot, updated_at, ?, ? FROM live_games "
                    "WHERE channel_id IS ? AND CAST(snapshot AS BLOB) IS ?",
                    (reason, now, channel_id, raw),
                )
                if cur.rowcount:
                    await db.execute(
                        "DELETE FROM live_games WHERE channel_id IS ? AND CAST(snapshot AS BLOB) IS ?",
                        (channel_id, raw),
                    )
                    log.warning(
                        "set aside the live game of channel %s (moved to quarantined_games): %s", channel_id, reason
                    )

    # --- leases -------------------------------------------------------------------------------------------------

    async def acquire_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Take or extend the lease of the channel's game until ``uno_now() + ttl`` (the database's clock); ``True``
        if ``owner`` holds it now, ``False`` (nothing changed) while another owner's lease has not expired. ``ttl``
        seconds, 0 < ttl ≤ 86400."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        async with self._writing() as db:
            cur = await db.execute(
                "INSERT INTO game_leases (channel_id, owner, expires_at) VALUES (?1, ?2, uno_now() + ?3) "
                "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
                "WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= uno_now()",
                (channel_id, owner, ttl),
            )
        return cur.rowcount > 0

    async def acquire_leases(self, channel_ids: Iterable[int], owner: str, ttl: float) -> dict[int, str]:
        """Take (or extend) every lease of ``channel_ids`` that is free, expired or ``owner``'s until ``uno_now() +
        ttl``, in one transaction; returns each channel's lease owner now (``owner`` where it got it)."""
        channels = check_ids("channel_id", channel_ids)
        check_owner(owner)
        ttl = check_ttl(ttl)
        if not channels:
            return {}
        keys = json.dumps(channels)
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO game_leases (channel_id, owner, expires_at) "
                "SELECT value, ?2, uno_now() + ?3 FROM json_each(?1) WHERE true "
                "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
                "WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= uno_now()",
                (keys, owner, ttl),
            )
            rows = await db.execute_fetchall(
                "SELECT channel_id, owner FROM game_leases WHERE channel_id IN (SELECT value FROM json_each(?))",
                (keys,),
            )
        return {int(c): str(o) for c, o in rows}

    async def renew_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Extend ``owner``'s lease until ``uno_now() + ttl``; ``False`` if ``owner`` no longer holds it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        async with self._writing() as db:
            cur = await db.execute(
                "UPDATE game_leases SET expires_at = uno_now() + ? WHERE channel_id = ? AND owner = ?",
                (ttl, channel_id, owner),
            )
        return cur.rowcount > 0

    async def renew_leases(self, owner: str, ttl: float) -> Held:
        """Extend every lease and shard lock ``owner`` still holds to ``uno_now() + ttl`` in one transaction (issue 16
        point 7); returns which it holds (one it held before and that is missing here was taken over or released)."""
        check_owner(owner)
        ttl = check_ttl(ttl)
        async with self._transaction() as db:
            channels = await db.execute_fetchall(
                "UPDATE game_leases SET expires_at = uno_now() + ? WHERE owner = ? RETURNING channel_id", (ttl, owner)
            )
            shards = await db.execute_fetchall(
                "UPDATE shard_locks SET expires_at = uno_now() + ? WHERE owner = ? RETURNING shard_count, shard_id",
                (ttl, owner),
            )
        return Held(sorted(int(r[0]) for r in channels), sorted((int(r[0]), int(r[1])) for r in shards))

    async def release_lease(self, channel_id: int, owner: str) -> bool:
        """Give up ``owner``'s lease of the channel; ``False`` if ``owner`` did not hold it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        async with self._writing() as db:
            cur = await db.execute("DELETE FROM game_leases WHERE channel_id = ? AND owner = ?", (channel_id, owner))
        return cur.rowcount > 0

    async def release_leases(self, owner: str) -> int:
        """Give up every lease and shard lock of ``owner`` (a clean stop); returns how many game leases it held."""
        check_owner(owner)
        async with self._transaction() as db:
            cur = await db.execute("DELETE FROM game_leases WHERE owner = ?", (owner,))
            count = int(cur.rowcount)
            await db.execute("DELETE FROM shard_locks WHERE owner = ?", (owner,))
        return count

    async def lease_owner(self, channel_id: int) -> str | None:
        """The owner of the channel's unexpired lease, or ``None``."""
        check_id("channel_id", channel_id)
        rows = await self._read(
            "SELECT owner FROM game_leases WHERE channel_id = ? AND expires_at > uno_now()", (channel_id,)
        )
        row = next(iter(rows), None)
        return None if row is None else str(row[0])

    async def acquire_shards(self, shards: Shards | None, owner: str, ttl: float) -> dict[tuple[int, int], str]:
        """Take (or extend) the lock of every shard of ``shards`` that is free, expired or already ``owner``'s, in one
        transaction; returns the owner of each of those shard locks now (``owner`` where it got it)."""
        keys = shard_keys(check_shards(shards))
        check_owner(owner)
        ttl = check_ttl(ttl)
        async with self._transaction() as db:
            for count, shard in keys:
                await db.execute(
                    "INSERT INTO shard_locks (shard_count, shard_id, owner, expires_at) VALUES (?1, ?2, ?3, "
                    "uno_now() + ?4) ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
                    "expires_at = excluded.expires_at "
                    "WHERE shard_locks.owner = excluded.owner OR shard_locks.expires_at <= uno_now()",
                    (count, shard, owner, ttl),
                )
            rows = await db.execute_fetchall(
                "SELECT shard_count, shard_id, owner FROM shard_locks WHERE "
                + " OR ".join(["(shard_count = ? AND shard_id = ?)"] * len(keys)),
                [v for key in keys for v in key],
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
        """Record a finished match and end its live game, all in one transaction.

        Writes the match, its players and rounds, updates the leaderboard totals of its human players, and either
        deletes the live game of ``result.channel_id`` or, with ``replace_with`` (same channel), stores that instead
        (e.g. a "match over" table the channel keeps showing). Either everything is committed or nothing is.

        Returns ``False`` and writes nothing if a match with the same ``match_key`` was already recorded.
        Raises :class:`InvalidInputError` for a malformed result (see :class:`MatchResult`); fenced like
        :meth:`save_game` by ``owner`` and ``expected_version`` (:class:`WriteRefused`, nothing written).
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
        async with self._transaction() as db:
            if owner is not None or version is not None:
                await self._fenced(db, result.channel_id, owner, version)
            cur = await db.execute(
                "INSERT INTO matches (match_key, mode, guild_id, channel_id, status, target_score, rounds_played, "
                "winner_seat, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (match_key) DO NOTHING",
                (
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
                ),
            )
            if cur.rowcount == 0:
                return False  # already recorded; the transaction commits nothing
            match_id = cur.lastrowid
            await db.executemany(
                "INSERT INTO match_players (match_id, seat, user_id, display_name, is_ai, final_score, placement, "
                "rounds_won, points_scored) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        p.seat,
                        p.user_id,
                        p.display_name,
                        int(p.is_ai),
                        p.final_score,
                        p.placement,
                        p.rounds_won,
                        p.points_scored,
                    )
                    for p in result.players
                ],
            )
            await db.executemany(
                "INSERT INTO match_rounds (match_id, number, winner_seat, points) VALUES (?, ?, ?, ?)",
                [(match_id, r.number, r.winner_seat, r.points) for r in result.rounds],
            )
            assert match_id is not None
            totals = totals_rows(result, match_id)
            await db.executemany(_UPSERT_TOTALS, totals)
            if game_row is None:
                await db.execute("DELETE FROM live_games WHERE channel_id = ?", (result.channel_id,))
            else:
                await db.execute(_UPSERT_GAME, game_row)
        return True

    # --- leaderboards ---------------------------------------------------------------------------------------------

    async def leaderboard(
        self, *, guild_id: int | None, mode: str | None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a leaderboard, in :data:`RANK_ORDER`; ranks are ``offset + 1, offset + 2, …``.

        ``guild_id`` a server, or ``None`` for all servers; ``mode`` a mode, or ``None`` for all modes. Only players
        with at least one completed match are listed; AI seats never are. ``limit`` 1–1000, ``offset`` ≥ 0.
        """
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        limit, offset = check_page(limit, offset)
        rows = await self._read(
            f"SELECT {_RANK_COLUMNS} FROM player_totals WHERE guild_id = ? AND mode = ? AND played > 0 "
            f"ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?",
            (*key, limit, offset),
        )
        return [LeaderboardRow(offset + i, *row) for i, row in enumerate(rows, start=1)]

    async def leaderboard_count(self, *, guild_id: int | None, mode: str | None) -> int:
        """How many players the leaderboard lists (for "page k of n": ``n = ceil(count / limit)``)."""
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._read(
            "SELECT coalesce(sum(players), 0) FROM rank_by_wins WHERE guild_id = ? AND mode = ?", key
        )
        return int(next(iter(rows))[0])

    async def player_stats(self, user_id: int, *, guild_id: int | None, mode: str | None) -> PlayerStats | None:
        """A player's totals and rank in one scope (``None`` = all servers / all modes); ``None`` if the player has no
        finished match there. ``rank`` is ``None`` while they have only abandoned matches."""
        check_id("user_id", user_id)
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._read(_PLAYER_STATS, (*key, user_id))
        if not rows:
            return None
        uid, name, wins, played, abandoned, rate, rounds_won, points, rank, ranked = next(iter(rows))
        return PlayerStats(uid, name, guild_id, mode, rank, ranked, wins, played, abandoned, rate, rounds_won, points)

    async def rebuild_aggregates(self) -> None:
        """Recompute every leaderboard total and rank table from the raw match tables, in one transaction (readers see
        the old ones until it commits). For repairs and after importing matches; about a minute per million matches.

        The rank triggers are dropped for the bulk work and created again from their own stored SQL before the commit,
        so the rank tables are computed with one GROUP BY each instead of a trigger call per row.
        """
        async with self._transaction() as db:
            triggers = await db.execute_fetchall(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'player_totals'"
            )
            for name, _ in triggers:
                await db.execute(f'DROP TRIGGER "{name}"')
            for table in ("player_totals", *_RANK_TABLES):
                await db.execute(f"DELETE FROM {table}")
            await db.execute(_REBUILD_FINEST)
            for guild, mode, group in (
                ("guild_id", f"'{ALL_MODES}'", "guild_id, "),
                (str(ALL_GUILDS), "mode", "mode, "),
                (str(ALL_GUILDS), f"'{ALL_MODES}'", ""),
            ):
                await db.execute(_REBUILD_WIDER.format(guild=guild, mode=mode, group=group))
            for table, keys in _RANK_TABLES.items():
                await db.execute(
                    f"INSERT INTO {table} SELECT {keys}, count(*) FROM player_totals WHERE played > 0 GROUP BY {keys}"
                )
            for _, sql in triggers:
                await db.execute(sql)


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
