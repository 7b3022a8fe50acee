"""The publisher: after each committed change it brings the channel's public message (lobby, table, closed game),
the round and match summaries and the open hand of the player whose decision is pending up to date
(DESIGN "Discord layer")."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import discord

from bot.adapter import Update
from bot.adapter.session import Session, Status
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
        session = update.session
        lang = session.ui.get("lang", "en")
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        kind = update.kind
        log_lines = self.logs.setdefault(session.channel_id, deque(maxlen=LOG_LINES))

        def name(seat: int) -> str:
            return screens.player_name(session, seat, lang)

        if session.game is not None and update.events:
            log_lines.extend(event_lines(update.events, name, lang))
        if kind == "lobby":
            if session.ui.get("message") is not None:  # the first lobby message is the answer to the command
                await self.edit_public(session, screens.lobby_screen(session, lang))
        elif kind.startswith("closed"):
            reason = kind.partition(":")[2]
            await self.edit_public(session, screens.closed_screen(session, lang, reason))
            self.logs.pop(session.channel_id, None)
            self.jumps.forget(session.channel_id)
            if session.game is not None and session.result is not None:
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
        elif session.game is not None:
            if kind == "started":
                log_lines.clear()
                log_lines.extend(event_lines(update.events, name, lang))
            png = await self.images.table(session, session.game.view(None), lang)
            await self.edit_public(
                session,
                screens.table_screen(
                    session, lang, list(log_lines), png=png, round_pause=self.bot.manager.limits.round_pause
                ),
            )
            for event in update.events:
                if isinstance(event, RoundEnded):
                    await channel.send(**screens.round_summary(session, event, lang).send_kwargs())
            if kind == "finished":
                await channel.send(**screens.match_summary(session, lang).send_kwargs())
            await self.refresh_turn_hand(session)
            await self.refresh_house_hands(session, update)

    async def edit_public(self, session: Session, screen: Screen) -> None:
        """Edit the session's public message into ``screen``; post it anew (and remember it) when it vanished."""
        message_id = session.ui.get("message")
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        with screen:
            if message_id is not None:
                try:
                    await channel.get_partial_message(int(message_id)).edit(**screen.edit_kwargs())
                    return
                except discord.NotFound:
                    for file in screen.files:
                        file.reset()  # the failed edit read the image: send it from its start again
            message = await channel.send(**screen.send_kwargs())
        if session.status != Status.FINISHED and session.channel_id in self.bot.manager.sessions:
            await self.bot.manager.update_ui(session.channel_id, message=message.id)

    async def refresh_turn_hand(self, session: Session) -> None:
        """Bring the ephemeral hand of the player whose decision is pending up to date (within the token's life)."""
        game = session.game
        if game is None or game.pending is None:
            return
        user = session.seats[game.pending].user_id
        if user is None:
            return
        await self.hands.refresh(session, user, game.view(game.pending))

    async def refresh_house_hands(self, session: Session, update: Update) -> None:
        """House rules (SPEC H): tell the players who received a hand by a 7 or a 0 whose hand they now hold (the
        player who acted sees it in the answer to their click), and bring the open hands of the players who can jump
        in, or could until this change, up to date, so that a **Jump in!** control is there at once and only while it
        can be used."""
        game = session.game
        if game is None or not (game.options.seven_zero or game.options.jump_in):
            return
        own = update.actor if update.kind == "action" else None
        received = {e.to for e in update.events if isinstance(e, HandReceived) and e.to != own}
        for seat in sorted(received):
            user = session.seats[seat].user_id
            if user is not None:

                def note(lang: str, seat: int = seat) -> str | None:
                    return house.received_note(
                        update.events, seat, lambda s: screens.player_name(session, s, lang), lang
                    )

                await self.hands.refresh(session, user, game.view(seat), note=note)
        if not game.options.jump_in:
            return
        views = [game.view(i) if s.user_id is not None and not s.left else None for i, s in enumerate(session.seats)]
        for seat in self.jumps.changed(session.channel_id, views):
            user = session.seats[seat].user_id
            if user is not None and seat != game.pending and seat not in received and seat != own:
                await self.hands.refresh(session, user, game.view(seat))


__all__ = ["LOG_LINES", "Publisher"]
