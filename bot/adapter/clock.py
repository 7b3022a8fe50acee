"""Time for the adapter: wall-clock seconds and timers, real or controlled by tests."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """``now()`` in Unix seconds; ``call_later(delay, callback)`` runs ``callback()`` (a plain function) after
    ``delay`` seconds on the running event loop and returns a handle with ``cancel()``."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle: ...


class SystemClock:
    """The real clock: ``time.time()`` and the running loop's ``call_later``."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


class _ManualHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that only moves when a test calls :meth:`advance`; due timers then fire in time order."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.time = start
        self._timers: list[tuple[float, int, _ManualHandle, Callable[[], None]]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self.time

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        handle = _ManualHandle()
        heapq.heappush(self._timers, (self.time + max(0.0, delay), next(self._seq), handle, callback))
        return handle

    def advance(self, seconds: float) -> int:
        """Move time forward by ``seconds`` and run every timer that falls due, in order. Returns how many ran."""
        target = self.time + seconds
        ran = 0
        while self._timers and self._timers[0][0] <= target:
            when, _, handle, callback = heapq.heappop(self._timers)
            self.time = max(self.time, when)
            if not handle.cancelled:
                callback()
                ran += 1
        self.time = target
        return ran

    @property
    def pending(self) -> int:
        """Timers armed and not cancelled."""
        return sum(1 for t in self._timers if not t[2].cancelled)
