"""Card images are drawn in a separate process, so that drawing never holds up the event loop that answers clicks.

On a small machine the bot's event loop and Pillow would otherwise share one interpreter lock: a burst of hand and
table images delays every other interaction. One worker process (a :class:`bot.workers.WorkerPool`: spawned, at a
lower CPU priority, deaf to the signals sent to the bot's process group, ended with the bot; it imports only
:mod:`bot.render`) draws them instead; each face is drawn once per worker and cached (all of them in the background at
start). If the worker cannot be started, images are drawn in a thread of this process instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards import Face, Side
from bot.render import TableScene, render_hand, render_hand_and_table, render_table, warm_cache
from bot.render.card_art import CARD_WIDTH
from bot.workers import WorkerPool

#: Card width (px) of a hand drawn with large cards: fewer cards per row, each shown half as large again when Discord
#: scales the image down to its preview.
LARGE_CARD_WIDTH = CARD_WIDTH * 3 // 2

#: How much lower than the bot's the image worker's CPU priority is (added to its nice value; 0 disables).
WORKER_NICENESS = 10


class Painter:
    """``await painter.hand(...)`` / ``await painter.table(scene)`` give PNG bytes. ``close()`` stops the worker."""

    def __init__(self, *, workers: int = 1) -> None:
        self.pool = WorkerPool(what="image", workers=workers, niceness=WORKER_NICENESS, warm=warm_cache)

    async def hand(
        self, faces: Sequence[Face], playable: Sequence[int], side: Side, power: bool | None, *, large: bool = False
    ) -> bytes:
        """The hand image; ``large``: cards :data:`LARGE_CARD_WIDTH` px wide (``/uno prefs large_cards``)."""
        return await self.pool.run(_hand, tuple(faces), tuple(playable), side, power, large)

    async def table(self, scene: TableScene) -> bytes:
        return await self.pool.run(render_table, scene)

    async def hand_and_table(
        self,
        faces: Sequence[Face],
        playable: Sequence[int],
        side: Side,
        power: bool | None,
        scene: TableScene,
        *,
        large: bool = False,
    ) -> bytes:
        """UNO FLIP: the hand over the table as its player sees it, as one image (SPEC F10); ``large`` as for
        :meth:`hand`."""
        return await self.pool.run(_hand_and_table, tuple(faces), tuple(playable), side, power, scene, large)

    def close(self) -> None:
        """Stop the worker. Called once the drawings in flight are done (:meth:`Images.close` drains them first)."""
        self.pool.close()


def _hand(faces: tuple[Face, ...], playable: tuple[int, ...], side: Side, power: bool | None, large: bool) -> bytes:
    width = LARGE_CARD_WIDTH if large else CARD_WIDTH
    return render_hand(faces, playable=playable, side=side, power=power, card_width=width)


def _hand_and_table(
    faces: tuple[Face, ...], playable: tuple[int, ...], side: Side, power: bool | None, scene: TableScene, large: bool
) -> bytes:
    width = LARGE_CARD_WIDTH if large else CARD_WIDTH
    return render_hand_and_table(faces, scene, playable=playable, side=side, power=power, card_width=width)
