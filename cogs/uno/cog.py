"""The cog that wires the Discord layer together (DESIGN "Discord layer"): it builds the collaborators of each side,
each given what it uses — the input side's click handlers (:mod:`cogs.uno.input.clicks`) and default-rules panel
(:mod:`cogs.uno.input.defaults`), the output side's card images (:mod:`cogs.uno.output.images`), ephemeral hands
(:mod:`cogs.uno.output.hands`), public messages (:mod:`cogs.uno.output.publisher`) and game threads
(:mod:`cogs.uno.output.threads`) — subscribes the publisher to the adapter, answers failed commands
(:mod:`cogs.uno.output.replies`) and listens to Discord's events. The ``/uno`` slash commands are
:class:`~cogs.uno.input.commands.Commands`'s; the persistent components are :mod:`cogs.uno.screens.components`'s.
Every interaction is answered once and quickly; errors are answered ephemerally in the user's language, unexpected
ones logged with their traceback.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t

from .input.choices import localised as _l
from .input.clicks import Clicks
from .input.commands import Commands
from .input.defaults import DefaultsPanel
from .input.rule_options import HOUSE_NAMES
from .output.hands import HAND_REFRESH_WINDOW, Hands
from .output.images import DRAWING_CONCURRENCY, DRAWING_DRAIN, Images
from .output.publisher import Publisher
from .output.replies import command_error
from .output.threads import GameThreads
from .screens.components import DYNAMIC_ITEMS, Handlers
from .screens.layout import walk_components

if TYPE_CHECKING:
    from bot.client import UnoBot

Interaction = discord.Interaction["UnoBot"]


@app_commands.guild_only()
class UnoCog(
    Commands,
    commands.GroupCog,
    name="Uno",
    group_name=_l("uno", "cmd.uno.name"),
    group_description=_l("Play UNO, UNO FLIP and UNO Flex! in this channel", "cmd.uno.desc"),
):
    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self.images = Images(bot)
        self.hands = Hands(self.images, round_pause=bot.manager.limits.round_pause)
        self.clicks = Clicks(bot, self.images, self.hands)
        self.defaults = DefaultsPanel(bot, self.clicks.error)  # the server's default rules (/uno settings)
        self.publisher = Publisher(bot, self.images, self.hands)
        self.threads = GameThreads(bot, self.publisher.repaint_later)
        self._tree_error = bot.tree.on_error  # the tree's own error handler: given back when the cog is unloaded
        bot.manager.subscribe(self.publisher.on_update)
        bot.manager.set_log_writer(self.publisher.log_lines)
        super().__init__()

    async def cog_load(self) -> None:
        """Answer the failed slash commands (:func:`~cogs.uno.output.replies.command_error` as the command tree's error
        handler); bring every resumed session's public messages up to their committed state
        (:meth:`Publisher.repaint`); listen for the end of database outages (:meth:`Publisher.database_back`)."""
        self.bot.tree.error(command_error)
        self.bot.manager.republish()
        outages = getattr(self.bot.store, "outages", None)
        if outages is not None:
            outages.listeners.append(self.publisher.database_back)

    async def cog_unload(self) -> None:
        """Give the command tree its error handler back; let the images being drawn finish, then stop the image
        worker (:meth:`Images.close`)."""
        self.bot.tree.on_error = self._tree_error  # type: ignore[method-assign]
        self.bot.manager.set_log_writer(None)  # this cog's publisher writes no more lines
        outages = getattr(self.bot.store, "outages", None)
        if outages is not None and self.publisher.database_back in outages.listeners:
            outages.listeners.remove(self.publisher.database_back)
        self.publisher.close()
        await self.images.close()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        self.publisher.on_message(message)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread deleted (alone, or with its channel: discord.py tells each thread it knew of): its game
        ends (:meth:`Publisher.channel_gone`)."""
        await self.publisher.channel_gone(payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted: its game ends (:meth:`Publisher.channel_gone`)."""
        await self.publisher.channel_gone(channel.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Answer the component clicks (and modal submits) that nothing in discord.py would answer, so the user never
        sees "This interaction failed": a custom_id that is none of the bot's (forged, or of another app's message:
        ``error.unknown_component``), and a click on a component that vanished as it was clicked (the message was just
        updated: ``hand.changed``)."""
        kinds = (discord.InteractionType.component, discord.InteractionType.modal_submit)
        if interaction.type not in kinds:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        kind = data.get("component_type")
        if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS):
            key = "error.unknown_component"  # none of the bot's templates: discord.py drops it
        elif interaction.message is None:
            return
        else:
            present = {
                (getattr(getattr(child, "type", None), "value", None), getattr(child, "custom_id", None))
                for child in walk_components(interaction.message.components)
            }
            if (kind, custom_id) in present:
                return  # discord.py routes it to its DynamicItem, which answers
            key = "hand.changed"
        if not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(t(key, await self.lang(interaction)), ephemeral=True)


if TYPE_CHECKING:

    def _handles_the_components(cog: UnoCog) -> Handlers:
        """mypy checks here that the cog is what the persistent components call
        (:class:`cogs.uno.screens.components.Handlers`)."""
        return cog


__all__ = ["DRAWING_CONCURRENCY", "DRAWING_DRAIN", "HAND_REFRESH_WINDOW", "HOUSE_NAMES", "UnoCog"]
