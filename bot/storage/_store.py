"""The store: every behaviour of :class:`bot.storage.Store`, written once over a :class:`~bot.storage._dialect.Dialect`
(issue 17 point 5). :class:`~bot.storage._sqlite.SqliteStore` and :class:`~bot.storage._postgres.PostgresStore` are
this class opened on their dialect; their modules hold connections, errors and the few statements whose SQL must
differ, never a behaviour (tests/storage/test_boundaries.py keeps it so).

Adding a table and its queries (issue 19's match records, ratings, seasons): a migration file per dialect
(``migrations/`` and ``pg_migrations/``, the same number), the statements here in the shared SQL of
:mod:`bot.storage._dialect`, the method here and in :class:`~bot.storage._protocol.Store`; docs/architecture.md,
"Storage", walks through it.

Leaderboards
    Totals per player live in ``player_totals`` for four scopes (server × mode, server × all modes, all servers × mode,
    all servers × all modes) and are updated in the transaction that records a match, so top-N reads a few index entries
    whatever the number of matches; triggers keep small histograms from which a rank is a sum of a few rows
    (migration 0001 explains them). :meth:`SqlStore.rebuild_aggregates` recomputes all of it from the raw match tables.

Group commit
    :meth:`SqlStore.save_game` queues the row; one task writes the queued rows, one statement per 400, so a busy bot
    pays one commit per batch instead of one per action, and each caller returns once its own row is committed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import Any, Self

from bot.limits import RATING_MIN_MATCHES, RATING_TREND_MATCHES

from . import _seasons
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
    totals_upsert,
)
from ._dialect import Dialect, Row, Tx
from ._models import (
    MODES,
    RANK_ORDER,
    RATING_ORDER,
    UNSET,
    GuildSettings,
    Held,
    HistoryRow,
    InvalidInputError,
    LeaderboardRow,
    LiveGame,
    MatchResult,
    MatchSteps,
    OptionsValidator,
    PlayerRating,
    PlayerStats,
    RatingCheck,
    RatingRow,
    Season,
    Shards,
    UserPrefs,
    WriteRefused,
    _Unset,
    check_count,
    check_id,
    check_ids,
    check_live_game,
    check_match_key,
    check_match_result,
    check_mode,
    check_optional_guild,
    check_optional_mode,
    check_owner,
    check_page,
    check_shards,
    check_steps,
    check_ttl,
    check_version,
    shard_keys,
)
from ._ratings import ordinal, rate, rated_seats, shown_rating

log = logging.getLogger("bot.storage")

RANK_TABLES = {
    "rank_by_wins": "guild_id, mode, wins",
    "rank_by_played": "guild_id, mode, wins, played",
    "rank_by_bucket": f"guild_id, mode, wins, played, user_id >> {BUCKET_SHIFT}",
}
"""The rank tables of migration 0001 and the player_totals columns they count ranked players by."""

# --- the statements, in the shared SQL of bot.storage._dialect ------------------------------------------------------

_SELECT_SETTINGS = f"SELECT {SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = $1"
_SELECT_PREFS = "SELECT text_only, large_cards FROM user_prefs WHERE user_id = $1"

_UPSERT_GAME = (
    "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, "
    "mode = excluded.mode, status = excluded.status, version = excluded.version, snapshot = excluded.snapshot, "
    "updated_at = excluded.updated_at"
)
_GAME_COLUMNS = ("bigint", "bigint", "text", "text", "bigint", "text", "float8", "text", "bigint")
"""The parameters of one row of :func:`_save_games`: the live game's columns, then its writer (NULL = unfenced) and
the version it expects (NULL = any)."""


def _save_games(rows: int) -> str:
    """Fenced upsert of ``rows`` live games (issue 16 point 5): a row is written only if its writer holds the channel's
    lease by the database's clock (the lease row locked until the commit on PostgreSQL: a takeover waits for it, then
    loads what it wrote), and the stored game is still at the version the writer expects. RETURNING names the rows
    written; the others were refused. The last parameter is the clock shift."""
    width = len(_GAME_COLUMNS)
    values = ", ".join(
        "(" + ", ".join(f"${r * width + c + 1}::{t}" for c, t in enumerate(_GAME_COLUMNS)) + ")" for r in range(rows)
    )
    now = f"{{now:{rows * width + 1}}}"
    return (
        "WITH v (channel_id, guild_id, mode, status, version, snapshot, updated_at, owner, expected) "
        f"AS (VALUES {values}) "
        "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
        "SELECT v.channel_id, v.guild_id, v.mode, v.status, v.version, v.snapshot, v.updated_at FROM v "
        "WHERE (v.owner IS NULL OR EXISTS (SELECT 1 FROM game_leases AS l WHERE l.channel_id = v.channel_id "
        f"AND l.owner = v.owner AND l.expires_at > {now} {{for_update}})) "
        "AND (v.expected IS NULL OR NOT EXISTS (SELECT 1 FROM live_games AS g WHERE g.channel_id = v.channel_id "
        "AND g.version <> v.expected)) "
        "ON CONFLICT (channel_id) DO UPDATE SET guild_id = excluded.guild_id, mode = excluded.mode, "
        "status = excluded.status, version = excluded.version, snapshot = excluded.snapshot, "
        "updated_at = excluded.updated_at RETURNING channel_id"
    )


# A write's fence, inside its transaction: $2 (NULL = unfenced) holds the channel's lease, and the stored game is at
# version $3 (NULL = any).
_FENCE = (
    "SELECT ($2::text IS NULL OR EXISTS (SELECT 1 FROM game_leases WHERE channel_id = $1 AND owner = $2::text "
    "AND expires_at > {now:4} {for_update})) "
    "AND ($3::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM live_games WHERE channel_id = $1 AND version <> $3::bigint))"
)

_UPSERT_TOTALS = totals_upsert("player_totals", ("guild_id", "mode"))

# One statement, so one snapshot. Only a player with a match won is ranked (a match lost to an AI is no "Rank 1 of 1",
# issue 18). The rank is 1 + how many ranked players come before this one in RANK_ORDER, summed
# from the rank tables (migration 0001): more wins; as many wins and a better win rate, i.e. fewer matches played (or,
# at 0 wins, more matches played); the same (wins, played) and an earlier user-id bucket; and a count of the few index
# entries of the player's own bucket with a smaller user id.
_PLAYER_STATS = f"""
SELECT t.user_id, t.display_name, t.wins, t.played, t.abandoned, t.win_rate, t.rounds_won, t.points,
    CASE WHEN t.wins > 0 THEN 1
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins > t.wins)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_played AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins
           AND CASE WHEN t.wins > 0 THEN r.played < t.played ELSE r.played > t.played END)
      + (SELECT coalesce(sum(r.players), 0) FROM rank_by_bucket AS r
         WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins = t.wins AND r.played = t.played
           AND r.bucket < t.user_id >> {BUCKET_SHIFT})
      + (SELECT count(*) FROM player_totals AS o
         WHERE o.guild_id = t.guild_id AND o.mode = t.mode AND o.wins = t.wins
           AND o.win_rate = t.win_rate AND o.played = t.played
           AND o.user_id >= (t.user_id >> {BUCKET_SHIFT}) << {BUCKET_SHIFT} AND o.user_id < t.user_id)
    END,
    (SELECT coalesce(sum(r.players), 0) FROM rank_by_wins AS r
     WHERE r.guild_id = t.guild_id AND r.mode = t.mode AND r.wins > 0)
