"""Seasons of the standings (issue 19 point 4), on both stores: the season keys and their dates; the standings kept
in the transaction that records a match, for a server's weeks, months and quarters and the all-servers months; the
same standings recomputed by a rebuild and backfilled by migration 0007 from the matches recorded before it; the
list of a scope's seasons; the two settings of migration 0007 (season period, AI level)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import aiosqlite
import pytest

from bot import limits
from bot.storage import GuildSettings, InvalidInputError, Store, season_bounds, season_key, season_period
from bot.storage._migrations import POSTGRES, available, migrate

from .conftest import Backend, drop_pg_backend, pg_backend
from .helpers import match
from .test_upgrade_ratings import schema4


def at(text: str) -> float:
    """Unix seconds of a UTC time written ``2026-12-31 23:59:59``."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


# (moment, ISO week, month, quarter): year ends whose ISO year differs from the calendar's, a quarter's last second
BOUNDARIES = [
    ("2024-12-29 23:59:59", "2024-W52", "2024-12", "2024-Q4"),  # a Sunday
    ("2024-12-30 00:00:00", "2025-W01", "2024-12", "2024-Q4"),  # Monday: week 1 of 2025 starts in 2024
    ("2026-03-31 23:59:59", "2026-W14", "2026-03", "2026-Q1"),
    ("2026-04-01 00:00:00", "2026-W14", "2026-04", "2026-Q2"),
    ("2026-12-31 23:59:59", "2026-W53", "2026-12", "2026-Q4"),  # 2026 has 53 ISO weeks
    ("2027-01-01 00:00:00", "2026-W53", "2027-01", "2027-Q1"),
    ("2027-01-04 00:00:00", "2027-W01", "2027-01", "2027-Q1"),
    ("2021-01-03 12:00:00", "2020-W53", "2021-01", "2021-Q1"),
]


@pytest.mark.parametrize(("moment", "week", "month", "quarter"), BOUNDARIES)
def test_a_moment_belongs_to_one_week_month_and_quarter(moment: str, week: str, month: str, quarter: str):
    t = at(moment)
    assert (season_key("weekly", t), season_key("monthly", t), season_key("quarterly", t)) == (week, month, quarter)
    for key, period in ((week, "weekly"), (month, "monthly"), (quarter, "quarterly")):
        start, end = season_bounds(key)
        assert start <= t < end and season_period(key) == period
        assert season_key(period, start) == key and season_key(period, end - 1) == key != season_key(period, end)


def test_season_dates():
    assert season_bounds("2026-12") == (at("2026-12-01 00:00:00"), at("2027-01-01 00:00:00"))
    assert season_bounds("2026-W53") == (at("2026-12-28 00:00:00"), at("2027-01-04 00:00:00"))
    assert season_bounds("2026-Q4") == (at("2026-10-01 00:00:00"), at("2027-01-01 00:00:00"))


@pytest.mark.parametrize(
    "key",
    # 9999-W52 ends in the year 10000, past what a date holds (review8: it raised OverflowError, which the season
    # option of /uno leaderboard and a forged season page button answered with the generic error line)
    ["2026-13", "2026-00", "2025-W53", "2026-W00", "2026-Q5", "26-12", "2026-12 ", "", 12, "9999-W52", "9999-12"],
)
def test_a_key_that_is_no_season_is_refused(key: Any):
    with pytest.raises(InvalidInputError):
        season_bounds(key)


def test_the_periods_have_one_home():
    from bot.ai import DEFAULT_LEVEL, Level

    assert limits.SEASON_PERIOD_DEFAULT in limits.SEASON_PERIODS and limits.GLOBAL_SEASON_PERIOD == "monthly"
    assert tuple(Level) == limits.AI_LEVELS and DEFAULT_LEVEL == limits.AI_LEVEL_DEFAULT
    with pytest.raises(InvalidInputError):
        season_key("yearly", 0.0)
    for bad in (float("nan"), float("inf"), 1e20, True, "1700000000"):
        with pytest.raises(InvalidInputError):
            season_key("monthly", bad)  # type: ignore[arg-type]


