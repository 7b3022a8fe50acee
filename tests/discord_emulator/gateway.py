"""The gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME, shards, dispatches, faults.

Frames are text JSON (discord.py only decompresses binary frames, so ``compress=zlib-stream`` is ignored).

Shards: IDENTIFY's ``shard: [id, count]`` (absent: ``[0, 1]``) decides which guilds a session gets — READY and
GUILD_CREATE list only the guilds with ``(guild_id >> 22) % count == id`` — and which events it receives: a guild's
events go to every session of the shard that owns it, events without a guild to shard 0. Several sessions may be
connected at once (one ``AutoShardedClient`` with all its shards, or one process per shard). A shard id outside
``0..count-1`` is closed with 4010 (Invalid shard), a shard with more than ``emu.max_guilds_per_shard`` guilds with
4011 (Sharding required), as Discord does.

A session outlives its socket: after a drop the client RESUMEs and the events it missed are replayed with their
original sequence numbers, then RESUMED; a new client (bot restart) IDENTIFYs and gets a new session, while the
emulator's state stays as it was. ``invalidate`` answers op 9 (Invalid Session): discord.py closes, waits in its
``before_identify_hook`` (5 s by default) and IDENTIFYs again. Everything is recorded in ``Gateway.log``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .model import WAIT_TIMEOUT, shard_of

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

HEARTBEAT_INTERVAL_MS = 41_250
GUILD_MEMBERS_INTENT = 1 << 1
#: Close codes after which discord.py RESUMEs (it re-IDENTIFYs only after op 9, and gives up on 4004, 4010-4014).
RESUMABLE_CLOSE = 4000


@dataclass(frozen=True)
class GatewayEvent:
    """One thing that happened on the gateway, for tests to assert on (``Gateway.log``, in order).

    ``kind``: ``"identify"``, ``"resume"`` (``detail``: ``client_seq``, ``replayed`` sequence numbers,
    ``resumed_seq``), ``"disconnect"`` (closed by the emulator; ``detail``: ``code``), ``"invalid_session"``
    (``detail``: ``resumable``), ``"resume_refused"`` (unknown session: op 9 sent), ``"closed"`` (the client
    closed; ``detail``: ``code``), ``"refused"`` (bad token or shard; ``detail``: ``code``).
    ``at`` is the emulator clock; ``shard`` is ``(id, count)``.
    """

    at: float
    kind: str
    session_id: str
    shard: tuple[int, int]
    detail: dict[str, Any] = field(default_factory=dict)


class Session:
    """A gateway session: id, shard, sequence number, recent events (for RESUME) and current socket, if any."""

    def __init__(self, identify: dict[str, Any]) -> None:
        self.id = secrets.token_hex(16)
        self.identify = identify
        shard = identify.get("shard") or [0, 1]
        self.shard_id, self.shard_count = int(shard[0]), int(shard[1])
        self.seq = 0
        self.sent: collections.deque[tuple[int, str]] = collections.deque(maxlen=2000)
        self.ws: web.WebSocketResponse | None = None
        self.sync_waiters: list[tuple[int, asyncio.Future[None]]] = []

    @property
    def shard(self) -> tuple[int, int]:
        return self.shard_id, self.shard_count

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets ``guild_id``'s events (events without a guild: shard 0)."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    async def send(self, event: str, data: Any) -> None:
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        if self.ws is not None and not self.ws.closed:
            await self.ws.send_str(frame)


class Gateway:
    """Websocket endpoint and event dispatch for one emulator.

    ``sessions``: every live session by id (connected or waiting for a RESUME). ``log``: what happened
    (:class:`GatewayEvent`). ``identifies`` / ``resumes``: counts. ``undelivered``: ``(event, guild_id)`` of
    events no session's shard owned (no bot running that shard).
    """

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.sessions: dict[str, Session] = {}
        self.log: list[GatewayEvent] = []
        self.undelivered: list[tuple[str, int | None]] = []
        self.identifies = 0
        self.resumes = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._dropped: set[web.WebSocketResponse] = set()
        self._held: set[int] = set()
        self._released = asyncio.Event()

    # ------------------------------------------------------------ queries

    def connected(self, shard_id: int | None = None) -> list[Session]:
        """Connected sessions (of shard ``shard_id``, or all), in the order they identified."""
        return [s for s in self.sessions.values() if s.connected and shard_id in (None, s.shard_id)]

    def session(self, shard_id: int = 0) -> Session:
        """The newest live session of ``shard_id``; ``AssertionError`` if there is none."""
        found = [s for s in self.sessions.values() if s.shard_id == shard_id]
        if not found:
            raise AssertionError(f"no gateway session for shard {shard_id}; have {self.shards()}")
        return found[-1]

    def shards(self) -> list[tuple[int, int]]:
        """``(id, count)`` of every live session."""
        return [s.shard for s in self.sessions.values()]

    def events(self, kind: str | None = None, *, shard_id: int | None = None) -> list[GatewayEvent]:
        """Entries of ``log`` of ``kind`` (or all) for ``shard_id`` (or all shards)."""
        return [e for e in self.log if kind in (None, e.kind) and shard_id in (None, e.shard[0])]

    def guilds_of(self, session: Session) -> list[int]:
        """Ids of the emulator's guilds that ``session``'s shard owns."""
        return [g for g in self.emu.guilds if session.owns(g)]

    def _record(self, kind: str, session: Session | None, shard: tuple[int, int] | None = None, **detail: Any) -> None:
        session_id = session.id if session else ""
        where = session.shard if session else (shard or (0, 1))
        self.log.append(GatewayEvent(self.emu.now(), kind, session_id, where, detail))

    # ------------------------------------------------------------ dispatch and waiting

    async def wait_connected(self, timeout: float, guild_id: int | None = None, *, any_guild: bool = False) -> Session:
        """A connected session whose shard owns ``guild_id`` (``any_guild``: any session); waits up to ``timeout``
        s for a bot to (re)connect, else ``AssertionError``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = [s for s in self.sessions.values() if s.connected and (any_guild or s.owns(guild_id))]
            if found:
                return found[-1]
            if loop.time() > deadline:
                which = "" if any_guild else f" for guild {guild_id}'s shard"
                raise AssertionError(
                    f"no bot is connected to the emulator's gateway{which} "
                    f"(waited {timeout}s; sessions: {self.shards()})"
                )
            await asyncio.sleep(0.002)

    async def dispatch(self, event: str, data: Any, guild_id: int | None = None) -> list[Session]:
        """Send an event to every session whose shard owns ``guild_id`` (None: shard 0); a session whose socket
        is down keeps it for the RESUME. Returns the sessions it went to."""
        targets = [s for s in self.sessions.values() if s.owns(guild_id)]
        if not targets:
            self.undelivered.append((event, guild_id))
        for session in targets:
            await session.send(event, data)
        self.emu._touch()
        return targets

    async def sync(
        self, timeout: float = WAIT_TIMEOUT, guild_id: int | None = None, *, every_shard: bool = True
    ) -> None:
        """Wait until the client has processed every event sent so far, on every connected session (or only those
        owning ``guild_id`` when ``every_shard`` is false).

        Sends a heartbeat request (op 1); discord.py answers at once with a heartbeat carrying the last sequence
        number it handled, and handles frames in order. Its gateway rate limiter allows 110 sends a minute per
        shard (heartbeats included), so use this sparingly, not once per interaction.
        """
        futures = []
        for session in self.connected():
            if not every_shard and not session.owns(guild_id):
                continue
            assert session.ws is not None
            future = asyncio.get_running_loop().create_future()
            session.sync_waiters.append((session.seq, future))
            futures.append(future)
            await session.ws.send_str(json.dumps({"op": 1, "d": None}))
        if not futures:
            return
        try:
            await asyncio.wait_for(asyncio.gather(*futures), timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not answer a heartbeat request within {timeout}s") from None

    @staticmethod
    def _heartbeat(session: Session, seq: int | None) -> None:
        done = [(target, f) for target, f in session.sync_waiters if target <= (seq or 0)]
        for target, future in done:
            session.sync_waiters.remove((target, future))
            if not future.done():
                future.set_result(None)

    # ------------------------------------------------------------ faults

    def _matching(self, shard_id: int | None) -> list[Session]:
        found = self.connected(shard_id)
        if not found:
            raise AssertionError(f"no connected session for shard {shard_id}; have {self.shards()}")
        return found

    async def drop_connections(self, code: int = RESUMABLE_CLOSE, shard_id: int | None = None) -> None:
        """Close the sockets (of ``shard_id``'s sessions, or all) from the server side; with a resumable ``code``
        (4000) the client RESUMEs and gets the events it missed. The sessions stay."""
        for session in self._matching(shard_id) if shard_id is not None else self.connected():
            ws = session.ws
            assert ws is not None
            session.ws = None  # from now on its events are kept for the RESUME
            self._dropped.add(ws)
            self._record("disconnect", session, code=code)
            await ws.close(code=code, message=b"dropped by the emulator")

    async def invalidate(self, shard_id: int | None = None, *, resumable: bool = False) -> None:
        """Send op 9 Invalid Session (``d = resumable``) on the sockets of ``shard_id`` (or all). Not resumable: the
        session ends, discord.py closes and IDENTIFYs anew after its ``before_identify_hook`` (5 s by default);
        events until then are lost, as on Discord. Resumable: it reconnects and RESUMEs."""
        for session in self._matching(shard_id) if shard_id is not None else self.connected():
            ws = session.ws
            assert ws is not None
            self._record("invalid_session", session, resumable=resumable)
            if not resumable:
                self.sessions.pop(session.id, None)
                session.ws = None
            await ws.send_str(json.dumps({"op": 9, "d": resumable}))

    @contextlib.asynccontextmanager
    async def outage(self, shard_id: int | None = None, *, timeout: float = 10.0) -> AsyncIterator[list[Session]]:
        """``async with gateway.outage(shard_id=1):`` — the shard's sockets are dropped (resumable) and it cannot
        RESUME or IDENTIFY until the block ends; events dispatched meanwhile are kept and replayed on RESUME.
        On exit it waits (``timeout`` s) until the dropped sessions are connected again."""
        sessions = self._matching(shard_id) if shard_id is not None else self.connected()
        held = {s.shard_id for s in sessions}
        self._held |= held
        self._released.clear()
        await self.drop_connections(shard_id=shard_id)
        try:
            yield sessions
        finally:
            self._held -= held
            self._released.set()
        await self.emu.wait_until(
            lambda: (
                all(s.connected or s.id not in self.sessions for s in sessions) and all(self.connected(i) for i in held)
            ),
            timeout=timeout,
            what=f"shards {sorted(held)} reconnected after the outage",
        )

    async def _wait_unheld(self, shard_id: int) -> None:
        while shard_id in self._held:
            await self._released.wait()
            await asyncio.sleep(0)

    async def close(self) -> None:
        for ws in list(self._sockets):
            self._dropped.add(ws)
            await ws.close(code=1001, message=b"the emulator stops")

    # ------------------------------------------------------------ the websocket

    def _attach(self, session: Session, ws: web.WebSocketResponse) -> None:
        session.ws = ws

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: Session | None = None
        try:
            await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}}))
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                    if session is not None:
                        self._heartbeat(session, data)
                elif op == 2:
                    session = await self._identify(ws, data)
                    if session is None:
                        break
                elif op == 6:
                    session = await self._resume(ws, data)
                elif op == 8 and session is not None:
                    await self._send_member_chunk(session, data)
        finally:
            self._sockets.discard(ws)
            dropped = ws in self._dropped
            self._dropped.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if not dropped:
                    self._record("closed", session, code=ws.close_code)
                    if ws.close_code in (1000, 1001):  # the client closed: the session is over
                        self.sessions.pop(session.id, None)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        shard = data.get("shard") or [0, 1]
        shard_id, count = int(shard[0]), int(shard[1])
        await self._wait_unheld(shard_id)
        code, reason = 0, b""
        if data.get("token") != self.emu.token:
            code, reason = 4004, b"Authentication failed."
        elif not 0 <= shard_id < count:
            code, reason = 4010, b"Invalid shard."
        elif sum(1 for g in self.emu.guilds if shard_of(g, count) == shard_id) > self.emu.max_guilds_per_shard:
            code, reason = 4011, b"Sharding required."
        if code:
            self._record("refused", None, (shard_id, count), code=code)
            await ws.close(code=code, message=reason)
            return None
        session = Session(data)
        self.sessions[session.id] = session
        self._attach(session, ws)
        self.identifies += 1
        self._record("identify", session)
        await self._send_ready(session)
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        found = self.sessions.get(data.get("session_id") or "")
        if found is not None:
            await self._wait_unheld(found.shard_id)
            found = self.sessions.get(found.id)  # it may have been invalidated meanwhile
        if found is None or data.get("token") != self.emu.token:
            self._record("resume_refused", None, session_id=data.get("session_id"))
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            return None
        self._attach(found, ws)
        self.resumes += 1
        client_seq = data.get("seq") or 0
        replayed = []
        for seq, sent in list(found.sent):
            if seq > client_seq:
                replayed.append(seq)
                await ws.send_str(sent)
        await found.send("RESUMED", {})
        self._record("resume", found, client_seq=client_seq, replayed=replayed, resumed_seq=found.seq)
        return found

    async def _send_ready(self, session: Session) -> None:
        emu = self.emu
        guild_ids = self.guilds_of(session)
        ready: dict[str, Any] = {
            "v": 10,
            "user": emu.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": emu.gateway_url,
            "application": {"id": str(emu.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
        }
        if "shard" in session.identify:
            ready["shard"] = session.identify["shard"]
        await session.send("READY", ready)
        for guild_id in guild_ids:
            await session.send("GUILD_CREATE", self.guild_payload(session, guild_id))

    def guild_payload(self, session: Session, guild_id: int) -> dict[str, Any]:
        all_members = bool(int(session.identify.get("intents", 0)) & GUILD_MEMBERS_INTENT)
        return self.emu.guilds[guild_id].payload(all_members=all_members, bot_id=self.emu.bot_user.id)

    async def _send_member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.emu.guilds.get(int(data["guild_id"]))
        members = [m.payload() for m in guild.members.values()] if guild else []
        chunk = {"guild_id": data["guild_id"], "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.send("GUILD_MEMBERS_CHUNK", chunk)
