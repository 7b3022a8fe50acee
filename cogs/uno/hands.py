"""The ephemeral hands: answering with a hand, updating it in place, and remembering each player's open hand so the
publisher can bring it up to date while its interaction token lives (DESIGN "Discord layer": 15 minutes).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.engine.view import PlayerView

from . import ids, screens
from .images import Images
from .screens import Screen

if TYPE_CHECKING:
    from bot.adapter import SessionView
    from bot.client import UnoBot

#: How long an open hand may be edited through its interaction (s): tokens last 15 minutes.
HAND_REFRESH_WINDOW = 14 * 60


@dataclass(slots=True)
class OpenHand:
    """A hand message a player has open: the interaction that can edit it, the fingerprint of the view it shows
    (:func:`cogs.uno.ids.hand_fingerprint`), when it was opened (``time.monotonic()`` s) and its language."""

    interaction: discord.Interaction[UnoBot]
    fingerprint: str
    opened: float
    lang: str


class HandRegistry:
    """The open hand of each (channel, user), forgotten once its token is too old to edit it."""

    def __init__(self, *, window: float = HAND_REFRESH_WINDOW, now: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self._now = now
        self._open: dict[tuple[int, int], OpenHand] = {}

    def remember(
        self, channel_id: int, user_id: int, interaction: discord.Interaction[UnoBot], fp: str, lang: str
    ) -> None:
        self._open[(channel_id, user_id)] = OpenHand(interaction, fp, self._now(), lang)

    def get(self, channel_id: int, user_id: int) -> OpenHand | None:
        """The user's open hand in the channel, if its interaction can still edit it."""
        hand = self._open.get((channel_id, user_id))
        if hand is not None and self._now() - hand.opened > self.window:
            self.forget(channel_id, user_id)
            return None
        return hand

    def forget(self, channel_id: int, user_id: int) -> None:
        self._open.pop((channel_id, user_id), None)

    def __len__(self) -> int:
        return len(self._open)


class Hands:
    """Sends and edits ephemeral hands (deferring first when an image is drawn) and records them in :attr:`open`."""

    def __init__(self, images: Images, *, round_pause: float | None = None) -> None:
        self.images = images
        self.round_pause = round_pause  # named in a hand shown between rounds
        self.open = HandRegistry()
        # One edit of a player's hand at a time: a refresh that began before a click's answer (which may carry a note
        # such as "too late") must not land after it and wipe it, nor may a click's answer land under a refresh.
        self._editing: dict[tuple[int, int], asyncio.Lock] = {}

    def _lock(self, channel_id: int, user_id: int) -> asyncio.Lock:
        return self._editing.setdefault((channel_id, user_id), asyncio.Lock())

    async def send(
        self,
        interaction: discord.Interaction[UnoBot],
        session: SessionView,
        view: PlayerView,
        lang: str,
        *,
        note: str | None = None,
    ) -> None:
        """Answer with a new ephemeral hand. With card images the answer is deferred first (the image takes a few
        milliseconds to draw) and the hand follows."""
        images = await self.images.shown(session.guild_id)
        if images and not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        png, seen = (None, None) if not interaction.response.is_done() else await self.images.hand(session, view, lang)
        async with self._lock(session.channel_id, interaction.user.id):
            if not interaction.response.is_done():
                with screens.hand_screen(session, view, lang, note=note, round_pause=self.round_pause) as screen:
                    await interaction.response.send_message(ephemeral=True, **screen.send_kwargs())
            else:
                with screens.hand_screen(
                    session, view, lang, note=note, png=png, table_png=seen, round_pause=self.round_pause
                ) as screen:
                    await interaction.followup.send(ephemeral=True, **screen.send_kwargs())
            self._remember(interaction, session, view, lang)

    async def show(
        self,
        interaction: discord.Interaction[UnoBot],
        session: SessionView,
        view: PlayerView,
        lang: str,
        *,
        page: int = 0,
        note: str | None = None,
    ) -> None:
        """Update the ephemeral hand the component is on (deferring first when an image is drawn)."""
        images = await self.images.shown(session.guild_id)
        if images and not interaction.response.is_done():
            await interaction.response.defer()
        png, seen = (None, None) if not interaction.response.is_done() else await self.images.hand(session, view, lang)
        async with self._lock(session.channel_id, interaction.user.id):
            if not interaction.response.is_done():
                with screens.hand_screen(
                    session, view, lang, page=page, note=note, round_pause=self.round_pause
                ) as screen:
                    await interaction.response.edit_message(**screen.edit_kwargs())
            else:
                with screens.hand_screen(
                    session, view, lang, page=page, note=note, png=png, table_png=seen, round_pause=self.round_pause
                ) as screen:
                    await interaction.edit_original_response(**screen.edit_kwargs())
            self._remember(interaction, session, view, lang)

    async def edit(self, interaction: discord.Interaction[UnoBot], screen: Screen) -> None:
        """Turn the hand the component is on into ``screen`` (a picker, or "the match is over")."""
        with screen:
            if interaction.response.is_done():
                await interaction.edit_original_response(**screen.edit_kwargs())
            else:
                await interaction.response.edit_message(**screen.edit_kwargs())

    async def refresh(
        self, session: SessionView, user_id: int, view: PlayerView, *, note: Callable[[str], str | None] | None = None
    ) -> None:
        """Bring ``user_id``'s open hand (if any, within its token's life) up to ``view``; nothing when it shows it
        already (unless there is a ``note``, made in the hand's language, to show on it). A hand that cannot be edited
        any more is forgotten."""
        hand = self.open.get(session.channel_id, user_id)
        if hand is None:
            return
        fp = ids.hand_fingerprint(view)
        text = note(hand.lang) if note is not None else None
        if fp == hand.fingerprint and text is None:
            return
        png, seen = await self.images.hand(session, view, hand.lang)
        async with self._lock(session.channel_id, user_id):
            latest = self.open.get(session.channel_id, user_id)
            if latest is not hand and latest is not None and latest.fingerprint == fp and text is None:
                return  # a click showed this very view meanwhile (maybe with a note, e.g. "too late"): keep it
            if latest is None:
                return
            try:
                with screens.hand_screen(
                    session, view, latest.lang, note=text, png=png, table_png=seen, round_pause=self.round_pause
                ) as screen:
                    await latest.interaction.edit_original_response(**screen.edit_kwargs())
                latest.fingerprint = fp
            except discord.HTTPException:
                self.open.forget(session.channel_id, user_id)

    def _remember(
        self, interaction: discord.Interaction[UnoBot], session: SessionView, view: PlayerView, lang: str
    ) -> None:
        self.open.remember(session.channel_id, interaction.user.id, interaction, ids.hand_fingerprint(view), lang)


__all__ = ["HAND_REFRESH_WINDOW", "HandRegistry", "Hands", "OpenHand"]
