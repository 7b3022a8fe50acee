"""Capacity of one shard process on one core with PostgreSQL (issue 16 point 10); run by hand, never from the tests.

    taskset -c 1 .venv/bin/python benchmarks/capacity.py --games 1000,10000 --rates 100,200,400 --seconds 20
    .venv/bin/python benchmarks/capacity.py --cpu 1 …          # the same: the process pins itself to CPU 1

One process (this one: the session manager, its real lease renewal and the PostgreSQL pool, on the system clock) holds
``--games`` live games of 4 players (classic, FLIP and Flex in turn), each under its lease (``--lease`` s, renewed
every third of it in one statement, as the bot does). Clicks arrive open-loop, at random (Poisson) times, at each
``--rates`` interactions/s, each on a random game by the player to move, and every one is a move committed to the
database (``SessionManager.act``: lock, rules, fenced save) — the heaviest kind of click; reads (a hand shown, the
rules) commit nothing. A click's latency runs from its arrival to its commit, queueing included. Per step: the clicks
answered per second, p50/p99/max latency; and the lease renewals of the run (each a ``renew_leases`` of every game).
The capacity is the highest rate whose p99 stays within ``--budget`` ms (50).

Not included: the Discord layer's own work per click (discord.py, the views, the HTTP answer; the card images are drawn
in a worker process) — ``benchmarks/bot.py`` measures it through the emulator (callback p50 3–4 ms on a quiet machine).

PostgreSQL: a schema of its own, ``uno_bench_capacity_<pid>``, dropped at the end. Prints the load average before and
after each step (the machine is shared: other work on the other core, and on this one unless it is idle, moves the
figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/bot.py must not shadow bot/

from bot.adapter import SessionManager, SystemClock, ai
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.adapter.runtime import tune_gc
from bot.engine.errors import RuleError
from bot.engine.view import PlayerView
from bot.storage import Held, Store, open_store

GUILD = 1
PLAYERS = 4
MODES = ("classic", "flip", "flex")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class TimedRenewals:
    """Wraps the store to time each ``renew_leases`` (the renewal of every lease and shard lock of the process)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.times: list[float] = []
        self.leases: list[int] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def renew_leases(self, owner: str, ttl: float) -> Held:
        start = time.perf_counter()
        held = await self._store.renew_leases(owner, ttl)
        self.times.append(time.perf_counter() - start)
        self.leases.append(len(held.channels))
        return held


async def open_games(manager: SessionManager, games: int, first: int) -> list[int]:
    channels = list(range(first, first + games))

    async def one(channel: int) -> None:
        users = [channel * 10 + i for i in range(PLAYERS)]
        await manager.open_lobby(
            channel_id=channel,
            guild_id=GUILD,
            host_id=users[0],
            host_name="p0",
            mode=MODES[channel % 3],
            turn_timer=600,
        )
        for i, uid in enumerate(users[1:], 1):
            await manager.join(channel, uid, f"p{i}")
        await manager.start_game(channel, users[0])

    for start in range(0, games, 50):  # 50 at a time: their commits overlap
        await asyncio.gather(*(one(c) for c in channels[start : start + 50]))
    return channels


async def step(manager: SessionManager, channels: list[int], rate: float, seconds: float, rnd: Random) -> list[float]:
    """Clicks at ``rate``/s for ``seconds``; returns each answered click's latency (s)."""
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    def choose(view: PlayerView) -> object:
        return ai.choose(view, rnd)

    async def click(channel: int, arrived: float) -> None:
        session = manager.sessions.get(channel)
        game = None if session is None else session.game
        if session is None or game is None or game.pending is None or session.status != "playing":
            return
        uid = session.seats[game.pending].user_id
        assert uid is not None
        # another click of that game may have moved first: then this one is answered as a refusal
        with contextlib.suppress(RuleError, AE.AdapterError):
            await manager.act(channel, uid, choose)  # type: ignore[arg-type]
        latencies.append(loop.time() - arrived)

    due = loop.time()
    end = due + seconds
    while due < end:
        due += rnd.expovariate(rate)
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        task = asyncio.create_task(click(rnd.choice(channels), due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    return latencies


async def run(database: str, sizes: list[int], rates: list[float], seconds: float, lease: float, budget: float) -> None:
    import asyncpg

    schema = f"uno_bench_capacity_{os.getpid()}"
    conn = await asyncpg.connect(database)
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    target = f"{database}{'&' if '?' in database else '?'}search_path={schema}"
    raw = await open_store(target)
    store = TimedRenewals(raw)
    manager = SessionManager(
        store,  # type: ignore[arg-type]
        clock=SystemClock(),
        limits=Limits(ai_delay=3600, round_pause=0.0, game_idle=86400, lobby_idle=86400),
        lease_ttl=lease,
    )
    rnd = Random(1)
    try:
        await manager.start()
        channels: list[int] = []
        for games in sizes:
            began = time.perf_counter()
            channels += await open_games(manager, games - len(channels), 1_000_000 + len(channels))
            tune_gc()  # as the bot does after start-up
            print(f"\n{len(channels)} live games open ({time.perf_counter() - began:.0f} s); load average {load()}")
            store.times.clear()
            store.leases.clear()
            best = None
            for rate in rates:
                before = load()
                started = time.perf_counter()
                latencies = await step(manager, channels, rate, seconds, rnd)
                elapsed = time.perf_counter() - started
                p99 = quantile(latencies, 0.99) * 1000
                print(
                    f"  {rate:6.0f} clicks/s offered: {len(latencies) / elapsed:6.1f}/s answered, "
                    f"p50 {statistics.median(latencies) * 1000:6.1f} ms, p99 {p99:7.1f} ms, "
                    f"max {max(latencies) * 1000:7.1f} ms   (load {before} -> {load()})"
                )
                if p99 <= budget:
                    best = rate
                elif best is not None and p99 > 2 * budget:
                    break  # well past the budget: the next rates only queue more
            if store.times:
                print(
                    f"  lease renewals during the steps: {len(store.times)} of {max(store.leases)} leases each, "
                    f"p50 {statistics.median(store.times) * 1000:.1f} ms, max {max(store.times) * 1000:.1f} ms "
                    f"(every {lease / 3:g} s)"
                )
            print(f"  capacity at {len(channels)} live games: {best} clicks/s within p99 {budget:g} ms")
    finally:
        await manager.close()
        await raw.close()
        conn = await asyncpg.connect(database)
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database", default=os.environ.get("UNO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--games", default="1000,10000", help="live game counts, ascending (default 1000,10000)")
    parser.add_argument("--rates", default="50,100,200,300,400,600", help="clicks/s to offer, ascending")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each step")
    parser.add_argument("--lease", type=float, default=30.0, help="lease seconds (UNO_LEASE_SECONDS; default 30)")
    parser.add_argument("--budget", type=float, default=50.0, help="the p99 a step must stay within (ms)")
    parser.add_argument("--cpu", type=int, default=None, help="pin this process to that CPU (as taskset -c)")
    args = parser.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    print(f"CPUs of this process: {sorted(os.sched_getaffinity(0))}; load average {load()}")
    sizes = [int(x) for x in args.games.split(",")]
    rates = [float(x) for x in args.rates.split(",")]
    asyncio.run(run(args.database, sizes, rates, args.seconds, args.lease, args.budget))


if __name__ == "__main__":
    main()
