"""A thread per game (issue 10, point 2): with the server setting ``game_threads`` on, ``/uno new`` in a text channel
opens the game in a public thread of that channel, so a busy channel holds one line per game instead of its table,
pings and summaries.

A thread is a channel with an id of its own: the game is keyed by the thread's id like any other channel's (the
adapter knows nothing of threads), its clicks come from the thread and every public message of it (lobby, table,
turn pings, summaries, Play again) is posted there by the code that posts them in a channel. So is a game opened with
``/uno new`` run inside a thread (no thread is nested), and every game when the setting is off.

Opening one, in order (nothing is shown before it is committed):

1. every option of ``/uno new`` is checked as for a game in the channel (:meth:`SessionManager.check_lobby`): bad
   input is answered and creates nothing;
2. the bot's own permissions in the channel (:data:`THREAD_PERMISSIONS`); without them, or when the channel cannot
   have threads or creating one fails, the game is opened in the channel itself and the host is told why in one
   ephemeral line (their language);
3. the command is acknowledged publicly (deferred) and the thread created: public, named in the server's language
   (``thread.name``, at most :data:`THREAD_NAME_MAX` characters), archived after :data:`THREAD_ARCHIVE_MINUTES`
   without a message;
4. the lobby is opened keyed by the thread's id and saved, then posted into the thread (its message id saved);
5. the host is added to the thread; the deferred answer in the channel becomes a short public line that links it,
   and the line's channel and message ids (and the host's name as shown on it) are saved in the session's ``ui``
   (``link_channel``, ``link_message``: ints; ``link_host``: markdown escaped).

When the game closes or its match is over (:func:`mark_over`, from the publisher on ``FINISHED`` and ``CLOSED``:
a match won, ``/uno end``, an idle close, the thread deleted) that line is edited to say the game is over, and who
won a completed match, so that nobody is sent to a game that is over. A rematch by **Play again** is a new game for
the players in the thread: its session keeps only the language, and the line stays as its own game left it.

If opening the lobby fails once the thread exists, the thread is deleted (archived, without Manage Threads) and the
host gets the error ephemerally.
Players who join from the thread (the lobby's **Join** or ``/uno join``) are added to it, so that it stays in their
channel list and they can find their way back (:func:`follow`); the turn pings mention them there anyway.

A game's thread can be archived under it: by Discord after :data:`THREAD_ARCHIVE_MINUTES` without a message (the
bot was away that long), or by a moderator's "Close Thread". Discord then refuses every edit of a message in it
(``400``, :data:`THREAD_ARCHIVED`) until the thread is unarchived, which a message sent in it also does (Discord's
threads topic, "Active & Archived Threads"). The publisher unarchives it before it edits the table again
(:func:`reopen`); a thread a moderator locked stays as they left it.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.adapter import AdapterError
from bot.engine.errors import RuleError
from bot.i18n import t, tn

from .. import screens
from ..screens.text import shown_name
from .replies import error_text, send_ephemeral

if TYPE_CHECKING:
    from discord.types.threads import ThreadArchiveDuration

    from bot.adapter import SessionView
    from bot.client import UnoBot

log = logging.getLogger(__name__)
Interaction = discord.Interaction["UnoBot"]
#: ``open_lobby(channel_id)``: open the checked lobby in that channel (raises the adapter's and the engine's errors).
OpenLobby = Callable[[int], Awaitable[Any]]

#: How long a game thread stays active without a message before Discord archives it (minutes; Discord accepts 60,
#: 1440, 4320 or 10080). A day outlasts every game: idle lobbies and games close long before (adapter Limits).
THREAD_ARCHIVE_MINUTES: ThreadArchiveDuration = 1440
#: Discord's limit for a channel's (and a thread's) name, in characters.
THREAD_NAME_MAX = 100
#: Discord's error code for a change to an archived thread ("Thread is archived"), e.g. editing a message in it.
THREAD_ARCHIVED = 50083
#: What the bot needs in a channel to open a game in a thread of it, and the catalogue key of each permission's name.
THREAD_PERMISSIONS = {
    "create_public_threads": "perm.create_public_threads",
    "send_messages_in_threads": "perm.send_messages_in_threads",
}


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The names of :data:`THREAD_PERMISSIONS` that ``permissions`` (the bot's in a channel) lack, in order."""
    return [name for name in THREAD_PERMISSIONS if not getattr(permissions, name)]