async def test_the_sql_of_each_dialect_agrees_with_python_on_every_day_of_a_decade(store: Store):
    """The ``{season:…}`` fragment (the rebuild's SQL; the migration's backfill writes the same expressions) gives
    :func:`season_key`'s key for a moment of every day from 2019 to 2030, at a different hour each day (ISO weeks 53,
    years whose first days belong to the year before)."""
    first = at("2019-01-01 00:00:00")
    moments = [first + day * 86400 + (day * 3607) % 86400 for day in range(366 * 12)]
    db: Any = store._db  # type: ignore[attr-defined]  # the dialect under the store
    for i in range(0, len(moments), 1000):
        chunk = moments[i : i + 1000]
        values = ", ".join(f"(${n + 1}::float8)" for n in range(len(chunk)))
        rows = await db.read(
            f"WITH v (t) AS (VALUES {values}) SELECT t, {{season:weekly,t}}, {{season:monthly,t}}, "
            "{season:quarterly,t} FROM v",
            *chunk,
        )
        assert [tuple(r[1:]) for r in sorted(rows)] == [
            (season_key("weekly", t), season_key("monthly", t), season_key("quarterly", t)) for t in sorted(chunk)
        ]


async def seasons_tables(backend: Backend) -> dict[str, list[tuple[Any, ...]]]:
    return {
        "season_standings": await backend.fetch("SELECT * FROM season_standings ORDER BY 1, 2, 3, 4"),
        "seasons": await backend.fetch("SELECT * FROM seasons ORDER BY 1, 2, 3"),
    }


async def record_across_boundaries(store: Store) -> None:
    """Matches at every moment of :data:`BOUNDARIES`, in two servers and two games, with an AI seat, an abandoned
    match and a player renamed."""
    for i, (moment, *_) in enumerate(BOUNDARIES):
        t = at(moment)
        seats = ((11, "Ann"), (12, "Ben"), (None, "AI 3")) if i % 2 else ((12, f"Ben{i}"), (11, "Ann"))
        mode = "flip" if i % 3 == 0 else "classic"
        assert await store.finish_match(match(f"m{i}", guild=1 + i % 2, mode=mode, seats=seats, ended_at=t))
    assert await store.finish_match(
        match("ab", status="abandoned", winner=None, ended_at=at("2026-12-31 10:00:00"), rounds=())
    )
    assert await store.finish_match(
        match("ai", seats=((None, "AI 1"), (None, "AI 2")), ended_at=at("2026-12-31 11:00"))
    )


async def test_standings_are_kept_per_season_and_equal_a_rebuild(store: Store, backend: Backend):
    await record_across_boundaries(store)
    kept = await seasons_tables(backend)
    # every key is the season of its match's end, by the Python rule, for every scope of the match
    keys = {(g, s) for g, s, *_ in kept["season_standings"]}
    assert (1, "2026-W53") in keys and (2, "2026-W53") in keys and (0, "2027-01") in keys
    assert not any(g == 0 and season_period(s) != "monthly" for g, s in keys)  # all servers: months only
    await store.rebuild_aggregates()
    assert await seasons_tables(backend) == kept  # the SQL of the rebuild gives the same keys and sums

    # December 2026 in server 1: Ben (named Ben4 in the match he won) won one and abandoned one, as did Ann, who won
    # none and is not ranked; the name is the one of the last match
    board = await store.season_leaderboard(guild_id=1, mode=None, season="2026-12")
    assert [(r.user_id, r.display_name, r.wins, r.played, r.abandoned) for r in board] == [(12, "Ben", 1, 1, 1)]
    assert await store.season_leaderboard_count(guild_id=1, mode=None, season="2026-12") == 1
    # the 53rd week of 2026 holds the last match of 2026 (server 1) and the first of 2027 (server 2)
    assert [r.user_id for r in await store.season_leaderboard(guild_id=2, mode="classic", season="2026-W53")] == [11]
    assert [r.user_id for r in await store.season_leaderboard(guild_id=1, mode="classic", season="2026-W53")] == [12]
    both = await store.season_leaderboard(guild_id=None, mode=None, season="2027-01")
    assert sorted((r.user_id, r.wins) for r in both) == [(11, 1), (12, 1)]
    # AI seats never get a row; a season without matches is empty, not an error
    assert await backend.fetch("SELECT count(*) FROM season_standings WHERE user_id IS NULL") == [(0,)]
    assert await store.season_leaderboard(guild_id=1, mode=None, season="2030-01") == []


