"""The SQLite → PostgreSQL copy (issue 11): settings, live games and results arrive exactly, every leaderboard, stat
and rank is the same on both sides, the copied store goes on recording, and a non-empty target is refused."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import LiveGame, MatchSteps, SqliteStore
from bot.storage.copy import TargetNotEmpty, copy_sqlite_to_postgres, main

from .conftest import Backend, drop_pg_backend, pg_backend
from .helpers import match
from .test_aggregates import GUILDS, MODES, USERS, check_consistency, random_result
from .test_leaderboards import MATCHES


@pytest.fixture
async def pg(pg_database: str) -> AsyncIterator[Backend]:
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


async def filled_sqlite(path: Path) -> SqliteStore:
    store = await SqliteStore.open(path)
    for m in MATCHES:
        assert await store.finish_match(m)
    rng = random.Random(99)
    for i in range(150):
        await store.finish_match(random_result(rng, f"r{i}", 1_700_000_000.0 + i))
    await store.update_settings(501, default_mode="flip", turn_timer=20, language="sk", text_only=True)
    await store.update_settings(502, language=None, turn_timer=600, default_target_score=0, game_threads=True)
    await store.update_settings(503, default_options={"scoring": "lowest"}, turn_pings=False)
    await store.update_settings(504, season_period="quarterly", ai_level="easy")
    await store.update_prefs(11, large_cards=True)
    for channel in (7001, 7002, 7003):
        snap = {"channel": channel, "hands": [["R5", "W+4"], ["G7"]], "name": "Žofia 🃏"}
        await store.save_game(
            LiveGame(channel, 501, "flex", "playing", channel - 7000, snap, 1_700_000_123.5),
            steps=MatchSteps(f"{channel}:1", ((0, {"start": {"seed": channel}}), (1, {"remove": 0}))),
        )
    return store


async def test_a_copy_keeps_every_setting_game_result_and_rank(db_path: Path, pg: Backend):
    src = await filled_sqlite(db_path)
    await src.close()
    lines: list[str] = []
    report = await copy_sqlite_to_postgres(db_path, str(pg.target), progress=lines.append)
    assert (report.settings, report.prefs, report.live_games, report.matches) == (4, 1, 3, 162)
    assert any("match_players" in line for line in lines)

    src = await SqliteStore.open(db_path)
    dst = await pg.open()
    try:
        for guild in (501, 502, 503, 504, 1001):
            assert await dst.get_settings(guild) == await src.get_settings(guild)
        assert (await dst.get_settings(503)).default_options == {"scoring": "lowest"}
        for user in (11, 12):
            assert await dst.get_prefs(user) == await src.get_prefs(user)
        assert await dst.load_games() == await src.load_games()
        for channel in (7001, 7002, 7003):  # the match records (issue 19 point 1)
            assert await dst.match_record(f"{channel}:1") == await src.match_record(f"{channel}:1") != []
        for guild in (None, *GUILDS, 1001, 1002):
            for mode in (None, *MODES):
                board = await src.leaderboard(guild_id=guild, mode=mode, limit=1000)
                assert await dst.leaderboard(guild_id=guild, mode=mode, limit=1000) == board
                assert await dst.leaderboard_count(guild_id=guild, mode=mode) == len(board)
                for user in [*USERS[:5], 11, 13, 18]:
                    assert await dst.player_stats(user, guild_id=guild, mode=mode) == await src.player_stats(
                        user, guild_id=guild, mode=mode
                    )
        await check_consistency(pg)
        assert await pg.fetch("SELECT count(*) FROM matches") == [(162,)]
        # the seasons' standings (issue 19 point 4), rebuilt from the copied results: those SQLite kept
        for sql in ("SELECT * FROM season_standings ORDER BY 1, 2, 3, 4", "SELECT * FROM seasons ORDER BY 1, 2, 3"):
            copied, kept = await pg.fetch(sql), await Backend("sqlite", db_path).fetch(sql)
            assert copied == kept != []
        # the ratings are recomputed from the copied results: the very ratings SQLite stored (issue 19 point 3)
        for guild in (None, *GUILDS, 1001, 1002):
            for mode in MODES:
                board = await src.rating_leaderboard(guild_id=guild, mode=mode, limit=1000, min_matches=1)
                assert await dst.rating_leaderboard(guild_id=guild, mode=mode, limit=1000, min_matches=1) == board
        assert any("rated" in line for line in lines) and (await dst.rebuild_ratings()).ok

        # the copy goes on recording: new match ids follow the copied ones
        assert await dst.finish_match(match("after-the-move", guild=501, channel=7001))
        assert await dst.finish_match(MATCHES[0]) is False  # already recorded in SQLite, so copied
        assert await pg.fetch("SELECT max(id) FROM matches") == [(163,)]
        assert await dst.load_games() == [g for g in await src.load_games() if g.channel_id != 7001]
    finally:
        await src.close()
        await dst.close()


async def test_a_target_that_holds_data_is_refused_and_left_alone(db_path: Path, pg: Backend, capsys):
    await (await filled_sqlite(db_path)).close()
    await copy_sqlite_to_postgres(db_path, str(pg.target))
    before = await pg.fetch("SELECT count(*), max(id) FROM matches")
    with pytest.raises(TargetNotEmpty, match="already holds 4 server settings, 3 live games and 162 matches"):
        await copy_sqlite_to_postgres(db_path, str(pg.target))
    assert await pg.fetch("SELECT count(*), max(id) FROM matches") == before

    assert await asyncio.to_thread(main, [str(db_path), str(pg.target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "nothing was written" in err


async def test_the_command_line(tmp_path: Path, pg: Backend, capsys):
    assert await asyncio.to_thread(main, [str(tmp_path / "missing.sqlite3"), str(pg.target)]) == 2
    assert capsys.readouterr().err == f"error: no SQLite database at {tmp_path / 'missing.sqlite3'}\n"
    assert await asyncio.to_thread(main, ["only-one-argument"]) == 2
    assert (
        await asyncio.to_thread(main, [str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")]) == 2
    )  # the target must be PostgreSQL
    assert "usage:" in capsys.readouterr().err

    path = tmp_path / "empty.sqlite3"
    await (await SqliteStore.open(path)).close()
    assert await asyncio.to_thread(main, [str(path), str(pg.target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "done: 0 server settings, 0 users' preferences, 0 live games, 0 matches (0 seats, 0 rounds); "
        "0 ranked players, as before"
    )
