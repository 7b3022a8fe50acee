"""Where the AI seats think (issue 21 points 1 and 4): their observation histories, and a worker process for the
*Hard* searches so that they never hold up the event loop that answers clicks.

:class:`Thinker` keeps one :class:`~bot.ai.memory.Memory` per AI seat of each live session, fed after every committed
change with the events that seat may see (:func:`~bot.engine.events.visible_to`), and decides moves with
:func:`bot.ai.decide`. A *Hard* search on the seat's own turn (:func:`bot.ai.thinks`) runs in a spawned worker
process (started on first use; one by default: :data:`WORKERS`), at a lower CPU priority like the image worker
(:mod:`cogs.uno.painter`); the quick levels are decided in line (microseconds). The worker gets only the seat's view,
the match options, its memory and a seed, so its move is the one the same call would give in line. If the worker
cannot be started or dies, searches run in a thread instead.

Memories are kept in process only: after a restart an AI seat starts the round with an empty one (it then samples
hidden cards from fewer clues — never from more than it was shown).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from bot.ai import Level, Memory, decide, thinks
from bot.engine.actions import Action
from bot.engine.events import Event, visible_to
from bot.engine.options import Options
from bot.engine.view import PlayerView

if TYPE_CHECKING:
    from .session import Session

log = logging.getLogger(__name__)

#: Worker processes for the *Hard* searches (0: think in a thread of this process).
WORKERS = 1
#: How much lower than the bot's the worker's CPU priority is (added to its nice value).
WORKER_NICENESS = 10
_GROUP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Thinker:
    """Decides the AI seats' moves and keeps what each seat was shown. ``workers``: worker processes for the
    searches (0: a thread)."""

    def __init__(self, *, workers: int = WORKERS) -> None:
        self._workers = workers
        self._pool: concurrent.futures.Executor | None = None
        self._broken = False
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
        loop = asyncio.get_running_loop()
        pool = self._get_pool()
        # a copy: the memory goes on taking in committed changes while the search runs (and is pickled later)
        args = (level, view, options, copy.deepcopy(memory), seed)
        if pool is None:
            return await asyncio.to_thread(_think, *args)
        try:
            with _signals_held():  # the job may spawn the worker here, in this thread
                job = loop.run_in_executor(pool, _think, *args)
            return await job
        except concurrent.futures.process.BrokenProcessPool:
            log.exception("the AI worker died; thinking in a thread from now on")
            self._broken = True
            self._pool = None
            return await asyncio.to_thread(_think, *args)

    def _get_pool(self) -> concurrent.futures.Executor | None:
        if self._pool is None and self._workers > 0 and not self._broken:
            try:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                )
            except (OSError, ValueError):  # pragma: no cover - no process support
                log.warning("AI searches will run in a thread (no worker process)")
                self._broken = True
        return self._pool

    def close(self) -> None:
        """Stop the worker (searches in flight are cancelled)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _think(level: str, view: PlayerView, options: Options, memory: Memory | None, seed: int) -> Action | None:
    return decide(level, view, options=options, memory=memory, seed=seed)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Block SIGTERM/SIGINT in this thread while a worker may be spawned (it inherits the mask), as the image worker
    does (:func:`cogs.uno.painter._signals_held`)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker() -> None:
    """In the worker: ignore the signals sent to the bot's process group (the bot closes the worker), run at a lower
    priority, and end when the bot's process is gone."""
    for sig in _GROUP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _GROUP_SIGNALS)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="uno-ai-watch-the-bot", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


__all__ = ["WORKERS", "Thinker"]
