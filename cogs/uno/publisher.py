"""The publisher: after each committed change it brings the channel's public message (lobby, table, closed game),
the round and match summaries and the open hand of the player whose decision is pending up to date
(DESIGN "Discord layer").

It renders only what the update carries: the session as committed by that change
(:class:`~bot.adapter.SessionView`), never the live game, so a move still being saved is never shown.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import discord

from bot.adapter import SessionView, Status, Update, UpdateKind
from bot.engine.events import RoundEnded

from . import screens
from .hands import Hands
from .images import Images
from .screens import Screen
from .text import event_lines

if TYPE_CHECKING:
    from bot.client import UnoBot

#: How many lines of the moves log the table keeps.
LOG_LINES = 8


class Publisher:
    """``await publisher.on_update(update)`` for every :class:`~bot.adapter.Update`, in order per session."""

    def __init__(self, bot: UnoBot, images: Images, hands: Hands) -> None:
        self.bot = bot
        self.images = images
        self.hands = hands
        self.logs: dict[int, deque[str]] = {}

    async def on_update(self, update: Update) -> None:
        """Bring the public messages (and the hand of the player whose turn it is) up to date after ``update``."""
        session = update.view
        lang = str(session.ui.get("lang", "en"))
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        kind = update.kind
        log_lines = self.logs.setdefault(session.channel_id, deque(maxlen=LOG_LINES))

        def name(seat: int) -> str:
            return screens.player_name(session, seat, lang)

        if session.public is not None and update.events:
            log_lines.extend(event_lines(update.events, name, lang))
        if kind is UpdateKind.LOBBY:
            if self._message_id(session) is not None:  # the first lobby message is the answer to the command
                await self.edit_public(session, screens.lobby_screen(session, lang))
        elif kind is UpdateKind.CLOSED:
            await self.edit_public(session, screens.closed_screen(session, lang, update.reason or ""))
            self.logs.pop(session.channel_id, None)
            if session.public is not None and session.result is not None:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
        elif session.public is not None:
            if kind is UpdateKind.STARTED:
                log_lines.clear()
                log_lines.extend(event_lines(update.events, name, lang))
            png = await self.images.table(session, session.public, lang)
            await self.edit_public(
                session,
                screens.table_screen(
                    session, lang, list(log_lines), png=png, round_pause=self.bot.manager.limits.round_pause
                ),
            )
            for event in update.events:
                if isinstance(event, RoundEnded):
                    await channel.send(**screens.round_summary(session, event, lang).send_kwargs())
            if kind is UpdateKind.FINISHED:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
            await self.refresh_turn_hand(session)

    def _message_id(self, session: SessionView) -> int | None:
        """The public message of the session: as last committed (a table posted anew since ``session`` was
        committed is in the newer snapshot)."""
        latest = self.bot.manager.snapshot(session.channel_id)
        ui = latest.ui if latest is not None and latest.same_session(session) else session.ui
        message = ui.get("message")
        return int(message) if message is not None else None

    async def edit_public(self, session: SessionView, screen: Screen) -> None:
        """Edit the session's public message into ``screen``; post it anew (and remember it) when it vanished."""
        message_id = self._message_id(session)
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(**screen.edit_kwargs())
                    return
                except discord.NotFound:
                    for file in screen.files:
                        file.reset()  # the failed edit read the image: send it from its start again
            message = await channel.send(**screen.send_kwargs())
        latest = self.bot.manager.snapshot(session.channel_id)
        if session.status is not Status.FINISHED and latest is not None and latest.same_session(session):
            await self.bot.manager.update_ui(session.channel_id, message=message.id)

    async def refresh_turn_hand(self, session: SessionView) -> None:
        """Bring the ephemeral hand of the player whose decision is pending up to date (within the token's life)."""
        public = session.public
        if public is None or public.pending is None or session.seat_views is None:
            return
        user = session.seats[public.pending].user_id
        if user is None:
            return
        await self.hands.refresh(session, user, session.seat_views[public.pending])


__all__ = ["LOG_LINES", "Publisher"]
