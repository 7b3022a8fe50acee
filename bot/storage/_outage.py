"""Database outages in the log: one warning when the database stops answering, one line when it is back (issue 20,
point 7).

:func:`watch_outages` wraps a :class:`~bot.storage.Store` so that every call that fails with
:class:`~bot.storage.StorageUnavailable` reports to one :class:`OutageLog`, and every call that succeeds after such a
failure ends the outage. Callers then refuse the action with the one "database unavailable" message and log nothing
themselves: an outage of any length costs two log lines, no tracebacks. Whoever shows the outage to users listens for
its end (:attr:`OutageLog.listeners`) to take the line down at once.
"""

from __future__ import annotations

import functools
import inspect
import logging
import time
from collections.abc import Callable
from typing import Any, cast

from ._models import StorageUnavailable
from ._protocol import Store

log = logging.getLogger("bot.storage")


class OutageLog:
    """Whether the database is away, told once each way.

    :meth:`failed` (a call raised :class:`StorageUnavailable`) logs one WARNING when an outage starts;
    :meth:`answered` (a call succeeded) logs one INFO line "back after N s" when it ends, and calls each of
    :attr:`listeners`. A database that could not be reached is back as soon as any call succeeds; one where only
    writes failed (:attr:`StorageUnavailable.writes_only`: an SQLite disk that is full still answers reads) is back
    when a call of a method that failed during the outage succeeds, or any call during which a write reached the
    database (the store's ``writes`` count grew). ``clock``: monotonic seconds."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.since: float | None = None
        self._failed: set[str] = set()
        self._writes_only = True
        #: Called (without arguments) when an outage ends.
        self.listeners: list[Callable[[], None]] = []

    @property
    def down(self) -> bool:
        """Whether an outage is going on (a call failed and none of the failed kind has succeeded since)."""
        return self.since is not None

    @property
    def writes_only(self) -> bool:
        """Whether the outage going on is one where only writes fail (so only a write can show it over)."""
        return self.since is not None and self._writes_only

    def failed(self, method: str, error: StorageUnavailable) -> None:
        """``method`` failed with ``error``: the first failure of an outage logs one warning."""
        self._failed.add(method)
        self._writes_only = self._writes_only and error.writes_only
        if self.since is None:
            self.since = self._clock()
            log.warning("the database is unavailable (%s); changes are refused until it is back", error)

    def answered(self, method: str, *, wrote: bool = False) -> None:
        """``method`` succeeded (``wrote``: a write reached the database meanwhile): the outage, if any, is over (one
        INFO line, then the :attr:`listeners`), unless only writes failed and neither ``method`` is one of them nor
        a write went through."""
        if self.since is None or (self._writes_only and method not in self._failed and not wrote):
            return
        log.info("the database is back after %.0f s", self._clock() - self.since)
        self.since = None
        self._failed.clear()
        self._writes_only = True
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("a listener of the database's return failed")


class _Watched:
    """A store whose coroutine methods report to an :class:`OutageLog`; everything else is the store's own."""

    def __init__(self, store: Store, outages: OutageLog) -> None:
        self._store = store
        self.outages = outages

    @property
    def wrapped(self) -> Store:
        """The store itself (tests reach its connections through it)."""
        return self._store

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not inspect.iscoroutinefunction(attr):
            return attr
        outages = self.outages

        store = self._store

        @functools.wraps(attr)
        async def call(*args: Any, **kwargs: Any) -> Any:
            writes = getattr(store, "writes", None)
            try:
                result = await attr(*args, **kwargs)
            except StorageUnavailable as exc:
                outages.failed(name, exc)
                raise
            outages.answered(name, wrote=writes is not None and getattr(store, "writes", None) != writes)
            return result

        self.__dict__[name] = call  # looked up once: later calls find it on the instance
        return call

    async def __aenter__(self) -> _Watched:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._store.close()


def watch_outages(store: Store, outages: OutageLog | None = None) -> Store:
    """``store`` with its outages logged once each way (:class:`OutageLog`; a new one unless given). The result is
    used exactly as ``store``; its ``outages`` attribute is the log, ``wrapped`` the store itself."""
    return cast(Store, _Watched(store, outages or OutageLog()))


__all__ = ["OutageLog", "watch_outages"]
