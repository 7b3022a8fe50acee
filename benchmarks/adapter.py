"""Adapter benchmark (run by hand, not a test): many concurrent games played at full speed, every action committed.

    .venv/bin/python benchmarks/adapter.py [--games 1000] [--players 4] [--actions 50] [--rate N] [--db PATH]

Each game has ``--players`` seats whose moves the AI heuristic chooses (``bot.adapter.ai``); every move goes through
``SessionManager.act`` (lock, engine, SQLite commit) exactly as a click would, all games at once as fast as they can.
Prints actions/s; the latency of one action from taking its game's lock to its commit (group commit: the saves of
concurrent games share a transaction); the closed-loop latency including the wait for the CPU behind every other game
(at saturation this is just games / throughput); and memory per live game (tracemalloc, sessions with their engine
games).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/bot.py must not shadow bot/

from bot.adapter import ManualClock, SessionManager, ai
from bot.adapter.manager import Limits
from bot.adapter.runtime import tune_gc
from bot.engine.actions import Action
from bot.engine.view import PlayerView
from bot.storage import open_store

GUILD = 1


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, players: int, actions: int, db: Path, rate: float | None = None) -> None:
    store = await open_store(db)
    manager = SessionManager(store, clock=ManualClock(), limits=Limits(ai_delay=3600), rng=Random(1))
    modes = ["classic", "flip", "flex"]
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.take_snapshot()
    for g in range(games):
        channel = 10_000 + g
        users = [channel * 100 + i for i in range(players)]
        await manager.open_lobby(
            channel_id=channel, guild_id=GUILD, host_id=users[0], host_name="p0", mode=modes[g % 3], turn_timer=600
        )
        for i, uid in enumerate(users[1:], 1):
            await manager.join(channel, uid, f"p{i}")
        await manager.start_game(channel, users[0])
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    tune_gc()  # as the bot does after start-up
    per_game = sum(s.size_diff for s in after.compare_to(base, "filename")) / games
    print(f"memory per live game: {per_game / 1024:.1f} KB ({games} games of {players} players, engine + session)")

    latencies: list[float] = []
    service: list[float] = []
    rnd = Random(2)
    began: dict[int, float] = {}

    def chooser(channel: int):  # type: ignore[no-untyped-def]
        def choose(view: PlayerView) -> Action:
            began[channel] = time.perf_counter()  # the session's lock is held from here to the commit
            action = ai.choose(view, rnd)
            assert action is not None
            return action

        return choose

    async def play(g: int) -> None:
        channel = 10_000 + g
        session = manager.sessions[channel]
        pause = games / rate if rate else 0.0
        if pause:
            await asyncio.sleep(pause * g / games)  # spread the games' first moves over one period
        for _ in range(actions):
            if pause:
                await asyncio.sleep(pause)
            game = session.game
            if game is None or session.status != "playing":
                return
            seat = game.pending if game.pending is not None else 0
            uid = session.seats[seat].user_id
            assert uid is not None
            start = time.perf_counter()
            await manager.act(channel, uid, chooser(channel))
            end = time.perf_counter()
            latencies.append(end - start)
            service.append(end - began[channel])

    started = time.perf_counter()
    await asyncio.gather(*(play(g) for g in range(games)))
    elapsed = time.perf_counter() - started
    print(f"{len(latencies)} actions in {elapsed:.2f} s: {len(latencies) / elapsed:,.0f} actions/s")
    print(
        f"one action, from taking the game's lock to its commit: p50 {statistics.median(service) * 1000:.2f} ms, "
        f"p99 {quantile(service, 0.99) * 1000:.2f} ms"
    )
    mode = f"open loop at {rate:g} actions/s" if rate else "closed loop at full speed: mostly waiting for the CPU"
    print(
        f"one action from call to return ({mode}): "
        f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {quantile(latencies, 0.99) * 1000:.1f} ms"
    )
    await manager.close()
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=50, help="actions per game")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default: a temporary one)")
    parser.add_argument(
        "--rate", type=float, default=None, help="open loop: total actions/s over all games (default: full speed)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        asyncio.run(run(args.games, args.players, args.actions, db, args.rate))


if __name__ == "__main__":
    main()
