"""The store: the SQLite file behind settings, live games, match results and leaderboards, used by the adapter and cogs.

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
from typing import Any, Final

import aiosqlite

from bot.limits import TARGET_SCORE_DEFAULT, TARGET_SCORE_MAX

from . import _migrations
from ._models import (
    DEFAULT_MODE,
    DEFAULT_TURN_TIMER,
    LANGUAGES,
    MODES,
    RANK_ORDER,
    TURN_TIMER_MAX,
    TURN_TIMER_MIN,
    GuildSettings,
    InvalidInputError,
    LeaderboardRow,
    LiveGame,
    MatchResult,
    OptionsValidator,
    PlayerStats,
    StorageError,
    UserPrefs,
    check_default_options,
    check_flag,
    check_id,
    check_language,
    check_live_game,
    check_match_result,
    check_mode,
    check_optional_guild,
    check_optional_mode,
    check_page,
    check_target_score,
    check_text_only,
    check_turn_timer,
)

log = logging.getLogger(__name__)

ALL_GUILDS: Final = 0
"""``player_totals.guild_id`` of the all-servers scope."""
ALL_MODES: Final = "*"
"""``player_totals.mode`` of the all-modes scope."""
_RANK_TABLES = {
    "rank_by_wins": "guild_id, mode, wins",
    "rank_by_played": "guild_id, mode, wins, played",
    "rank_by_bucket": "guild_id, mode, wins, played, user_id >> 52",
}
"""The rank tables of migration 0001 and the player_totals columns they count ranked players by."""
_WAL_AUTOCHECKPOINT = 4000
_BUCKET_SHIFT = 52
"""``rank_by_bucket.bucket = user_id >> 52``, as in the triggers of migration 0001."""


class _Unset:
    """Marks an argument that was not given (``None`` is a real value for ``language``)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()

_RANK_COLUMNS = "user_id, display_name, wins, played, abandoned, win_rate, rounds_won, points"

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

_UPSERT_GAMES = (
    "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
    "VALUES {values} ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "mode = excluded.mode, status = excluded.status, version = excluded.version, snapshot = excluded.snapshot, "
    "updated_at = excluded.updated_at"
)
_SAVE_CHUNK = 400  # rows per statement: 7 parameters each, far below SQLite's limit

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


def _scope(guild_id: int | None, mode: str | None) -> tuple[int, str]:
    return (ALL_GUILDS if guild_id is None else guild_id), (ALL_MODES if mode is None else mode)


