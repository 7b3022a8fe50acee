"""A commit that was acknowledged survives ``kill -9`` of the process (WAL, synchronous=NORMAL)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.storage import SqliteStore, StorageUnavailable

from .helpers import match

ROOT = Path(__file__).resolve().parents[2]

# Writes forever: a snapshot per step and a match result every fifth step, printing "ack <step>" after each commit.
CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage import LiveGame, SqliteStore
    from tests.storage.helpers import match

    async def main(path):
        store = await SqliteStore.open(path)
        step = 0
        while True:
            snapshot = {"step": step, "pad": "x" * 3000}
            await store.save_game(LiveGame(1000 + step, 1, "flip", "playing", step, snapshot, 1.0))
            if step % 5 == 0:
                assert await store.finish_match(match(f"k{step}", channel=5000 + step))
            print("ack", step, flush=True)
            step += 1

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_acknowledged_commits_survive_sigkill(db_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path)], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    assert child.stdout is not None
    acked = -1
    try:
        for line in child.stdout:
            word, step = line.split()
            assert word == "ack"
            acked = int(step)
            if acked >= 40:
                child.send_signal(signal.SIGKILL)  # right after the acknowledgement of step 40
                break
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert acked >= 40
    assert Path(f"{db_path}-wal").exists()  # killed: nothing got to checkpoint or remove the WAL

    store = await SqliteStore.open(db_path)
    try:
        live = {g.channel_id: g for g in await store.load_games()}
        for step in range(acked + 1):
            assert live[1000 + step].snapshot["step"] == step
        stats = await store.player_stats(11, guild_id=None, mode=None)
        assert stats is not None and stats.played >= acked // 5 + 1
    finally:
        await store.close()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        keys = {k for (k,) in db.execute("SELECT match_key FROM matches")}
    assert {f"k{s}" for s in range(0, acked + 1, 5)} <= keys


async def test_a_file_locked_by_another_process_is_storage_unavailable_then_works_again(db_path: Path):
    """The SQLite side of StorageUnavailable: another process holds the write lock past the busy timeout."""
    store = await SqliteStore.open(db_path)
    try:
        await store._writer.execute("PRAGMA busy_timeout = 50")  # instead of 5 s
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StorageUnavailable, match="locked"):
                await store.update_settings(5, turn_timer=30)
            with pytest.raises(StorageUnavailable):
                await store.finish_match(match("m1"))
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert (await store.update_settings(5, turn_timer=30)).turn_timer == 30
        assert await store.finish_match(match("m1"))
    finally:
        await store.close()
