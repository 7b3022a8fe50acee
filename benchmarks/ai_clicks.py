"""Does a table of nine *Hard* AI seats delay a click at another table? (issue 21 point 4)

One process runs the real :class:`~bot.adapter.SessionManager` (SQLite store, system clock). Table A: two human seats,
classic; the benchmark clicks for whichever of them is to move (one legal move, through :meth:`SessionManager.act`,
commit included), ``--gap`` seconds after the previous click, and measures each click's latency. Table B: nine
*Hard* AI seats (its host watches), playing in the same process, their searches in the thinker's
worker process (:class:`~bot.adapter.thinker.Thinker`, the bot's default: a lower CPU priority than the event loop,
apart from the image worker). The click latency at A is measured **alone**, **beside a table B of nine *Normal*
seats** (no search: what any busy table costs a click in the same process — its commits and updates share the event
loop and the store) and **beside table B of nine *Hard* seats**, side by side: the clicks of each are split into
``--blocks`` blocks run in turn (alone, beside Normal, beside Hard, alone…), so that a change in the machine's load
meets all alike. What the *Hard* searches add is the difference between the last two. ``--thread`` adds a fourth:
the *Hard* table with its searches in a thread of the bot's process (what the worker avoids).

Table B moves at the bot's own pace by default (an AI seat acts ``Limits.ai_delay`` = 1.5 s after the change that
gave it the turn); ``--ai-delay 0.02`` is a stress test: B moves as fast as its worker can search, many times the real
pace. Under the table: table B's AI decisions and searches (the decisions made in the worker) per second, and the
load average (``uptime``) before and after: timing figures depend on what else the machine runs.

Run: ``.venv/bin/python -m benchmarks.ai_clicks --clicks 300`` (add ``--ai-delay 0.02`` for the stress test)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from bot.adapter import SessionManager
from bot.adapter.manager import Limits
from bot.adapter.thinker import Thinker
from bot.ai import thinks
from bot.storage import open_store

HUMANS = (1, 3)  # table A's two players (user ids)
HOST_B = 2


@dataclass
class Tally:
    """What one configuration measured, over all its blocks."""

    latencies: list[float] = field(default_factory=list)
    b_decisions: int = 0
    b_searches: int = 0
    seconds: float = 0.0


async def _block(clicks: int, table_b: str | None, workers: int, ai_delay: float, gap: float, tally: Tally) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "uno.sqlite3")
        thinker = Thinker(workers=workers)
        m = SessionManager(
            store,
            limits=Limits(ai_delay=ai_delay, ai_catch_delay=ai_delay, round_pause=0.05),
            rng=Random(1),
            thinker=thinker,
        )
        decisions = searches = 0
        decide = thinker.decide

        async def counted(level, view, **kw):  # type: ignore[no-untyped-def]
            nonlocal decisions, searches
            decisions += 1
            searches += thinks(level, view)
            return await decide(level, view, **kw)

        thinker.decide = counted  # type: ignore[method-assign]
        await m.start()

        async def open_a() -> None:
            await m.open_lobby(channel_id=1, guild_id=1, host_id=1, host_name="A", mode="classic", turn_timer=600)
            await m.join(1, HUMANS[1], "C")
            await m.start_game(1, 1)

        await open_a()
        if table_b is not None:
            await m.open_lobby(
                channel_id=2, guild_id=1, host_id=HOST_B, host_name="B", mode="classic", turn_timer=600, seat_host=False
            )
            for _ in range(9):
                await m.add_ai(2, HOST_B, level=table_b)
            await m.start_game(2, HOST_B)
            await thinker.pool.run(int)  # the worker is up before the clicks are timed (a started bot's would be)
        decisions = searches = 0
        began = time.perf_counter()
        done = 0
        while done < clicks:
            a = m.get(1)
            game = a.game
            if a.status.value != "playing" or game is None:
                await open_a()
                continue
            seat = game.pending if game.phase.value != "round_over" else 0
            if seat is None:
                await asyncio.sleep(0.005)
                continue
            await asyncio.sleep(gap)
            start = time.perf_counter()
            try:
                await m.act(1, HUMANS[seat], lambda v: v.legal[v.legal.moves - 1] if v.legal.moves else v.legal[0])
            except ValueError:
                continue
            tally.latencies.append(time.perf_counter() - start)
            done += 1
        tally.seconds += time.perf_counter() - began
        if table_b is not None:
            tally.b_decisions += decisions
            tally.b_searches += searches
        await m.close()
        await store.close()


def _q(xs: list[float], f: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * len(xs)))] * 1000 if xs else float("nan")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clicks", type=int, default=300, help="clicks per configuration")
    p.add_argument("--blocks", type=int, default=3, help="blocks each configuration's clicks are split into")
    p.add_argument("--ai-delay", type=float, default=Limits().ai_delay, help="seconds before an AI seat acts")
    p.add_argument("--gap", type=float, default=0.05, help="seconds between two clicks at table A")
    p.add_argument("--thread", action="store_true", help="also table B with its searches in a thread")
    args = p.parse_args()
    configs: list[tuple[str, str | None, int]] = [
        ("alone", None, 1),
        ("beside 9 Normal seats", "normal", 1),
        ("beside 9 Hard seats (worker)", "hard", 1),
    ]
    if args.thread:
        configs.append(("beside 9 Hard seats (thread)", "hard", 0))
    tallies = {label: Tally() for label, _, _ in configs}
    load_before = os.getloadavg()
    per_block = max(1, args.clicks // args.blocks)
    for _ in range(args.blocks):
        for label, table_b, workers in configs:
            asyncio.run(_block(per_block, table_b, workers, args.ai_delay, args.gap, tallies[label]))
    load_after = os.getloadavg()
    print(f"click latency at table A (ms), table B's AI delay {args.ai_delay} s, {args.blocks} blocks each:")
    print(f"  {'':<32} {'clicks':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}   table B")
    for label, table_b, _ in configs:
        t = tallies[label]
        xs = t.latencies
        b = (
            f"{t.b_decisions / t.seconds:5.1f} decisions/s, {t.b_searches / t.seconds:4.1f} searches/s"
            if table_b is not None
            else ""
        )
        print(
            f"  {label:<32} {len(xs):>6} {_q(xs, 0.5):8.1f} {_q(xs, 0.95):8.1f} {_q(xs, 0.99):8.1f} "
            f"{max(xs) * 1000:8.1f}   {b}"
        )
    print(
        "load average (1, 5, 15 min) before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
            *load_before, *load_after
        )
    )


if __name__ == "__main__":
    main()
