"""Plain data the emulator keeps: users, guilds, channels, messages and their components, interactions.

Ids are Python ints (snowflakes); payloads sent to discord.py use strings for ids, as Discord does.
Times called ``at`` are readings of the emulator clock (``DiscordEmulator.now()``, seconds).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import re
import time
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
#: What @everyone may do in a new guild (enough to use a bot).
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
#: What the bot's managed role grants.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(manage_messages=True, manage_threads=True).value

Json = dict[str, Any]
#: Discord's limits on application emojis (API reference, "Emoji Resource", Create Application Emoji:
#: https://discord.com/developers/docs/resources/emoji#create-application-emoji): 2,000 per application, a name of
#: 2-32 characters of letters, digits and _, an image of at most 256 KiB.
APP_EMOJI_LIMIT = 2000
APP_EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
APP_EMOJI_MAX_BYTES = 256 * 1024
_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/avif")


def decode_image(uri: Any) -> tuple[str, bytes] | None:
    """``(content type, bytes)`` of a ``data:image/…;base64,…`` URI (Discord's "Image Data"), or None when it is not
    one of the image types Discord accepts."""
    if not isinstance(uri, str) or not uri.startswith("data:"):
        return None
    head, sep, data = uri[5:].partition(",")
    kind, _, encoding = head.partition(";")
    if not sep or encoding != "base64" or kind not in _IMAGE_TYPES:
        return None
    try:
        return kind, base64.b64decode(data, validate=True)
    except ValueError:
        return None


@dataclass
class AppEmoji:
    """An emoji the application owns (``applications/{app}/emojis``): its image cannot change, only its name."""

    id: int
    name: str
    content_type: str
    image: bytes
    animated: bool = False

    def payload(self, owner: User) -> Json:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": owner.payload(),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


#: How long the emulator's waits (acknowledgement, settle, gateway sync, bot start) give the bot by default (s).
#: A guard against a bot that hangs, not a speed limit (speed is measured in benchmarks/, the 3 s acknowledgement
#: deadline by ``assert_all_interactions_answered_once``): generous, because the test machine may be busy.
WAIT_TIMEOUT = 20.0


class Snowflakes:
    """Increasing snowflake ids whose timestamp part is the wall-clock time of creation."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id that Discord puts on shard ``shard_id`` of ``shard_count`` (``(id >> 22) % count``); later
        ids stay larger. ``ValueError`` unless ``0 <= shard_id < shard_count``."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        candidate = self()
        stamp = candidate >> 22
        if (shift := (shard_id - stamp) % shard_count) != 0:
            self._last = candidate = (stamp + shift) << 22
        return candidate


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that owns ``guild_id`` when a bot runs ``shard_count`` shards (Discord: ``(id >> 22) % count``)."""
    return (guild_id >> 22) % shard_count


def iso_now(offset: float = 0.0) -> str:
    """Discord's ISO 8601 timestamp for the wall-clock time plus ``offset`` seconds."""
    return (datetime.datetime.now(datetime.UTC) + datetime.timedelta(seconds=offset)).isoformat()


@dataclass(eq=False)
class User:
    """A Discord user; ``locale`` is the language of their client, sent with each of their interactions."""

    id: int
    username: str
    locale: str = "en-US"
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": None if self.bot else self.username.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


#: Channel types: guild text, announcement; announcement thread, public thread, private thread.
TEXT, NEWS, NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 0, 5, 10, 11, 12
THREAD_TYPES = (NEWS_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
#: The ``auto_archive_duration`` values Discord accepts (minutes).
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


@dataclass(frozen=True)
class Overwrite:
    """A channel permission overwrite: for a role (``type`` 0, the guild id = @everyone) or a member (1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> Json:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class Channel:
    """A guild text channel (type 0) or thread (type 11, ``parent_id`` set). ``message_ids`` in creation order.

    ``overwrites`` (by role or user id) adjust the guild permissions in this channel (a thread has none: it follows
    its parent's). A thread's ``owner_id`` is who started it, ``member_ids`` who follows it (its thread members).
    """

    id: int
    guild_id: int
    name: str
    type: int = TEXT
    position: int = 0
    parent_id: int | None = None
    message_ids: list[int] = field(default_factory=list)
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    owner_id: int | None = None
    member_ids: list[int] = field(default_factory=list)
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    created_timestamp: str = ""

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "nsfw": False,
            "topic": None,
            "last_message_id": str(self.message_ids[-1]) if self.message_ids else None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "flags": 0,
        }
        if self.is_thread:
            del data["permission_overwrites"], data["position"], data["topic"]
            data |= {
                "owner_id": str(self.owner_id or self.guild_id),
                "member_count": len(self.member_ids) or 1,
                "message_count": len(self.message_ids),
                "total_message_sent": len(self.message_ids),
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_timestamp or iso_now(),
                    "locked": self.locked,
                    "create_timestamp": self.created_timestamp or iso_now(),
                },
            }
        return data


@dataclass(eq=False)
class Member:
    """A user's membership of a guild. ``permissions`` is what Discord computes (roles, owner, administrator)."""

    user: User
    guild: Guild
    roles: list[Role]
    joined_at: str
    nick: str | None = None

    @property
    def permissions(self) -> int:
        if self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> Json:
        data: Json = {
            "roles": [str(r.id) for r in self.roles],
            "flags": 0,
            "joined_at": self.joined_at,
            "nick": self.nick,
            "avatar": None,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass(eq=False)
class Guild:
    """A server. Its @everyone role has the guild's id; ``locale`` is its preferred locale."""

    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def channel(self, name: str) -> Channel:
        """The channel (or thread) called ``name``; ``KeyError`` if none."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"guild {self.name!r} has no channel {name!r}")

    def permissions_in(self, member: Member, channel: Channel) -> int:
        """``member``'s permissions in ``channel``, as Discord computes them: the guild permissions (all for the
        owner and administrators), then the channel's overwrites for @everyone, for the member's roles (denies, then
        allows) and for the member. A thread follows its parent channel."""
        base = member.permissions
        if base == ALL_PERMISSIONS:
            return base
        target = self.channels.get(channel.parent_id, channel) if channel.parent_id else channel
        overwrites = target.overwrites
        everyone = overwrites.get(self.id)
        if everyone is not None:
            base = (base & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in member.roles:
            found = overwrites.get(role.id)
            if found is not None:
                allow, deny = allow | found.allow, deny | found.deny
        base = (base & ~deny) | allow
        own = overwrites.get(member.user.id)
        if own is not None:
            base = (base & ~own.deny) | own.allow
        return base

    def role(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"guild {self.name!r} has no role {name!r}")

    def payload(self, *, all_members: bool, bot_id: int) -> Json:
        """A GUILD_CREATE payload; without the members intent only the bot's own member is included."""
        members = [m for m in self.members.values() if all_members or m.user.id == bot_id]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "preferred_locale": self.locale,
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            # active threads only: Discord syncs no archived thread up front (they come with interactions only)
            "threads": [c.payload() for c in self.channels.values() if c.is_thread and not c.archived],
            "members": [m.payload() for m in members],
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso_now(),
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "system_channel_id": None,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
        }


# ---------------------------------------------------------------- components


def _emoji(data: Json | None) -> str | None:
    if not data:
        return None
    return f"<:{data.get('name')}:{data['id']}>" if data.get("id") else data.get("name")


@dataclass(frozen=True)
class Button:
    """A button: ``style`` 1 primary, 2 secondary, 3 success, 4 danger, 5 link (``url``, no custom_id)."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool = False
    emoji: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None
    emoji: str | None = None
    default: bool = False


@dataclass(frozen=True)
class Select:
    """A select menu; ``type`` 3 is a string select (``options``), 5–8 are user/role/mentionable/channel selects."""

    custom_id: str
    options: tuple[SelectOption, ...]
    placeholder: str | None = None
    disabled: bool = False
    min_values: int = 1
    max_values: int = 1
    type: int = 3


Component = Button | Select


def _parse_component(data: Json) -> Component | None:
    if data.get("type") == 2:
        return Button(
            custom_id=data.get("custom_id"),
            label=data.get("label"),
            style=data.get("style", 1),
            disabled=data.get("disabled", False),
            emoji=_emoji(data.get("emoji")),
            url=data.get("url"),
        )
    if data.get("type") in (3, 5, 6, 7, 8):
        options = tuple(
            SelectOption(o["label"], o["value"], o.get("description"), _emoji(o.get("emoji")), o.get("default", False))
            for o in data.get("options", [])
        )
        return Select(
            custom_id=data["custom_id"],
            options=options,
            placeholder=data.get("placeholder"),
            disabled=data.get("disabled", False),
            min_values=data.get("min_values", 1),
            max_values=data.get("max_values", 1),
            type=data["type"],
        )
    return None


def parse_rows(components: list[Json]) -> list[list[Component]]:
    """Interactive components grouped by action row; rows nested in v2 containers/sections are flattened in order."""
    rows: list[list[Component]] = []
    for comp in components:
        if comp.get("type") == 1:
            row = [c for c in map(_parse_component, comp.get("components", [])) if c is not None]
            rows.append(row)
        else:
            rows.extend(parse_rows(comp.get("components", [])))
            accessory = _parse_component(comp.get("accessory") or {})
            if accessory is not None:
                rows.append([accessory])
    return rows


def _component_texts(components: list[Json]) -> list[str]:
    texts = []
    for comp in components:
        if comp.get("type") == 10:
            texts.append(comp.get("content", ""))
        texts.extend(_component_texts(comp.get("components", [])))
    return texts


# ---------------------------------------------------------------- messages


@dataclass(eq=False)
class Attachment:
    """A stored upload; ``data`` holds its bytes, ``url`` serves them from the emulator."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass(frozen=True)
class Revision:
    """One version of a message (as created, then after each edit)."""

    at: float
    content: str
    embeds: list[Json]
    components: list[Json]
    attachment_ids: tuple[int, ...]
    flags: int


@dataclass(eq=False)
class Message:
    """A message as the emulator keeps it.

    ``visible_to`` is None for a public message, else the id of the one user who can see it (ephemeral).
    ``history`` holds every version, the current one last. ``allowed_mentions`` is what the request that created it
    (or last edited it) allowed to notify, as sent (None: not given); ``deleted_at`` when it was deleted.
    ``interaction_id`` is the interaction whose
    response (original or followup) created it. ``loading`` is a deferred response not yet filled.
    """

    id: int
    channel_id: int
    guild_id: int
    author: User
    content: str = ""
    embeds: list[Json] = field(default_factory=list)
    components: list[Json] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visible_to: int | None = None
    type: int = 0
    created_at: float = 0.0
    timestamp: str = ""
    edited_at: float | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    deleted_at: float | None = None
    allowed_mentions: Json | None = None
    interaction_id: int | None = None
    interaction_metadata: Json | None = None
    webhook_id: int | None = None
    reference: Json | None = None
    history: list[Revision] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def is_visible_to(self, user_id: int) -> bool:
        return not self.deleted and (self.visible_to is None or self.visible_to == user_id)

    @property
    def rows(self) -> list[list[Component]]:
        return parse_rows(self.components)

    def buttons(self) -> list[Button]:
        return [c for row in self.rows for c in row if isinstance(c, Button)]

    def selects(self) -> list[Select]:
        return [c for row in self.rows for c in row if isinstance(c, Select)]

    def find_button(
        self,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        custom_id_startswith: str | None = None,
        emoji: str | None = None,
    ) -> Button:
        """The first button matching every given criterion; ``AssertionError`` naming the buttons if none does."""
        for button in self.buttons():
            if (
                (label is None or button.label == label)
                and (custom_id is None or button.custom_id == custom_id)
                and (custom_id_startswith is None or (button.custom_id or "").startswith(custom_id_startswith))
                and (emoji is None or button.emoji == emoji)
            ):
                return button
        found = [(b.label, b.custom_id) for b in self.buttons()]
        raise AssertionError(
            f"message {self.id} has no button like {label=} {custom_id=} {custom_id_startswith=}: {found}"
        )

    def select(self, custom_id: str | None = None) -> Select:
        """The select with this custom_id (or the only/first select); ``AssertionError`` if none."""
        for sel in self.selects():
            if custom_id is None or sel.custom_id == custom_id:
                return sel
        raise AssertionError(f"message {self.id} has no select {custom_id!r}: {[s.custom_id for s in self.selects()]}")

    def select_options(self, custom_id: str | None = None) -> list[SelectOption]:
        return list(self.select(custom_id).options)

    @property
    def text(self) -> str:
        """Content, embed author/title/description/fields/footer and v2 text displays, one per line."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("author", {}).get("name", ""), embed.get("title", ""), embed.get("description", "")]
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        parts += _component_texts(self.components)
        return "\n".join(p for p in parts if p)

    def snapshot(self, at: float) -> None:
        self.history.append(
            Revision(at, self.content, self.embeds, self.components, tuple(a.id for a in self.attachments), self.flags)
        )

    def payload(self) -> Json:
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "pinned": False,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.reference is not None:
            data["message_reference"] = self.reference
        return data


# ---------------------------------------------------------------- interactions


@dataclass(frozen=True)
class ErrorResponse:
    """A 4xx the emulator answered (not counting unknown routes and injected faults)."""

    at: float
    method: str
    path: str
    status: int
    code: int
    message: str


@dataclass(frozen=True)
class RateLimited:
    """A 429 the emulator's rate limits answered (``ratelimits``): when, the request, the bucket that refused
    (``"global"`` for the global limit), the ``retry_after`` it gave (s)."""

    at: float
    method: str
    path: str
    bucket: str
    retry_after: float
    global_: bool


@dataclass(frozen=True)
class Ack:
    """One callback attempt: its time, callback type and the status answered (200 or an error)."""

    at: float
    type: int
    status: int
    code: int = 0


KIND_NAMES = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}


@dataclass(eq=False)
class InteractionRecord:
    """An interaction the emulator dispatched, and how the bot answered it; also the result of the test calls.

    ``kind``: "command", "button", "select", "autocomplete" or "modal". ``name``: the command path ("uno new")
    or the custom_id. ``attempts`` lists every callback attempt (a second one is refused with 40060).
    ``original_id`` is the message ``@original`` designates (for a component answered with type 6/7: the
    component's message). ``modal`` is the data of a type 9 answer, ``choices`` of a type 8 one.
    """

    id: int
    token: str
    type: int
    kind: str
    user: User
    guild_id: int
    channel_id: int
    name: str
    dispatched_at: float
    messages_index: dict[int, Message] = field(repr=False)
    values: list[str] | None = None
    #: The shard ids of the gateway sessions the INTERACTION_CREATE was sent on (one, unless two bot processes
    #: claim the same shard).
    shards: list[int] = field(default_factory=list)
    message_id: int | None = None
    payload: Json = field(default_factory=dict, repr=False)
    attempts: list[Ack] = field(default_factory=list)
    response_type: int | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: Json | None = None
    choices: list[Json] | None = None
    errors: list[ErrorResponse] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def describe(self) -> str:
        return f"{self.kind} {self.name!r} by {self.user.username} (interaction {self.id})"

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def acked_at(self) -> float | None:
        return next((a.at for a in self.attempts if a.status == 200), None)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first accepted callback, None if unanswered."""
        at = self.acked_at
        return None if at is None else at - self.dispatched_at

    @property
    def message(self) -> Message | None:
        """The message whose component was used (current state), for component interactions."""
        return None if self.message_id is None else self.messages_index[self.message_id]

    @property
    def original(self) -> Message | None:
        return None if self.original_id is None else self.messages_index[self.original_id]

    @property
    def followups(self) -> list[Message]:
        return [self.messages_index[i] for i in self.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """Original response and followups that are not deleted."""
        found = ([self.original] if self.original else []) + self.followups
        return [m for m in found if not m.deleted]

    @property
    def ephemeral_messages(self) -> list[Message]:
        return [m for m in self.messages if m.ephemeral]

    @property
    def public_messages(self) -> list[Message]:
        return [m for m in self.messages if not m.ephemeral]
