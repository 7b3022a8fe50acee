"""Copy the bot's SQLite database into PostgreSQL, for a bot that outgrows one file (issue 11)::

    python -m bot.storage.copy data/uno.sqlite3 postgresql://uno@db.example/uno
    scripts/copy-to-postgres data/uno.sqlite3 postgresql://uno@db.example/uno      # the same, from a clone

Stop the bot first. The SQLite file is brought up to date (its migrations) and then only read; the PostgreSQL
database gets the schema (its migrations) and, in one transaction: every server's settings and user's preferences
(damaged values as their defaults), every live game (so the
matches in progress resume after the move), every finished match with its players (with their teams in a partner
game, migration 0008) and rounds (same ids) and every match record (issue 19 point 1), and the
leaderboard totals, rank tables and seasons' standings (issue 19 point 4) rebuilt from those matches, so every
leaderboard, season, player's stats and rank is the same as before; then the skill ratings are recomputed from the
copied results (issue 19 point 3: the same ratings as ``python -m bot.storage.ratings --rebuild`` gives on the SQLite
file). Leases are not copied (the processes take them
anew); rows SQLite had set aside in ``quarantined_games`` stay there.

A target that already holds settings, live games or matches is refused, and nothing is written, so running the command
twice never counts a match twice: copy into a new, empty database (or schema, ``?search_path=…``).
Exit code 0 when copied, 2 with a one-line ``error:`` when the copy was refused or a database cannot be used.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ._common import SETTINGS_COLUMNS, settings_row
from ._models import StorageError, check_live_game, is_postgres_url, redact_database
from ._sqlite import SqliteStore
from ._store import rebuild_aggregates

CHUNK = 20_000
"""Matches copied per COPY statement."""
_TARGET_TABLES = ("guild_settings", "live_games", "matches", "user_prefs")


class TargetNotEmpty(StorageError):
    """The PostgreSQL database already holds data; nothing was copied."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: rows per table, and the ranked players of the all-servers leaderboard on both sides."""

    settings: int
    prefs: int
    live_games: int
    matches: int
    players: int
    rounds: int
    ranked_players: int


