"""Turn pings: Discord notifies nobody of an edited message, so when a human's decision comes the bot sends a short
new message that mentions only that player, and deletes it when the decision passes on. A channel holds at most one
such message per game; an AI's turn never pings; a server may turn pings off (issue 10, point 1).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.i18n import t

if TYPE_CHECKING:
    from bot.client import UnoBot

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose decision a ping is for: the ``user`` at ``seat`` in ``round`` (the same player keeps one ping while
    they draw and then play or keep)."""

    user: int
    seat: int
    round: int


@dataclass(frozen=True, slots=True)
class Ping:
    """A ping message standing in a channel, and the turn it is for."""

    message_id: int
    turn: Turn


def ping_mentions(user_id: int) -> discord.AllowedMentions:
    """What a ping may notify: that one user, nobody else, no role, not @everyone."""
    return discord.AllowedMentions(everyone=False, users=[discord.Object(user_id)], roles=False, replied_user=False)


class TurnPings:
    """``await pings.show(channel, guild, turn, lang)`` at every committed change; ``turn`` None once no human's
    decision is pending (an AI's turn, a round or match over)."""

    def __init__(self, bot: UnoBot) -> None:
        self.bot = bot
        self._standing: dict[int, Ping] = {}

    def standing(self, channel_id: int) -> Ping | None:
        """The ping standing in ``channel_id``, if any."""
        return self._standing.get(channel_id)

    def adopt(self, channel_id: int, message_id: int) -> None:
        """A ping left by an earlier run (its id saved with the session): deleted at the next :meth:`show`."""
        if channel_id not in self._standing:
            self._standing[channel_id] = Ping(message_id, Turn(0, -1, -1))

    async def show(
        self,
        channel_id: int,
        guild_id: int,
        turn: Turn | None,
        lang: str,
        *,
        enabled: bool = True,
        reopen: bool = False,
    ) -> Ping | None:
        """Make the channel's ping match ``turn``: nothing when it is for that turn already; otherwise delete the
        standing one and, when ``turn`` is a human's and pings are ``enabled``, send a new one; with ``reopen`` (their
        open hand can no longer be updated: issue 20, point 5) it tells them to press Show my hand. Returns the ping
        standing afterwards."""
        current = self._standing.get(channel_id)
        if current is not None and turn is not None and current.turn == turn and enabled:
            return current
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        if current is not None:
            self._standing.pop(channel_id, None)
            await self._delete(channel, current.message_id)
        if turn is None or not enabled:
            return None
        key = "table.ping_reopen" if reopen else "table.ping"
        message = await channel.send(t(key, lang, player=f"<@{turn.user}>"), allowed_mentions=ping_mentions(turn.user))
        ping = self._standing[channel_id] = Ping(message.id, turn)
        return ping

    def forget(self, channel_id: int) -> None:
        """Forget the channel's ping without deleting it (the channel is gone)."""
        self._standing.pop(channel_id, None)

    async def clear(self, channel_id: int, guild_id: int) -> None:
        """Delete the channel's ping (the game is over or gone)."""
        await self.show(channel_id, guild_id, None, "en")

    async def _delete(self, channel: discord.PartialMessageable, message_id: int) -> None:
        with contextlib.suppress(discord.NotFound):
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException:
                log.warning("could not delete the turn ping %s in channel %s", message_id, channel.id)


__all__ = ["Ping", "Turn", "TurnPings", "ping_mentions"]