class Store:
    """Settings, live games, match results and leaderboards in one SQLite file.

    Open with ``store = await Store.open(path)`` (or ``async with await Store.open(path) as store``) and close with
    :meth:`close`. Methods are safe to call from many tasks at once. Bad arguments raise :class:`InvalidInputError`
    (a ``ValueError``) before anything is written; database failures raise ``sqlite3.Error`` after rolling back.
    """

    def __init__(
        self,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        checkpointer: aiosqlite.Connection,
        path: Path,
        validate_options: OptionsValidator | None = None,
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
        self.path = path

    # --- lifecycle ------------------------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, validate_options: OptionsValidator | None = None) -> Store:
        """Open (creating it and its parent folder if needed) the database at ``path`` and bring its schema up to date.

        ``validate_options`` checks a server's ``default_options`` when they are saved and when they are read (the bot
        passes ``bot.engine.options.Options.from_dict``; storage itself knows nothing of the rules).

        Raises :class:`SchemaTooNewError` if the file was written by a newer bot, :class:`StorageError` if it is not an
        SQLite database or cannot be opened; in both cases the file is left as it was.
        """
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        opened: list[aiosqlite.Connection] = []
        try:
            writer = await _connect(p, opened)
            mode = await writer.execute_fetchall("PRAGMA journal_mode = WAL")
            if str(next(iter(mode))[0]).lower() != "wal":
                raise StorageError(f"cannot switch {p} to WAL mode")
            await writer.execute("PRAGMA synchronous = NORMAL")
            await writer.execute("PRAGMA foreign_keys = ON")
            await writer.execute(f"PRAGMA wal_autocheckpoint = {_WAL_AUTOCHECKPOINT}")
            await _migrations.migrate(writer)
            reader = await _connect(p, opened)
            await reader.execute("PRAGMA query_only = ON")
            checkpointer = await _connect(p, opened)
        except BaseException as e:
            for db in reversed(opened):
                await db.close()
            if isinstance(e, sqlite3.DatabaseError):
                raise StorageError(f"cannot use database {p}: {e}") from e
            raise
        return cls(writer, reader, checkpointer, p, validate_options)

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

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the writer for a single-statement transaction (autocommit)."""
        async with self._lock:
            yield self._writer
        self._committed()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the writer and run the body in one ``BEGIN IMMEDIATE`` transaction; roll back on any exception."""
        async with self._lock:
            try:
                # Inside the try: a caller cancelled while BEGIN is queued must still roll back (aiosqlite runs every
                # queued statement, in order, whatever happens to the task that queued it).
                await self._writer.execute("BEGIN IMMEDIATE")
                yield self._writer
            except BaseException:
                # Suppressed: after a cancelled COMMIT (or BEGIN failing) there may be no transaction to roll back.
                with contextlib.suppress(sqlite3.Error):
                    await self._writer.execute("ROLLBACK")
                raise
            await self._writer.execute("COMMIT")
        self._committed()

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
        return await self._read_settings(self._reader, guild_id)

    async def _read_settings(self, db: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        rows = await db.execute_fetchall(
            "SELECT default_mode, turn_timer, language, text_only, default_target_score, turn_pings, game_threads, "
            "default_options FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if not rows:
            return GuildSettings(guild_id)
        mode, timer, language, text_only, target, pings, threads, options_text = next(iter(rows))

        def bad(name: str, value: object, default: object) -> None:
            log.warning(
                "guild %d: stored setting %s=%r is not valid; using the default %r", guild_id, name, value, default
            )

        if not (isinstance(mode, str) and mode in MODES):
            bad("default_mode", mode, DEFAULT_MODE)
            mode = DEFAULT_MODE
        if not (type(timer) is int and TURN_TIMER_MIN <= timer <= TURN_TIMER_MAX):
            bad("turn_timer", timer, DEFAULT_TURN_TIMER)
            timer = DEFAULT_TURN_TIMER
        if language is not None and language not in LANGUAGES:
            bad("language", language, None)
            language = None
        text_only = _stored_flag("text_only", text_only, False, bad, optional=False)
        # the columns of migration 0002: NULL = never set, the default without a warning
        if target is None:
            target = TARGET_SCORE_DEFAULT
        elif not (type(target) is int and 0 <= target <= TARGET_SCORE_MAX):
            bad("default_target_score", target, TARGET_SCORE_DEFAULT)
            target = TARGET_SCORE_DEFAULT
        pings = _stored_flag("turn_pings", pings, True, bad)
        threads = _stored_flag("game_threads", threads, False, bad)
        options: dict[str, Any] = {}
        if options_text is not None:
            try:
                parsed: Any = json.loads(options_text) if isinstance(options_text, str) else None
                check_default_options(parsed, self._validate_options)
                options = dict(parsed)
            except (ValueError, InvalidInputError):
                bad("default_options", options_text, {})
        return GuildSettings(guild_id, mode, timer, language, text_only, target, pings, threads, options)

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
        changes: dict[str, Any] = {}
        if not isinstance(default_mode, _Unset):
            changes["default_mode"] = check_mode(default_mode, "default_mode")
        if not isinstance(turn_timer, _Unset):
            changes["turn_timer"] = check_turn_timer(turn_timer)
        if not isinstance(language, _Unset):
            changes["language"] = check_language(language)
        if not isinstance(text_only, _Unset):
            changes["text_only"] = check_text_only(text_only)
        if not isinstance(default_target_score, _Unset):
            changes["default_target_score"] = check_target_score(default_target_score)
        if not isinstance(turn_pings, _Unset):
            changes["turn_pings"] = check_flag("turn_pings", turn_pings)
        if not isinstance(game_threads, _Unset):
            changes["game_threads"] = check_flag("game_threads", game_threads)
        if not isinstance(default_options, _Unset):
            check_default_options(default_options, self._validate_options)
            changes["default_options"] = dict(default_options)
        async with self._transaction() as db:
            current = await self._read_settings(db, guild_id)
            new = dataclasses.replace(current, **changes)
            await db.execute(
                "INSERT OR REPLACE INTO guild_settings (guild_id, default_mode, turn_timer, language, text_only, "
                "default_target_score, turn_pings, game_threads, default_options) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    new.default_mode,
                    new.turn_timer,
                    new.language,
                    int(new.text_only),
                    new.default_target_score,
                    int(new.turn_pings),
                    int(new.game_threads),
                    check_default_options(new.default_options, None),
                ),
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
        if not rows:
            return UserPrefs(user_id)
        text_only, large = next(iter(rows))

        def bad(name: str, value: object, default: object) -> None:
            log.warning(
                "user %d: stored preference %s=%r is not valid; using the default %r", user_id, name, value, default
            )

        return UserPrefs(
            user_id, _stored_flag("text_only", text_only, False, bad), _stored_flag("large_cards", large, False, bad)
        )

    async def update_prefs(
        self, user_id: int, *, text_only: bool | _Unset = UNSET, large_cards: bool | _Unset = UNSET
    ) -> UserPrefs:
        """Change some of a user's preferences (the others keep their value) and return them all; ``text_only`` and
        ``large_cards`` ``True``/``False``. Raises :class:`InvalidInputError` for a bad value, and then changes
        nothing."""
        check_id("user_id", user_id)
        changes: dict[str, bool] = {}
        if not isinstance(text_only, _Unset):
            changes["text_only"] = check_flag("text_only", text_only)
        if not isinstance(large_cards, _Unset):
            changes["large_cards"] = check_flag("large_cards", large_cards)
        async with self._transaction() as db:
            new = dataclasses.replace(await self._read_prefs(db, user_id), **changes)
            await db.execute(
                "INSERT OR REPLACE INTO user_prefs (user_id, text_only, large_cards) VALUES (?, ?, ?)",
                (user_id, int(new.text_only), int(new.large_cards)),
            )
        return new

    # --- live games -----------------------------------------------------------------------------------------------

    async def save_game(self, game: LiveGame) -> None:
        """Insert or replace the live game of ``game.channel_id``; returns once it is committed (the last call wins).

        Group commit: the saves of many games arriving together share one transaction, so a busy bot pays for one
        commit per batch instead of one per action; each caller still returns only after its row is committed.
        Raises :class:`InvalidInputError` for a bad field or a snapshot that is not a JSON-able dict.
        """
        row = check_live_game(game)
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending_saves.append((row, done))
        if self._saver is None or self._saver.done():
            self._saver = loop.create_task(self._flush_saves(), name="uno-storage-save")
        await done

    async def _flush_saves(self) -> None:
        """Commit the queued saves in batches, in arrival order, until none are left."""
        while self._pending_saves:
            batch, self._pending_saves = self._pending_saves, []
            # One multi-row statement per chunk: the writer thread binds a whole batch under one hold of the GIL instead
            # of asking for it row by row (a busy event loop makes each of those asks wait a switch interval).
            latest = {row[0]: row for row, _ in batch}  # one row per channel: the last save wins
            rows = list(latest.values())
            try:
                for i in range(0, len(rows), _SAVE_CHUNK):
                    chunk = rows[i : i + _SAVE_CHUNK]
                    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
                    # one statement = one transaction in autocommit mode: a single trip to the writer thread
                    async with self._writing() as db:
                        await db.execute(_UPSERT_GAMES.format(values=values), [v for row in chunk for v in row])
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for _, fut in batch:
                if not fut.done():
                    fut.set_result(None)

    async def delete_game(self, channel_id: int) -> bool:
        """Remove the channel's live game; ``False`` if there was none."""
        check_id("channel_id", channel_id)
        async with self._writing() as db:
            cur = await db.execute("DELETE FROM live_games WHERE channel_id = ?", (channel_id,))
        return cur.rowcount > 0

    async def load_games(self, validate: Callable[[dict[str, Any]], object] | None = None) -> list[LiveGame]:
        """All live games, by channel id.

        A row whose snapshot is not a JSON object, whose other columns are malformed, or for which
        ``validate(snapshot)`` raises (any ``Exception``; its return value is ignored) is set aside: moved to
        ``quarantined_games`` with the reason, and one warning is logged. It never stops the others from loading.
        """
        rows = await self._reader.execute_fetchall(
            "SELECT channel_id, guild_id, mode, status, version, CAST(snapshot AS BLOB), updated_at "
            "FROM live_games ORDER BY channel_id"
        )
        games: list[LiveGame] = []
        bad: list[tuple[object, bytes, str]] = []
        for channel_id, guild_id, mode, status, version, raw, updated_at in rows:
            try:
                try:
                    snapshot = json.loads(bytes(raw).decode("utf-8"))
                except (ValueError, TypeError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
                    raise _Corrupt(f"snapshot is not valid JSON: {e}") from None
                if not isinstance(snapshot, dict):
                    raise _Corrupt(f"snapshot is a JSON {type(snapshot).__name__}, not an object")
                game = LiveGame(channel_id, guild_id, mode, status, version, snapshot, updated_at)
                try:
                    check_live_game(game)
                except InvalidInputError as e:
                    raise _Corrupt(f"bad column: {e}") from None
                if validate is not None:
                    try:
                        validate(snapshot)
                    except Exception as e:
                        raise _Corrupt(f"rejected by validator: {type(e).__name__}: {e}") from None
            except _Corrupt as e:
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

    # --- match results --------------------------------------------------------------------------------------------

    async def finish_match(self, result: MatchResult, *, replace_with: LiveGame | None = None) -> bool:
        """Record a finished match and end its live game, all in one transaction.

        Writes the match, its players and rounds, updates the leaderboard totals of its human players, and either
        deletes the live game of ``result.channel_id`` or, with ``replace_with`` (same channel), stores that instead
        (e.g. a "match over" table the channel keeps showing). Either everything is committed or nothing is.

        Returns ``False`` and writes nothing if a match with the same ``match_key`` was already recorded.
        Raises :class:`InvalidInputError` for a malformed result (see :class:`MatchResult`).
        """
        check_match_result(result)
        game_row = None
        if replace_with is not None:
            game_row = check_live_game(replace_with)
            if replace_with.channel_id != result.channel_id:
                raise InvalidInputError("replace_with must be the live game of the match's channel")
        async with self._transaction() as db:
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
            completed = result.status == "completed"
            totals = []
            for p in result.players:
                if p.is_ai or p.user_id is None:
                    continue
                counts = (
                    int(completed and p.seat == result.winner_seat),
                    int(completed),
                    int(not completed),
                    p.rounds_won,
                    p.points_scored,
                )
                for guild in (result.guild_id, ALL_GUILDS):
                    for mode in (str(result.mode), ALL_MODES):
                        totals.append((guild, mode, p.user_id, p.display_name, match_id, *counts))
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
        scope = _scope(check_optional_guild(guild_id), check_optional_mode(mode))
        limit, offset = check_page(limit, offset)
        rows = await self._reader.execute_fetchall(
            f"SELECT {_RANK_COLUMNS} FROM player_totals WHERE guild_id = ? AND mode = ? AND played > 0 "
            f"ORDER BY {RANK_ORDER} LIMIT ? OFFSET ?",
            (*scope, limit, offset),
        )
        return [LeaderboardRow(offset + i, *row) for i, row in enumerate(rows, start=1)]

    async def leaderboard_count(self, *, guild_id: int | None, mode: str | None) -> int:
        """How many players the leaderboard lists (for "page k of n": ``n = ceil(count / limit)``)."""
        scope = _scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._reader.execute_fetchall(
            "SELECT coalesce(sum(players), 0) FROM rank_by_wins WHERE guild_id = ? AND mode = ?", scope
        )
        return int(next(iter(rows))[0])

    async def player_stats(self, user_id: int, *, guild_id: int | None, mode: str | None) -> PlayerStats | None:
        """A player's totals and rank in one scope (``None`` = all servers / all modes); ``None`` if the player has no
        finished match there. ``rank`` is ``None`` while they have only abandoned matches."""
        check_id("user_id", user_id)
        scope = _scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._reader.execute_fetchall(_PLAYER_STATS, (*scope, user_id))
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


class _Corrupt(Exception):
    pass


def _stored_flag(
    name: str, value: object, default: bool, bad: Callable[[str, object, object], None], *, optional: bool = True
) -> bool:
    """A stored 0/1 as a bool; NULL (a column added later, never set) is ``default`` when ``optional``; anything else
    is reported with ``bad`` and is ``default``."""
    if value is None and optional:
        return default
    if type(value) is not int or value not in (0, 1):
        bad(name, value, default)
        return default
    return bool(value)


async def _connect(path: Path, opened: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    """A connection in autocommit mode (transactions are explicit) that waits up to 5 s for another process's lock;
    appended to ``opened`` so that the caller can close it if a later step fails."""
    try:
        db = await aiosqlite.connect(path, isolation_level=None)
    except sqlite3.Error as e:
        raise StorageError(f"cannot open database {path}: {e}") from e
    opened.append(db)
    await db.execute("PRAGMA busy_timeout = 5000")
    return db
