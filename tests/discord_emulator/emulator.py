"""``DiscordEmulator``: a loopback Discord (REST + gateway on 127.0.0.1) and the test-facing API.

Build the world (guilds, channels, users, roles), start the server, point discord.py at it, start the bot, then
act as users (``slash``, ``click``, ``select``, ``autocomplete``, ``submit_modal``) and assert on what the bot
produced (``messages``, ``visible_to``, ``message``, the returned ``InteractionRecord``)::

    emu = DiscordEmulator()
    guild = emu.add_guild("Test Guild")                 # with a #general channel
    alice = emu.add_user("alice", locale="it", guild=guild, manage_guild=True)
    await emu.start()
    with emu.configure_discord():
        async with running_bot(emu, bot):
            res = await emu.slash(alice, guild.channel("general"), "uno new", game="classic")
            assert res.ephemeral_messages[0].find_button(label="Start")

One emulator per process at a time: the redirect of discord.py is process-wide.

Speed: a bot built with ``guild_ready_timeout=0.05`` starts in about 70 ms; one interaction round trip takes about
2 ms. ``settle()`` waits for the whole bot to go quiet, so with many concurrent games (benchmarks) pass
``settle=False`` to the calls and settle once at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import model
from .gateway import RESUMABLE_CLOSE, Gateway, GatewayEvent, Session
from .model import (
    WAIT_TIMEOUT,
    ErrorResponse,
    Guild,
    InteractionRecord,
    Member,
    Message,
    RateLimited,
    Role,
    Select,
    Snowflakes,
    User,
)
from .ratelimits import INVALID_REQUEST_WINDOW, RateLimits
from .rest import RestApi, constant_payload, json_response

#: Names of the asyncio tasks in which discord.py runs interaction handlers; ``settle`` waits for them.
HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: on_interaction",
    "discord.py: on_app_command",
)
#: How long after an exhausted rate-limit bucket resets ``settle`` still waits for the request it held back (s).
SETTLE_AFTER_RESET = 0.02
_DEFAULT_ERRORS = {
    400: (50035, "Invalid Form Body"),
    401: (0, "401: Unauthorized"),
    403: (50013, "Missing Permissions"),
    404: (10008, "Unknown Message"),
    429: (0, "You are being rate limited."),
}


def awaiting(task: asyncio.Task[Any]) -> str:
    """Where ``task`` waits: the chain of ``file:line`` of its awaits, innermost last."""
    places, coro = [], task.get_coro()
    while coro is not None and len(places) < 12:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            places.append(f"{frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return " > ".join(places)


@dataclass
class Fault:
    """An injected failure: the next ``times`` requests whose ``"METHOD /path"`` matches the glob ``pattern``."""

    pattern: str
    status: int
    code: int
    message: str
    retry_after: float
    times: int
    fired: int = 0
    #: When each injected answer was given (emulator clock), and the ``"METHOD /path"`` it answered.
    fired_at: list[tuple[float, str]] = field(default_factory=list)

    def response(self, at: float, request: str) -> web.Response:
        self.fired += 1
        self.fired_at.append((at, request))
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        headers: dict[str, str] = {}
        if self.status == 429:
            body |= {"retry_after": self.retry_after, "global": False}
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(self.retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": str(time.time() + self.retry_after),
                "X-RateLimit-Reset-After": str(self.retry_after),
                "X-RateLimit-Bucket": "emulator-fault",
                "X-RateLimit-Scope": "user",
            }
        return json_response(self.status, body, headers)


class DiscordEmulator:
    """In-memory Discord with REST under ``/api/v10`` and a gateway websocket, on 127.0.0.1.

    State (survives bot restarts): ``users``, ``guilds``, ``channels`` (by id; threads too, also those the bot
    starts with ``POST /channels/{id}/threads``; ``deleted_channels`` once deleted), ``registered_commands``
    (``{None: global list, guild_id: list}``, as stored by bulk overwrite), messages (``message(id)``),
    ``interactions`` (``{id: InteractionRecord}`` in dispatch order).
    Recorded for assertions: ``requests`` (recent ``(at, method, path, status)``), ``unknown_routes``
    (``[(method, path)]``), ``error_responses`` (4xx answered by known routes), ``faults``.

    Shards: ``recommended_shards`` is what ``GET /gateway/bot`` recommends (default 1; ``AutoShardedClient``
    without a ``shard_count`` runs that many); each gateway session gets only its shard's guilds and events
    (``gateway.py``); ``add_guild(shard=(id, count))`` creates a guild that falls on a chosen shard;
    ``max_guilds_per_shard`` (2500) is where Discord closes a session with 4011 Sharding required.
    Gateway faults: ``drop_gateway`` (RESUME), ``gateway_outage`` (events missed, then replayed),
    ``invalidate_session`` (new IDENTIFY); recorded in ``gateway.log``. REST faults: ``fail_next`` /
    ``fail_edits`` (429 with rate-limit headers, 5xx, 4xx).

    ``clock`` (default ``time.monotonic``) is read through ``now()``; ``advance_clock(s)`` moves it forward, to
    expire interaction tokens (15 min) without waiting. ``ack_deadline`` (3 s, None = off) is how late a
    callback may come before Discord answers 10062 Unknown interaction.

    Rate limits (``ratelimits``: per-route buckets per channel or interaction token, the global 50/s, Discord's
    headers, 429 with ``retry_after`` and ``Via``) are always on: ``rate_limit_scale`` (or
    ``rate_limits.scale``) shrinks every window for a test that would otherwise wait on them;
    ``benchmark_without_rate_limits`` is for a benchmark measuring the difference, nothing else. Recorded:
    ``rate_limited`` (each 429), ``invalid_requests`` (each 401/403/429; ``invalid_request_count()``),
    ``expired_token_requests()`` (each request refused 50027 because its token had expired).
    """

    def __init__(
        self,
        *,
        token: str = "emulator-token",
        bot_name: str = "Test Bot",
        clock: Callable[[], float] = time.monotonic,
        rate_limit_scale: float = 1.0,
        benchmark_without_rate_limits: bool = False,
    ) -> None:
        self.token = token
        self.clock = clock
        #: Discord's rate limits (``ratelimits``), on unless a benchmark measures the difference.
        self.rate_limits = RateLimits(self.now, scale=rate_limit_scale, enabled=not benchmark_without_rate_limits)
        #: The 429s the rate limits answered.
        self.rate_limited: list[RateLimited] = []
        #: Every 401, 403 and 429 answered, ``(at, method, path, status)``: Discord's "invalid requests".
        self.invalid_requests: list[tuple[float, str, str, int]] = []
        self.ack_deadline: float | None = 3.0
        self.recommended_shards = 1
        self.max_guilds_per_shard = 2500
        self.ids = Snowflakes()
        self.application_id = self.ids()
        self.bot_user = User(self.application_id, bot_name, bot=True)
        self.owner = User(self.ids(), "app-owner")
        self.users: dict[int, User] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, model.Channel] = {}
        #: Channels and threads deleted through the API (``DELETE /channels/{id}``), by id.
        self.deleted_channels: dict[int, model.Channel] = {}
        self.registered_commands: dict[int | None, list[dict[str, Any]]] = {}
        #: The application's emojis by id (``applications/{app}/emojis``), and those deleted, in order.
        self.app_emojis: dict[int, model.AppEmoji] = {}
        self.deleted_app_emojis: list[model.AppEmoji] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.attachments: dict[int, model.Attachment] = {}
        self.requests: deque[tuple[float, str, str, int]] = deque(maxlen=5000)
        self.unknown_routes: list[tuple[str, str]] = []
        self.error_responses: list[ErrorResponse] = []
        self.faults: list[Fault] = []
        self.settle_task_prefixes: tuple[str, ...] = HANDLER_TASK_PREFIXES
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.port = 0
        self._messages: dict[int, Message] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._deferred: set[int] = set()
        self._offset = 0.0
        self._inflight = 0
        self._last_activity = 0.0
        self._runner: web.AppRunner | None = None
        self._background: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / ``DISCORD_API_BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables that send a bot process's traffic here (read by the bot's settings)."""
        return {"DISCORD_API_BASE": self.api_base, "DISCORD_GATEWAY_URL": self.gateway_url}

    async def start(self, port: int = 0) -> DiscordEmulator:
        """Serve on 127.0.0.1 (``port`` 0 = a free one)."""
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/api/v10/{path:.*}", self.rest.handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @contextlib.contextmanager
    def configure_discord(self) -> Iterator[DiscordEmulator]:
        """Point discord.py's REST base and default gateway at this emulator; restore them on exit."""
        route, ws = discord.http.Route, discord.gateway.DiscordWebSocket
        saved = route.BASE, ws.DEFAULT_GATEWAY
        route.BASE, ws.DEFAULT_GATEWAY = self.api_base, yarl.URL(self.gateway_url)
        try:
            yield self
        finally:
            route.BASE, ws.DEFAULT_GATEWAY = saved

    async def sync_gateway(self, timeout: float = WAIT_TIMEOUT) -> None:
        """Wait until the bot has processed every gateway event sent so far (e.g. GUILD_CREATE, CHANNEL_CREATE).

        Costs one of discord.py's 110 gateway sends a minute: not for every interaction.
        """
        await self.gateway.sync(timeout)

    async def drop_gateway(self, code: int = RESUMABLE_CLOSE, *, shard_id: int | None = None) -> None:
        """Close the bot's websockets (of ``shard_id``, or all) from the server side; with the default code
        (4000) discord.py reconnects at once and RESUMEs (``gateway.events("resume")``)."""
        await self.gateway.drop_connections(code, shard_id)

    def gateway_outage(self, shard_id: int | None = None, *, timeout: float = 10.0) -> Any:
        """``async with emu.gateway_outage(shard_id=1):`` — the shard's sockets drop and it cannot RESUME until
        the block ends; events dispatched inside (``add_channel``, ``dispatch``...) are replayed on RESUME with
        their sequence numbers. On exit, waits until the shard is connected again."""
        return self.gateway.outage(shard_id, timeout=timeout)

    async def invalidate_session(self, shard_id: int | None = None, *, resumable: bool = False) -> None:
        """Send op 9 Invalid Session to the bot (shard ``shard_id``, or every connected one). Not resumable: the
        session ends and discord.py IDENTIFYs again after its ``before_identify_hook`` (5 s by default), getting a
        new READY and GUILD_CREATEs; events meanwhile are lost and interactions wait for the new session."""
        await self.gateway.invalidate(shard_id, resumable=resumable)

    async def dispatch(self, event: str, data: Any, *, guild_id: int | None = None) -> list[Session]:
        """Send a raw gateway event to the sessions of the shard owning ``guild_id`` (None: shard 0)."""
        return await self.gateway.dispatch(event, data, guild_id)

    def gateway_events(self, kind: str | None = None, *, shard_id: int | None = None) -> list[GatewayEvent]:
        """What happened on the gateway (``GatewayEvent``: identify, resume, disconnect, invalid_session...)."""
        return self.gateway.events(kind, shard_id=shard_id)

    async def wait_shards(self, *shard_ids: int, timeout: float = WAIT_TIMEOUT) -> None:
        """Wait until each of ``shard_ids`` has a connected session (``AssertionError`` after ``timeout`` s)."""
        await self.wait_until(
            lambda: all(self.gateway.connected(i) for i in shard_ids),
            timeout=timeout,
            what=f"shards {list(shard_ids)} connected (have {self.gateway.shards()})",
        )

    # ------------------------------------------------------------ clock

    def now(self) -> float:
        return self.clock() + self._offset

    def advance_clock(self, seconds: float) -> None:
        self._offset += seconds

    def invalid_request_count(self, within: float = INVALID_REQUEST_WINDOW) -> int:
        """The 401, 403 and 429 answers of the last ``within`` s (emulator clock): Discord bans an IP for a while at
        10,000 in 10 minutes (``ratelimits.INVALID_REQUEST_BAN``)."""
        since = self.now() - within
        return sum(1 for at, *_ in self.invalid_requests if at >= since)

    def expired_token_requests(self) -> list[ErrorResponse]:
        """The followups and edits refused because their interaction token had expired (401, 50027)."""
        return [e for e in self.error_responses if e.code == 50027]

    def iso_now(self) -> str:
        return model.iso_now(self._offset)

    # ------------------------------------------------------------ building the world

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        locale: str = "en-US",
        channels: Iterable[str] = ("general",),
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A guild with @everyone, the bot as a member (managed role "Bot") and text channels ``channels``.

        ``shard=(id, count)``: its id falls on shard ``id`` of ``count`` (``(guild_id >> 22) % count == id``).
        Announced (GUILD_CREATE) to the connected sessions of the shard that owns it."""
        guild_id = self.ids() if shard is None else self.ids.on_shard(*shard)
        guild = Guild(guild_id, name, owner_id=self.owner.id, locale=locale)
        guild.roles[guild.id] = Role(guild.id, "@everyone", model.EVERYONE_PERMISSIONS)
        self.guilds[guild.id] = guild
        bot_role = self.add_role(guild, "Bot", model.BOT_PERMISSIONS, managed=True)
        guild.members[self.bot_user.id] = Member(self.bot_user, guild, [bot_role], self.iso_now())
        for channel_name in channels:
            self._new_channel(guild, channel_name, None)
        self._dispatch_soon("GUILD_CREATE", guild.id, lambda s: self.gateway.guild_payload(s, guild.id))
        return guild

    def add_channel(self, guild: Guild, name: str, *, thread_of: model.Channel | None = None) -> model.Channel:
        """A text channel, or a public thread (type 11) when ``thread_of`` is given; announced to a connected bot."""
        channel = self._new_channel(guild, name, thread_of)
        event = "THREAD_CREATE" if thread_of else "CHANNEL_CREATE"
        extra = {"newly_created": True} if thread_of else {}
        self._dispatch_soon(event, guild.id, lambda s: channel.payload() | extra)
        return channel

    def _new_channel(
        self,
        guild: Guild,
        name: str,
        thread_of: model.Channel | None,
        *,
        owner: User | None = None,
        type_: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> model.Channel:
        """A text channel, or a thread of ``thread_of`` started by ``owner`` (default: the guild's owner), who is
        its first member."""
        owner_id = (owner.id if owner else guild.owner_id) if thread_of else None
        channel = model.Channel(
            self.ids(),
            guild.id,
            name,
            type=type_ if type_ is not None else (model.PUBLIC_THREAD if thread_of else model.TEXT),
            position=len(guild.channels),
            parent_id=thread_of.id if thread_of else None,
            owner_id=owner_id,
            member_ids=[owner_id] if owner_id is not None else [],
            auto_archive_duration=auto_archive_duration,
            created_timestamp=self.iso_now(),
        )
        guild.channels[channel.id] = self.channels[channel.id] = channel
        return channel

    def set_permissions(
        self,
        channel: model.Channel,
        target: Role | User,
        *,
        allow: int | discord.Permissions = 0,
        deny: int | discord.Permissions = 0,
    ) -> None:
        """Set ``channel``'s permission overwrite for a role (the guild's @everyone included) or a member, as a
        server manager does in the channel's settings (None of both: removed); announced with CHANNEL_UPDATE. The
        permissions of interactions in it (``app_permissions``, the member's) and of the bot's requests follow."""
        allow_value = allow.value if isinstance(allow, discord.Permissions) else allow
        deny_value = deny.value if isinstance(deny, discord.Permissions) else deny
        kind = 0 if isinstance(target, Role) else 1
        if allow_value or deny_value:
            channel.overwrites[target.id] = model.Overwrite(target.id, kind, allow_value, deny_value)
        else:
            channel.overwrites.pop(target.id, None)
        self._dispatch_soon("CHANNEL_UPDATE", channel.guild_id, lambda s: channel.payload())

    def archive(self, thread: model.Channel, *, locked: bool = False) -> None:
        """Archive ``thread`` as Discord does after its ``auto_archive_duration`` without a message, or as a
        moderator's "Close Thread" does (``locked``: "Lock Thread" too); announced with THREAD_UPDATE (discord.py then
        drops it from its cache, and a bot started later gets it in no GUILD_CREATE)."""
        thread.archived, thread.locked = True, locked or thread.locked
        self._dispatch_soon("THREAD_UPDATE", thread.guild_id, lambda s: thread.payload())

    def unarchive(self, thread: model.Channel) -> None:
        """Make ``thread`` active again (a message sent in it, a member's client before an interaction in it),
        announced with THREAD_UPDATE."""
        thread.archived = False
        self._dispatch_soon("THREAD_UPDATE", thread.guild_id, lambda s: thread.payload())

    def delete_channel(self, channel: model.Channel) -> None:
        """Delete ``channel`` or thread (as a moderator does, or the bot through the API) with the threads of a
        channel; announced with CHANNEL_DELETE or THREAD_DELETE (Discord sends a thread's id, guild, parent and type
        only). Requests to it are answered 404 Unknown Channel from then on; it is kept in ``deleted_channels``."""
        guild = self.guilds[channel.guild_id]
        for gone in [channel, *self.threads_of(channel)]:
            guild.channels.pop(gone.id, None)
            self.channels.pop(gone.id, None)
            self.deleted_channels[gone.id] = gone
            data: dict[str, Any] = gone.payload()
            event = "CHANNEL_DELETE"
            if gone.is_thread:
                data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
                event = "THREAD_DELETE"
            self._dispatch_soon(event, guild.id, constant_payload(data))

    def bot_permissions(self, channel: model.Channel) -> discord.Permissions:
        """What the bot may do in ``channel`` (guild roles and the channel's overwrites)."""
        guild = self.guilds[channel.guild_id]
        return discord.Permissions(guild.permissions_in(guild.members[self.bot_user.id], channel))

    def threads_of(self, channel: model.Channel) -> list[model.Channel]:
        """The threads of ``channel`` that exist (not deleted), oldest first."""
        return [c for c in self.channels.values() if c.parent_id == channel.id]

    def add_role(
        self, guild: Guild, name: str, permissions: int | discord.Permissions = 0, *, managed: bool = False
    ) -> Role:
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        role = Role(self.ids(), name, value, position=len(guild.roles), managed=managed)
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        username: str,
        *,
        locale: str = "en-US",
        guild: Guild | None = None,
        roles: Iterable[Role] = (),
        administrator: bool = False,
        manage_guild: bool = False,
        permissions: int | discord.Permissions = 0,
    ) -> User:
        """A user with a client ``locale``; with ``guild``, also a member of it (see ``add_member``)."""
        user = User(self.ids(), username, locale=locale)
        self.users[user.id] = user
        if guild is not None:
            self.add_member(
                guild,
                user,
                roles=roles,
                administrator=administrator,
                manage_guild=manage_guild,
                permissions=permissions,
            )
        return user

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        roles: Iterable[Role] = (),
        administrator: bool = False,
        manage_guild: bool = False,
        permissions: int | discord.Permissions = 0,
        nick: str | None = None,
    ) -> Member:
        """Make ``user`` a member; extra permissions come through a role, as in Discord (``member.permissions``)."""
        value = permissions.value if isinstance(permissions, discord.Permissions) else permissions
        value |= (model.ADMINISTRATOR if administrator else 0) | discord.Permissions(manage_guild=manage_guild).value
        member_roles = list(roles)
        if value:
            name = f"perms-{value}"
            existing = [r for r in guild.roles.values() if r.name == name]
            member_roles.append(existing[0] if existing else self.add_role(guild, name, value))
        member = Member(user, guild, member_roles, self.iso_now(), nick)
        guild.members[user.id] = member
        return member

    def _dispatch_soon(self, event: str, guild_id: int, build: Callable[[Session], Any]) -> None:
        """Send ``build(session)`` to each live session owning ``guild_id`` (kept for the RESUME if it is down)."""
        owners = [s for s in self.gateway.sessions.values() if s.owns(guild_id)]
        if not owners:
            self.gateway.undelivered.append((event, guild_id))
        for session in owners:
            task = asyncio.get_running_loop().create_task(session.send(event, build(session)))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    # ------------------------------------------------------------ state used by REST

    def _touch(self) -> None:
        self._last_activity = time.monotonic()

    def _add_message(self, msg: Message) -> None:
        self._messages[msg.id] = msg
        self.channels[msg.channel_id].message_ids.append(msg.id)

    def _new_attachment(
        self, filename: str, data: bytes, content_type: str | None, description: str | None
    ) -> model.Attachment:
        attachment_id = self.ids()
        url = f"{self.base_url}/attachments/{attachment_id}/{filename}"
        attachment = model.Attachment(attachment_id, filename, data, url, content_type, description)
        self.attachments[attachment_id] = attachment
        return attachment

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, content_type=attachment.content_type or "application/octet-stream")

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.fired < fault.times and fnmatch.fnmatchcase(f"{method} /{path}", fault.pattern):
                return fault
        return None

    # ------------------------------------------------------------ faults

    def fail_next(
        self,
        pattern: str,
        status: int = 403,
        *,
        code: int | None = None,
        message: str | None = None,
        retry_after: float = 0.05,
        times: int = 1,
    ) -> Fault:
        """Answer the next ``times`` requests matching ``pattern`` (glob on ``"METHOD /path"``, e.g.
        ``"POST /channels/*/messages"``) with ``status``. A 429 carries Discord's rate-limit headers and
        ``retry_after`` (discord.py waits, then retries). Avoid 5xx: discord.py retries those after 1, 3, 5 s.
        """
        default_code, default_message = _DEFAULT_ERRORS.get(status, (0, f"{status}: Error"))
        fault = Fault(
            pattern, status, default_code if code is None else code, message or default_message, retry_after, times
        )
        self.faults.append(fault)
        return fault

    def fail_edits(self, status: int = 429, *, times: int = 1, retry_after: float = 0.05) -> Fault:
        """Answer the next ``times`` message edits (``PATCH`` of channel messages and of interaction webhook
        messages, ``@original`` included) with ``status``: 429 carries ``retry_after`` (s), ``global: false`` and
        the ``X-RateLimit-*`` headers (discord.py sleeps ``retry_after`` and retries, up to 5 tries); 500/502 are
        retried by discord.py after 1 s, 3 s, 5 s. ``fault.fired_at`` and ``requests`` show what happened."""
        return self.fail_next("PATCH /*/messages/*", status, retry_after=retry_after, times=times)

    # ------------------------------------------------------------ acting as users

    async def post(self, user: User, channel: model.Channel, content: str = "…") -> Message:
        """``user`` writes a plain message in ``channel`` (chat between moves); the bot gets MESSAGE_CREATE (its
        ``content`` is empty without the message content intent, as on Discord)."""
        msg = Message(
            id=self.ids(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=user,
            content=content,
            created_at=self.now(),
            timestamp=self.iso_now(),
        )
        msg.snapshot(msg.created_at)
        self._add_message(msg)
        member = self.guilds[channel.guild_id].members.get(user.id)
        data = msg.payload() | {"guild_id": str(channel.guild_id), "content": ""}
        if member is not None:
            data["member"] = member.payload(with_user=False)
        self._dispatch_soon("MESSAGE_CREATE", channel.guild_id, lambda s: data)
        return msg

    async def slash(
        self,
        user: User,
        channel: model.Channel,
        command: str,
        /,
        *,
        settle: bool = True,
        expect_ack: bool = True,
        timeout: float = WAIT_TIMEOUT,
        **options: Any,
    ) -> InteractionRecord:
        """Run ``/command`` (e.g. ``"uno new"``: command then subcommand group/subcommand) with ``options``.

        The command must be registered (guild commands first, then global) and usable by ``user``
        (``default_member_permissions``); options are checked against the registration (names, types, choices,
        required, ranges) and sent with Discord's types: str 3, int 4, bool 5, User 6 (with ``resolved``),
        Channel 7, Role 8, float 10. ``AssertionError`` on any mismatch.

        With ``expect_ack`` it waits (``timeout`` s) for the acknowledgement and fails if there is none or it was
        refused; without, it waits until the bot has seen the event (``sync_gateway``). Then, with ``settle``,
        ``settle()``. The other user actions (``click``, ``select``...) wait the same way.
        """
        data = self._command_data(user, channel, command, options, focused=None)
        return await self._interact(
            2, "command", user, channel, data, command, settle=settle, expect_ack=expect_ack, timeout=timeout
        )

    async def forged_slash(
        self, user: User, channel: model.Channel, command: str, /, *, settle: bool = True, **options: Any
    ) -> InteractionRecord:
        """``/command`` with ``options`` sent as they are, as a modified client could: each option takes the type of
        its registration but its value is not checked (ranges, choices, even its Python type: ``card_images="maybe"``
        is sent as a string). Names must still be registered. Like :meth:`slash` otherwise."""
        data = self._command_data(user, channel, command, {}, focused="")  # "": required options are not checked
        node = data
        while node.get("options") and node["options"][0].get("type") in (1, 2):
            node = node["options"][0]
        registered = self._find_command(channel, command.split()[0])
        definitions = registered.get("options", [])
        for part in command.split()[1:]:
            definitions = next(o for o in definitions if o["name"] == part).get("options", [])
        kinds = {o["name"]: o["type"] for o in definitions}
        unknown = set(options) - set(kinds)
        if unknown:
            raise AssertionError(f"/{command} has no option {sorted(unknown)}")
        node["options"] = [{"name": k, "type": kinds[k], "value": v} for k, v in options.items()]
        return await self._interact(
            2, "command", user, channel, data, command, settle=settle, expect_ack=True, timeout=5.0
        )

    async def forged_component(
        self,
        user: User,
        message: Message | int,
        data: dict[str, Any],
        /,
        *,
        settle: bool = True,
        expect_ack: bool = True,
        timeout: float = 5.0,
        unseen: bool = False,
    ) -> InteractionRecord:
        """A component interaction on ``message`` (which ``user`` must see) whose ``data`` is sent exactly as given
        (``{"custom_id": …, "component_type": 2}``, or a select's ``values``): whatever the message's components are,
        as a modified client or a forged request could send it. ``unseen``: the message may be one ``user`` cannot
        see (another user's ephemeral message, named by a forged request); it is sent as it is, its
        ``interaction_metadata`` naming its owner, as Discord sends a message in a component interaction."""
        msg = self._messages[message if isinstance(message, int) else message.id] if unseen else None
        msg = msg or self._interactive_message(user, message)
        kind = "select" if data.get("component_type") == 3 else "button"
        values = data.get("values")
        return await self._interact(
            3,
            kind,
            user,
            msg,
            dict(data),
            str(data.get("custom_id")),
            settle=settle,
            expect_ack=expect_ack,
            timeout=timeout,
            values=list(values) if values is not None else None,
        )

    async def autocomplete(
        self,
        user: User,
        channel: model.Channel,
        command: str,
        /,
        focused: str,
        *,
        timeout: float = WAIT_TIMEOUT,
        **options: Any,
    ) -> InteractionRecord:
        """Type into option ``focused`` of ``/command``; the choices the bot offers are in ``result.choices``."""
        data = self._command_data(user, channel, command, options, focused=focused)
        return await self._interact(
            4, "autocomplete", user, channel, data, command, settle=True, expect_ack=True, timeout=timeout
        )

    async def click(
        self,
        user: User,
        message: Message | int,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
        settle: bool = True,
        expect_ack: bool = True,
        timeout: float = WAIT_TIMEOUT,
    ) -> InteractionRecord:
        """Click the button with ``custom_id`` (or ``label``) on ``message``, which ``user`` must be able to see."""
        msg = self._interactive_message(user, message)
        button = msg.find_button(custom_id=custom_id) if custom_id is not None else msg.find_button(label=label)
        if button.disabled or button.custom_id is None:
            raise AssertionError(f"button {button.label!r} on message {msg.id} is disabled or a link")
        data = {"custom_id": button.custom_id, "component_type": 2}
        return await self._interact(
            3, "button", user, msg, data, button.custom_id, settle=settle, expect_ack=expect_ack, timeout=timeout
        )

    async def select(
        self,
        user: User,
        message: Message | int,
        custom_id: str | None,
        values: Iterable[str],
        /,
        *,
        settle: bool = True,
        expect_ack: bool = True,
        timeout: float = WAIT_TIMEOUT,
    ) -> InteractionRecord:
        """Choose option ``values`` in the string select ``custom_id`` (None: the message's first select)."""
        msg = self._interactive_message(user, message)
        sel: Select = msg.select(custom_id)
        chosen = list(values)
        offered = {o.value for o in sel.options}
        if sel.disabled or sel.type != 3 or not set(chosen) <= offered:
            raise AssertionError(f"cannot choose {chosen} in select {sel.custom_id!r} (disabled or offers {offered})")
        if not sel.min_values <= len(chosen) <= sel.max_values:
            raise AssertionError(f"select {sel.custom_id!r} takes {sel.min_values}..{sel.max_values} values")
        data = {"custom_id": sel.custom_id, "component_type": 3, "values": chosen}  # no "resolved" for string selects
        record = await self._interact(
            3,
            "select",
            user,
            msg,
            data,
            sel.custom_id,
            settle=settle,
            expect_ack=expect_ack,
            timeout=timeout,
            values=chosen,
        )
        return record

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionRecord,
        values: Mapping[str, str],
        *,
        settle: bool = True,
        timeout: float = WAIT_TIMEOUT,
    ) -> InteractionRecord:
        """Submit the modal the bot answered ``opened_by`` with; ``values`` maps text-input custom_ids to text."""
        modal = opened_by.modal
        if modal is None:
            raise AssertionError(f"{opened_by.describe()} was not answered with a modal")
        inputs = [
            c for row in modal.get("components", []) for c in [row, *row.get("components", [])] if c.get("type") == 4
        ]
        known = {c["custom_id"] for c in inputs}
        if not set(values) <= known:
            raise AssertionError(f"modal {modal.get('custom_id')!r} has text inputs {known}, not {set(values)}")
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        data = {"custom_id": modal["custom_id"], "components": rows}
        where: Message | model.Channel = opened_by.message or self.channels[opened_by.channel_id]
        return await self._interact(
            5, "modal", user, where, data, modal["custom_id"], settle=settle, expect_ack=True, timeout=timeout
        )

    def _interactive_message(self, user: User, message: Message | int) -> Message:
        msg = self._messages[message if isinstance(message, int) else message.id]
        if not msg.is_visible_to(user.id):
            raise AssertionError(f"{user.username} cannot see message {msg.id} (deleted or ephemeral to someone else)")
        return msg

    def _find_command(self, channel: model.Channel, name: str) -> dict[str, Any]:
        for scope in (channel.guild_id, None):
            for command in self.registered_commands.get(scope, []):
                if command["name"] == name and command["type"] == 1:
                    return command
        known = sorted(c["name"] for scope in (channel.guild_id, None) for c in self.registered_commands.get(scope, []))
        raise AssertionError(f"/{name} is not registered for guild {channel.guild_id} or globally; registered: {known}")

    def _command_data(
        self, user: User, channel: model.Channel, command: str, options: Mapping[str, Any], focused: str | None
    ) -> dict[str, Any]:
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise AssertionError(f"{user.username} is not a member of {guild.name!r}")
        name, *path = command.split()
        registered = self._find_command(channel, name)
        needed = registered.get("default_member_permissions")
        if needed is not None and int(needed) & ~member.permissions:
            raise AssertionError(f"/{name} is hidden from {user.username}: needs permissions {needed}")
        data: dict[str, Any] = {"id": registered["id"], "name": name, "type": 1}
        if "guild_id" in registered:
            data["guild_id"] = registered["guild_id"]
        node, definitions = data, registered.get("options", [])
        for part in path:
            sub = next((o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise AssertionError(
                    f"/{command}: {part!r} is not a subcommand; have {[o['name'] for o in definitions]}"
                )
            child = {"name": part, "type": sub["type"], "options": []}
            node.setdefault("options", []).append(child)
            node, definitions = child, sub.get("options", [])
        if any(o["type"] in (1, 2) for o in definitions):
            raise AssertionError(f"/{command} needs a subcommand: {[o['name'] for o in definitions]}")
        resolved: dict[str, dict[str, Any]] = {}
        sent = []
        for option_name, value in options.items():
            definition = next((o for o in definitions if o["name"] == option_name), None)
            if definition is None:
                raise AssertionError(
                    f"/{command} has no option {option_name!r}; has {[o['name'] for o in definitions]}"
                )
            item = {"name": option_name, "type": definition["type"]}
            if option_name == focused:
                item |= {"value": str(value), "focused": True}
            else:
                item["value"] = self._option_value(command, guild, definition, value, resolved)
            sent.append(item)
        missing = [o["name"] for o in definitions if o.get("required") and o["name"] not in options]
        if missing and focused is None:
            raise AssertionError(f"/{command} is missing required options {missing}")
        node["options"] = sent
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self, command: str, guild: Guild, definition: dict[str, Any], value: Any, resolved: dict[str, Any]
    ) -> Any:
        kind, name = definition["type"], definition["name"]
        python_types: dict[int, type | tuple[type, ...]] = {3: str, 4: int, 5: bool, 10: (int, float)}
        expected = python_types.get(kind)
        if expected is not None:
            if not isinstance(value, expected) or (kind in (4, 10) and isinstance(value, bool)):
                raise AssertionError(f"/{command} {name}: {value!r} is not of option type {kind}")
            choices = [c["value"] for c in definition.get("choices") or []]
            if choices and value not in choices:
                raise AssertionError(f"/{command} {name}: {value!r} is not one of the choices {choices}")
            low = definition.get("min_value" if kind != 3 else "min_length")
            high = definition.get("max_value" if kind != 3 else "max_length")
            size = len(value) if isinstance(value, str) else value
            if (low is not None and size < low) or (high is not None and size > high):
                raise AssertionError(f"/{command} {name}: {value!r} is outside {low}..{high}")
            return value
        if kind in (6, 9) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.id in guild.members:
                member = guild.members[value.id].payload(with_user=False, with_permissions=True)
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind in (8, 9) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if kind == 7 and isinstance(value, model.Channel):
            allowed = definition.get("channel_types")
            if allowed and value.type not in allowed:
                raise AssertionError(f"/{command} {name}: channel type {value.type} not in {allowed}")
            channel = value.payload() | {"permissions": str(model.ALL_PERMISSIONS)}
            resolved.setdefault("channels", {})[str(value.id)] = channel
            return str(value.id)
        raise AssertionError(f"/{command} {name}: cannot send {value!r} as option type {kind}")

    async def _interact(
        self,
        type_: int,
        kind: str,
        user: User,
        where: Message | model.Channel,
        data: dict[str, Any],
        name: str,
        *,
        settle: bool,
        expect_ack: bool,
        timeout: float,
        values: list[str] | None = None,
    ) -> InteractionRecord:
        message = where if isinstance(where, Message) else None
        channel = self.channels[where.channel_id if isinstance(where, Message) else where.id]
        guild = self.guilds[channel.guild_id]
        member = guild.members.get(user.id)
        if member is None:
            raise AssertionError(f"{user.username} is not a member of {guild.name!r}")
        bot_member = guild.members[self.bot_user.id]
        await self.gateway.wait_connected(timeout, guild.id)
        if channel.archived and not channel.locked:
            # Discord's clients unarchive a thread before an interaction in it (no command or click reaches a bot
            # from an archived thread): the user's client does it, as a message would
            self.unarchive(channel)
        rec = InteractionRecord(
            id=self.ids(),
            token=f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(48)}",
            type=type_,
            kind=kind,
            user=user,
            guild_id=guild.id,
            channel_id=channel.id,
            name=name,
            dispatched_at=self.now(),
            messages_index=self._messages,
            values=values,
            message_id=message.id if message else None,
        )
        rec.payload = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": type_,
            "token": rec.token,
            "version": 1,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "guild_locale": guild.locale,
            "channel_id": str(channel.id),
            "channel": channel.payload() | {"permissions": str(guild.permissions_in(member, channel))},
            "member": member.payload(with_permissions=True)
            | {"permissions": str(guild.permissions_in(member, channel))},
            "locale": user.locale,
            "app_permissions": str(guild.permissions_in(bot_member, channel)),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            rec.payload["message"] = message.payload()
        self.interactions[rec.id] = rec
        self._by_token[rec.token] = rec
        sessions = await self.gateway.dispatch("INTERACTION_CREATE", rec.payload, guild.id)
        rec.shards = [s.shard_id for s in sessions]
        if expect_ack:
            try:
                await asyncio.wait_for(rec.answered.wait(), timeout)
            except TimeoutError:
                raise AssertionError(f"the bot did not acknowledge {rec.describe()} within {timeout}s") from None
            if not rec.acknowledged:
                raise AssertionError(f"the bot's acknowledgement of {rec.describe()} was refused: {rec.errors}")
        else:
            # the bot has at least seen it (and started its handler, if any)
            await self.gateway.sync(timeout, guild.id, every_shard=False)
        if settle:
            await self.settle(timeout=timeout)
        return rec

    # ------------------------------------------------------------ waiting

    async def settle(self, *, quiet: float = 0.002, timeout: float = WAIT_TIMEOUT, wait_deferred: bool = True) -> None:
        """Wait until the bot has gone quiet: no REST call in flight or made in the last ``quiet`` s, no
        discord.py interaction-handler task running (``settle_task_prefixes``; add your own task names there),
        no rate-limit bucket exhausted that resets within the next ``SETTLE_AFTER_RESET`` s (discord.py holds the
        next request of such a bucket until its reset) and, with ``wait_deferred``, no deferred response still
        loading. ``AssertionError`` after ``timeout`` s (a frozen ``clock`` never resets an exhausted bucket).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        me = asyncio.current_task()
        while True:
            busy_tasks = [
                t.get_name()
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(self.settle_task_prefixes)
            ]
            loading = sorted(self._deferred) if wait_deferred else []
            quiet_for = time.monotonic() - self._last_activity
            busy_tasks += [t.get_name() for t in self._background]
            # a client may be sleeping until an exhausted bucket resets (discord.py does): wait for that, and a
            # little after, before calling it quiet
            limited = self.now() < self.rate_limits.busy_until() + SETTLE_AFTER_RESET
            if not busy_tasks and not loading and self._inflight == 0 and quiet_for >= quiet and not limited:
                return
            if loop.time() > deadline:
                pending = [self.interactions[i].describe() for i in loading]
                waiting = [
                    f"{t.get_name()} at {awaiting(t)}"
                    for t in asyncio.all_tasks()
                    if t is not me and not t.done() and t.get_name().startswith(self.settle_task_prefixes)
                ]
                raise AssertionError(
                    f"the bot did not settle within {timeout}s: tasks {busy_tasks}, {self._inflight} requests "
                    f"in flight, deferred and never answered: {pending}, rate limited: {limited}; waiting: {waiting}"
                )
            await asyncio.sleep(quiet if self._inflight == 0 and not busy_tasks else 0.001)

    async def wait_until(
        self, predicate: Callable[[], object], *, timeout: float = WAIT_TIMEOUT, what: str = "", interval: float = 0.001
    ) -> None:
        """Poll ``predicate`` (every ``interval`` s) until it is true, e.g. until the bot has processed a gateway
        event that no REST call follows (``settle`` cannot see those). ``AssertionError`` after ``timeout`` s.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            if loop.time() > deadline:
                raise AssertionError(f"condition not met within {timeout}s {what}".rstrip())
            await asyncio.sleep(interval)

    # ------------------------------------------------------------ queries

    def message(self, message_id: int) -> Message:
        """The message with this id (also deleted or ephemeral ones); ``KeyError`` if unknown."""
        return self._messages[message_id]

    def messages(self, channel: model.Channel, *, include_deleted: bool = False) -> list[Message]:
        """Every message of ``channel`` (public and ephemeral) in creation order."""
        found = (self._messages[i] for i in channel.message_ids)
        return [m for m in found if include_deleted or not m.deleted]

    def public_messages(self, channel: model.Channel) -> list[Message]:
        return [m for m in self.messages(channel) if not m.ephemeral]

    def visible_to(self, user: User | int, channel: model.Channel | None = None) -> list[Message]:
        """What ``user`` sees: public messages and the ephemeral ones addressed to them (in ``channel`` or all)."""
        user_id = user if isinstance(user, int) else user.id
        channels = [channel] if channel is not None else list(self.channels.values())
        found = [m for c in channels for m in self.messages(c) if m.is_visible_to(user_id)]
        return sorted(found, key=lambda m: m.id) if channel is None else found

    def last_message(self, channel: model.Channel, *, visible_to: User | None = None) -> Message:
        found = self.visible_to(visible_to, channel) if visible_to else self.public_messages(channel)
        if not found:
            raise AssertionError(f"no message in #{channel.name}")
        return found[-1]

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """Commands registered globally (``guild`` None) or for ``guild``, as the bot sent them plus ids."""
        return self.registered_commands.get(guild.id if guild else None, [])

    # ------------------------------------------------------------ assertions

    def assert_no_unknown_routes(self) -> None:
        if self.unknown_routes:
            raise AssertionError(f"the bot called routes the emulator does not know: {self.unknown_routes}")

    def assert_no_error_responses(self) -> None:
        if self.error_responses:
            raise AssertionError(f"the emulator answered errors: {self.error_responses}")

    def assert_all_interactions_answered_once(
        self, max_latency: float = 3.0, *, exclude: Iterable[InteractionRecord] = ()
    ) -> None:
        """Each dispatched interaction got exactly one callback attempt, accepted, within ``max_latency`` s."""
        skip = {r.id for r in exclude}
        problems = []
        for rec in self.interactions.values():
            if rec.id in skip:
                continue
            if not rec.acknowledged:
                problems.append(f"{rec.describe()}: never acknowledged (attempts: {rec.attempts})")
            elif len(rec.attempts) != 1:
                problems.append(f"{rec.describe()}: {len(rec.attempts)} callback attempts {rec.attempts}")
            elif (rec.latency or 0.0) > max_latency:
                problems.append(f"{rec.describe()}: acknowledged after {rec.latency:.3f}s")
        if problems:
            raise AssertionError("interactions not answered exactly once in time:\n" + "\n".join(problems))
