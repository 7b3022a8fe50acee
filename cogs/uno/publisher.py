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
from bot.engine.events import HandReceived, RoundEnded

from . import house, screens
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
        self.jumps = house.JumpWatch()

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
            self.jumps.forget(session.channel_id)
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
            await self.refresh_house_hands(session, update)

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

    async def refresh_house_hands(self, session: SessionView, update: Update) -> None:
        """House rules (SPEC H): tell the players who received a hand by a 7 or a 0 whose hand they now hold (the
        player who acted sees it in the answer to their click), and bring the open hands of the players who can jump
        in, or could until this change, up to date, so that a **Jump in!** control is there at once and only while it
        can be used. Reads the views committed with ``update`` only."""
        options = session.options
        public, views = session.public, session.seat_views
        if public is None or views is None or not (options.seven_zero or options.jump_in):
            return
        own = update.actor if update.kind is UpdateKind.ACTION else None
        received = {e.to for e in update.events if isinstance(e, HandReceived) and e.to != own}
        for seat in sorted(received):
            user = session.seats[seat].user_id
            if user is not None:

                def note(lang: str, seat: int = seat) -> str | None:
                    return house.received_note(
                        update.events, seat, lambda s: screens.player_name(session, s, lang), lang
                    )

                await self.hands.refresh(session, user, views[seat], note=note)
        if not options.jump_in:
            return
        humans = [views[i] if s.user_id is not None and not s.left else None for i, s in enumerate(session.seats)]
        for seat in self.jumps.changed(session.channel_id, humans):
            user = session.seats[seat].user_id
            if user is not None and seat != public.pending and seat not in received and seat != own:
                await self.hands.refresh(session, user, views[seat])


__all__ = ["LOG_LINES", "Publisher"]
