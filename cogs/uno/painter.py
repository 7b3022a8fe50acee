"""Card images are drawn in a separate process, so that drawing never holds up the event loop that answers clicks.

On a small machine the bot's event loop and Pillow would otherwise share one interpreter lock: a burst of hand and
table images delays every other interaction. One worker process (spawned, it imports only :mod:`bot.render`) draws
them instead; each face is drawn once per worker and cached (all of them in the background at start). The worker
runs at a lower CPU priority (``nice`` :data:`WORKER_NICENESS`): when the cores are busy the operating system runs the
event loop that answers clicks first, and the images take the time left over. If the worker cannot be started,
images are drawn in a thread of this process instead.

The worker ignores SIGTERM and SIGINT: a service manager (or Ctrl-C in a terminal) signals the whole process group,
and the bot, not the signal, ends the worker — :meth:`Painter.close` once the images in flight are done. It is started
with both signals held (blocked in the thread that spawns it, as CPython's own resource tracker is), so one that comes
while it is still starting waits until its initializer ignores it instead of killing it. A bot that dies without
closing it (``kill -9``, a crash) takes the worker with it: the worker watches the bot's process and ends when it is
gone.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence

from bot.engine.cards import Face, Side
from bot.render import TableScene, render_hand, render_hand_and_table, render_table, warm_cache
from bot.render.cards import CARD_WIDTH

#: Card width (px) of a hand drawn with large cards: fewer cards per row, each shown half as large again when Discord
#: scales the image down to its preview.
LARGE_CARD_WIDTH = CARD_WIDTH * 3 // 2

log = logging.getLogger(__name__)

#: The signals a service manager or a terminal sends to the whole process group; the worker ignores them.
GROUP_SIGNALS = (signal.SIGTERM, signal.SIGINT)

#: How much lower than the bot's the image worker's CPU priority is (added to its nice value; 0 disables).
WORKER_NICENESS = 10


class Painter:
    """``await painter.hand(...)`` / ``await painter.table(scene)`` give PNG bytes. ``close()`` stops the worker."""

    def __init__(self, *, workers: int = 1) -> None:
        self._pool: concurrent.futures.Executor | None = None
        try:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        except (OSError, ValueError):  # pragma: no cover - no process support: draw in a thread instead
            log.warning("card images will be drawn in a thread (no worker process)")

    async def _run(self, fn: Callable[..., bytes], *args: object) -> bytes:
        loop = asyncio.get_running_loop()
        if self._pool is None:
            return await asyncio.to_thread(fn, *args)
        try:
            with _signals_held():  # the job may spawn the worker here, in this thread
                job = loop.run_in_executor(self._pool, fn, *args)
            return await job
        except concurrent.futures.process.BrokenProcessPool:
            log.exception("the image worker died; drawing in a thread from now on")
            self._pool = None
            return await asyncio.to_thread(fn, *args)

    async def hand(
        self, faces: Sequence[Face], playable: Sequence[int], side: Side, power: bool | None, *, large: bool = False
    ) -> bytes:
        """The hand image; ``large``: cards :data:`LARGE_CARD_WIDTH` px wide (``/uno prefs large_cards``)."""
        return await self._run(_hand, tuple(faces), tuple(playable), side, power, large)

    async def table(self, scene: TableScene) -> bytes:
        return await self._run(render_table, scene)

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
        return await self._run(_hand_and_table, tuple(faces), tuple(playable), side, power, scene, large)

    def close(self) -> None:
        """Stop the worker. Called once the drawings in flight are done (:meth:`Images.close` drains them first), so
        waiting costs nothing; it joins the executor's management thread, which left running races CPython's exit
        hook for its wake-up pipe ("OSError: Bad file descriptor" printed as the bot exits)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Block :data:`GROUP_SIGNALS` in the calling thread for the duration: a process spawned meanwhile starts with
    them blocked (the mask is inherited across fork and exec), and one sent to this process meanwhile stays pending
    (or goes to another thread) and is handled as usual once the block ends. No effect where signal masks are
    missing."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, GROUP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker() -> None:
    """In the worker: ignore SIGTERM/SIGINT sent to the bot's process group (the bot closes the worker when it stops),
    then unblock them (held since the spawn: :func:`_signals_held`, so one sent while the worker started is dropped
    now instead of having killed it), yield the CPU to the bot's event loop when both want it (no effect where ``nice``
    is missing), and draw every card face in a background thread (tens of seconds of CPU), so that the first hands
    after a start do not each wait for their faces to be drawn; images asked for meanwhile are drawn as usual."""
    for sig in GROUP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, GROUP_SIGNALS)
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="uno-watch-the-bot", daemon=True).start()
    threading.Thread(target=warm_cache, name="uno-warm-card-cache", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """In the worker: end at once when the bot's process is gone. A bot killed outright (``kill -9``, the OOM killer,
    a crash) cannot close its worker, which ignores SIGTERM, and would otherwise leave it running as an orphan."""
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


def _hand(faces: tuple[Face, ...], playable: tuple[int, ...], side: Side, power: bool | None, large: bool) -> bytes:
    width = LARGE_CARD_WIDTH if large else CARD_WIDTH
    return render_hand(faces, playable=playable, side=side, power=power, card_width=width)


def _hand_and_table(
    faces: tuple[Face, ...], playable: tuple[int, ...], side: Side, power: bool | None, scene: TableScene, large: bool
) -> bytes:
    width = LARGE_CARD_WIDTH if large else CARD_WIDTH
    return render_hand_and_table(faces, scene, playable=playable, side=side, power=power, card_width=width)
