"""One worker process for CPU-heavy work, so that it never holds up the event loop that answers clicks: the card images
(:mod:`cogs.uno.output.painter`) and the *Hard* AI searches (:mod:`bot.adapter.thinker`) each run one.

A :class:`WorkerPool` is a spawned :class:`~concurrent.futures.ProcessPoolExecutor` whose workers

- run at a lower CPU priority (``nice`` ``niceness``): when the cores are busy the operating system runs the event loop
  first, and the worker takes the time left over;
- ignore SIGTERM and SIGINT: a service manager (or Ctrl-C in a terminal) signals the whole process group, and the bot,
  not the signal, ends the worker (:meth:`WorkerPool.close`). A worker is started with both signals held (blocked in
  the thread that spawns it, as CPython's own resource tracker is), so one that comes while it is still starting waits
  until its initializer ignores it instead of killing it;
- end at once when the bot's process is gone (``kill -9``, the OOM killer, a crash), instead of staying as orphans.

If no worker can be started, or the worker dies, the work runs in a thread of this process instead (logged once).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import multiprocessing.connection
import multiprocessing.process
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The signals a service manager or a terminal sends to the whole process group; the workers ignore them.
GROUP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class WorkerPool:
    """``await pool.run(fn, *args)`` runs module-level ``fn(*args)`` (both picklable) in the worker and gives its
    result. ``what`` names the worker in the log ("image", "AI"); ``niceness`` is added to the worker's nice value (0:
    the bot's priority); ``warm``, a module-level function, runs in a background thread of each worker once it has
    started. ``lazy``: start the executor at the first :meth:`run` rather than now. ``workers=0``: always a thread."""

    def __init__(
        self,
        *,
        what: str,
        workers: int = 1,
        niceness: int = 10,
        warm: Callable[[], object] | None = None,
        lazy: bool = False,
    ) -> None:
        self._what = what
        self._workers = workers
        self._initializer = functools.partial(_start_worker, niceness, f"uno-{what.lower()}-watch-the-bot", warm)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._broken = workers <= 0
        if not lazy:
            self._start()

    @property
    def executor(self) -> concurrent.futures.ProcessPoolExecutor | None:
        """The executor while it runs; None before a lazy start, after :meth:`close`, or once work fell back to a
        thread."""
        return self._pool

    def _start(self) -> concurrent.futures.ProcessPoolExecutor | None:
        if self._pool is None and not self._broken:
            try:
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self._workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self._initializer,
                )
            except (OSError, ValueError):  # pragma: no cover - no process support
                log.warning("the %s worker will run in a thread (no worker process)", self._what)
                self._broken = True
        return self._pool

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the worker (in a thread when there is none). Raises what ``fn`` raises."""
        pool = self._start()
        if pool is None:
            return await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        try:
            with signals_held():  # the job may spawn the worker here, in this thread
                job = loop.run_in_executor(pool, fn, *args)
            return await job
        except concurrent.futures.process.BrokenProcessPool:
            log.exception("the %s worker died; running in a thread from now on", self._what)
            self._broken = True
            self._pool = None
            return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Stop the worker: work not yet started is cancelled, and the work in flight is waited for (callers drain
        theirs first, so this is short). Waiting joins the executor's management thread, which, left running, races
        CPython's exit hook for its wake-up pipe ("OSError: Bad file descriptor" printed as the bot exits)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
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


def _start_worker(niceness: int, watch_name: str, warm: Callable[[], object] | None) -> None:
    """In the worker: ignore :data:`GROUP_SIGNALS` (the bot closes the worker when it stops), then unblock them (held
    since the spawn: :func:`signals_held`, so one sent while the worker started is dropped now instead of having
    killed it), yield the CPU to the bot's event loop when both want it (no effect where ``nice`` is missing), watch
    the bot's process, and start ``warm`` in a background thread."""
    for sig in GROUP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, GROUP_SIGNALS)
    if niceness:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name=watch_name, daemon=True).start()
    if warm is not None:
        threading.Thread(target=warm, name="uno-worker-warm-up", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    """In the worker: end at once when the bot's process is gone. A bot killed outright cannot close its worker, which
    ignores SIGTERM, and would otherwise leave it running as an orphan."""
    multiprocessing.connection.wait([parent.sentinel])
    os._exit(0)


__all__ = ["GROUP_SIGNALS", "WorkerPool", "signals_held"]