def thread_name(game: str, host: str, lang: str) -> str:
    """A game thread's name, e.g. ``UNO FLIP · Alice`` (``game``: the game's shown name), cut to Discord's limit."""
    return t("thread.name", lang, game=game, host=host)[:THREAD_NAME_MAX]


def fallback_note(missing: list[str], lang: str) -> str:
    """Why a game the server wants in a thread is played in the channel: the ``missing`` permissions (names of
    :data:`THREAD_PERMISSIONS`) or, with none missing, that no thread could be opened here."""
    if not missing:
        return t("thread.failed", lang)
    names = ", ".join(t(THREAD_PERMISSIONS[name], lang) for name in missing)
    return tn("thread.no_permission", len(missing), lang, permissions=names)


async def follow(channel: object, user: discord.abc.Snowflake) -> None:
    """Add ``user`` to ``channel`` when it is a thread (they joined its game), so that it is in their channel list;
    a failure (no permission, thread archived) changes nothing and is only logged."""
    if not isinstance(channel, discord.Thread):
        return
    try:
        await channel.add_user(user)
    except discord.HTTPException as exc:
        log.info("could not add user %s to thread %s: %s", user.id, channel.id, exc)


async def reopen(bot: discord.Client, channel_id: int) -> bool:
    """Unarchive the thread ``channel_id`` after Discord refused a change to it as archived (:data:`THREAD_ARCHIVED`),
    so that its game's messages can be edited again. Discord allows it to a member of the thread who may send
    messages in it (the bot started the thread, or has posted in it), unless a moderator locked it: a locked thread,
    a channel that is no thread, or a failure (only logged) leaves it as it is. Returns whether it is active now."""
    try:
        thread = await bot.fetch_channel(channel_id)  # the cache has no archived thread: discord.py drops them
        if not isinstance(thread, discord.Thread) or thread.locked:
            return False
        if thread.archived:
            await thread.edit(archived=False)
    except discord.HTTPException as exc:
        log.warning("could not unarchive the game thread %s: %s", channel_id, exc)
        return False
    return True


def over_text(session: SessionView, lang: str) -> str:
    """The channel's line about the game of ``session`` once it is over: ``Alice's UNO FLIP game in <#…> is over.``,
    with the winner of a completed match (SPEC G9) ``… is over: Bob won the match.``"""
    values = {
        "host": session.ui.link_host,
        "game": screens.game_name(session.mode, lang),
        "thread": f"<#{session.channel_id}>",
    }
    result = session.result
    if result is not None and result.completed and result.winner is not None:
        return t("thread.over_won", lang, winner=screens.player_name(session, result.winner, lang), **values)
    return t("thread.over", lang, **values)