async def test_seasons_are_listed_newest_first_with_the_current_one(store: Store):
    await record_across_boundaries(store)
    now = at("2027-02-10 12:00:00")
    listed = await store.seasons(guild_id=1, period="monthly", now=now)
    # the current month first, without matches yet; a match of AI seats only counts nowhere
    assert [(s.key, s.matches) for s in listed] == [
        ("2027-02", 0),
        ("2027-01", 1),
        ("2026-12", 2),
        ("2026-03", 1),
        ("2024-12", 1),
    ]
    assert listed[2].start == at("2026-12-01 00:00:00") and listed[2].end == at("2027-01-01 00:00:00")
    quarters = await store.seasons(guild_id=2, period="quarterly", now=now)
    assert [(s.key, s.matches) for s in quarters] == [("2027-Q1", 1), ("2026-Q2", 1), ("2024-Q4", 1), ("2021-Q1", 1)]
    everywhere = await store.seasons(guild_id=None, period="monthly", now=at("2027-01-02 00:00:00"), limit=2)
    assert [(s.key, s.matches) for s in everywhere] == [("2027-01", 2), ("2026-12", 2)]
    with pytest.raises(InvalidInputError):
        await store.seasons(guild_id=None, period="weekly", now=now)  # all servers: months only
    with pytest.raises(InvalidInputError):
        await store.seasons(guild_id=1, period="daily", now=now)
    with pytest.raises(InvalidInputError):
        await store.seasons(guild_id=1, period="weekly", now=float("nan"))


@pytest.mark.parametrize(
    ("guild", "season"), [(None, "2026-W53"), (None, "2026-Q4"), (1, "2026-13"), (1, "december"), (1, None)]
)
async def test_a_season_the_scope_does_not_have_is_refused(store: Store, guild: int | None, season: Any):
    with pytest.raises(InvalidInputError):
        await store.season_leaderboard(guild_id=guild, mode=None, season=season)
    with pytest.raises(InvalidInputError):
        await store.season_leaderboard_count(guild_id=guild, mode=None, season=season)


async def test_the_season_period_and_ai_level_are_server_settings(store: Store, backend: Backend, caplog):
    assert (await store.get_settings(5)).season_period == "monthly"
    assert (await store.get_settings(5)).ai_level == "normal"
    saved = await store.update_settings(5, season_period="weekly", ai_level="hard")
    assert (saved.season_period, saved.ai_level) == ("weekly", "hard")
    assert await store.get_settings(5) == saved
    for bad in ({"season_period": "daily"}, {"ai_level": "expert"}, {"ai_level": None}, {"season_period": 7}):
        with pytest.raises(InvalidInputError):
            await store.update_settings(5, turn_timer=30, **bad)
    assert await store.get_settings(5) == saved  # nothing changed, the turn timer neither
    await backend.execute("UPDATE guild_settings SET season_period = 'yearly', ai_level = 'godlike' WHERE guild_id = 5")
    caplog.set_level(logging.WARNING, logger="bot.storage")
    assert await store.get_settings(5) == GuildSettings(5)
    assert len(caplog.records) == 2


