"""Turn pings: Discord notifies nobody of an edited message, so when a human's decision comes the bot sends a short
new message that mentions only that player, and deletes it when the decision passes on. A channel holds at most one
such message per game; an AI's turn never pings; a server may turn pings off (issue 10, point 1).

Within Discord's limits (issue 20, point 3): each channel has one ping worker that sends only the newest turn's ping
(a ping for a turn that has already passed is never sent: it waits for room in the channel's bucket *before* it reads
which turn to ping); the old ping is deleted in a task of its own, after the new one is sent, so it never delays it;
a ping is deleted once at most. The id of the ping standing in the channel is committed with the session right after
it is sent (and its absence once it is deleted), so that a restart deletes the ping that stands, not an older one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.pacing import GlobalLimit, Spacing, delete_route, send_route

if TYPE_CHECKING:
    from bot.adapter import SessionView

log = logging.getLogger(__name__)

#: How many deleted ping ids each process remembers (a ping is never deleted twice).
DELETED_REMEMBERED = 4096


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


@dataclass(frozen=True, slots=True)
class Wish:
    """The ping a channel should have now: for ``turn`` (None: none), in ``lang``, of the committed ``session``."""

    session: SessionView
    turn: Turn | None
    lang: str
    reopen: bool = False


Spawn = Callable[[Coroutine[Any, Any, Any], str], "asyncio.Task[Any]"]
Keep = Callable[["SessionView", "int | None"], Awaitable[None]]


def _spawn(work: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
    return asyncio.get_running_loop().create_task(work, name=name)


async def _keep(session: SessionView, message_id: int | None) -> None:
    return None


class TurnPings:
    """``pings.want(session, turn, lang)`` at every committed change (``turn`` None once no human's decision is
    pending: an AI's turn, a round or match over, pings turned off); the channel's ping worker does the rest.

    ``spawn(work, name)`` runs the worker and the deletes (the bot's tracked delivery tasks); ``keep(session, id)``
    commits the id of the ping standing in the channel (None: none) with the session; ``spacing`` and ``limit``
    pace the requests within the channel's buckets and the global limit (:mod:`bot.pacing`)."""

    def __init__(
        self,
        client: discord.Client,
        *,
        spawn: Spawn = _spawn,
        keep: Keep = _keep,
        spacing: Spacing | None = None,
        limit: GlobalLimit | None = None,
    ) -> None:
        self.client = client
        self._spawn = spawn
        self._keep = keep
        self.spacing = spacing or Spacing(None)
        self.limit = limit
        self._standing: dict[int, Ping] = {}
        self._wishes: dict[int, Wish] = {}
        self._workers: dict[int, asyncio.Task[Any]] = {}
        self._deleted: OrderedDict[int, None] = OrderedDict()
        #: Pings sent, deleted, and never sent because their turn passed first (for tests and benchmarks).
        self.sent = 0
        self.deletes = 0
        self.skipped = 0

    def standing(self, channel_id: int) -> Ping | None:
        """The ping standing in ``channel_id``, if any."""
        return self._standing.get(channel_id)

    def adopt(self, channel_id: int, message_id: int) -> None:
        """A ping left by an earlier run (its id committed with the session): deleted when the next ping is sent,
        or when no ping is wanted."""
        if channel_id not in self._standing and message_id not in self._deleted:
            self._standing[channel_id] = Ping(message_id, Turn(0, -1, -1))

    def want(
        self, session: SessionView, turn: Turn | None, lang: str, *, enabled: bool = True, reopen: bool = False
    ) -> None:
        """Make the channel's ping match ``turn`` (None, or pings not ``enabled``: no ping), soon: the newest wish
        replaces one not acted on yet. With ``reopen`` (the player's open hand can no longer be updated: issue 20,
        point 5) the ping tells them to press Show my hand."""
        channel_id = session.channel_id
        self._wishes[channel_id] = Wish(session, turn if enabled else None, lang, reopen)
        worker = self._workers.get(channel_id)
        if worker is None or worker.done():
            self._workers[channel_id] = self._spawn(self._work(channel_id), f"uno-adapter-ping-{channel_id}")

    def forget(self, channel_id: int) -> None:
        """Forget the channel's ping without deleting it (the channel is gone)."""
        self._standing.pop(channel_id, None)
        self._wishes.pop(channel_id, None)

    def clear(self, session: SessionView) -> None:
        """Delete the channel's ping (the game is over or gone)."""
        self.want(session, None, "en")

    async def _work(self, channel_id: int) -> None:
        """Bring the channel's ping to the newest wish, and on to each newer one, then end."""
        while (wish := self._wishes.get(channel_id)) is not None:
            current = self._standing.get(channel_id)
            target = wish.turn
            if (current.turn if current is not None else None) == target:
                del self._wishes[channel_id]
                return
            session = wish.session
            channel = self.client.get_partial_messageable(channel_id, guild_id=session.guild_id)
            if target is None:
                assert current is not None
                del self._standing[channel_id]
                self._delete_later(channel, current.message_id)
                await self._keep(session, None)
                continue
            route = send_route(channel_id)
            await self.spacing.wait(route, self.limit, note=False)
            wish = self._wishes.get(channel_id)
            if wish is None or wish.turn != target:
                self.skipped += 1  # its turn passed while the channel's bucket was full: never sent (nor counted)
                continue
            self.spacing.sent(route)
            try:
                key = "table.ping_reopen" if wish.reopen else "table.ping"
                message = await channel.send(
                    t(key, wish.lang, player=f"<@{target.user}>"), allowed_mentions=ping_mentions(target.user)
                )
            except discord.HTTPException as exc:
                log.warning("could not send the turn ping in channel %s: %s", channel_id, exc)
                if self._wishes.get(channel_id) is wish:
                    del self._wishes[channel_id]
                return
            self.sent += 1
            current = self._standing.get(channel_id)
            self._standing[channel_id] = Ping(message.id, target)
            if current is not None:
                self._delete_later(channel, current.message_id)
            await self._keep(wish.session, message.id)

    def _delete_later(self, channel: discord.PartialMessageable, message_id: int) -> None:
        """Delete a ping in a task of its own (it never delays the next ping), once."""
        if message_id in self._deleted:
            return
        self._deleted[message_id] = None
        while len(self._deleted) > DELETED_REMEMBERED:
            self._deleted.popitem(last=False)
        self._spawn(self._delete(channel, message_id), f"uno-adapter-unping-{channel.id}")

    async def _delete(self, channel: discord.PartialMessageable, message_id: int) -> None:
        await self.spacing.wait(delete_route(channel.id, message_id), self.limit)
        self.deletes += 1
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            log.info("the turn ping %s in channel %s was deleted already", message_id, channel.id)
        except discord.HTTPException:
            log.warning("could not delete the turn ping %s in channel %s", message_id, channel.id)


__all__ = ["DELETED_REMEMBERED", "Ping", "Turn", "TurnPings", "Wish", "ping_mentions"]