FROM player_totals AS t
WHERE t.guild_id = $1 AND t.mode = $2 AND t.user_id = $3
"""

_INSERT_STEP = (
    "INSERT INTO match_records (match_key, seq, entry) VALUES ($1, $2, $3) ON CONFLICT (match_key, seq) DO NOTHING"
)
"""One entry of a match record; a retried commit (an outage that hid whether the first one committed) adds nothing."""

_UPSERT_RATING = (
    "INSERT INTO player_ratings (guild_id, mode, user_id, mu, sigma, rating, matches, last_match_id) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (guild_id, mode, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, rating = excluded.rating, matches = excluded.matches, "
    "last_match_id = excluded.last_match_id"
)
_INSERT_RATING_CHANGE = (
    "INSERT INTO rating_changes (guild_id, mode, user_id, match_id, mu_before, sigma_before, mu_after, sigma_after) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
)
_RATED_PLAYERS = (
    "SELECT m.id, m.guild_id, m.mode, p.user_id, p.placement FROM matches AS m "
    "JOIN match_players AS p ON p.match_id = m.id "
    "WHERE m.id > $1 AND m.id <= $2 AND m.status = 'completed' AND p.user_id IS NOT NULL ORDER BY m.id"
)
_RATING_CHUNK = 20_000
"""Match ids per read of :meth:`SqlStore.rebuild_ratings`."""

# A player's rating in one scope: the rating, its rank among the players with at least $4 rated matches (in
# RATING_ORDER), how many such players there are, and the (mu, sigma) before their last rated match and before the
# earliest of their last $5 rated matches (the trend).
_PLAYER_RATING = """
SELECT r.mu, r.sigma, r.matches,
    CASE WHEN r.matches >= $4 THEN 1
      + (SELECT count(*) FROM player_ratings AS o
         WHERE o.guild_id = r.guild_id AND o.mode = r.mode AND o.rating > r.rating AND o.matches >= $4)
      + (SELECT count(*) FROM player_ratings AS o
         WHERE o.guild_id = r.guild_id AND o.mode = r.mode AND o.rating = r.rating AND o.user_id < r.user_id
           AND o.matches >= $4) END,
    (SELECT count(*) FROM player_ratings AS o WHERE o.guild_id = r.guild_id AND o.mode = r.mode AND o.matches >= $4),
    last.mu_before, last.sigma_before, first.mu_before, first.sigma_before
FROM player_ratings AS r
JOIN rating_changes AS last ON last.guild_id = r.guild_id AND last.mode = r.mode AND last.user_id = r.user_id
    AND last.match_id = r.last_match_id
JOIN rating_changes AS first ON first.guild_id = r.guild_id AND first.mode = r.mode AND first.user_id = r.user_id
    AND first.match_id = (SELECT min(w.match_id) FROM (SELECT c.match_id FROM rating_changes AS c
        WHERE c.guild_id = $1 AND c.mode = $2 AND c.user_id = $3 ORDER BY c.match_id DESC LIMIT $5) AS w)
