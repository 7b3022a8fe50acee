"""DESIGN "Saved formats and upgrades" for migrations 0005 and 0006 (issue 19 points 3 and 1), on both stores: a
database written by the release of schema version 4 (``tests/fixtures/storage/schema4.sqlite3``, made by
``make_schema4.py`` at 18c0e0f) is upgraded, keeps its settings, live game, matches and leaderboards, starts without
ratings (its matches keep their summary), has its older matches rated by a rebuild, goes on rating new matches, and
records the moves of its live game."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.storage import MatchSteps, Store
from bot.storage._migrations import POSTGRES, available

from .conftest import Backend
from .helpers import game, match

FIXTURE = Path(__file__).parent.parent / "fixtures" / "storage" / "schema4.sqlite3"
TABLES = (
    "guild_settings",
    "live_games",
    "matches",
    "match_players",
    "match_rounds",
    "player_totals",  # its triggers fill the rank tables
)


async def schema4(backend: Backend) -> None:
    """Lay the released database down in ``backend``: the file itself for SQLite; for PostgreSQL its migrations 1–4
    and the same rows."""
    if backend.name == "sqlite":
        Path(backend.target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURE, backend.target)
        return
    from bot.storage._postgres import migrate

    conn = await backend._conn()
    assert await migrate(conn, available(POSTGRES)[:4]) == [1, 2, 3, 4]
    with sqlite3.connect(FIXTURE) as src:
        for table in TABLES:
            cur = src.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cur.description]
            rows = [tuple(bool(v) if c == "is_ai" else v for c, v in zip(columns, row, strict=True)) for row in cur]
            if rows:
                await conn.copy_records_to_table(table, records=rows, columns=columns)
    await conn.execute(
        "SELECT setval(pg_get_serial_sequence('matches', 'id'), coalesce(max(id), 0) + 1, false) FROM matches"
    )


@pytest.fixture
async def upgraded(backend: Backend) -> Store:
    await schema4(backend)
    return await backend.open()


async def test_a_schema4_database_is_upgraded_and_rated_by_a_rebuild(upgraded: Store, backend: Backend):
    store = upgraded
    try:
        versions = await backend.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [v for (v,) in versions] == [m.version for m in available(POSTGRES)]
        assert (await store.get_settings(1)).turn_timer == 30
        assert [g.channel_id for g in await store.load_games()] == [900]
        board = await store.leaderboard(guild_id=1, mode="classic")
        assert [(r.user_id, r.wins, r.played) for r in board][:2] == [(11, 5, 8), (12, 2, 7)]
        # matches recorded before keep their summary and have no rating yet
        assert await backend.fetch("SELECT count(*) FROM matches") == [(14,)]
        assert await store.player_ratings(11, guild_id=1, mode=None) == []
        assert await store.match_record("m1") == []  # no record either (issue 19 point 1): the summary only
        check = await store.rebuild_ratings()
        assert check.stored == 0 and check.matches == 11 and check.differing == check.ratings > 0

        rebuilt = await store.rebuild_ratings(replace=True)
        assert rebuilt.rebuilt and rebuilt.matches == 11
        assert (await store.rebuild_ratings()).ok
        rated = await store.rating_leaderboard(guild_id=1, mode="classic")
        assert sorted(r.user_id for r in rated) == [11, 12, 13]  # 5+ rated matches each in server 1's classic
        assert sorted(r.matches for r in rated) == [6, 7, 7]
        assert await store.rating_leaderboard(guild_id=2, mode="classic") == []  # fewer than 5 matches there

        # and it goes on: a new match is rated on top of the rebuilt ratings, and still matches a rebuild
        assert await store.finish_match(match("new", guild=1, seats=((12, "Ben"), (11, "Anna"))))
        (ben,) = await store.player_ratings(12, guild_id=1, mode="classic")
        assert ben.matches == 8 and ben.last_change > 0
        assert (await store.rebuild_ratings()).ok
        # the live game of the old release goes on, its moves now recorded (migration 0006, issue 19 point 1)
        entry = {"a": {"t": "Draw", "player": 0}}
        await store.save_game(game(900, version=9), steps=MatchSteps("k900", ((7, entry),)))
        assert await store.match_record("k900") == [(7, entry)]
        assert [(g.channel_id, g.version) for g in await store.load_games()] == [(900, 9)]
    finally:
        await store.close()


def test_the_ratings_command_checks_and_rebuilds(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """``python -m bot.storage.ratings``: 1 and the differences while the upgraded matches are not rated yet,
    ``--rebuild`` rates them, then 0."""
    from bot.storage import ratings

    path = tmp_path / "uno.sqlite3"
    shutil.copy(FIXTURE, path)
    assert ratings.main([str(path)]) == 1
    out = capsys.readouterr().out
    assert "differ from the 0 stored (11 rated matches)" in out and "--rebuild" in out
    assert ratings.main(["--rebuild", str(path)]) == 0
    assert "from 11 rated matches" in capsys.readouterr().out
    assert ratings.main([str(path)]) == 0
    assert "stored ratings match the 11 rated matches" in capsys.readouterr().out
    assert ratings.main(["--bogus"]) == 2
