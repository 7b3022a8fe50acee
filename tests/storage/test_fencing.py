"""Issue 16, safe by construction, in the store (both SQLite and PostgreSQL):

- point 5: every fenced write of a live game (save, delete, finish) succeeds only for the holder of the game's lease by
  the database's clock and only at the expected version; a refused write raises ``WriteRefused`` and writes nothing;
- point 6: the database's clock decides lease expiry (here a test ``db_clock``; the process's own ``clock`` changes
  nothing);
- point 7: one call renews all of an owner's leases and shard locks and says which it still holds; one call takes
  the leases of many games (start-up, takeovers) and says who holds each;
- point 4: shard locks, one owner at a time;
- migration 0004: a database written at schema 0003 (with a live game and its lease) is upgraded and goes on.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from bot.storage import Shards, Store, WriteRefused, open_store
from bot.storage._migrations import POSTGRES, available

from .conftest import Backend
from .helpers import game, match


async def saved(backend: Backend, channel: int) -> list[tuple[int, str]]:
    return [
        (int(v), str(s))
        for v, s in await backend.fetch("SELECT version, snapshot FROM live_games WHERE channel_id = ?", channel)
    ]


async def test_point5_only_the_lease_holder_writes_a_live_game(store: Store, backend: Backend) -> None:
    assert await store.acquire_lease(100, "a", 30)
    await store.save_game(game(100, version=1), owner="a", expected_version=None)
    await store.save_game(game(100, version=2), owner="a", expected_version=1)
    with pytest.raises(WriteRefused):
        await store.save_game(game(100, version=3, who="b"), owner="b", expected_version=2)  # not b's lease
    with pytest.raises(WriteRefused):
        await store.save_game(game(100, version=3, who="stale"), owner="a", expected_version=1)  # not at version 1
    assert [v for v, _ in await saved(backend, 100)] == [2]
    with pytest.raises(WriteRefused):
        await store.delete_game(100, owner="b")
    with pytest.raises(WriteRefused):
        await store.finish_match(match("m1"), replace_with=None, owner="b", expected_version=2)
    assert [v for v, _ in await saved(backend, 100)] == [2]
    assert await store.leaderboard_count(guild_id=None, mode=None) == 0  # the refused finish recorded nothing
    assert await store.finish_match(match("m1"), replace_with=game(100, version=3), owner="a", expected_version=2)
    assert [v for v, _ in await saved(backend, 100)] == [3]
    assert await store.delete_game(100, owner="a") is True


async def test_point5_a_lease_that_expired_by_the_database_s_clock_fences_its_old_holder_out(
    store: Store, backend: Backend
) -> None:
    assert await store.acquire_lease(200, "old", 30)
    await store.save_game(game(200, version=1), owner="old", expected_version=None)
    backend.clock.advance(30)  # the database's clock: the lease has run out, even before anyone takes it over
    with pytest.raises(WriteRefused):
        await store.save_game(game(200, version=2, who="old"), owner="old", expected_version=1)
    assert await store.acquire_lease(200, "new", 30)
    await store.save_game(game(200, version=2, who="new"), owner="new", expected_version=1)
    with pytest.raises(WriteRefused):  # the old holder, resumed after a pause, overwrites nothing
        await store.save_game(game(200, version=2, who="old"), owner="old", expected_version=1)
    [(version, snapshot)] = await saved(backend, 200)
    assert version == 2 and '"new"' in snapshot


async def test_point5_saves_of_many_games_at_once_are_fenced_one_by_one(store: Store, backend: Backend) -> None:
    import asyncio

    for channel in range(300, 310):
        assert await store.acquire_lease(channel, "a" if channel % 2 else "b", 30)
    results = await asyncio.gather(
        *(store.save_game(game(c, version=1), owner="a") for c in range(300, 310)), return_exceptions=True
    )
    assert [isinstance(r, WriteRefused) for r in results] == [c % 2 == 0 for c in range(300, 310)]
    assert [r[0] for r in await backend.fetch("SELECT channel_id FROM live_games ORDER BY channel_id")] == [
        c for c in range(300, 310) if c % 2
    ]


async def test_point6_the_process_clock_does_not_decide_expiry(backend: Backend) -> None:
    """A process whose own clock runs 60 s ahead neither takes another's lease nor writes one that ran out."""
    ahead = await open_store(backend.target, clock=lambda: time.time() + 60, db_clock=backend.clock)
    honest = await backend.open()
    try:
        assert await honest.acquire_lease(400, "honest", 30)
        assert await ahead.acquire_lease(400, "ahead", 30) is False
        assert await ahead.lease_owner(400) == "honest"
        assert await ahead.acquire_lease(401, "ahead", 30)
        assert await honest.acquire_lease(401, "honest", 30) is False
        backend.clock.advance(29)
        assert await honest.lease_owner(401) == "ahead"
    finally:
        await ahead.close()
        await honest.close()


