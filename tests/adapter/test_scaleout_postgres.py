"""Issue 16 on one real PostgreSQL database (``UNO_TEST_POSTGRES``; skipped with a one-line reason without one, as in
tests/storage), two session managers standing for two bot processes, on real clocks and a 2-second lease:

- point 4: a second process for a shard already run waits (one log line) and resumes nothing until the first stops;
- point 6: a process whose clock runs 60 s ahead neither takes another's shard or games nor loses its own;
- point 5: a process that believes it still holds a game after its lease ran out by the database's clock (paused past
  it) has its change refused, and nothing of the new owner's is overwritten — simulated in this process (its local
  view of the lease kept, so that only the fenced write can refuse it), and with a real process paused by SIGSTOP.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.adapter import SessionManager, SystemClock
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.engine.actions import Draw
from bot.storage import Shards, Store, open_store
from tests.storage.conftest import Backend, drop_pg_backend, pg_backend, pg_database  # noqa: F401 (a fixture)

ALICE, BOB = 101, 102
GUILD0 = (6 << 22) | 17  # shard 0 of 2
SHARD0 = Shards.of(2, [0])
TTL = 2.0


class Ahead(SystemClock):
    """A machine whose clock runs ``offset`` seconds ahead."""

    def __init__(self, offset: float) -> None:
        self.offset = offset

    def now(self) -> float:
        return time.time() + self.offset


@pytest.fixture
async def backend(pg_database: str) -> AsyncIterator[Backend]:  # noqa: F811 (pg_database is the fixture)
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


async def process(backend: Backend, clock: SystemClock | None = None) -> tuple[Store, SessionManager]:
    """A store and a session manager standing for one bot process of another machine (owner names of this very
    process would recognise each other as an earlier incarnation of this process, gone)."""
    clock = clock or SystemClock()
    store = await open_store(str(backend.target), clock=clock.now)
    manager = SessionManager(
        store,
        clock=clock,
        limits=Limits(ai_delay=3600, round_pause=3600),
        rng=Random(5),
        shards=SHARD0,
        lease_ttl=TTL,
        owner=f"machine-{secrets.token_hex(3)}:1:0of2:x",
    )
    return store, manager


async def game(m: SessionManager, channel: int) -> None:
    await m.open_lobby(channel_id=channel, guild_id=GUILD0, host_id=ALICE, host_name="Alice", mode="classic")
    await m.join(channel, BOB, "Bob")
    await m.start_game(channel, ALICE)


async def draw(m: SessionManager, channel: int) -> int:
    session = m.sessions[channel]
    assert session.game is not None and session.game.pending is not None
    uid = session.seats[session.game.pending].user_id
    assert uid is not None
    update = await m.act(channel, uid, lambda v: Draw(v.me) if Draw(v.me) in v.legal else v.legal[0])
    return update.version


async def test_point4_a_second_process_for_a_shard_waits_until_the_first_stops(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    (s1, first), (s2, second) = await process(backend), await process(backend)
    try:
        await first.start()
        await game(first, 1)
        version = await draw(first, 1)
        with caplog.at_level(logging.INFO, logger="bot.adapter.manager"):
            starting = asyncio.create_task(second.start())
            await asyncio.sleep(3 * TTL)  # several renewals of the first: the second keeps waiting
            assert not starting.done() and second.sessions == {} and second.elsewhere == set()
            waiting = [r for r in caplog.records if "waiting until they are free" in r.getMessage()]
            assert len(waiting) == 1  # one clear line, not one per poll
            assert await draw(first, 1) == version + 1
            await first.close()  # the rolling deploy stops the old process
            await asyncio.wait_for(starting, 5 * TTL)
        assert set(second.sessions) == {1} and second.sessions[1].version == version + 1
        assert await draw(second, 1) == version + 2
    finally:
        await first.close()
        await second.close()
        await s1.close()
        await s2.close()


async def test_point6_a_process_whose_clock_runs_60s_ahead_neither_steals_nor_loses(backend: Backend) -> None:
    (s1, honest), (s2, ahead) = await process(backend), await process(backend, Ahead(60))
    try:
        await honest.start()
        await game(honest, 1)
        starting = asyncio.create_task(ahead.start())
        await asyncio.sleep(2 * TTL)
        assert not starting.done()  # it did not take the shard of the honest one (it would, on its own clock)
        assert await s1.lease_owner(1) == honest.leases.owner
        assert await draw(honest, 1) > 0
        await honest.close()
        await asyncio.wait_for(starting, 5 * TTL)
        assert set(ahead.sessions) == {1}
        version = await draw(ahead, 1)
        await asyncio.sleep(3 * TTL)  # renewals on its clock: it keeps what it holds
        assert await draw(ahead, 1) == version + 1
        assert await s1.lease_owner(1) == ahead.leases.owner
    finally:
        await honest.close()
        await ahead.close()
        await s1.close()
        await s2.close()


async def test_point5_a_paused_process_s_change_is_refused_and_overwrites_nothing(backend: Backend) -> None:
    """A process paused past its lease (simulated: its renewals stop, its own view of the lease is left as it was)
    while another takes its game over: when it goes on, its click is refused and the new owner's commits stay."""
    (s1, paused), (s2, new) = await process(backend), await process(backend)
    try:
        await paused.start()
        await game(paused, 1)
        await draw(paused, 1)
        assert paused._lease_timer is not None
        paused._lease_timer.cancel()  # paused: no more renewals
        await asyncio.sleep(TTL + 0.5)  # past its lease by the database's clock
        await s1.release_leases("nobody")  # (nothing) — the paused process does nothing at all meanwhile
        # a successor takes the shard and the game over once they expired
        await asyncio.wait_for(new.start(), 5 * TTL)
        assert set(new.sessions) == {1}
        version = await draw(new, 1)
        # the paused process goes on, still believing it holds the game for a moment (its local view says so)
        paused.leases._until[1] = float("inf")
        with pytest.raises(AE.NotOwned):
            await draw(paused, 1)
        rows: list[Any] = await backend.fetch("SELECT version FROM live_games WHERE channel_id = ?", 1)
        assert rows == [(version,)] and new.sessions[1].version == version
        await asyncio.sleep(0.1)
        assert paused.sessions == {}  # it stopped running the game
        assert await draw(new, 1) == version + 1
    finally:
        await paused.close()
        await new.close()
        await s1.close()
        await s2.close()


