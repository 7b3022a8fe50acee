"""The gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME, dispatches.

Frames are text JSON (discord.py only decompresses binary frames, so ``compress=zlib-stream`` is ignored).
A session outlives its socket: after a drop the client RESUMEs and missed events are replayed; a new client
(bot restart) IDENTIFYs and gets a new session, while the emulator's state stays as it was.
"""

from __future__ import annotations

import asyncio
import collections
import json
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .emulator import DiscordEmulator

HEARTBEAT_INTERVAL_MS = 41_250
GUILD_MEMBERS_INTENT = 1 << 1


class Session:
    """A gateway session: its id, sequence number, recent events (for RESUME) and current socket, if any."""

    def __init__(self, identify: dict[str, Any]) -> None:
        self.id = secrets.token_hex(16)
        self.identify = identify
        self.seq = 0
        self.sent: collections.deque[tuple[int, str]] = collections.deque(maxlen=2000)
        self.ws: web.WebSocketResponse | None = None

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    async def send(self, event: str, data: Any) -> None:
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        if self.ws is not None and not self.ws.closed:
            await self.ws.send_str(frame)


class Gateway:
    """Websocket endpoint and event dispatch for one emulator. ``active`` is the session events go to."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.sessions: dict[str, Session] = {}
        self.active: Session | None = None
        self.identifies = 0
        self.resumes = 0
        self._connected = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()
        self._dropped: set[web.WebSocketResponse] = set()
        self._sync_waiters: list[tuple[int, asyncio.Future[None]]] = []

    async def wait_connected(self, timeout: float) -> Session:
        """The active, connected session; waits up to ``timeout`` s for a bot to (re)connect."""
        try:
            await asyncio.wait_for(self._connected.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"no bot is connected to the emulator's gateway (waited {timeout}s)") from None
        assert self.active is not None
        return self.active

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event to the active session (kept for replay if its socket is down)."""
        if self.active is not None:
            await self.active.send(event, data)
            self.emu._touch()

    async def sync(self, timeout: float = 5.0) -> None:
        """Wait until the client has processed every event sent so far.

        Sends a heartbeat request (op 1); discord.py answers at once with a heartbeat carrying the last sequence
        number it handled, and handles frames in order. Its gateway rate limiter allows 110 sends a minute
        (heartbeats included), so use this sparingly, not once per interaction.
        """
        session = self.active
        if session is None or session.ws is None or session.ws.closed:
            return
        future = asyncio.get_running_loop().create_future()
        self._sync_waiters.append((session.seq, future))
        await session.ws.send_str(json.dumps({"op": 1, "d": None}))
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise AssertionError(f"the bot did not answer a heartbeat request within {timeout}s") from None

    def _heartbeat(self, seq: int | None) -> None:
        done = [(target, f) for target, f in self._sync_waiters if target <= (seq or 0)]
        for target, future in done:
            self._sync_waiters.remove((target, future))
            if not future.done():
                future.set_result(None)

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every socket from the server side; with a resumable ``code`` the client RESUMEs."""
        for ws in list(self._sockets):
            self._dropped.add(ws)
            await ws.close(code=code, message=b"dropped by the emulator")

    async def close(self) -> None:
        await self.drop_connections(code=1001)

    def _attach(self, session: Session, ws: web.WebSocketResponse) -> None:
        session.ws = ws
        self.active = session
        self._connected.set()

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
                    if session is not None and session is self.active:
                        self._heartbeat(data)
                elif op == 2:
                    if data.get("token") != self.emu.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    session = Session(data)
                    self.sessions[session.id] = session
                    self._attach(session, ws)
                    self.identifies += 1
                    await self._send_ready(session)
                elif op == 6:
                    found = self.sessions.get(data.get("session_id"))
                    if found is None or data.get("token") != self.emu.token:
                        await ws.send_str(json.dumps({"op": 9, "d": False}))
                        continue
                    session = found
                    self._attach(session, ws)
                    self.resumes += 1
                    for seq, sent in list(session.sent):
                        if seq > (data.get("seq") or 0):
                            await ws.send_str(sent)
                    await session.send("RESUMED", {})
                elif op == 8 and session is not None:
                    await self._send_member_chunk(session, data)
        finally:
            self._sockets.discard(ws)
            dropped = ws in self._dropped
            self._dropped.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if not dropped and ws.close_code in (1000, 1001):  # the client closed: the session is over
                    self.sessions.pop(session.id, None)
                if self.active is session:
                    self._connected.clear()
                    if session.id not in self.sessions:
                        self.active = None
        return ws

    async def _send_ready(self, session: Session) -> None:
        emu = self.emu
        ready: dict[str, Any] = {
            "v": 10,
            "user": emu.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in emu.guilds.values()],
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
        for guild in emu.guilds.values():
            await session.send("GUILD_CREATE", self.guild_payload(session, guild.id))

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
