"""Discord's rate limits, imposed by the emulator on every request by default (issue 20, point 6).

Each limit below, with its source. Discord documents the mechanism and the headers, not most of the numbers
("rate limits should not be hard coded": topics/rate-limits); the numbers are what bots meet in practice and what
``shared/docs/discord-emulator.md`` records.

- **Per-route buckets**, keyed by the route and its *major parameter* ("top-level resources are currently limited to
  channels (channel_id), guilds (guild_id), and webhooks (webhook_id or webhook_id + webhook_token)"; developer docs,
  topics/rate-limits, "Rate Limits"), fixed windows:

  ========================================== ============================= =====================================
  bucket (``X-RateLimit-Bucket``)            requests per window           keyed by
  ========================================== ============================= =====================================
  ``channel-message-create`` (POST message)  5 per 5 s                     channel
  ``channel-message-edit`` (PATCH message)   5 per 5 s                     channel
  ``channel-message-delete`` (DELETE)        5 per 5 s                     channel
  ``interaction-webhook`` (followups, GET,   5 per 2 s (one bucket for     application + interaction token
  PATCH, DELETE of ``@original`` and of      all of them: discord.py
  followups)                                 serialises them per token)
  ``route:<METHOD> <path>`` (anything else)  50 per 1 s                    the route's major parameter
  ========================================== ============================= =====================================

  The 5 per 5 s of messages sent, edited and deleted per channel: shared/docs/discord-emulator.md ("roughly 5 messages
  sent, 5 edits and 5 deletes per 5 s per channel are what bots meet in practice"), issue 20's measurements. The
  interaction webhook's 5 per 2 s: issue 20 ("interaction webhooks 5 per 2 s per token"). Other routes (channel and
  guild reads, threads, command sync) get a generous bucket so that every answer carries the headers.
- **Global limit**: 50 requests per second per bot (topics/rate-limits, "Global Rate Limit": "All bots can make up to
  50 requests per second to our API"). "Interaction endpoints are not bound to the bot's Global Rate Limit" (same
  page): interaction callbacks and interaction webhooks do not count towards it. Requests without the bot's token
  (none here) would be limited per IP instead.
- **Headers** on every bucketed answer (topics/rate-limits, "Header Format"): ``X-RateLimit-Limit`` (requests per
  window), ``-Remaining``, ``-Reset`` (epoch seconds, with decimals), ``-Reset-After`` (seconds, with decimals),
  ``-Bucket`` (a hash naming the bucket, without the major parameter); on a 429 also ``-Scope`` (``user`` for a
  per-route limit, ``global`` for the global one) and, for the global one, ``X-RateLimit-Global: true``.
- **429** over a limit (topics/rate-limits, "Exceeding A Rate Limit"): JSON ``{"message", "retry_after" (seconds,
  float), "global"}`` with a ``Retry-After`` header (whole seconds) and a ``Via`` header: discord.py (``http.py``,
  ``webhook/async_.py``) takes a 429 without ``Via`` for a Cloudflare ban and raises instead of waiting.
- **Invalid requests** (topics/rate-limits, "Invalid Request Limit aka Cloudflare bans"): 10,000 answers of 401, 403
  or 429 (a 429 of scope ``shared`` excepted) within 10 minutes get the IP banned for a while. The emulator counts
  them (``DiscordEmulator.invalid_requests``, ``invalid_request_count()``); it does not ban.
- **Not bucketed**: interaction callbacks (``POST /interactions/{id}/{token}/callback``) are answered once each; their
  limits are the 3 s deadline (10062 Unknown interaction after it) and one acknowledgement (40060 after it)
  (interactions/receiving-and-responding, "Responding to an Interaction"; see ``rest.py``). Gateway routes and
  attachments are not limited either.
- **Interaction tokens** live 15 minutes (interactions/receiving-and-responding: "Interaction tokens are valid for 15
  minutes"): a followup or edit through an older token is answered 401 ``{"code": 50027, "message": "Invalid Webhook
  Token"}`` (``rest.TOKEN_LIFETIME``, measured on the emulator's clock, which a test may move with
  ``advance_clock``).

Shrinking: ``RateLimits(scale=0.1)`` runs the same buckets with every window ten times shorter (5 edits per 0.5 s,
50 requests per 0.1 s): a test whose play would otherwise wait on the real windows sets ``emu.rate_limits.scale``
and says why. Only a benchmark measuring the difference may switch the limits off
(``DiscordEmulator(benchmark_without_rate_limits=True)``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: Bucket names, for tests and documentation.
CREATE_MESSAGE = "channel-message-create"
EDIT_MESSAGE = "channel-message-edit"
DELETE_MESSAGE = "channel-message-delete"
INTERACTION_WEBHOOK = "interaction-webhook"
GLOBAL = "global"


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``limit`` requests per ``per`` seconds (before scaling)."""

    limit: int
    per: float


#: The per-route limits by bucket name (see the module's table).
LIMITS: dict[str, Limit] = {
    CREATE_MESSAGE: Limit(5, 5.0),
    EDIT_MESSAGE: Limit(5, 5.0),
    DELETE_MESSAGE: Limit(5, 5.0),
    INTERACTION_WEBHOOK: Limit(5, 2.0),
}
#: Every other route's bucket.
OTHER_ROUTE = Limit(50, 1.0)
#: The global limit per bot; interaction callbacks and webhooks do not count.
GLOBAL_LIMIT = Limit(50, 1.0)
#: Invalid requests (401, 403, 429) that get an IP banned, and the window they are counted in (s).
INVALID_REQUEST_BAN = 10_000
INVALID_REQUEST_WINDOW = 600.0