WHERE r.guild_id = $1 AND r.mode = $2 AND r.user_id = $3
"""

_ACQUIRE_LEASE = (
    "INSERT INTO game_leases (channel_id, owner, expires_at) VALUES ($1, $2, {now:4} + $3) "
    "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at "
    "WHERE game_leases.owner = excluded.owner OR game_leases.expires_at <= {now:4} RETURNING 1"
)


def _partner(team: object, mine: object) -> bool:
    """Is a seat of ``team`` a partner of a player of team ``mine`` (SPEC T; both None without teams)?"""
    return mine is not None and team == mine


def _marks(count: int, first: int = 1) -> str:
    """``$first, $first+1, …``: ``count`` numbered parameters, for an ``IN (…)`` list."""
    return ", ".join(f"${first + i}" for i in range(count))


def _refused(channel_id: int, owner: str | None, version: int | None) -> WriteRefused:
    return WriteRefused(
        f"the write of the game in channel {channel_id} was refused: {owner or 'the writer'} does not hold its lease"
        + ("" if version is None else f" or it is no longer at version {version}")
    )


_Pending = tuple[tuple[Any, ...], "asyncio.Future[None]"]


class SqlStore:
    """Settings, live games, match results, leaderboards and leases in an SQL database (implements
    :class:`~bot.storage.Store`); opened by :meth:`SqliteStore.open <bot.storage._sqlite.SqliteStore.open>` or
    :meth:`PostgresStore.open <bot.storage._postgres.PostgresStore.open>` (:func:`bot.storage.open_store`).

    Methods are safe to call from many tasks at once. Bad arguments raise :class:`InvalidInputError` (a
    ``ValueError``) before anything is written; a database that cannot be used right now raises
    :class:`StorageUnavailable`; other database failures raise the driver's error after rolling back. The database's
    clock decides every lease and shard lock (issue 16 point 6); a fenced write that is refused raises
    :class:`WriteRefused`. ``clock`` is this process's clock (Unix seconds), ``db_clock`` (tests only) the database's.
    """

    def __init__(
        self,
        db: Dialect,
        validate_options: OptionsValidator | None = None,
        clock: Callable[[], float] = time.time,
        db_clock: Callable[[], float] | None = None,
    ) -> None:
        """Use the dialect's ``open``."""
        self._db = db
        self._validate_options = validate_options
        self.clock = clock
        self.db_clock = db_clock
        self._pending_saves: list[_Pending] = []
        self._pending_steps: dict[asyncio.Future[None], list[tuple[str, int, str]]] = {}
        self._saver: asyncio.Task[None] | None = None

    # --- lifecycle ------------------------------------------------------------------------------------------------

    async def close(self) -> None:
        """Wait for the running calls to finish, then close. The store cannot be used afterwards."""
        if self._saver is not None:
            await self._saver
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _write_all(self, statements: Sequence[str], *args: Any) -> list[Row]:
        """Run ``statements`` with the same parameters: one alone (one round trip), several in one transaction."""
        if len(statements) == 1:
            return list(await self._db.write(statements[0], *args))
        rows: list[Row] = []
        async with self._db.transaction() as tx:
            for sql in statements:
                rows.extend(await tx.fetch(sql, *args))
        return rows

    # --- server settings ------------------------------------------------------------------------------------------

    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; defaults when it never changed any. A stored value that is not valid (a damaged or
        hand-edited row) is replaced by its default in the result, with one warning logged per value."""
        check_id("guild_id", guild_id)
        rows = await self._db.read(_SELECT_SETTINGS, guild_id)
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
        season_period: str | _Unset = UNSET,
        ai_level: str | _Unset = UNSET,
    ) -> GuildSettings:
        """Change some of a server's settings (the others keep their value) and return them all. Concurrent updates
        of one server apply one after the other.

        ``default_mode`` one of ``classic``/``flip``/``flex``; ``turn_timer`` seconds, 15–600; ``language`` one of
        ``en``/``it``/``es``/``sk`` or ``None`` for each user's Discord locale; ``text_only``, ``turn_pings`` and
        ``game_threads`` ``True``/``False``; ``default_target_score`` 0–100000 (bounds: :mod:`bot.limits`);
        ``default_options`` a dict of rule options (``{}`` = the rules' defaults) that ``validate_options`` accepts;
        ``season_period`` one of :data:`bot.limits.SEASON_PERIODS`; ``ai_level`` one of :data:`bot.limits.AI_LEVELS`.
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
            season_period=season_period,
            ai_level=ai_level,
        )
        async with self._db.transaction() as tx:
            # the row exists (with the defaults if it did not) and is locked until the commit
            await tx.execute(
                f"INSERT INTO guild_settings (guild_id, {SETTINGS_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (guild_id) DO NOTHING",
                *settings_row(GuildSettings(guild_id)),
            )
            rows = await tx.fetch(_SELECT_SETTINGS + " {for_update}", guild_id)
            new = merge_settings(settings_from_row(guild_id, rows[0], self._validate_options), changes)
            await tx.execute(
                "UPDATE guild_settings SET default_mode = $2, turn_timer = $3, language = $4, text_only = $5, "
                "default_target_score = $6, turn_pings = $7, game_threads = $8, default_options = $9, "
                "season_period = $10, ai_level = $11 WHERE guild_id = $1",
                *settings_row(new),
            )
        return new

    # --- user preferences -----------------------------------------------------------------------------------------

    async def get_prefs(self, user_id: int) -> UserPrefs:
        """A user's preferences (``/uno prefs``); defaults when they never changed any. A stored value that is not
        valid is replaced by its default in the result, with one warning logged per value."""
        check_id("user_id", user_id)
        rows = await self._db.read(_SELECT_PREFS, user_id)
        return prefs_from_row(user_id, rows[0] if rows else None)

    async def update_prefs(
        self, user_id: int, *, text_only: bool | _Unset = UNSET, large_cards: bool | _Unset = UNSET
    ) -> UserPrefs:
        """Change some of a user's preferences (the others keep their value) and return them all; ``text_only`` and
        ``large_cards`` ``True``/``False``. Raises :class:`InvalidInputError` for a bad value, and then changes
        nothing."""
        check_id("user_id", user_id)
        changes = prefs_changes(text_only, large_cards)
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_prefs (user_id, text_only, large_cards) VALUES ($1, 0, 0) "
                "ON CONFLICT (user_id) DO NOTHING",
                user_id,
            )
            rows = await tx.fetch(_SELECT_PREFS + " {for_update}", user_id)
            new = dataclasses.replace(prefs_from_row(user_id, rows[0]), **changes)
            await tx.execute(
                "UPDATE user_prefs SET text_only = $2, large_cards = $3 WHERE user_id = $1",
                user_id,
                int(new.text_only),
                int(new.large_cards),
            )
        return new

    # --- live games -----------------------------------------------------------------------------------------------

    async def save_game(
        self,
        game: LiveGame,
        *,
        owner: str | None = None,
        expected_version: int | None = None,
        steps: MatchSteps | None = None,
    ) -> None:
        """Insert or replace the live game of ``game.channel_id``; returns once it is committed (the last call wins).
        ``steps``: entries of the match's record (issue 19 point 1), appended in the same transaction (not at all when
        the write is refused).

        Fenced (issue 16 point 5): with ``owner``, the write happens only if ``owner`` holds the channel's lease by the
        database's clock; with ``expected_version``, only if the stored game is at that version (or there is none).
        Otherwise nothing is written and :class:`WriteRefused` is raised.

        Group commit: the saves of many games arriving together share one statement, so a busy bot pays for one
        commit per batch instead of one per action; each caller still returns only after its row is committed.
        Raises :class:`InvalidInputError` for a bad field or a snapshot that is not a JSON-able dict.
        """
        row = check_live_game(game)
        if owner is not None:
            check_owner(owner)
        fenced = (*row, owner, check_version(expected_version))
        step_rows = check_steps(steps) if steps is not None else []
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if step_rows:
            self._pending_steps[done] = step_rows
        self._pending_saves.append((fenced, done))
        if self._saver is None or self._saver.done():
            self._saver = loop.create_task(self._flush_saves(), name="uno-storage-save")
        await done

    async def _flush_saves(self) -> None:
        """Commit the queued saves in batches, in arrival order, until none are left. A channel saved twice in a row
        waits for the next batch with its second save (each save is fenced on the state the one before left)."""
        while self._pending_saves:
            batch: list[_Pending] = []
            later: list[_Pending] = []
            seen: set[int] = set()
            for item in self._pending_saves:
                channel = item[0][0]
                if channel in seen:
                    later.append(item)
                else:
                    seen.add(channel)
                    batch.append(item)
            self._pending_saves = later
            steps = {row[0]: self._pending_steps.pop(fut) for row, fut in batch if fut in self._pending_steps}
            # One multi-row statement per chunk, one transaction each: SQLite's writer thread binds a whole batch
            # under one hold of the GIL instead of asking for it row by row; PostgreSQL pays one round trip and commit.
            # In channel order: the statement locks its rows (lease, then live game) row by row in the order of its
            # VALUES, and every other statement that locks several leases (renewal, acquisition) takes them in channel
            # order too, so two of them never hold what the other waits for (a deadlock at 10,000 games, issue 16).
            rows = sorted((row for row, _ in batch), key=lambda row: row[0])
            written: set[int] = set()
            try:
                for i in range(0, len(rows), self._db.save_chunk):
                    chunk = rows[i : i + self._db.save_chunk]
                    got = await self._save_chunk(chunk, steps)
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

    async def _save_chunk(
        self, chunk: list[tuple[Any, ...]], steps: dict[int, list[tuple[str, int, str]]]
    ) -> list[Row]:
        """One statement of :meth:`_flush_saves`; with the match-record entries of its games (``steps`` by channel)
        in the same transaction, for the games it wrote only."""
        sql = _save_games(len(chunk))
        params = [v for row in chunk for v in row]
        if not any(row[0] in steps for row in chunk):
            return list(await self._db.write(sql, *params, self._db.shift()))
        async with self._db.transaction() as tx:
            got = list(await tx.fetch(sql, *params, self._db.shift()))
            rows = [r for (channel,) in got for r in steps.get(int(channel), ())]
            if rows:
                await tx.executemany(_INSERT_STEP, rows)
        return got

    async def _fenced(self, tx: Tx, channel_id: int, owner: str | None, version: int | None) -> None:
        """Inside a transaction: raise :class:`WriteRefused` unless the fence of a write holds (the lease row locked
        until the commit on PostgreSQL)."""
        rows = await tx.fetch(_FENCE, channel_id, owner, version, self._db.shift())
        if not rows[0][0]:
            raise _refused(channel_id, owner, version)

    async def delete_game(self, channel_id: int, *, owner: str | None = None) -> bool:
        """Remove the channel's live game; ``False`` if there was none. With ``owner``: fenced on its lease (see
        :meth:`save_game`; :class:`WriteRefused` and nothing deleted when it does not hold it)."""
        check_id("channel_id", channel_id)
        delete = "DELETE FROM live_games WHERE channel_id = $1"
        if owner is None:
            return bool(await self._db.write(delete + " RETURNING 1", channel_id))
        check_owner(owner)
        async with self._db.transaction() as tx:
            await self._fenced(tx, channel_id, owner, None)
            return await tx.execute(delete, channel_id) > 0

    async def load_games(
        self, validate: Callable[[dict[str, Any]], object] | None = None, *, shards: Shards | None = None
    ) -> list[LiveGame]:
        """All live games by channel id; with ``shards``, only those of the guilds it owns (:meth:`Shards.owns`).

        A row whose snapshot is not a JSON object, whose other columns are malformed, or for which
        ``validate(snapshot)`` raises (any ``Exception``; its return value is ignored) is set aside: moved to
        ``quarantined_games`` with the reason, and one warning is logged. It never stops the others from loading.
        """
        where = ""
        params: tuple[int, ...] = ()
        shards = check_shards(shards)
        if shards is not None:
            ids = sorted(shards.ids)
            where = f"WHERE (guild_id >> 22) % $1 IN ({', '.join(f'${i}' for i in range(2, len(ids) + 2))}) "
            params = (shards.count, *ids)
        rows = await self._db.read(
            "SELECT channel_id, guild_id, mode, status, version, {raw_snapshot}, updated_at "
            f"FROM live_games {where}ORDER BY channel_id",
            *params,
        )
        games: list[LiveGame] = []
        bad: list[tuple[object, object, str]] = []
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

    async def _quarantine(self, bad: Sequence[tuple[object, object, str]]) -> None:
        now = time.time()
        async with self._db.transaction() as tx:
            for channel_id, raw, reason in bad:
                # Only if the row is still the one that was read (a save_game may have replaced it meanwhile).
                moved = await tx.execute(
                    "INSERT INTO quarantined_games "
                    "(channel_id, guild_id, mode, status, version, snapshot, updated_at, reason, quarantined_at) "
                    "SELECT channel_id, guild_id, mode, status, version, snapshot, updated_at, $3::text, $4::float8 "
                    "FROM live_games WHERE channel_id {same} $1 AND {raw_snapshot} {same} $2",
                    channel_id,
                    raw,
                    reason,
                    now,
                )
                if moved:
                    await tx.execute(
                        "DELETE FROM live_games WHERE channel_id {same} $1 AND {raw_snapshot} {same} $2",
                        channel_id,
                        raw,
                    )
                    log.warning(
                        "set aside the live game of channel %s (moved to quarantined_games): %s", channel_id, reason
                    )

    # --- leases -------------------------------------------------------------------------------------------------

    async def acquire_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Take or extend the lease of the channel's game until the database's clock + ``ttl``; ``True`` if ``owner``
        holds it now, ``False`` (nothing changed) while another owner's lease has not expired. ``ttl`` seconds,
        0 < ttl ≤ 86400. Of owners racing for one channel exactly one wins (the upsert decides)."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        return bool(await self._db.write(_ACQUIRE_LEASE, channel_id, owner, ttl, self._db.shift()))

    async def acquire_leases(self, channel_ids: Iterable[int], owner: str, ttl: float) -> dict[int, str]:
        """Take (or extend) every lease of ``channel_ids`` that is free, expired or ``owner``'s until the database's
        clock + ``ttl``, in one round trip where the dialect can (start-up and takeovers, issue 16; PostgreSQL takes
        them in channel order, so two owners taking overlapping sets cannot deadlock); returns each channel's lease
        owner now (``owner`` where it got it; one taken by another owner at that very moment may be missing)."""
        channels = check_ids("channel_id", channel_ids)
        check_owner(owner)
        ttl = check_ttl(ttl)
        if not channels:
            return {}
        rows = await self._write_all(
            self._db.acquire_statements, self._db.id_list(channels), owner, ttl, self._db.shift()
        )
        return {int(c): str(o) for c, o in rows}

    async def renew_lease(self, channel_id: int, owner: str, ttl: float) -> bool:
        """Extend ``owner``'s lease until the database's clock + ``ttl``; ``False`` if ``owner`` no longer holds it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        ttl = check_ttl(ttl)
        rows = await self._db.write(
            "UPDATE game_leases SET expires_at = {now:4} + $1 WHERE channel_id = $2 AND owner = $3 RETURNING 1",
            ttl,
            channel_id,
            owner,
            self._db.shift(),
        )
        return bool(rows)

    async def renew_leases(self, owner: str, ttl: float) -> Held:
        """Extend every lease and shard lock ``owner`` still holds to the database's clock + ``ttl``, in one round trip
        where the dialect can (issue 16 point 7); returns which it holds (one it held before and that is missing here
        was taken over or released)."""
        check_owner(owner)
        ttl = check_ttl(ttl)
        rows = await self._write_all(self._db.renew_statements, owner, ttl, self._db.shift())
        channels = sorted(int(r[0]) for r in rows if r[0] is not None)
        shards = sorted((int(r[1]), int(r[2])) for r in rows if r[0] is None)
        return Held(channels, shards)

    async def release_lease(self, channel_id: int, owner: str) -> bool:
        """Give up ``owner``'s lease of the channel; ``False`` if ``owner`` did not hold it."""
        check_id("channel_id", channel_id)
        check_owner(owner)
        return bool(
            await self._db.write(
                "DELETE FROM game_leases WHERE channel_id = $1 AND owner = $2 RETURNING 1", channel_id, owner
            )
        )

    async def release_leases(self, owner: str) -> int:
        """Give up every lease and shard lock of ``owner`` (a clean stop); returns how many game leases it held."""
        check_owner(owner)
        async with self._db.transaction() as tx:
            count = await tx.execute(  # locked in channel order, as saves and renewals lock them (no deadlock)
                "DELETE FROM game_leases WHERE owner = $1 AND channel_id IN "
                "(SELECT channel_id FROM game_leases WHERE owner = $1 ORDER BY channel_id {for_update})",
                owner,
            )
            await tx.execute("DELETE FROM shard_locks WHERE owner = $1", owner)
        return count

    async def lease_owner(self, channel_id: int) -> str | None:
        """The owner of the channel's unexpired lease, or ``None``."""
        check_id("channel_id", channel_id)
        rows = await self._db.read(
            "SELECT owner FROM game_leases WHERE channel_id = $1 AND expires_at > {now:2}", channel_id, self._db.shift()
        )
        return str(rows[0][0]) if rows else None

    async def acquire_shards(self, shards: Shards | None, owner: str, ttl: float) -> dict[tuple[int, int], str]:
        """Take (or extend) the lock of every shard of ``shards`` that is free, expired or already ``owner``'s, in one
        transaction; returns the owner of each of those shard locks now (``owner`` where it got it)."""
        keys = shard_keys(check_shards(shards))
        check_owner(owner)
        ttl = check_ttl(ttl)
        values = ", ".join(f"(${2 * k + 4}::int, ${2 * k + 5}::int, $1, {{now:3}} + $2)" for k in range(len(keys)))
        which = " OR ".join(f"(shard_count = ${2 * k + 1} AND shard_id = ${2 * k + 2})" for k in range(len(keys)))
        flat = [v for key in keys for v in key]
        async with self._db.transaction() as tx:
            await tx.execute(
                f"INSERT INTO shard_locks (shard_count, shard_id, owner, expires_at) VALUES {values} "
                "ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner = excluded.owner, "
                "expires_at = excluded.expires_at "
                "WHERE shard_locks.owner = excluded.owner OR shard_locks.expires_at <= {now:3}",
                owner,
                ttl,
                self._db.shift(),
                *flat,
            )
            rows = await tx.fetch(f"SELECT shard_count, shard_id, owner FROM shard_locks WHERE {which}", *flat)
        return {(int(c), int(i)): str(o) for c, i, o in rows}

    # --- match results --------------------------------------------------------------------------------------------

    async def finish_match(
        self,
        result: MatchResult,
        *,
        replace_with: LiveGame | None = None,
        owner: str | None = None,
        expected_version: int | None = None,
        steps: MatchSteps | None = None,
    ) -> bool:
        """Record a finished match and end its live game, all in one transaction.

        Writes the match, its players and rounds, updates the leaderboard totals of its human players, and either
        deletes the live game of ``result.channel_id`` or, with ``replace_with`` (same channel), stores that instead
        (e.g. a "match over" table the channel keeps showing). Either everything is committed or nothing is.

        Returns ``False`` and writes nothing if a match with the same ``match_key`` was already recorded (of two
        processes recording one at once, one records it, the other gets ``False``).
        Raises :class:`InvalidInputError` for a malformed result (see :class:`MatchResult`); fenced like
        :meth:`save_game` by ``owner`` and ``expected_version`` (:class:`WriteRefused`, nothing written).
        ``steps``: the last entries of the match's record (issue 19 point 1), appended in the same transaction.
        """
        check_match_result(result)
        step_rows = check_steps(steps) if steps is not None else []
        game_row = None
        if replace_with is not None:
            game_row = check_live_game(replace_with)
            if replace_with.channel_id != result.channel_id:
                raise InvalidInputError("replace_with must be the live game of the match's channel")
        if owner is not None:
            check_owner(owner)
        version = check_version(expected_version)
        async with self._db.transaction() as tx:
            if owner is not None or version is not None:
                await self._fenced(tx, result.channel_id, owner, version)
            # Taken before the match gets its id, so rated matches get their ids in the order their ratings are
            # updated: a rebuild in id order recomputes exactly what was stored (bot/storage/_ratings.py).
            if self._db.totals_lock is not None and any(not p.is_ai for p in result.players):
                await tx.execute(self._db.totals_lock)
            ids = await tx.fetch(
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
            if not ids:
                return False  # already recorded; the transaction commits nothing
            match_id = int(ids[0][0])
            await tx.executemany(
                "INSERT INTO match_players (match_id, seat, user_id, display_name, is_ai, final_score, placement, "
                "rounds_won, points_scored, team) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [
                    (
                        match_id,
                        p.seat,
                        p.user_id,
                        p.display_name,
                        bool(p.is_ai),
                        p.final_score,
                        p.placement,
                        p.rounds_won,
                        p.points_scored,
                        p.team,
                    )
                    for p in result.players
                ],
            )
            if result.rounds:
                await tx.executemany(
                    "INSERT INTO match_rounds (match_id, number, winner_seat, points) VALUES ($1, $2, $3, $4)",
                    [(match_id, r.number, r.winner_seat, r.points) for r in result.rounds],
                )
            totals = totals_rows(result, match_id)
            if totals:
                await tx.executemany(_UPSERT_TOTALS, totals)
                # the seasons it ended in (issue 19 point 4): the same totals, per season
                ended = float(result.ended_at)
                await tx.executemany(_seasons.UPSERT_STANDING, _seasons.season_rows(totals, ended))
                await tx.executemany(_seasons.COUNT_MATCH, _seasons.season_counts(result.guild_id, ended))
            seats = rated_seats(result)
            if seats:
                await self._rate(tx, result.guild_id, str(result.mode), match_id, seats)
            if step_rows:
                await tx.executemany(_INSERT_STEP, step_rows)
            if game_row is None:
                await tx.execute("DELETE FROM live_games WHERE channel_id = $1", result.channel_id)
            else:
                await tx.execute(_UPSERT_GAME, *game_row)
        return True

    async def match_history(
        self, user_id: int, *, guild_id: int | None, limit: int = 10, offset: int = 0
    ) -> list[HistoryRow]:
        """A player's finished matches, newest first (issue 19 point 2): in one server, or (``None``) everywhere.
        ``rating_change`` is that scope's (the server's ratings, or the all-servers ones). ``limit`` 1–1000, ``offset``
        ≥ 0. One index range for the page, then one read each for the other seats, rating changes and records. In a
        partner game (SPEC T; its teams recorded, migration 0008) the player's partners are ``partners``, never
        ``opponents``."""
        check_id("user_id", user_id)
        guild = check_optional_guild(guild_id)
        limit, offset = check_page(limit, offset)
        where = "" if guild is None else " AND m.guild_id = $4"
        rows = await self._db.read(
            "SELECT m.id, m.match_key, m.mode, m.guild_id, m.ended_at, m.status, p.placement, p.final_score, "
            "p.points_scored, p.seat, p.team FROM match_players AS p JOIN matches AS m ON m.id = p.match_id "
            f"WHERE p.user_id = $1{where} ORDER BY p.match_id DESC LIMIT $2 OFFSET $3",
            user_id,
            limit,
            offset,
            *(() if guild is None else (guild,)),
        )
        if not rows:
            return []
        ids = [int(r[0]) for r in rows]
        seats: dict[int, list[tuple[int, str, int | None]]] = {}
        places: dict[int, set[int]] = {}
        for match_id, seat, name, team, placement in await self._db.read(
            "SELECT match_id, seat, display_name, team, placement FROM match_players "
            f"WHERE match_id IN ({_marks(len(ids))}) ORDER BY match_id, seat",
            *ids,
        ):
            seats.setdefault(int(match_id), []).append((int(seat), str(name), None if team is None else int(team)))
            places.setdefault(int(match_id), set()).add(int(placement))
        changes = {
            int(match_id): shown_rating(mu1, sigma1) - shown_rating(mu0, sigma0)
            for match_id, mu0, sigma0, mu1, sigma1 in await self._db.read(
                "SELECT match_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes "
                f"WHERE guild_id = $2 AND mode IN ({', '.join(repr(m) for m in MODES)}) AND user_id = $1 "
                f"AND match_id IN ({_marks(len(ids), 3)})",  # the key's columns in order: a few index probes
                user_id,
                ALL_GUILDS if guild is None else guild,
                *ids,
            )
        }
        keys = [str(r[1]) for r in rows]
        recorded = {
            str(k)
            for (k,) in await self._db.read(
                f"SELECT match_key FROM match_records WHERE seq = 0 AND match_key IN ({_marks(len(keys))})",
                *keys,
            )
        }
        return [
            HistoryRow(
                int(mid),
                str(key),
                str(mode),
                int(g),
                float(ended),
                str(status),
                int(place),
                len(seats.get(int(mid), ())),
                int(final),
                int(points),
                tuple(name for s, name, t in seats.get(int(mid), ()) if s != int(seat) and not _partner(t, team)),
                changes.get(int(mid)),
                str(key) in recorded,
                tuple(name for s, name, t in seats.get(int(mid), ()) if s != int(seat) and _partner(t, team)),
                len(places.get(int(mid), ())),
            )
            for mid, key, mode, g, ended, status, place, final, points, seat, team in rows
        ]

    async def match_history_count(self, user_id: int, *, guild_id: int | None) -> int:
        """How many finished matches :meth:`match_history` pages through."""
        check_id("user_id", user_id)
        guild = check_optional_guild(guild_id)
        if guild is None:
            rows = await self._db.read("SELECT count(*) FROM match_players WHERE user_id = $1", user_id)
        else:
            rows = await self._db.read(
                "SELECT count(*) FROM match_players AS p JOIN matches AS m ON m.id = p.match_id "
                "WHERE p.user_id = $1 AND m.guild_id = $2",
                user_id,
                guild,
            )
        return int(rows[0][0])

    async def match_record(self, match_key: str) -> list[tuple[int, dict[str, Any]]]:
        """The entries of a match's record (issue 19 point 1), ``(seq, entry)`` in order; empty for a match recorded
        before records existed (or unknown)."""
        key = check_match_key(match_key)
        rows = await self._db.read("SELECT seq, entry FROM match_records WHERE match_key = $1 ORDER BY seq", key)
        return [(int(seq), json.loads(entry)) for seq, entry in rows]

    async def _rate(self, tx: Tx, guild_id: int, mode: str, match_id: int, seats: list[tuple[int, int]]) -> None:
        """Inside the transaction recording match ``match_id``: update the ratings of its rated ``seats`` (see
        :func:`~bot.storage._ratings.rated_seats`) in both scopes, and append their changes."""
        users = ", ".join(f"${i + 3}" for i in range(len(seats)))
        rows = await tx.fetch(
            f"SELECT guild_id, user_id, mu, sigma, matches FROM player_ratings WHERE mode = $1 "
            f"AND guild_id IN ($2, {ALL_GUILDS}) AND user_id IN ({users})",
            mode,
            guild_id,
            *(user for user, _ in seats),
        )
        known = {(int(g), int(u)): (float(mu), float(sigma), int(n)) for g, u, mu, sigma, n in rows}
        upserts: list[tuple[Any, ...]] = []
        changes: list[tuple[Any, ...]] = []
        for guild in (guild_id, ALL_GUILDS):
            prior = {u: (mu, sigma) for (g, u), (mu, sigma, _) in known.items() if g == guild}
            for user, mu0, sigma0, mu, sigma in rate(seats, prior):
                played = known.get((guild, user), (0.0, 0.0, 0))[2] + 1
                upserts.append((guild, mode, user, mu, sigma, ordinal(mu, sigma), played, match_id))
                changes.append((guild, mode, user, match_id, mu0, sigma0, mu, sigma))
        await tx.executemany(_UPSERT_RATING, upserts)
        await tx.executemany(_INSERT_RATING_CHANGE, changes)

    # --- leaderboards ---------------------------------------------------------------------------------------------

    async def leaderboard(
        self, *, guild_id: int | None, mode: str | None, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a leaderboard, in :data:`RANK_ORDER`; ranks are ``offset + 1, offset + 2, …``.

        ``guild_id`` a server, or ``None`` for all servers; ``mode`` a mode, or ``None`` for all modes. Only players
        with at least one match won are listed (issue 18: no rank for 0 wins); AI seats never are. ``limit`` 1–1000,
        ``offset`` ≥ 0.
        """
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        limit, offset = check_page(limit, offset)
        # "played > 0", implied by "wins > 0", is the rank index's own condition (a partial index): without it
        # PostgreSQL's planner cannot use that index and sorts the whole scope (48 ms instead of 0.2 at 10^6 matches)
        rows = await self._db.read(
            f"SELECT {RANK_COLUMNS} FROM player_totals WHERE guild_id = $1 AND mode = $2 AND played > 0 AND wins > 0 "
            f"ORDER BY {RANK_ORDER} LIMIT $3 OFFSET $4",
            *key,
            limit,
            offset,
        )
        return [LeaderboardRow(offset + i, *row) for i, row in enumerate(rows, start=1)]

    async def leaderboard_count(self, *, guild_id: int | None, mode: str | None) -> int:
        """How many players the leaderboard lists (for "page k of n": ``n = ceil(count / limit)``)."""
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._db.read(
            "SELECT coalesce(sum(players), 0) FROM rank_by_wins WHERE guild_id = $1 AND mode = $2 AND wins > 0", *key
        )
        return int(rows[0][0])

    async def season_leaderboard(
        self, *, guild_id: int | None, mode: str | None, season: str, limit: int = 10, offset: int = 0
    ) -> list[LeaderboardRow]:
        """One page of a season's leaderboard (issue 19 point 4), in :data:`RANK_ORDER`; ranks are ``offset + 1, …``.

        As :meth:`leaderboard`, counting only the matches that ended in ``season``: a key of
        :func:`bot.storage.season_key` (a server's seasons are weekly, monthly or quarterly; all servers' only
        :data:`bot.limits.GLOBAL_SEASON_PERIOD`). Raises :class:`InvalidInputError` for another key, ``limit`` outside
        1–1000 or a negative ``offset``."""
        key = self._season_scope(guild_id, mode, season)
        limit, offset = check_page(limit, offset)
        rows = await self._db.read(
            f"SELECT {RANK_COLUMNS} FROM season_standings WHERE guild_id = $1 AND season = $2 AND mode = $3 "
            f"AND wins > 0 ORDER BY {RANK_ORDER} LIMIT $4 OFFSET $5",
            *key,
            limit,
            offset,
        )
        return [LeaderboardRow(offset + i, *row) for i, row in enumerate(rows, start=1)]

    async def season_leaderboard_count(self, *, guild_id: int | None, mode: str | None, season: str) -> int:
        """How many players :meth:`season_leaderboard` lists (those with a match won in the season)."""
        key = self._season_scope(guild_id, mode, season)
        rows = await self._db.read(
            "SELECT count(*) FROM season_standings WHERE guild_id = $1 AND season = $2 AND mode = $3 AND wins > 0", *key
        )
        return int(rows[0][0])

    @staticmethod
    def _season_scope(guild_id: int | None, mode: str | None, season: str) -> tuple[int, str, str]:
        guild, mode_key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        season = _seasons.check_season(season)
        _seasons.check_period(_seasons.season_period(season), scope_global=guild == ALL_GUILDS)
        return guild, season, mode_key

    async def seasons(self, *, guild_id: int | None, period: str, now: float, limit: int = 25) -> list[Season]:
        """A scope's seasons of ``period``, newest first: the one holding ``now`` (Unix seconds; listed even before
        its first match), then every earlier one with a match, ``limit`` (1–1000) at most. All servers (``guild_id``
        ``None``) have only :data:`bot.limits.GLOBAL_SEASON_PERIOD` seasons: another ``period`` raises
        :class:`InvalidInputError`, as does a bad ``now`` or ``limit``."""
        guild = check_optional_guild(guild_id)
        period = _seasons.check_period(period, scope_global=guild is None)
        current = _seasons.season_key(period, now)
        limit, _ = check_page(limit, 0)
        rows = await self._db.read(
            "SELECT season, matches FROM seasons WHERE guild_id = $1 AND period = $2 AND season <= $3 "
            "ORDER BY season DESC LIMIT $4",
            ALL_GUILDS if guild is None else guild,
            period,
            current,
            limit,
        )
        found = [(str(key), int(n)) for key, n in rows]
        if not found or found[0][0] != current:
            found = [(current, 0), *found][:limit]
        return [Season(key, period, *_seasons.season_bounds(key), n) for key, n in found]

    async def player_stats(self, user_id: int, *, guild_id: int | None, mode: str | None) -> PlayerStats | None:
        """A player's totals and rank in one scope (``None`` = all servers / all modes); ``None`` if the player has no
        finished match there. ``rank`` is ``None`` while they have won no match (only losses or abandoned matches)."""
        check_id("user_id", user_id)
        key = scope(check_optional_guild(guild_id), check_optional_mode(mode))
        rows = await self._db.read(_PLAYER_STATS, *key, user_id)
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

    async def rating_leaderboard(
        self,
        *,
        guild_id: int | None,
        mode: str,
        limit: int = 10,
        offset: int = 0,
        min_matches: int = RATING_MIN_MATCHES,
    ) -> list[RatingRow]:
        """One page of a game's by-rating leaderboard (issue 19 point 3), in :data:`RATING_ORDER`; ranks are
        ``offset + 1, …``. ``guild_id`` a server or ``None`` for all servers; ``mode`` a game mode (ratings are per
        game). Only players with at least ``min_matches`` rated matches there are listed (default
        :data:`bot.limits.RATING_MIN_MATCHES`). ``limit`` 1–1000, ``offset`` ≥ 0."""
        key = scope(check_optional_guild(guild_id), check_mode(mode))
        limit, offset = check_page(limit, offset)
        min_matches = check_count("min_matches", min_matches)
        rows = await self._db.read(
            "SELECT r.user_id, t.display_name, r.mu, r.sigma, r.matches, t.wins, t.played "
            "FROM player_ratings AS r JOIN player_totals AS t "
            "ON t.guild_id = r.guild_id AND t.mode = r.mode AND t.user_id = r.user_id "
            f"WHERE r.guild_id = $1 AND r.mode = $2 AND r.matches >= $3 "
            f"ORDER BY r.{RATING_ORDER.replace(', ', ', r.')} LIMIT $4 OFFSET $5",
            *key,
            min_matches,
            limit,
            offset,
        )
        return [
            RatingRow(offset + i, uid, name, shown_rating(mu, sigma), mu, sigma, n, wins, played)
            for i, (uid, name, mu, sigma, n, wins, played) in enumerate(rows, start=1)
        ]

    async def rating_leaderboard_count(
        self, *, guild_id: int | None, mode: str, min_matches: int = RATING_MIN_MATCHES
    ) -> int:
        """How many players :meth:`rating_leaderboard` lists."""
        key = scope(check_optional_guild(guild_id), check_mode(mode))
        min_matches = check_count("min_matches", min_matches)
        rows = await self._db.read(
            "SELECT count(*) FROM player_ratings WHERE guild_id = $1 AND mode = $2 AND matches >= $3", *key, min_matches
        )
        return int(rows[0][0])

    async def player_ratings(
        self, user_id: int, *, guild_id: int | None, mode: str | None, min_matches: int = RATING_MIN_MATCHES
    ) -> list[PlayerRating]:
        """A player's rating, rank and trend (:class:`PlayerRating`) in one scope: in ``mode``, or in every game mode
        they have a rating in when ``mode`` is ``None`` (in :data:`MODES` order); empty when they have none."""
        check_id("user_id", user_id)
        guild = check_optional_guild(guild_id)
        modes = MODES if mode is None else (check_mode(mode),)
        min_matches = check_count("min_matches", min_matches)
        out: list[PlayerRating] = []
        for m in modes:
            key = scope(guild, m)
            rows = await self._db.read(_PLAYER_RATING, *key, user_id, min_matches, RATING_TREND_MATCHES)
            if not rows:
                continue
            mu, sigma, n, rank, ranked, mu_last, sigma_last, mu_first, sigma_first = rows[0]
            shown = shown_rating(mu, sigma)
            out.append(
                PlayerRating(
                    user_id,
                    guild,
                    m,
                    shown,
                    mu,
                    sigma,
                    n,
                    None if rank is None else int(rank),
                    int(ranked),
                    shown - shown_rating(mu_first, sigma_first),
                    shown - shown_rating(mu_last, sigma_last),
                )
            )
        return out

    async def rebuild_ratings(self, *, replace: bool = False) -> RatingCheck:
        """Recompute every rating from the recorded match results (their placements, in match id order, with
        :mod:`bot.storage._ratings`) and compare them with the stored ones; with ``replace``, store the recomputed
        ratings and rating changes instead (repairs, and rating the matches recorded before ratings existed).
        One transaction that finishes wait for; reads the matches in chunks of ids. The model's arithmetic dominates
        (about 0.13 ms a match and scope): several minutes per million matches (``benchmarks/storage.py``)."""
        async with self._db.transaction() as tx:
            if self._db.totals_lock is not None:
                await tx.execute(self._db.totals_lock)
            top = (await tx.fetch("SELECT coalesce(max(id), 0) FROM matches"))[0][0]
            state: dict[tuple[int, str, int], tuple[float, float, int, int]] = {}
            changes: list[tuple[Any, ...]] = []
            rated = 0
            if replace:
                await tx.execute("DELETE FROM rating_changes", slow=True)
                await tx.execute("DELETE FROM player_ratings", slow=True)
            for low in range(0, int(top), _RATING_CHUNK):
                rows = await tx.fetch(_RATED_PLAYERS, low, low + _RATING_CHUNK, slow=True)
                by_match: dict[int, tuple[int, str, list[tuple[int, int]]]] = {}
                for match_id, guild_id, mode, user_id, placement in rows:
                    by_match.setdefault(int(match_id), (int(guild_id), str(mode), []))[2].append(
                        (int(placement), int(user_id))
                    )
                for match_id in sorted(by_match):
                    guild_id, mode, placed = by_match[match_id]
                    if len(placed) < 2:
                        continue
                    rated += 1
                    seats = [(user, place) for place, user in sorted(placed)]
                    for guild in (guild_id, ALL_GUILDS):
                        prior = {u: state[guild, mode, u][:2] for u, _ in seats if (guild, mode, u) in state}
                        for user, mu0, sigma0, mu, sigma in rate(seats, prior):
                            n = state[guild, mode, user][2] + 1 if (guild, mode, user) in state else 1
                            state[guild, mode, user] = (mu, sigma, n, match_id)
                            if replace:
                                changes.append((guild, mode, user, match_id, mu0, sigma0, mu, sigma))
                if changes:
                    await tx.executemany(_INSERT_RATING_CHANGE, changes)
                    changes = []
            if replace:
                ratings = [
                    (g, m, u, mu, sigma, ordinal(mu, sigma), n, last)
                    for (g, m, u), (mu, sigma, n, last) in sorted(state.items())
                ]
                for i in range(0, len(ratings), _RATING_CHUNK):
                    await tx.executemany(_UPSERT_RATING, ratings[i : i + _RATING_CHUNK])
                return RatingCheck(rated, len(state), len(state), 0, (), True)
            stored = {
                (int(g), str(m), int(u)): (float(mu), float(sigma), int(n))
                for g, m, u, mu, sigma, n in await tx.fetch(
                    "SELECT guild_id, mode, user_id, mu, sigma, matches FROM player_ratings", slow=True
                )
            }
        computed = {k: (mu, sigma, n) for k, (mu, sigma, n, _) in state.items()}
        differ = sorted(k for k in stored.keys() | computed.keys() if stored.get(k) != computed.get(k))
        return RatingCheck(
            rated,
            len(computed),
            len(stored),
            len(differ),
            tuple((*k, stored.get(k), computed.get(k)) for k in differ[:20]),
            False,
        )

    async def rebuild_aggregates(self) -> None:
        """Recompute every leaderboard total and rank table, and the seasons' standings, from the raw match tables, in
        one transaction (readers see the old ones until it commits; finishes wait). For repairs and after importing
        matches; about 6.5 minutes per million matches on SQLite, most of it the seasons (README, *Performance*). The
        rank triggers are off for the bulk work, so the rank tables are computed with one GROUP BY each instead of a
        trigger call per row."""
        async with self._db.transaction() as tx:
            await rebuild_aggregates(self._db, tx)


async def rebuild_aggregates(db: Dialect, tx: Tx) -> None:
    """:meth:`SqlStore.rebuild_aggregates` inside the caller's transaction ``tx`` on ``db``."""
    if db.totals_lock is not None:
        await tx.execute(db.totals_lock)
    async with db.without_triggers(tx):
        for table in ("player_totals", *RANK_TABLES):
            await tx.execute(f"DELETE FROM {table}", slow=True)
        await tx.execute(db.rebuild_finest, slow=True)
        for table in ("season_standings", "seasons"):
            await tx.execute(f"DELETE FROM {table}", slow=True)
        for statement in _seasons.REBUILD:
            await tx.execute(statement, slow=True)
        for guild, mode, group in (
            ("guild_id", f"'{ALL_MODES}'", "guild_id, "),
            (str(ALL_GUILDS), "mode", "mode, "),
            (str(ALL_GUILDS), f"'{ALL_MODES}'", ""),
        ):
            await tx.execute(db.rebuild_wider.format(guild=guild, mode=mode, group=group), slow=True)
        for table, keys in RANK_TABLES.items():
            await tx.execute(
                f"INSERT INTO {table} SELECT {keys}, count(*) FROM player_totals WHERE played > 0 GROUP BY {keys}",
                slow=True,
            )