#: The columns match_players had at schema 6 (0008 added ``team``).
V6_PLAYER_COLUMNS = "match_id, seat, user_id, display_name, is_ai, final_score, placement, rounds_won, points_scored"


async def test_migration_7_backfills_the_seasons_of_the_recorded_matches(store: Store, backend: Backend, tmp_path):
    """The backfill of 0007 (its own SQL, in each migration file) gives what recording the matches one by one gave:
    the matches are copied into a database of schema 6, which this code then opens. Besides the boundaries, a match
    every 37 days and 5 hours from 2019 to 2030 in another server."""
    await record_across_boundaries(store)
    for i in range(120):
        t = at("2019-01-01 03:00:00") + i * (37 * 86400 + 5 * 3600)
        assert await store.finish_match(match(f"d{i}", guild=9, seats=((11 + i % 3, "Ann"), (20, "Dan")), ended_at=t))
    kept = await seasons_tables(backend)
    columns = {"matches": "*", "match_players": V6_PLAYER_COLUMNS}
    rows = {t: await backend.fetch(f"SELECT {c} FROM {t} ORDER BY 1, 2") for t, c in columns.items()}
    if backend.name == "sqlite":
        older = Backend("sqlite", tmp_path / "v6.sqlite3")
        async with aiosqlite.connect(older.target, isolation_level=None) as db:
            assert await migrate(db, available()[:6]) == [1, 2, 3, 4, 5, 6]
            for table, values in rows.items():
                marks = ", ".join("?" * len(values[0]))
                await db.executemany(f"INSERT INTO {table} VALUES ({marks})", values)
    else:
        from bot.storage._postgres import migrate as pg_migrate

        older = await pg_backend(str(backend.target).split("?", 1)[0])
        conn = await older._conn()
        assert await pg_migrate(conn, available(POSTGRES)[:6]) == [1, 2, 3, 4, 5, 6]
        for table, values in rows.items():
            await conn.copy_records_to_table(table, records=values)
    try:
        reopened = await older.open()
        try:
            assert await seasons_tables(older) == kept
            weeks = await reopened.seasons(guild_id=1, period="weekly", now=at("2027-01-05 00:00:00"))
            assert [s.key for s in weeks][:2] == ["2027-W01", "2026-W53"]
        finally:
            await reopened.close()
    finally:
        if older.name == "postgres":
            await drop_pg_backend(older)


async def test_a_schema4_database_gets_its_seasons(backend: Backend):
    """The released database of schema 4 (tests/fixtures/storage/schema4.sqlite3), upgraded: its 14 matches, all of
    November 2023, fill that month's board exactly as the all-time board, and a new match goes on counting."""
    await schema4(backend)
    store = await backend.open()
    try:
        month = await store.season_leaderboard(guild_id=1, mode="classic", season="2023-11")
        assert month and month == await store.leaderboard(guild_id=1, mode="classic")
        for season in ("2023-W46", "2023-Q4"):
            assert await store.season_leaderboard(guild_id=1, mode=None, season=season) == await store.leaderboard(
                guild_id=1, mode=None
            )
        assert await store.season_leaderboard(guild_id=None, mode=None, season="2023-11") == await store.leaderboard(
            guild_id=None, mode=None
        )
        listed = await store.seasons(guild_id=1, period="monthly", now=at("2023-12-01 00:00:00"))
        assert [(s.key, s.matches) for s in listed] == [("2023-12", 0), ("2023-11", 10)]
        kept = await seasons_tables(backend)
        await store.rebuild_aggregates()
        assert await seasons_tables(backend) == kept
        assert (await store.get_settings(1)).season_period == "monthly"
        assert await store.finish_match(match("new", guild=1, ended_at=at("2023-12-02 10:00:00")))
        (row,) = await store.season_leaderboard(guild_id=1, mode=None, season="2023-12")
        assert (row.user_id, row.wins, row.played) == (11, 1, 1)
    finally:
        await store.close()
