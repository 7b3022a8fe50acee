"""What SQLAlchemy Core (async) would cost as the store's dialect layer: the same statement through the raw driver
(what bot/storage does) and through SQLAlchemy, on the benchmark databases of benchmarks/storage.py (--keep).

    pip install sqlalchemy greenlet        # not a dependency of the bot: only this measurement needs it
    python benchmarks/storage.py --path /tmp/uno-bench.sqlite3 --keep          # builds the databases once
    python benchmarks/storage.py --database postgresql://…/test --keep
    python benchmarks/sqlalchemy_cost.py --path /tmp/uno-bench.sqlite3 --database postgresql://…/test

Raw and SQLAlchemy calls alternate in blocks of 100 so that the machine's load falls on both alike; p50/p99 in ms of
a top-10 leaderboard read (the store's SQL) and of a lease upsert (a one-statement write with RETURNING).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable

TOP10 = (
    "SELECT user_id, display_name, wins, played, abandoned, win_rate, rounds_won, points FROM player_totals "
    "WHERE guild_id = {g} AND mode = {m} AND played > 0 "
    "ORDER BY wins DESC, win_rate DESC, played DESC, user_id LIMIT 10"
)
LEASE = (
    "INSERT INTO game_leases (channel_id, owner, expires_at) VALUES ({c}, {o}, {t}) "
    "ON CONFLICT (channel_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at RETURNING 1"
)


def pct(samples: list[float]) -> str:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return f"p50 {q[49]:6.3f} ms  p99 {q[98]:6.3f} ms"


async def ab(label: str, raw: Callable[[int], Awaitable[object]], sa: Callable[[int], Awaitable[object]]) -> None:
    a: list[float] = []
    b: list[float] = []
    for i in range(300):  # warm both
        await raw(i)
        await sa(i)
    for block in range(20):
        for out, fn in ((a, raw), (b, sa)):
            for i in range(100):
                t0 = time.perf_counter()
                await fn(block * 100 + i)
                out.append((time.perf_counter() - t0) * 1000)
    extra = statistics.median(b) - statistics.median(a)
    print(f"  {label:34s} raw {pct(a)}   sqlalchemy {pct(b)}   (+{extra:.3f} ms p50)")


async def sqlite(path: str) -> None:
    import aiosqlite
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    db = await aiosqlite.connect(path, isolation_level=None)
    engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
    top_raw = TOP10.format(g="?", m="?")
    top_sa = text(TOP10.format(g=":g", m=":m"))
    lease_raw = LEASE.format(c="?", o="?", t="?")
    lease_sa = text(LEASE.format(c=":c", o=":o", t=":t"))
    print(f"SQLite {path}")
    async with engine.connect() as conn:

        async def r(_: int) -> object:
            return await db.execute_fetchall(top_raw, (0, "*"))

        async def s(_: int) -> object:
            return (await conn.execute(top_sa, {"g": 0, "m": "*"})).all()

        await ab("top-10, one connection held", r, s)

        async def rw(i: int) -> object:
            return await db.execute_fetchall(lease_raw, (9_000_000 + i % 50, "bench", 1e10))

        async def sw(i: int) -> object:
            rows = (await conn.execute(lease_sa, {"c": 9_000_000 + i % 50, "o": "bench", "t": 1e10})).all()
            await conn.commit()
            return rows

        await ab("lease upsert, commit each", rw, sw)

    async def s2(_: int) -> object:
        async with engine.connect() as c:
            return (await c.execute(top_sa, {"g": 0, "m": "*"})).all()

    await ab("top-10, pool checkout per call", r, s2)
    await db.execute("DELETE FROM game_leases WHERE owner = 'bench'")
    await db.close()
    await engine.dispose()


async def postgres(url: str) -> None:
    import asyncpg
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    base, _, _ = url.partition("?")
    conn = await asyncpg.connect(base, server_settings={"search_path": "uno_bench"})
    engine = create_async_engine(
        base.replace("postgresql://", "postgresql+asyncpg://", 1),
        connect_args={"server_settings": {"search_path": "uno_bench"}},
    )
    top_raw = TOP10.format(g="$1", m="$2")
    top_sa = text(TOP10.format(g=":g", m=":m"))
    lease_raw = LEASE.format(c="$1", o="$2", t="$3")
    lease_sa = text(LEASE.format(c=":c", o=":o", t=":t"))
    print(f"PostgreSQL {base} (schema uno_bench)")
    async with engine.connect() as sc:

        async def r(_: int) -> object:
            return await conn.fetch(top_raw, 0, "*")

        async def s(_: int) -> object:
            return (await sc.execute(top_sa, {"g": 0, "m": "*"})).all()

        await ab("top-10, one connection held", r, s)

        async def rw(i: int) -> object:
            return await conn.fetch(lease_raw, 9_000_000 + i % 50, "bench", 1e10)

        async def sw(i: int) -> object:
            rows = (await sc.execute(lease_sa, {"c": 9_000_000 + i % 50, "o": "bench", "t": 1e10})).all()
            await sc.commit()
            return rows

        await ab("lease upsert, commit each", rw, sw)
    await conn.execute("DELETE FROM game_leases WHERE owner = 'bench'")
    await conn.close()
    await engine.dispose()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--path", help="the SQLite file of benchmarks/storage.py --keep")
    ap.add_argument("--database", help="the postgresql://… address benchmarks/storage.py --keep used")
    args = ap.parse_args()
    if args.path:
        await sqlite(args.path)
    if args.database:
        await postgres(args.database)


if __name__ == "__main__":
    asyncio.run(main())
