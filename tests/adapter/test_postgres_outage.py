"""Issue 11: a PostgreSQL connection lost mid-game costs no acknowledged action. The click that could not be saved is
refused (:class:`~bot.adapter.refusals.StorageDown`, ``error.storage_unavailable``), the game stays at its last commit,
and once the server is back the game goes on, the store reconnecting by itself.

Against the real server (``UNO_TEST_POSTGRES``, skipped with a one-line reason when there is none, as in tests/storage):
a loopback TCP relay in front of it stands for the server going away and coming back (a restart), and
``pg_terminate_backend`` kills the store's connections under it."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import urllib.parse
from collections.abc import AsyncIterator
from random import Random

import pytest

from bot.adapter import ManualClock, SessionManager
from bot.adapter import refusals as AE
from bot.adapter.manager import Limits
from bot.engine.actions import Draw
from bot.storage import Store, open_store
from tests.storage.conftest import Backend, drop_pg_backend, pg_backend, pg_database  # noqa: F401 (a fixture)

ALICE, BOB = 101, 102
CHANNEL, GUILD = 77, (6 << 22) | 3
#: A killed connection fails the call that finds it; the store's pool had at most this many open in these tests.
REFUSALS_AT_MOST = 4


class Relay:
    """A TCP relay on 127.0.0.1 to the PostgreSQL server: :meth:`cut` drops every connection and refuses new ones
    (the server is down), :meth:`restore` listens again on the same port (it is back)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()

    async def restore(self) -> None:
        self._server = await asyncio.start_server(self._pipe, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()
        await self._server.wait_closed()
        self._server = None

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._open.update((writer, up_writer))

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        self._open.difference_update((writer, up_writer))


@pytest.fixture
async def backend(pg_database: str) -> AsyncIterator[Backend]:  # noqa: F811 (pg_database is the fixture)
    b = await pg_backend(pg_database)
    try:
        yield b
    finally:
        await drop_pg_backend(b)


def through(url: str, port: int, application: str) -> str:
    parts = urllib.parse.urlsplit(url)
    netloc = f"{parts.username}@127.0.0.1:{port}" if parts.username else f"127.0.0.1:{port}"
    query = f"{parts.query}&application_name={application}" if parts.query else f"application_name={application}"
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


async def started(store: Store, clock: ManualClock) -> SessionManager:
    m = SessionManager(store, clock=clock, limits=Limits(ai_delay=0.0), rng=Random(3), lease_ttl=30)
    await m.start()
    await m.open_lobby(channel_id=CHANNEL, guild_id=GUILD, host_id=ALICE, host_name="Alice", mode="classic")
    await m.join(CHANNEL, BOB, "Bob")
    await m.start_game(CHANNEL, ALICE)
    return m


async def draw(m: SessionManager) -> int:
    session = m.sessions[CHANNEL]
    assert session.game is not None and session.game.pending is not None
    uid = session.seats[session.game.pending].user_id
    assert uid is not None
    update = await m.act(CHANNEL, uid, lambda v: Draw(v.me) if Draw(v.me) in v.legal else v.legal[0])
    return update.version


async def saved_version(backend: Backend) -> int:
    (row,) = await backend.fetch("SELECT version FROM live_games WHERE channel_id = ?", CHANNEL)
    return int(row[0])


async def test_a_click_during_a_server_outage_is_refused_and_the_game_goes_on_when_it_is_back(
    backend: Backend,
) -> None:
    target = urllib.parse.urlsplit(str(backend.target))
    relay = Relay(target.hostname or "127.0.0.1", target.port or 5432)
    await relay.restore()
    clock = ManualClock()
    store = await open_store(through(str(backend.target), relay.port, "uno_outage"), clock=clock.now)
    m = await started(store, clock)
    try:
        before = await draw(m)
        session = m.sessions[CHANNEL]
        committed = session.committed
        await relay.cut()  # PostgreSQL goes away (a restart, a network cut)
        for _ in range(2):  # every click while it is away is refused, none is half-applied
            with pytest.raises(AE.StorageDown):
                await draw(m)
            assert session.version == before and session.to_dict() == committed
        assert await saved_version(backend) == before
        await relay.restore()  # back: the very next click is saved, over new connections
        after = await draw(m)
        assert after == before + 1 and await saved_version(backend) == after
        await draw(m)
    finally:
        await m.close()
        await store.close()
        with contextlib.suppress(AssertionError):
            await relay.cut()


async def test_connections_killed_by_the_server_refuse_a_few_clicks_then_reconnect(
    backend: Backend,
) -> None:
    application = f"uno_kill_{secrets.token_hex(3)}"
    clock = ManualClock()
    store = await open_store(f"{backend.target}&application_name={application}", clock=clock.now)
    m = await started(store, clock)
    try:
        for _ in range(3):
            version = await draw(m)
            killed = await backend.fetch(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", application
            )
            assert killed and all(row[0] for row in killed)
            session = m.sessions[CHANNEL]
            # Each pooled connection that died fails the one call that finds it (the pool may also have noticed
            # already and opened another): a few clicks at most are refused, each leaving the last commit as it was.
            for _refused in range(REFUSALS_AT_MOST + 1):
                try:
                    version = await draw(m)
                    break
                except AE.StorageDown:
                    assert session.version == version and session.to_dict() == session.committed
            else:
                pytest.fail(f"still refused after {REFUSALS_AT_MOST + 1} clicks: the store did not reconnect")
            assert await saved_version(backend) == version == session.version
    finally:
        await m.close()
        await store.close()
