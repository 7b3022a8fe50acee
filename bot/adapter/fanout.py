"""Fan-out: what subscribers (the Discord layer) receive after each committed change, delivered in order per session
(DESIGN "Adapter").

A failing subscriber is logged and never breaks a game; one delivery task per session runs while its queue is not
empty, so a slow channel never holds up another one. A subscriber that answers an update at once and sends its
requests later (the publisher coalesces them: issue 20, point 1) runs that work in :meth:`FanOut.spawn` tasks, which
:meth:`FanOut.running` lists so that waiting for the deliveries also waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bot.engine.events import Event
from bot.storage import StorageUnavailable

from .refusals import StorageDown
from .session_view import SessionView

log = logging.getLogger(__name__)


class UpdateKind(StrEnum):
    """What kind of change an :class:`Update` reports."""

    LOBBY = "lobby"  # seats or settings changed
    STARTED = "started"
    ACTION = "action"  # a player's action (or the round pause running out)
    TIMEOUT = "timeout"  # a turn timer ran out
    AI = "ai"
    REMOVED = "removed"  # a player left or was removed
    FINISHED = "finished"  # match over: results recorded
    CLOSED = "closed"  # lobby cancelled, game ended or expired: the session is gone
    RESUMED = "resumed"  # at start-up: a live session as it was last committed (the messages may be behind)


class CloseReason(StrEnum):
    """Why a session was closed (:attr:`UpdateKind.CLOSED`)."""

    ENDED = "ended"  # the host or a server manager ended it
    IDLE = "idle"  # nobody played for too long
    EMPTY = "empty"  # the last player left the lobby


@dataclass(frozen=True)
class Update:
    """What subscribers receive after each committed change: ``view``, the session as committed by it (frozen, see
    :class:`~bot.adapter.session_view.SessionView`); ``kind``; ``events``, the engine events in order; ``actor``, the
    seat that acted, if any; ``reason`` for :attr:`UpdateKind.CLOSED`."""

    view: SessionView
    kind: UpdateKind
    events: tuple[Event, ...] = ()
    actor: int | None = None
    reason: CloseReason | None = None

    @property
    def version(self) -> int:
        return self.view.version

    @property
    def channel_id(self) -> int:
        return self.view.channel_id


Subscriber = Callable[[Update], Awaitable[None]]


class FanOut:
    """Delivers :class:`Update` s to every subscriber, in order per channel."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._queues: dict[int, asyncio.Queue[Update]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``await callback(update)`` after every committed change, in order per session."""
        self._subscribers.append(callback)

    def publish(self, update: Update) -> Update:
        """Queue ``update`` for the subscribers (nothing to do without subscribers)."""
        channel_id = update.channel_id
        if not self._subscribers:
            return update
        queue = self._queues.setdefault(channel_id, asyncio.Queue())
        queue.put_nowait(update)
        worker = self._workers.get(channel_id)
        if worker is None or worker.done():
            self._workers[channel_id] = asyncio.get_running_loop().create_task(
                self._deliver(queue), name=f"uno-adapter-deliver-{channel_id}"
            )
        return update

    def spawn(self, work: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run a subscriber's delivery work as a task of its own (``name``), listed by :meth:`running` until done; an
        exception it raises is logged."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("delivery task %s failed", task.get_name(), exc_info=task.exception())

    def running(self) -> list[asyncio.Task[Any]]:
        """The delivery tasks (:meth:`spawn`) not finished yet."""
        return [t for t in self._tasks if not t.done()]

    def busy(self) -> list[asyncio.Queue[Update]]:
        """The queues that still hold undelivered updates."""
        return [q for q in self._queues.values() if not q.empty()]

    async def close(self) -> None:
        """Stop the delivery tasks (updates still queued are dropped)."""
        workers = [*self._workers.values(), *self._tasks]
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker
        self._workers.clear()
        self._tasks.clear()

    async def _deliver(self, queue: asyncio.Queue[Update]) -> None:
        """Deliver queued updates in order; the task ends when the queue is empty (``publish`` starts a new one)."""
        while not queue.empty():
            update = queue.get_nowait()
            try:
                for callback in list(self._subscribers):
                    try:
                        await callback(update)
                    except Exception as exc:
                        if isinstance(exc, StorageDown | StorageUnavailable):  # logged once by the store (20.7)
                            log.debug("subscriber could not use the database on %s update", update.kind)
                        else:
                            log.exception("subscriber failed on %s update", update.kind)
            finally:
                queue.task_done()


__all__ = ["CloseReason", "FanOut", "Subscriber", "Update", "UpdateKind"]