async def mark_over(bot: discord.Client, session: SessionView) -> None:
    """Edit the channel's line about the game of ``session`` (its ``ui`` ``link_channel``, ``link_message`` and
    ``link_host``, saved when it was opened in a thread) to say that it is over (:func:`over_text`, in the session's
    language): a plain message edit that mentions nobody, as the interaction that posted it expired long ago.
    Nothing for a game not opened in a thread; a failure (the line or its channel deleted, no permission) changes
    nothing and is only logged."""
    channel_id, message_id = session.ui.link_channel, session.ui.link_message
    if channel_id is None or message_id is None:
        return
    text = over_text(session, session.ui.lang)
    channel = bot.get_partial_messageable(channel_id, guild_id=session.guild_id)
    try:
        await channel.get_partial_message(message_id).edit(
            content=text, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as exc:
        log.info("could not mark the game line %s in channel %s as over: %s", message_id, channel_id, exc)


async def private_answer(interaction: Interaction, text: str) -> None:
    """Answer a command that was deferred publicly with an ephemeral line only its user sees: the public "thinking"
    answer is deleted first (the first followup of a deferred answer would fill it, public)."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await send_ephemeral(interaction, text)


class GameThreads:
    """Opens a game in a thread of its own (the module's steps 2–5); ``await threads.open(...)``.
    ``repaint_later(channel_id)``: bring a channel's public message up to date shortly (the publisher's
    :meth:`~cogs.uno.output.publisher.Publisher.repaint_later`), for a lobby whose post failed."""

    def __init__(self, bot: UnoBot, repaint_later: Callable[[int], None]) -> None:
        self.bot = bot
        self.repaint_later = repaint_later

    async def open(
        self, interaction: Interaction, open_lobby: OpenLobby, *, game: str, host: str, public_lang: str, lang: str
    ) -> str | None:
        """Open the game of ``/uno new`` (its options checked already) in a new thread of the interaction's channel
        and answer the command. Returns None once answered (opened, or an error told), else the ephemeral note
        for the host on why the game is to be played in the channel instead (nothing was created, nothing answered;
        the command may have been deferred). ``game``: the game's shown name, ``host``: the host's display name."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return fallback_note([], lang)  # a voice channel's chat, a stage…: no threads there
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            return fallback_note(missing, lang)
        await interaction.response.defer(thinking=True)  # creating the thread may take a while: acknowledge first
        kind = discord.ChannelType.news_thread if channel.is_news() else discord.ChannelType.public_thread
        try:
            thread = await channel.create_thread(
                name=thread_name(game, host, public_lang),
                type=kind,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                reason=f"UNO game opened by {interaction.user.id}",
            )
        except discord.HTTPException as exc:
            log.warning("could not open a game thread in channel %s: %s", channel.id, exc)
            return fallback_note([], lang)
        try:
            await open_lobby(thread.id)
        except (AdapterError, RuleError) as exc:
            await self.drop(thread)
            await private_answer(interaction, error_text(exc, lang, self.bot.mentions))
            return None
        except BaseException:
            await self.drop(thread)
            raise
        await self.post_lobby(thread, public_lang)
        await follow(thread, interaction.user)
        shown = shown_name(host)
        text = t("thread.opened", public_lang, host=shown, game=game, thread=thread.mention)
        line = await interaction.edit_original_response(content=text, allowed_mentions=discord.AllowedMentions.none())
        with contextlib.suppress(AdapterError):  # the game may be gone already: nothing to mark later then
            await self.bot.manager.update_ui(
                thread.id, lambda ui: replace(ui, link_channel=channel.id, link_message=line.id, link_host=shown)
            )
        return None

    async def post_lobby(self, thread: discord.Thread, lang: str) -> None:
        """Post the lobby just opened in ``thread`` there and remember its message (every later update edits it).
        A failed post is left to the publisher's repaint, which finds the lobby or posts it anew."""
        session = self.bot.manager.snapshot(thread.id)
        if session is None:
            return
        level = (await self.bot.guild_settings(session.guild_id)).ai_level
        with screens.lobby_screen(session, lang, level) as screen:
            try:
                message = await thread.send(**screen.send_kwargs(), allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.warning("could not post the lobby in thread %s: %s", thread.id, exc)
                self.repaint_later(thread.id)
                return
        with contextlib.suppress(AdapterError):
            await self.bot.manager.update_ui(thread.id, lambda ui: replace(ui, message=message.id))

    @staticmethod
    async def drop(thread: discord.Thread) -> None:
        """Delete a thread whose game could not be opened; without Manage Threads (deleting needs it, the invite
        does not ask for it) archive it instead, as its owner may. A failure of both is only logged."""
        try:
            await thread.delete()
            return
        except discord.HTTPException as exc:
            log.info("could not delete the unused thread %s (%s): archiving it", thread.id, exc)
        try:
            await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("could not delete or archive the unused thread %s: %s", thread.id, exc)


async def no_game_text(bot: UnoBot, interaction: Interaction, error: Exception, lang: str) -> str:
    """The text of ``error`` for ``interaction``; "no game in this channel" says where the games are when the server
    plays them in threads of their own and the interaction is not in a thread."""
    if getattr(error, "code", None) == "no_game" and not isinstance(interaction.channel, discord.Thread):
        settings = await bot.guild_settings(interaction.guild_id)
        if settings.game_threads:
            return t("thread.no_game", lang, command=bot.mentions.of("uno new"))
    return error_text(error, lang, bot.mentions)


__all__ = [
    "THREAD_ARCHIVED",
    "THREAD_ARCHIVE_MINUTES",
    "THREAD_NAME_MAX",
    "THREAD_PERMISSIONS",
    "GameThreads",
    "fallback_note",
    "follow",
    "mark_over",
    "missing_permissions",
    "no_game_text",
    "over_text",
    "private_answer",
    "reopen",
    "thread_name",
]
