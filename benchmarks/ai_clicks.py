"""Does a table of nine *Hard* AI seats delay a click at another table? (issue 21 point 4)

One process runs the real :class:`~bot.adapter.SessionManager` (SQLite store, system clock). Table A: a human and a
*Normal* AI seat, classic; the human clicks (one legal move, through :meth:`SessionManager.act`, commit included)
whenever it is their turn, and each click's latency is measured. It is measured three times, side by side: alone;
while table B, nine *Hard* AI seats (its host watches), plays match after match in the same process with its
searches in the worker process (:class:`~bot.adapter.thinker.Thinker`, the bot's default); and the same with the
searches in a thread of the bot's process instead (what the worker avoids).

Run: ``.venv/bin/python -m benchmarks.ai_clicks --clicks 300``
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from random import Random

from bot.adapter import SessionManager
from bot.adapter.manager import Limits
from bot.adapter.thinker import Thinker
from bot.storage import open_store


async def _run(clicks: int, hard_table: bool, workers: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "uno.sqlite3")
        m = SessionManager(
            store,
            limits=Limits(ai_delay=0.02, ai_catch_delay=0.02, round_pause=0.05),
            rng=Random(1),
            thinker=Thinker(workers=workers),
        )
        await m.start()
        await m.open_lobby(channel_id=1, guild_id=1, host_id=1, host_name="A", mode="classic", turn_timer=600)
        await m.add_ai(1, 1)
        await m.start_game(1, 1)
        if hard_table:
            await m.open_lobby(
                channel_id=2, guild_id=1, host_id=2, host_name="B", mode="classic", turn_timer=600, seat_host=False
            )
            for _ in range(9):
                await m.add_ai(2, 2, level="hard")
            await m.start_game(2, 2)
        a = m.get(1)
        latencies: list[float] = []
        deadline = time.monotonic() + 1800
        while len(latencies) < clicks and time.monotonic() < deadline:
            game = a.game
            if a.status.value != "playing" or game is None:
                await m.open_lobby(channel_id=1, guild_id=1, host_id=1, host_name="A", mode="classic", turn_timer=600)
                await m.add_ai(1, 1)
                await m.start_game(1, 1)
                a = m.get(1)
                continue
            if game.pending != 0 and game.phase.value != "round_over":
                await asyncio.sleep(0.005)
                continue
            start = time.perf_counter()
            try:
                await m.act(1, 1, lambda v: v.legal[v.legal.moves - 1] if v.legal.moves else v.legal[0])
            except ValueError:
                await asyncio.sleep(0.005)
                continue
            latencies.append(time.perf_counter() - start)
        await m.close()
        await store.close()
    return latencies


def _q(xs: list[float], f: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * len(xs)))] * 1000 if xs else float("nan")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--clicks", type=int, default=300)
    args = p.parse_args()
    print("click latency at table A (ms):            clicks      p50      p95      p99")
    for label, hard_table, workers in (
        ("alone", False, 1),
        ("with 9 Hard seats, worker process", True, 1),
        ("with 9 Hard seats, searches in a thread", True, 0),
    ):
        xs = asyncio.run(_run(args.clicks, hard_table, workers))
        print(f"  {label:<40} {len(xs):>6} {_q(xs, 0.5):8.1f} {_q(xs, 0.95):8.1f} {_q(xs, 0.99):8.1f}", flush=True)


if __name__ == "__main__":
    main()
