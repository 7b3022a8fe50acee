"""Card images for messages: whether a server shows them, and drawing them within a few slots at once.

:class:`Images` owns the :class:`~cogs.uno.output.painter.Painter` (the image worker process) and the drawing slots
(:data:`DRAWING_CONCURRENCY`). Text-only servers never take a slot.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Protocol

from bot.engine.view import PlayerView
from bot.storage import GuildSettings, UserPrefs

from .. import screens
from .painter import Painter

if TYPE_CHECKING:
    from bot.adapter import SessionView

#: How many messages may be waiting for their images at once. When many games move together the rest queue here,
#: before any of their work starts, instead of as ready tasks in the event loop, where every click would wait behind
#: them before it could be answered. Sending is outside this limit, so a slow network does not slow drawing.
DRAWING_CONCURRENCY = 2
#: How long stopping waits for the images being drawn (s) before it closes the image worker.
DRAWING_DRAIN = 5.0


class Preferences(Protocol):
    """What images depend on: a server's settings (card images on or off) and a player's own preferences (text
    only, larger cards). The bot (:class:`~bot.client.UnoBot`) answers both from its caches."""

    async def guild_settings(self, guild_id: int | None) -> GuildSettings: ...

    async def user_prefs(self, user_id: int | None) -> UserPrefs: ...


class Images:
    """``await images.shown(guild_id)``; ``await images.table(...)`` / ``await images.hand(...)`` give PNG bytes
    (or None when the server is text only). ``prefs`` answers the server's and the player's choices."""

    def __init__(self, prefs: Preferences) -> None:
        self.prefs = prefs
        self.painter = Painter()
        #: The drawing slots (:data:`DRAWING_CONCURRENCY`).
        self.slots = asyncio.Semaphore(DRAWING_CONCURRENCY)

    async def shown(self, guild_id: int | None) -> bool:
        """Whether the server shows card images (``/uno settings card_images``)."""
        return not (await self.prefs.guild_settings(guild_id)).text_only

    async def table(self, session: SessionView, view: PlayerView, lang: str) -> bytes | None:
        """The public table image of ``view`` (the public view), within a drawing slot; None in text-only servers."""
        if not await self.shown(session.guild_id):
            return None
        async with self.slots:
            return await self.painter.table(screens.table_scene(session, view, lang))

    async def _hand_png(self, session: SessionView, view: PlayerView, lang: str, large: bool = False) -> bytes | None:
        """The hand image; in UNO FLIP one image of the hand over the table as this player sees it, with the other
        faces of the opponents' hands (SPEC F10). ``large``: larger cards (``/uno prefs large_cards``)."""
        args = screens.hand_image_args(view)
        if view.other_faces is not None:
            scene = screens.table_scene(session, view, lang)
            if args is None:
                return await self.painter.table(scene)
            return await self.painter.hand_and_table(*args, scene, large=large)
        return await self.painter.hand(*args, large=large) if args is not None else None

    async def hand(self, session: SessionView, view: PlayerView, lang: str) -> tuple[bytes | None, bytes | None]:
        """The hand image (None for an empty hand; in UNO FLIP the hand and the table as this player sees it in one
        image) and None (the second image, no longer drawn), within a drawing slot; ``(None, None)`` in text-only
        servers and for a player who chose text only (``/uno prefs``), without queueing for a slot. A player who
        chose large cards gets them (:data:`~cogs.uno.output.painter.LARGE_CARD_WIDTH`)."""
        if not await self.shown(session.guild_id):
            return None, None
        prefs = await self.prefs.user_prefs(session.seats[view.me].user_id if view.me is not None else None)
        if prefs.text_only:  # the player's own choice (/uno prefs): their hand as text, whatever the server shows
            return None, None
        async with self.slots:
            return await self._hand_png(session, view, lang, prefs.large_cards), None

    async def close(self) -> None:
        """Let the images being drawn finish (at most :data:`DRAWING_DRAIN` s), then stop the image worker (closed
        under a running job, its feeder thread prints a traceback as the bot exits)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._hold_every_slot(), DRAWING_DRAIN)
        self.painter.close()

    async def _hold_every_slot(self) -> None:
        for _ in range(DRAWING_CONCURRENCY):
            await self.slots.acquire()


__all__ = ["DRAWING_CONCURRENCY", "DRAWING_DRAIN", "Images"]
