"""Adapter benchmark (run by hand, not a test): many concurrent games played at full speed, every action committed.

    .venv/bin/python benchmarks/adapter.py [--games 1000] [--players 4] [--actions 50] [--db PATH]

Each game has ``--players`` seats whose moves the AI heuristic chooses (``bot.adapter.ai``); every move goes through
``SessionManager.act`` (lock, engine, SQLite commit) exactly as a click would. Prints actions/s, p50/p99 latency of one
action including its commit, and memory per live game (tracemalloc, sessions with their engine games).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from random import Random

from bot.adapter import ManualClock, SessionManager, ai
from bot.adapter.manager import Limits
from bot.engine.actions import Action
from bot.engine.view import PlayerView
from bot.storage import Store

GUILD = 1


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, players: int, actions: int, db: Path) -> None:
    store = await Store.open(db)
    manager = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=3600), rng=Random(1))
    modes = ["classic", "flip", "flex"]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.take_snapshot()
    for g in range(games):
        channel = 10_000 + g
        users = [channel * 100 + i for i in range(players)]
        await manager.open_lobby(
            channel_id=channel, guild_id=GUILD, host_id=users[0], host_name="p0", mode=modes[g % 3], turn_timer=3600
        )
        for i, uid in enumerate(users[1:], 1):
            await manager.join(channel, uid, f"p{i}")
        await manager.start_game(channel, users[0])
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    per_game = sum(s.size_diff for s in after.compare_to(base, "filename")) / games
    print(f"memory per live game: {per_game / 1024:.1f} KB ({games} games of {players} players, engine + session)")

    latencies: list[float] = []
    rnd = Random(2)

    def choose(view: PlayerView) -> Action:
        action = ai.choose(view, rnd)
        assert action is not None
        return action

    async def play(g: int) -> None:
        channel = 10_000 + g
        session = manager.sessions[channel]
        for _ in range(actions):
            game = session.game
            if game is None or session.status != "playing":
                return
            seat = game.pending if game.pending is not None else 0
            uid = session.seats[seat].user_id
            assert uid is not None
            start = time.perf_counter()
            await manager.act(channel, uid, choose)
            latencies.append(time.perf_counter() - start)

    started = time.perf_counter()
    await asyncio.gather(*(play(g) for g in range(games)))
    elapsed = time.perf_counter() - started
    print(f"{len(latencies)} actions in {elapsed:.2f} s: {len(latencies) / elapsed:,.0f} actions/s")
    print(
        f"latency of one action incl. its commit: p50 {statistics.median(latencies) * 1000:.2f} ms, "
        f"p99 {quantile(latencies, 0.99) * 1000:.2f} ms, max {max(latencies) * 1000:.2f} ms"
    )
    await manager.close()
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=50, help="actions per game")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        asyncio.run(run(args.games, args.players, args.actions, db))


if __name__ == "__main__":
    main()
