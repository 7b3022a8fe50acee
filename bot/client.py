"""The Discord client: start-up order, error handling, shutdown (DESIGN "Discord layer").

``setup_hook`` runs, in order: open the database (migrations applied), resume live games, load the cogs, register the
persistent buttons, sync the slash commands (to ``DEV_GUILD_ID`` when set). No privileged intents are needed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import AdapterError, SessionManager
from bot.adapter.clock import Clock
from bot.adapter.manager import Limits
from bot.adapter.runtime import tune_gc
from bot.config import Settings
from bot.engine.errors import RuleError
from bot.i18n import language_for, t
from bot.i18n.translator import UnoTranslator
from bot.storage import GuildSettings, Store, open_store

log = logging.getLogger(__name__)


class UnoTree(app_commands.CommandTree["UnoBot"]):
    """Answers every failed command ephemerally in the user's language and logs unexpected errors with their
    traceback; nothing crashes the bot."""

    async def on_error(self, interaction: discord.Interaction[UnoBot], error: app_commands.AppCommandError) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        lang = await interaction.client.language(interaction)
        if isinstance(original, RuleError | AdapterError):
            text = error_text(original, lang)
        elif isinstance(original, app_commands.MissingPermissions | app_commands.CheckFailure):
            text = t("error.no_permission", lang)
        else:
            log.error(
                "command %s failed", interaction.command and interaction.command.qualified_name, exc_info=original
            )
            text = t("error.unexpected", lang)
        await send_ephemeral(interaction, text)


#: How texts name the command that opens a game: a clickable ``</uno new:id>`` once the commands are synced (Discord
#: shows it in each reader's own language), plain ``/uno new`` before.
COMMANDS = {"new": "/uno new"}


def error_text(error: Exception, lang: str) -> str:
    """The catalogue text of an engine or adapter error (``error.<code>``), else a generic one."""
    code = getattr(error, "code", None)
    key = f"error.{code}"
    try:
        details = getattr(error, "details", {}) or {}
        return t(key, lang, command=COMMANDS["new"], **details)
    except KeyError:
        return t("error.not_possible", lang)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``interaction`` with an ephemeral line, whether or not it was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error message for interaction %s", interaction.id)


class UnoBot(commands.Bot):
    """The UNO bot. ``bot.store`` (SQLite or PostgreSQL) and ``bot.manager`` (live sessions) exist after setup_hook."""

    store: Store
    manager: SessionManager

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        limits: Limits | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        intents.members = False
        intents.presences = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=UnoTree,
            help_command=None,
            **options,
        )
        self.settings = settings
        self._clock = clock
        self._limits = limits
        self._settings_cache: dict[int, GuildSettings] = {}

    async def setup_hook(self) -> None:
        self.store = await open_store(self.settings.database)
        self.manager = SessionManager(self.store, clock=self._clock, limits=self._limits)
        await self.manager.start()
        await self.load_extension("cogs.uno")
        await self.tree.set_translator(UnoTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        for command in synced:
            if command.name == "uno":
                COMMANDS["new"] = f"</uno new:{command.id}>"
        tune_gc()
        log.info("ready to play: %d live session(s)", len(self.manager.sessions))

    async def close(self) -> None:
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
        await super().close()

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """A server's settings (cached; :meth:`forget_settings` after a change)."""
        if guild_id is None:
            return GuildSettings(0)
        cached = self._settings_cache.get(guild_id)
        if cached is None:
            cached = self._settings_cache[guild_id] = await self.store.get_settings(guild_id)
        return cached

    def forget_settings(self, guild_id: int) -> None:
        self._settings_cache.pop(guild_id, None)

    async def language(self, interaction: discord.Interaction[Any]) -> str:
        """The language for a reply to ``interaction``: the server's setting, else the user's locale, else English."""
        settings = await self.guild_settings(interaction.guild_id)
        return language_for(settings.language, str(interaction.locale))

    async def public_language(self, guild_id: int | None, guild_locale: str | None) -> str:
        """The language of public messages: the server's setting, else the server's locale, else English."""
        settings = await self.guild_settings(guild_id)
        return language_for(settings.language, guild_locale)