_MESSAGE = re.compile(r"channels/(\d+)/messages/[^/]+")
_MESSAGES = re.compile(r"channels/(\d+)/messages")
_WEBHOOK = re.compile(r"webhooks/(\d+)/([^/]+)(?:/messages/[^/]+)?")
_CALLBACK = re.compile(r"interactions/[^/]+/[^/]+/callback")
_MAJOR = re.compile(r"(?:channels|guilds)/(\d+)")


@dataclass(frozen=True, slots=True)
class Route:
    """Which bucket a request falls into: its name, its major parameter, whether it counts globally."""

    bucket: str
    major: str
    limit: Limit
    global_: bool


def classify(method: str, path: str) -> Route | None:
    """The bucket of ``method path`` (``path`` under ``/api/v10``, without a leading slash); None for the routes
    that are not bucketed (interaction callbacks)."""
    if _CALLBACK.fullmatch(path):
        return None
    if m := _WEBHOOK.fullmatch(path):
        return Route(INTERACTION_WEBHOOK, f"{m.group(1)}+{m.group(2)}", LIMITS[INTERACTION_WEBHOOK], False)
    if method in ("PATCH", "DELETE") and (m := _MESSAGE.fullmatch(path)):
        name = EDIT_MESSAGE if method == "PATCH" else DELETE_MESSAGE
        return Route(name, m.group(1), LIMITS[name], True)
    if method == "POST" and (m := _MESSAGES.fullmatch(path)):
        return Route(CREATE_MESSAGE, m.group(1), LIMITS[CREATE_MESSAGE], True)
    template = re.sub(r"\d{5,}", "{id}", path)
    m = _MAJOR.match(path)
    return Route(f"route:{method} {template}", m.group(1) if m else "", OTHER_ROUTE, True)


@dataclass(slots=True)
class Window:
    """One bucket's fixed window: ``count`` requests taken since it opened; it resets at ``reset_at``."""

    count: int = 0
    reset_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer of :meth:`RateLimits.take`: ``allowed``; the headers to send; for a 429 the ``retry_after`` (s),
    whether it is the ``global`` limit, and the bucket that refused."""

    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    global_: bool = False
    bucket: str = ""


@dataclass
class RateLimits:
    """The buckets of one emulator. ``now`` is the emulator's clock (seconds); ``scale`` multiplies every window
    (1.0: Discord's; a test may shrink them, never switch them off); ``enabled`` False only for a benchmark that
    measures the difference (``DiscordEmulator(benchmark_without_rate_limits=True)``)."""

    now: Callable[[], float]
    scale: float = 1.0
    enabled: bool = True
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)
    global_window: Window = field(default_factory=Window)
    #: Requests taken per bucket name (all major parameters), for tests.
    taken: dict[str, int] = field(default_factory=dict)
    #: Windows whose count reached their limit, by key, with when they reset.
    exhausted: dict[tuple[str, str], float] = field(default_factory=dict)

    def _clock(self) -> float:
        return self.now()

    def take(self, method: str, path: str) -> Verdict | None:
        """Count one request against its bucket and the global limit; None when the route is not bucketed."""
        route = classify(method, path)
        if route is None or not self.enabled:
            return None
        now = self._clock()
        if route.global_:
            gw = self.global_window
            if now >= gw.reset_at:
                gw.count, gw.reset_at = 0, now + GLOBAL_LIMIT.per * self.scale
            if gw.count >= GLOBAL_LIMIT.limit:
                retry = gw.reset_at - now
                headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return Verdict(False, headers, retry, True, GLOBAL)
        window = self.windows.setdefault((route.bucket, route.major), Window())
        if now >= window.reset_at:
            window.count, window.reset_at = 0, now + route.limit.per * self.scale
        reset_after = max(window.reset_at - now, 0.0)
        headers = {
            "X-RateLimit-Limit": str(route.limit.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": route.bucket,
        }
        if window.count >= route.limit.limit:
            headers |= {"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user"}
            return Verdict(False, headers, reset_after, False, route.bucket)
        window.count += 1
        if window.count >= route.limit.limit:
            self.exhausted[(route.bucket, route.major)] = window.reset_at
        if route.global_:
            self.global_window.count += 1
            if self.global_window.count >= GLOBAL_LIMIT.limit:
                self.exhausted[(GLOBAL, "")] = self.global_window.reset_at
        self.taken[route.bucket] = self.taken.get(route.bucket, 0) + 1
        headers["X-RateLimit-Remaining"] = str(route.limit.limit - window.count)
        return Verdict(True, headers, bucket=route.bucket)

    def busy_until(self) -> float:
        """When the last exhausted window resets (emulator clock), or 0: until then a well-behaved client may be
        waiting to send (discord.py sleeps until the reset of a bucket whose ``Remaining`` reached 0)."""
        now = self._clock()
        for key in [k for k, reset_at in self.exhausted.items() if reset_at + 1.0 <= now]:
            del self.exhausted[key]
        return max(self.exhausted.values(), default=0.0)


__all__ = [
    "CREATE_MESSAGE",
    "DELETE_MESSAGE",
    "EDIT_MESSAGE",
    "GLOBAL",
    "GLOBAL_LIMIT",
    "INTERACTION_WEBHOOK",
    "INVALID_REQUEST_BAN",
    "INVALID_REQUEST_WINDOW",
    "LIMITS",
    "OTHER_ROUTE",
    "Limit",
    "RateLimits",
    "Route",
    "Verdict",
    "classify",
]
