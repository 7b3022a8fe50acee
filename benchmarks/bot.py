"""Bot benchmark (run by hand, not a test): many concurrent games through the loopback Discord emulator.

    .venv/bin/python benchmarks/bot.py [--games 200] [--turns 30] [--text-only]

The real discord.py client runs the bot against ``tests/discord_emulator`` in this process. Each game has two simulated
players who open their ephemeral hand and play from it (selects, colour pickers, draw/keep buttons) as fast as the bot
answers, all games at once. Prints interactions/s and p50/p99 of the time from INTERACTION_CREATE (sent by the
emulator) to the bot's callback (received by the emulator), i.e. how long a click waits for its answer.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import warm_cache
from tests.discord_emulator import DiscordEmulator, start_bot, stop_bot
from tests.e2e.uno_driver import Table, make_bot


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(games: int, turns: int, text_only: bool) -> None:
    logging.basicConfig(level=logging.WARNING)
    emu = DiscordEmulator()
    await emu.start()
    with emu.configure_discord(), tempfile.TemporaryDirectory() as tmp:
        guild = emu.add_guild("Bench", channels=tuple(f"uno-{i}" for i in range(games)))
        admin = emu.add_user("admin", guild=guild, manage_guild=True)
        players = [(emu.add_user(f"a{i}", guild=guild), emu.add_user(f"b{i}", guild=guild)) for i in range(games)]
        bot = make_bot(emu, Path(tmp) / "bench.sqlite3", guild, ai_delay=3600.0)
        await start_bot(emu, bot)
        try:
            await _bench(emu, bot, guild, admin, players, games, turns, text_only)
        finally:
            await stop_bot(bot)
    await emu.stop()


async def _bench(
    emu: DiscordEmulator, bot: Any, guild: Any, admin: Any, players: list[Any], games: int, turns: int, text_only: bool
) -> None:
    if True:
        if not text_only:
            started = time.perf_counter()
            drawn = warm_cache()  # a running bot has drawn every face after its first few games
            print(f"card image cache warmed: {drawn} faces in {time.perf_counter() - started:.1f} s")
        if text_only:
            await emu.slash(admin, guild.channel("uno-0"), "uno settings", card_images=False)
        setup_started = time.perf_counter()
        tables = []
        for i, (a, b) in enumerate(players):
            channel = guild.channel(f"uno-{i}")
            await emu.slash(a, channel, "uno new", game=("classic", "flip", "flex")[i % 3], settle=False)
            table = Table(emu, bot, channel, [a, b], random.Random(i), settle=False)
            await emu.wait_until(lambda t=table: t.session is not None and "message" in t.session.ui, what="lobby")
            await emu.click(b, table.public_message(), label="Join", settle=False)
            await emu.click(a, table.public_message(), label="Start", settle=False)
            tables.append(table)
        for table in tables:
            await emu.wait_until(
                lambda t=table: any(b.label == "Show my hand" for b in t.public_message().buttons()), what="the table"
            )
        print(f"{games} games opened and started in {time.perf_counter() - setup_started:.1f} s")
        first = len(emu.interactions)

        async def play(table: Table) -> None:
            hands = {}
            for _ in range(turns):
                session = table.session
                if session is None or session.game is None or session.status != "playing":
                    return
                seat = session.game.pending
                if seat is None:
                    return
                user = table.user_of(seat)
                assert user is not None
                if user.id not in hands:
                    hands[user.id] = await table.open_hand(user)
                await table.take_turn(user, hands[user.id])

        started = time.perf_counter()
        await asyncio.gather(*(play(t) for t in tables))
        elapsed = time.perf_counter() - started
        records = list(emu.interactions.values())[first:]
        latencies = [r.acked_at - r.dispatched_at for r in records if r.acked_at is not None]
        print(
            f"{len(latencies)} interactions in {elapsed:.1f} s: {len(latencies) / elapsed:,.0f} interactions/s "
            f"({'text only' if text_only else 'with card images'})"
        )
        print(
            f"INTERACTION_CREATE -> callback: p50 {statistics.median(latencies) * 1000:.1f} ms, "
            f"p99 {quantile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
        )
        unanswered = sum(1 for r in records if r.acked_at is None)
        print(f"unanswered: {unanswered}; unknown routes: {len(emu.unknown_routes)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=30, help="decisions per game")
    parser.add_argument("--text-only", action="store_true", help="no card images (the server setting)")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.turns, args.text_only))


if __name__ == "__main__":
    main()
