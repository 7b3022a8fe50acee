"""Where the AI seats think (issue 21 points 1 and 4): their observation histories, and a worker process for the
*Hard* searches so that they never hold up the event loop that answers clicks.

:class:`Thinker` keeps one :class:`~bot.ai.memory.Memory` per AI seat of each live session, fed after every committed
change with the events that seat may see (:func:`~bot.engine.events.visible_to`), and decides moves with
:func:`bot.ai.decide`. A *Hard* search on the seat's own turn (:func:`bot.ai.thinks`) runs in a spawned worker
process (a :class:`bot.workers.WorkerPool`, as the image worker is; started on first use; one by default:
:data:`WORKERS`); the quick levels are decided in line (microseconds). The worker gets only the seat's view,
the match options, its memory and a seed, so its move is the one the same call would give in line. If the worker
cannot be started or dies, searches run in a thread instead.

Memories are kept in process only: after a restart an AI seat starts the round with an empty one (it then samples
hidden cards from fewer clues — never from more than it was shown).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.ai import Level, Memory, decide, thinks
from bot.engine.actions import Action
from bot.engine.events import Event, visible_to
from bot.engine.options import Options
from bot.engine.view import PlayerView
from bot.workers import WorkerPool

if TYPE_CHECKING:
    from .session import Session

#: Worker processes for the *Hard* searches (0: think in a thread of this process).
WORKERS = 1
#: How much lower than the bot's the worker's CPU priority is (added to its nice value).
WORKER_NICENESS = 10


class Thinker:
    """Decides the AI seats' moves and keeps what each seat was shown. ``workers``: worker processes for the
    searches (0: a thread)."""

    def __init__(self, *, workers: int = WORKERS) -> None:
        self.pool = WorkerPool(what="AI", workers=workers, niceness=WORKER_NICENESS, lazy=True)
        self._memories: dict[tuple[int, float, int], Memory] = {}

    # --- observation histories ---------------------------------------------------------------------------------------

    def memory(self, session: Session, seat: int) -> Memory:
        """AI ``seat``'s memory in ``session`` (an empty one the first time)."""
        key = (session.channel_id, session.created_at, seat)
        got = self._memories.get(key)
        if got is None:
            got = self._memories[key] = Memory(seat)
        return got

    def observe(self, session: Session, events: Sequence[Event]) -> None:
        """Show the events of a committed change of ``session`` to each of its AI seats (only what each may see)."""
        if not events:
            return
        for seat, s in enumerate(session.seats):
            if s.ai and not s.left:
                self.memory(session, seat).observe(visible_to(events, seat))

    def forget(self, channel_id: int) -> None:
        """Drop the memories of ``channel_id``'s sessions (the session closed)."""
        for key in [k for k in self._memories if k[0] == channel_id]:
            del self._memories[key]

    # --- decisions ---------------------------------------------------------------------------------------------------

    async def decide(
        self, level: Level | str, view: PlayerView, *, options: Options, memory: Memory | None, seed: int
    ) -> Action | None:
        """:func:`bot.ai.decide` — in the worker for a *Hard* search, in line otherwise."""
        if not thinks(level, view):
            return decide(level, view, options=options, memory=memory, seed=seed)
        # a copy: the memory goes on taking in committed changes while the search runs (and is pickled later)
        return await self.pool.run(_think, level, view, options, copy.deepcopy(memory), seed)

    def close(self) -> None:
        """Stop the worker (searches not yet started are cancelled; one in flight is waited for)."""
        self.pool.close()


def _think(level: str, view: PlayerView, options: Options, memory: Memory | None, seed: int) -> Action | None:
    return decide(level, view, options=options, memory=memory, seed=seed)


__all__ = ["WORKERS", "Thinker"]
