"""The Discord client: start-up order, error handling, shutdown (DESIGN "Discord layer").

``setup_hook`` runs, in order: open the database (migrations applied), resume live games, load the cogs, register the
persistent buttons, sync the slash commands (to ``DEV_GUILD_ID`` when set). No privileged intents are needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import SessionManager
from bot.adapter.clock import Clock, SystemClock
from bot.adapter.manager import Limits
from bot.adapter.runtime import tune_gc
from bot.card_emojis import SyncReport, sync_card_emojis
from bot.config import Settings
from bot.engine.options import Options
from bot.i18n import language_for
from bot.i18n.translator import UnoTranslator
from bot.pacing import GlobalLimit, install_global_limit
from bot.shardlog import ShardedBot
from bot.storage import GuildSettings, Shards, StorageUnavailable, Store, UserPrefs, open_store, watch_outages

log = logging.getLogger(__name__)

#: The names discord.py gives the tasks that run interaction handlers (slash commands, buttons, selects, modals).
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: on_interaction",
)
#: The locale Discord gives a server that never chose one: it says nothing of its players' language.
DEFAULT_GUILD_LOCALE = "en-US"
#: How long stopping waits for the interactions being handled (s) before it closes the sessions and the connection.
HANDLER_DRAIN = 10.0


def leave_to_owner(parsers: dict[str, Callable[[Any], None]], standing_down: Callable[[], bool]) -> None:
    """Issue 16 point 4, after start-up: while ``standing_down()`` (another bot process took this process's shards
    over, :attr:`SessionManager.standing_down`) every interaction Discord delivers here is dropped unanswered, before
    discord.py routes it to a command, button or listener — the process that runs the shards answers it (Discord
    delivers to both). ``parsers``: discord.py's gateway event parsers (``ConnectionState.parsers``), wrapped in
    place."""
    parse = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: Any) -> None:
        if standing_down():
            log.debug("interaction %s left to the process that runs this shard now", data.get("id"))
            return
        parse(data)

    parsers["INTERACTION_CREATE"] = parse_interaction_create


@dataclass(slots=True)
class CommandMentions:
    """How texts name the bot's slash commands (issue 17 point 3: owned by the client, which syncs them; the Discord
    layer reads them as ``bot.mentions``). ``ids``: each synced top-level command's id by name (``{"uno": 123}``),
    empty until :meth:`learn` saw the sync."""

    ids: dict[str, int] = field(default_factory=dict)

    def learn(self, synced: Iterable[app_commands.AppCommand]) -> None:
        """Keep the ids of the commands Discord answered a sync with."""
        self.ids.update((command.name, command.id) for command in synced)

    def of(self, path: str) -> str:
        """The command ``path`` (``"uno new"``) as a text names it: a clickable ``</uno new:123>`` once synced
        (Discord shows it in each reader's own language), plain ``/uno new`` before."""
        command_id = self.ids.get(path.split(" ", 1)[0])
        return f"</{path}:{command_id}>" if command_id is not None else f"/{path}"


class UnoBot(ShardedBot):
    """The UNO bot. ``bot.store`` (SQLite or PostgreSQL) and ``bot.manager`` (live sessions) exist after setup_hook.

    ``clock`` (default: the system clock), ``limits`` (timers) and ``rng`` (the generator that seeds each new game's
    deal; default: seeded from the OS) are handed to the :class:`~bot.adapter.SessionManager`; tests pass their own
    to make every deal reproducible."""

    store: Store
    manager: SessionManager

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        limits: Limits | None = None,
        rng: Random | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # defence in depth (issue 20, point 8): a message pings nobody unless it names its users (the turn ping)
            allowed_mentions=discord.AllowedMentions.none(),
            **({"shard_count": settings.shard_count, "shard_ids": settings.shard_id_list()} | options),
        )
        self.settings = settings
        #: Discord's global limit, kept before discord.py meets it (issue 20, point 4: no 429 when many tables start).
        self.global_limit = GlobalLimit()
        install_global_limit(self.http, self.global_limit)
        self._clock = clock
        self._limits = limits
        self._rng = rng
        self._settings_cache: dict[int, GuildSettings] = {}
        self._prefs_cache: dict[int, UserPrefs] = {}
        #: How texts name the slash commands (set by the sync in :meth:`setup_hook`).
        self.mentions = CommandMentions()
        #: The start-up sync of the card emojis (issue 18 point 1), while it runs.
        self.emoji_sync: asyncio.Task[SyncReport] | None = None

    async def setup_hook(self) -> None:
        # a server's saved default rule options are checked by the engine's own table (SPEC O) when saved and read
        clock = self._clock or SystemClock()
        # an outage is logged once when it starts and once when it ends (issue 20, point 7)
        self.store = watch_outages(
            await open_store(self.settings.database, validate_options=Options.from_dict, clock=clock.now)
        )
        # this process's shards (SHARD_COUNT/SHARD_IDS): only their guilds' games are resumed and run here
        count = self.shard_count
        shards = None if count is None else Shards.of(count, self.shard_ids or range(count))
        self.manager = SessionManager(
            self.store,
            clock=clock,
            limits=self._limits,
            rng=self._rng,
            shards=shards,
            lease_ttl=self.settings.lease_seconds,
            slot=self.settings.process_slot,
        )
        await self.manager.start()
        leave_to_owner(self._connection.parsers, lambda: self.manager.standing_down)
        await self.load_extension("cogs.uno")
        await self.tree.set_translator(UnoTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        self.mentions.learn(synced)
        if self.settings.card_emojis:  # in the background: cards show their Unicode marks until it is done
            self.emoji_sync = asyncio.create_task(sync_card_emojis(self), name="uno-card-emojis")
        tune_gc()
        log.info("ready to play: %d live session(s)", len(self.manager.sessions))

    async def close(self) -> None:
        """Stop in an order that leaves nothing half done: the interactions being handled finish (at most
        :data:`HANDLER_DRAIN` s), then the sessions (the publisher's deliveries and their images), the database, the
        cogs (the image worker, once its images are drawn), and last the Discord connection and its HTTP session."""
        await self._finish_handlers()
        if self.emoji_sync is not None and not self.emoji_sync.done():
            self.emoji_sync.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.emoji_sync
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        await super().close()

    async def _finish_handlers(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HANDLER_DRAIN
        me = asyncio.current_task()
        while True:
            running = [
                task
                for task in asyncio.all_tasks()
                if task is not me and not task.done() and task.get_name().startswith(HANDLER_TASKS)
            ]
            left = deadline - loop.time()
            if not running or left <= 0:
                if running:
                    log.warning("stopping with %d interaction(s) still being handled", len(running))
                return
            await asyncio.wait(running, timeout=left)

    @property
    def database_down(self) -> bool:
        """Whether the database is unavailable right now: an outage began and has not ended
        (:class:`~bot.storage.OutageLog`; issue 20, point 7)."""
        outages = getattr(getattr(self, "store", None), "outages", None)
        return bool(outages is not None and outages.down)

    async def database_up(self, user_id: int) -> bool:
        """Whether the database can be used now. During an outage it is asked once more, so a database that just
        came back is seen at once, not at the next move: with a read (``user_id``'s preferences), or, when only writes
        failed (a full SQLite disk still answers reads), with the lease renewal (a write the bot makes every third of
        a lease anyway: :meth:`SessionManager.renew_now`)."""
        if not self.database_down:
            return True
        with contextlib.suppress(StorageUnavailable):
            self._prefs_cache[user_id] = await self.store.get_prefs(user_id)
        outages = getattr(self.store, "outages", None)
        if outages is not None and outages.writes_only:
            await self.manager.renew_now()  # its failure is the outage going on (logged once by the store)
        return not self.database_down

    async def guild_settings(self, guild_id: int | None, *, strict: bool = False) -> GuildSettings:
        """A server's settings (cached; :meth:`forget_settings` after a change). While the database is unavailable a
        server not cached yet reads as the defaults, not cached (issue 20, point 7: reads fall back to what is
        cached), so a hand, the rules or a language can still be shown; ``strict`` (``/uno settings`` showing them)
        raises :class:`~bot.storage.StorageUnavailable` instead."""
        if guild_id is None:
            return GuildSettings(0)
        cached = self._settings_cache.get(guild_id)
        if cached is None:
            try:
                cached = self._settings_cache[guild_id] = await self.store.get_settings(guild_id)
            except StorageUnavailable:
                if strict:
                    raise
                return GuildSettings(guild_id)
        return cached

    def remember_settings(self, settings: GuildSettings) -> None:
        """Cache a server's settings as just saved (``/uno settings``)."""
        self._settings_cache[settings.guild_id] = settings

    def forget_settings(self, guild_id: int) -> None:
        self._settings_cache.pop(guild_id, None)

    async def user_prefs(self, user_id: int | None, *, strict: bool = False) -> UserPrefs:
        """A user's own preferences (``/uno prefs``; cached, :meth:`forget_prefs` after a change); the defaults for
        an AI seat (``None``), and for a user not cached yet while the database is unavailable (``strict``, for
        ``/uno prefs`` showing them: :class:`~bot.storage.StorageUnavailable` instead)."""
        if user_id is None:
            return UserPrefs(0)
        cached = self._prefs_cache.get(user_id)
        if cached is None:
            try:
                cached = self._prefs_cache[user_id] = await self.store.get_prefs(user_id)
            except StorageUnavailable:
                if strict:
                    raise
                return UserPrefs(user_id)  # not cached: the defaults while the database is away (issue 20, point 7)
        return cached

    def remember_prefs(self, prefs: UserPrefs) -> None:
        """Cache a user's preferences as just saved (``/uno prefs``)."""
        self._prefs_cache[prefs.user_id] = prefs

    def forget_prefs(self, user_id: int) -> None:
        self._prefs_cache.pop(user_id, None)

    async def language(self, interaction: discord.Interaction[Any]) -> str:
        """The language for a reply to ``interaction``: the server's setting, else the user's locale, else English."""
        settings = await self.guild_settings(interaction.guild_id)
        return language_for(settings.language, str(interaction.locale))

    async def public_language(
        self, guild_id: int | None, guild_locale: str | None, host_locale: str | None = None
    ) -> str:
        """The language of a game's public messages: the server's ``language`` setting; else the server's locale,
        unless it is Discord's default (``en-US``, which most servers never change: an Italian server left at it got
        English tables while every hand was Italian, issue 18 point 5), then the host's Discord language
        (``host_locale``); else English. ``/uno settings`` says so and how to choose one."""
        settings = await self.guild_settings(guild_id)
        if settings.language is not None or (guild_locale and guild_locale != DEFAULT_GUILD_LOCALE):
            return language_for(settings.language, guild_locale)
        return language_for(None, host_locale or guild_locale)
