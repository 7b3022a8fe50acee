"""Bot benchmark (run by hand, not a test): many concurrent games through the loopback Discord emulator.

    .venv/bin/python benchmarks/bot.py [--games 200] [--turns 30] [--text-only] [--think SECONDS]
        [--database postgresql://postgres@127.0.0.1:5432/test] [--shards 1,2]

The bot runs as it does in production, ``python -m bot`` in its own process, pointed at the emulator with
``DISCORD_API_BASE`` / ``DISCORD_GATEWAY_URL``; the emulator and the simulated players run in this process. Each game
has two players who read only what Discord shows them (the table message, their ephemeral hand) and play from their
hand (selects, colour pickers, draw/keep buttons) as soon as it is their turn, or after ``--think`` seconds, all games
at once. Prints interactions/s and p50/p99 of the time from INTERACTION_CREATE (sent by the emulator) to the bot's
callback (received by the emulator): how long a click waits for its answer; and of the time until the hand shows the
result (a click answered with a bare acknowledgement is shown when the hand is edited after it).

``--database postgresql://…`` runs the bot on PostgreSQL: each run gets a database of its own on that server (created,
then dropped). ``--shards 1,2`` runs the benchmark once per count, one after the other, and prints their figures side
by side: with N shards the games are spread over N guilds (one per shard) and N bot processes run, ``SHARD_COUNT=N``
and ``SHARD_IDS=i`` each, all on the same database (N = 1: one process without shard settings).

Environment: ``BENCH_KINDS=1`` splits the figures by kind of click, ``BENCH_ROUTES=1`` counts the REST routes called,
``BENCH_DUMP=file.json`` writes every interaction's name and times, ``BENCH_PROFILE=file`` runs the bot under cProfile,
``BENCH_DB=path`` puts the database there, ``BENCH_WITHOUT_RATE_LIMITS=1`` switches the emulator's Discord rate limits
off (on by default, as on Discord: ``tests/discord_emulator/ratelimits.py``) to measure what they cost.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.adapter.runtime import tune_gc  # noqa: E402
from tests.discord_emulator import DiscordEmulator, Message, User  # noqa: E402
from tests.discord_emulator.model import LOADING  # noqa: E402
from tests.e2e.uno_driver import Table  # noqa: E402

MENTION = re.compile(r"<@(\d+)>")
POLL = 0.05  # how often the simulated players look at their messages (s)
HAND_CONTROLS = ("uno:hs:play", "uno:h:draw", "uno:h:keep", "uno:h:challenge", "uno:h:declare")


class RemoteTable(Table):
    """The e2e driver, reading only Discord messages (the bot runs in another process)."""

    message: Message

    def public_message(self) -> Message:
        return self.emulator.message(self.message.id)

    def pending_user(self) -> User | None:
        """Whose decision it is, from the mention in the table's first line, "It's <@…>'s turn." (None: no human to
        wait for)."""
        embeds = self.public_message().embeds
        description = str(embeds[0].get("description", "")) if embeds else ""
        match = MENTION.search(description.split("\n")[0])
        if match is None:
            return None
        return next((u for u in self.users if u.id == int(match.group(1))), None)


def shown_after(emu: DiscordEmulator, record: Any) -> float | None:
    """Seconds from a click on a hand (or on "Show my hand") to the first finished version of the hand after it."""
    if not record.name.startswith(("uno:h:", "uno:hs:", "uno:t:hand:")):
        return None
    message_id = record.original_id if record.name.startswith("uno:t:hand:") else record.message_id
    if message_id is None:
        return None
    revisions = emu.message(message_id).history
    at = next((v.at for v in revisions if v.at >= record.dispatched_at and not v.flags & LOADING), None)
    return None if at is None else at - record.dispatched_at


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _admin_sql(server: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def run(
    games: int, turns: int, text_only: bool, think: float, *, shards: int = 1, database: str | None = None
) -> dict[str, float]:
    """One benchmark run with ``shards`` bot processes; returns its figures (see :func:`bench`)."""
    emu = DiscordEmulator(benchmark_without_rate_limits=os.environ.get("BENCH_WITHOUT_RATE_LIMITS") == "1")
    await emu.start()
    pg_name = f"uno_bench_{os.getpid()}_{shards}" if database else None
    with tempfile.TemporaryDirectory() as tmp:
        if database and pg_name:
            await _admin_sql(database, f'CREATE DATABASE "{pg_name}"')
            target = re.sub(r"/[^/?]*(\?.*)?$", f"/{pg_name}", database)
        else:
            target = os.environ.get("BENCH_DB") or str(Path(tmp) / "bench.sqlite3")
        count = max(1, shards)
        guilds = [
            emu.add_guild(
                f"Bench{s}",
                channels=tuple(f"uno-{i}" for i in range(s, games, count)),
                shard=(s, count) if count > 1 else None,
            )
            for s in range(count)
        ]
        admin = emu.add_user("admin", guild=guilds[0], manage_guild=True)
        for guild in guilds[1:]:
            emu.add_member(guild, admin, manage_guild=True)
        players = []
        for i in range(games):
            guild = guilds[i % count]
            players.append((emu.add_user(f"a{i}", guild=guild), emu.add_user(f"b{i}", guild=guild)))
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))),
            "DISCORD_TOKEN": emu.token,
            "DISCORD_API_BASE": emu.api_base,
            "DISCORD_GATEWAY_URL": emu.gateway_url,
            "UNO_DATABASE": target,
            "LOG_LEVEL": "WARNING",
        }
        if count == 1:
            env["DEV_GUILD_ID"] = str(guilds[0].id)
        profile = os.environ.get("BENCH_PROFILE")  # a path: run the bot under cProfile and write its stats there
        command = ["-m", "cProfile", "-o", profile, "-m", "bot"] if profile else ["-m", "bot"]
        bots = []
        for s in range(count):
            shard_env = {"SHARD_COUNT": str(count), "SHARD_IDS": str(s)} if count > 1 else {}
            bots.append(await asyncio.create_subprocess_exec(sys.executable, *command, cwd=tmp, env=env | shard_env))
        try:
            await emu.wait_until(
                lambda: bool(emu.commands(guilds[0] if count == 1 else None)), timeout=60, what="commands synced"
            )
            await emu.wait_until(lambda: emu.gateway.identifies >= count, timeout=60, what="the bot connected")
            await asyncio.sleep(2.5)  # discord.py waits for its guilds before READY
            return await bench(emu, guilds, admin, players, turns, text_only, think)
        finally:
            for bot in bots:
                bot.send_signal(signal.SIGTERM)
            for bot in bots:
                await bot.wait()
            await emu.stop()
            if database and pg_name:
                await _admin_sql(database, f'DROP DATABASE IF EXISTS "{pg_name}" WITH (FORCE)')


async def bench(
    emu: DiscordEmulator,
    guilds: list[Any],
    admin: User,
    players: list[tuple[User, User]],
    turns: int,
    text_only: bool,
    think: float,
) -> dict[str, float]:
    """Play; print and return the figures: ``rate`` (interactions/s), callback ``p50``/``p99`` and the hand's
    ``shown_p99`` (ms)."""
    if text_only:
        for n, guild in enumerate(guilds):
            await emu.slash(admin, guild.channel(f"uno-{n}"), "uno settings", card_images=False, settle=False)
    started = time.perf_counter()
    tables: list[RemoteTable] = []
    for i, (a, b) in enumerate(players):
        channel = guilds[i % len(guilds)].channel(f"uno-{i}")
        res = await emu.slash(a, channel, "uno new", game=("classic", "flip", "flex")[i % 3], settle=False)
        table = RemoteTable(emu, None, channel, [a, b], random.Random(i), settle=False, poll=POLL)  # type: ignore[arg-type]
        table.message = res.public_messages[0]
        await emu.click(b, table.public_message(), label="Join", settle=False)
        await emu.click(a, table.public_message(), label="Start", settle=False)
        tables.append(table)
    for table in tables:
        await emu.wait_until(
            lambda t=table: any(b.label == "Show my hand" for b in t.public_message().buttons()), what="the table"
        )
    print(f"{len(tables)} games opened and started in {time.perf_counter() - started:.1f} s")
    tune_gc()  # the emulator's own collector pauses (its heap holds every message) are not the bot's latency
    first = len(emu.interactions)

    def ready(hand: Message) -> bool:
        controls = [*hand.buttons(), *hand.selects()]
        return not hand.loading and any(c.custom_id and c.custom_id.startswith(HAND_CONTROLS) for c in controls)

    async def play(table: RemoteTable) -> None:
        hands: dict[int, Message] = {}
        for _ in range(turns):
            try:
                await emu.wait_until(
                    lambda: table.pending_user() is not None, timeout=5.0, what="a player's turn", interval=POLL
                )
            except AssertionError:
                return  # the round or the match is over
            if think:
                await asyncio.sleep(think * table.rng.uniform(0.5, 1.5))  # players are not in step
            user = table.pending_user()
            if user is None:
                return
            try:  # with Discord's rate limits the table may still show a turn the round has ended since
                if user.id not in hands:
                    hands[user.id] = await table.open_hand(user)
                hand = hands[user.id]
                try:
                    await emu.wait_until(
                        lambda h=hand: ready(h), timeout=2.0, what="the hand's controls", interval=POLL
                    )
                except AssertionError:
                    hands[user.id] = hand = await table.open_hand(user)
            except AssertionError:
                return  # no Show my hand any more: the round or the match is over
            await table.take_turn(user, hand)

    started = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    elapsed = time.perf_counter() - started
    records = list(emu.interactions.values())[first:]
    latencies = [r.acked_at - r.dispatched_at for r in records if r.acked_at is not None]
    print(
        f"{len(latencies)} interactions in {elapsed:.1f} s: {len(latencies) / elapsed:,.0f} interactions/s "
        f"({'text only' if text_only else 'with card images'}, think {think:g} s)"
    )
    print(
        f"INTERACTION_CREATE -> callback: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {quantile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    shown = [t for r in records if (t := shown_after(emu, r)) is not None]
    print(
        f"INTERACTION_CREATE -> the hand shows the result: p50 {statistics.median(shown) * 1000:.1f} ms, "
        f"p99 {quantile(shown, 0.99) * 1000:.1f} ms ({len(shown)} clicks on hands)"
    )
    if os.environ.get("BENCH_ROUTES"):
        from collections import Counter

        routes = Counter(
            f"{method} {re.sub(r'[0-9]{5,}|[A-Za-z0-9_-]{40,}', '*', path)}" for _, method, path, _ in emu.requests
        )
        for route, count in routes.most_common(12):
            print(f"  {count:6d}  {route}")
    if os.environ.get("BENCH_KINDS"):
        from collections import defaultdict

        kinds: dict[str, list[float]] = defaultdict(list)
        for r in records:
            if r.acked_at is not None:
                kinds[":".join(r.name.split(":")[:3])].append(r.acked_at - r.dispatched_at)
        for kind, values in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            print(
                f"  {kind:24s} n={len(values):5d} p50 {statistics.median(values) * 1000:6.1f} ms "
                f"p99 {quantile(values, 0.99) * 1000:6.1f} ms"
            )
    dump = os.environ.get("BENCH_DUMP")  # a path: write each interaction's name and emulator times there (JSON)
    if dump:
        import json

        rows = [(r.id, r.name, r.dispatched_at, r.acked_at, shown_after(emu, r)) for r in records]
        Path(dump).write_text(json.dumps(rows))
    unanswered = sum(1 for r in records if r.acked_at is None)
    print(f"unanswered: {unanswered}; unknown routes: {len(emu.unknown_routes)}")
    return {
        "rate": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000,
        "p99": quantile(latencies, 0.99) * 1000,
        "shown_p99": quantile(shown, 0.99) * 1000,
        "unanswered": unanswered,
    }


async def compare(args: argparse.Namespace, counts: list[int]) -> None:
    figures = {}
    for count in counts:
        print(f"== {count} shard process(es)")
        figures[count] = await run(
            args.games, args.turns, args.text_only, args.think, shards=count, database=args.database
        )
    if len(counts) > 1:
        print("\nshard processes | interactions/s | callback p50 | callback p99 | hand shown p99 | unanswered")
        for count, f in figures.items():
            print(
                f"{count:15d} | {f['rate']:14.1f} | {f['p50']:9.1f} ms | {f['p99']:9.1f} ms | "
                f"{f['shown_p99']:11.1f} ms | {f['unanswered']:g}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=30, help="decisions per game")
    parser.add_argument("--text-only", action="store_true", help="no card images (the server setting)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player waits before a decision (uniform ±50%%)"
    )
    parser.add_argument("--database", help="a postgresql://… server: each run on a database of its own there")
    parser.add_argument("--shards", default="1", help="bot process counts to compare, e.g. 1,2 (default 1)")
    args = parser.parse_args()
    asyncio.run(compare(args, [int(n) for n in args.shards.split(",")]))


if __name__ == "__main__":
    main()