async def test_point5_sigstop_a_real_process_past_its_lease_its_click_is_refused_and_overwrites_nothing(
    backend: Backend,
) -> None:
    """A real bot process (tests/adapter/lease_worker.py) is paused with SIGSTOP past its lease while another
    process takes its shard and game over and plays on; resumed with SIGCONT, its click is refused and the new
    owner's commits stay as they are."""
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.adapter.lease_worker",
        str(backend.target),
        cwd=Path(__file__).resolve().parents[2],
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert worker.stdin is not None and worker.stdout is not None

    async def ask(line: str | None) -> str:
        assert worker.stdin is not None and worker.stdout is not None
        if line is not None:
            worker.stdin.write(f"{line}\n".encode())
            await worker.stdin.drain()
        return (await asyncio.wait_for(worker.stdout.readline(), 30)).decode().strip()

    store, new = await process(backend)
    try:
        ready = await ask(None)
        assert ready.startswith("READY ")
        first = await ask("draw")
        assert first.startswith("OK ")
        worker.send_signal(signal.SIGSTOP)
        await asyncio.sleep(TTL + 1.5)  # paused past its lease
        await asyncio.wait_for(new.start(), 5 * TTL)  # the shard and the game are taken over
        assert set(new.sessions) == {1} and new.sessions[1].version == int(first.split()[1])
        await draw(new, 1)
        version = await draw(new, 1)
        worker.send_signal(signal.SIGCONT)
        assert await ask("draw") == "REFUSED not_owned"
        assert await backend.fetch("SELECT version FROM live_games WHERE channel_id = ?", 1) == [(version,)]
        assert await ask("draw") == "REFUSED not_owned"  # it stopped running the game: it stays refused
        assert await draw(new, 1) == version + 1
        assert await store.lease_owner(1) == new.leases.owner
    finally:
        with contextlib.suppress(ProcessLookupError):
            worker.send_signal(signal.SIGCONT)
            worker.kill()
        await worker.wait()
        await new.close()
        await store.close()
