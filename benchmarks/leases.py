"""Lease renewal at many live games (issue 16 point 7): the old way (one ``UPDATE`` per game, in sequence on the event
loop) against the new one (``Store.renew_leases``: one statement for all of a process's leases and shard locks); and
taking the leases at start-up (or in a takeover): one ``acquire_lease`` per game (before) against ``acquire_leases``
(one statement for them all, after).

Run by hand (never from the tests)::

    python benchmarks/leases.py                                   # PostgreSQL at UNO_TEST_POSTGRES / the default
    python benchmarks/leases.py --games 10000 --rounds 5 --database postgresql://postgres@127.0.0.1:5432/test
    python benchmarks/leases.py --database /tmp/leases.sqlite3    # SQLite

PostgreSQL: works in a schema of its own, ``uno_bench_leases_<pid>``, dropped at the end. One process holds
``--games`` leases (and its shard lock); each round times a full renewal both ways; prints p50 and max in ms. Taking
the leases is timed once each way (the leases are released between the two).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Store, is_postgres_url, open_store

OWNER = "bench-host:0123456789:1:0of1:bench"
TTL = 30.0


async def per_game(store: Store, channels: list[int]) -> float:
    """Before issue 16: ``renew_lease`` for each game, one after the other."""
    start = time.perf_counter()
    for channel in channels:
        assert await store.renew_lease(channel, OWNER, TTL)
    return time.perf_counter() - start


async def one_statement(store: Store, channels: list[int]) -> float:
    """After: ``renew_leases`` renews them all (and the shard lock) in one round trip."""
    start = time.perf_counter()
    held = await store.renew_leases(OWNER, TTL)
    elapsed = time.perf_counter() - start
    assert len(held.channels) == len(channels)
    return elapsed


async def run(database: str, games: int, rounds: int) -> None:
    schema = None
    target = database
    if is_postgres_url(database):
        import asyncpg

        schema = f"uno_bench_leases_{os.getpid()}"
        conn = await asyncpg.connect(database)
        await conn.execute(f"CREATE SCHEMA {schema}")
        await conn.close()
        target = f"{database}{'&' if '?' in database else '?'}search_path={schema}"
    store = await open_store(target)
    try:
        channels = list(range(1, games + 1))
        start = time.perf_counter()
        for channel in channels:
            assert await store.acquire_lease(channel, OWNER, TTL)
        print(f"{games} leases taken one by one (acquire_lease, before): {time.perf_counter() - start:.2f} s")
        await store.release_leases(OWNER)
        start = time.perf_counter()
        owners = await store.acquire_leases(channels, OWNER, TTL)
        print(f"{games} leases taken in one statement (acquire_leases, after): {time.perf_counter() - start:.2f} s")
        assert len(owners) == games and set(owners.values()) == {OWNER}
        await store.acquire_shards(None, OWNER, TTL)
        before, after = [], []
        for _ in range(rounds):
            before.append(await per_game(store, channels))
            after.append(await one_statement(store, channels))
        for name, times in (("one UPDATE per game (before)", before), ("renew_leases (after)", after)):
            print(
                f"{name:32} p50 {statistics.median(times) * 1000:9.1f} ms   max {max(times) * 1000:9.1f} ms"
                f"   ({rounds} renewals of {games} leases)"
            )
    finally:
        await store.close()
        if schema is not None:
            import asyncpg

            conn = await asyncpg.connect(database)
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database", default=os.environ.get("UNO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    database = args.database
    if database == "sqlite":
        database = str(Path(tempfile.mkdtemp()) / "leases.sqlite3")
    asyncio.run(run(database, args.games, args.rounds))


if __name__ == "__main__":
    main()
