"""Subprocess for the crash test: plays a 3-human classic game as fast as it can and prints, after each acknowledged
action, ``ACK <version> <sha256 of the session snapshot>``. The test kills it with SIGKILL at a random moment."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from random import Random

from bot.adapter import SessionManager, SystemClock
from bot.adapter.manager import Limits
from bot.engine.actions import CallUno, Catch
from bot.storage import open_store

CHANNEL, GUILD = 5000, 9000
USERS = [101, 102, 103]


def digest(snapshot: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(snapshot, sort_keys=True).encode()).hexdigest()


async def main(path: str, seed: int) -> None:
    store = await open_store(path)
    manager = SessionManager(store, clock=SystemClock(), limits=Limits(round_pause=3600), rng=Random(seed))
    await manager.start()
    session = await manager.open_lobby(
        channel_id=CHANNEL, guild_id=GUILD, host_id=USERS[0], host_name="u0", mode="classic", turn_timer=600
    )
    for uid in USERS[1:]:
        await manager.join(CHANNEL, uid, f"u{uid}")
    await manager.start_game(CHANNEL, USERS[0])
    rnd = Random(seed)
    print(f"ACK {session.version} {digest(session.to_dict())}", flush=True)
    while True:
        game = session.game
        assert game is not None
        seat = game.pending if game.pending is not None else 0
        uid = session.seats[seat].user_id
        assert uid is not None

        def choose(view):  # type: ignore[no-untyped-def]
            moves = [a for a in view.legal if not isinstance(a, CallUno | Catch)]
            return rnd.choice(moves)

        update = await manager.act(CHANNEL, uid, choose)
        print(f"ACK {update.version} {digest(session.to_dict())}", flush=True)
        if session.status != "playing":
            break
    await manager.close()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
