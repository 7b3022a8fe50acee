"""Replies and errors: how a refused or failed interaction is answered (DESIGN "Discord layer").

Every refused request gets a short ephemeral line in the user's language (``error.<code>`` of the catalogue);
unexpected errors are logged with their traceback and answered with a generic line, so nothing shows "This interaction
failed" and nothing crashes the bot. :func:`command_error` does this for slash commands (the cog makes it the command
tree's error handler), :func:`answered` for components.

A database outage (:func:`storage_outage`) is not unexpected: every command and click it reaches is answered with the
one ``error.storage_unavailable`` line ("nothing was lost, try again shortly") and logs nothing here; the store logs
the outage once when it starts and once when it ends (:func:`bot.storage.watch_outages`, issue 20, point 7).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, Protocol, TypeVar

import discord
from discord import app_commands

from bot.adapter import AdapterError
from bot.adapter.refusals import BadRequest, NotSeated, StorageDown
from bot.engine.errors import RuleError
from bot.i18n import t
from bot.storage import StorageUnavailable

if TYPE_CHECKING:
    from bot.client import CommandMentions, UnoBot

log = logging.getLogger(__name__)


def storage_outage(error: BaseException) -> bool:
    """Whether ``error`` means the database is unavailable right now: the store's
    :class:`~bot.storage.StorageUnavailable` (a read or write that failed) or the adapter's
    :class:`~bot.adapter.refusals.StorageDown` (a change that was not saved). Nothing was lost either way: the game is
    as last committed (issue 20, point 7)."""
    return isinstance(error, StorageUnavailable | StorageDown)


def error_text(error: Exception, lang: str, mentions: CommandMentions) -> str:
    """The catalogue text of an engine or adapter error (``error.<code>``), the one "database unavailable" line for
    a :func:`storage_outage`, else a generic one. ``mentions`` name the command that opens a game where a text
    points to it (the bot's :attr:`~bot.client.UnoBot.mentions`)."""
    code = StorageDown.code if storage_outage(error) else getattr(error, "code", None)
    key = f"error.{code}"
    try:
        details = getattr(error, "details", {}) or {}
        return t(key, lang, command=mentions.of("uno new"), **details)
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


def bad_request() -> AdapterError:
    """The error for a malformed or forged request (``error.bad_request``)."""
    return BadRequest("bad request")


def not_seated() -> AdapterError:
    return NotSeated("not in this game")


def channel_of(interaction: discord.Interaction[Any]) -> int:
    """The channel an interaction comes from; :func:`bad_request` when it has none."""
    if interaction.channel_id is None:
        raise bad_request()
    return interaction.channel_id


def guild_of(interaction: discord.Interaction[Any]) -> int:
    """The server an interaction comes from (the ``/uno`` commands are server-only); :func:`bad_request` outside one."""
    if interaction.guild_id is None:
        raise bad_request()
    return interaction.guild_id


class _Speaks(Protocol):
    async def lang(self, interaction: discord.Interaction[UnoBot]) -> str: ...


S = TypeVar("S", bound=_Speaks)
P = ParamSpec("P")
Handler = Callable[Concatenate[S, "discord.Interaction[UnoBot]", P], Coroutine[Any, Any, None]]


def foreign_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    """Whether ``interaction`` is a click on an ephemeral message answering another user's interaction (Discord's
    ``message.interaction_metadata.user``): only its owner may use it (issue 20, point 8: a forged click on someone
    else's hand would otherwise turn it into the clicker's)."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    meta = message.interaction_metadata
    return meta is not None and meta.user.id != interaction.user.id


def answered(handler: Handler[S, P]) -> Handler[S, P]:
    """Wrap a component handler: a click on another user's ephemeral message is refused (:func:`foreign_ephemeral`,
    ``error.not_yours``) before the handler runs; a database outage is answered with its one line
    (:func:`storage_outage`); any other unexpected error is logged with its traceback and answered ephemerally, so the
    user never sees "This interaction failed"."""

    @functools.wraps(handler)
    async def wrapper(self: S, interaction: discord.Interaction[UnoBot], *args: P.args, **kwargs: P.kwargs) -> None:
        if foreign_ephemeral(interaction):
            await send_ephemeral(interaction, t("error.not_yours", await self.lang(interaction)))
            return
        try:
            await handler(self, interaction, *args, **kwargs)
        except Exception as exc:
            if storage_outage(exc):  # logged once per outage by the store, not once per click
                text = error_text(exc, await self.lang(interaction), interaction.client.mentions)
                await send_ephemeral(interaction, text)
                return
            log.exception("handling %s failed", getattr(handler, "__name__", "a component"))
            await send_ephemeral(interaction, t("error.unexpected", await self.lang(interaction)))

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps the signature


async def command_error(interaction: discord.Interaction[UnoBot], error: app_commands.AppCommandError) -> None:
    """The command tree's error handler (:meth:`~discord.app_commands.CommandTree.on_error`, set by the cog while it
    is loaded): answers every failed command ephemerally in the user's language and logs unexpected errors with their
    traceback; nothing crashes the bot."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    lang = await interaction.client.language(interaction)
    if isinstance(original, RuleError | AdapterError) or storage_outage(original):
        text = error_text(original, lang, interaction.client.mentions)
    elif isinstance(original, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = t("error.no_permission", lang)
    else:
        log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=original)
        text = t("error.unexpected", lang)
    await send_ephemeral(interaction, text)


__all__ = [
    "answered",
    "bad_request",
    "channel_of",
    "command_error",
    "error_text",
    "foreign_ephemeral",
    "guild_of",
    "not_seated",
    "send_ephemeral",
    "storage_outage",
]
