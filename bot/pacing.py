"""Staying within Discord's rate limits before discord.py has to wait on them (issue 20, points 1, 3 and 4).

discord.py waits by itself on each route's bucket (the ``X-RateLimit-*`` headers), but it spends a bucket in a burst
and then holds every further request until the window resets, and it learns of the global limit only from a 429.
Two small tools on top of it:

- :class:`GlobalLimit`: at most :data:`bot.limits.GLOBAL_REQUESTS_PER_SECOND` requests in any second, bot-wide, for
  the requests that count towards Discord's global limit (every request with the bot's token; interaction callbacks
  and interaction webhooks do not count: Discord's developer documentation, topics/rate-limits, "Global Rate
  Limit"). :func:`install_global_limit` puts it in front of the bot's HTTP client, so that many tables starting at
  once stay under the global limit without a 429.
- :class:`Spacing`: how long to wait before the next request on a route so that a bucket's requests are spread
  evenly over its window (its limit and window read from the bucket discord.py keeps from the headers), instead of
  a burst and then a stall of a whole window. The publisher waits this long *before* it takes the newest state to
  send (:mod:`cogs.uno.output.publisher`), so that what it sends is never older than necessary.

Both read discord.py 2.x's own bucket state (``HTTPClient._bucket_hashes``, ``HTTPClient._buckets``,
:class:`discord.http.Ratelimit`); without a bucket (no headers seen yet) nothing waits.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from typing import Any

from discord.http import HTTPClient, Ratelimit, Route

from bot.limits import GLOBAL_REQUESTS_PER_SECOND

#: Route paths (discord.py's templates) that do not count towards the global limit: interaction callbacks and the
#: interaction webhooks (followups, edits of ``@original``).
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/{webhook_id}/{webhook_token}")


class GlobalLimit:
    """At most ``rate`` requests in any ``per`` seconds (a sliding window), first come first served.

    ``clock``: a monotonic clock in seconds (the event loop's by default)."""

    def __init__(
        self, rate: int = GLOBAL_REQUESTS_PER_SECOND, per: float = 1.0, *, clock: Callable[[], float] | None = None
    ) -> None:
        if rate < 1 or per <= 0:
            raise ValueError("a global limit needs rate >= 1 and per > 0")
        self.rate = rate
        self.per = per
        self._clock = clock
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()
        #: Requests that waited for the limit, and how long in all (s), for benchmarks.
        self.waited = 0
        self.waited_for = 0.0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def delay(self) -> float:
        """Seconds until one more request may go (0: now)."""
        now = self._now()
        while self._sent and self._sent[0] <= now - self.per:
            self._sent.popleft()
        if len(self._sent) < self.rate:
            return 0.0
        return self._sent[0] + self.per - now

    async def acquire(self) -> None:
        """Wait for a place in the window and take it."""
        async with self._lock:
            waited = 0.0
            while (delay := self.delay()) > 0:
                waited += delay
                await asyncio.sleep(delay)
            if waited:
                self.waited += 1
                self.waited_for += waited
            self._sent.append(self._now())


def counts_globally(route: Route) -> bool:
    """Whether a request on ``route`` counts towards Discord's global limit (not an interaction's own route)."""
    return not route.path.startswith(EXEMPT_PREFIXES)


def install_global_limit(http: HTTPClient, limit: GlobalLimit) -> None:
    """Make every request of ``http`` that counts globally (:func:`counts_globally`) take a place in ``limit``
    first."""
    send = http.request

    async def request(route: Route, **kwargs: Any) -> Any:
        if counts_globally(route):
            await limit.acquire()
        return await send(route, **kwargs)

    http.request = request  # type: ignore[method-assign]


def bucket(http: HTTPClient, route: Route) -> Ratelimit | None:
    """The bucket discord.py keeps for ``route`` (with its major parameters), or None before any answer on it."""
    key = http._bucket_hashes.get(route.key)
    name = f"{key or route.key}:{route.major_parameters}"
    return http._buckets.get(name)


class Spacing:
    """Spreads the requests on each bucket evenly over its window: the next one goes ``window / limit`` seconds
    after the last one sent through this object (and not before the bucket has a request left).

    The window is the longest ``X-RateLimit-Reset-After`` seen on the bucket (the first request of a window reads
    the whole window). A bucket discord.py does not know yet (no headers seen) never waits."""

    def __init__(self, http: HTTPClient | None, *, clock: Callable[[], float] | None = None) -> None:
        self.http = http
        self._clock = clock
        self._last: dict[str, float] = {}
        self._window: dict[str, float] = {}

    def delay(self, route: Route) -> float:
        """Seconds to wait before the next request on ``route`` (0: now)."""
        if self.http is None:
            return 0.0
        rl = bucket(self.http, route)
        if rl is None or rl.expires is None:
            return 0.0
        key = f"{route.key}:{route.major_parameters}"
        now = self._now()
        if rl.remaining <= 0 and rl.expires > now:
            return rl.expires - now
        window = self._window[key] = max(self._window.get(key, 0.0), rl.reset_after)
        last = self._last.get(key)
        if last is None or rl.limit <= 0:
            return 0.0
        return max(0.0, last + window / rl.limit - now)

    def _now(self) -> float:
        """The event loop's clock (discord.py's buckets expire on it), or the test's."""
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def sent(self, route: Route) -> None:
        """Note that a request on ``route`` goes now."""
        self._last[f"{route.key}:{route.major_parameters}"] = self._now()

    async def wait(self, route: Route, limit: GlobalLimit | None = None, *, note: bool = True) -> None:
        """Wait until a request on ``route`` may go without waiting in discord.py (its bucket spaced, and a place
        in ``limit`` free), and note it as sent (``note=False``: the caller notes it with :meth:`sent` only if it
        does send, e.g. a turn ping whose turn may pass meanwhile)."""
        while True:
            delay = max(self.delay(route), limit.delay() if limit is not None else 0.0)
            if delay <= 0:
                break
            await asyncio.sleep(delay)
        if note:
            self.sent(route)


def edit_route(channel_id: int, message_id: int) -> Route:
    """discord.py's route for editing a message of a channel (its bucket: the channel's message edits)."""
    return Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id, message_id=message_id)


def send_route(channel_id: int) -> Route:
    """discord.py's route for sending a message to a channel (its bucket: the channel's new messages)."""
    return Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)


def delete_route(channel_id: int, message_id: int) -> Route:
    """discord.py's route for deleting a message of a channel (its bucket: the channel's deletes)."""
    return Route("DELETE", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id, message_id=message_id)


__all__ = [
    "EXEMPT_PREFIXES",
    "GlobalLimit",
    "Spacing",
    "bucket",
    "counts_globally",
    "delete_route",
    "edit_route",
    "install_global_limit",
    "send_route",
]