async def test_point7_one_call_renews_everything_an_owner_holds(store: Store, backend: Backend) -> None:
    for channel in (1, 2, 3):
        assert await store.acquire_lease(channel, "me", 30)
    assert await store.acquire_lease(4, "other", 30)
    assert await store.acquire_shards(Shards.of(2, [1]), "me", 30) == {(2, 1): "me"}
    backend.clock.advance(40)  # all expired (a database outage longer than the lease); nobody took channel 2
    assert await store.acquire_lease(3, "other", 30)
    held = await store.renew_leases("me", 30)
    assert held.channels == [1, 2] and held.shards == [(2, 1)]
    assert [await store.lease_owner(c) for c in (1, 2, 3, 4)] == ["me", "me", "other", None]


async def test_point7_one_call_takes_the_leases_of_many_games_and_names_each_holder(
    store: Store, backend: Backend
) -> None:
    """Start-up and takeovers take every lease they can in one call (as renewal does): free, expired and own leases
    are taken (or extended), another owner's live lease is left alone and its owner named."""
    assert await store.acquire_lease(2, "other", 30)
    assert await store.acquire_lease(3, "gone", 30)
    assert await store.acquire_lease(4, "me", 30)
    backend.clock.advance(20)
    assert await store.acquire_lease(5, "other", 30)
    backend.clock.advance(15)  # 2 and 3 have expired (by the database's clock), 5 has not
    owners = await store.acquire_leases([1, 2, 3, 4, 5, 4], "me", 30)
    assert owners == {1: "me", 2: "me", 3: "me", 4: "me", 5: "other"}
    assert [await store.lease_owner(c) for c in (1, 2, 3, 4, 5)] == ["me", "me", "me", "me", "other"]
    backend.clock.advance(29)  # each taken lease runs from now: all still held
    assert (await store.renew_leases("me", 30)).channels == [1, 2, 3, 4]
    assert await store.acquire_leases([], "me", 30) == {}
    many = list(range(1000, 3500))
    assert set((await store.acquire_leases(many, "me", 30)).values()) == {"me"}
    assert len((await store.renew_leases("me", 30)).channels) == 4 + len(many)


async def test_point4_one_owner_per_shard_until_it_stops_or_expires(store: Store, backend: Backend) -> None:
    both = Shards.of(2, [0, 1])
    assert await store.acquire_shards(Shards.of(2, [0]), "first", 30) == {(2, 0): "first"}
    assert await store.acquire_shards(both, "second", 30) == {(2, 0): "first", (2, 1): "second"}
    assert await store.acquire_shards(None, "all", 30) == {(1, 0): "all"}
    backend.clock.advance(20)
    assert (await store.renew_leases("first", 30)).shards == [(2, 0)]
    backend.clock.advance(20)
    assert await store.acquire_shards(both, "second", 30) == {(2, 0): "first", (2, 1): "second"}
    await store.release_leases("first")
    assert await store.acquire_shards(both, "second", 30) == {(2, 0): "second", (2, 1): "second"}


async def test_migration_0004_upgrades_a_schema_0003_database_with_a_live_game_and_its_lease(backend: Backend) -> None:
    """A database written at schema 0003 (a live game, its lease) is upgraded by opening it, and the game goes on."""
    if backend.name == "sqlite":
        import aiosqlite

        from bot.storage._migrations import migrate

        assert isinstance(backend.target, Path)
        backend.target.parent.mkdir(parents=True, exist_ok=True)
        async with aiosqlite.connect(backend.target, isolation_level=None) as db:
            assert await migrate(db, available()[:3]) == [1, 2, 3]
    else:
        import asyncpg

        from bot.storage._postgres import migrate as pg_migrate

        conn = await asyncpg.connect(str(backend.target))
        try:
            assert await pg_migrate(conn, available(POSTGRES)[:3]) == [1, 2, 3]
        finally:
            await conn.close()
    g = game(500, version=7)
    await backend.execute(
        "INSERT INTO live_games (channel_id, guild_id, mode, status, version, snapshot, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        g.channel_id,
        g.guild_id,
        g.mode,
        g.status,
        g.version,
        '{"channel": 500, "version": 7}',
        g.updated_at,
    )
    await backend.execute(
        "INSERT INTO game_leases (channel_id, owner, expires_at) VALUES (?, ?, ?)", 500, "old:1", backend.clock() + 30
    )
    store = await backend.open()
    try:
        versions = await backend.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [m[0] for m in versions] == [m.version for m in available(POSTGRES)]  # 0004 and every later one
        assert await store.lease_owner(500) == "old:1"  # the lease written at 0003 still counts
        assert await store.acquire_lease(500, "new:2", 30) is False
        backend.clock.advance(30)
        assert await store.acquire_lease(500, "new:2", 30)
        [row] = await store.load_games()
        await store.save_game(game(500, version=8), owner="new:2", expected_version=row.version)
        assert [v for v, _ in await saved(backend, 500)] == [8]
        assert await store.acquire_shards(None, "new:2", 30) == {(1, 0): "new:2"}
    finally:
        await store.close()


def test_sqlite_has_returning() -> None:
    """The fenced group commit needs ``RETURNING`` (SQLite 3.35)."""
    assert sqlite3.sqlite_version_info >= (3, 35)