async def copy_sqlite_to_postgres(
    source: str | Path, target: str, *, progress: Callable[[str], None] = lambda _: None
) -> CopyReport:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``target`` (see the module text).

    Raises :class:`StorageError` when ``source`` is not a database file, :class:`TargetNotEmpty` (nothing written)
    when ``target`` already holds settings, live games or matches, and what the stores raise when opened.
    """
    try:
        from ._postgres import PostgresStore
    except ImportError as e:
        raise StorageError(
            "copying into PostgreSQL needs the asyncpg package: pip install 'uno-discord-bot[postgres]'"
        ) from e
    path = Path(source)
    if not path.is_file():
        raise StorageError(f"no SQLite database at {path}")
    src = await SqliteStore.open(path)
    try:
        settings = [await src.get_settings(int(str(g))) for (g,) in _read(path, "SELECT guild_id FROM guild_settings")]
        prefs = [await src.get_prefs(int(str(u))) for (u,) in _read(path, "SELECT user_id FROM user_prefs")]
        games = await src.load_games()
        ranked = await src.leaderboard_count(guild_id=None, mode=None)
    finally:
        await src.close()

    dst = await PostgresStore.open(target)
    try:
        async with dst.dialect.transaction() as tx:
            conn = tx.conn
            # no bot may write while the copy runs: a second copy, or a bot started too early, waits for the commit
            await conn.execute(f"LOCK TABLE {', '.join(_TARGET_TABLES)} IN EXCLUSIVE MODE")
            held = [int(await conn.fetchval(f"SELECT count(*) FROM {t}")) for t in _TARGET_TABLES]
            if any(held):
                raise TargetNotEmpty(
                    f"{redact_database(target)} already holds {held[0]} server settings, {held[1]} live games and "
                    f"{held[2]} matches ({held[3]} users' preferences); copy into an empty database "
                    "(nothing was written)"
                )
            await conn.copy_records_to_table(
                "guild_settings",
                records=[settings_row(s) for s in settings],
                columns=["guild_id", *SETTINGS_COLUMNS.split(", ")],
            )
            await conn.copy_records_to_table(
                "user_prefs", records=[(p.user_id, int(p.text_only), int(p.large_cards)) for p in prefs]
            )
            progress(f"copied {len(settings):,} server settings and {len(prefs):,} users' preferences")
            await conn.executemany(
                "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [check_live_game(g) for g in games],
            )
            progress(f"copied {len(games):,} live games")
            counts = [0, 0, 0]
            for table, sql, convert, i in (
                ("matches", "SELECT * FROM matches ORDER BY id", _match_row, 0),
                (
                    "match_players",
                    f"SELECT {_PLAYER_COLUMNS} FROM match_players ORDER BY match_id, seat",
                    _player_row,
                    1,
                ),
                ("match_rounds", "SELECT * FROM match_rounds ORDER BY match_id, number", _round_row, 2),
            ):
                columns = _PLAYER_COLUMNS.split(", ") if table == "match_players" else None
                for chunk in _chunks(path, sql):
                    await conn.copy_records_to_table(table, records=[convert(r) for r in chunk], columns=columns)
                    counts[i] += len(chunk)
                progress(f"copied {counts[i]:,} rows of {table}")
            records = 0
            for chunk in _chunks(path, "SELECT match_key, seq, entry FROM match_records ORDER BY match_key, seq"):
                await conn.copy_records_to_table(
                    "match_records", records=[(str(k), _int(s), str(e)) for k, s, e in chunk]
                )
                records += len(chunk)
            progress(f"copied {records:,} entries of match records")
            await conn.execute(
                "SELECT setval(pg_get_serial_sequence('matches', 'id'), coalesce(max(id), 0) + 1, false) FROM matches"
            )
            await rebuild_aggregates(dst.dialect, tx)
            copied_ranked = int(
                await conn.fetchval(
                    "SELECT coalesce(sum(players), 0) FROM rank_by_wins WHERE guild_id = 0 AND mode = '*' AND wins > 0"
                )
            )
            if copied_ranked != ranked:  # cannot happen unless the SQLite totals were damaged: say so, keep nothing
                raise StorageError(
                    f"the copied matches rank {copied_ranked} players but the SQLite leaderboard has {ranked}; "
                    "run rebuild_aggregates on the SQLite database and check it (nothing was written)"
                )
            progress("rebuilt the leaderboards")
        rated = await dst.rebuild_ratings(replace=True)
        progress(f"rated {rated.matches:,} matches ({rated.ratings:,} ratings) from the copied results")
    finally:
        await dst.close()
    return CopyReport(len(settings), len(prefs), len(games), counts[0], counts[1], counts[2], ranked)


def _read(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql).fetchall()


def _chunks(path: Path, sql: str) -> list[list[tuple[object, ...]]]:
    out: list[list[tuple[object, ...]]] = []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        cur = db.execute(sql)
        while rows := cur.fetchmany(CHUNK):
            out.append(rows)
    return out


def _int(v: object) -> int | None:
    return None if v is None else int(str(v))


def _float(v: object) -> float:
    return float(str(v))


def _match_row(r: Sequence[object]) -> tuple[object, ...]:
    mid, key, mode, guild, channel, status, target, rounds, winner, started, ended = r
    return (
        _int(mid),
        str(key),
        str(mode),
        _int(guild),
        _int(channel),
        str(status),
        _int(target),
        _int(rounds),
        _int(winner),
        _float(started),
        _float(ended),
    )


_PLAYER_COLUMNS = (
    "match_id, seat, user_id, display_name, is_ai, final_score, placement, rounds_won, points_scored, team"
)
"""The columns of ``match_players`` copied, by name (``team``: migration 0008, SPEC T)."""


def _player_row(r: Sequence[object]) -> tuple[object, ...]:
    mid, seat, user, name, is_ai, final, placement, won, points, team = r
    return (
        _int(mid),
        _int(seat),
        _int(user),
        str(name),
        bool(is_ai),
        _int(final),
        _int(placement),
        _int(won),
        _int(points),
        _int(team),
    )


def _round_row(r: Sequence[object]) -> tuple[object, ...]:
    mid, number, winner, points = r
    return _int(mid), _int(number), _int(winner), _int(points)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0].startswith("-") or not is_postgres_url(args[1]):
        print("usage: python -m bot.storage.copy SQLITE_PATH postgresql://user@host/db", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(copy_sqlite_to_postgres(args[0], args[1], progress=print))
    except StorageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(
        f"done: {report.settings:,} server settings, {report.prefs:,} users' preferences, "
        f"{report.live_games:,} live games, {report.matches:,} matches "
        f"({report.players:,} seats, {report.rounds:,} rounds); {report.ranked_players:,} ranked players, as before"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
