"""Many tasks at once: writes never interleave inside a transaction, reads never see half of one."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from pathlib import Path

from bot.storage import LiveGame, Store

from .helpers import match

CHANNELS = 5


def snapshot_game(task: int, step: int) -> LiveGame:
    """Every column is derived from (task, step), so a row mixed from two writes cannot pass for either."""
    channel = 100 + task % CHANNELS
    snap = {"task": task, "step": step, "cards": [f"R{(task + step + i) % 10}" for i in range(30)]}
    return LiveGame(
        channel, 1 + task, ("classic", "flip", "flex")[step % 3], "playing", step, snap, float(task * 1000 + step)
    )


async def test_concurrent_writers_and_readers_stay_consistent(store: Store, db_path: Path):
    rng = random.Random(5)
    tasks, steps = 20, 25
    seen_totals: list[tuple[int, int]] = []

    async def writer(task: int) -> None:
        for step in range(steps):
            await store.save_game(snapshot_game(task, step))
            if rng.random() < 0.2:
                await asyncio.sleep(0)

    async def finisher(i: int) -> None:
        # four humans per match and a human winner: every committed state has sum(played) == 4 * sum(wins)
        users = rng.sample(range(11, 40), 4)
        result = match(
            f"c{i}",
            channel=900 + i,
            seats=[(u, f"u{u}") for u in users],
            rounds=((0, 500),),
            mode=rng.choice(["classic", "flip", "flex"]),
        )
        await store.save_game(LiveGame(900 + i, 1, "classic", "playing", 1, {"i": i}, 1.0))
        assert await store.finish_match(result)

    async def reader() -> None:
        for _ in range(60):
            board = await store.leaderboard(guild_id=None, mode=None, limit=1000)
            seen_totals.append((sum(r.wins for r in board), sum(r.played for r in board)))
            await asyncio.sleep(0)

    async def settings(i: int) -> None:
        await store.update_settings(77, turn_timer=15 + i)

    jobs = [writer(t) for t in range(tasks)] + [finisher(i) for i in range(30)] + [reader() for _ in range(3)]
    jobs += [settings(i) for i in range(20)]
    rng.shuffle(jobs)
    await asyncio.gather(*jobs)

    games = {g.channel_id: g for g in await store.load_games()}
    assert set(games) == {100 + c for c in range(CHANNELS)}  # the finished matches' games were all deleted
    for channel, g in games.items():
        task, step = g.snapshot["task"], g.snapshot["step"]
        assert task % CHANNELS == channel - 100
        assert step == steps - 1  # whoever wrote last, it was that task's last write
        assert g == snapshot_game(task, step)

    assert all(p == 4 * w for w, p in seen_totals), "a reader saw half of a finish_match"
    assert len(seen_totals) == 180
    final = await store.leaderboard(guild_id=None, mode=None, limit=1000)
    assert (sum(r.wins for r in final), sum(r.played for r in final)) == (30, 120)
    assert 15 <= (await store.get_settings(77)).turn_timer <= 34

    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT count(*) FROM matches").fetchone() == (30,)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


async def test_a_cancelled_call_leaves_no_transaction_open(store: Store):
    """Cancelling a caller mid-transaction rolls back; the next caller is not stuck inside it."""
    for attempt in range(20):
        task = asyncio.create_task(store.finish_match(match(f"x{attempt}", seats=((11, "A"), (12, "B")))))
        for _ in range(attempt):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.save_game(LiveGame(5, 1, "classic", "lobby", attempt, {"a": attempt}, 1.0))
        assert (await store.load_games())[0].version == attempt
    stats = await store.player_stats(11, guild_id=None, mode=None)
    recorded = 0 if stats is None else stats.played
    board = await store.leaderboard(guild_id=None, mode=None)
    assert sum(r.played for r in board) == 2 * recorded  # every match is either fully there or not at all
