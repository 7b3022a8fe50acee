"""Subprocess for issue 16 point 5's SIGSTOP test: a bot process (session manager, shard 0 of 2, a 2-second lease)
on the PostgreSQL database ``argv[1]``. It opens a two-player game in channel 1, prints ``READY <version>``, then
answers each ``draw`` line of its standard input by drawing for the player to move: ``OK <version>`` when the change
was committed, ``REFUSED <error code>`` otherwise."""

from __future__ import annotations

import asyncio
import sys
from random import Random

from bot.adapter import SessionManager, SystemClock
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.engine.actions import Draw
from bot.storage import Shards, open_store

GUILD0 = (6 << 22) | 17  # shard 0 of 2
ALICE, BOB = 101, 102


async def main(database: str) -> None:
    store = await open_store(database)
    m = SessionManager(
        store,
        clock=SystemClock(),
        limits=Limits(ai_delay=3600, round_pause=3600),
        rng=Random(9),
        shards=Shards.of(2, [0]),
        lease_ttl=2.0,
        owner="paused-machine:1:0of2:worker",
    )
    await m.start()
    await m.open_lobby(channel_id=1, guild_id=GUILD0, host_id=ALICE, host_name="Alice", mode="classic")
    await m.join(1, BOB, "Bob")
    await m.start_game(1, ALICE)
    print(f"READY {m.sessions[1].version}", flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or line.strip() != "draw":
            break
        try:
            session = m.get(1)
            game = session.game
            assert game is not None and game.pending is not None
            uid = session.seats[game.pending].user_id
            assert uid is not None
            update = await m.act(1, uid, lambda v: Draw(v.me) if Draw(v.me) in v.legal else v.legal[0])
            print(f"OK {update.version}", flush=True)
        except AE.AdapterError as e:
            print(f"REFUSED {e.code}", flush=True)
    await m.close()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
