"""Live games: save (upsert by channel), load, delete; damaged rows are set aside and never stop the others."""

from __future__ import annotations

import json
import logging
from dataclasses import replace

import pytest

from bot.storage import InvalidInputError, LiveGame, Shards, Store

from .conftest import Backend
from .helpers import game


async def test_save_and_load_round_trip_the_snapshot_exactly(store: Store):
    snap = {
        "players": [{"user": 2**62 + 1, "name": "Žofia 🃏", "hand": ["R5", "W+4"]}],
        "nested": {"list": [1, 2.5, None, True, "x"], "empty": {}},
        "zero": 0,
    }
    g = LiveGame(777, 5, "flip", "lobby", 3, snap, 1_700_000_123.25)
    await store.save_game(g)
    assert await store.load_games() == [g]


async def test_saving_again_replaces_the_channel_row(store: Store):
    await store.save_game(game(100, version=1))
    await store.save_game(game(200, version=1))
    newer = replace(game(100, version=2, hand=["G7"]), status="finished", mode="flex", guild_id=9)
    await store.save_game(newer)
    assert await store.load_games() == [newer, game(200, version=1)]


async def test_delete_removes_only_that_channel(store: Store):
    await store.save_game(game(100))
    await store.save_game(game(200))
    assert await store.delete_game(100) is True
    assert await store.delete_game(100) is False
    assert [g.channel_id for g in await store.load_games()] == [200]


async def test_live_games_survive_reopening(store: Store, backend: Backend):
    await store.save_game(game(100, version=4))
    await store.close()
    reopened = await backend.open()
    try:
        assert await reopened.load_games() == [game(100, version=4)]
    finally:
        await reopened.close()


@pytest.mark.parametrize(
    "bad",
    [
        {"channel_id": 0},
        {"guild_id": -4},
        {"mode": "uno"},
        {"status": "Playing"},
        {"status": ""},
        {"status": "a" * 40},
        {"version": -1},
        {"version": 1.5},
        {"snapshot": ["not", "a", "dict"]},
        {"snapshot": {"x": float("nan")}},
        {"snapshot": {"x": object()}},
        {"snapshot": {1: {2, 3}}},
        {"updated_at": float("inf")},
        {"updated_at": "now"},
    ],
)
async def test_a_bad_live_game_is_refused_and_nothing_is_written(store: Store, bad):
    await store.save_game(game(100, version=1))
    with pytest.raises(InvalidInputError):
        await store.save_game(replace(game(100, version=2), **bad))
    assert await store.load_games() == [game(100, version=1)]


async def raw_insert(backend: Backend, channel_id: int, snapshot: str | bytes) -> None:
    await backend.execute(
        "INSERT INTO live_games VALUES (?, 1, 'classic', 'playing', 5, ?, 1700000000.0)", channel_id, snapshot
    )


async def test_damaged_rows_are_set_aside_and_the_others_load(store: Store, backend: Backend, caplog):
    good = [game(100), game(300), game(500)]
    for g in good:
        await store.save_game(g)
    await raw_insert(backend, 200, '{"channel": 200, "hand": [')  # cut short
    if backend.name == "sqlite":
        await raw_insert(backend, 400, b"\xff\xfe not utf-8")  # stored as a blob
    else:  # a TEXT column holds only valid text
        await raw_insert(backend, 400, "\u00ff\u00fe not JSON")
    await raw_insert(backend, 450, "[1, 2, 3]")  # JSON, but not an object
    await store.save_game(game(600, poison=True))  # fine for the store, rejected by the adapter's validator

    def validate(snapshot: dict) -> object:
        if snapshot.get("poison"):
            raise ValueError("unknown phase 'poisoned'")
        return snapshot

    caplog.set_level(logging.WARNING, logger="bot.storage")
    assert await store.load_games(validate) == good

    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 4 and all(r.levelno == logging.WARNING for r in caplog.records)
    assert any("channel 600" in w and "unknown phase 'poisoned'" in w for w in warnings)
    assert any("channel 200" in w and "not valid JSON" in w for w in warnings)

    rows = await backend.fetch(
        "SELECT channel_id, guild_id, status, version, snapshot, reason FROM quarantined_games ORDER BY channel_id"
    )
    assert [r[0] for r in rows] == [200, 400, 450, 600]
    assert rows[0][1:5] == (1, "playing", 5, '{"channel": 200, "hand": [')
    if backend.name == "sqlite":
        assert rows[1][4] == b"\xff\xfe not utf-8"
    assert "JSON list" in rows[2][5]
    assert "ValueError: unknown phase 'poisoned'" in rows[3][5]
    assert json.loads(rows[3][4]) == game(600, poison=True).snapshot

    caplog.clear()
    assert await store.load_games(validate) == good  # set aside once: nothing more to report
    assert caplog.records == []


async def test_a_row_with_a_damaged_column_is_set_aside(store: Store, backend: Backend):
    await store.save_game(game(100))
    if backend.name == "sqlite":  # untyped columns
        await backend.execute("INSERT INTO live_games VALUES (200, 'guild?', 'classic', 'playing', 1, '{}', 1.0)")
    else:
        await backend.execute("INSERT INTO live_games VALUES (200, 1, 'classic', 'Playing!', 1, '{}', 1.0)")
    await backend.execute("INSERT INTO live_games VALUES (300, 1, 'chess', 'playing', 1, '{}', 1.0)")
    await backend.execute("INSERT INTO live_games VALUES (400, 1, 'flip', 'playing', -1, '{}', 1.0)")
    assert await store.load_games() == [game(100)]
    assert await backend.fetch("SELECT channel_id FROM quarantined_games ORDER BY 1") == [(200,), (300,), (400,)]


def guild_of_shard(shard: int, count: int, k: int) -> int:
    """A guild id whose shard is ``shard`` of ``count`` (Discord: ``(guild_id >> 22) % count``)."""
    return ((k * count + shard) << 22) | (k * 7919 % (1 << 22))


async def test_a_process_loads_only_the_games_of_its_shards(store: Store):
    """Issue 11: a process resumes only the live games of its own guilds."""
    games = []
    for k in range(1, 4):
        for shard in range(4):
            channel = 1000 + 10 * k + shard
            games.append(replace(game(channel), guild_id=guild_of_shard(shard, 4, k)))
    for g in games:
        await store.save_game(g)
    mine = Shards.of(4, [1, 3])
    loaded = await store.load_games(shards=mine)
    assert loaded == [g for g in games if (g.guild_id >> 22) % 4 in (1, 3)]
    assert len(loaded) == 6 and all(mine.owns(g.guild_id) for g in loaded)
    assert await store.load_games(shards=Shards.of(1, [0])) == games
    others = await store.load_games(shards=Shards.of(4, [0, 2]))
    assert sorted(loaded + others, key=lambda g: g.channel_id) == games


@pytest.mark.parametrize("count, ids", [(0, [0]), (4, []), (4, [4]), (4, [-1]), (2, ["1"])])
def test_bad_shards_are_refused(count, ids):
    with pytest.raises(InvalidInputError):
        Shards.of(count, ids)


async def test_load_games_refuses_a_shard_filter_of_the_wrong_type(store: Store):
    with pytest.raises(InvalidInputError):
        await store.load_games(shards=(4, [1]))  # type: ignore[arg-type]
